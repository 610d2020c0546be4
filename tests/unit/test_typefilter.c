/* test_typefilter.c - naming event types (jfr/typefilter.h; libjfr/
 * typefilter.c, typeset.c, nearest.c): the JDK tool's filter syntax (full
 * and short names, globs, comma lists, categories and their acronyms),
 * JFR 1.0's names, the set of the inputs' types, errors with the nearest
 * names, and the nearest names themselves. The expectations follow JDK 25's
 * `jfr print --events/--categories` (tests/cli/filters-vs-jdk.sh compares
 * with its output on the test recordings). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum { ID_CATEGORY = 30, ID_GC_HEAP, ID_EXEC, ID_WALL, ID_CPU_LOAD, ID_STACK, ID_PARK };

TestSuite(typefilter, .fini = unit_close);

static void event_type(jg_chunk *c, uint64_t id, const char *name, const char *cat0,
                       const char *cat1, const char *cat2)
{
    jg_elem *cls = jg_class(c, id, name, "jdk.jfr.Event");
    jg_elem *a = jg_annotate(cls, ID_CATEGORY, NULL);
    const char *cats[] = {cat0, cat1, cat2};

    jg_field(cls, "startTime", JG_LONG, 0);
    for (int i = 0; i < 3 && cats[i]; i++) {
        char key[16];
        snprintf(key, sizeof key, "value-%d", i);
        jg_attr(a, key, cats[i]);
    }
}

/* The JDK's shapes: jdk.GCHeapSummary in {Java Virtual Machine, GC, Heap},
 * jdk.ExecutionSample in {Java Virtual Machine, Profiling}, async-profiler's
 * profiler.WallClockSample in {Profiler}, jdk.CPULoad in {Operating System,
 * Processor}, a pool type, and `park` as JFR 1.0 named events. */
static jfr_chunk *open_chunk(const char *park)
{
    jg_chunk *c = jg_chunk_new();

    jg_primitives(c);
    jg_class(c, ID_CATEGORY, "jdk.jfr.Category", "java.lang.annotation.Annotation");
    event_type(c, ID_GC_HEAP, "jdk.GCHeapSummary", "Java Virtual Machine", "GC", "Heap");
    event_type(c, ID_EXEC, "jdk.ExecutionSample", "Java Virtual Machine", "Profiling",
               NULL);
    event_type(c, ID_WALL, "profiler.WallClockSample", "Profiler", NULL, NULL);
    event_type(c, ID_CPU_LOAD, "jdk.CPULoad", "Operating System", "Processor", NULL);
    jg_field(jg_class(c, ID_STACK, "jdk.types.StackTrace", NULL), "truncated", JG_BOOLEAN,
             0);
    if (park)
        event_type(c, ID_PARK, park, "Java Application", NULL, NULL);
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    return unit_next_chunk(rec);
}

static jfr_type_filter *filter(const char *text, jfr_filter_by by)
{
    jfr_type_filter *f = NULL;
    jfr_error err;
    int rc = jfr_type_filter_new(&f, text, by, NULL, &err);

    cr_assert_eq(rc, JFR_OK, "'%s': %s", text, err.message);
    return f;
}

/* The types of the chunk that `text` selects, as "a b c" in metadata order. */
static const char *selected(jfr_chunk *c, const char *text, jfr_filter_by by)
{
    static char out[512];
    jfr_type_filter *f = filter(text, by);

    out[0] = '\0';
    for (size_t i = 0; i < jfr_chunk_type_count(c); i++) {
        const jfr_type *t = jfr_chunk_type_at(c, i);
        if (!jfr_type_filter_matches(f, t))
            continue;
        if (out[0])
            strcat(out, " ");
        strcat(out, jfr_type_name(t));
    }
    jfr_type_filter_free(f);
    return out;
}

