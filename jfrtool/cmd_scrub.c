/* cmd_scrub.c - jfrtool scrub: the JDK's `jfr scrub` (the same filter
 * options and output name), plus --from/--to and redaction. The work is
 * libjfr's writer (jfr_scrub, jfr_writer_add_chunk); this file parses
 * options and says what was redacted. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "rewrite.h"
#include "select.h"
#include "type_names.h"
#include "util.h"

const char usage_scrub[] =
    "Usage: jfrtool scrub [OPTIONS] IN [OUT]\n"
    "\n"
    "Write the events of recording IN that the filters keep to OUT, with the\n"
    "constant pools they need and nothing else, as the JDK's `jfr scrub` does;\n"
    "redact secrets. OUT defaults to IN's name with \"-scrubbed.jfr\" in place\n"
    "of its extension, beside it; '-' is standard output.\n"
    "\n"
    "  --include-events F      keep events whose type matches F\n"
    "  --exclude-events F      leave out events whose type matches F\n"
    "  --include-categories F  keep events of a category that matches F\n"
    "  --exclude-categories F  leave out events of a category that matches F\n"
    "  --include-threads F     keep events whose event thread matches F\n"
    "  --exclude-threads F     leave out events whose event thread matches F\n"
    "  --from T, --to T        keep events that start in [from, to): ISO-8601\n"
    "                          time or an offset from the start of the recording\n"
    "                          (10s, 500ms, 2m); chunks left empty are not written\n"
    "  --redact                redact environment variables, system and security\n"
    "                          properties whose key looks secret (password, secret,\n"
    "                          token, key, credential, auth, ...) and the values of\n"
    "                          such -KEY=VALUE, --KEY=VALUE, -DKEY=VALUE and\n"
    "                          --KEY VALUE arguments in command lines\n"
    "  --redact-field TYPE.FIELD[=REGEX]\n"
    "                          redact that string field of every value of TYPE\n"
    "                          (event or pool type), or only what REGEX (POSIX\n"
    "                          extended) matches in it; may be repeated; a\n"
    "                          TYPE.FIELD that is no string field of IN is an\n"
    "                          error\n"
    "\n"
    "A filter F is a comma-separated list of names, short names (after the\n"
    "last dot) and globs with * and ? (categories: names, globs or the acronym\n"
    "of a category of several words, JVM for Java Virtual Machine); an item\n"
    "that names no event type of IN is an error. An event is written when\n"
    "every filter keeps it. A redacted value reads [redacted]; how many values\n"
    "of each field were redacted goes to standard error.\n";

enum {
    OPT_INCLUDE_EVENTS = 0x100,
    OPT_EXCLUDE_EVENTS,
    OPT_INCLUDE_CATEGORIES,
    OPT_EXCLUDE_CATEGORIES,
    OPT_INCLUDE_THREADS,
    OPT_EXCLUDE_THREADS,
    OPT_FROM,
    OPT_TO,
    OPT_REDACT,
    OPT_REDACT_FIELD
};

static const struct option options[] = {
    {"include-events", required_argument, NULL, OPT_INCLUDE_EVENTS},
    {"exclude-events", required_argument, NULL, OPT_EXCLUDE_EVENTS},
    {"include-categories", required_argument, NULL, OPT_INCLUDE_CATEGORIES},
    {"exclude-categories", required_argument, NULL, OPT_EXCLUDE_CATEGORIES},
    {"include-threads", required_argument, NULL, OPT_INCLUDE_THREADS},
    {"exclude-threads", required_argument, NULL, OPT_EXCLUDE_THREADS},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"redact", no_argument, NULL, OPT_REDACT},
    {"redact-field", required_argument, NULL, OPT_REDACT_FIELD},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* IN's name with "-scrubbed.jfr" for its extension (and a compression
 * suffix), in IN's directory, as the JDK names it. */
static char *default_output(const char *in)
{
    static const char *const packed[] = {".gz", ".lz4", ".xz", ".bz2"};
    const char *base = strrchr(in, '/');
    size_t len = strlen(in), cut;
    char *out, *dot;

    base = base ? base + 1 : in;
    for (size_t i = 0; i < sizeof packed / sizeof packed[0]; i++) {
        size_t n = strlen(packed[i]);
        if (len > n && strcmp(in + len - n, packed[i]) == 0 && in + len - n > base) {
            len -= n;
            break;
        }
    }
    out = xmalloc(len + sizeof "-scrubbed.jfr");
    memcpy(out, in, len);
    out[len] = '\0';
    dot = strrchr(out, '.');
    cut = dot && dot > out + (base - in) ? (size_t)(dot - out) : len;
    strcpy(out + cut, "-scrubbed.jfr");
    return out;
}

