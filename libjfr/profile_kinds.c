/* profile_kinds.c - the profile kinds (jfr/profile.h): which event types
 * each kind sums and what weighs them. Units are not written here: they
 * come from the weight fields' annotations in each recording's metadata.
 * Adding a kind is one row below (and its test in tests/profile). */
#include <string.h>

#include "jfr_private.h"

/* async-profiler writes CPU and wall-clock samples both as
 * jdk.ExecutionSample and tells them apart by state: STATE_DEFAULT (its CPU
 * engine; STATE_RUNNABLE before 2.10), STATE_RUNNABLE and STATE_SLEEPING
 * (its wall-clock engine). The JDK writes STATE_RUNNABLE only. */
static const char *const running[] = {"STATE_DEFAULT", "STATE_RUNNABLE", NULL};
static const char *const wall_clock[] = {"STATE_RUNNABLE", "STATE_SLEEPING", NULL};

/* a row: event type, weight field, group, states, class field, class frame
 * kind, weight counts samples */
static const jfr_profile_source cpu[] = {
    {"jdk.CPUTimeSample", NULL, 0, NULL, NULL, 0, false}};
/* Datadog's profiler (java-profiler) writes samples of its own, in chunks
 * without the JDK's */
static const jfr_profile_source exec[] = {
    {"jdk.ExecutionSample", NULL, 0, running, NULL, 0, false},
    {"datadog.ExecutionSample", NULL, 1, NULL, NULL, 0, false}};
static const jfr_profile_source native[] = {
    {"jdk.NativeMethodSample", NULL, 0, NULL, NULL, 0, false}};
/* async-profiler 3 and later: wall-clock samples of their own, each
 * standing for `samples` samples (idle threads are batched), next to CPU
 * samples that would count a running thread twice; async-profiler 2 and
 * the JDK: the wall-clock states of jdk.ExecutionSample (the JDK's, and
 * samples without a state, are kept) with the native-method samples;
 * Datadog's wall-clock samples. Never the CPU engine's STATE_DEFAULT
 * samples: a recording of that engine alone has no wall-clock samples,
 * and its CPU samples are not wall time. */
static const jfr_profile_source wall[] = {
    {"profiler.WallClockSample", "samples", 0, NULL, NULL, 0, true},
    {"jdk.ExecutionSample", NULL, 1, wall_clock, NULL, 0, false},
    {"jdk.NativeMethodSample", NULL, 1, NULL, NULL, 0, false},
    {"datadog.MethodSample", NULL, 2, NULL, NULL, 0, false}};
/* JDK 16 added the throttled allocation sample, weighing the bytes its
 * thread allocated since its previous sample; before it (and where it is
 * off) a new TLAB stands for tlabSize bytes, an allocation outside a TLAB
 * for its own size */
static const jfr_profile_source alloc[] = {
    {"jdk.ObjectAllocationSample", "weight", 0, NULL, "objectClass", JFR_FRAME_INLINED,
     false},
    {"jdk.ObjectAllocationInNewTLAB", "tlabSize", 1, NULL, "objectClass",
     JFR_FRAME_INLINED, false},
    {"jdk.ObjectAllocationOutsideTLAB", "allocationSize", 1, NULL, "objectClass",
     JFR_FRAME_KERNEL, false}};
static const jfr_profile_source lock[] = {
    {"jdk.JavaMonitorEnter", "duration", 0, NULL, "monitorClass", JFR_FRAME_INLINED,
     false},
    {"jdk.ThreadPark", "duration", 0, NULL, "parkedClass", JFR_FRAME_INLINED, false}};
static const jfr_profile_source wait[] = {{"jdk.JavaMonitorWait", "duration", 0, NULL,
                                           "monitorClass", JFR_FRAME_INLINED, false}};
static const jfr_profile_source io[] = {
    {"jdk.SocketRead", "duration", 0, NULL, NULL, 0, false},
    {"jdk.SocketWrite", "duration", 0, NULL, NULL, 0, false},
    {"jdk.FileRead", "duration", 0, NULL, NULL, 0, false},
    {"jdk.FileWrite", "duration", 0, NULL, NULL, 0, false}};
/* every Throwable is a jdk.JavaExceptionThrow where that event is on, an
 * Error then being both events: the error event only where it is off */
static const jfr_profile_source exceptions[] = {
    {"jdk.JavaExceptionThrow", NULL, 0, NULL, NULL, 0, false},
    {"jdk.JavaErrorThrow", NULL, 1, NULL, NULL, 0, false}};

#define SOURCES(a) a, sizeof a / sizeof a[0]

static const jfr_profile_kind kinds[] = {
    {"cpu", "CPU-time samples (JDK 25), with failed, biased and lost samples",
     SOURCES(cpu), JFR_UNIT_SAMPLES},
    {"exec", "execution samples of threads running Java code (running states only)",
     SOURCES(exec), JFR_UNIT_SAMPLES},
    {"native", "samples of threads in native methods", SOURCES(native), JFR_UNIT_SAMPLES},
    {"wall", "wall-clock samples: every thread, running or not", SOURCES(wall),
     JFR_UNIT_SAMPLES},
    {"alloc", "allocated bytes, estimated from allocation samples or TLAB events",
     SOURCES(alloc), JFR_UNIT_SAMPLES},
    {"lock", "time blocked entering monitors and parked (locks, queues)", SOURCES(lock),
     JFR_UNIT_SAMPLES},
    {"wait", "time in Object.wait()", SOURCES(wait), JFR_UNIT_SAMPLES},
    {"io", "time in socket and file reads and writes", SOURCES(io), JFR_UNIT_SAMPLES},
    {"exceptions", "exceptions and errors thrown, by count", SOURCES(exceptions),
     JFR_UNIT_EVENTS},
};

const jfr_profile_kind *jfr_profile_kinds(size_t *count)
{
    if (count)
        *count = sizeof kinds / sizeof kinds[0];
    return kinds;
}

const jfr_profile_kind *jfr_profile_kind_by_name(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    return NULL;
}

const char *jfr_unit_name(jfr_unit unit)
{
    switch (unit) {
    case JFR_UNIT_SAMPLES:
        return "samples";
    case JFR_UNIT_EVENTS:
        return "events";
    case JFR_UNIT_NANOS:
        return "ns";
    case JFR_UNIT_BYTES:
        return "bytes";
    default:
        return "";
    }
}
