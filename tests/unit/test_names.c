/* test_names.c - Java names from JVM forms (libjfr/names.c, jfr/names.h):
 * the rules of the JDK's jfr print and jfr view, and malformed input. */
#include <criterion/criterion.h>
#include <string.h>

#include "jfr.h"

static char buf[256];

static const char *type_of(const char *d, size_t *pos, unsigned flags)
{
    size_t n = jfr_name_of_type(buf, sizeof buf - 1, d, strlen(d), pos, flags);

    cr_assert_lt(n, sizeof buf);
    buf[n] = '\0';
    return buf;
}

static const char *params(const char *d, unsigned flags)
{
    size_t n = jfr_name_of_params(buf, sizeof buf - 1, d, d ? strlen(d) : 0, flags);

    buf[n] = '\0';
    return buf;
}

static const char *class_of(const char *name, unsigned flags)
{
    size_t n =
        jfr_name_of_class(buf, sizeof buf - 1, name, name ? strlen(name) : 0, flags);

    buf[n] = '\0';
    return buf;
}

static const char *method(const char *cls, const char *m, const char *d, unsigned flags)
{
    size_t n = jfr_name_of_method(buf, sizeof buf - 1, cls, cls ? strlen(cls) : 0, m,
                                  m ? strlen(m) : 0, d, d ? strlen(d) : 0, flags);

    buf[n] = '\0';
    return buf;
}

Test(names, one_type_at_a_time)
{
    const char *d = "I[[Ljava/util/Map$Entry;Z";
    size_t pos = 0;

    cr_assert_str_eq(type_of(d, &pos, 0), "int");
    cr_assert_eq(pos, 1);
    cr_assert_str_eq(type_of(d, &pos, 0), "java.util.Map$Entry[][]");
    cr_assert_eq(pos, 24);
    cr_assert_str_eq(type_of(d, &pos, JFR_NAME_SIMPLE), "boolean");
    cr_assert_eq(pos, strlen(d));
    pos = 1;
    cr_assert_str_eq(type_of(d, &pos, JFR_NAME_SIMPLE), "Map$Entry[][]");
    for (const char *c = "BCDFIJSZ"; *c; c++) {
        char one[2] = {*c, 0};
        pos = 0;
        cr_assert_str_neq(type_of(one, &pos, 0), "<unknown-descriptor-type>", "%s", one);
    }
}

Test(names, params_as_the_jdk_shows_them)
{
    cr_assert_str_eq(
        params("(I[JLjava/lang/String;[[Ljava/util/Map$Entry;ZB)V", JFR_NAME_SIMPLE),
        "(int, long[], String, Map$Entry[][], boolean, byte)");
    cr_assert_str_eq(params("(Ljava/lang/String;)V", 0), "(java.lang.String)");
    cr_assert_str_eq(params("()V", 0), "()");
    cr_assert_str_eq(params("(II)V", JFR_NAME_ELIDE_PARAMS), "(...)");
    cr_assert_str_eq(params("()V", JFR_NAME_ELIDE_PARAMS), "()");
}

Test(names, malformed_descriptors)
{
    size_t pos = 0;

    cr_assert_str_eq(params(NULL, 0), "()");
    cr_assert_str_eq(params("", 0), "()");
    cr_assert_str_eq(params("I)V", 0), "()", "no opening bracket");
    cr_assert_str_eq(params("(ILjava/lang/Str", 0), "()", "no closing bracket");
    cr_assert_str_eq(params("(IXJ)V", 0), "(int, <unknown-descriptor-type>, long)");
    cr_assert_str_eq(params("([)V", 0), "(<unknown-descriptor-type>[])");
    cr_assert_str_eq(params("(Ljava/lang/Str)V", JFR_NAME_SIMPLE), "(Str)",
                     "a class cut short runs to the bracket");
    cr_assert_str_eq(type_of("[[", &pos, 0), "<unknown-descriptor-type>[][]");
    cr_assert_eq(pos, 2);
}

Test(names, classes)
{
    cr_assert_str_eq(class_of("java/util/HashMap", 0), "java.util.HashMap");
    cr_assert_str_eq(class_of("java/util/HashMap$Node", JFR_NAME_SIMPLE), "HashMap$Node");
    cr_assert_str_eq(class_of("[Ljava/lang/Object;", 0), "java.lang.Object[]");
    cr_assert_str_eq(class_of("[Ljava/lang/Object;", JFR_NAME_SIMPLE), "Object[]");
    cr_assert_str_eq(class_of("[[B", 0), "byte[][]");
    cr_assert_str_eq(class_of("Top", JFR_NAME_SIMPLE), "Top");
    cr_assert_str_eq(class_of(NULL, 0), "null");
}

Test(names, methods)
{
    cr_assert_str_eq(method("java/util/HashMap", "put",
                            "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                            0),
                     "java.util.HashMap.put(Object, Object)");
    cr_assert_str_eq(method("java/util/HashMap", "put", "(II)V", JFR_NAME_ELIDE_PARAMS),
                     "java.util.HashMap.put(...)");
    cr_assert_str_eq(method("a/B", "run", "()V", JFR_NAME_SIMPLE), "B.run()");
    cr_assert_str_eq(method(NULL, NULL, NULL, 0), "null.null()");
}

Test(names, measures_what_does_not_fit)
{
    const char *d = "(JJ)V";
    char small[4] = {'x', 'x', 'x', 'x'};

    cr_assert_eq(jfr_name_of_params(small, 3, d, strlen(d), 0), strlen("(long, long)"));
    cr_assert_eq(memcmp(small, "(lox", 4), 0, "three bytes written, no more");
    cr_assert_eq(jfr_name_of_params(NULL, 0, d, strlen(d), 0), strlen("(long, long)"));
}

static const char *normalized(const char *name)
{
    size_t n = strlen(name);

    memcpy(buf, name, n);
    buf[jfr_name_normalize(buf, n)] = '\0';
    return buf;
}

Test(names, normalized_across_runs)
{
    cr_assert_str_eq(normalized("wl.Foo$$Lambda$92/0x0000000800c0b000"),
                     "wl.Foo$$Lambda");
    cr_assert_str_eq(normalized("wl.Foo$$Lambda$92+0x0000000800c0b000"),
                     "wl.Foo$$Lambda");
    cr_assert_str_eq(normalized("wl.Foo$$Lambda.0x000000008d047800"), "wl.Foo$$Lambda");
    cr_assert_str_eq(normalized("wl/Foo$$Lambda/0x00007f3c"), "wl/Foo$$Lambda");
    cr_assert_str_eq(normalized("jdk.internal.reflect.GeneratedMethodAccessor123"),
                     "jdk.internal.reflect.GeneratedMethodAccessor");
    cr_assert_str_eq(normalized("com.sun.proxy.$Proxy42"), "com.sun.proxy.$Proxy");
    cr_assert_str_eq(normalized("java.util.HashMap$Node"), "java.util.HashMap$Node",
                     "names that do not change stay");
    cr_assert_str_eq(normalized("a.B$$Lambda$x"), "a.B$$Lambda$x", "no number: kept");
    cr_assert_eq(jfr_name_normalize(NULL, 3), 0);
}
