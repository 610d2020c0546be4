/* split.c - how `jfr disassemble` groups chunks into files and names them
 * (jfr/assemble.h). */
#include <stdio.h>

#include "jfr_private.h"

size_t jfr_split_take(const uint64_t *sizes, size_t count, const jfr_split_options *opts)
{
    uint64_t bytes;
    size_t n;

    if (!sizes || !opts || count == 0 || opts->version < 1 ||
        opts->version > JFR_SPLIT_OPTIONS_VERSION)
        return 0;
    /* the first chunk always goes, even when it alone is over max_size */
    bytes = sizes[0];
    for (n = 1; n < count; n++) {
        if (opts->max_chunks && n >= opts->max_chunks)
            break;
        if (opts->max_size &&
            (bytes > opts->max_size || sizes[n] > opts->max_size - bytes))
            break;
        bytes += sizes[n];
    }
    return n;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);

    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* The input's file name without its directory, compression suffix and
 * ".jfr": what the parts are named after. */
static size_t base_name(const char *input, const char **start)
{
    static const char *const compressed[] = {".gz", ".lz4", ".xz", ".bz2"};
    const char *slash = strrchr(input, '/');
    const char *name = slash ? slash + 1 : input;
    size_t len = strlen(name);

    for (size_t i = 0; i < sizeof compressed / sizeof compressed[0]; i++)
        if (ends_with(name, len, compressed[i])) {
            len -= strlen(compressed[i]);
            break;
        }
    if (ends_with(name, len, ".jfr"))
        len -= 4;
    *start = name;
    return len;
}

int jfr_split_name(char *buf, size_t size, const char *input, size_t part, size_t parts)
{
    const char *base;
    size_t len;
    int digits = 1, n;

    if (!buf || !input || part >= parts)
        return JFR_EINVAL;
    for (size_t last = parts - 1; last >= 10; last /= 10)
        digits++;
    len = base_name(input, &base);
    if (len > INT32_MAX)
        return JFR_ELIMIT;
    n = snprintf(buf, size, "%.*s_%0*zu.jfr", (int)len, base, digits, part);
    if (n < 0 || (size_t)n >= size)
        return JFR_ELIMIT;
    return JFR_OK;
}
