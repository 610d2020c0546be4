/* profile_struct.h - the profile's internal state, shared by profile.c
 * (sample selection and counting), profile_frames.c (frame names and
 * interning) and profile_tree.c (the call tree). */
#ifndef JFRP_PROFILE_STRUCT_H
#define JFRP_PROFILE_STRUCT_H

#include <regex.h>

#include "jfr_private.h"
#include "intern.h"

/* What identifies a frame: two frames with equal keys are one frame. Fields
 * the profile's flags do not distinguish are zero (or -1 for the line). */
typedef struct jfrp_frame_key {
    uint32_t name_id; /* in jfr_profile.strings */
    int32_t line;
    uint32_t kind;
    uint32_t synthetic;
} jfrp_frame_key;

#define JFRP_MATCH_INCLUDE 0x1u
#define JFRP_MATCH_EXCLUDE 0x2u

typedef struct jfrp_tree {
    size_t count;
    uint32_t *frame;
    uint64_t *total;
    uint64_t *self;
    uint32_t *depth;
    uint32_t *size;
} jfrp_tree;

/* A jfr_profile_source, its strings owned by the profile. */
typedef struct jfrp_source {
    char *event_type;
    char *weight_field;
    unsigned group;
    char **states; /* NULL-terminated, or NULL: every state */
    char *class_field;
    jfr_frame_kind class_kind;
    bool weight_counts;
} jfrp_source;

/* Preference groups of a profile's sources: at most this many. */
#define JFRP_MAX_GROUPS   8u
#define JFRP_NO_GROUP     JFRP_MAX_GROUPS
/* thread-state keys below this have their groups in an array, not a map */
#define JFRP_SMALL_STATES 32u

struct jfr_profile {
    jfrp_alloc al;
    jfrp_source *sources; /* copies of the options' sources */
    size_t nsources;
    unsigned ngroups;    /* the highest group + 1 */
    char *selection;     /* sources as one string: what merge compares */
    jfr_unit unit;       /* of the weights; see unit_known */
    jfr_unit count_unit; /* of counts: samples or events */
    bool unit_known;     /* counts, or a weight field's annotation was read */
    char *thread_field;
    int64_t from_nanos;
    int64_t to_nanos;
    int64_t bucket_nanos;  /* > 0: a "[time N]" root per time bucket */
    int64_t bucket_origin; /* epoch ns where bucket 0 starts */
    unsigned flags;
    bool is_cpu;
    bool has_thread_re, has_include, has_exclude;
    regex_t thread_re, include_re, exclude_re;

    jfrp_intern strings;       /* names: frame names, class names, methods, signatures */
    jfrp_intern frame_keys;    /* jfrp_frame_key -> frame id */
    jfr_profile_frame *frames; /* by frame id */
    uint8_t *frame_match;      /* by frame id: JFRP_MATCH_* */
    size_t frames_room;

    jfrp_intern stacks;   /* frame-id sequences (root first) -> stack id,
                              * frame_bytes a frame, hashed as 4-byte ids */
    unsigned frame_bytes; /* 4; 1 or 2 in a compact profile while ids fit */
    uint8_t *narrow;      /* scratch: a stack being put, in frame_bytes */
    size_t narrow_room;
    uint64_t *stack_weight;  /* by stack id */
    uint64_t *stack_samples; /* by stack id */
    size_t stacks_room;

    uint64_t total;
    uint64_t samples;
    jfr_cpu_accounting cpu;
    uint64_t lost_stack_samples; /* samples whose stack trace key is undefined */
    jfr_profile **census;        /* JFR_PROFILE_KIND_SAMPLES: per kind, or NULL */
    size_t ncensus;

    char *buf; /* scratch for building names */
    size_t buf_room;

    /* a chunk's profile made only to be merged (jfrp_profile_merge_only):
     * each stack added is kept as it comes, not looked up first */
    bool merge_only;

    /* the threads it was built with, which also sort its folded lines
     * (0: one per idle CPU) */
    unsigned threads;

    bool tree_valid;
    jfrp_tree tree;
};

#define JFRP_CPU_SAMPLE "jdk.CPUTimeSample"
#define JFRP_CPU_LOST   "jdk.CPUTimeSamplesLost"