/* --redact-field TYPE.FIELD[=REGEX]: the field is after the last dot
 * before '=' (type names have dots, field names do not). Sets *type (to
 * free) and *field (in it); false when ARG is not of that form. */
static bool split_field_spec(const char *arg, char **type, const char **field)
{
    const char *eq = strchr(arg, '=');
    char *spec = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg)),
         *dot = strrchr(spec, '.');

    if (!dot || dot == spec || !dot[1]) {
        free(spec);
        return false;
    }
    *dot = '\0';
    *type = spec;
    *field = dot + 1;
    return true;
}

static int redact_field(jfr_scrub *s, const char *arg)
{
    const char *eq = strchr(arg, '='), *field;
    char *type;
    int rc;

    if (!split_field_spec(arg, &type, &field)) {
        warnx_("--redact-field needs TYPE.FIELD[=REGEX], not '%s'", arg);
        return EXIT_USAGE;
    }
    rc = jfr_scrub_redact_field(s, type, field, eq ? eq + 1 : NULL);
    free(type);
    if (rc < 0) {
        warnx_("--redact-field %s: %s", arg, jfr_scrub_error(s));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

typedef struct scrub_opts {
    jfr_scrub *s;
    const char *from, *to;
    bool redact;
    const char **fields; /* the --redact-field arguments */
    size_t nfields;
} scrub_opts;

static int parse(scrub_opts *o, int argc, char **argv)
{
    int c, rc;

    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_scrub, stdout);
            return -2;
        case OPT_FROM:
            o->from = optarg;
            continue;
        case OPT_TO:
            o->to = optarg;
            continue;
        case OPT_REDACT:
            o->redact = true;
            continue;
        case OPT_REDACT_FIELD:
            if ((rc = redact_field(o->s, optarg)) != EXIT_OK)
                return rc;
            o->fields = xrealloc(o->fields, o->nfields + 1, sizeof *o->fields);
            o->fields[o->nfields++] = optarg;
            continue;
        default:
            if (c < OPT_INCLUDE_EVENTS || c > OPT_EXCLUDE_THREADS) {
                fputs(usage_scrub, stderr);
                return EXIT_USAGE;
            }
            if (jfr_scrub_add_filter(o->s, (jfr_scrub_filter)(c - OPT_INCLUDE_EVENTS),
                                     optarg) < 0) {
                warnx_("%s: %s", argv[optind - 1], jfr_scrub_error(o->s));
                return EXIT_USAGE;
            }
        }
    }
    if (optind >= argc || argc - optind > 2) {
        warnx_("scrub takes IN and, optionally, OUT");
        return EXIT_USAGE;
    }
    if (o->redact && jfr_scrub_redact_defaults(o->s, NULL) < 0) {
        warnx_("--redact: %s", jfr_scrub_error(o->s));
        return EXIT_USAGE;
    }
    return -1;
}

