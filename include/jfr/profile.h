/* jfr/profile.h - stack aggregation: select samples, count them by stack,
 * merge across chunks and recordings, and walk the resulting call tree.
 *
 * A profile is fed one chunk at a time (jfr_profile_add_chunk). Inside a
 * chunk, samples are counted by stack-trace key first and each distinct
 * stack is resolved once; resolved frames are interned in the profile, so
 * the same method in different chunks or files merges. Memory grows with
 * the number of distinct stacks and frames, never with the number of
 * samples. */
#ifndef JFR_PROFILE_H
#define JFR_PROFILE_H

#include "common.h"
#include "error.h"
#include "options.h"
#include "recording.h"
#include "stack.h"

JFR_BEGIN_DECLS

typedef struct jfr_profile jfr_profile;

/** How a frame is shown and merged. */
#define JFR_PROFILE_LINES           0x1u /**< frames differ by line number */
#define JFR_PROFILE_THREADS         0x2u /**< a root frame "[thread NAME tid=N]" */
#define JFR_PROFILE_FRAME_KIND      0x4u /**< frames differ by frame kind */
#define JFR_PROFILE_SIGNATURES      0x8u /**< method names carry "(int, String)" */
/** The call tree from the leaves (callers below callees); thread roots stay
 * first. */
#define JFR_PROFILE_REVERSE         0x10u
/** Keep only the top (innermost) frame of each stack, for rows by top
 * method: only that frame is read, and the include/exclude regexes see
 * only it. */
#define JFR_PROFILE_TOP_FRAME       0x20u
/** Class names without what changes from run to run (jfr_name_normalize):
 * frames of lambdas, hidden classes and generated accessors merge. */
#define JFR_PROFILE_NORMALIZE       0x40u
/** A top frame naming the class of each event's source class field
 * (jfr_profile_source.class_field): the monitor of a lock, the parked
 * object, the allocated class; of kind class_kind. */
#define JFR_PROFILE_CLASS_FRAMES    0x80u
/** Also count the samples of every kind that counts samples (cpu, exec,
 * native, wall), each by its own rules, with the profile's time range and
 * thread filter (not its frame filters): jfr_profile_kind_samples() reads
 * them, so that a reader can say when another kind has far more samples
 * than this one. Costs a walk over those kinds' events per chunk. */
#define JFR_PROFILE_KIND_SAMPLES    0x100u
/** Keep only the CPU-time accounting (jfr_profile_cpu) of the events that
 * pass the time range and thread filter: no stack is read and nothing is
 * counted into the profile's stacks, samples or total. The lines a
 * CPU-time view prints after its rows need no more. */
#define JFR_PROFILE_ACCOUNTING_ONLY 0x200u
/** Keep the stacks in 1, 2 or 4 bytes a frame, as few as the profile's
 * frame ids need (most profiles have fewer than 65,536 frames): a quarter
 * to a half of the memory of 4-byte ids. Read such stacks with
 * jfr_profile_stack_copy; the first jfr_profile_stack, the call tree or
 * the folded text rewrites them in 4 bytes a frame for good. Changes
 * nothing else: such a profile merges with one without the flag. */
#define JFR_PROFILE_COMPACT_STACKS  0x400u

/** The frame id of the call tree's root node (it has no frame). */
#define JFR_PROFILE_ROOT UINT32_MAX

/**
 * What a sample of a CPU-time event stands for (JEP 509). Counts honour the
 * time range and the thread filter, not the frame include/exclude filters.
 */
typedef struct jfr_cpu_accounting {
    uint64_t samples;    /**< jdk.CPUTimeSample events selected */
    uint64_t with_stack; /**< samples whose stack walk did not fail (JEP 509) */
    uint64_t failed;     /**< samples whose stack walk failed */
    uint64_t biased;     /**< samples taken at a safepoint */
    uint64_t lost;       /**< sum of jdk.CPUTimeSamplesLost.lostSamples
                                   (same time range and thread filter) */
    uint64_t period_ns;  /**< sum of samplingPeriod of the samples, in ns */
    /* the breakdown the CPU-time views print; fields are only ever added
     * here at the end (the struct is always read through a pointer) */
    uint64_t lost_events;      /**< jdk.CPUTimeSamplesLost events counted */
    uint64_t failed_period_ns; /**< samplingPeriod of the failed samples, in ns */
    uint64_t biased_period_ns; /**< samplingPeriod of the biased samples, in ns */
} jfr_cpu_accounting;

/* ---- profile kinds --------------------------------------------------------- */

/**
 * What a profile's weights count. Counts are samples or events; a weight
 * field's unit comes from its metadata annotation: jdk.jfr.Timespan makes
 * nanoseconds (ticks and other units are converted), jdk.jfr.DataAmount
 * bytes; a field with neither is a plain number.
 */
typedef enum jfr_unit {
    JFR_UNIT_SAMPLES = 0, /**< one per sample */
    JFR_UNIT_EVENTS,      /**< one per event (exceptions) */
    JFR_UNIT_NANOS,       /**< nanoseconds */
    JFR_UNIT_BYTES,       /**< bytes */
    JFR_UNIT_NUMBER       /**< a field without a unit annotation */
} jfr_unit;

