/* profile_census.c - the samples of every kind that counts samples, counted
 * in a profile's own pass over a chunk (JFR_PROFILE_KIND_SAMPLES): each
 * kind's event types join the walk, and each event read is counted for
 * every kind that reads it, by that kind's groups and states. A nearly
 * empty profile can then be told from a recording whose samples are of
 * another kind (cryostat-recording.jfr: 4 execution samples, 29,867
 * wall-clock ones) at the cost of a few counters per event. */
#include <string.h>

#include "profile_struct.h"

/* One kind's view of the chunk. */
typedef struct census_kind {
    jfr_profile *of; /* the kind's count-only profile: its sources, totals */
    jfrp_chunk_type *uses;
    size_t nuses;
    jfrp_map *states;                    /* per use: state key -> groups keeping it + 1 */
    uint8_t (*small)[JFRP_SMALL_STATES]; /* per use: the same for small keys */
    uint32_t present, enabled;
    uint64_t samples[JFRP_MAX_GROUPS], weight[JFRP_MAX_GROUPS];
} census_kind;

struct jfrp_census {
    jfr_profile *p;
    jfr_chunk *c;
    census_kind *kinds;
    size_t nkinds;
    const jfr_type *setting; /* jdk.ActiveSetting, when a kind has groups to choose */
};

void jfrp_census_free(jfrp_census *cs)
{
    if (!cs)
        return;
    for (size_t k = 0; k < cs->nkinds; k++) {
        census_kind *ck = &cs->kinds[k];
        for (size_t i = 0; ck->states && i < ck->nuses; i++)
            jfrp_map_free(&ck->states[i], &cs->p->al);
        jfrp_free(&cs->p->al, ck->states);
        jfrp_free(&cs->p->al, ck->small);
        jfrp_free(&cs->p->al, ck->uses);
    }
    jfrp_free(&cs->p->al, cs->kinds);
    jfrp_free(&cs->p->al, cs);
}

int jfrp_census_begin(jfrp_census **out, jfr_profile *p, jfr_chunk *c)
{
    jfrp_census *cs;
    int rc;

    *out = NULL;
    if (!p->census)
        return JFR_OK;
    if (!(cs = jfrp_calloc(&p->al, 1, sizeof *cs)) ||
        !(cs->kinds = jfrp_calloc(&p->al, p->ncensus, sizeof *cs->kinds))) {
        jfrp_free(&p->al, cs);
        return JFR_ENOMEM;
    }
    cs->p = p;
    cs->c = c;
    cs->nkinds = p->ncensus;
    for (size_t k = 0; k < p->ncensus; k++) {
        census_kind *ck = &cs->kinds[k];
        const jfr_type *setting;

        if (!(ck->of = p->census[k]))
            continue;
        if ((rc = jfrp_groups_types(&ck->uses, &ck->nuses, &setting, ck->of, c)) < 0 ||
            !(ck->states =
                  jfrp_calloc(&p->al, ck->nuses ? ck->nuses : 1, sizeof *ck->states)) ||
            !(ck->small =
                  jfrp_calloc(&p->al, ck->nuses ? ck->nuses : 1, sizeof *ck->small))) {
            jfrp_census_free(cs);
            return JFR_ENOMEM;
        }
        if (setting)
            cs->setting = setting;
    }
    *out = cs;
    return JFR_OK;
}

static int use_of(const census_kind *ck, const jfr_type *t)
{
    for (size_t i = 0; i < ck->nuses; i++)
        if (ck->uses[i].type == t)
            return (int)i;
    return -1;
}

size_t jfrp_census_types(const jfrp_census *cs, const jfr_type **types, size_t room)
{
    size_t n = 0;

    for (size_t k = 0; cs && k < cs->nkinds; k++)
        for (size_t i = 0; i < cs->kinds[k].nuses; i++) {
            const jfr_type *t = cs->kinds[k].uses[i].type;
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = types[j] == t;
            if (!seen && n < room)
                types[n++] = t;
        }
    if (cs && cs->setting && n < room)
        types[n++] = cs->setting;
    return n;
}

