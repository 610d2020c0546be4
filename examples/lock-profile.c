/* lock-profile.c - where threads wait for locks, as folded stacks.
 *
 *     lock-profile FILE...
 *
 * An example of libjfr's profile kinds (jfr/profile.h): the "lock" kind
 * sums jdk.JavaMonitorEnter and jdk.ThreadPark events per stack, weighted
 * by their durations, which the library reads as nanoseconds whatever unit
 * the recording stores them in; JFR_PROFILE_CLASS_FRAMES ends each stack
 * with the class of the monitor or of the object parked on, which says
 * which lock. Prints one line per stack, frames from the root joined by
 * ';', then the time blocked in ns: the input of any flame-graph tool. Build against an installed libjfr with
 *
 *     cc lock-profile.c -o lock-profile $(pkg-config --cflags --libs libjfr)
 */
#include <stdint.h>
#include <stdio.h>

#include <jfr.h>

int main(int argc, char **argv)
{
    jfr_profile_options opts = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;
    int status = 0;

    opts.kind = "lock";
    opts.flags = JFR_PROFILE_CLASS_FRAMES;
    if (argc < 2 || jfr_profile_new(&p, &opts, &err) < 0) {
        fputs("usage: lock-profile FILE...\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        jfr_recording *rec;
        jfr_chunk *chunk;
        int rc;

        if (jfr_recording_open_file(&rec, argv[i], NULL, &err) < 0) {
            fprintf(stderr, "lock-profile: %s: %s\n", argv[i], err.message);
            status = 2;
            continue;
        }
        while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE)
            if (rc < 0 || jfr_profile_add_chunk(p, chunk) < 0)
                fprintf(stderr, "lock-profile: %s: %s\n", argv[i],
                        jfr_recording_error(rec)->message);
        jfr_recording_free(rec);
    }
    for (size_t s = 0; s < jfr_profile_stack_count(p); s++) {
        const uint32_t *frames;
        uint64_t weight;
        size_t depth;

        jfr_profile_stack(&weight, &frames, &depth, p, s);
        for (size_t f = 0; f < depth; f++)
            printf("%s%s", f ? ";" : "", jfr_profile_frame_at(p, frames[f])->name);
        printf(" %llu\n", (unsigned long long)weight);
    }
    fprintf(stderr, "lock-profile: %llu events, %llu %s blocked\n",
            (unsigned long long)jfr_profile_samples(p),
            (unsigned long long)jfr_profile_total(p), jfr_unit_name(jfr_profile_unit(p)));
    jfr_profile_free(p);
    return status;
}