/** "samples", "events", "ns", "bytes" or "" (JFR_UNIT_NUMBER). */
JFR_API const char *jfr_unit_name(jfr_unit unit);

/** One event type a profile reads, and what weighs its events. */
typedef struct jfr_profile_source {
    const char *event_type;   /**< name since JDK 11; JFR 1.0 names are found too */
    const char *weight_field; /**< integer field to weigh by; NULL: each counts 1 */
    /** Preference group. Per chunk, only the sources of one group are read:
     * the first group (lowest number) with an event in the chunk or with
     * one of its event types enabled by the chunk's jdk.ActiveSetting
     * events; the others are counted apart in the same pass and dropped.
     * Allocation: jdk.ObjectAllocationSample (group 0) where it is on, else
     * the TLAB events (group 1). 0 for every source: all are summed. */
    unsigned group;
    /** Thread states to keep (jdk.types.ThreadState names such as
     * "STATE_RUNNABLE"), a NULL-terminated list; NULL keeps every event.
     * Events without a state field, or with a state the chunk does not
     * define, are kept. */
    const char *const *states;
    /** A class field ("monitorClass", "objectClass") whose class becomes
     * the top frame of each stack with JFR_PROFILE_CLASS_FRAMES; NULL:
     * none. */
    const char *class_field;
    /** The frame kind of that class frame: JFR_FRAME_INLINED, or
     * JFR_FRAME_KERNEL for allocations outside a TLAB (async-profiler's
     * marks, drawn aqua and orange). */
    jfr_frame_kind class_kind;
    /** The weight field is a number of samples (async-profiler's
     * profiler.WallClockSample.samples): its unit is the profile's count
     * unit, whatever its annotations. */
    bool weight_counts;
} jfr_profile_source;

/**
 * A profile kind: a named set of sources (design.md §3). The table is
 * constant and lives as long as the library; fields may be added at the
 * end of this struct in later versions (it is only ever read through the
 * pointers the functions below return).
 */
typedef struct jfr_profile_kind {
    const char *name;        /**< "cpu", "exec", "lock", ... */
    const char *description; /**< one line, for help texts */
    const jfr_profile_source *sources;
    size_t nsources;
    jfr_unit count_unit; /**< JFR_UNIT_SAMPLES or JFR_UNIT_EVENTS when counting */
} jfr_profile_kind;

/** Every kind, in a fixed order; *count is set to their number. */
JFR_API const jfr_profile_kind *jfr_profile_kinds(size_t *count);
/** The kind of that name, or NULL. */
JFR_API const jfr_profile_kind *jfr_profile_kind_by_name(const char *name);

/* ---- options ------------------------------------------------------------------ */

/**
 * Which samples to take and how to weigh them. Initialise with
 * JFR_PROFILE_OPTIONS_INIT. Strings and sources are copied by
 * jfr_profile_new. Exactly one of event_type, kind and sources says what
 * is read.
 */
typedef struct jfr_profile_options {
    unsigned version;       /**< JFR_PROFILE_OPTIONS_VERSION */
    const char *event_type; /**< one full event type name */
    /** Numeric field to weigh samples by (e.g. "weight" for allocation
     * samples, "samplingPeriod" for CPU-time samples, in ns for timespans);
     * NULL counts samples. With a kind or sources, it replaces the weight
     * of every source. */
    const char *weight_field;
    /** Thread field to filter and label by; NULL: "sampledThread" when the
     * type has it, else "eventThread". */
    const char *thread_field;
    /** POSIX extended regex on the thread name (the Java name, else the OS
     * name; "unknown" when the sample has no thread). */
    const char *thread_regex;
    int64_t from_nanos; /**< keep samples at or after (epoch ns), 0: all */
    int64_t to_nanos;   /**< keep samples before (epoch ns), 0: all */
    /** Keep only stacks with a frame whose name matches (POSIX extended). */
    const char *include_regex;
    /** Drop stacks with a frame whose name matches (POSIX extended). */
    const char *exclude_regex;
    unsigned flags;                 /**< JFR_PROFILE_* */
    const jfr_allocator *allocator; /**< NULL: malloc */
    /* version 2 */
    /** A kind by name (jfr_profile_kinds), instead of event_type. */
    const char *kind;
    /** Several event types summed per stack, instead of event_type. */
    const jfr_profile_source *sources;
    size_t nsources;
    /* version 3 */
    /** Time buckets: when > 0, every stack starts (before its thread root)
     * with a synthetic root frame "[time N]", N = floor((startTime -
     * bucket_origin_nanos) / bucket_nanos), so that a reader can sum the
     * samples of any run of whole buckets. Samples without a start time
     * get no time root. */
    int64_t bucket_nanos;
    int64_t bucket_origin_nanos; /**< epoch ns where bucket 0 starts */
} jfr_profile_options;

/** Version 1 ends at `allocator`, version 2 at `nsources`; the library
 * reads no field past the end of the version the caller names. */
