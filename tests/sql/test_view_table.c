/* test_view_table.c - jfrsql_view_table called directly on a test
 * recording (cpu-jdk25.jfr): its cells against the committed JDK 25 `jfr
 * view` outputs of the same views (testdata/jdk/cpu-jdk25.jfr.view-*.txt),
 * its columns, its JSON values, and the JDK's "why no rows" facts
 * (cpu-jdk17.jfr, whose JDK outputs name a missing type and field). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jfrsql.h"
#include "testdata.h"

static sqlite3 *db;
static jfrsql_catalog *cat;
static const char *recording = "cpu-jdk25.jfr";

static char *testdata(const char *rel)
{
    char *path = malloc(4096);

    cr_assert_not_null(path);
    return testdata_path(path, 4096, rel);
}

static void attach(void)
{
    char rel[256], *file;

    snprintf(rel, sizeof rel, "recordings/%s", recording);
    file = testdata(rel);
    const char *files[] = {file};
    char *err = NULL;

    cr_assert_eq(jfrsql_catalog_new(&cat, files, 1, NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    cr_assert_eq(jfrsql_register(db), SQLITE_OK);
    cr_assert_eq(jfrsql_attach(db, cat, &err), SQLITE_OK, "%s", err ? err : "");
    jfrsql_catalog_jdk_integers(cat, true);
    free(file);
}

static void detach(void)
{
    sqlite3_close(db);
    jfrsql_catalog_unref(cat);
}

/* The committed JDK output of view `name`, whole. */
static char *jdk_output(const char *name)
{
    char rel[256], *path, *text;
    FILE *f;
    long n;

    snprintf(rel, sizeof rel, "jdk/%s.view-%s.txt", recording, name);
    path = testdata(rel);
    f = fopen(path, "rb");
    cr_assert(f, "no %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    text = calloc(1, (size_t)n + 1);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    free(path);
    return text;
}

static jfrsql_view_result *table_of(const char *name)
{
    jfrsql_view_result *t = NULL;
    char *err = NULL;
    char rel[256], *file;
    jfrsql_view_table_options o;

    snprintf(rel, sizeof rel, "recordings/%s", recording);
    file = testdata(rel);
    cr_assert_eq(jfrsql_view_table_options_init(&o, JFRSQL_VIEW_TABLE_OPTIONS_VERSION),
                 SQLITE_OK);
    o.metadata_file = file;
    cr_assert_eq(jfrsql_view_table(&t, db, jfrsql_view_find(name), &o, &err), SQLITE_OK,
                 "%s", err ? err : "");
    free(file);
    return t;
}

static void attach25(void)
{
    recording = "cpu-jdk25.jfr";
    attach();
}

TestSuite(view_table, .init = attach25, .fini = detach);

/* A form: each "Label: text" line is the JDK's. */
Test(view_table, form_cells_are_the_jdks)
{
    jfrsql_view_result *t = table_of("gc-pauses");
    char *jdk = jdk_output("gc-pauses");

    cr_assert_eq(t->state, JFRSQL_RESULT_ROWS);
    cr_assert_eq(t->nrows, 1);
    cr_assert_eq(t->ncols, 10);
    for (size_t c = 0; c < t->ncols; c++) {
        char line[256];
        snprintf(line, sizeof line, "\n%s: %s\n", t->cols[c].label, t->cells[c].text);
        cr_expect(strstr(jdk, line), "%s not in the JDK's output", line);
    }
    cr_expect_str_eq(t->cells[0].text, "14.5 ms");
    cr_expect_eq(t->cells[0].value.kind, JFRSQL_JSON_INTEGER); /* nanoseconds */
    cr_expect_str_eq(t->cols[0].unit, "ns");
    free(jdk);
    jfrsql_view_result_free(t);
}

/* A table: the first row's cells, in order, make the JDK's first row. */
Test(view_table, table_cells_are_the_jdks)
{
    jfrsql_view_result *t = table_of("gc");
    char *jdk = jdk_output("gc"), *row = strstr(jdk, "\n--------");
    const char *p;

    cr_assert(row && (row = strchr(row + 1, '\n')));
    p = row + 1;
    cr_assert_eq(t->state, JFRSQL_RESULT_ROWS);
    cr_assert_geq(t->nrows, 1);
    for (size_t c = 0; c < t->ncols; c++) {
        const char *at = strstr(p, t->cells[c].text);
        cr_expect(at && at < strchr(row + 1, '\n'), "cell %zu \"%s\" not in the row", c,
                  t->cells[c].text);
        if (at)
            p = at + strlen(t->cells[c].text);
    }
    cr_expect_str_eq(t->cells[1].text, "1"); /* GC ID */
    cr_expect(t->cols[1].right);
    cr_expect(!t->cols[2].right); /* the type's name */
    cr_expect_str_eq(t->cells[3].text, "56.6 MB");
    cr_expect_eq(t->cells[3].value.kind, JFRSQL_JSON_INTEGER);
    free(jdk);
    jfrsql_view_result_free(t);
}

/* Flags: booleans, "N/A" for no value, -1 as the JDK's long. */
Test(view_table, flag_values)
{
    jfrsql_view_result *t = table_of("jvm-flags");
    char *jdk = jdk_output("jvm-flags");
    size_t found = 0;

    for (size_t i = 0; i < t->nrows; i++) {
        const char *name = t->cells[i * t->ncols].text;
        const char *value = t->cells[i * t->ncols + 1].text;
        char *line = strstr(jdk, name);
        if (strcmp(name, "ActiveProcessorCount") == 0 ||
            strcmp(name, "AOTClassLinking") == 0 || strcmp(name, "AOTCache") == 0) {
            cr_assert(line, "%s not in the JDK's output", name);
            line += strlen(name);
            while (*line == ' ')
                line++;
            cr_expect_eq(strncmp(line, value, strlen(value)), 0, "%s: %s", name, value);
            found++;
        }
    }
    cr_expect_eq(found, 3);
    free(jdk);
    jfrsql_view_result_free(t);
}

static void attach17(void)
{
    recording = "cpu-jdk17.jfr";
    attach();
}

/* The JDK's checks: a type no input declares, a field the type lacks, as
 * the JDK's outputs name them; a type without events. */
TestSuite(view_table17, .init = attach17, .fini = detach);

Test(view_table17, why_no_rows)
{
    jfrsql_view_result *t = table_of("cpu-time-hot-methods");
    char *jdk = jdk_output("cpu-time-hot-methods"), line[256];

    cr_expect_eq(t->state, JFRSQL_RESULT_MISSING_TYPE);
    snprintf(line, sizeof line, "Can't find event type named '%s'.", t->missing);
    cr_expect(strstr(jdk, line), "%s", line);
    jfrsql_view_result_free(t);
    free(jdk);

    t = table_of("compiler-configuration");
    jdk = jdk_output("compiler-configuration");
    cr_expect_eq(t->state, JFRSQL_RESULT_MISSING_FIELD);
    snprintf(line, sizeof line, "Can't find field named '%s' ", t->missing);
    cr_expect(strstr(jdk, line), "%s", line);
    jfrsql_view_result_free(t);
    free(jdk);

    t = table_of("class-modifications");
    jdk = jdk_output("class-modifications");
    cr_expect_eq(t->state, JFRSQL_RESULT_NO_EVENTS);
    cr_expect(strstr(jdk, "No events found for"));
    cr_expect_eq(t->nrows, 0);
    jfrsql_view_result_free(t);
    free(jdk);
}

/* The API's rules: an unknown options version, and NULL freed. */
Test(view_table, api_rules)
{
    jfrsql_view_table_options o;

    cr_expect_eq(jfrsql_view_table_options_init(&o, 99), SQLITE_MISUSE);
    jfrsql_view_result_free(NULL);
}

/* The options' parts: text alone, or the JSON values alone. */
Test(view_table, parts)
{
    jfrsql_view_table_options o;
    jfrsql_view_result *t;
    char *err = NULL;

    jfrsql_view_table_options_init(&o, JFRSQL_VIEW_TABLE_OPTIONS_VERSION);
    o.parts = JFRSQL_RESULT_TEXT;
    cr_assert_eq(jfrsql_view_table(&t, db, jfrsql_view_find("gc"), &o, &err), SQLITE_OK);
    cr_expect_str_eq(t->cells[3].text, "56.6 MB");
    cr_expect_eq(t->cells[3].value.kind, JFRSQL_JSON_NULL);
    jfrsql_view_result_free(t);
    o.parts = JFRSQL_RESULT_VALUES;
    cr_assert_eq(jfrsql_view_table(&t, db, jfrsql_view_find("gc"), &o, &err), SQLITE_OK);
    cr_expect_null(t->cells[3].text);
    cr_expect_eq(t->cells[3].value.kind, JFRSQL_JSON_INTEGER);
    /* bytes that the JDK writes as 56.6 MB */
    cr_expect(t->cells[3].value.i > 56.55 * 1048576 &&
                  t->cells[3].value.i < 56.65 * 1048576,
              "%lld", (long long)t->cells[3].value.i);
    jfrsql_view_result_free(t);
}

static bool made(sqlite3 *conn, const char *name)
{
    sqlite3_stmt *st;
    bool found;

    cr_assert_eq(sqlite3_prepare_v2(conn, "SELECT 1 FROM sqlite_schema WHERE name = ?1",
                                    -1, &st, NULL),
                 SQLITE_OK);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* On a lazy connection, the tables a statement names are made, in any
 * case and by full or short name; a name inside a longer word is not one
 * (GCPhasePauseLevel1, ThreadStartX); making them again changes nothing. */
Test(view_table, tables_a_statement_names)
{
    const char *sql = "SELECT count(*) FROM executionsample, \"jdk.GCPhasePause\" "
                      "WHERE 1 -- ThreadStartX";
    sqlite3 *lazy;
    sqlite3_stmt *st;
    char *err = NULL;

    cr_assert_eq(sqlite3_open(":memory:", &lazy), SQLITE_OK);
    cr_assert_eq(jfrsql_register(lazy), SQLITE_OK);
    cr_assert_eq(jfrsql_attach_lazy(lazy, cat, &err), SQLITE_OK);
    cr_expect_not(made(lazy, "jdk.ExecutionSample"));
    for (int twice = 0; twice < 2; twice++)
        cr_assert_eq(jfrsql_attach_tables_in(lazy, cat, sql, &err), SQLITE_OK, "%s",
                     err ? err : "");
    cr_expect(made(lazy, "jdk.ExecutionSample"));
    cr_expect(made(lazy, "ExecutionSample"));
    cr_expect(made(lazy, "jdk.GCPhasePause"));
    cr_expect_not(made(lazy, "jdk.GCPhasePauseLevel1"));
    cr_expect_not(made(lazy, "jdk.ThreadStart"));
    cr_assert_eq(
        sqlite3_prepare_v2(lazy, "SELECT count(*) FROM ExecutionSample", -1, &st, NULL),
        SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int(st, 0), 172);
    sqlite3_finalize(st);
    sqlite3_close(lazy);
}

/* The catalog's bytes are its chunks' sizes: the whole file, here, and the
 * sum of jfr_chunks.size. */
Test(view_table, catalog_bytes_are_the_chunks)
{
    char rel[256], *file;
    struct stat st;
    sqlite3_stmt *sum;

    snprintf(rel, sizeof rel, "recordings/%s", recording);
    file = testdata(rel);
    cr_assert_eq(stat(file, &st), 0);
    cr_expect_eq(jfrsql_catalog_bytes(cat), (uint64_t)st.st_size);
    cr_assert_eq(
        sqlite3_prepare_v2(db, "SELECT sum(size) FROM jfr_chunks", -1, &sum, NULL),
        SQLITE_OK);
    cr_assert_eq(sqlite3_step(sum), SQLITE_ROW);
    cr_expect_eq((uint64_t)sqlite3_column_int64(sum, 0), jfrsql_catalog_bytes(cat));
    sqlite3_finalize(sum);
    free(file);
}
