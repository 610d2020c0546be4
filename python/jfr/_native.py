"""The C side: libjfr's public API declared for cffi (ABI mode) and loaded.

Only declarations of include/jfr/*.h are used here, never libjfr's private
headers. CDEF is a copy of them, and the integer constants below copies of
their macros: tests/python/check-cdef.py compares both with the headers,
declaration by declaration, so that a header change Python would miss
fails `make check`. cffi releases the GIL around every call into the library (ABI mode
included), so decoding in one Python thread lets the others run.

Where the library comes from, first match wins:

1. the environment variable JFR_LIBRARY (a path to libjfr.so);
2. the build tree: ../../libjfr/.libs/libjfr.so next to this package when it
   is imported from python/ of a build (see doc/python.md);
3. the libdir configured at install time (jfr/_installed.py, written by
   `make install`);
4. the system's search path (libjfr.so.6, then ctypes.util.find_library).
"""

import os

import cffi

CDEF = r"""
typedef struct jfr_str { const char *ptr; size_t len; } jfr_str;
typedef struct jfr_recording jfr_recording;
typedef struct jfr_chunk jfr_chunk;
typedef struct jfr_type jfr_type;
typedef struct jfr_field jfr_field;
typedef struct jfr_event_iter jfr_event_iter;
typedef struct jfr_event jfr_event;
typedef struct jfr_stacktrace jfr_stacktrace;

typedef enum jfr_error_place {
    JFR_PLACE_FIELDS = 0,
    JFR_PLACE_CHUNK,
    JFR_PLACE_SUBJECT
} jfr_error_place;
typedef struct jfr_error {
    int code;
    int sys_errno;
    int64_t chunk;
    uint64_t offset;
    char message[160];
    jfr_error_place place;
    uint64_t reserved_[8];
} jfr_error;
const char *jfr_strerror(int code);
int jfr_error_text(char *out, size_t size, const jfr_error *err);

const char *jfr_version_string(void);
unsigned jfr_features(void);

typedef struct jfr_allocator jfr_allocator;
typedef struct jfr_options {
    unsigned version;
    const jfr_allocator *allocator;
    uint64_t max_input_size;
    uint64_t max_chunk_size;
    uint32_t max_depth;
    uint32_t max_array_length;
    uint32_t max_string_length;
    uint64_t max_pool_entries;
    uint32_t max_types;
} jfr_options;

int jfr_recording_open_file(jfr_recording **out, const char *path,
                            const jfr_options *opts, jfr_error *err);
int jfr_recording_open_memory(jfr_recording **out, const void *data, size_t size,
                              const jfr_options *opts, jfr_error *err);
int jfr_recording_next_chunk(jfr_chunk **out, jfr_recording *rec);
int jfr_recording_rewind(jfr_recording *rec);
int jfr_recording_start_nanos(int64_t *out, const jfr_recording *rec);
const jfr_error *jfr_recording_error(const jfr_recording *rec);
const char *jfr_recording_container(const jfr_recording *rec);
uint64_t jfr_recording_size(const jfr_recording *rec);
void jfr_recording_free(jfr_recording *rec);

typedef struct jfr_header {
    uint16_t major;
    uint16_t minor;
    uint64_t chunk_size;
    uint64_t constant_pool_offset;
    uint64_t metadata_offset;
    int64_t start_nanos;
    int64_t duration_nanos;
    int64_t start_ticks;
    int64_t ticks_per_second;
    uint8_t state;
    uint16_t flags;
    uint64_t file_offset;
} jfr_header;
const jfr_header *jfr_chunk_header(const jfr_chunk *chunk);
int64_t jfr_chunk_index(const jfr_chunk *chunk);
bool jfr_chunk_is_unfinished(const jfr_chunk *chunk);
const jfr_error *jfr_chunk_warning(const jfr_chunk *chunk);
int64_t jfr_chunk_ticks_to_epoch_nanos(const jfr_chunk *chunk, int64_t ticks);
int64_t jfr_chunk_ticks_to_nanos(const jfr_chunk *chunk, int64_t ticks);

typedef enum jfr_kind {
    JFR_KIND_STRUCT = 0, JFR_KIND_BOOLEAN, JFR_KIND_BYTE, JFR_KIND_CHAR,
    JFR_KIND_SHORT, JFR_KIND_INT, JFR_KIND_LONG, JFR_KIND_FLOAT,
    JFR_KIND_DOUBLE, JFR_KIND_STRING
} jfr_kind;
size_t jfr_chunk_type_count(const jfr_chunk *chunk);
const jfr_type *jfr_chunk_type_at(const jfr_chunk *chunk, size_t i);
const jfr_type *jfr_chunk_event_type(const jfr_chunk *chunk, const char *name);
const char *jfr_type_name(const jfr_type *type);
uint64_t jfr_type_id(const jfr_type *type);
size_t jfr_type_index(const jfr_type *type);
const char *jfr_type_super(const jfr_type *type);
jfr_kind jfr_type_kind(const jfr_type *type);
bool jfr_type_is_event(const jfr_type *type);
bool jfr_type_is_simple(const jfr_type *type);
const char *jfr_type_label(const jfr_type *type);
size_t jfr_type_field_count(const jfr_type *type);
const jfr_field *jfr_type_field_at(const jfr_type *type, size_t i);
const char *jfr_type_annotation_value(const jfr_type *type, const char *annotation);
const char *jfr_field_name(const jfr_field *field);
const jfr_type *jfr_field_type(const jfr_field *field);
bool jfr_field_is_array(const jfr_field *field);
bool jfr_field_is_pooled(const jfr_field *field);
const char *jfr_field_label(const jfr_field *field);
const char *jfr_field_annotation_value(const jfr_field *field, const char *annotation);
bool jfr_field_has_annotation(const jfr_field *field, const char *annotation);
bool jfr_type_has_annotation(const jfr_type *type, const char *annotation);
typedef enum jfr_content {
    JFR_CONTENT_NONE = 0, JFR_CONTENT_TIMESTAMP, JFR_CONTENT_TIMESPAN,
    JFR_CONTENT_PERCENTAGE, JFR_CONTENT_BYTES, JFR_CONTENT_BITS,
    JFR_CONTENT_BYTES_PER_SECOND, JFR_CONTENT_BITS_PER_SECOND,
    JFR_CONTENT_MEMORY_ADDRESS, JFR_CONTENT_FREQUENCY
} jfr_content;
jfr_content jfr_field_content(const jfr_field *field);
const char *jfr_field_content_unit(const jfr_field *field);
bool jfr_field_is_unsigned(const jfr_field *field);
typedef enum jfr_time_unit {
    JFR_TIME_NONE = 0, JFR_TIME_TICKS, JFR_TIME_NANOSECONDS,
    JFR_TIME_MICROSECONDS, JFR_TIME_MILLISECONDS, JFR_TIME_SECONDS,
    JFR_TIME_EPOCH_TICKS, JFR_TIME_EPOCH_MILLISECONDS, JFR_TIME_EPOCH_NANOSECONDS
} jfr_time_unit;
jfr_time_unit jfr_field_time_unit(const jfr_field *field);
int jfr_chunk_time_nanos(int64_t *out_nanos, const jfr_chunk *chunk,
                         jfr_time_unit unit, int64_t value);
bool jfr_field_has_content_type(const jfr_field *field);

typedef enum jfr_value_kind {
    JFR_VALUE_NULL = 0, JFR_VALUE_BOOLEAN, JFR_VALUE_INT, JFR_VALUE_FLOAT,
    JFR_VALUE_STRING, JFR_VALUE_OBJECT, JFR_VALUE_ARRAY
} jfr_value_kind;
typedef struct jfr_value {
    jfr_value_kind kind;
    const jfr_type *type;
    const jfr_field *field;
    union {
        bool boolean;
        int64_t i;
        double f;
        jfr_str str;
        uint64_t length;
    } as;
    uint64_t bits;
    bool pooled;
    uint64_t key;
    uint64_t reserved_[4];
} jfr_value;
typedef struct jfr_cursor { uint64_t reserved_[24]; } jfr_cursor;
int jfr_value_iter(jfr_cursor *out, const jfr_value *v);
int jfr_cursor_next(jfr_value *out, jfr_cursor *cur);
int jfr_value_field(jfr_value *out, const jfr_value *obj, const char *name);

typedef struct jfr_record_stats {
    uint64_t metadata_count, metadata_bytes;
    uint64_t checkpoint_count, checkpoint_bytes;
    uint64_t unknown_count, unknown_bytes;
} jfr_record_stats;
int jfr_event_iter_new(jfr_event_iter **out, jfr_chunk *chunk,
                       const char *const *types, size_t ntypes, unsigned flags);
int jfr_event_next(const jfr_event **out, jfr_event_iter *it);
void jfr_event_iter_free(jfr_event_iter *it);
int jfr_chunk_count_records(uint64_t *counts, uint64_t *bytes, jfr_record_stats *other, jfr_chunk *chunk);
const jfr_type *jfr_event_type(const jfr_event *ev);
uint64_t jfr_event_offset(const jfr_event *ev);
uint64_t jfr_event_size(const jfr_event *ev);
int jfr_event_value(jfr_value *out, const jfr_event *ev);
int jfr_event_field(jfr_value *out, const jfr_event *ev, const char *name);
int64_t jfr_event_start_ticks(const jfr_event *ev);

typedef enum jfr_frame_kind {
    JFR_FRAME_UNKNOWN = 0, JFR_FRAME_INTERPRETED, JFR_FRAME_JIT, JFR_FRAME_INLINED,
    JFR_FRAME_NATIVE, JFR_FRAME_CPP, JFR_FRAME_KERNEL, JFR_FRAME_C1
} jfr_frame_kind;

typedef struct jfr_cpu_accounting {
    uint64_t samples, with_stack, failed, biased, lost, period_ns;
    uint64_t lost_events, failed_period_ns, biased_period_ns;
} jfr_cpu_accounting;
typedef enum jfr_unit {
    JFR_UNIT_SAMPLES = 0, JFR_UNIT_EVENTS, JFR_UNIT_NANOS, JFR_UNIT_BYTES, JFR_UNIT_NUMBER
} jfr_unit;
const char *jfr_unit_name(jfr_unit unit);
typedef struct jfr_profile_source {
    const char *event_type;
    const char *weight_field;
    unsigned group;
    const char *const *states;
    const char *class_field;
    jfr_frame_kind class_kind;
    bool weight_counts;
} jfr_profile_source;
typedef struct jfr_profile_kind {
    const char *name;
    const char *description;
    const jfr_profile_source *sources;
    size_t nsources;
    jfr_unit count_unit;
} jfr_profile_kind;
const jfr_profile_kind *jfr_profile_kinds(size_t *count);
const jfr_profile_kind *jfr_profile_kind_by_name(const char *name);
typedef struct jfr_profile jfr_profile;
typedef struct jfr_profile_options {
    unsigned version;
    const char *event_type;
    const char *weight_field;
    const char *thread_field;
    const char *thread_regex;
    int64_t from_nanos;
    int64_t to_nanos;
    const char *include_regex;
    const char *exclude_regex;
    unsigned flags;
    const jfr_allocator *allocator;
    const char *kind;
    const jfr_profile_source *sources;
    size_t nsources;
    int64_t bucket_nanos;
    int64_t bucket_origin_nanos;
} jfr_profile_options;
int jfr_profile_new(jfr_profile **out, const jfr_profile_options *opts, jfr_error *err);
int jfr_profile_add_chunk(jfr_profile *p, jfr_chunk *chunk);
int jfr_profile_add_synthetic(jfr_profile *p, const char *name, uint64_t weight,
                              uint64_t samples);
int jfr_profile_merge(jfr_profile *dst, const jfr_profile *src);
unsigned jfr_profile_flags(const jfr_profile *p);
int jfr_profile_save(void **out, size_t *size, const jfr_profile *p);
void jfr_profile_bytes_free(void *bytes);
int jfr_profile_load(jfr_profile **out, const void *data, size_t size,
                     const jfr_allocator *allocator, jfr_error *err);
int jfr_profile_merge_saved(jfr_profile *dst, const void *data, size_t size,
                            jfr_error *err);
uint64_t jfr_profile_total(const jfr_profile *p);
uint64_t jfr_profile_samples(const jfr_profile *p);
uint64_t jfr_profile_kind_samples(const jfr_profile *p, const char *kind);
size_t jfr_profile_kind_hint(char *buf, size_t size, const jfr_profile *p,
                             const char *selection);
int jfr_parse_time(int64_t *out, const char *text, int64_t start_nanos);
int jfr_recording_default_kind(const char **out, jfr_recording *rec);
typedef struct jfr_chunk_report {
    int64_t index;
    uint64_t taken;
    unsigned threads;
    const jfr_error *error;
    const jfr_error *decode_error;
    const jfr_error *warning;
} jfr_chunk_report;
typedef struct jfr_profile_build_report {
    size_t input;
    const jfr_chunk_report *chunk;
    uint64_t chunk_end;
    uint64_t chunks;
    uint64_t samples;
    uint64_t lost_stacks;
} jfr_profile_build_report;
typedef struct jfr_profile_build_options {
    unsigned version;
    const char *event;
    const char *weight;
    const char *thread_regex;
    const char *include_regex;
    const char *exclude_regex;
    unsigned flags;
    int64_t from_nanos;
    int64_t to_nanos;
    const char *from;
    const char *to;
    int64_t bucket_nanos;
    unsigned threads;
    jfr_recording *(*open)(size_t input, void *user);
    void (*report)(const jfr_profile_build_report *r, void *user);
    void *user;
    const jfr_allocator *allocator;
} jfr_profile_build_options;
int jfr_profile_build_options_init(jfr_profile_build_options *opts, unsigned version);
typedef struct jfr_profile_build_info {
    const char *selection;
    const char *label;
    size_t inputs_read;
    char hint[160];
    char refusal[1024];
} jfr_profile_build_info;
int jfr_profile_build(jfr_profile **out, jfr_profile_build_info *info,
                      jfr_recording *const *inputs, size_t ninputs,
                      const jfr_profile_build_options *opts, jfr_error *err);
uint64_t jfr_profile_lost_stacks(const jfr_profile *p);
const jfr_cpu_accounting *jfr_profile_cpu(const jfr_profile *p);
jfr_unit jfr_profile_unit(const jfr_profile *p);
size_t jfr_profile_stack_count(const jfr_profile *p);
int jfr_profile_stack(uint64_t *weight, const uint32_t **frames, size_t *depth, const jfr_profile *p, size_t i);
int jfr_profile_stack_copy(uint64_t *weight, uint32_t *frames, size_t room, size_t *depth, const jfr_profile *p, size_t i);
uint64_t jfr_profile_stack_samples(const jfr_profile *p, size_t i);
typedef struct jfr_profile_frame {
    const char *name;
    const char *class_name;
    const char *method;
    const char *signature;
    int32_t line;
    jfr_frame_kind kind;
    bool synthetic;
    int64_t time_bucket;
} jfr_profile_frame;
size_t jfr_profile_frame_count(const jfr_profile *p);
#define JFR_FRAME_TEXT_LINES 1
#define JFR_FRAME_TEXT_FOLDED 2
#define JFR_FRAME_TEXT_ANNOTATE 4
const char *jfr_frame_kind_suffix(jfr_frame_kind kind);
jfr_frame_kind jfr_frame_kind_of_suffix(size_t *name_len, const char *text, size_t len);
size_t jfr_profile_frame_text(char *out, size_t size, const jfr_profile_frame *f,
                              unsigned flags);
typedef int (*jfr_text_sink)(void *user, const char *text, size_t len);
int jfr_profile_write_folded(const jfr_profile *p, unsigned flags,
                             jfr_text_sink sink, void *user);
const jfr_profile_frame *jfr_profile_frame_at(const jfr_profile *p, uint32_t id);
int jfr_profile_build_tree(jfr_profile *p);
size_t jfr_profile_node_count(const jfr_profile *p);
uint32_t jfr_profile_node_frame(const jfr_profile *p, size_t node);
uint64_t jfr_profile_node_total(const jfr_profile *p, size_t node);
uint64_t jfr_profile_node_self(const jfr_profile *p, size_t node);
size_t jfr_profile_node_depth(const jfr_profile *p, size_t node);
size_t jfr_profile_node_size(const jfr_profile *p, size_t node);
void jfr_profile_free(jfr_profile *p);

typedef struct jfr_leaks jfr_leaks;

typedef struct jfr_findings jfr_findings;
typedef struct jfr_rate jfr_rate;
typedef struct jfr_timeline jfr_timeline;
typedef struct jfr_timeline_options jfr_timeline_options;
typedef struct jfr_report_data jfr_report_data;
typedef struct jfr_report_data_options {
    unsigned version;
    int64_t origin_nanos;
    int64_t end_nanos;
    int64_t bucket_nanos;
    const jfr_timeline_options *timeline;
    jfr_findings *findings;
    jfr_recording *(*open)(size_t input, jfr_error *err, void *user);
    void *user;
} jfr_report_data_options;
int jfr_report_data_options_init(jfr_report_data_options *opts, unsigned version);
int jfr_report_data_build(jfr_report_data **out, jfr_recording *const *inputs,
                          size_t ninputs, const jfr_report_data_options *opts,
                          jfr_error *err);
typedef struct jfr_report_summary {
    int64_t origin_nanos;
    int64_t end_nanos;
    uint64_t chunks;
    uint64_t bytes;
    size_t inputs_read;
} jfr_report_summary;
const jfr_report_summary *jfr_report_data_summary(const jfr_report_data *d);
typedef struct jfr_report_row { const char *key; const char *value; } jfr_report_row;
const jfr_report_row *jfr_report_data_overview(size_t *count, const jfr_report_data *d);
const jfr_report_row *jfr_report_data_settings(size_t *count, const jfr_report_data *d);
typedef struct jfr_report_series {
    const char *name;
    const char *event_type;
    size_t ncols;
    const char *cols[6];
    const double *values[6];
    const char *const *texts;
    size_t count;
} jfr_report_series;
const jfr_report_series *jfr_report_data_series(size_t *count, const jfr_report_data *d);
typedef struct jfr_report_lost {
    size_t input;
    jfr_error error;
    bool rest_of_chunk;
} jfr_report_lost;
const jfr_report_lost *jfr_report_data_lost(size_t *count, const jfr_report_data *d);
void jfr_report_data_free(jfr_report_data *d);
typedef struct jfr_leaks_options {
    unsigned version;
    double threshold;
    uint32_t max_chain;
    uint32_t max_frames;
    bool keep_warmup;
    const jfr_allocator *allocator;
} jfr_leaks_options;
int jfr_leaks_new(jfr_leaks **out, const jfr_leaks_options *opts, jfr_error *err);
int jfr_leaks_add_chunk(jfr_leaks *lk, jfr_chunk *chunk);
int jfr_leaks_build_trees(jfr_leaks *lk);
typedef struct jfr_leak_node {
    uint64_t address;
    const char *type;
    const char *description;
    uint32_t parent;
    uint32_t tree;
    const char *field;
    int32_t modifiers;
    int32_t array_index;
    int32_t array_size;
    int64_t skip;
    uint32_t depth;
    uint64_t distance;
    uint64_t samples;
    double relevance;
    bool sampled;
} jfr_leak_node;
const jfr_leak_node *jfr_leaks_node_at(const jfr_leaks *lk, uint32_t id);
typedef struct jfr_leak_tree {
    uint32_t root;
    const char *system;
    const char *type;
    const char *description;
    uint64_t samples;
    uint32_t recording;
} jfr_leak_tree;
const jfr_leak_tree *jfr_leaks_tree_at(const jfr_leaks *lk, size_t i);
typedef struct jfr_leak_candidate {
    uint32_t node;
    uint32_t site;
    uint32_t tree;
    uint32_t recording;
    uint64_t samples;
    uint64_t root_samples;
    double share_of_root;
    double share_of_all;
    double relevance;
} jfr_leak_candidate;
size_t jfr_leaks_candidate_count(const jfr_leaks *lk);
const jfr_leak_candidate *jfr_leaks_candidate_at(const jfr_leaks *lk, size_t i);
const char *jfr_leaks_holder_name(const jfr_leaks *lk, uint32_t node);
void jfr_leaks_free(jfr_leaks *lk);

typedef struct jfr_type_filter jfr_type_filter;
typedef struct jfr_type_set jfr_type_set;
typedef enum jfr_filter_by { JFR_FILTER_BY_NAME = 0, JFR_FILTER_BY_CATEGORY = 1 } jfr_filter_by;
int jfr_type_filter_new(jfr_type_filter **out, const char *text, jfr_filter_by by,
                        const jfr_allocator *allocator, jfr_error *err);
void jfr_type_filter_free(jfr_type_filter *filter);
size_t jfr_type_filter_item_count(const jfr_type_filter *filter);
const char *jfr_type_filter_item(const jfr_type_filter *filter, size_t i);
bool jfr_type_filter_matches(const jfr_type_filter *filter, const jfr_type *type);
int jfr_type_set_new(jfr_type_set **out, const jfr_allocator *allocator);
void jfr_type_set_free(jfr_type_set *set);
int jfr_type_set_add_chunk(jfr_type_set *set, const jfr_chunk *chunk);
int jfr_type_set_add_recording(jfr_type_set *set, jfr_recording *rec);
size_t jfr_type_set_count(const jfr_type_set *set);
const char *jfr_type_set_name(const jfr_type_set *set, size_t i);
bool jfr_type_set_matches(const jfr_type_set *set, size_t i, const jfr_type_filter *filter);
int jfr_type_filter_check(size_t *item, const jfr_type_filter *filter,
                          const jfr_type_set *set, jfr_error *err);
int jfr_type_set_resolve(const char **out, const jfr_type_set *set, const char *name,
                         jfr_error *err);
size_t jfr_type_set_nearest(const char **out, size_t max, const jfr_type_set *set,
                            const char *name, jfr_filter_by by);
size_t jfr_nearest_names(size_t *out, size_t max, const char *name,
                         const char *const *candidates, size_t n);

typedef struct jfr_writer jfr_writer;
typedef struct jfr_scrub jfr_scrub;
typedef struct jfr_writer_options {
    unsigned version;
    const jfr_allocator *allocator;
} jfr_writer_options;
int jfr_writer_open_file(jfr_writer **out, const char *path,
                         const jfr_writer_options *opts, jfr_error *err);
int jfr_writer_open_memory(jfr_writer **out, const jfr_writer_options *opts,
                           jfr_error *err);
int jfr_writer_memory(const void **data, size_t *size, const jfr_writer *w);
uint64_t jfr_writer_size(const jfr_writer *w);
uint64_t jfr_writer_chunk_count(const jfr_writer *w);
int jfr_writer_close(jfr_writer *w);
const jfr_error *jfr_writer_error(const jfr_writer *w);
void jfr_writer_free(jfr_writer *w);
typedef struct jfr_write_stats {
    uint64_t chunks_written, events_read, events_written, events_redacted;
    uint64_t events_filtered, events_undecodable, records_unknown;
    uint64_t pool_entries_written, pools_damaged, bytes_read, bytes_skipped;
    uint64_t bytes_written;
} jfr_write_stats;
int jfr_writer_add_chunk(jfr_write_stats *stats, jfr_writer *w, jfr_chunk *chunk, jfr_scrub *scrub);
size_t jfr_writer_note_count(const jfr_writer *w);
const jfr_error *jfr_writer_note_at(const jfr_writer *w, size_t i);
typedef enum jfr_scrub_filter {
    JFR_SCRUB_INCLUDE_EVENTS = 0, JFR_SCRUB_EXCLUDE_EVENTS, JFR_SCRUB_INCLUDE_CATEGORIES,
    JFR_SCRUB_EXCLUDE_CATEGORIES, JFR_SCRUB_INCLUDE_THREADS, JFR_SCRUB_EXCLUDE_THREADS
} jfr_scrub_filter;
int jfr_scrub_new(jfr_scrub **out, const jfr_allocator *allocator);
int jfr_scrub_add_filter(jfr_scrub *s, jfr_scrub_filter kind, const char *filter);
int jfr_scrub_check(const jfr_scrub *s, const jfr_type_set *set, jfr_error *err);
int jfr_scrub_set_time_range(jfr_scrub *s, int64_t from_nanos, int64_t to_nanos);
int jfr_scrub_redact_defaults(jfr_scrub *s, const char *key_regex);
int jfr_scrub_redact_field(jfr_scrub *s, const char *type, const char *field,
                           const char *regex);
size_t jfr_scrub_redaction_count(const jfr_scrub *s);
int jfr_scrub_redaction_at(const char **field, uint64_t *count, const jfr_scrub *s, size_t i);
const char *jfr_scrub_error(const jfr_scrub *s);
void jfr_scrub_free(jfr_scrub *s);
int jfr_writer_declare_type(uint64_t *id, jfr_writer *w, const char *name, const char *super_type, unsigned flags);
int jfr_writer_type_id(uint64_t *id, const jfr_writer *w, const char *name);
int jfr_writer_declare_field(jfr_writer *w, uint64_t type, const char *name,
                             uint64_t field_type, unsigned flags);
int jfr_writer_annotate(jfr_writer *w, uint64_t type, const char *field,
                        uint64_t annotation, const char *const *names,
                        const char *const *values, size_t n);
typedef struct jfr_chunk_spec {
    unsigned version;
    int64_t start_nanos;
    int64_t start_ticks;
    int64_t ticks_per_second;
    bool fixed_ints;
    int64_t gmt_offset_ms;
} jfr_chunk_spec;
int jfr_writer_begin_chunk(jfr_writer *w, const jfr_chunk_spec *spec);
int jfr_writer_begin_event(jfr_writer *w, uint64_t type);
int jfr_writer_begin_entry(jfr_writer *w, uint64_t type, uint64_t key);
int jfr_writer_put_int(jfr_writer *w, int64_t value);
int jfr_writer_put_float(jfr_writer *w, double value);
int jfr_writer_put_string(jfr_writer *w, const char *s, size_t len);
int jfr_writer_put_key(jfr_writer *w, uint64_t key);
int jfr_writer_put_count(jfr_writer *w, uint64_t count);
int jfr_writer_end(jfr_writer *w);
int jfr_writer_cancel(jfr_writer *w);
int jfr_writer_end_chunk(jfr_writer *w, int64_t duration_nanos);
typedef struct jfr_follow jfr_follow;
typedef enum jfr_follow_start {
    JFR_FOLLOW_FROM_FIRST = 0,
    JFR_FOLLOW_FROM_LATEST_CHUNK,
    JFR_FOLLOW_FROM_NOW
} jfr_follow_start;
typedef struct jfr_follow_options {
    unsigned version;
    const jfr_options *read;
    uint32_t poll_ms;
    uint32_t idle_ms;
    jfr_follow_start start;
    int64_t pid;
} jfr_follow_options;
typedef enum jfr_follow_end {
    JFR_FOLLOW_RUNNING = 0,
    JFR_FOLLOW_FINISHED,
    JFR_FOLLOW_IDLE,
    JFR_FOLLOW_GONE,
    JFR_FOLLOW_DAMAGED
} jfr_follow_end;
typedef struct jfr_flush {
    jfr_chunk *chunk;
    const char *path;
    uint64_t begin;
    uint64_t end;
    int64_t start_nanos;
    int64_t end_nanos;
    uint64_t chunk_number;
    bool first_in_chunk;
    bool chunk_closed;
    const jfr_error *chunk_error;
} jfr_flush;
int jfr_follow_open(jfr_follow **out, const char *path, const jfr_follow_options *opts,
                    jfr_error *err);
int jfr_follow_poll(const jfr_flush **out, jfr_follow *f);
int jfr_follow_next(const jfr_flush **out, jfr_follow *f, int timeout_ms);
jfr_follow_end jfr_follow_end_reason(const jfr_follow *f);
const char *jfr_follow_end_name(jfr_follow_end end);
const jfr_error *jfr_follow_error(const jfr_follow *f);
const char *jfr_follow_error_path(const jfr_follow *f);
void jfr_follow_free(jfr_follow *f);
int jfr_follow_find_pid(char *out, size_t out_size, int64_t pid, jfr_error *err);
"""