#define JFR_PROFILE_OPTIONS_VERSION 3
/* a braced initialiser, which clang-format would lay out as a block */
/* clang-format off */
#define JFR_PROFILE_OPTIONS_INIT \
    {JFR_PROFILE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, \
     NULL, NULL, 0, 0, 0}
/* clang-format on */

/**
 * Initialise `opts` as profile options of version `version` (pass
 * JFR_PROFILE_OPTIONS_VERSION): as JFR_PROFILE_OPTIONS_INIT, the fields
 * of that version zero or NULL (jfr_options_init says when to use which).
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_profile_options_init(jfr_profile_options *opts, unsigned version);

/**
 * Create an empty profile.
 * @return JFR_OK, JFR_EINVAL (no event type, kind or source, or more than
 *         one of them, an unknown kind, an unknown options version, a bad
 *         regex: detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_profile_new(jfr_profile **out, const jfr_profile_options *opts,
                            jfr_error *err);

/**
 * Add the selected samples of one chunk. Chunks without the event types add
 * nothing. Events of several types are summed per stack; their weights
 * must share a unit (else JFR_EFORMAT for that chunk). Errors in a chunk leave the samples counted before them.
 * Samples without a stack trace (or with an empty or undefined one) count
 * on the synthetic frame "[no stack trace]". With JFR_PROFILE_THREADS each
 * stack starts with a synthetic "[thread NAME tid=N]" frame (Java name and
 * id, else the OS name and id).
 * @return JFR_OK or a negative code (detail in the chunk's recording error;
 *         JFR_ENOTFOUND when the event type lacks the weight field).
 */
JFR_API int jfr_profile_add_chunk(jfr_profile *p, jfr_chunk *chunk);

/**
 * The same as jfr_profile_add_chunk, from a walk of the caller's: a
 * caller that reads the chunk's events for itself (a view's rows) hands
 * each to the profile instead of letting it walk the chunk again. The
 * caller walks at least the types jfr_profile_pass_types names, in file
 * order (jfr_event_iter_new without JFR_ITER_BY_END_TIME), gives every
 * event to jfr_profile_pass_add (those of other types are passed over),
 * then jfr_profile_pass_finish with its walk's status: the profile then
 * holds what jfr_profile_add_chunk would have added. Opaque; one chunk.
 */
typedef struct jfr_profile_pass jfr_profile_pass;

/**
 * Begin a pass of `p` over `chunk`.
 * @return JFR_OK, JFR_EINVAL or JFR_ENOMEM (detail in the recording's error).
 */
JFR_API int jfr_profile_pass_new(jfr_profile_pass **out, jfr_profile *p,
                                 jfr_chunk *chunk);

/** The names of the event types the pass reads (set in jfr_profile_pass_new;
 * valid until the pass ends); their number, 0 when the chunk adds nothing. */
JFR_API size_t jfr_profile_pass_types(const char *const **names,
                                      const jfr_profile_pass *pass);

/**
 * Add one event of the pass's chunk (events of other types or chunks are
 * passed over).
 * @return JFR_OK, or the first error met (later events are then passed
 *         over; detail in the recording's error).
 */
JFR_API int jfr_profile_pass_add(jfr_profile_pass *pass, const jfr_event *ev);

/**
 * Add what the pass counted to its profile and free the pass. `walk` is the
 * status the caller's walk ended with (JFR_DONE, or its error).
 * @return what jfr_profile_add_chunk would return for the chunk.
 */
JFR_API int jfr_profile_pass_finish(jfr_profile_pass *pass, int walk);

/** Free a pass without adding what it counted; NULL is allowed. */
JFR_API void jfr_profile_pass_free(jfr_profile_pass *pass);

/**
 * Add a stack of one synthetic frame `name` (e.g. "[lost samples]") with
 * the given weight and sample count; it merges with an earlier one of the
 * same name. Frame filters do not apply to it.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_profile_add_synthetic(jfr_profile *p, const char *name, uint64_t weight,
                                      uint64_t samples);

/**
 * Add everything profile `src` holds to `dst`: its stacks (merging with
 * equal ones by resolved frames), weights, sample counts and CPU-time
 * accounting. Both must have been made with the same event types, weights
 * and flags; `src` is unchanged. This is how chunks decoded in parallel, each
 * into a profile of its own, are combined: merged in chunk order, they
 * give the stacks, weights and frames of one profile fed every chunk.
 * @return JFR_OK, JFR_EINVAL (NULL, or different event types or flags),
 *         JFR_ENOMEM (dst then holds part of src).
 */
JFR_API int jfr_profile_merge(jfr_profile *dst, const jfr_profile *src);

/** The sum of all weights (samples, bytes, ns) in the profile. */
JFR_API uint64_t jfr_profile_total(const jfr_profile *p);
/** Number of samples taken (unweighted). */
JFR_API uint64_t jfr_profile_samples(const jfr_profile *p);
/**
 * Samples whose stack trace is not in the recording: a key (other than 0,
 * the null stack trace) that no constant pool of its chunk defines, as when
 * a checkpoint is damaged or the chain of checkpoints is cut. They count on
 * "[no stack trace]"; a reader should say how many were lost.
 */
