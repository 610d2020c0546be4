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

/* Every hidden-class form found in the frames of the corpus and test
 * recordings (issue 26), by JDK, as the profile's Java form shows it. */
static const char *const hidden_forms[][2] = {
    /* JDK 8: "$$Lambda$N/HASH", anonymous LambdaForms "/HASH" */
    {"Example$$Lambda$4.1500056228", "Example$$Lambda"},
    {"Example$$Lambda$4/1500056228", "Example$$Lambda"},
    {"java.lang.invoke.LambdaForm$MH.1192644540", "java.lang.invoke.LambdaForm$MH"},
    {"java.lang.invoke.LambdaForm$DMH.576261694", "java.lang.invoke.LambdaForm$DMH"},
    {"java.lang.invoke.LambdaForm$BMH.1470202378", "java.lang.invoke.LambdaForm$BMH"},
    /* JDK 11 to 17 through jfr: "+0xADDR" for the hidden class, "/HASH" */
    {"wl.CpuWorkload$$Lambda$87+0x00007f96b0008c08.494317290", "wl.CpuWorkload$$Lambda"},
    {"java.lang.invoke.LambdaForm$MH+0x00007fde90009400.2143431083",
     "java.lang.invoke.LambdaForm$MH"},
    {"java.lang.invoke.LambdaForm$DMH+0x0000000800d14400.1390869998",
     "java.lang.invoke.LambdaForm$DMH"},
    {"java.util.regex.Pattern$$Lambda$19+0x800000029.459857341",
     "java.util.regex.Pattern$$Lambda"},
    /* JDK 21 */
    {"com.sun.net.httpserver.Headers$$Lambda+0x00007f0ac4415270.60552620",
     "com.sun.net.httpserver.Headers$$Lambda"},
    {"java/util/Comparator$$Lambda/0x00000000290742d8", "java/util/Comparator$$Lambda"},
    /* JDK 25, and async-profiler's "$N.0xADDR" */
    {"java.lang.invoke.LambdaForm$MH.0x0000000050080000",
     "java.lang.invoke.LambdaForm$MH"},
    {"java.lang.String$$StringConcat.0x000000002904b400",
     "java.lang.String$$StringConcat"},
    {"java.util.regex.Pattern$$Lambda.0x800000027", "java.util.regex.Pattern$$Lambda"},
    {"App$$Lambda$75.0x00007ff44c0c4208", "App$$Lambda"},
    /* accessors and proxies, the proxies' dynamic module */
    {"sun.reflect.GeneratedMethodAccessor7", "sun.reflect.GeneratedMethodAccessor"},
    {"jdk.internal.reflect.GeneratedConstructorAccessor12",
     "jdk.internal.reflect.GeneratedConstructorAccessor"},
    {"sun.reflect.GeneratedSerializationConstructorAccessor3",
     "sun.reflect.GeneratedSerializationConstructorAccessor"},
    {"jdk.proxy1.$Proxy12", "jdk.proxy.$Proxy"},
    {"jdk/proxy2/$Proxy3", "jdk/proxy/$Proxy"},
    {"jdk.jfr.proxy.internal.EventHandlerProxy1588_1707103590204-2124169",
     "jdk.jfr.proxy.internal.EventHandlerProxy"},
    /* derived from types: the same in every run */
    {"java.lang.invoke.BoundMethodHandle$Species_LL",
     "java.lang.invoke.BoundMethodHandle$Species_LL"},
    {"java.lang.invoke.LambdaForm$Name", "java.lang.invoke.LambdaForm$Name"},
    {"wl.Outer$1", "wl.Outer$1"},
    {"jdk.proxyfoo.Bar", "jdk.proxyfoo.Bar"},
    {"a.b.0xzz", "a.b.0xzz"},
};

Test(names, normalized_hidden_forms_of_every_jdk)
{
    for (size_t i = 0; i < sizeof hidden_forms / sizeof hidden_forms[0]; i++)
        cr_assert_str_eq(normalized(hidden_forms[i][0]), hidden_forms[i][1], "%s",
                         hidden_forms[i][0]);
}
