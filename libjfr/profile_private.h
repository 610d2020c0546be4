/* profile_private.h - the profile's internal state, shared by profile.c
 * (sample selection and counting), profile_frames.c (frame names and
 * interning) and profile_tree.c (the call tree). */
#ifndef JFRP_PROFILE_PRIVATE_H
#define JFRP_PROFILE_PRIVATE_H

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
    bool fallback;
} jfrp_source;

struct jfr_profile {
    jfrp_alloc al;
    jfrp_source *sources; /* copies of the options' sources */
    size_t nsources;
    char *selection; /* sources as one string: what merge compares */
    jfr_unit unit;   /* of the weights; see unit_known */
    bool unit_known; /* counts, or a weight field's annotation was read */
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

    jfrp_intern stacks;      /* frame-id sequences (root first) -> stack id */
    uint64_t *stack_weight;  /* by stack id */
    uint64_t *stack_samples; /* by stack id */
    size_t stacks_room;

    uint64_t total;
    uint64_t samples;
    jfr_cpu_accounting cpu;
    uint64_t lost_stack_samples; /* samples whose stack trace key is undefined */

    char *buf; /* scratch for building names */
    size_t buf_room;

    bool tree_valid;
    jfrp_tree tree;
};

#define JFRP_CPU_SAMPLE "jdk.CPUTimeSample"
#define JFRP_CPU_LOST   "jdk.CPUTimeSamplesLost"

/* profile.c */
/** Add `weight` and `samples` to the stack with these frames (root first). */
int jfrp_profile_add_stack(jfr_profile *p, const uint32_t *frames, size_t depth,
                           uint64_t weight, uint64_t samples);

/* profile_frames.c */
/** The id of the interned string `s` (len bytes). */
int jfrp_profile_string(jfr_profile *p, const char *s, size_t len, uint32_t *id);
/** The frame id in `p` of a frame of another profile with the same flags. */
int jfrp_profile_copy_frame(jfr_profile *p, const jfr_profile_frame *f, uint32_t *id);
/** The frame id of a synthetic frame ("[no stack trace]", thread roots). */
int jfrp_profile_synthetic(jfr_profile *p, const char *name, uint32_t *id);
/* The event types of chunk `c` that profile `p` reads, by the chunk's own
 * names (JFR 1.0 ones too), each with its weight field (NULL: counted):
 * the sources the chunk declares, else its fallbacks; CPU-time profiles
 * add the lost samples. `names` and `weights` have room for
 * p->nsources + 1. Returns their number. The one rule of which events
 * stand for a kind in a chunk: profiles and rates (rate.c) both use it. */
size_t jfrp_profile_chunk_types(const jfr_profile *p, jfr_chunk *c, const char **names,
                                const char **weights);
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

/** The frame id of a stack frame of `chunk`. */
int jfrp_profile_frame(jfr_profile *p, jfrp_name_cache *cache, jfr_chunk *chunk,
                       const jfrp_raw_frame *f, uint32_t *id);

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
void jfrp_stacks_free(jfrp_stacks *s, const jfrp_alloc *al);
void jfrp_name_cache_free(jfr_profile *p, jfrp_name_cache *cache);
/* profile_tree.c */
int jfrp_tree_build(jfr_profile *p);
void jfrp_tree_free(jfr_profile *p);

#endif