static int set_time_range(scrub_opts *o, jfr_recording *rec)
{
    int64_t start = 0, from = 0, to = 0;

    if (!o->from && !o->to)
        return EXIT_OK;
    (void)jfr_recording_start_nanos(&start, rec);
    if ((o->from && jfr_parse_time(&from, o->from, start) != JFR_OK) ||
        (o->to && jfr_parse_time(&to, o->to, start) != JFR_OK)) {
        warnx_("--from/--to need an ISO-8601 time or an offset such as 10s, not '%s'",
               o->from && jfr_parse_time(&from, o->from, start) != JFR_OK ? o->from
                                                                          : o->to);
        return EXIT_USAGE;
    }
    if (jfr_scrub_set_time_range(o->s, from, to) < 0) {
        warnx_("--from/--to: %s", jfr_scrub_error(o->s));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* A filter item that names no event type (or category) of the input is a
 * usage error with the nearest names, as everywhere in jfrtool
 * (jfr_type_filter(3)); an input that could not be read says so itself. */
static int check_names(const scrub_opts *o, jfr_recording *rec)
{
    jfr_type_set *set = type_set_new();
    jfr_error err;
    int status = EXIT_OK;

    if (jfr_type_set_add_recording(set, rec) < 0)
        diex(EXIT_INPUT, "out of memory");
    if (jfr_type_set_count(set) && jfr_scrub_check(o->s, set, &err) == JFR_ENOTFOUND) {
        warnx_("%s", err.message);
        status = EXIT_USAGE;
    }
    jfr_type_set_free(set);
    return status;
}

static bool is_string(const jfr_field *f)
{
    return strcmp(jfr_type_name(jfr_field_type(f)), "java.lang.String") == 0;
}

/* What `type`'s field `field` is in the chunks of `rec`: 0 no such type,
 * 1 the type without the field, 2 a field that is not a string, 3 a
 * string field (in one chunk at least). `strings` gets the type's string
 * fields where it was first met. */
static int field_state(jfr_recording *rec, const char *type, const char *field,
                       strbuf *strings)
{
    jfr_chunk *chunk;
    int rc, state = 0;

    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        const jfr_type *t = rc >= 0 && chunk ? jfr_chunk_type_by_name(chunk, type) : NULL;
        const jfr_field *f = t ? jfr_type_field_by_name(t, field) : NULL;
        int here = !t ? 0 : !f ? 1 : !is_string(f) ? 2 : 3;

        for (size_t i = 0; t && state == 0 && i < jfr_type_field_count(t); i++) {
            if (!is_string(jfr_type_field_at(t, i)))
                continue;
            sb_puts(strings, strings->len ? ", " : "");
            sb_puts(strings, jfr_field_name(jfr_type_field_at(t, i)));
        }
        state = here > state ? here : state;
    }
    (void)jfr_recording_rewind(rec);
    return state;
}

/* A --redact-field that names no string field of the input is a usage
 * error: a typo would otherwise let the secret out with exit status 0. */
static int check_fields(const scrub_opts *o, jfr_recording *rec, const char *in)
{
    for (size_t i = 0; i < o->nfields; i++) {
        strbuf strings = {0};
        const char *field;
        char *type;
        int state;

        if (!split_field_spec(o->fields[i], &type, &field))
            continue; /* refused when parsed */
        state = field_state(rec, type, field, &strings);
        if (state == 0)
            warnx_("--redact-field %s: %s has no type %s", o->fields[i], in, type);
        else if (state < 3)
            warnx_("--redact-field %s: %s in %s (string fields of %s: %s)", o->fields[i],
                   state == 1 ? "no such field" : "not a string field", in, type,
                   strings.len ? sb_str(&strings) : "none");
        free(type);
        sb_free(&strings);
        if (state < 3)
            return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* What was redacted, per field, on standard error. */
static void report_redactions(const jfr_scrub *s, bool redact)
{
    size_t n = jfr_scrub_redaction_count(s);
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        const char *field;
        uint64_t count;

        (void)jfr_scrub_redaction_at(&field, &count, s, i);
        if (count) {
            warnx_("redacted %llu value%s of %s", (unsigned long long)count,
                   count == 1 ? "" : "s", field);
            any = true;
        }
    }
    if (!any && (redact || n))
        warnx_("nothing redacted");
}

int cmd_scrub(int argc, char **argv)
{
    scrub_opts o = {NULL, NULL, NULL, false, NULL, 0};
    rewrite r;
    char *out = NULL;
    int status;

    if (jfr_scrub_new(&o.s, NULL) < 0)
        diex(EXIT_INPUT, "out of memory");
    if ((status = parse(&o, argc, argv)) != -1) {
        free(o.fields);
        jfr_scrub_free(o.s);
        return status == -2 ? EXIT_OK : status;
    }
    if (optind + 1 < argc)
        out = xstrdup(argv[optind + 1]);
    else if (strcmp(argv[optind], "-") == 0) {
        warnx_("standard input needs OUT");
        free(o.fields);
        jfr_scrub_free(o.s);
        return EXIT_USAGE;
    } else
        out = default_output(argv[optind]);
    if ((status = rewrite_open(&r, argv[optind], out)) == EXIT_OK) {
        if ((status = check_names(&o, r.rec)) == EXIT_OK &&
            (status = check_fields(&o, r.rec, r.name)) == EXIT_OK &&
            (status = set_time_range(&o, r.rec)) == EXIT_OK)
            status = rewrite_chunks(&r, o.s);
        if (status == EXIT_OK && r.chunks_read && !r.stats.chunks_written) {
            warnx_("%s: no event in the time range: nothing written", r.name);
            status = EXIT_USAGE;
        }
        status = rewrite_close(&r, status, status == EXIT_OK);
        if (status == EXIT_OK)
            report_redactions(o.s, o.redact);
    }
    free(out);
    free(o.fields);
    jfr_scrub_free(o.s);
    return status;
}
