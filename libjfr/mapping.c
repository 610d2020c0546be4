/* mapping.c - giving back the pages of a file mapping that were read once,
 * so that memory stays near a chunk's worth whatever the file size, and
 * mapping a range at once before it is read through. */
#include <sys/mman.h>
#include <unistd.h>

#include "jfr_private.h"

void jfrp_mapping_forget(const jfr_recording *rec, const uint8_t *start,
                         const uint8_t *end, bool around)
{
    /* a fault maps up to 64 KiB of neighbouring cached pages */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), grain;
    uintptr_t lo = (uintptr_t)start, hi = (uintptr_t)end;
    uintptr_t first = (uintptr_t)rec->data, last = first + rec->size;

    if (!rec->mapped || page == 0 || (page & (page - 1)))
        return;
    grain = around && page < 65536 ? 65536 : page;
    if (around) {
        lo &= ~(grain - 1);
        hi = (hi + grain - 1) & ~(grain - 1);
        if (lo < (first & ~(page - 1)))
            lo = first & ~(page - 1);
        if (hi > ((last + page - 1) & ~(page - 1)))
            hi = (last + page - 1) & ~(page - 1);
    } else {
        lo = (lo + page - 1) & ~(page - 1);
        hi &= ~(page - 1);
    }
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void jfrp_mapping_prefetch(const jfr_recording *rec, const uint8_t *start,
                           const uint8_t *end)
{
#ifdef MADV_POPULATE_READ
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)start, hi = (uintptr_t)end;

    if (!rec->mapped || page == 0 || (page & (page - 1)) || hi <= lo)
        return;
    lo &= ~(page - 1);
    /* one call maps the pages that faults would map one window at a time;
     * kernels before 5.14 refuse it, and the faults happen as before */
    (void)madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
#else
    (void)rec;
    (void)start;
    (void)end;
#endif
}
