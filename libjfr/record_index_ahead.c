/* record_index_ahead.c - every chunk's records listed by type before the
 * walks that will use the lists (jfr_recording_index_records): one walk
 * per chunk in the decoding threads, instead of walks in the calling
 * thread. For queries that will read some types whole, or several. */
#include "jfr_private.h"

typedef struct ahead_run {
    const char *const *names; /* the types to list (NULL: all), read by the workers */
    size_t nnames;
    jfr_recording *rec;
} ahead_run;

typedef struct listed_ahead {
    uint64_t chunk_offset, chunk_size;
    int made; /* jfrp_record_lists_make's result */
    jfrp_record_lists lists;
} listed_ahead;

/* In a worker: the lists of one chunk, made on the worker's handle. */
static int ahead_decode(jfr_chunk *c, jfr_recording *rec, void **result, void *user)
{
    const ahead_run *run = user;
    listed_ahead *a;
    uint8_t *keep;

    *result = NULL;
    if (!jfrp_record_listable(c))
        return JFR_OK;
    keep = run->names ? jfrp_kept_types(c, run->names, run->nnames) : NULL;
    if ((run->names && !keep) || !(a = jfrp_malloc(&rec->al, sizeof *a))) {
        jfrp_free(&rec->al, keep);
        return JFR_ENOMEM;
    }
    a->chunk_offset = c->header.file_offset;
    a->chunk_size = c->size;
    a->made = jfrp_record_lists_make(&a->lists, c, keep, JFRP_INDEX_BUDGET_BYTES);
    jfrp_free(&rec->al, keep);
    if (a->made < 0) {
        jfrp_free(&rec->al, a);
        return JFR_ENOMEM;
    }
    *result = a;
    return JFR_OK;
}

/* In the calling thread, chunk by chunk: the lists go to the recording
 * (the workers' handles have its allocator). Errors are left to the walks
 * that follow, which meet them again. */
static void ahead_merge(void *result, const jfr_chunk_report *report, void *user)
{
    jfr_recording *rec = ((ahead_run *)user)->rec;
    listed_ahead *a = result;

    (void)report;
    if (!a)
        return;
    jfrp_record_lists_take(rec, a->chunk_offset, a->chunk_size, a->made, &a->lists);
    jfrp_free(&rec->al, a->lists.first);
    jfrp_free(&rec->al, a->lists.at);
    jfrp_free(&rec->al, a->lists.listed);
    jfrp_free(&rec->al, a);
}

int jfr_recording_index_records(jfr_recording *rec, const char *const *types,
                                size_t ntypes, unsigned threads)
{
    static const jfr_chunk_ops ops = {ahead_decode, ahead_merge};
    ahead_run run = {types, ntypes, rec};
    int rc;

    if (!rec || (ntypes && !types))
        return JFR_EINVAL;
    jfr_recording_rewind(rec);
    rc = jfr_recording_decode_chunks(rec, threads, &ops, &run);
    jfr_recording_rewind(rec);
    return rc;
}