# constants of the headers that cffi cannot see (macros)
OPTIONS_VERSION = 1
PROFILE_OPTIONS_VERSION = 3
PROFILE_BUILD_OPTIONS_VERSION = 1
LEAKS_OPTIONS_VERSION = 1
REPORT_DATA_OPTIONS_VERSION = 1
FOLLOW_OPTIONS_VERSION = 1
FOLLOW_STARTS = {"first": 0, "latest-chunk": 1, "now": 2}
ITER_BY_END_TIME = 0x2
AGAIN = 2
PROFILE_LINES = 0x1
PROFILE_THREADS = 0x2
PROFILE_FRAME_KIND = 0x4
PROFILE_SIGNATURES = 0x8
PROFILE_TOP_FRAME = 0x20
PROFILE_NORMALIZE = 0x40
PROFILE_CLASS_FRAMES = 0x80
PROFILE_KIND_SAMPLES = 0x100
PROFILE_ACCOUNTING_ONLY = 0x200
PROFILE_COMPACT_STACKS = 0x400
PROFILE_ROOT = 0xFFFFFFFF
LEAK_NONE = 0xFFFFFFFF
WRITER_OPTIONS_VERSION = 1
CHUNK_SPEC_VERSION = 1
FIELD_ARRAY = 0x1
FIELD_POOLED = 0x2
TYPE_SIMPLE = 0x1
WRITER_MAX_NOTES = 64
FEATURES = {"gzip": 0x1, "lz4": 0x2, "xz": 0x4, "bzip2": 0x8}

ffi = cffi.FFI()
ffi.cdef(CDEF)


def _candidates():
    env = os.environ.get("JFR_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "libjfr", ".libs", "libjfr.so")
    try:
        from . import _installed  # written by make install

        yield os.path.join(_installed.LIBDIR, "libjfr.so.6")
        yield os.path.join(_installed.LIBDIR, "libjfr.so")
    except ImportError:
        pass
    yield "libjfr.so.6"
    import ctypes.util

    found = ctypes.util.find_library("jfr")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("jfr: libjfr not found; set JFR_LIBRARY to the path of "
                      "libjfr.so. Tried: " + "; ".join(tried))


lib, LIBRARY_PATH = _load()
