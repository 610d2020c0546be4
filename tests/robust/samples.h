/* samples.h - small synthetic recordings for the robustness tests and the
 * fuzzers' seed corpora (tests/robust/jfrmake writes them to files).
 *
 * The sound ones ("mini", "mini-2chunks", "leak") carry the types libjfr
 * resolves by name (threads, stack traces, methods, classes, old-object
 * chains) with the JDK's type and field names, in a few hundred bytes. The
 * damaged ones each break one rule: a referrer chain that loops
 * ("leak-cycle"), inline types nested in themselves or 200 deep, 2^31
 * array elements, a negative length, a 2^60-byte string, metadata nested
 * 10000 deep, a pool claiming 2^31 entries, a zero-size record; and
 * "deep-stack" ("-200k"): sound, with a stack trace of 1,000,000 (200,000)
 * frames, for every walk over frames; "async-states": async-profiler 2's CPU
 * and wall-clock execution samples, told apart by thread state. */
#ifndef SAMPLES_H
#define SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include "jfrgen.h"

size_t sample_count(void);
/** Name of sample `i`, or NULL. */
const char *sample_name(size_t i);
/** Append the bytes of sample `name` to `out`; false if there is none. */
bool sample_build(const char *name, jg_buf *out);

#endif