JFR_API uint64_t jfr_profile_lost_stacks(const jfr_profile *p);
/**
 * With JFR_PROFILE_KIND_SAMPLES: the samples (the kind's weight, in
 * samples: a profiler.WallClockSample counts its `samples`) that kind
 * `kind` selects in the chunks added and merged so far; 0 for a kind that
 * weighs by time or bytes, an unknown kind, or without the flag.
 */
JFR_API uint64_t jfr_profile_kind_samples(const jfr_profile *p, const char *kind);
/**
 * The hint a front end gives when the default kind was chosen (the profile
 * made with JFR_PROFILE_KIND_SAMPLES) and `selection`, the kind chosen, has
 * under 1 % of the samples of another kind that counts samples: "only 4
 * exec samples; --event wall has 29,867" into `buf` (`size` bytes, NUL
 * terminated, truncated to fit; NULL with 0 to measure).
 * @return the hint's length (0: no hint), as snprintf counts it.
 */
JFR_API size_t jfr_profile_kind_hint(char *buf, size_t size, const jfr_profile *p,
                                     const char *selection);

/** For jfr_parse_time: no recording to count offsets from. */
#define JFR_TIME_NO_START INT64_MIN

/**
 * A time given as text, as jfrtool's --from/--to and the bindings take it:
 * ISO-8601 ("2026-11-22T03:02:58.5Z"; a zone such as "+01:00"; none means
 * UTC; a space may stand for the T), or an offset from `start_nanos` ("10s",
 * "500ms", "2m", "1.5h", "250us", "40ns"; a bare number is seconds).
 * @param out         receives the time in ns since the epoch (UTC)
 * @param start_nanos what offsets count from (jfr_recording_start_nanos),
 *                    or JFR_TIME_NO_START to accept ISO-8601 only
 * @return JFR_OK, or JFR_EINVAL when `text` is neither (or NULL).
 */
JFR_API int jfr_parse_time(int64_t *out, const char *text, int64_t start_nanos);

/**
 * The kind a front end builds when none is asked for: "cpu" when the
 * recording has a jdk.CPUTimeSample event (JDK 25's CPU-time sampler),
 * else "exec". Reads the chunks quietly up to the first such event (what
 * is wrong with them is for the read that follows to report), then
 * rewinds the recording.
 * @return JFR_OK, or JFR_EINVAL for NULL.
 */
JFR_API int jfr_recording_default_kind(const char **out, jfr_recording *rec);
/* ---- building a profile in one call -------------------------------------- */

/** What jfr_profile_build says as it goes, through its `report` callback:
 * one chunk taken (chunk set), or one input done (chunk NULL). */
typedef struct jfr_profile_build_report {
    size_t input; /**< index of the input in the array given */
    /** The chunk taken, in file order (its error, decode error and warning
     * say what went wrong); NULL when the input is done. */
    const jfr_chunk_report *chunk;
    uint64_t
        chunk_end; /**< byte where the chunk ends in the input; 0 if it did not open */
    /* the input done (chunk NULL): */
    uint64_t chunks;      /**< chunks of the input that opened */
    uint64_t samples;     /**< samples the input added */
    uint64_t lost_stacks; /**< of them, on stack traces the input does not define */
} jfr_profile_build_report;

/**
 * What jfr_profile_build selects and how it reads. Initialise with
 * jfr_profile_build_options_init.
 */
typedef struct jfr_profile_build_options {
    unsigned version; /**< JFR_PROFILE_BUILD_OPTIONS_VERSION */
    /** A kind (jfr_profile_kinds) or a full event type name; NULL: the
     * default kind of the first input (jfr_recording_default_kind), and
     * jfr_profile_build_info.hint says when another kind has far more
     * samples. */
    const char *event;
    /** NULL: the selection's own weights; "count" or "samples": one per
     * event; "period": samplingPeriod of CPU-time samples (kind cpu only);
     * else an integer field, which a type of the selection must have. */
    const char *weight;
    const char *thread_regex;  /**< as jfr_profile_options */
    const char *include_regex; /**< as jfr_profile_options */
    const char *exclude_regex; /**< as jfr_profile_options */
    unsigned flags;     /**< JFR_PROFILE_* (KIND_SAMPLES is added for the default kind) */
    int64_t from_nanos; /**< keep samples at or after (epoch ns), 0: all */
    int64_t to_nanos;   /**< keep samples before (epoch ns), 0: all */
    /** The same as text (jfr_parse_time, offsets from the first input's
     * start): replaces from_nanos/to_nanos when not NULL. */
    const char *from;
    const char *to; /**< see from */
    /** Time buckets from the first input's start (jfr_profile_options). */
    int64_t bucket_nanos;
    unsigned threads; /**< decoding threads per input (0: one per idle CPU and
                         4 MB, jfr_recording_decode_chunks);
                         also those of jfr_profile_write_folded */
    /** Input i given as NULL is opened by open(i, user) when its turn
     * comes (NULL: it is skipped; the callback says why), so that only one
     * input is open at a time. May be NULL when every input is given. */
    jfr_recording *(*open)(size_t input, void *user);
    /** Called in the calling thread for every chunk taken and every input
     * done, in order; the caller may free an input it opened once it is
     * done. May be NULL. */
    void (*report)(const jfr_profile_build_report *r, void *user);
    void *user;                     /**< for open and report */
    const jfr_allocator *allocator; /**< NULL: malloc */
} jfr_profile_build_options;

