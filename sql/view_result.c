/* view_result.c - the texts of a view's table (jfrsql_view_result): copies
 * kept in a few large blocks that live as long as the table. */
#include <string.h>

#include "view_result.h"

/* The texts live in blocks of at least this many bytes: one allocation
 * for many cells. */
#define TEXT_BLOCK 65536

const char *jfrsql_result_copy(jfrsql_view_result *t, const char *s, size_t n)
{
    char *at;

    if (!t->nblocks || t->block_room - t->block_used < n + 1) {
        size_t room = n + 1 > TEXT_BLOCK ? n + 1 : TEXT_BLOCK;
        char *block;
        if (t->nblocks == t->blocks_cap) {
            size_t cap = t->blocks_cap ? t->blocks_cap * 2 : 16;
            char **grown = sqlite3_realloc64(t->blocks, cap * sizeof *grown);
            if (!grown)
                return NULL;
            t->blocks = grown;
            t->blocks_cap = cap;
        }
        if (!(block = sqlite3_malloc64(room)))
            return NULL;
        t->blocks[t->nblocks++] = block;
        t->block_room = room;
        t->block_used = 0;
    }
    at = t->blocks[t->nblocks - 1] + t->block_used;
    memcpy(at, s, n);
    at[n] = '\0';
    t->block_used += n + 1;
    return at;
}
