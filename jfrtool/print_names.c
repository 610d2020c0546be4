/* print_names.c - see print_names.h. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "print_names.h"

bool name_selects(const char *name, const jfr_type *t)
{
    const char *full = jfr_type_name(t), *dot = strrchr(full, '.');

    return strcmp(name, full) == 0 || (dot && strcmp(name, dot + 1) == 0);
}

void name_check_init(name_check *nc, char **names, size_t nnames)
{
    memset(nc, 0, sizeof *nc);
    nc->names = names;
    nc->nnames = nnames;
    nc->declared = xcalloc(nnames ? nnames : 1, sizeof *nc->declared);
}

void name_check_chunk(name_check *nc, jfr_chunk *chunk)
{
    if (!nc->names)
        return;
    for (size_t i = 0; i < jfr_chunk_type_count(chunk); i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);

        if (!jfr_type_is_event(t))
            continue;
        for (size_t k = 0; k < nc->nnames; k++)
            nc->declared[k] |= name_selects(nc->names[k], t);
        if (strmap_get(&nc->seen, jfr_type_name(t)) >= 0)
            continue;
        strmap_put(&nc->seen, jfr_type_name(t), nc->ntypes);
        if (nc->ntypes == nc->cap) {
            nc->cap = nc->cap ? nc->cap * 2 : 64;
            nc->types = xrealloc(nc->types, nc->cap, sizeof *nc->types);
        }
        nc->types[nc->ntypes++] = xstrdup(jfr_type_name(t));
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int name_check_finish(name_check *nc, int status)
{
    strbuf sb = {0};
    size_t unknown = 0;

    for (size_t k = 0; nc->names && k < nc->nnames; k++) {
        if (nc->declared[k])
            continue;
        sb_printf(&sb, "%s'%s'", unknown++ ? ", " : "", nc->names[k]);
    }
    /* only inputs that were read can say what they declare */
    if (unknown && nc->ntypes) {
        qsort(nc->types, nc->ntypes, sizeof *nc->types, by_name);
        sb_puts(&sb, unknown > 1 ? " are not event types" : " is not an event type");
        sb_puts(&sb, " of the inputs; they have: ");
        for (size_t i = 0; i < nc->ntypes; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", nc->types[i]);
        warnx_("--events: %s", sb_str(&sb));
        status = EXIT_USAGE;
    }
    sb_free(&sb);
    for (size_t i = 0; i < nc->ntypes; i++)
        free(nc->types[i]);
    free(nc->types);
    free(nc->declared);
    strmap_free(&nc->seen);
    return status;
}
