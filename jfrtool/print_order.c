/* print_order.c - replay of java.util.PriorityQueue's sift-up and sift-down
 * (see print_order.h): only the same heap operations give the same order
 * among events that end at the same nanosecond. */
#include <stdlib.h>

#include "print_order.h"
#include "util.h"

typedef struct heap {
    print_slot *items;
    size_t size;
} heap;

/* The JDK compares (seconds, 2 * nanos + 1 for an end): by time, and at
 * one nanosecond a start before an end. */
static int compare(const print_slot *a, const print_slot *b)
{
    if (a->nanos != b->nanos)
        return a->nanos < b->nanos ? -1 : 1;
    return (int)a->end - (int)b->end;
}

static void offer(heap *h, print_slot x)
{
    size_t k = h->size++;

    while (k > 0) {
        size_t parent = (k - 1) / 2;

        if (compare(&x, &h->items[parent]) >= 0)
            break;
        h->items[k] = h->items[parent];
        k = parent;
    }
    h->items[k] = x;
}

static print_slot poll(heap *h)
{
    print_slot top = h->items[0], x;
    size_t n = --h->size, k = 0, half = n / 2;

    if (n == 0)
        return top;
    x = h->items[n];
    while (k < half) {
        size_t child = 2 * k + 1, right = child + 1;

        if (right < n && compare(&h->items[child], &h->items[right]) > 0)
            child = right;
        if (compare(&x, &h->items[child]) <= 0)
            break;
        h->items[k] = h->items[child];
        k = child;
    }
    h->items[k] = x;
    return top;
}

void print_order_jdk(print_slot *slots, size_t n)
{
    heap h = {xcalloc(n ? n : 1, sizeof *h.items), 0};
    size_t out = 0;

    /* slots[out..i) is free again once read, so output goes in place */
    for (size_t i = 0; i < n; i++) {
        offer(&h, slots[i]);
        while (h.size > PRINT_ORDER_WINDOW)
            slots[out++] = poll(&h);
    }
    while (h.size > 0)
        slots[out++] = poll(&h);
    free(h.items);
}
