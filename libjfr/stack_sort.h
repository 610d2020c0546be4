/* stack_sort.h - distinct stacks sorted by a key of each frame, as
 * sequences: a stack before the longer ones it starts. With keys from
 * the frames' texts, folded lines come out in byte order without being
 * made first (profile_folded.c); with the caller's keys, any order of
 * paths (jfr_stack_order). */
#ifndef JFRP_STACK_SORT_H
#define JFRP_STACK_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jfr/profile.h"

/* A stack as the sort sees it: the profile's frame ids, root first. */
typedef struct stack_ref {
    const uint32_t *frames;
    uint32_t depth;
    uint32_t id; /* the caller's: which stack this is */
} stack_ref;

/* The key of each frame id: `inner` where more frames follow, `last` for
 * a stack's last frame. Keys are at least 1; equal keys sort together.
 * With `reverse`, the frames after the first `fixed` are taken last
 * first (flame graphs drawn from the leaves, thread roots kept first). */
typedef struct stack_keys {
    uint32_t *inner;
    uint32_t *last;
    bool reverse;
    uint32_t fixed;
} stack_keys;

/* A frame's text in a line. */
typedef struct frame_text {
    char *text;
    size_t len;
} frame_text;

/** Keys that sort stacks as their lines sort by bytes (strcmp): the texts
 * of frame ids 0..n-1 joined by ';', nothing after the last. No text may
 * hold ';' or '\0'. Frames of equal text get equal keys.
 * @return JFR_OK or JFR_ENOMEM (then k holds nothing to free). */
int jfrp_stack_keys_by_text(stack_keys *k, const frame_text *texts, size_t n);

/** Release the keys of jfrp_stack_keys_by_text. */
void jfrp_stack_keys_free(stack_keys *k);

/* Below this many stacks one thread sorts: a thread would cost more than
 * it saves (profile.h tells callers the number). */
#define JFRP_STACK_SORT_THREADED_FROM ((size_t)JFR_STACK_ORDER_THREADS_FROM)

/** Sort v[0..n) by the sequences of their frames' keys; equal sequences
 * by id, in up to `threads` threads (two at most, and one below
 * JFRP_STACK_SORT_THREADED_FROM stacks).
 * The order never depends on the threads. Never fails: short of memory,
 * it heap-sorts in place. */
void jfrp_stack_sort(stack_ref *v, size_t n, const stack_keys *k, unsigned threads);

/** The number of leading frames of a and b whose keys are equal; equal to
 * both depths when the sequences are equal. */
size_t jfrp_stack_keys_shared(const stack_ref *a, const stack_ref *b,
                              const stack_keys *k);

#endif