#define JFR_PROFILE_BUILD_OPTIONS_VERSION 1

/**
 * Initialise `opts` as build options of version `version` (pass
 * JFR_PROFILE_BUILD_OPTIONS_VERSION): every field zero or NULL.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_profile_build_options_init(jfr_profile_build_options *opts,
                                           unsigned version);

/** What jfr_profile_build chose and found, for the front end to show. */
typedef struct jfr_profile_build_info {
    /** The kind ("lock", static) or the event type (opts->event) read. */
    const char *selection;
    /** For titles: the JDK event type of a kind that reads one
     * ("jdk.ExecutionSample" for exec), else the selection. */
    const char *label;
    size_t inputs_read; /**< inputs that opened (0: none could be read) */
    /** The default kind was chosen and has under 1 % of another kind's
     * samples (jfr_profile_kind_hint); "" otherwise. */
    char hint[160];
    /** A refused selection in whole (JFR_EINVAL): err->message holds as
     * much of it as fits. */
    char refusal[1024];
} jfr_profile_build_info;

/**
 * The profile of `inputs` (`ninputs` recordings, read from where they
 * are; an input given NULL is opened by opts->open) in one call: the
 * default kind when none is named, the selection checked against the
 * first input (--from not before --to, a weight field its types lack:
 * refused with what the input has instead), times as text, every chunk
 * decoded in opts->threads threads and merged in order. The inputs are
 * not freed; the first is read to its end.
 * @param out  the profile (free with jfr_profile_free), NULL on error
 * @param info what was chosen; may be NULL
 * @return JFR_OK (also when no input could be read: info->inputs_read
 *         is 0), JFR_EINVAL (options refused: detail in *err and
 *         info->refusal), JFR_ENOMEM.
 */
JFR_API int jfr_profile_build(jfr_profile **out, jfr_profile_build_info *info,
                              jfr_recording *const *inputs, size_t ninputs,
                              const jfr_profile_build_options *opts, jfr_error *err);

/* ---- several profiles in one walk ---------------------------------------- */

/**
 * What jfr_profile_build_many builds and how it reads. Initialise with
 * jfr_profile_many_options_init.
 */
typedef struct jfr_profile_many_options {
    unsigned version; /**< JFR_PROFILE_MANY_OPTIONS_VERSION */
    /** The profiles to build, one set of options each (as jfr_profile_new
     * takes them; JFR_PROFILE_KIND_SAMPLES is refused, as by
     * jfr_profile_save). */
    const jfr_profile_options *profiles;
    size_t nprofiles; /**< how many: the size of the out array */
    unsigned threads; /**< decoding threads per input (0: one per idle CPU and
                         4 MB, jfr_recording_decode_chunks);
                         also those of jfr_profile_write_folded */
    /** As jfr_profile_build_options.open: input i given as NULL is opened
     * by open(i, user) when its turn comes (NULL: it is skipped). */
    jfr_recording *(*open)(size_t input, void *user);
    /** As jfr_profile_build_options.report; for an input done, `samples`
     * and `lost_stacks` are summed over the profiles. */
    void (*report)(const jfr_profile_build_report *r, void *user);
    void *user; /**< for open and report */
} jfr_profile_many_options;

#define JFR_PROFILE_MANY_OPTIONS_VERSION 1

/**
 * Initialise `opts` as options of version `version` (pass
 * JFR_PROFILE_MANY_OPTIONS_VERSION): every field zero or NULL.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_profile_many_options_init(jfr_profile_many_options *opts,
                                          unsigned version);

/**
 * Several profiles of `inputs` in one walk over their chunks: every chunk
 * is decoded once per profile in opts->threads threads, and each
 * profile's chunks are merged in chunk order, so profile k has the
 * stacks, weights and accounting of the one jfr_profile_new with
 * opts->profiles[k] makes when fed every chunk in order, and saves
 * (jfr_profile_save) to the bytes of the profile jfr_profile_build makes
 * of that selection alone with as many threads. How a report builds
 * every kind at once. A chunk that one
 * profile cannot read (jfr_profile_add_chunk's errors) keeps what was
 * counted before the error, in that profile only, and the report callback
 * says so. The inputs are not freed; each is read to its end.
 * @param out an array of opts->nprofiles profiles to fill (free each with
 *        jfr_profile_free); every entry NULL on error
 * @return JFR_OK (also when no input could be read), JFR_EINVAL (bad
 *         arguments or profile options: detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_profile_build_many(jfr_profile **out, jfr_recording *const *inputs,
                                   size_t ninputs, const jfr_profile_many_options *opts,
                                   jfr_error *err);

/** CPU-time accounting; zeros unless the profile reads jdk.CPUTimeSample. */
JFR_API const jfr_cpu_accounting *jfr_profile_cpu(const jfr_profile *p);
/**
 * The unit of the weights: the count unit without a weight field, else
 * the weight field's unit as the metadata of the chunks read declares it
 * (JFR_UNIT_NUMBER until a chunk with the field was read).
 */
