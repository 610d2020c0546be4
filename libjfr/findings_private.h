/* findings_private.h - inside the findings (jfr/findings.h): the facts
 * gathered from chunks, profiles, a rate and leaks (findings_facts.c),
 * conditions and templates (findings_expr.c), the built-in rules
 * (findings_rules.c) and the analysis that runs them (findings.c). */
#ifndef JFRP_FINDINGS_PRIVATE_H
#define JFRP_FINDINGS_PRIVATE_H

#include "jfr/findings.h"
#include "jfr_private.h"

/* ---- facts (findings_facts.c) ---------------------------------------------------- */

#define JFRP_MAX_LEAKS     3 /* leak candidates kept */
#define JFRP_FACT_MAX_ROWS JFRP_MAX_LEAKS
#define JFRP_FACT_MAX_COLS 8

/* Samples by thread of a profile made with JFR_PROFILE_THREADS. */
typedef struct jfrp_thread_facts {
    bool present;
    uint64_t samples;
    size_t threads;
    double top_share;
    char *top; /* "main tid=1" */
} jfrp_thread_facts;

typedef struct jfrp_leak_facts {
    char *site; /* Class.field */
    char *type;
    uint64_t samples;
    double share, relevance;
} jfrp_leak_facts;

/** What the facts are computed from: fed by jfr_findings_add_*. */
typedef struct jfrp_facts {
    bool has_span;
    int64_t start, end;
    bool has_exstat;
    double ex_prev, ex_total;
    uint64_t exception_events;
    bool has_cpu;
    jfr_cpu_accounting cpu;
    jfrp_thread_facts cpu_threads, exec_threads;
    bool has_alloc;
    uint64_t alloc_total;
    double alloc_peak;
    bool alloc_peak_from_rate; /* jfr_findings_add_rate gave the peak */
    int64_t alloc_peak_at;
    jfrp_leak_facts leaks[JFRP_MAX_LEAKS];
    size_t nleaks;
} jfrp_facts;

/** The rows of fact `index` (jfr_findings_facts) as the facts stand; the
 * cells' text points into `facts` or static storage. Returns the rows. */
size_t jfrp_fact_rows(const jfrp_facts *facts, size_t index,
                      jfr_cell rows[JFRP_FACT_MAX_ROWS][JFRP_FACT_MAX_COLS]);

/** Free what `facts` holds. */
void jfrp_facts_free(jfrp_facts *facts, const jfrp_alloc *al);

/* ---- conditions and templates (findings_expr.c) ---------------------------------- */

/** One comparison of a column with a number. */
typedef struct jfrp_cmp {
    char *name;       /* the column as written */
    size_t col;       /* its index, once resolved */
    int op;           /* JFRP_OP_* */
    double number;    /* what it is compared with */
    bool starts_term; /* an "or" comes before it (or it is the first) */
} jfrp_cmp;

enum { JFRP_OP_LT, JFRP_OP_LE, JFRP_OP_GT, JFRP_OP_GE, JFRP_OP_EQ, JFRP_OP_NE };

typedef struct jfrp_cond {
    jfrp_cmp *cmps;
    size_t n;
} jfrp_cond;

/** A piece of a template: text, or a column with a format. */
typedef struct jfrp_piece {
    char *text;   /* literal text, or the column's name */
    bool column;  /* text names a column */
    size_t col;   /* its index, once resolved */
    char format;  /* 0: default, 'f' fixed, '%' per cent, 'd' integer, 'b' bytes */
    int decimals; /* for 'f' and '%' */
} jfrp_piece;

typedef struct jfrp_template {
    jfrp_piece *pieces;
    size_t n;
} jfrp_template;

/** Parse `text` (NULL or "": always true); *what says what is wrong. */
int jfrp_cond_parse(jfrp_cond *c, const jfrp_alloc *al, const char *text, char *what,
                    size_t room);
/** Parse template `text` (NULL: empty). */
int jfrp_template_parse(jfrp_template *t, const jfrp_alloc *al, const char *text,
                        char *what, size_t room);
/** Find each named column among `names`; false (naming it in *what) when
 * one is not there. */
bool jfrp_cond_resolve(jfrp_cond *c, const char *const *names, size_t n, char *what,
                       size_t room);
bool jfrp_template_resolve(jfrp_template *t, const char *const *names, size_t n,
                           char *what, size_t room);
/** Whether `row` passes; the first comparison's column and number. */
bool jfrp_cond_test(const jfrp_cond *c, const jfr_cell *row, double *value,
                    double *threshold);
/** The template filled from `row`, in memory from `al` (NULL: no memory). */
char *jfrp_template_render(const jfrp_template *t, const jfr_cell *row,
                           const jfrp_alloc *al);
void jfrp_cond_free(jfrp_cond *c, const jfrp_alloc *al);
void jfrp_template_free(jfrp_template *t, const jfrp_alloc *al);

/** "1.5 GiB" (binary units, one decimal). */
void jfrp_bytes_text(char *buf, size_t room, double bytes);

/* ---- the analysis ------------------------------------------------------------------ */

/** A rule as an analysis holds it: its row (strings owned), parsed. */
typedef struct jfrp_rule {
    jfr_rule row;
    size_t fact; /* index in jfr_findings_facts, or SIZE_MAX: rows added */
    jfrp_cond cond;
    jfrp_template title, evidence, subject;
    size_t at_col; /* the column "at", or SIZE_MAX */
    /* rows added by the caller: ncolumns cells each, text owned */
    char **columns;
    size_t ncolumns;
    bool columns_set;
    jfr_cell *cells;
    size_t nrows, cells_cap;
} jfrp_rule;

struct jfr_findings {
    jfrp_alloc al;
    jfrp_facts facts;
    jfrp_rule *rules;
    size_t nrules, rules_cap;
    /* results */
    bool valid;
    jfr_finding *items;
    size_t nitems, room;
    char **strings; /* what the items point to */
    size_t nstrings, strings_room;
};

#endif
