/* cmd_sql.c - jfrtool sql: SQL over recordings (doc/sql.md). Every event
 * type of the files is a table of the SQLite connection (sql/), the
 * statements run in order, and each one that returns rows is printed. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "jfrsql.h"
#include "jfrtool.h"
#include "sql_open.h"
#include "sql_output.h"
#include "util.h"

const char usage_sql[] =
    "Usage: jfrtool sql [--json | --csv | --format F] [--width N] QUERY FILE...\n"
    "\n"
    "Run the SQL statements in QUERY over the recordings, read as one. Every\n"
    "event type is a table named by the type (\"jdk.ExecutionSample\", quoted)\n"
    "and by its short name (ExecutionSample); its columns are the fields, nested\n"
    "ones by dotted path (\"eventThread.javaName\", \"stackTrace.topFrame\"),\n"
    "times in ns since the epoch and durations in ns, plus chunk and file.\n"
    "Aggregates: percentile(x, p), median, stdev, first, last, list_distinct.\n"
    "Each view of `jfrtool view` is an SQL view (SELECT * FROM \"view:gc-pauses\"),\n"
    "listed with its columns and units in jfr_views and jfr_view_columns.\n"
    "SQLite's SQL (sqlite.org/lang.html); doc/sql.md lists tables and columns.\n"
    "\n"
    "Example:\n"
    "  jfrtool sql 'SELECT \"stackTrace.topFrame\" AS method, count(*) AS samples\n"
    "    FROM ExecutionSample GROUP BY method ORDER BY samples DESC LIMIT 10' app.jfr\n"
    "\n"
    "Options:\n"
    "  --json     each result as {\"columns\": [...], \"rows\": [{...}]}, numbers\n"
    "             as numbers, NULL as null\n"
    "  --csv      each result as CSV (RFC 4180): a header line, CRLF line ends\n"
    "  --format F text (default), json (as --json) or csv (as --csv); the last\n"
    "             of the three counts; `--format list`\n"
    "  --width N  text table width in characters (default: as the views choose)\n";

static int usage_error(const char *what, const char *arg)
{
    warnx_("%s%s%s (see jfrtool sql --help)", what, arg ? " " : "", arg ? arg : "");
    return EXIT_USAGE;
}

/* Run every statement of `sql`; 0, or EXIT_USAGE after an SQL error. */
static int run_statements(sqlite3 *db, const char *sql, out_format_id format, int width)
{
    const char *tail = sql;

    while (tail && *tail) {
        sqlite3_stmt *stmt;
        const char *text = tail;
        int rc = sqlite3_prepare_v2(db, tail, -1, &stmt, &tail);
        if (rc != SQLITE_OK) {
            /* "no such column: X (did you mean "Y"?)"; the hint's own
             * queries replace the connection's message */
            char *msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
            char *hint = msg ? jfrsql_error_hint(db, text, msg) : NULL;
            warnx_("%s%s", msg ? msg : "out of memory", hint ? hint : "");
            sqlite3_free(hint);
            sqlite3_free(msg);
            return EXIT_USAGE;
        }
        if (!stmt) /* white space or a comment */
            continue;
        rc = sqlite3_column_count(stmt) > 0 ? sql_print_rows(stdout, stmt, format, width)
                                            : sqlite3_step(stmt);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
            warnx_("%s", sqlite3_errmsg(db));
            sqlite3_finalize(stmt);
            return EXIT_USAGE;
        }
        sqlite3_finalize(stmt);
    }
    return EXIT_OK;
}

static int parse_width(const char *arg, int *width)
{
    char *end;
    long w = strtol(arg, &end, 10);

    if (*arg == '\0' || *end != '\0' || w < 1 || w > 100000)
        return -1;
    *width = (int)w;
    return 0;
}

int cmd_sql(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_CSV, OPT_WIDTH, OPT_FORMAT };
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"csv", no_argument, NULL, OPT_CSV},
                                         {"format", required_argument, NULL, OPT_FORMAT},
                                         {"width", required_argument, NULL, OPT_WIDTH},
                                         {0}};
    const out_format *format = out_format_default(OUT_SQL);
    jfrsql_catalog *cat = NULL;
    sqlite3 *db = NULL;
    char *errmsg = NULL;
    int width = 0, c, status;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_sql, stdout);
            return EXIT_OK;
        case OPT_JSON:
        case OPT_CSV: /* the last of --format, --json and --csv counts */
            format = out_format_find(c == OPT_JSON ? "json" : "csv", OUT_SQL);
            break;
        case OPT_FORMAT:
            if ((status = out_format_option(&format, optarg, OUT_SQL)) >= 0)
                return status;
            break;
        case OPT_WIDTH:
            if (parse_width(optarg, &width) < 0)
                return usage_error("bad --width (a number from 1 to 100000):", optarg);
            break;
        default:
            fputs(usage_sql, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind + 2 > argc)
        return usage_error(optind < argc ? "no FILE given" : "no QUERY given", NULL);
    db = sql_open_inputs((const char *const *)argv + optind + 1,
                         (size_t)(argc - optind - 1), 0, false, &cat, &status);
    if (!db)
        return status;
    /* the views as SQL ("view:NAME", jfr_views): here, not in the generic
     * views' connection, which does not need them */
    if (jfrsql_views_attach(db, &errmsg) != SQLITE_OK) {
        warnx_("%s", errmsg ? errmsg : "out of memory");
        sqlite3_free(errmsg);
        status = EXIT_INPUT;
    }
    /* no chunk read at all: the warnings said why, there is nothing to query */
    else if (jfrsql_catalog_chunks(cat) > 0) {
        int rc = run_statements(db, argv[optind], format->id, width);
        if (rc != EXIT_OK)
            status = rc;
    }
    /* a failed write to standard output is told by output_finish (main.c) */
    sqlite3_close(db);
    jfrsql_catalog_unref(cat);
    return status;
}