JFR_API jfr_unit jfr_profile_unit(const jfr_profile *p);

/** The profile's JFR_PROFILE_* flags (how its frames are told apart). */
JFR_API unsigned jfr_profile_flags(const jfr_profile *p);

/* ---- saved profiles (to send to another process and merge there) ---------- */

/**
 * The profile as bytes: its frame table (names, lines, kinds), its stacks
 * as frame ids with their weights and sample counts, its unit, flags,
 * selection and CPU-time accounting; jfr_profile_load makes the same
 * profile of them in any process of the same library version. Much
 * smaller than the folded text of the same stacks: each string once, each
 * stack as the frames it does not share with the stack before it.
 * @param out set to the bytes (free with jfr_profile_bytes_free), NULL on
 *        error
 * @param size set to their number
 * @return JFR_OK, JFR_EINVAL (NULL, or a profile made with
 *         JFR_PROFILE_KIND_SAMPLES: its count of other kinds is not
 *         saved), JFR_ENOMEM.
 */
JFR_API int jfr_profile_save(void **out, size_t *size, const jfr_profile *p);

/** Release bytes of jfr_profile_save or text of jfr_profile_folded.
 * Accepts NULL. */
JFR_API void jfr_profile_bytes_free(void *bytes);

/**
 * A profile made of the bytes of jfr_profile_save: the same stacks (in the
 * same order), frames (same ids), weights, sample counts, unit, flags and
 * CPU-time accounting. It merges (jfr_profile_merge) with profiles of the
 * same selection and flags, whether loaded or fed chunks; it has no time
 * range, thread or frame filters of its own, and jfr_profile_add_chunk
 * adds nothing to it. Every count, length and frame id in the bytes is
 * checked: malformed bytes are refused, never read past `size`.
 * @param allocator NULL: malloc
 * @return JFR_OK, JFR_EINVAL (`out` NULL), JFR_ECORRUPT (not a saved
 *         profile, or malformed: err->offset is the byte where it went
 *         wrong, err->chunk -1), JFR_ELIMIT, JFR_ENOMEM.
 */
JFR_API int jfr_profile_load(jfr_profile **out, const void *data, size_t size,
                             const jfr_allocator *allocator, jfr_error *err);

/**
 * Add the profile saved in `data` to `dst`, with the result of
 * jfr_profile_load then jfr_profile_merge (the same frames and stacks in
 * the same order), but without a profile in between: the bytes are checked
 * whole, then added, each saved frame interned once. How the parts of a
 * profile made in several processes are summed without text.
 * @return JFR_OK, JFR_EINVAL (`dst` NULL, or bytes of another selection,
 *         other flags or another unit), JFR_ECORRUPT (malformed bytes, as
 *         jfr_profile_load), JFR_ELIMIT, JFR_ENOMEM (dst then holds part
 *         of them). The detail is in *err.
 */
JFR_API int jfr_profile_merge_saved(jfr_profile *dst, const void *data, size_t size,
                                    jfr_error *err);

/* ---- distinct stacks (for folded output) ----------------------------------- */

/** Number of distinct stacks (after merging by resolved frames). */
JFR_API size_t jfr_profile_stack_count(const jfr_profile *p);

/**
 * Stack `i` (numbered in the order stacks were first seen): its weight and
 * its frames from the root (outermost) to the leaf, as frame ids (see
 * jfr_profile_frame_at). The frames stay valid until the profile is freed.
 * In a JFR_PROFILE_COMPACT_STACKS profile the first call rewrites every
 * stack in 4-byte ids (not to be made while another thread reads the
 * profile); jfr_profile_stack_copy reads them as they are.
 * @return JFR_OK, JFR_EINVAL when `i` is out of range, JFR_ENOMEM (a
 *         compact profile could not be rewritten).
 */
JFR_API int jfr_profile_stack(uint64_t *weight, const uint32_t **frames, size_t *depth,
                              const jfr_profile *p, size_t i);

/**
 * Stack `i` as jfr_profile_stack gives it, its frames copied to
 * frames[0..depth) when `room` holds them: *depth is the stack's depth
 * whatever the room. Reads a JFR_PROFILE_COMPACT_STACKS profile as it is
 * stored, without rewriting it.
 * @return JFR_OK (also with `frames` NULL: only *weight and *depth),
 *         JFR_ELIMIT when room < *depth (nothing copied), JFR_EINVAL when
 *         `i` is out of range.
 */
JFR_API int jfr_profile_stack_copy(uint64_t *weight, uint32_t *frames, size_t room,
                                   size_t *depth, const jfr_profile *p, size_t i);

/** Number of samples (unweighted) of stack `i`; 0 when out of range. */
JFR_API uint64_t jfr_profile_stack_samples(const jfr_profile *p, size_t i);

