/* frame_text.c - a profile frame as text: the folded convention's name,
 * line and frame-type suffix (jfr/profile.h), the one table of suffixes. */
#include <stdio.h>

#include "jfr_private.h"

/* The suffixes of FlameGraph's --annotate convention, by jfr_frame_kind;
 * native, C++ and unknown frames have none. */
static const char *const kind_suffixes[] = {
    [JFR_FRAME_UNKNOWN] = "",    [JFR_FRAME_INTERPRETED] = "_[0]",
    [JFR_FRAME_JIT] = "_[j]",    [JFR_FRAME_INLINED] = "_[i]",
    [JFR_FRAME_NATIVE] = "",     [JFR_FRAME_CPP] = "",
    [JFR_FRAME_KERNEL] = "_[k]", [JFR_FRAME_C1] = "_[j]",
};

#define NKINDS (sizeof kind_suffixes / sizeof kind_suffixes[0])

const char *jfr_frame_kind_suffix(jfr_frame_kind kind)
{
    return (unsigned)kind < NKINDS ? kind_suffixes[kind] : "";
}

jfr_frame_kind jfr_frame_kind_of_suffix(size_t *name_len, const char *text, size_t len)
{
    if (name_len)
        *name_len = len;
    if (!text)
        return JFR_FRAME_UNKNOWN;
    /* C1 shares JIT's suffix: the first kind with a suffix is the answer */
    for (size_t k = 0; k < NKINDS; k++) {
        size_t n = strlen(kind_suffixes[k]);

        if (n && len > n && memcmp(text + len - n, kind_suffixes[k], n) == 0) {
            if (name_len)
                *name_len = len - n;
            return (jfr_frame_kind)k;
        }
    }
    return JFR_FRAME_UNKNOWN;
}

size_t jfr_profile_frame_text(char *out, size_t size, const jfr_profile_frame *f,
                              unsigned flags)
{
    char line[16] = "";
    const char *suffix = "";
    int n;

    if (!f || !f->name) {
        if (size)
            out[0] = '\0';
        return 0;
    }
    if ((flags & JFR_FRAME_TEXT_LINES) && f->line >= 0)
        snprintf(line, sizeof line, ":%d", (int)f->line);
    if ((flags & JFR_FRAME_TEXT_ANNOTATE) && !f->synthetic)
        suffix = jfr_frame_kind_suffix(f->kind);
    n = snprintf(out, size, "%s%s%s", f->name, line, suffix);
    if (n < 0)
        return 0;
    if (flags & JFR_FRAME_TEXT_FOLDED) {
        /* flamegraph.pl splits on ';' and on the last space; the suffix
         * has neither */
        size_t end = (size_t)n - strlen(suffix);

        for (size_t i = 0; size && i < end && i < size - 1; i++)
            if (out[i] == ' ' || out[i] == ';' || out[i] == '\n' || out[i] == '\r')
                out[i] = '_';
    }
    return (size_t)n;
}