/* Saved profiles (profile_save.c, profile_load.c): the magic, then LEB128
 * varints (signed ones zigzagged; strings as a length and their bytes):
 * flags, bucket_nanos, bucket_origin, selection, unit, count_unit,
 * unit_known | is_cpu << 1, the nine jfr_cpu_accounting counters in field
 * order, lost_stack_samples; the string table (count, strings); the frame
 * table (count; per frame the string ids of name, class + 1 (0: none),
 * method and signature, line, kind << 1 | synthetic); the stacks (count;
 * per stack the frames it shares with the one before, the number of
 * frames that follow, their frame ids, weight, samples). Nothing after. */
#define JFRP_SAVED_MAGIC     "JFRPROF\001"
#define JFRP_SAVED_MAGIC_LEN 8u

/* profile.c */
/** Add `weight` and `samples` to the stack with these frames (root first). */
int jfrp_profile_add_stack(jfr_profile *p, const uint32_t *frames, size_t depth,
                           uint64_t weight, uint64_t samples);
/** jfrp_profile_add_stack, and the stack's id in *id. */
int jfrp_profile_put_stack(jfr_profile *p, uint32_t *id, const uint32_t *frames,
                           size_t depth, uint64_t weight, uint64_t samples);
/** A stack for jfrp_profile_put_stacks; `id` is set to its id. */
typedef struct jfrp_stack_put {
    const uint32_t *frames;
    size_t depth;
    uint64_t weight, samples;
    uint32_t id;
} jfrp_stack_put;

/** The most stacks one jfrp_profile_put_stacks takes. */
#define JFRP_PUT_BATCH 16

/**
 * jfrp_profile_put_stack of v[0..n) in order (n at most JFRP_PUT_BATCH),
 * stopping at the first error: the same profile as one at a time, but
 * the lookups of the batch, each a cache miss in a large profile, are
 * started together before the first put.
 */
int jfrp_profile_put_stacks(jfr_profile *p, jfrp_stack_put *v, size_t n);
/** Add `weight` and `samples` to stack `id`, which the profile holds. */
void jfrp_profile_count_stack(jfr_profile *p, uint32_t id, uint64_t weight,
                              uint64_t samples);
/** Make `p`, still empty, a profile that is only merged into another
 * (jfr_profile_merge) and freed: each stack added is kept as it comes,
 * without looking for an equal one, so one stack may have several ids.
 * Merging sums them, in the order a deduplicated profile would. */
void jfrp_profile_merge_only(jfr_profile *p);
/** Add CPU-time accounting `src` to `dst`. */
void jfrp_profile_add_cpu(jfr_cpu_accounting *dst, const jfr_cpu_accounting *src);

/* profile_compact.c */
/** Rewrite the stacks in `bytes` bytes a frame (more than now; else no-op). */
int jfrp_profile_widen(jfr_profile *p, unsigned bytes);
/** The stored form of a stack of 4-byte ids (in p->narrow, or `frames`
 * itself), the stacks made wider first when an id does not fit. */
int jfrp_profile_stack_key(jfr_profile *p, const uint32_t *frames, size_t depth,
                           const void **key, size_t *len);
/** The depth of stack `i`, and its frames as 4-byte ids in out[] when
 * `room` holds them (else nothing is written). */
size_t jfrp_profile_stack_frames(const jfr_profile *p, size_t i, uint32_t *out,
                                 size_t room);
/** Frame `k` (from the root) of stack `i`, whatever its width. */
uint32_t jfrp_profile_stack_frame(const jfr_profile *p, size_t i, size_t k);
/** The flags two profiles must share to merge: all but storage ones. */
#define JFRP_MERGE_FLAGS(flags) ((flags) & ~JFR_PROFILE_COMPACT_STACKS)

/* profile_frames.c */
/** The id of the interned string `s` (len bytes). */
int jfrp_profile_string(jfr_profile *p, const char *s, size_t len, uint32_t *id);
/** The frame id in `p` of a frame of another profile with the same flags. */
int jfrp_profile_copy_frame(jfr_profile *p, const jfr_profile_frame *f, uint32_t *id);
/** The frame id of a frame whose name, class, method and signature are
 * the interned strings `names` (jfrp_profile_copy_frame without strings). */
int jfrp_profile_frame_of_names(jfr_profile *p, const uint32_t names[4], int32_t line,
                                jfr_frame_kind kind, bool synthetic, uint32_t *id);
/** The frame id of a synthetic frame ("[no stack trace]", thread roots). */
int jfrp_profile_synthetic(jfr_profile *p, const char *name, uint32_t *id);
/** A frame of the chunk as the profile tells frames apart (method key,
 * line, kind) -> its frame id, so that a repeated frame costs one lookup. */