Test(typefilter, names_full_short_and_globs)
{
    jfr_chunk *c = open_chunk(NULL);

    cr_assert_str_eq(selected(c, "jdk.ExecutionSample", JFR_FILTER_BY_NAME),
                     "jdk.ExecutionSample");
    cr_assert_str_eq(selected(c, "ExecutionSample", JFR_FILTER_BY_NAME),
                     "jdk.ExecutionSample");
    /* case matters, as in the JDK */
    cr_assert_str_eq(selected(c, "executionsample", JFR_FILTER_BY_NAME), "");
    cr_assert_str_eq(selected(c, "jdk.GC*", JFR_FILTER_BY_NAME), "jdk.GCHeapSummary");
    cr_assert_str_eq(selected(c, "GC*", JFR_FILTER_BY_NAME), "jdk.GCHeapSummary");
    cr_assert_str_eq(selected(c, "*Sample", JFR_FILTER_BY_NAME),
                     "jdk.ExecutionSample profiler.WallClockSample");
    cr_assert_str_eq(selected(c, "GCHeap?ummary", JFR_FILTER_BY_NAME),
                     "jdk.GCHeapSummary");
    cr_assert_str_eq(selected(c, "*", JFR_FILTER_BY_NAME),
                     "jdk.GCHeapSummary jdk.ExecutionSample profiler.WallClockSample "
                     "jdk.CPULoad");
    /* a glob of the middle of a name matches no part of it */
    cr_assert_str_eq(selected(c, "Heap", JFR_FILTER_BY_NAME), "");
    cr_assert_str_eq(selected(c, "jdk.", JFR_FILTER_BY_NAME), "");
    /* pool types are not event types */
    cr_assert_str_eq(selected(c, "StackTrace,jdk.types.*", JFR_FILTER_BY_NAME), "");
}

Test(typefilter, comma_lists_are_trimmed)
{
    jfr_chunk *c = open_chunk(NULL);
    jfr_type_filter *f = filter(" CPULoad , ,GCHeap?ummary,", JFR_FILTER_BY_NAME);

    cr_assert_eq(jfr_type_filter_item_count(f), 2);
    cr_assert_str_eq(jfr_type_filter_item(f, 0), "CPULoad");
    cr_assert_str_eq(jfr_type_filter_item(f, 1), "GCHeap?ummary");
    cr_assert_null(jfr_type_filter_item(f, 2));
    jfr_type_filter_free(f);
    cr_assert_str_eq(selected(c, " CPULoad , ,GCHeap?ummary", JFR_FILTER_BY_NAME),
                     "jdk.GCHeapSummary jdk.CPULoad");
}

Test(typefilter, empty_filters_are_refused)
{
    jfr_type_filter *f = (jfr_type_filter *)1;
    jfr_error err;

    cr_assert_eq(jfr_type_filter_new(&f, " , ,", JFR_FILTER_BY_NAME, NULL, &err),
                 JFR_EINVAL);
    cr_assert_null(f);
    cr_assert_str_eq(err.message, "empty event type filter ' , ,'");
    cr_assert_eq(jfr_type_filter_new(&f, "", JFR_FILTER_BY_CATEGORY, NULL, NULL),
                 JFR_EINVAL);
    cr_assert_eq(jfr_type_filter_new(&f, NULL, JFR_FILTER_BY_NAME, NULL, NULL),
                 JFR_EINVAL);
    jfr_type_filter_free(NULL);
    jfr_type_set_free(NULL);
}

