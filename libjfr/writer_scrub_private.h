/* writer_scrub_private.h - the scrub object and its redaction rules, shared
 * by writer_scrub.c (filters, the per-chunk plan) and writer_redact.c
 * (rewriting strings). Never installed. */
#ifndef JFRP_WRITER_SCRUB_PRIVATE_H
#define JFRP_WRITER_SCRUB_PRIVATE_H

#include <regex.h>

#include "writer_struct.h"

/** One filter of jfr_scrub_add_filter: its kind, and the library's rule
 * for event types and categories (jfr/typefilter.h) or, for threads, the
 * items of its comma list. */
typedef struct jfrw_filter {
    jfr_scrub_filter kind;
    jfr_type_filter *types; /* events and categories */
    char **items;           /* threads */
    size_t nitems;
} jfrw_filter;

typedef enum jfrw_rule_kind {
    JFRW_RULE_ALL,   /* every value */
    JFRW_RULE_REGEX, /* each match of `re` */
    JFRW_RULE_ARGS,  /* the values of -KEY=VALUE arguments whose KEY matches `re` */
    JFRW_RULE_KEYED  /* every value when the string field `key_field` matches `re` */
} jfrw_rule_kind;

/** A redaction: which field, how, and the count it adds to. */
typedef struct jfrw_rule {
    char *type, *field, *key_field;
    jfrw_rule_kind kind;
    regex_t re;
    bool has_re;
    size_t stat; /* index into the scrub's stats */
} jfrw_rule;

/** What jfr_scrub_redaction_at reports: a field and its count. */
typedef struct jfrw_stat {
    char *name; /* "TYPE.FIELD" */
    uint64_t count;
} jfrw_stat;

struct jfr_scrub {
    jfrp_alloc al;
    jfrw_filter *filters;
    size_t nfilters;
    int64_t from, to; /* 0: open */
    jfrw_rule *rules;
    size_t nrules;
    jfrw_stat *stats;
    size_t nstats;
    char error[200];
};

/* A redaction rule on a field of a type (field and rule indexes). */
typedef struct field_rule {
    uint32_t field, rule;
} field_rule;

struct jfrw_chunk_plan {
    jfr_scrub *s;
    jfr_chunk *c;
    jfrp_arena arena;    /* the per-type arrays below */
    uint8_t *type_kept;  /* per type index: events/categories filters agree */
    uint8_t *redacts;    /* per type index: 0 unknown, 1 no, 2 yes */
    field_rule **rules;  /* per type index: the rules on its fields */
    uint32_t *nrules;    /* per type index */
    int32_t *thread_at;  /* per type index: eventThread's index, -1 none */
    int32_t *time_at;    /* per type index: startTime's index, -1 none */
    bool thread_filters; /* any include/exclude-threads filter */
    jfrp_map verdicts;   /* thread key -> 1 kept, 2 left out */
    jfrp_arena scratch;  /* strings decoded for one value */
    jfrp_vctx vctx;
};

/** Glob of the JDK's thread filters: '*' any run, '?' one character
 * (UTF-8), as its Matcher does. */
bool jfrw_glob(const char *text, size_t tlen, const char *pat, size_t plen);

#endif