typedef struct jfrp_frame_entry {
    uint64_t method_key;
    int32_t line;
    uint32_t id;
    uint8_t kind;
    uint8_t has_method;
} jfrp_frame_entry;

/** Per chunk: method key -> the interned ids of its names, and frames. */
typedef struct jfrp_name_cache {
    jfrp_map map; /* method key -> index + 1 in ids */
    uint32_t (*ids)[4];
    size_t count, room;
    jfrp_frame_entry *frames;
    size_t nframes, frames_room;
    jfrp_index frame_index; /* frames by (method key, line, kind) */
} jfrp_name_cache;

/** A frame as stored: names are resolved later, once per method. */
typedef struct jfrp_raw_frame {
    uint64_t method_key;
    int32_t line;
    jfr_frame_kind kind;
    bool has_method;
} jfrp_raw_frame;

/** `f` as `p` tells frames apart: a line only with JFR_PROFILE_LINES, a
 * kind only with JFR_PROFILE_FRAME_KIND, a method key only with a method. */
static inline void jfrp_frame_as_key(const jfr_profile *p, jfrp_raw_frame *f)
{
    if (!(p->flags & JFR_PROFILE_LINES) || f->line < 0)
        f->line = -1;
    if (!(p->flags & JFR_PROFILE_FRAME_KIND))
        f->kind = JFR_FRAME_UNKNOWN;
    if (!f->has_method)
        f->method_key = 0;
}

/** The frame id of a stack frame of `chunk`. */
int jfrp_profile_frame(jfr_profile *p, jfrp_name_cache *cache, jfr_chunk *chunk,
                       const jfrp_raw_frame *f, uint32_t *id);

/** The frame id of the class frame of class `key` of `chunk`, read
 * through `field` (a java.lang.Class reference), of kind `kind`; *id is
 * UINT32_MAX (no frame) for a null or undefined class. */
int jfrp_profile_class_frame(jfr_profile *p, jfr_chunk *chunk, const jfr_field *field,
                             uint64_t key, jfr_frame_kind kind, uint32_t *id);

/* profile_groups.c */
/** The event types of one chunk that a profile reads, one entry per type:
 * which groups of sources read it and whether a state filter applies. */
typedef struct jfrp_chunk_type {
    const jfr_type *type;
    const jfrp_source *source; /* the first source of the type: weight, class */
    uint32_t groups;           /* groups (bit per group) of its sources */
    uint32_t all_states;       /* of those, the groups that keep every state */
    bool filtered;             /* one of its sources keeps only some states */
} jfrp_chunk_type;

/** The types of `c` that `p` reads; *n of them in *out (freed by the
 * caller). The one rule of which events stand for a kind in a chunk:
 * profiles (profile_chunk.c) and rates (rate.c) both count their groups
 * apart and keep jfrp_groups_choose's. *setting is the chunk's jdk.ActiveSetting type when the types
 * belong to more than one group, so that the walk reads which are on. */
int jfrp_groups_types(jfrp_chunk_type **out, size_t *n, const jfr_type **setting,
                      const jfr_profile *p, jfr_chunk *c);
/** The groups among `ct`'s that keep an event whose state field `field`
 * holds pool key `key` (all of them when the chunk does not define it). */
int jfrp_groups_state_keep(uint32_t *mask, const jfr_profile *p, jfr_chunk *c,
                           const jfrp_chunk_type *ct, const jfr_field *field,
                           uint64_t key);
/** The groups that a jdk.ActiveSetting event `ev` turns on ("enabled" is
 * "true" for one of the types in `types`), or 0. A setting says nothing of
 * thread states: a group that keeps some states of a type is not turned
 * on by that type's setting (async-profiler turns jdk.ExecutionSample on
 * whether it writes wall-clock states or not). */
uint32_t jfrp_groups_enabled_by(const jfr_event *ev, const jfrp_chunk_type *types,
                                size_t n);
/** The group a chunk reads: the first with an event (`present`) or on
 * (`enabled`); JFRP_NO_GROUP when none. */
unsigned jfrp_groups_choose(uint32_t present, uint32_t enabled);

/* profile_census.c */
/** A chunk's count of every kind that counts samples, for a profile made
 * with JFR_PROFILE_KIND_SAMPLES (its census: one count-only profile per
 * such kind, holding the kind's sources and totals). */
