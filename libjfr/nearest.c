/* nearest.c - the names nearest to a mistyped one (jfr_nearest_names in
 * jfr/typefilter.h), for the "did you mean" of every error that names an
 * unknown event type, category, view, SQL table or column. */
#include "typefilter.h"

/* Names are compared by their first NAME_MAX_CMP bytes. */
#define NAME_MAX_CMP  128
/* Suggestions kept at most, whatever the caller asks. */
#define KEEP_MAX      16
/* Rank of a candidate that merely contains the name: after every slip. */
#define CONTAINS_RANK 1000u

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static bool same(char a, char b, bool fold_case)
{
    return fold_case ? fold((unsigned char)a) == fold((unsigned char)b) : a == b;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
    unsigned m = a < b ? a : b;
    return m < c ? m : c;
}

/* Characters inserted, deleted, changed or swapped with a neighbour to
 * turn a into b (the optimal string alignment distance). */
static unsigned distance(const char *a, const char *b, bool fold_case)
{
    unsigned rows[3][NAME_MAX_CMP + 1];
    unsigned *before = rows[0], *prev = rows[1], *cur = rows[2];
    size_t la = strlen(a), lb = strlen(b);

    la = la > NAME_MAX_CMP ? NAME_MAX_CMP : la;
    lb = lb > NAME_MAX_CMP ? NAME_MAX_CMP : lb;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = same(a[i - 1], b[j - 1], fold_case) ? 0 : 1;
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2], fold_case) &&
                same(a[i - 2], b[j - 1], fold_case) && before[j - 2] + 1 < cur[j])
                cur[j] = before[j - 2] + 1;
        }
        {
            unsigned *t = before;
            before = prev;
            prev = cur;
            cur = t;
        }
    }
    return prev[lb];
}

/* d as a slip between names of lengths la and lb: a third of the longer,
 * at least one character. */
static bool is_slip(unsigned d, size_t la, size_t lb)
{
    size_t longer = la > lb ? la : lb;
    size_t allowed = longer / 3 ? longer / 3 : 1;

    return d <= allowed;
}

static bool contains_folded(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && same(hay[i], needle[i], true))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* How near candidate c is to name q (lower is nearer), UINT_MAX when it is
 * not near: the whole names, q against c's short name, and the short names
 * (one more: the parts before the dots differ). */
static unsigned rank(const char *q, const char *c)
{
    const char *qs = jfrp_short_type_name(q), *cs = jfrp_short_type_name(c);
    unsigned best = UINT32_MAX, d;

    if (is_slip(d = distance(q, c, true), strlen(q), strlen(c)))
        best = d;
    if (cs != c && is_slip(d = distance(q, cs, true), strlen(q), strlen(cs)) && d < best)
        best = d;
    if (qs != q && cs != c &&
        is_slip(d = distance(qs, cs, true), strlen(qs), strlen(cs)) && d + 1 < best)
        best = d + 1;
    if (best == UINT32_MAX && strlen(q) >= 3 && contains_folded(c, q))
        best = CONTAINS_RANK;
    return best;
}

typedef struct near {
    size_t index;
    unsigned rank, whole, exact; /* rank, then the whole names' distances */
} near;

static bool before(const near *a, const near *b, const char *const *cands)
{
    if (a->rank != b->rank)
        return a->rank < b->rank;
    if (a->whole != b->whole)
        return a->whole < b->whole;
    if (a->exact != b->exact)
        return a->exact < b->exact;
    return strcmp(cands[a->index], cands[b->index]) < 0;
}

size_t jfr_nearest_names(size_t *out, size_t max, const char *name,
                         const char *const *candidates, size_t n)
{
    near kept[KEEP_MAX];
    size_t nkept = 0, written = 0;

    if (!out || !name || !candidates)
        return 0;
    max = max > KEEP_MAX ? KEEP_MAX : max;
    for (size_t i = 0; i < n && max; i++) {
        near c = {i, 0, 0, 0};
        size_t at;

        if (!candidates[i] || (c.rank = rank(name, candidates[i])) == UINT32_MAX)
            continue;
        c.whole = distance(name, candidates[i], true);
        c.exact = distance(name, candidates[i], false);
        /* insertion into the `max` best so far */
        for (at = nkept; at > 0 && before(&c, &kept[at - 1], candidates); at--)
            if (at < max)
                kept[at] = kept[at - 1];
        if (at < max) {
            kept[at] = c;
            nkept += nkept < max;
        }
    }
    /* only those about as near as the nearest: one slip does not make
     * every name two slips away a suggestion */
    for (size_t i = 0; i < nkept; i++)
        if (kept[i].rank <= kept[0].rank + 2)
            out[written++] = kept[i].index;
    return written;
}
