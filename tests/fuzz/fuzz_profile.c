/* fuzz_profile.c - stack aggregation (jfr/profile.h) over every chunk:
 * execution samples counted by stack and thread, allocation samples
 * weighed by their "weight" field.
 * Properties: the stacks' weights add up to the total and their sample
 * counts to the sample count; frame ids are in range; the call tree's root
 * holds the total, self weights add up to it, and every subtree's total is
 * its self weight plus its children's totals. */
#include "fuzz_common.h"

static void check_profile(jfr_profile *p)
{
    uint64_t sum = 0, samples = 0, self_sum = 0;
    size_t nstacks = jfr_profile_stack_count(p), nframes = jfr_profile_frame_count(p);
    size_t nodes;

    for (size_t i = 0; i < nstacks; i++) {
        uint64_t w;
        const uint32_t *frames;
        size_t depth;

        FZ_CHECK(jfr_profile_stack(p, i, &w, &frames, &depth) == JFR_OK);
        FZ_CHECK(depth > 0);
        for (size_t k = 0; k < depth; k++) {
            const jfr_profile_frame *f = jfr_profile_frame_at(p, frames[k]);

            FZ_CHECK(frames[k] < nframes && f != NULL && f->name != NULL);
            FZ_CHECK(f->synthetic ? f->class_name == NULL : f->method != NULL);
        }
        sum += w;
        samples += jfr_profile_stack_samples(p, i);
    }
    FZ_CHECK(jfr_profile_stack(p, nstacks, NULL, NULL, NULL) == JFR_EINVAL);
    FZ_CHECK(sum == jfr_profile_total(p));
    FZ_CHECK(samples == jfr_profile_samples(p));
    nodes = jfr_profile_node_count(p);
    if (nodes == 0)
        return; /* out of memory */
    FZ_CHECK(jfr_profile_node_frame(p, 0) == JFR_PROFILE_ROOT);
    FZ_CHECK(jfr_profile_node_total(p, 0) == sum);
    FZ_CHECK(jfr_profile_node_size(p, 0) == nodes);
    for (size_t n = 0; n < nodes; n++) {
        size_t size = jfr_profile_node_size(p, n), depth = jfr_profile_node_depth(p, n);
        uint64_t children = 0;

        FZ_CHECK(size >= 1 && n + size <= nodes);
        if (n)
            FZ_CHECK(jfr_profile_node_frame(p, n) < nframes && depth >= 1);
        for (size_t k = n + 1; k < n + size; k += jfr_profile_node_size(p, k)) {
            FZ_CHECK(jfr_profile_node_depth(p, k) == depth + 1);
            children += jfr_profile_node_total(p, k);
        }
        FZ_CHECK(jfr_profile_node_total(p, n) == jfr_profile_node_self(p, n) + children);
        self_sum += jfr_profile_node_self(p, n);
    }
    FZ_CHECK(self_sum == sum);
}

static jfr_profile *new_profile(const char *type, const char *weight, unsigned flags)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;

    o.event_type = type;
    o.weight_field = weight;
    o.flags = flags;
    FZ_CHECK(jfr_profile_new(&p, &o, &err) == JFR_OK);
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_profile *cpu, *alloc;
    int rc, guard = 0;

    if (fz_open(&rec, data, size) < 0)
        return 0;
    cpu = new_profile("jdk.ExecutionSample", NULL,
                      JFR_PROFILE_THREADS | JFR_PROFILE_LINES | JFR_PROFILE_SIGNATURES);
    alloc = new_profile("jdk.ObjectAllocationSample", "weight",
                        JFR_PROFILE_REVERSE | JFR_PROFILE_FRAME_KIND);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE && guard++ < 1000) {
        if (rc < 0)
            continue;
        (void)jfr_profile_add_chunk(cpu, chunk);
        (void)jfr_profile_add_chunk(alloc, chunk);
    }
    FZ_CHECK(jfr_profile_add_synthetic(cpu, "[lost samples]", 3, 1) == JFR_OK);
    check_profile(cpu);
    check_profile(alloc);
    jfr_profile_free(cpu);
    jfr_profile_free(alloc);
    jfr_recording_free(rec);
    return 0;
}
