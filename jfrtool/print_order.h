/* print_order.h - the order in which JDK 25's `jfr print` shows events as
 * text: a binary heap on end times (java.util.PriorityQueue), filled in file
 * order and emptied when it holds more than a million events or at the end.
 * Events with equal end times come out in the heap's order, not file order,
 * so a plain sort cannot reproduce it. */
#ifndef JFRTOOL_PRINT_ORDER_H
#define JFRTOOL_PRINT_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One entry of the JDK's timeline: an event's end time (ns since the
 * epoch), or the start (`end` false) or end of a contextual event (JDK 25's
 * @Contextual), which sorts before events of the same nanosecond's end;
 * and the caller's reference and kind. */
typedef struct print_slot {
    int64_t nanos;
    bool end;
    uint8_t kind;
    uint64_t ref;
} print_slot;

/** The heap's window: the JDK keeps at most this many events queued. */
#define PRINT_ORDER_WINDOW 1000000

/**
 * Reorder `slots` (given in file order) into the JDK's print order, in
 * place. Uses O(n) extra memory.
 */
void print_order_jdk(print_slot *slots, size_t n);

#endif
