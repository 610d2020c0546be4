/* profile_kinds.c - the profile kinds (jfr/profile.h): which event types
 * each kind sums and what weighs them. Units are not written here: they
 * come from the weight fields' annotations in each recording's metadata.
 * Adding a kind is one row below (and its test in tests/profile). */
#include <string.h>

#include "jfr_private.h"

static const jfr_profile_source cpu[] = {{"jdk.CPUTimeSample", NULL, false}};
static const jfr_profile_source exec[] = {{"jdk.ExecutionSample", NULL, false}};
static const jfr_profile_source native[] = {{"jdk.NativeMethodSample", NULL, false}};
static const jfr_profile_source wall[] = {{"jdk.ExecutionSample", NULL, false},
                                          {"jdk.NativeMethodSample", NULL, false}};
/* JDK 16 added the throttled allocation sample; before it, the TLAB events */
static const jfr_profile_source alloc[] = {
    {"jdk.ObjectAllocationSample", "weight", false},
    {"jdk.ObjectAllocationInNewTLAB", "allocationSize", true},
    {"jdk.ObjectAllocationOutsideTLAB", "allocationSize", true}};
static const jfr_profile_source lock[] = {{"jdk.JavaMonitorEnter", "duration", false},
                                          {"jdk.ThreadPark", "duration", false}};
static const jfr_profile_source wait[] = {{"jdk.JavaMonitorWait", "duration", false}};
static const jfr_profile_source io[] = {{"jdk.SocketRead", "duration", false},
                                        {"jdk.SocketWrite", "duration", false},
                                        {"jdk.FileRead", "duration", false},
                                        {"jdk.FileWrite", "duration", false}};
/* an Error is both events when both are enabled: the JDK traces it twice */
static const jfr_profile_source exceptions[] = {{"jdk.JavaExceptionThrow", NULL, false},
                                                {"jdk.JavaErrorThrow", NULL, false}};

#define SOURCES(a) a, sizeof a / sizeof a[0]

static const jfr_profile_kind kinds[] = {
    {"cpu", "CPU-time samples (JDK 25), with failed, biased and lost samples",
     SOURCES(cpu), JFR_UNIT_SAMPLES},
    {"exec", "execution samples of threads running Java code", SOURCES(exec),
     JFR_UNIT_SAMPLES},
    {"native", "samples of threads in native methods", SOURCES(native), JFR_UNIT_SAMPLES},
    {"wall", "execution and native-method samples together", SOURCES(wall),
     JFR_UNIT_SAMPLES},
    {"alloc", "allocation samples by estimated bytes (TLAB events before JDK 16)",
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