/**
 * A resolved, interned frame, shared by every stack that holds it. Frames
 * are merged by name, plus line with JFR_PROFILE_LINES and kind with
 * JFR_PROFILE_FRAME_KIND; otherwise `line` is -1 and `kind` is the kind
 * of the first occurrence.
 */
typedef struct jfr_profile_frame {
    /** "package.Class.method" with every '/' of the class name made a '.'
     * (hidden classes as jfr print shows them: "Foo$$Lambda.0x0123"); with
     * JFR_PROFILE_SIGNATURES followed by the signature. Synthetic: "[...]".
     * Each string of the file counts up to its first NUL, as a C string
     * shows it: names that differ only after one are one frame. */
    const char *name;
    /** "java.util.HashMap" ("" if unknown); NULL for synthetic frames */
    const char *class_name;
    const char *method; /**< "get" ("[unknown]" if unknown) */
    /** Parameter types by simple name as the JDK renders them,
     * "(Object, int[])", with JFR_PROFILE_SIGNATURES; otherwise "". */
    const char *signature;
    int32_t line; /**< -1 unless JFR_PROFILE_LINES and known */
    jfr_frame_kind kind;
    bool synthetic; /**< thread roots, [lost samples], [no stack trace] */
    /* appended in options version 3 (the struct is read through a pointer) */
    /** For a time root "[time N]" (jfr_profile_options.bucket_nanos): N;
     * INT64_MIN for every other frame. */
    int64_t time_bucket;
} jfr_profile_frame;

/** Number of distinct frames; ids run from 0 to this minus 1. */
JFR_API size_t jfr_profile_frame_count(const jfr_profile *p);

/** jfr_profile_frame_text: ":LINE" after the name when the line is known. */
#define JFR_FRAME_TEXT_LINES    1u
/** jfr_profile_frame_text: spaces, ';', CR and LF made '_' (flamegraph.pl
 * splits a folded line on ';' and on its last space). */
#define JFR_FRAME_TEXT_FOLDED   2u
/** jfr_profile_frame_text: the frame type's suffix (jfr_frame_kind_suffix)
 * after a frame that is not synthetic, as FlameGraph's --annotate. */
#define JFR_FRAME_TEXT_ANNOTATE 4u

/**
 * The suffix of FlameGraph's --annotate convention for a frame type:
 * "_[j]" JIT compiled or C1, "_[i]" inlined, "_[0]" interpreted, "_[k]"
 * kernel, "" for native, C++, unknown and out-of-range values. Static.
 */
JFR_API const char *jfr_frame_kind_suffix(jfr_frame_kind kind);

/**
 * The frame type that the suffix of the `len` bytes at `text` names
 * (jfr_frame_kind_suffix; "_[j]" reads as JFR_FRAME_JIT), and in
 * *name_len (may be NULL) the length of the text without the suffix.
 * @return the kind, or JFR_FRAME_UNKNOWN (*name_len = len) without one.
 */
JFR_API jfr_frame_kind jfr_frame_kind_of_suffix(size_t *name_len, const char *text,
                                                size_t len);

/**
 * Frame `f` as text, into `out` (NUL terminated, cut to `size`): its name,
 * then as JFR_FRAME_TEXT_* `flags` say its line, the folded convention's
 * characters and the frame type's suffix. This is how jfrtool writes a
 * frame in every output (folded, flame graphs, speedscope, pprof).
 * @return the length of the whole text (as snprintf), 0 for NULL.
 */
JFR_API size_t jfr_profile_frame_text(char *out, size_t size, const jfr_profile_frame *f,
                                      unsigned flags);

/**
 * Receives text in pieces, in order: `len` bytes at `text` (not NUL
 * terminated, valid during the call). Return 0 (JFR_OK) to go on; any
 * other value stops the writer, which returns it.
 */
typedef int (*jfr_text_sink)(void *user, const char *text, size_t len);

/**
 * The profile's folded stacks, as `jfrtool folded` writes them and
 * flamegraph.pl reads them: a line per distinct text of the stacks of
 * weight above 0, that is their frames from the root as
 * jfr_profile_frame_text makes them with JFR_FRAME_TEXT_FOLDED and
 * `flags` (JFR_FRAME_TEXT_LINES, JFR_FRAME_TEXT_ANNOTATE), joined by ';',
 * then a space, the weight and '\n'. Stacks whose text comes out equal
 * (frames that differ only in the characters made '_', or in what `flags`
 * leave out) make one line with the sum of their weights. Lines are in
 * the byte order of their text (strcmp). The text goes to `sink` in
 * pieces of whole lines, about 64 KiB each (in two threads, blocks of 256
 * lines), always in the calling thread. A profile of 32,768 lines or more that
 * jfr_profile_build or jfr_profile_build_many made with `threads` 0 (and
 * a CPU idle) or 2 and more is sorted and its text made in two threads;
 * the text does not depend on it.
 * @return JFR_OK, JFR_EINVAL (NULL `p` or `sink`), JFR_ENOMEM, or the
 *         sink's nonzero value (then the text was cut after a line).
 */
JFR_API int jfr_profile_write_folded(const jfr_profile *p, unsigned flags,
                                     jfr_text_sink sink, void *user);

