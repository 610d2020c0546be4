/* names_normalize.c - class names without what changes from run to run (see
 * jfr_name_normalize in jfr/names.h): diffs of two runs, or of a JDK
 * upgrade, match lambdas and other hidden classes, and profiles of a fleet
 * merge them.
 *
 * The forms, as recordings name the classes (internal or Java form):
 *   JDK 8            Foo$$Lambda$12/1234567, LambdaForm$MH/1192644540
 *   JDK 11 to 17     Foo$$Lambda$88+0x0000000800c0b000/494317290 (jfr's '+'
 *                    for the hidden class's '/'), LambdaForm$DMH+0x..../N
 *   JDK 21           Foo$$Lambda+0x00007fd6a834fc40/454841229,
 *                    Foo$$Lambda/0x...
 *   JDK 25           Foo$$Lambda.0x0000078001000d10, String$$StringConcat.0x..
 *   CDS archive      Foo$$Lambda/0x800000018 (a short address)
 *   any JDK          GeneratedMethodAccessor12, $Proxy12, jdk.proxy1.$Proxy12
 *   JDK 11 jfr       EventHandlerProxy1588_1707103590204-2124169
 * A segment that starts with a digit cannot be a Java name, so every such
 * segment after '/', '.' or '+' is a run's address or number and goes;
 * "$$Lambda$12" loses its counter, the accessors and proxies their number,
 * and the proxies' module "jdk.proxyN" its N. Names the JDK derives from
 * types (BoundMethodHandle$Species_LL, Foo$1) are the same in every run
 * and stay. */
#include <string.h>

#include "jfr/names.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_separator(char c)
{
    return c == '.' || c == '/' || c == '+';
}

static size_t skip_digits(const char *s, size_t i, size_t len)
{
    while (i < len && is_digit(s[i]))
        i++;
    return i;
}

/* JDK 11's event handlers: "EventHandlerProxy1588_1707103590204-2124169" */
static size_t skip_number(const char *s, size_t i, size_t len)
{
    while (i < len && (is_digit(s[i]) || s[i] == '_' || s[i] == '-'))
        i++;
    return i;
}

static int at(const char *s, size_t i, size_t len, const char *word)
{
    size_t n = strlen(word);

    return i + n <= len && memcmp(s + i, word, n) == 0;
}

/* The end of a numeric segment ("1234567", "0x7f3c") that starts at `i`,
 * or `i` when what starts there is not one. */
static size_t numeric_segment_end(const char *s, size_t i, size_t len)
{
    size_t j;

    if (i >= len || !is_digit(s[i]))
        return i;
    if (s[i] == '0' && i + 2 < len && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
        is_hex(s[i + 2])) {
        for (j = i + 2; j < len && is_hex(s[j]); j++)
            ;
    } else {
        j = skip_digits(s, i, len);
    }
    return j == len || is_separator(s[j]) ? j : i;
}

/* How many bytes of a word at `i` to keep when a number follows it that
 * changes from run to run; 0 when no such word starts there. */
static size_t numbered_word(const char *s, size_t i, size_t len)
{
    static const char *const words[] = {"$$Lambda$",
                                        "GeneratedMethodAccessor",
                                        "GeneratedConstructorAccessor",
                                        "GeneratedSerializationConstructorAccessor",
                                        "$Proxy",
                                        "EventHandlerProxy"};

    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t n = strlen(words[k]);
        if (at(s, i, len, words[k]) && i + n < len && is_digit(s[i + n]))
            /* "$$Lambda$12" keeps "$$Lambda", not its last '$' */
            return words[k][n - 1] == '$' ? n - 1 : n;
    }
    /* the dynamic module of proxies: "jdk.proxy1.$Proxy12" */
    if ((i == 0 || is_separator(s[i - 1])) &&
        (at(s, i, len, "jdk.proxy") || at(s, i, len, "jdk/proxy")) && i + 9 < len &&
        is_digit(s[i + 9]))
        return 9;
    return 0;
}

size_t jfr_name_normalize(char *name, size_t len)
{
    size_t in = 0, out = 0;

    if (!name)
        return 0;
    while (in < len) {
        size_t keep = numbered_word(name, in, len), end;

        if (keep) {
            memmove(name + out, name + in, keep);
            out += keep;
            in = skip_number(name, in + keep + (name[in + keep] == '$'), len);
            continue;
        }
        if (is_separator(name[in]) &&
            (end = numeric_segment_end(name, in + 1, len)) > in + 1) {
            in = end;
            continue;
        }
        name[out++] = name[in++];
    }
    return out;
}
