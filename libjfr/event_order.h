/* event_order.h - the order of the JDK's ordered event stream within one
 * chunk (JFR_ITER_BY_END_TIME): by end time, records that end at the same
 * tick in file order. */
#ifndef LIBJFR_EVENT_ORDER_H
#define LIBJFR_EVENT_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

/** A kept record: its end in ticks and its chunk-relative offset. */
typedef struct jfrp_by_end {
    int64_t end_ticks;
    uint64_t at;
} jfrp_by_end;

/**
 * Sort `v` (given in file order) by end_ticks, stably: equal ends keep
 * their file order. Nothing moves when `v` is in order already.
 * @return 0, or JFR_ENOMEM (then `v` is unchanged).
 */
int jfrp_order_by_end(const jfrp_alloc *al, jfrp_by_end *v, size_t n);

#endif
