/* stack_top.c - the method on top of each stack trace of a chunk
 * (jfr_top_frames, jfr/stack.h), read as the profile reads stacks
 * (profile_stacks.c) with one frame per stack. */
#include <string.h>

#include "profile_struct.h"

struct jfr_top_frames {
    jfrp_stacks stacks;
};

int jfr_top_frames_new(jfr_top_frames **out, jfr_chunk *chunk)
{
    jfr_top_frames *tf;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!chunk)
        return JFR_EINVAL;
    if (!(tf = jfrp_calloc(&chunk->rec->al, 1, sizeof *tf)))
        return JFR_ENOMEM;
    jfrp_stacks_init(&tf->stacks, chunk);
    tf->stacks.max_frames = 1;
    *out = tf;
    return JFR_OK;
}

int jfr_top_frames_method(uint64_t *method_key, jfr_top_frames *tf, uint64_t stack_key)
{
    jfrp_stacks *s;
    size_t depth;
    int rc;

    if (!method_key || !tf)
        return JFR_EINVAL;
    *method_key = 0;
    s = &tf->stacks;
    /* other shapes name a frame's method by what jfr_chunk_stacktrace reads */
    if (!s->fast)
        return JFR_ENOTFOUND;
    if ((rc = jfrp_stacks_read(s, &s->c->rec->al, stack_key, &depth)) < 0)
        return rc;
    if (depth == 0 || !s->frames[0].has_method)
        return JFR_ENOTFOUND;
    *method_key = s->frames[0].method_key;
    return JFR_OK;
}

void jfr_top_frames_free(jfr_top_frames *tf)
{
    const jfrp_alloc *al;

    if (!tf)
        return;
    al = &tf->stacks.c->rec->al;
    jfrp_stacks_free(&tf->stacks, al);
    jfrp_free(al, tf);
}
