/* test_ranks.c - rank statistics by selection (sql/ranks.c) against the
 * same statistics read from a sorted copy, on orders that break naive
 * quickselects: sorted, reversed, all equal, few distinct values, organ
 * pipe, random. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "jfrsql.h"

enum { N_MAX = 5000 };

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* value i of an input of `n` in the order `shape` */
static double shaped(int shape, size_t i, size_t n)
{
    switch (shape) {
    case 0:
        return (double)i;
    case 1:
        return (double)(n - i);
    case 2:
        return 7;
    case 3:
        return (double)(rand() % 3);
    case 4:
        return (double)(i < n / 2 ? i : n - i);
    default:
        return (double)(rand() % 100000) / 7.0;
    }
}

/* The two sorted-array formulas the views and SQL used before selection. */
static double jdk_from_sorted(const double *v, size_t n, double p)
{
    if (n == 1)
        return v[0];
    if (p < 0)
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    double di = (double)(n + 1) * (p / 100.0);
    long idx = (long)di - 1, next = (long)di;
    if (idx < 0)
        return v[0];
    if ((size_t)next >= n)
        return v[n - 1];
    return v[idx] + (di - (double)(long)di) * (v[next] - v[idx]);
}

static double linear_from_sorted(const double *v, size_t n, double p)
{
    double pos = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)pos;
    double r = v[lo];
    if (lo + 1 < n)
        r += (v[lo + 1] - v[lo]) * (pos - (double)lo);
    return r;
}

Test(ranks, equal_to_sorting)
{
    static double in[N_MAX], sorted[N_MAX], work[N_MAX];
    const double ps[] = {-1, 0, 1, 50, 90, 95, 99, 99.9, 100};
    const size_t sizes[] = {1, 2, 3, 17, 100, 1001, N_MAX};

    srand(1);
    for (int shape = 0; shape < 6; shape++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            size_t n = sizes[s];
            for (size_t i = 0; i < n; i++)
                in[i] = sorted[i] = shaped(shape, i, n);
            qsort(sorted, n, sizeof *sorted, ascending);
            for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
                double p = ps[k];
                memcpy(work, in, n * sizeof *in);
                cr_assert_eq(jfrsql_jdk_rank(work, n, p), jdk_from_sorted(sorted, n, p),
                             "jdk rank p=%g n=%zu shape %d", p, n, shape);
                if (p < 0)
                    continue;
                memcpy(work, in, n * sizeof *in);
                cr_assert_eq(jfrsql_linear_rank(work, n, p),
                             linear_from_sorted(sorted, n, p),
                             "linear p=%g n=%zu shape %d", p, n, shape);
            }
        }
}

Test(ranks, select_partitions)
{
    static double v[N_MAX], sorted[N_MAX];
    size_t n = N_MAX;

    srand(2);
    for (size_t k = 0; k < n; k += 499) {
        for (size_t i = 0; i < n; i++)
            v[i] = sorted[i] = (double)(rand() % 1000);
        qsort(sorted, n, sizeof *sorted, ascending);
        jfrsql_select_rank(v, n, k);
        cr_assert_eq(v[k], sorted[k], "rank %zu", k);
        for (size_t i = 0; i < n; i++)
            cr_assert(i < k ? v[i] <= v[k] : v[i] >= v[k],
                      "rank %zu: v[%zu] on the wrong side", k, i);
    }
}
