/* test_view_cell.c - a table cell's lines (jfrtool/view_cell.c) against the
 * cells JDK 25's `jfr view` printed (the texts below are from its outputs):
 *  - deprecated-methods-for-removal on the corpus's otelbridge-recording.jfr
 *    (a SET of classes in a 59-wide column,
 *    cell-height:10000;truncate-beginning): a class longer than the column
 *    as its simple name, the members sorted;
 *  - blocked-by-system-gc on jafar-tck-test.jfr and jfrtofp-flight.jfr
 *    (cell-height:10 over stackTrace, 59 wide): frames cut with "..." after
 *    their compact form, sorted when all fit, else the first 10 in order;
 *  - allocation-by-site on leak-jdk25.jfr with --cell-height 2 --width 36
 *    --truncate beginning: one value wrapped, cut at its beginning first.
 * Exits 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_cell.h"

static int failures;

/* The cell's lines, joined by '|', against `want`. */
static void expect(const char *what, const view_cell *k, const char *want)
{
    char got[4096] = "";

    for (size_t i = 0; i < k->nlines; i++) {
        if (i > 0)
            strcat(got, "|");
        strncat(got, k->lines[i], sizeof got - strlen(got) - 2);
    }
    if (strcmp(got, want) != 0) {
        printf("FAIL: %s:\n  got  \"%s\"\n  want \"%s\"\n", what, got, want);
        failures++;
    }
}

/* `text` padded with spaces to `width` (ASCII). */
static const char *pad(const char *text, size_t width)
{
    static char buf[8][256];
    static int next;
    char *b = buf[next++ % 8];

    snprintf(b, sizeof buf[0], "%-*s", (int)width, text);
    return b;
}

static void test_set_of_classes(void)
{
    view_cell k = {.width = 59, .height = 10000, .truncate_begin = true};
    char want[1024];

    view_cell_set_values(&k,
                         "org.apache.maven.surefire.booter.spi."
                         "AbstractMasterProcessChannelProcessorFactory\n"
                         "org.apache.maven.surefire.booter.ForkedBooter\n"
                         "com.azul.tooling.Handler",
                         "AbstractMasterProcessChannelProcessorFactory\n"
                         "ForkedBooter\nHandler");
    snprintf(want, sizeof want, "%s|%s|%s",
             pad("AbstractMasterProcessChannelProcessorFactory", 59),
             pad("com.azul.tooling.Handler", 59),
             pad("org.apache.maven.surefire.booter.ForkedBooter", 59));
    expect("set of classes", &k, want);
    view_cell_free(&k);
}

static void test_stack_all_fit(void)
{
    view_cell k = {.width = 59, .height = 10};
    char want[2048];

    view_cell_set_values(
        &k,
        "java.lang.Runtime.gc()\njava.lang.System.gc()\n"
        "com.datadog.demo.profiling.modeltraining.ModelTraining$$Lambda.0x00007f3c"
        "2c0c5a38.run()\n"
        "java.util.concurrent.FutureTask.run()\n"
        "java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor$Worker)",
        "java.lang.Runtime.gc()\njava.lang.System.gc()\n"
        "com.datadog.demo.profiling.modeltraining.ModelTraining$$Lambda.0x00007f3c"
        "2c0c5a38.run()\n"
        "java.util.concurrent.FutureTask.run()\n"
        "java.util.concurrent.ThreadPoolExecutor.runWorker(...)");
    snprintf(want, sizeof want, "%s|%s|%s|%s|%s",
             "com.datadog.demo.profiling.modeltraining.ModelTraining$$...",
             pad("java.lang.Runtime.gc()", 59), pad("java.lang.System.gc()", 59),
             pad("java.util.concurrent.FutureTask.run()", 59),
             pad("java.util.concurrent.ThreadPoolExecutor.runWorker(...)", 59));
    expect("stack, all frames fit: sorted", &k, want);
    view_cell_free(&k);
}

static void test_stack_too_deep(void)
{
    view_cell k = {.width = 59, .height = 2};
    char want[1024];

    view_cell_set_values(&k, "java.lang.Runtime.gc()\njava.lang.System.gc()\na.B.c()",
                         NULL);
    snprintf(want, sizeof want, "%s|%s", pad("java.lang.Runtime.gc()", 59),
             pad("java.lang.System.gc()", 59));
    expect("stack deeper than the cell: in order", &k, want);
    view_cell_free(&k);
}

static void test_wrapped_value(void)
{
    view_cell k = {.width = 17, .height = 2, .truncate_begin = true};

    view_cell_set_text(&k, "wl.LeakWorkload.churn(...)");
    expect("value wrapped", &k, "wl.LeakWorkload.c|hurn(...)        ");
    view_cell_set_text(&k, "java.lang.AbstractStringBuilder.<init>(...)");
    expect("value cut at its beginning, then wrapped", &k,
           "...stractStringBu|ilder.<init>(...)");
    view_cell_set_text(&k, "byte[]");
    expect("short value", &k, "byte[]           ");
    view_cell_free(&k);
}

static void test_right_aligned(void)
{
    view_cell k = {.width = 8, .height = 1, .right = true};

    view_cell_set_text(&k, "35.02%");
    expect("number", &k, "  35.02%");
    view_cell_set_text(&k, "1234567890");
    expect("number cut", &k, "12345...");
    view_cell_free(&k);
}

int main(void)
{
    test_set_of_classes();
    test_stack_all_fit();
    test_stack_too_deep();
    test_wrapped_value();
    test_right_aligned();
    if (failures)
        return 1;
    printf("ok: view cells as the JDK fills them\n");
    return 0;
}