Test(typefilter, categories_globs_and_acronyms)
{
    jfr_chunk *c = open_chunk(NULL);

    cr_assert_str_eq(selected(c, "GC", JFR_FILTER_BY_CATEGORY), "jdk.GCHeapSummary");
    cr_assert_str_eq(selected(c, "Heap", JFR_FILTER_BY_CATEGORY), "jdk.GCHeapSummary");
    cr_assert_str_eq(selected(c, "JVM", JFR_FILTER_BY_CATEGORY),
                     "jdk.GCHeapSummary jdk.ExecutionSample");
    cr_assert_str_eq(selected(c, "OS", JFR_FILTER_BY_CATEGORY), "jdk.CPULoad");
    cr_assert_str_eq(selected(c, "Java*", JFR_FILTER_BY_CATEGORY),
                     "jdk.GCHeapSummary jdk.ExecutionSample");
    cr_assert_str_eq(selected(c, "Profil*", JFR_FILTER_BY_CATEGORY),
                     "jdk.ExecutionSample profiler.WallClockSample");
    cr_assert_str_eq(selected(c, "Java Virtual Machine,OS", JFR_FILTER_BY_CATEGORY),
                     "jdk.GCHeapSummary jdk.ExecutionSample jdk.CPULoad");
    /* acronyms are exact, and only of categories of several words */
    cr_assert_str_eq(selected(c, "jvm", JFR_FILTER_BY_CATEGORY), "");
    cr_assert_str_eq(selected(c, "J*", JFR_FILTER_BY_CATEGORY),
                     "jdk.GCHeapSummary jdk.ExecutionSample");
    cr_assert_str_eq(selected(c, "P", JFR_FILTER_BY_CATEGORY), "");
}

Test(typefilter, one_item_at_a_time)
{
    jfr_chunk *c = open_chunk(NULL);
    jfr_type_filter *f = filter("GC,Profiler", JFR_FILTER_BY_CATEGORY);
    const jfr_type *gc = jfr_chunk_type_by_name(c, "jdk.GCHeapSummary");
    const jfr_type *wall = jfr_chunk_type_by_name(c, "profiler.WallClockSample");

    cr_assert(jfr_type_filter_item_matches(f, 0, gc));
    cr_assert_not(jfr_type_filter_item_matches(f, 1, gc));
    cr_assert(jfr_type_filter_item_matches(f, 1, wall));
    cr_assert_not(jfr_type_filter_item_matches(f, 2, wall));
    cr_assert_eq(jfr_type_filter_by(f), JFR_FILTER_BY_CATEGORY);
    jfr_type_filter_free(f);
}

Test(typefilter, jfr10_names_answer_to_later_names)
{
    jfr_chunk *c = open_chunk("com.oracle.jdk.ThreadPark");
    jfr_type_set *set;
    const char *name;

    cr_assert_str_eq(selected(c, "jdk.ThreadPark", JFR_FILTER_BY_NAME),
                     "com.oracle.jdk.ThreadPark");
    cr_assert_str_eq(selected(c, "ThreadPark", JFR_FILTER_BY_NAME),
                     "com.oracle.jdk.ThreadPark");
    cr_assert_str_eq(selected(c, "com.oracle.jdk.ThreadPark", JFR_FILTER_BY_NAME),
                     "com.oracle.jdk.ThreadPark");
    cr_assert_str_eq(selected(c, "jdk.Thread*", JFR_FILTER_BY_NAME),
                     "com.oracle.jdk.ThreadPark");
    cr_assert_eq(jfr_type_set_new(&set, NULL), JFR_OK);
    cr_assert_eq(jfr_type_set_add_chunk(set, c), JFR_OK);
    cr_assert_str_eq(jfr_type_set_name(set, 4), "jdk.ThreadPark");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "com.oracle.jdk.ThreadPark", NULL),
                 JFR_OK);
    cr_assert_str_eq(name, "jdk.ThreadPark");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "ThreadPark", NULL), JFR_OK);
    cr_assert_str_eq(name, "jdk.ThreadPark");
    jfr_type_set_free(set);
}

static jfr_type_set *set_of_chunk(jfr_chunk *c)
{
    jfr_type_set *set = NULL;

    cr_assert_eq(jfr_type_set_new(&set, NULL), JFR_OK);
    cr_assert_eq(jfr_type_set_add_chunk(set, c), JFR_OK);
    return set;
}

