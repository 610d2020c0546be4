/* rules_load.c - the connection the rules of `jfrtool rules` and
 * `jfrtool report` run on (rules_load.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "rules_load.h"
#include "util.h"

/* A rules file is a small text: refuse what cannot be one. */
#define RULES_MAX_SIZE ((size_t)4 << 20)

static void warn_input(const char *file, const jfr_error *err, void *user)
{
    rules_db *rd = user;

    rd->problems++;
    report_error(input_name(file), err);
}

void rules_db_new(rules_db *rd)
{
    char *errmsg = NULL;

    memset(rd, 0, sizeof *rd);
    if (sqlite3_open(":memory:", &rd->db) != SQLITE_OK ||
        jfrsql_register(rd->db) != SQLITE_OK ||
        jfrsql_rules_table(rd->db, &errmsg) != SQLITE_OK)
        diex(EXIT_INPUT, "%s", errmsg ? errmsg : sqlite3_errmsg(rd->db));
}

bool rules_db_attach(rules_db *rd, const char *const *files, size_t nfiles,
                     jfrsql_open_fn open, void *open_user, bool quiet, int *status)
{
    char *errmsg = NULL;

    *status = EXIT_OK;
    if (jfrsql_catalog_new_opened(&rd->cat, files, nfiles, open, open_user,
                                  quiet ? NULL : warn_input, rd) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    if (!quiet)
        for (size_t i = 0; i < jfrsql_catalog_unreadable(rd->cat); i++)
            note_unreadable_input();
    if (jfrsql_catalog_unopened(rd->cat) > 0 || jfrsql_catalog_chunks(rd->cat) == 0)
        *status = EXIT_INPUT;
    /* the tables the rules name are made when they name them */
    if (jfrsql_attach_lazy(rd->db, rd->cat, &errmsg) != SQLITE_OK) {
        if (!quiet)
            warnx_("%s", errmsg ? errmsg : sqlite3_errmsg(rd->db));
        sqlite3_free(errmsg);
        *status = EXIT_INPUT;
        return false;
    }
    return true;
}

/* The whole of `in`, NUL-terminated; NULL (said why) when it is too big. */
static char *read_all(FILE *in, const char *name, size_t *len)
{
    size_t cap = 4096;
    char *text = xmalloc(cap);

    *len = 0;
    for (;;) {
        size_t n = fread(text + *len, 1, cap - *len - 1, in);
        *len += n;
        if (n == 0)
            break;
        if (*len + 1 == cap) {
            if (cap >= RULES_MAX_SIZE) {
                warnx_("%s: more than %zu bytes: not a rules file", name, RULES_MAX_SIZE);
                free(text);
                return NULL;
            }
            cap *= 2;
            text = xrealloc(text, cap, 1);
        }
    }
    if (ferror(in)) {
        warnx_("%s: %s", name, strerror(errno));
        free(text);
        return NULL;
    }
    text[*len] = '\0';
    return text;
}

int rules_db_load(rules_db *rd, const char *path)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = input_name(path);
    FILE *in = is_stdin ? stdin : fopen(path, "rb");
    char *text, *errmsg = NULL;
    size_t len;
    int rc;

    if (!in) {
        warnx_("%s: %s", path, strerror(errno));
        return EXIT_USAGE;
    }
    text = read_all(in, name, &len);
    if (!is_stdin)
        fclose(in);
    if (!text)
        return EXIT_USAGE;
    rc = jfrsql_rules_load(rd->db, text, len, name, &errmsg);
    free(text);
    if (rc == SQLITE_NOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc != SQLITE_OK) {
        warnx_("%s", errmsg ? errmsg : sqlite3_errstr(rc));
        sqlite3_free(errmsg);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

jfr_findings *rules_db_findings(rules_db *rd, jfrsql_skip_fn skipped, void *user)
{
    jfr_findings *f = NULL;
    char *errmsg = NULL;
    int rc = jfrsql_findings_new(&f, rd->db, rd->cat, skipped, user, &errmsg);

    if (rc == SQLITE_NOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc != SQLITE_OK) {
        warnx_("%s", errmsg ? errmsg : sqlite3_errstr(rc));
        sqlite3_free(errmsg);
        return NULL;
    }
    return f;
}

void rules_db_close(rules_db *rd)
{
    sqlite3_close(rd->db);
    jfrsql_catalog_unref(rd->cat);
    memset(rd, 0, sizeof *rd);
}
