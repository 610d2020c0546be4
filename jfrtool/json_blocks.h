/* json_blocks.h - the items of a long JSON array made by two threads, block
 * by block: each block is taken by whichever thread is free, a helper's
 * made into memory (a few blocks ahead at most), the calling thread's
 * straight into the writer when it is the block due; the calling thread
 * writes them all in order, so the text is the one thread's, in bounded
 * memory, and a slow output leaves the helper more blocks (json_blocks.c).
 * The flame page's node arrays and the report's page frames are millions
 * of numbers each. (libjfr's folded text takes the same turns with its
 * lines, in profile_folded.c: the library has no JSON writer to share.) */
#ifndef JFRTOOL_JSON_BLOCKS_H
#define JFRTOOL_JSON_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>

#include "json_writer.h"

/** Make block `block`'s items into `w` (after what it holds, each item
 * with its comma but the array's first). `state` is the thread's own: the
 * calling thread's or the helper's. */
typedef void (*json_block_fn)(jw *w, size_t block, void *state);

/**
 * Blocks 0..nblocks-1 into `w` in order, `make` run with `mine` in this
 * thread and with `helpers` in a helper. False when no helper could be
 * started: nothing was written.
 */
bool json_blocks_in_two(jw *w, size_t nblocks, json_block_fn make, void *mine,
                        void *helpers);

#endif