/* The message of checking `text` against `set`, "" when it passes. */
static const char *check(const jfr_type_set *set, const char *text, jfr_filter_by by,
                         size_t *item)
{
    static jfr_error err;
    jfr_type_filter *f = filter(text, by);
    int rc = jfr_type_filter_check(item, f, set, &err);

    jfr_type_filter_free(f);
    if (rc == JFR_OK)
        return "";
    cr_assert_eq(rc, JFR_ENOTFOUND);
    return err.message;
}

/* A JDK's own event type is never a typo: in a recording of a JDK without
 * it, it selects nothing, as the JDK's tool does; near misses, other
 * cases, globs and categories are still errors. */
Test(typefilter, a_jdk_event_type_no_input_has_selects_nothing)
{
    jfr_type_set *set = set_of_chunk(open_chunk(NULL));

    cr_assert_str_eq(check(set, "jdk.CPUTimeSample,CPULoad", JFR_FILTER_BY_NAME, NULL),
                     "");
    cr_assert_str_eq(check(set, "CPUTimeSamplesLost", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_eq(
        check(set, "com.oracle.jdk.BiasedLockRevocation", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_neq(check(set, "jdk.CPUTimeSampl", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_neq(check(set, "cputimesample", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_neq(check(set, "jdk.CPUTime*", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_neq(check(set, "profiler.CPUTimeSample", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_neq(check(set, "CPUTimeSample", JFR_FILTER_BY_CATEGORY, NULL), "");
    jfr_type_set_free(set);
}

Test(typefilter, a_name_that_selects_nothing_is_an_error_with_the_nearest)
{
    jfr_type_set *set = set_of_chunk(open_chunk(NULL));
    size_t item = 99;

    cr_assert_eq(jfr_type_set_count(set), 4);
    cr_assert_str_eq(check(set, "ExecutionSample,jdk.GC*", JFR_FILTER_BY_NAME, NULL), "");
    cr_assert_str_eq(check(set, "CPULoad,ExecutionSampl", JFR_FILTER_BY_NAME, &item),
                     "unknown event type 'ExecutionSampl' (did you mean "
                     "jdk.ExecutionSample?)");
    cr_assert_eq(item, 1);
    cr_assert_str_eq(check(set, "jdk.ExecutionSampel", JFR_FILTER_BY_NAME, NULL),
                     "unknown event type 'jdk.ExecutionSampel' (did you mean "
                     "jdk.ExecutionSample?)");
    /* the right short name under another prefix */
    cr_assert_str_eq(check(set, "jdk.WallClockSample", JFR_FILTER_BY_NAME, NULL),
                     "unknown event type 'jdk.WallClockSample' (did you mean "
                     "profiler.WallClockSample?)");
    /* case is ignored when looking for the nearest */
    cr_assert_str_eq(check(set, "cpuload", JFR_FILTER_BY_NAME, NULL),
                     "unknown event type 'cpuload' (did you mean jdk.CPULoad?)");
    cr_assert_str_eq(check(set, "jdk.gc*", JFR_FILTER_BY_NAME, NULL),
                     "no event type matches 'jdk.gc*' (did you mean "
                     "jdk.GCHeapSummary?)");
    cr_assert_str_eq(check(set, "jdk.NoSuchType", JFR_FILTER_BY_NAME, NULL),
                     "unknown event type 'jdk.NoSuchType'");
    cr_assert_str_eq(check(set, "Sample", JFR_FILTER_BY_NAME, NULL),
                     "unknown event type 'Sample' (did you mean jdk.ExecutionSample, "
                     "profiler.WallClockSample?)");
    cr_assert_str_eq(check(set, "JVM,Profiler", JFR_FILTER_BY_CATEGORY, NULL), "");
    cr_assert_str_eq(check(set, "Gc", JFR_FILTER_BY_CATEGORY, NULL),
                     "no event type has category 'Gc' (did you mean GC?)");
    cr_assert_str_eq(check(set, "Java Virtual Machin", JFR_FILTER_BY_CATEGORY, NULL),
                     "no event type has category 'Java Virtual Machin' (did you mean "
                     "Java Virtual Machine?)");
    jfr_type_set_free(set);
}

Test(typefilter, a_type_of_any_chunk_is_known)
{
    jfr_chunk *c = open_chunk(NULL);
    jfr_type_set *set = set_of_chunk(c);
    /* an application's type: a JDK's would pass unknown (above) */
    jfr_type_filter *f = filter("OrderPlaced", JFR_FILTER_BY_NAME);

    cr_assert_eq(jfr_type_filter_check(NULL, f, set, NULL), JFR_ENOTFOUND);
    /* another input, which declares it */
    c = open_chunk("shop.OrderPlaced");
    cr_assert_eq(jfr_type_set_add_chunk(set, c), JFR_OK);
    cr_assert_eq(jfr_type_filter_check(NULL, f, set, NULL), JFR_OK);
    /* names are not added twice */
    cr_assert_eq(jfr_type_set_count(set), 5);
    cr_assert(jfr_type_set_matches(set, 4, f));
    cr_assert_not(jfr_type_set_matches(set, 3, f));
    jfr_type_filter_free(f);
    jfr_type_set_free(set);
}

Test(typefilter, the_set_of_a_recording)
{
    jfr_type_set *set;
    jg_chunk *c1 = jg_chunk_new(), *c2 = jg_chunk_new();

    unit_close();
    jg_primitives(c1);
    jg_field(jg_class(c1, 20, "test.First", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_primitives(c2);
    jg_field(jg_class(c2, 20, "test.Second", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_chunk_build(c1, &bytes);
    jg_chunk_build(c2, &bytes);
    jg_chunk_free(c1);
    jg_chunk_free(c2);
    rec = unit_open(&bytes);
    unit_next_chunk(rec);
    cr_assert_eq(jfr_type_set_new(&set, NULL), JFR_OK);
    cr_assert_eq(jfr_type_set_add_recording(set, rec), JFR_OK);
    cr_assert_eq(jfr_type_set_count(set), 2);
    cr_assert_str_eq(jfr_type_set_name(set, 0), "test.First");
    cr_assert_str_eq(jfr_type_set_name(set, 1), "test.Second");
    cr_assert_null(jfr_type_set_name(set, 2));
    /* rewound: the caller's own pass starts at the first chunk */
    cr_assert_eq(jfr_chunk_index(unit_next_chunk(rec)), 0);
    jfr_type_set_free(set);
}

Test(typefilter, one_name_for_one_type)
{
    jfr_type_set *set = set_of_chunk(open_chunk(NULL));
    const char *name = NULL;
    jfr_error err;

    cr_assert_eq(jfr_type_set_resolve(&name, set, "WallClockSample", &err), JFR_OK);
    cr_assert_str_eq(name, "profiler.WallClockSample");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "jdk.GC*", &err), JFR_OK);
    cr_assert_str_eq(name, "jdk.GCHeapSummary");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "*Sample", &err), JFR_EINVAL);
    cr_assert_null(name);
    cr_assert_str_eq(err.message, "'*Sample' names 2 event types: jdk.ExecutionSample, "
                                  "profiler.WallClockSample");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "CPULod", &err), JFR_ENOTFOUND);
    cr_assert_str_eq(err.message,
                     "unknown event type 'CPULod' (did you mean jdk.CPULoad?)");
    jfr_type_set_free(set);
}

Test(typefilter, a_full_name_wins_over_a_short_one)
{
    jfr_type_set *set = set_of_chunk(open_chunk("Thing"));
    const char *name;
    jg_chunk *c = jg_chunk_new();

    /* a type named "Thing" and another whose short name is "Thing" */
    unit_close();
    jg_primitives(c);
    jg_field(jg_class(c, 20, "acme.Thing", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    cr_assert_eq(jfr_type_set_add_chunk(set, unit_next_chunk(rec)), JFR_OK);
    cr_assert_eq(jfr_type_set_resolve(&name, set, "Thing", NULL), JFR_OK);
    cr_assert_str_eq(name, "Thing");
    cr_assert_eq(jfr_type_set_resolve(&name, set, "acme.Thing", NULL), JFR_OK);
    cr_assert_str_eq(name, "acme.Thing");
    jfr_type_set_free(set);
}

Test(typefilter, long_suggestions_are_left_out_whole)
{
    jfr_type_set *set;
    jg_chunk *c = jg_chunk_new();
    const char *long_name = "com.example.an.extremely.long.package.name.that.goes.on"
                            ".and.on.SomeVeryLongEventTypeNameForTesting";
    char typo[256];
    jfr_error err;
    jfr_type_filter *f;

    unit_close();
    jg_primitives(c);
    jg_field(jg_class(c, 20, long_name, "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    set = set_of_chunk(unit_next_chunk(rec));
    snprintf(typo, sizeof typo, "%sX", long_name);
    f = filter(typo, JFR_FILTER_BY_NAME);
    cr_assert_eq(jfr_type_filter_check(NULL, f, set, &err), JFR_ENOTFOUND);
    /* the name does not fit beside the long item: no half name */
    cr_assert_eq(strstr(err.message, "did you mean"), NULL, "%s", err.message);
    jfr_type_filter_free(f);
    jfr_type_set_free(set);
}

Test(typefilter, nearest_names_of_any_list)
{
    const char *cols[] = {"startTime",
                          "sampledThread",
                          "sampledThread.javaName",
                          "sampledThread.osName",
                          "sampledThread.javaThreadId",
                          "eventThread.javaName",
                          "stackTrace.topFrame"};
    size_t out[4], n;

    n = jfr_nearest_names(out, 4, "sampledThread.javaNam", cols, 7);
    cr_assert_geq(n, 2);
    cr_assert_str_eq(cols[out[0]], "sampledThread.javaName");
    cr_assert_str_eq(cols[out[1]], "eventThread.javaName");
    n = jfr_nearest_names(out, 4, "StartTime", cols, 7);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(cols[out[0]], "startTime");
    n = jfr_nearest_names(out, 4, "topFrame", cols, 7);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(cols[out[0]], "stackTrace.topFrame");
    cr_assert_eq(jfr_nearest_names(out, 4, "xyzzy", cols, 7), 0);
    cr_assert_eq(jfr_nearest_names(out, 0, "startTime", cols, 7), 0);
}

static bool matches(const jfr_type *t, const char *text)
{
    jfr_type_filter *f = filter(text, JFR_FILTER_BY_NAME);
    bool m = jfr_type_filter_matches(f, t);

    jfr_type_filter_free(f);
    return m;
}

Test(typefilter, globs_backtrack_without_recursion)
{
    static char text[4097];
    const jfr_type *t;

    memset(text, 'a', sizeof text - 1);
    /* a name of 4096 characters: the metadata allows it */
    t = jfr_chunk_type_by_name(open_chunk(text), text);
    cr_assert_not_null(t);
    cr_assert_not(matches(t, "a*a*a*a*a*a*a*b"));
    cr_assert(matches(t, "a*a*a*a*a*a*a*a"));
    cr_assert(matches(t, "*?"));
    cr_assert(matches(t, "?*"));
    cr_assert_not(matches(t, "*b*"));
}

Test(typefilter, question_marks_take_whole_characters)
{
    jfr_chunk *c = open_chunk("acme.Gr\xc3\xbc\xc3\x9f"
                              "e");
    const jfr_type *t = jfr_chunk_type_by_name(c, "acme.Gr\xc3\xbc\xc3\x9f"
                                                  "e");

    cr_assert(matches(t, "Gr??e"));
    cr_assert(matches(t, "acme.Gr?*e"));
    cr_assert_not(matches(t, "Gr????e"));
}