bool jfrp_census_wants(const jfrp_census *cs, const jfr_type *t, bool *state,
                       const char **weight_field)
{
    bool reads = false;

    *state = false;
    *weight_field = NULL;
    for (size_t k = 0; cs && k < cs->nkinds; k++) {
        int at = use_of(&cs->kinds[k], t);
        if (at < 0)
            continue;
        reads = true;
        *state |= cs->kinds[k].uses[at].filtered;
        if (cs->kinds[k].uses[at].source->weight_counts)
            *weight_field = cs->kinds[k].uses[at].source->weight_field;
    }
    return reads;
}

bool jfrp_census_setting(jfrp_census *cs, const jfr_event *ev)
{
    if (!cs || !cs->setting || jfr_event_type(ev) != cs->setting)
        return false;
    for (size_t k = 0; k < cs->nkinds; k++)
        cs->kinds[k].enabled |=
            jfrp_groups_enabled_by(ev, cs->kinds[k].uses, cs->kinds[k].nuses);
    return true;
}

/* The groups of kind `ck` that keep an event of its use `at` in state
 * `key` (every group of the use without a state). */
static int groups_of(jfrp_census *cs, census_kind *ck, int at, const jfrp_census_event *e,
                     uint32_t *mask)
{
    const jfrp_chunk_type *use = &ck->uses[at];
    uint64_t hit;
    int rc;

    *mask = use->groups;
    if (!use->filtered || !e->state_field)
        return 0;
    if (e->state < JFRP_SMALL_STATES && ck->small[at][e->state]) {
        *mask = ck->small[at][e->state] - 1u;
        return 0;
    }
    if ((hit = jfrp_map_get(&ck->states[at], e->state))) {
        *mask = (uint32_t)(hit - 1);
        return 0;
    }
    if ((rc = jfrp_groups_state_keep(mask, ck->of, cs->c, use, e->state_field,
                                     e->state)) < 0)
        return rc;
    if (e->state < JFRP_SMALL_STATES)
        ck->small[at][e->state] = (uint8_t)(*mask + 1);
    else if ((rc = jfrp_map_put(&ck->states[at], &cs->p->al, e->state,
                                (uint64_t)*mask + 1)) < 0)
        return rc;
    return 0;
}

size_t jfrp_census_readers(const jfrp_census *cs, const jfr_type *t, uint16_t *out,
                           size_t room)
{
    size_t n = 0;

    for (size_t k = 0; cs && k < cs->nkinds && n < room; k++) {
        int at = use_of(&cs->kinds[k], t);
        if (at >= 0)
            out[n++] = (uint16_t)(k << 8 | (unsigned)at);
    }
    return n;
}

int jfrp_census_count(jfrp_census *cs, const jfrp_census_event *e)
{
    for (size_t i = 0; i < e->nreaders; i++) {
        census_kind *ck = &cs->kinds[e->readers[i] >> 8];
        int at = e->readers[i] & 0xff, rc;
        uint32_t mask;

        if ((rc = groups_of(cs, ck, at, e, &mask)) < 0)
            return rc;
        /* which group stands for the kind: before the user's filters */
        ck->present |= mask;
        if (!e->selected)
            continue;
        for (unsigned g = 0; g < JFRP_MAX_GROUPS && mask; g++, mask >>= 1) {
            if (!(mask & 1))
                continue;
            ck->samples[g]++;
            ck->weight[g] += ck->uses[at].source->weight_counts ? e->weight : 1;
        }
    }
    return 0;
}

void jfrp_census_end(jfrp_census *cs)
{
    for (size_t k = 0; cs && k < cs->nkinds; k++) {
        census_kind *ck = &cs->kinds[k];
        unsigned g = jfrp_groups_choose(ck->present, ck->enabled);

        if (ck->of && g < JFRP_MAX_GROUPS) {
            ck->of->samples += ck->samples[g];
            ck->of->total += ck->weight[g];
        }
    }
}
