/* test_abi.c - the binary interface a binding relies on (doc/internals.md,
 * "The ABI"): *_options_init for every versioned options struct. */
#include <stddef.h>
#include <stdio.h>

#include <criterion/criterion.h>

#include "jfr_private.h"

/* Fill with a byte no initialiser writes, to see what init touched. */
#define POISON(s) memset(&(s), 0xA5, sizeof(s))

static bool all_bytes(const void *p, size_t from, size_t to, unsigned char b)
{
    const unsigned char *c = p;

    for (size_t i = from; i < to; i++)
        if (c[i] != b)
            return false;
    return true;
}

/* What init makes of a current-version struct equals the INIT macro. */
#define SAME_AS_MACRO(type, last, init_fn, ver, MACRO)                                   \
    do {                                                                                 \
        type by_fn, by_macro = MACRO;                                                    \
        POISON(by_fn);                                                                   \
        cr_assert_eq(init_fn(&by_fn, ver), JFR_OK);                                      \
        cr_assert_eq(by_fn.version, by_macro.version);                                   \
        /* every field after the version is zero, as in each macro */                    \
        cr_assert(all_bytes(&by_fn, sizeof(unsigned), JFRP_END_OF(type, last), 0),       \
                  #type);                                                                \
    } while (0)

Test(abi, options_init_equals_the_macros)
{
    SAME_AS_MACRO(jfr_options, max_types, jfr_options_init, JFR_OPTIONS_VERSION,
                  JFR_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_profile_options, bucket_origin_nanos, jfr_profile_options_init,
                  JFR_PROFILE_OPTIONS_VERSION, JFR_PROFILE_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_leaks_options, allocator, jfr_leaks_options_init,
                  JFR_LEAKS_OPTIONS_VERSION, JFR_LEAKS_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_rate_options, allocator, jfr_rate_options_init,
                  JFR_RATE_OPTIONS_VERSION, JFR_RATE_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_findings_options, flags, jfr_findings_options_init,
                  JFR_FINDINGS_OPTIONS_VERSION, JFR_FINDINGS_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_timeline_options, sample_bin_origin_nanos,
                  jfr_timeline_options_init, JFR_TIMELINE_OPTIONS_VERSION,
                  JFR_TIMELINE_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_follow_options, pid, jfr_follow_options_init,
                  JFR_FOLLOW_OPTIONS_VERSION, JFR_FOLLOW_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_split_options, max_size, jfr_split_options_init,
                  JFR_SPLIT_OPTIONS_VERSION, JFR_SPLIT_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_writer_options, allocator, jfr_writer_options_init,
                  JFR_WRITER_OPTIONS_VERSION, JFR_WRITER_OPTIONS_INIT);
    SAME_AS_MACRO(jfr_chunk_spec, gmt_offset_ms, jfr_chunk_spec_init,
                  JFR_CHUNK_SPEC_VERSION, JFR_CHUNK_SPEC_INIT);
}

/* A rule's default severity is not zero: init sets it as the macro does. */
Test(abi, rule_init_equals_the_macro)
{
    jfr_rule by_fn, by_macro = JFR_RULE_INIT;

    POISON(by_fn);
    cr_assert_eq(jfr_rule_init(&by_fn, JFR_RULE_VERSION), JFR_OK);
    cr_assert_eq(by_fn.version, by_macro.version);
    cr_assert_eq(by_fn.severity, JFR_SEVERITY_WARNING);
    cr_assert_null(by_fn.id);
    cr_assert_null(by_fn.condition);
    cr_assert_null(by_fn.source);
    cr_assert_eq(by_fn.max, 0);
    cr_assert_eq(jfr_rule_init(&by_fn, JFR_RULE_VERSION + 1), JFR_EINVAL);
    cr_assert_eq(jfr_rule_init(NULL, JFR_RULE_VERSION), JFR_EINVAL);
}

/* A program built against version 2 of the profile options has a struct
 * that ends at `nsources`: init writes nothing past it. */
Test(abi, options_init_writes_only_the_version_asked)
{
    jfr_profile_options po;
    size_t end1 = JFRP_END_OF(jfr_profile_options, allocator);
    size_t end2 = JFRP_END_OF(jfr_profile_options, nsources);

    POISON(po);
    cr_assert_eq(jfr_profile_options_init(&po, 2), JFR_OK);
    cr_assert_eq(po.version, 2);
    cr_assert_null(po.kind);
    cr_assert_null(po.sources);
    cr_assert_eq(po.nsources, 0);
    cr_assert(all_bytes(&po, end2, sizeof po, 0xA5), "wrote past version 2");
    POISON(po);
    cr_assert_eq(jfr_profile_options_init(&po, 1), JFR_OK);
    cr_assert_null(po.allocator);
    cr_assert(all_bytes(&po, end1, sizeof po, 0xA5), "wrote past version 1");
}

Test(abi, options_init_refuses_unknown_versions)
{
    jfr_options o;
    jfr_profile_options po;

    POISON(o);
    cr_assert_eq(jfr_options_init(&o, 0), JFR_EINVAL);
    cr_assert_eq(jfr_options_init(&o, JFR_OPTIONS_VERSION + 1), JFR_EINVAL);
    cr_assert(all_bytes(&o, 0, sizeof o, 0xA5), "wrote for an unknown version");
    cr_assert_eq(jfr_options_init(NULL, JFR_OPTIONS_VERSION), JFR_EINVAL);
    POISON(po);
    cr_assert_eq(jfr_profile_options_init(&po, JFR_PROFILE_OPTIONS_VERSION + 1),
                 JFR_EINVAL);
    cr_assert(all_bytes(&po, 0, sizeof po, 0xA5));
    cr_assert_eq(jfr_leaks_options_init(NULL, JFR_LEAKS_OPTIONS_VERSION), JFR_EINVAL);
    cr_assert_eq(jfr_rate_options_init(NULL, JFR_RATE_OPTIONS_VERSION), JFR_EINVAL);
    cr_assert_eq(jfr_findings_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_timeline_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_follow_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_split_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_writer_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_chunk_spec_init(NULL, 1), JFR_EINVAL);
}

/* Options made by init are accepted by the functions that take them. */
Test(abi, initialised_options_work)
{
    jfr_profile_options po;
    jfr_profile *p;
    jfr_leaks_options lo;
    jfr_leaks *lk;
    jfr_error err;

    cr_assert_eq(jfr_profile_options_init(&po, JFR_PROFILE_OPTIONS_VERSION), JFR_OK);
    po.kind = "cpu";
    cr_assert_eq(jfr_profile_new(&p, &po, &err), JFR_OK, "%s", err.message);
    jfr_profile_free(p);
    cr_assert_eq(jfr_profile_options_init(&po, 2), JFR_OK);
    po.kind = "exec";
    cr_assert_eq(jfr_profile_new(&p, &po, &err), JFR_OK, "%s", err.message);
    jfr_profile_free(p);
    cr_assert_eq(jfr_leaks_options_init(&lo, JFR_LEAKS_OPTIONS_VERSION), JFR_OK);
    cr_assert_eq(jfr_leaks_new(&lk, &lo, &err), JFR_OK, "%s", err.message);
    jfr_leaks_free(lk);
}

/* The location is in jfr_error's fields only; jfr_error_text composes the
 * line jfrtool prints after the file's name. */
Test(abi, error_text_composes_the_location)
{
    jfr_error e = {0};
    char buf[256];

    e.chunk = -1;
    snprintf(e.message, sizeof e.message, "not a JFR recording");
    cr_assert_eq(jfr_error_text(buf, sizeof buf, &e), (int)strlen("not a JFR recording"));
    cr_assert_str_eq(buf, "not a JFR recording");
    e.chunk = 3;
    e.offset = 1234;
    snprintf(e.message, sizeof e.message, "jdk.ExecutionSample: malformed data");
    jfr_error_text(buf, sizeof buf, &e);
    cr_assert_str_eq(buf, "chunk 3, offset 1234: jdk.ExecutionSample: malformed data");
    e.place = JFR_PLACE_CHUNK;
    snprintf(e.message, sizeof e.message, "record at offset 99 has impossible size 0");
    jfr_error_text(buf, sizeof buf, &e);
    cr_assert_str_eq(buf, "chunk 3: record at offset 99 has impossible size 0");
    e.place = JFR_PLACE_SUBJECT;
    snprintf(e.message, sizeof e.message, "was not closed (state 1)");
    jfr_error_text(buf, sizeof buf, &e);
    cr_assert_str_eq(buf, "chunk 3 was not closed (state 1)");
    cr_assert_eq(jfr_error_text(buf, 4, &e),
                 (int)strlen("chunk 3 was not closed (state 1)"));
    cr_assert_str_eq(buf, "chu");
    cr_assert_eq(jfr_error_text(buf, sizeof buf, NULL), -1);
}

/* A damaged chunk's error names the chunk in its fields, not its text. */
Test(abi, error_messages_do_not_repeat_the_chunk)
{
    static const unsigned char bad[68 + 8] = {
        'F', 'L', 'R', 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10}; /* size 10 < header */
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    int rc;

    cr_assert_eq(jfr_recording_open_memory(&rec, bad, sizeof bad, NULL, &err), JFR_OK,
                 "%s", err.message);
    rc = jfr_recording_next_chunk(&c, rec);
    cr_assert_lt(rc, 0);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 0);
    cr_assert_null(strstr(jfr_recording_error(rec)->message, "chunk 0"), "%s",
                   jfr_recording_error(rec)->message);
    jfr_recording_free(rec);
}

