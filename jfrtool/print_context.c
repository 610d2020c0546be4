/* print_context.c - the contexts open on each thread (print_context.h),
 * in the order they opened, as the JDK's per-thread LinkedHashSet keeps
 * them: threads by the pool key of their eventThread, contexts by the
 * event's offset in the chunk. */
#include <stdlib.h>
#include <string.h>

#include "print_context.h"
#include "util.h"

typedef struct context {
    uint64_t thread, offset;
    char *lines;
} context;

struct print_contexts {
    context *v;
    size_t n, cap;
    strbuf out;
};

print_contexts *print_contexts_new(void)
{
    return xcalloc(1, sizeof(print_contexts));
}

void print_contexts_free(print_contexts *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].lines);
    free(p->v);
    sb_free(&p->out);
    free(p);
}

/* The pool key of the event's thread; false when it has none. */
static bool thread_of(const jfr_event *ev, uint64_t *key)
{
    jfr_value t;

    if (jfr_event_field(&t, ev, "eventThread") != JFR_OK || t.kind != JFR_VALUE_OBJECT ||
        !t.pooled)
        return false;
    *key = t.key;
    return true;
}

int print_contexts_open(print_contexts *p, const jfr_event *ev, const text_opts *opts)
{
    strbuf lines = {0};
    uint64_t thread;

    if (!thread_of(ev, &thread))
        return 0;
    if (print_context_lines(&lines, ev, opts) < 0) {
        sb_free(&lines);
        return -1;
    }
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->v = xrealloc(p->v, p->cap, sizeof *p->v);
    }
    p->v[p->n++] = (context){thread, jfr_event_offset(ev), xstrdup(sb_str(&lines))};
    sb_free(&lines);
    return 0;
}

void print_contexts_close(print_contexts *p, const jfr_event *ev)
{
    uint64_t thread, offset = jfr_event_offset(ev);

    if (!thread_of(ev, &thread))
        return;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].thread == thread && p->v[i].offset == offset) {
            free(p->v[i].lines);
            memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof *p->v);
            p->n--;
            return;
        }
    }
}

const char *print_contexts_of(print_contexts *p, const jfr_event *ev)
{
    uint64_t thread;

    sb_clear(&p->out);
    if (p->n == 0 || !thread_of(ev, &thread))
        return "";
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].thread == thread)
            sb_puts(&p->out, p->v[i].lines);
    return sb_str(&p->out);
}
