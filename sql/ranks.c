/* ranks.c - rank statistics (percentiles, medians) of unsorted values.
 *
 * A percentile reads at most two neighbouring ranks, so the values are
 * partitioned around those ranks rather than sorted: a view's P95 over a
 * million durations was two thirds of its time when it sorted. */
#include <math.h>
#include <stdlib.h>

#include "jfrsql.h"

static void swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[lo], v[mid], v[hi], moved to v[lo] as the pivot. */
static void median_of_three_to_front(double *v, size_t lo, size_t hi)
{
    size_t mid = lo + (hi - lo) / 2;

    if (v[mid] < v[lo])
        swap(&v[mid], &v[lo]);
    if (v[hi] < v[lo])
        swap(&v[hi], &v[lo]);
    if (v[hi] < v[mid])
        swap(&v[hi], &v[mid]);
    swap(&v[lo], &v[mid]);
}

/* Hoare's partition of v[lo..hi] around the pivot v[lo]; returns j with
 * every value of v[lo..j] <= pivot <= every value of v[j+1..hi]. */
static size_t partition(double *v, size_t lo, size_t hi)
{
    double pivot = v[lo];
    size_t i = lo, j = hi + 1;

    for (;;) {
        do
            i++;
        while (i <= hi && v[i] < pivot);
        do
            j--;
        while (v[j] > pivot);
        if (i >= j)
            break;
        swap(&v[i], &v[j]);
    }
    swap(&v[lo], &v[j]);
    return j;
}

/* Quickselect: afterwards v[k] is the value a sort would put there, with
 * no larger value before it and no smaller one after. Past a depth of
 * about 2 log2(n) the range left is sorted outright, so that no order of
 * the input makes this quadratic. */
void jfrsql_select_rank(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    int depth = 0;

    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    while (hi > lo) {
        size_t j;

        if (depth-- == 0 || hi - lo < 16) {
            qsort(v + lo, hi - lo + 1, sizeof *v, cmp_double);
            return;
        }
        median_of_three_to_front(v, lo, hi);
        j = partition(v, lo, hi);
        if (j == k)
            return;
        if (k < j)
            hi = j - 1;
        else
            lo = j + 1;
    }
}

/* The values at sorted ranks k and k + 1 (k + 1 < n). */
static void two_ranks(double *v, size_t n, size_t k, double *at_k, double *after)
{
    double next;

    jfrsql_select_rank(v, n, k);
    next = v[k + 1];
    for (size_t i = k + 2; i < n; i++)
        if (v[i] < next)
            next = v[i];
    *at_k = v[k];
    *after = next;
}

double jfrsql_jdk_rank(double *v, size_t n, double p)
{
    double a, b;

    if (n == 1)
        return v[0];
    if (p < 0) { /* median: the mean of the middle two of an even count */
        if (n % 2) {
            jfrsql_select_rank(v, n, n / 2);
            return v[n / 2];
        }
        two_ranks(v, n, n / 2 - 1, &a, &b);
        return (a + b) / 2;
    }
    {
        double di = (double)(n + 1) * (p / 100.0);
        long idx = (long)di - 1, next = (long)di;
        double frac = di - (double)(long)di;

        if (idx < 0) {
            jfrsql_select_rank(v, n, 0);
            return v[0];
        }
        if ((size_t)next >= n) {
            jfrsql_select_rank(v, n, n - 1);
            return v[n - 1];
        }
        two_ranks(v, n, (size_t)idx, &a, &b);
        return a + frac * (b - a);
    }
}

double jfrsql_linear_rank(double *v, size_t n, double p)
{
    double pos = p / 100.0 * (double)(n - 1), a, b;
    size_t lo = (size_t)pos;

    if (lo + 1 >= n) {
        jfrsql_select_rank(v, n, lo);
        return v[lo];
    }
    two_ranks(v, n, lo, &a, &b);
    return a + (b - a) * (pos - (double)lo);
}