/* A getter builds nothing: the call tree exists after
 * jfr_profile_build_tree, and adding samples makes it stale until the next
 * build. */
Test(abi, node_count_is_a_pure_getter)
{
    jfr_profile_options po;
    jfr_profile *p;
    jfr_profile_frame f[2];
    jfr_error err;

    memset(f, 0, sizeof f);
    f[0].name = "a.A.main";
    f[1].name = "a.A.work";
    f[0].line = f[1].line = -1;
    cr_assert_eq(jfr_profile_options_init(&po, JFR_PROFILE_OPTIONS_VERSION), JFR_OK);
    po.event_type = "folded";
    cr_assert_eq(jfr_profile_new(&p, &po, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_profile_add_stack(p, f, 2, 5, 5), JFR_OK);
    cr_assert_eq(jfr_profile_node_count(p), 0, "built by a getter");
    cr_assert_eq(jfr_profile_build_tree(p), JFR_OK);
    cr_assert_eq(jfr_profile_node_count(p), 3);
    cr_assert_eq(jfr_profile_node_total(p, 0), 5);
    cr_assert_eq(jfr_profile_add_stack(p, f, 1, 2, 2), JFR_OK);
    cr_assert_eq(jfr_profile_node_count(p), 0, "a stale tree was read");
    cr_assert_eq(jfr_profile_build_tree(p), JFR_OK);
    cr_assert_eq(jfr_profile_node_total(p, 0), 7);
    cr_assert_eq(jfr_profile_build_tree(NULL), JFR_EINVAL);
    jfr_profile_free(p);
}

/* The frame's folded text and type suffix come from one table in libjfr. */
Test(abi, frame_text_and_kind_suffix)
{
    jfr_profile_frame f;
    char buf[64];

    memset(&f, 0, sizeof f);
    f.name = "a.B c;d";
    f.line = 12;
    f.kind = JFR_FRAME_C1;
    cr_assert_eq(jfr_profile_frame_text(buf, sizeof buf, &f, 0), 7);
    cr_assert_str_eq(buf, "a.B c;d");
    jfr_profile_frame_text(buf, sizeof buf, &f, JFR_FRAME_TEXT_LINES);
    cr_assert_str_eq(buf, "a.B c;d:12");
    cr_assert_eq(jfr_profile_frame_text(buf, sizeof buf, &f,
                                        JFR_FRAME_TEXT_LINES | JFR_FRAME_TEXT_FOLDED |
                                            JFR_FRAME_TEXT_ANNOTATE),
                 strlen("a.B_c_d:12_[j]"));
    cr_assert_str_eq(buf, "a.B_c_d:12_[j]");
    cr_assert_eq(jfr_profile_frame_text(NULL, 0, &f, JFR_FRAME_TEXT_ANNOTATE), 11);
    cr_assert_eq(jfr_profile_frame_text(buf, 4, &f, JFR_FRAME_TEXT_FOLDED), 7);
    cr_assert_str_eq(buf, "a.B");
    f.synthetic = true;
    jfr_profile_frame_text(buf, sizeof buf, &f, JFR_FRAME_TEXT_ANNOTATE);
    cr_assert_str_eq(buf, "a.B c;d", "a synthetic frame has no suffix");
    cr_assert_str_eq(jfr_frame_kind_suffix(JFR_FRAME_INTERPRETED), "_[0]");
    cr_assert_str_eq(jfr_frame_kind_suffix(JFR_FRAME_INLINED), "_[i]");
    cr_assert_str_eq(jfr_frame_kind_suffix(JFR_FRAME_KERNEL), "_[k]");
    cr_assert_str_eq(jfr_frame_kind_suffix(JFR_FRAME_NATIVE), "");
    cr_assert_str_eq(jfr_frame_kind_suffix((jfr_frame_kind)99), "");
    for (int k = JFR_FRAME_UNKNOWN; k <= JFR_FRAME_C1; k++) {
        const char *s = jfr_frame_kind_suffix((jfr_frame_kind)k);
        size_t n;

        snprintf(buf, sizeof buf, "x.Y%s", s);
        jfr_frame_kind got = jfr_frame_kind_of_suffix(&n, buf, strlen(buf));
        cr_assert_eq(n, 3, "%s", buf);
        cr_assert_eq((int)got, *s ? (k == JFR_FRAME_C1 ? (int)JFR_FRAME_JIT : k)
                                  : (int)JFR_FRAME_UNKNOWN);
    }
    cr_assert_eq(jfr_frame_kind_of_suffix(NULL, "_[j]", 4), JFR_FRAME_UNKNOWN,
                 "a suffix alone is a name");
}

/* Structs the caller's storage receives keep their size: new fields take
 * the place of reserved_ (doc/internals.md, "The ABI"). On LP64. */
Test(abi, caller_storage_sizes_are_fixed)
{
    if (sizeof(void *) != 8)
        cr_skip_test("sizes are pinned for LP64");
    cr_assert_eq(sizeof(jfr_error), 256);
    cr_assert_eq(offsetof(jfr_error, message), 24);
    cr_assert_eq(offsetof(jfr_error, place), 184);
    cr_assert_eq(sizeof(jfr_frame), 128);
    cr_assert_eq(offsetof(jfr_frame, reserved_), 96);
    cr_assert_eq(sizeof(jfr_thread), 80);
    cr_assert_eq(offsetof(jfr_thread, reserved_), 64);
}