/**
 * The text of jfr_profile_write_folded in one block.
 * @param out set to the text, NUL terminated ("" for a profile without a
 *        stack of weight; free with jfr_profile_bytes_free), NULL on error
 * @param len set to its length without the NUL (may be NULL)
 * @return JFR_OK, JFR_EINVAL (NULL `out` or `p`), JFR_ENOMEM.
 */
JFR_API int jfr_profile_folded(char **out, size_t *len, const jfr_profile *p,
                               unsigned flags);

/** jfr_stack_order: the ids after the first `fixed` of each path are
 * taken last first (flame graphs drawn from the leaves). */
#define JFR_STACK_ORDER_REVERSE      1u
/** jfr_stack_order: sort JFR_STACK_ORDER_THREADS_FROM paths or more in
 * two threads (the order is the same); the caller decides whether a CPU is
 * free for it. */
#define JFR_STACK_ORDER_TWO_THREADS  2u
/** Fewer paths than this are sorted in one thread whatever the flags, so
 * a caller need not ask whether a CPU is idle for them. */
#define JFR_STACK_ORDER_THREADS_FROM 32768u

/**
 * Paths of ids in the order of their keys, the sort behind
 * jfr_profile_write_folded's line order, for other orders of stacks:
 * `order` (room for `n`) is set to the indexes 0..n-1 of the paths
 * (path i: the `depths[i]` ids at `paths[i]`) sorted by the sequences of
 * `keys[id]` of their ids, compared as numbers; a path comes before the
 * longer paths it starts, and paths of equal sequences keep their index
 * order. `flags`: JFR_STACK_ORDER_REVERSE, JFR_STACK_ORDER_TWO_THREADS.
 * @return JFR_OK, JFR_EINVAL (a NULL array, an id of `nkeys` or more, a
 *         key of UINT32_MAX, a path deeper than UINT32_MAX or n above
 *         UINT32_MAX), JFR_ENOMEM.
 */
JFR_API int jfr_stack_order(uint32_t *order, const uint32_t *const *paths,
                            const uint32_t *depths, size_t n, const uint32_t *keys,
                            size_t nkeys, size_t fixed, unsigned flags);

/**
 * Frame `id` of this profile, NULL if out of range. The struct is valid
 * until the next jfr_profile_add_*; its strings until the profile is freed.
 */
JFR_API const jfr_profile_frame *jfr_profile_frame_at(const jfr_profile *p, uint32_t id);

/**
 * Add one stack given by its frames, from the root (outermost) to the
 * leaf, with its weight and sample count: a stack that was resolved
 * elsewhere, such as a line of folded text (frames split at ';') or a
 * stack of another process's profile (jfr_profile_stack and
 * jfr_profile_frame_at). Frames are interned as the profile's own are and
 * merge with them: by name, plus `line` with JFR_PROFILE_LINES (else
 * taken as -1) and `kind` with JFR_PROFILE_FRAME_KIND. `class_name`,
 * `method` and `signature` may be NULL (""). Frame filters do not apply.
 * With JFR_PROFILE_NORMALIZE, `name` and `class_name` of a frame that is
 * not synthetic are normalised (jfr_name_normalize), as the profile's own
 * frames are. The frames are copied.
 * @return JFR_OK, JFR_EINVAL (NULL, `depth` 0, a frame without a name),
 *         JFR_ELIMIT, JFR_ENOMEM.
 */
JFR_API int jfr_profile_add_stack(jfr_profile *p, const jfr_profile_frame *frames,
                                  size_t depth, uint64_t weight, uint64_t samples);

/* ---- the call tree --------------------------------------------------------- */

/**
 * Build the call tree from the stacks (again after samples were added;
 * nothing to do when it is current). Call it before the node functions,
 * which read the tree and build nothing.
 * @return JFR_OK, JFR_EINVAL (NULL), JFR_ENOMEM.
 */
JFR_API int jfr_profile_build_tree(jfr_profile *p);

/**
 * Node ids of the call tree: 0 is the root (all samples, frame
 * JFR_PROFILE_ROOT); children of a node are sorted by frame name (then line
 * and kind). The number of nodes of the tree jfr_profile_build_tree built,
 * 0 when it was not built since samples were last added.
 */
JFR_API size_t jfr_profile_node_count(const jfr_profile *p);
JFR_API uint32_t jfr_profile_node_frame(const jfr_profile *p, size_t node);
JFR_API uint64_t jfr_profile_node_total(const jfr_profile *p, size_t node);
JFR_API uint64_t jfr_profile_node_self(const jfr_profile *p, size_t node);
JFR_API size_t jfr_profile_node_depth(const jfr_profile *p, size_t node);
/** Nodes are numbered in pre-order: the subtree of `node` (itself
 * included) is nodes node .. node+size-1; its children are those at
 * depth+1. */
JFR_API size_t jfr_profile_node_size(const jfr_profile *p, size_t node);

/** Release the profile. Accepts NULL. */
JFR_API void jfr_profile_free(jfr_profile *p);

JFR_END_DECLS

#endif
