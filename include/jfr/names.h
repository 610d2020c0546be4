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
 * Remove, in place, what differs between two runs of the same program in a
 * class name (internal or Java form): the numbers and addresses of lambda
 * and other hidden classes ("Foo$$Lambda$92/0x0000000800c0b000",
 * "Foo$$Lambda.0x00007f...", "Foo$$Lambda$92+0x..." all become
 * "Foo$$Lambda") and of generated accessors and proxies
 * ("GeneratedMethodAccessor12", "$Proxy7" become "GeneratedMethodAccessor",
 * "$Proxy"). Returns the new length (at most `len`).
 */
JFR_API size_t jfr_name_normalize(char *name, size_t len);

JFR_END_DECLS

#endif
