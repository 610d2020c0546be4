/* type_names.c - see type_names.h. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "type_names.h"
#include "util.h"

jfr_type_set *type_set_new(void)
{
    jfr_type_set *set;

    if (jfr_type_set_new(&set, NULL) < 0)
        diex(EXIT_INPUT, "out of memory");
    return set;
}

void type_set_add_input(jfr_type_set *set, const char *path, bool keep)
{
    jfr_recording *rec;
    jfr_error err;

    if (jfr_recording_open_file(&rec, path, NULL, &err) < 0)
        return; /* said when the command opens it */
    if (jfr_type_set_add_recording(set, rec) < 0)
        diex(EXIT_INPUT, "out of memory");
    if (keep)
        keep_recording(path, rec);
    else
        jfr_recording_free(rec);
}

jfr_type_set *input_type_set(char *const *files, int nfiles, bool keep)
{
    jfr_type_set *set = type_set_new();

    for (int i = 0; i < nfiles; i++) {
        bool is_stdin = strcmp(files[i], "-") == 0;

        if (is_stdin && !keep)
            continue;
        type_set_add_input(set, files[i], keep && (i == 0 || is_stdin));
    }
    return set;
}

jfr_type_filter *parse_type_filter(const char *option, const char *text, jfr_filter_by by)
{
    jfr_type_filter *f;
    jfr_error err;
    int rc = jfr_type_filter_new(&f, text, by, NULL, &err);

    if (rc == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc < 0) {
        warnx_("%s: %s", option, err.message);
        return NULL;
    }
    return f;
}

int check_type_filter(const jfr_type_filter *f, const jfr_type_set *set)
{
    jfr_error err;

    if (jfr_type_set_count(set) == 0 ||
        jfr_type_filter_check(NULL, f, set, &err) == JFR_OK)
        return EXIT_OK;
    warnx_("%s", err.message);
    return EXIT_USAGE;
}

const char *resolve_type_name(const jfr_type_set *set, const char *name)
{
    const char *full;
    jfr_error err;

    if (jfr_type_set_resolve(&full, set, name, &err) == JFR_OK)
        return full;
    warnx_("%s", err.message);
    return NULL;
}

void warn_unknown_name(const char *what, const char *name, const char *const *names,
                       size_t nnames, const jfr_type_set *set, const char *otherwise)
{
    size_t idx[3], n = jfr_nearest_names(idx, 3, name, names, nnames), m;
    const char *near[6];
    strbuf sb = {0};

    for (size_t i = 0; i < n; i++)
        near[i] = names[idx[i]];
    m = n + jfr_type_set_nearest(near + n, 3, set, name, JFR_FILTER_BY_NAME);
    sb_printf(&sb, "unknown %s or event type '%s'", what, name);
    for (size_t i = 0; i < m && i < 3; i++)
        sb_printf(&sb, "%s%s", i ? ", " : " (did you mean ", near[i]);
    if (m)
        sb_puts(&sb, "?)");
    else
        sb_printf(&sb, " (%s)", otherwise);
    warnx_("%s", sb_str(&sb));
    sb_free(&sb);
}
