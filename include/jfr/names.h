/* jfr/names.h - Java names from the JVM's internal forms.
 *
 * Recordings keep class names as the JVM does ("java/util/HashMap",
 * "[Ljava/lang/Object;") and method parameters as descriptors
 * ("(ILjava/lang/String;)V"). These functions give the names the JDK's jfr
 * tool prints ("java.util.HashMap", "java.lang.Object[]", "(int, String)").
 *
 * Each writes at most `room` bytes to `dst` (no terminating NUL; `dst` may be
 * NULL when `room` is 0) and returns the length of the whole name, so a
 * caller can measure first and write second. Malformed input never fails:
 * a type that cannot be read is "<unknown-descriptor-type>", as in the JDK.
 */
#ifndef JFR_NAMES_H
#define JFR_NAMES_H

#include "common.h"

JFR_BEGIN_DECLS

/** Leave out the package: "String", "Map$Entry", "Object[]". */
#define JFR_NAME_SIMPLE       1u
/** Methods: "(...)" for any parameters, "()" for none. */
#define JFR_NAME_ELIDE_PARAMS 2u

/**
 * The field type at desc[*pos] ("I", "[[Ljava/lang/String;") as a Java type
 * ("int", "java.lang.String[][]"); *pos moves past it. `len` bounds `desc`.
 * A class type without its ';' runs to `len`.
 */
JFR_API size_t jfr_name_of_type(char *dst, size_t room, const char *desc, size_t len,
                                size_t *pos, unsigned flags);

/**
 * The parameter list of method descriptor `desc` ("(I[BLjava/util/Map;)V",
 * `len` bytes): "(int, byte[], java.util.Map)" (JFR_NAME_SIMPLE: "Map").
 * Anything that does not start with '(' has no parameters: "()".
 */
JFR_API size_t jfr_name_of_params(char *dst, size_t room, const char *desc, size_t len,
                                  unsigned flags);

/**
 * A class name as a recording stores it ("java/util/HashMap",
 * "[Ljava/lang/Object;", "[B") in Java form ("java.util.HashMap",
 * "java.lang.Object[]", "byte[]"). NULL is "null".
 */
JFR_API size_t jfr_name_of_class(char *dst, size_t room, const char *name, size_t len,
                                 unsigned flags);

/**
 * "pkg.Class.method(int, String)", the way jfr view shows a frame: the class
 * in Java form, the method name, and the parameters by simple name (with
 * JFR_NAME_ELIDE_PARAMS "(...)"); JFR_NAME_SIMPLE also shortens the class.
 * A NULL class or method is "null".
 */
JFR_API size_t jfr_name_of_method(char *dst, size_t room, const char *class_name,
                                  size_t class_len, const char *method, size_t method_len,
                                  const char *desc, size_t desc_len, unsigned flags);

/**
 * Remove, in place, what differs between two runs of the same program (or
 * a run on another JDK) in a class name, internal or Java form: the
 * counters, addresses and numbers of lambdas and other hidden classes of
 * every JDK ("Foo$$Lambda$12/1234567" of JDK 8,
 * "Foo$$Lambda$92+0x0000000800c0b000/494317290" of JDK 11 to 17,
 * "Foo$$Lambda/0x00007f..." of JDK 21, "Foo$$Lambda.0x00007f..." of JDK
 * 25 all become "Foo$$Lambda"; "LambdaForm$MH+0x.../N" becomes
 * "LambdaForm$MH", "String$$StringConcat.0x..." "String$$StringConcat"):
 * every segment after '/', '.' or '+' that starts with a digit, which no
 * Java name does. Generated accessors and proxies lose their number
 * ("GeneratedMethodAccessor12", "jdk.proxy1.$Proxy7" become
 * "GeneratedMethodAccessor", "jdk.proxy.$Proxy"; JDK 11's
 * "EventHandlerProxy1588_1707103590204-2124169" "EventHandlerProxy").
 * Names the JDK derives from types ("BoundMethodHandle$Species_LL",
 * "Foo$1") stay. Returns the new length (at most `len`).
 */
JFR_API size_t jfr_name_normalize(char *name, size_t len);

JFR_END_DECLS

#endif