typedef struct jfrp_census jfrp_census;
/** What the census needs of an event the walk read. */
typedef struct jfrp_census_event {
    const jfr_type *type;
    const jfr_field *state_field; /* NULL: the event has no state */
    uint64_t state;               /* its pool key */
    uint64_t weight;              /* the census weight field (samples), or 0 */
    bool selected;                /* in the time range, of a matching thread */
    const uint16_t *readers;      /* jfrp_census_readers of the type */
    size_t nreaders;
} jfrp_census_event;
/** *out NULL when `p` has no census. 0 or JFR_ENOMEM. */
int jfrp_census_begin(jfrp_census **out, jfr_profile *p, jfr_chunk *c);
/** The event types the census reads (and jdk.ActiveSetting when a kind has
 * groups to choose), at most `room`, each once. */
size_t jfrp_census_types(const jfrp_census *cs, const jfr_type **types, size_t room);
/** Whether the census reads events of `t`; whether their state is needed,
 * and the field that weighs them in samples (WallClockSample.samples). */
bool jfrp_census_wants(const jfrp_census *cs, const jfr_type *t, bool *state,
                       const char **weight_field);
/** The kinds that read events of `t` (kind << 8 | its use), at most
 * `room`: made once per type, so that counting an event is a short loop. */
size_t jfrp_census_readers(const jfrp_census *cs, const jfr_type *t, uint16_t *out,
                           size_t room);
/** Note a jdk.ActiveSetting event; false when `ev` is not one. */
bool jfrp_census_setting(jfrp_census *cs, const jfr_event *ev);
int jfrp_census_count(jfrp_census *cs, const jfrp_census_event *e);
/** Add each kind's chosen group to its totals. */
void jfrp_census_end(jfrp_census *cs);
void jfrp_census_free(jfrp_census *cs);

/* profile_stacks.c */
#define JFRP_SMALL_KINDS 64 /* FrameType keys below this are looked up directly */
/** Reads the stack traces of one chunk. */
typedef struct jfrp_stacks {
    jfr_chunk *c;
    bool fast;        /* the usual shape: read the pool entries directly */
    bool jdk_frames;  /* frames of varints method, lineNumber, bytecodeIndex, type */
    int frames_index; /* StackTrace's "frames" field */
    const jfr_type *frame_type;
    uint8_t roles[32];                     /* per StackFrame field */
    jfrp_map kinds;                        /* FrameType key -> jfr_frame_kind + 1 */
    uint8_t small_kinds[JFRP_SMALL_KINDS]; /* the same for small keys (0: unknown) */
    size_t max_frames;      /* frames read per stack from the top, 0: all */
    jfrp_raw_frame *frames; /* the last stack read, innermost first */
    size_t room;
} jfrp_stacks;

void jfrp_stacks_init(jfrp_stacks *s, jfr_chunk *c);
/** Read stack trace `key` into s->frames; JFR_ENOTFOUND when undefined. */
int jfrp_stacks_read(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key, size_t *depth);
/** The most bytes a frame of jdk_frames takes (four varints of nine). */
#define JFRP_JDK_FRAME_MAX 36
/**
 * Where stack `key`'s frames start when they are the JDK's (jdk_frames,
 * compressed varints), for a caller that reads them itself: 1 and the
 * frames from *p (at most *end) and their count *n (cut as
 * jfrp_stacks_read cuts it), with room for n in s->frames; 0 when they
 * are not, or the entry is bad (jfrp_stacks_read then reads it, or says
 * what is wrong); JFR_ENOTFOUND; JFR_ENOMEM.
 */
int jfrp_stacks_jdk_frames(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key,
                           const uint8_t **p, const uint8_t **end, uint64_t *n);
/** One frame of jdk_frames at *p (JFRP_JDK_FRAME_MAX bytes readable), *p
 * moved past it. 0 or JFR_ENOMEM. */
int jfrp_stacks_jdk_frame(jfrp_stacks *s, const jfrp_alloc *al, const uint8_t **p,
                          jfrp_raw_frame *out);
/** Start loading stack `key`'s pool entry into the cache, for a read soon. */
void jfrp_stacks_prefetch(const jfrp_stacks *s, uint64_t key);
void jfrp_stacks_free(jfrp_stacks *s, const jfrp_alloc *al);
void jfrp_name_cache_free(jfr_profile *p, jfrp_name_cache *cache);
/* profile_tree.c */
int jfrp_tree_build(jfr_profile *p);
void jfrp_tree_free(jfr_profile *p);

#endif
