/* names_normalize.c - class names without what changes from run to run (see
 * jfr_name_normalize in jfr/names.h): diffs of two runs match lambdas, and
 * profiles of a fleet merge them. */
#include <string.h>

#include "jfr/names.h"

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static size_t skip_digits(const char *s, size_t i, size_t len)
{
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

/* After "$$Lambda": "$92", then "/0x..", "+0x.." or ".0x.." (the hidden
 * class's address). */
static size_t skip_lambda_suffix(const char *s, size_t i, size_t len)
{
    if (i < len && s[i] == '$' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9')
        i = skip_digits(s, i + 1, len);
    if (i + 2 < len && (s[i] == '/' || s[i] == '+' || s[i] == '.') && s[i + 1] == '0' &&
        (s[i + 2] == 'x' || s[i + 2] == 'X') && i + 3 < len && is_hex(s[i + 3])) {
        i += 3;
        while (i < len && is_hex(s[i]))
            i++;
    }
    return i;
}

static int at(const char *s, size_t i, size_t len, const char *word)
{
    size_t n = strlen(word);

    return i + n <= len && memcmp(s + i, word, n) == 0;
}

size_t jfr_name_normalize(char *name, size_t len)
{
    static const char *const numbered[] = {
        "GeneratedMethodAccessor", "GeneratedConstructorAccessor",
        "GeneratedSerializationConstructorAccessor", "$Proxy"};
    size_t in = 0, out = 0;

    if (!name)
        return 0;
    while (in < len) {
        size_t word = 0;

        if (at(name, in, len, "$$Lambda")) {
            memmove(name + out, name + in, 8);
            out += 8;
            in = skip_lambda_suffix(name, in + 8, len);
            continue;
        }
        for (size_t k = 0; k < sizeof numbered / sizeof numbered[0] && !word; k++)
            if (at(name, in, len, numbered[k]))
                word = strlen(numbered[k]);
        if (word) {
            memmove(name + out, name + in, word);
            out += word;
            in = skip_digits(name, in + word, len);
            continue;
        }
        name[out++] = name[in++];
    }
    return out;
}
