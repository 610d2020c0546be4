/* view_list.c - the views of JDK 25's `jfr view` as rows (view_list.h), in the
 * order of its `jfr help view`, then ours: for each, the JDK's name,
 * category and title, the event types it reads, our SQL over the
 * recording's tables (doc/sql.md), the rows shown and how each column
 * prints. doc/views.md says what each view shows and where it differs
 * from the JDK. Adding a view: one row here, its paragraph in
 * doc/views.md and its JDK outputs (doc/internals.md, "A new view").
 *
 * Order: the JDK sorts rows without ORDER BY by their first column (by
 * each aggregate in turn when there are aggregates), and every sort is
 * stable over its stream's order, chunk by chunk and within a chunk by end
 * time, in file order where end times tie. So a query of several rows here
 * says ORDER BY, and where its keys tie between events it ends with
 * "chunk, endTime, offset" (offset: where the event's record is in its
 * file): files whose chunks are not in time order (concatenated
 * recordings, dumps) sort as in the JDK, and so do events of several types
 * that end at the same tick. */
#include <string.h>

#include "view_list.h"

#define T(l)                                                                             \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_TEXT                                               \
    }
#define TH(l)                                                                            \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_THREAD                                             \
    }
#define M(l)                                                                             \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_METHOD                                             \
    }
#define C(l)                                                                             \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_CLASS                                              \
    }
#define I(l)                                                                             \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_INT                                                \
    }
#define SPAN(l)                                                                          \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_SPAN                                               \
    }
#define BYTES(l)                                                                         \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_BYTES                                              \
    }
#define TIME(l)                                                                          \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_TIME                                               \
    }
#define PCT(l)                                                                           \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_PERCENT                                            \
    }
#define NORM(l)                                                                          \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_NORMALIZED                                         \
    }
#define BOOL(l)                                                                          \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_BOOL                                               \
    }
#define HEX(l)                                                                           \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_HEX                                                \
    }
#define RATE(l)                                                                          \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_RATE                                               \
    }
#define HZ(l)                                                                            \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_HZ                                                 \
    }
#define FLEXI(l)                                                                         \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_INT, .flex = true                                  \
    }
#define TALL(l, h)                                                                       \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_TEXT, .cell_height = h                             \
    }
#define BLANK(l)                                                                         \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_TEXT, .missing = ""                                \
    }
#define FRAMES(l, h)                                                                     \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_FRAMES, .cell_height = h                           \
    }

/* A column of field `fld` of the view's first type whose label, as the
 * JDK's views without a COLUMN clause take it, comes from the recording's
 * metadata (`l` is JDK 25's, shown when the file lacks the field), after
 * `pre` for an aggregate ("Avg. ", "Total "); FIELD: the label is the
 * view's own, the format the file's (view_fields.c). */
#define FL(l, f, fld)                                                                    \
    {                                                                                    \
        .label = l, .fmt = f, .field = fld, .file_label = true                           \
    }
#define FLA(l, f, fld, pre)                                                              \
    {                                                                                    \
        .label = l, .fmt = f, .field = fld, .file_label = true, .prefix = pre            \
    }
#define FIELD(l, f, fld)                                                                 \
    {                                                                                    \
        .label = l, .fmt = f, .field = fld                                               \
    }

/* An event type's label as the recording's metadata gives it (the JDK's
 * eventType.label), JDK 25's when no input declares the type. Its uses are
 * in clang-format off blocks: a macro between literals makes clang-format
 * re-lay the whole table. */
#define LABEL(type, jdk25)                                                               \
    "coalesce((SELECT label FROM jfr_event_types WHERE name = '" type "' ORDER BY id "   \
    "LIMIT 1), '" jdk25 "')"

/* A duration as the JDK's FORMAT ms-precision:6 prints it: "0.400000 ms". */
#define MS6(l)                                                                           \
    {                                                                                    \
        .label = l, .fmt = JFRSQL_FMT_SPAN, .ms_precision = 7                            \
    }

/* Durations aggregated as the JDK aggregates them (doc/views.md). */
#define SPAN_STATS(x)                                                                    \
    "jdk_avg_span(" x "), jdk_percentile(" x ", 95), max(" x "), count(*), sum(" x ")"

/* A row gives its fields in order up to its columns; the fields after
 * them (fast_path, ours) only where they apply. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const jfrsql_view jfrsql_views[] = {
    {"active-recordings",
     "environment",
     "Active Recordings",
     false,
     "ActiveRecording",
     "SELECT jdk_last(recordingStart), jdk_last(recordingDuration), jdk_last(name), "
     "jdk_last(destination),\n"
     "       jdk_last(maxAge), jdk_last(maxSize) FROM ActiveRecording GROUP BY id\n"
     /* no ORDER BY: the JDK sorts by each aggregate in turn, the last one
      * first, timespans descending (doc/views.md §4.1) */
     "ORDER BY jdk_last(maxSize), jdk_last(maxAge) DESC, jdk_last(destination), "
     "jdk_last(name),\n"
     "         jdk_last(recordingDuration) DESC, jdk_last(recordingStart), id",
     0,
     {FIELD("Start", JFRSQL_FMT_TIME, "recordingStart"),
      FIELD("Duration", JFRSQL_FMT_SPAN, "recordingDuration"), T("Name"),
      TALL("Destination", 5), FIELD("Max Age", JFRSQL_FMT_SPAN, "maxAge"),
      FIELD("Max Size", JFRSQL_FMT_BYTES, "maxSize")}},
    /* A setting's id is its event type's id, which jfr_event_types names;
     * rows are by id, as the JDK's (two types of one label: two rows).
     * The JDK's LAST_BATCH keeps a type only when, for each setting it has,
     * its last value came with the last such setting of the recording:
     * JDK 25 writes every setting at once, JDK 17 one at a time (so that
     * only the last type written is left). Settings are instants (JDK 25
     * has no duration field): their time is their end. */
    {"active-settings",
     "environment",
     "Active Settings",
     false,
     "ActiveSetting",
     "WITH s AS (SELECT a.id AS id, coalesce(t.label, t.name) AS type, a.name AS "
     "setting,\n"
     "                  a.value AS v, a.endTime AS e\n"
     "           FROM ActiveSetting AS a LEFT JOIN jfr_event_types AS t ON t.id = a.id\n"
     "           WHERE a.name IN ('enabled', 'threshold', 'stackTrace', 'period', "
     "'cutoff',\n"
     "                            'throttle')),\n"
     "     g AS (SELECT id, first(type) AS type, setting, jdk_last(v) AS v, max(e) AS e "
     "FROM "
     "s\n"
     "           GROUP BY id, setting),\n"
     "     b AS (SELECT setting, max(e) AS e FROM s GROUP BY setting)\n"
     "SELECT first(type) AS type, max(CASE setting WHEN 'enabled' THEN v END),\n"
     "       max(CASE setting WHEN 'threshold' THEN v END),\n"
     "       max(CASE setting WHEN 'stackTrace' THEN v END),\n"
     "       max(CASE setting WHEN 'period' THEN v END),\n"
     "       max(CASE setting WHEN 'cutoff' THEN v END),\n"
     "       max(CASE setting WHEN 'throttle' THEN v END)\n"
     "FROM g JOIN b USING (setting)\n"
     "GROUP BY id HAVING min(g.e = b.e) = 1 ORDER BY type, id",
     0,
     {T("Event Type"), BLANK("Enabled"), BLANK("Threshold"), BLANK("Stack Trace"),
      BLANK("Period"), BLANK("Cutoff"), BLANK("Throttle")}},
    {"allocation-by-class",
     "application",
     "Allocation by Class",
     false,
     "ObjectAllocationSample",
     "SELECT first(objectClass) AS o, sum(weight) AS w FROM ObjectAllocationSample\n"
     "GROUP BY \"objectClass.identity\" ORDER BY w DESC, coalesce(o, 'N/A'), "
     "\"objectClass.identity\"",
     25,
     {C("Object Type"), NORM("Allocation Pressure")},
     .fast_path = "view_alloc.c"},
    {"allocation-by-thread",
     "application",
     "Allocation by Thread",
     false,
     "ObjectAllocationSample",
     "SELECT first(eventThread) AS t, sum(weight) AS w FROM ObjectAllocationSample\n"
     "GROUP BY \"eventThread.identity\" ORDER BY w DESC, t, \"eventThread.identity\"",
     25,
     {TH("Thread"), NORM("Allocation Pressure")},
     .fast_path = "view_alloc.c"},
    {"allocation-by-site",
     "application",
     "Allocation by Site",
     false,
     "ObjectAllocationSample",
     "SELECT first(\"stackTrace.topFrame\") AS m, sum(weight) AS w\n"
     "FROM ObjectAllocationSample GROUP BY \"stackTrace.topFrame.identity\"\n"
     "ORDER BY w DESC, coalesce(m, 'N/A'), \"stackTrace.topFrame.identity\"",
     25,
     {M("Method"), NORM("Allocation Pressure")},
     .fast_path = "view_alloc.c"},
    {"blocked-by-system-gc",
     "jvm",
     "Blocked by System.gc()",
     false,
     "SystemGC",
     "SELECT startTime, duration, \"stackTrace.frames\" FROM SystemGC\n"
     "WHERE invokedConcurrent = 0 ORDER BY duration DESC, chunk, endTime, offset",
     25,
     {FL("Start Time", JFRSQL_FMT_TIME, "startTime"),
      FL("Duration", JFRSQL_FMT_SPAN, "duration"),
      {.label = "Stack Trace",
       .fmt = JFRSQL_FMT_FRAMES,
       .cell_height = 10,
       .field = "stackTrace",
       .file_label = true}}},
    {"class-loaders",
     "application",
     "Class Loaders",
     false,
     "ClassLoaderStatistics",
     "SELECT first(\"classLoader.type\"), jdk_last(hiddenClassCount), "
     "jdk_last(classCount) AS c\n"
     "FROM ClassLoaderStatistics GROUP BY \"classLoader.identity\" ORDER BY c DESC",
     0,
     {{.label = "Class Loader",
       .fmt = JFRSQL_FMT_CLASS, /* the JDK prints a loader as its class */
       .missing = "null-bootstrap",
       .field = "classLoader",
       .file_label = true},
      FL("Hidden Classes", JFRSQL_FMT_INT, "hiddenClassCount"),
      FL("Classes", JFRSQL_FMT_INT, "classCount")}},
    /* clang-format off */
    {"class-modifications",
     "jvm",
     "Class Modifications",
     false,
     "RetransformClasses RedefineClasses",
     "SELECT last(duration) AS d, last(\"stackTrace.topApplicationFrame\"), last(op), "
     "last(classCount)\n"
     "FROM (SELECT duration, \"stackTrace.topApplicationFrame\", " LABEL("jdk.RetransformClasses", "Retransform Classes") " AS op,\n"
     "             classCount, redefinitionId FROM RetransformClasses UNION ALL\n"
     "      SELECT duration, \"stackTrace.topApplicationFrame\", " LABEL("jdk.RedefineClasses", "Redefine Classes") ", classCount,\n"
     "             redefinitionId FROM RedefineClasses)\n"
     "GROUP BY redefinitionId ORDER BY d DESC",
     0,
     {SPAN("Time"), M("Requested By"), T("Operation"), I("Classes")}},
    /* clang-format on */
    {"compiler-configuration",
     "jvm",
     "Compiler Configuration",
     true,
     "CompilerConfiguration",
     "SELECT jdk_last(threadCount), jdk_last(dynamicCompilerThreadCount), "
     "jdk_last(tieredCompilation)\n"
     "FROM CompilerConfiguration",
     0,
     {FL("Thread Count", JFRSQL_FMT_INT, "threadCount"),
      FL("Uses Dynamic Number of Compiler Threads", JFRSQL_FMT_BOOL,
         "dynamicCompilerThreadCount"),
      FL("Tiered Compilation", JFRSQL_FMT_BOOL, "tieredCompilation")}},
    {"compiler-statistics",
     "jvm",
     "Compiler Statistics",
     true,
     "CompilerStatistics",
     "SELECT jdk_last(compileCount), jdk_last(peakTimeSpent), jdk_last(totalTimeSpent),\n"
     "       jdk_last(bailoutCount), jdk_last(osrCompileCount), "
     "jdk_last(standardCompileCount),\n"
     "       jdk_last(osrBytesCompiled), jdk_last(standardBytesCompiled), "
     "jdk_last(nmethodsSize),\n"
     "       jdk_last(nmethodCodeSize) FROM CompilerStatistics",
     0,
     {FL("Compiled Methods", JFRSQL_FMT_INT, "compileCount"),
      FL("Peak Time", JFRSQL_FMT_SPAN, "peakTimeSpent"),
      FL("Total Time", JFRSQL_FMT_SPAN, "totalTimeSpent"),
      FL("Bailouts", JFRSQL_FMT_INT, "bailoutCount"),
      FL("OSR Compilations", JFRSQL_FMT_INT, "osrCompileCount"),
      FL("Standard Compilations", JFRSQL_FMT_INT, "standardCompileCount"),
      FL("OSR Bytes Compiled", JFRSQL_FMT_BYTES, "osrBytesCompiled"),
      FL("Standard Bytes Compiled", JFRSQL_FMT_BYTES, "standardBytesCompiled"),
      FL("Compilation Resulting Size", JFRSQL_FMT_BYTES, "nmethodsSize"),
      FL("Compilation Resulting Code Size", JFRSQL_FMT_BYTES, "nmethodCodeSize")}},
    {"compiler-phases",
     "jvm",
     "Concurrent Compiler Phases",
     false,
     "CompilerPhase",
     "SELECT last(phaseLevel) AS l, phase, jdk_avg_span(duration),\n"
     "       jdk_percentile(duration, 95),\n"
     "       max(duration), count(*), sum(duration) FROM CompilerPhase\n"
     "GROUP BY phase ORDER BY l, sum(duration) DESC",
     0,
     {I("Level"), T("Phase"), SPAN("Average"), SPAN("P95"), SPAN("Longest"), I("Count"),
      SPAN("Total")}},
    {"container-configuration",
     "environment",
     "Container Configuration",
     true,
     "ContainerConfiguration",
     "SELECT jdk_last(containerType), jdk_last(cpuSlicePeriod), jdk_last(cpuQuota), "
     "jdk_last(cpuShares),\n"
     "       jdk_last(effectiveCpuCount), jdk_last(memorySoftLimit), "
     "jdk_last(memoryLimit),\n"
     "       jdk_last(swapMemoryLimit), jdk_last(hostTotalMemory) FROM "
     "ContainerConfiguration",
     0,
     {FL("Container Type", JFRSQL_FMT_TEXT, "containerType"),
      FL("CPU Slice Period", JFRSQL_FMT_SPAN, "cpuSlicePeriod"),
      FL("CPU Quota", JFRSQL_FMT_SPAN, "cpuQuota"),
      FL("CPU Shares", JFRSQL_FMT_INT, "cpuShares"),
      FL("Effective CPU Count", JFRSQL_FMT_INT, "effectiveCpuCount"),
      FL("Memory Soft Limit", JFRSQL_FMT_BYTES, "memorySoftLimit"),
      FL("Memory Limit", JFRSQL_FMT_BYTES, "memoryLimit"),
      FL("Memory and Swap Limit", JFRSQL_FMT_BYTES, "swapMemoryLimit"),
      FL("Container Host Total Memory", JFRSQL_FMT_BYTES, "hostTotalMemory")}},
    {"container-cpu-usage",
     "environment",
     "Container CPU Usage",
     true,
     "ContainerCPUUsage",
     "SELECT jdk_last(cpuTime), jdk_last(cpuUserTime), jdk_last(cpuSystemTime) FROM "
     "ContainerCPUUsage",
     0,
     {FL("CPU Time", JFRSQL_FMT_SPAN, "cpuTime"),
      FL("CPU User Time", JFRSQL_FMT_SPAN, "cpuUserTime"),
      FL("CPU System Time", JFRSQL_FMT_SPAN, "cpuSystemTime")}},
    {"container-memory-usage",
     "environment",
     "Container Memory Usage",
     true,
     "ContainerMemoryUsage",
     "SELECT jdk_last(memoryFailCount), jdk_last(memoryUsage), "
     "jdk_last(swapMemoryUsage)\n"
     "FROM ContainerMemoryUsage",
     0,
     {FL("Memory Fail Count", JFRSQL_FMT_INT, "memoryFailCount"),
      FL("Memory Usage", JFRSQL_FMT_BYTES, "memoryUsage"),
      FL("Memory and Swap Usage", JFRSQL_FMT_BYTES, "swapMemoryUsage")}},
    {"container-io-usage",
     "environment",
     "Container I/O Usage",
     true,
     "ContainerIOUsage",
     "SELECT jdk_last(serviceRequests), jdk_last(dataTransferred) FROM ContainerIOUsage",
     0,
     {FL("Block I/O Request Count", JFRSQL_FMT_INT, "serviceRequests"),
      FL("Block I/O Transfer", JFRSQL_FMT_BYTES, "dataTransferred")}},
    {"container-cpu-throttling",
     "environment",
     "Container CPU Throttling",
     true,
     "ContainerCPUThrottling",
     "SELECT jdk_last(cpuElapsedSlices), jdk_last(cpuThrottledSlices), "
     "jdk_last(cpuThrottledTime)\n"
     "FROM ContainerCPUThrottling",
     0,
     {FL("CPU Elapsed Slices", JFRSQL_FMT_INT, "cpuElapsedSlices"),
      FL("CPU Throttled Slices", JFRSQL_FMT_INT, "cpuThrottledSlices"),
      FL("CPU Throttled Time", JFRSQL_FMT_SPAN, "cpuThrottledTime")}},
    {"contention-by-thread",
     "application",
     "Contention by Thread",
     false,
     "JavaMonitorEnter",
     "SELECT first(eventThread), count(*), jdk_avg_span(duration),\n"
     "       jdk_percentile(duration, 90), max(duration) AS m FROM JavaMonitorEnter\n"
     "GROUP BY \"eventThread.identity\" ORDER BY m DESC",
     0,
     {TH("Thread"), I("Count"), SPAN("Avg"), SPAN("P90"), SPAN("Max.")}},
    {"contention-by-class",
     "application",
     "Contention by Lock Class",
     false,
     "JavaMonitorEnter",
     "SELECT first(monitorClass), count(*), jdk_avg_span(duration),\n"
     "       jdk_percentile(duration, 90), max(duration) AS m FROM JavaMonitorEnter\n"
     "GROUP BY \"monitorClass.identity\" ORDER BY m DESC",
     0,
     {C("Lock Class"), I("Count"), SPAN("Avg."), SPAN("P90"), SPAN("Max.")}},
    {"contention-by-site",
     "application",
     "Contention by Site",
     false,
     "JavaMonitorEnter",
     "SELECT first(\"stackTrace.frames\"), count(*), jdk_avg_span(duration),\n"
     "       max(duration) AS m FROM JavaMonitorEnter GROUP BY "
     "\"stackTrace.frames.identity\"\n"
     "ORDER BY m DESC",
     0,
     {FRAMES("StackTrace", 1), I("Count"), SPAN("Avg."), SPAN("Max.")}},
    {"contention-by-address",
     "application",
     "Contention by Monitor Address",
     false,
     "JavaMonitorEnter",
     "SELECT last(address), jdk_first(monitorClass),\n"
     /* UNIQUE: the distinct threads, a missing one counted too */
     "       count(DISTINCT \"eventThread.identity\") +\n"
     "       max(\"eventThread.identity\" IS NULL), max(duration) AS m\n"
     "FROM JavaMonitorEnter GROUP BY \"monitorClass.identity\" ORDER BY m DESC",
     0,
     {HEX("Monitor Address"), C("Class"), FLEXI("Threads"), SPAN("Max Duration")}},
    {"deprecated-methods-for-removal",
     "application",
     "Deprecated Methods for Removal",
     false,
     "DeprecatedInvocation",
     /* SET(stackTrace.topFrame.method.type): the calling classes, each
      * once, by name (the JDK sorts a set's lines as it prints them) */
     "SELECT first(method) AS m, list_distinct(c, char(10)) FROM (\n"
     "  SELECT method, \"method.identity\" AS i, \"stackTrace.topFrame.method.type\" AS "
     "c\n"
     "  FROM DeprecatedInvocation WHERE forRemoval = 1 ORDER BY i, c)\n"
     "GROUP BY i ORDER BY m, i",
     0,
     {{.label = "Deprecated Method", .fmt = JFRSQL_FMT_METHOD, .truncate_begin = true},
      {.label = "Called from Class",
       .fmt = JFRSQL_FMT_CLASS,
       .set = true,
       .cell_height = 10000,
       .truncate_begin = true}}},
    {"cpu-information",
     "environment",
     "CPU Information",
     true,
     "CPUInformation",
     "SELECT last(cpu), last(sockets), last(cores), last(hwThreads), last(description)\n"
     "FROM CPUInformation",
     0,
     {FL("Type", JFRSQL_FMT_TEXT, "cpu"), FL("Sockets", JFRSQL_FMT_INT, "sockets"),
      FL("Cores", JFRSQL_FMT_INT, "cores"),
      FL("Hardware Threads", JFRSQL_FMT_INT, "hwThreads"),
      FL("Description", JFRSQL_FMT_TEXT, "description")}},
    {"cpu-load",
     "environment",
     "CPU Load Statistics",
     true,
     "CPULoad",
     "SELECT min(jvmUser), avg(jvmUser), max(jvmUser), min(jvmSystem), avg(jvmSystem),\n"
     "       max(jvmSystem), min(machineTotal), avg(machineTotal), max(machineTotal)\n"
     "FROM CPULoad",
     0,
     {PCT("JVM User (Minimum)"), PCT("JVM User (Average)"), PCT("JVM User (Maximum)"),
      PCT("JVM System (Minimum)"), PCT("JVM System (Average)"),
      PCT("JVM System (Maximum)"), PCT("Machine Total (Minimum)"),
      PCT("Machine Total (Average)"), PCT("Machine Total (Maximum)")}},
    {"cpu-load-samples",
     "environment",
     "CPU Load",
     false,
     "CPULoad",
     "SELECT startTime, jvmUser, jvmSystem, machineTotal FROM CPULoad\n"
     "ORDER BY startTime, chunk, endTime, offset",
     0,
     {FL("Time", JFRSQL_FMT_TIME, "startTime"),
      FL("JVM User", JFRSQL_FMT_PERCENT, "jvmUser"),
      FL("JVM System", JFRSQL_FMT_PERCENT, "jvmSystem"),
      FL("Machine Total", JFRSQL_FMT_PERCENT, "machineTotal")}},
    {"cpu-tsc",
     "environment",
     "CPU Time Stamp Counter",
     true,
     "CPUTimeStampCounter",
     "SELECT jdk_last(fastTimeAutoEnabled), jdk_last(fastTimeEnabled), "
     "jdk_last(fastTimeFrequency),\n"
     "       jdk_last(osFrequency) FROM CPUTimeStampCounter",
     0,
     {FL("Trusted Platform", JFRSQL_FMT_BOOL, "fastTimeAutoEnabled"),
      FL("Fast Time", JFRSQL_FMT_BOOL, "fastTimeEnabled"),
      FL("Fast Time Frequency", JFRSQL_FMT_HZ, "fastTimeFrequency"),
      FL("OS Frequency", JFRSQL_FMT_HZ, "osFrequency")}},
    {"deoptimizations-by-reason",
     "jvm",
     "Deoptimization by Reason",
     false,
     "Deoptimization",
     "SELECT reason, count(*) FROM Deoptimization GROUP BY reason\n"
     "ORDER BY count(*) DESC, reason",
     0,
     {FL("Reason", JFRSQL_FMT_TEXT, "reason"), FLEXI("Count")}},
    {"deoptimizations-by-site",
     "jvm",
     "Deoptimization by Site",
     false,
     "Deoptimization",
     "SELECT first(method) AS m, last(lineNumber), last(bci), count(reason) FROM "
     "Deoptimization\n"
     "GROUP BY \"method.identity\" ORDER BY count(reason) DESC, m, \"method.identity\"",
     0,
     {FL("Method", JFRSQL_FMT_METHOD, "method"),
      FL("Line Number", JFRSQL_FMT_INT, "lineNumber"),
      FL("Bytecode Index", JFRSQL_FMT_INT, "bci"), FLEXI("Count")}},
    {"events-by-count",
     "environment",
     "Event Types by Count",
     false,
     "*",
     "(the events of every type, counted by type label, by count)",
     0,
     {T("Event Type"), I("Count")},
     .fast_path = "view_generic.c"},
    {"events-by-name",
     "environment",
     "Event Types by Name",
     false,
     "*",
     "(the events of every type, counted by type label, by name)",
     0,
     {T("Event Type"), I("Count")},
     .fast_path = "view_generic.c"},
    {"environment-variables",
     "environment",
     "Environment Variables",
     false,
     "InitialEnvironmentVariable",
     "SELECT key, jdk_last(value) FROM InitialEnvironmentVariable GROUP BY key ORDER BY "
     "key",
     0,
     {FL("Key", JFRSQL_FMT_TEXT, "key"),
      {.label = "Value",
       .fmt = JFRSQL_FMT_TEXT,
       .cell_height = 20,
       .field = "value",
       .file_label = true}}},
    {"exception-count",
     "application",
     "Exception Statistics",
     true,
     "ExceptionStatistics",
     "SELECT last(throwables) - first(throwables) FROM ExceptionStatistics",
     0,
     {I("Exceptions Thrown")}},
    {"exception-by-type",
     "application",
     "Exceptions by Type",
     false,
     "JavaErrorThrow JavaExceptionThrow",
     "SELECT first(thrownClass) AS t, count(*) AS c FROM (\n"
     "  SELECT thrownClass, \"thrownClass.identity\" AS i FROM JavaErrorThrow UNION ALL\n"
     "  SELECT thrownClass, \"thrownClass.identity\" FROM JavaExceptionThrow)\n"
     "GROUP BY i ORDER BY c DESC, t, i",
     0,
     {C("Class"), FLEXI("Count")}},
    {"exception-by-message",
     "application",
     "Exceptions by Message",
     false,
     "JavaErrorThrow JavaExceptionThrow",
     "SELECT message, count(*) AS c FROM (\n"
     "  SELECT message FROM JavaErrorThrow UNION ALL\n"
     "  SELECT message FROM JavaExceptionThrow)\n"
     "GROUP BY message ORDER BY c DESC, message",
     0,
     {T("Message"), FLEXI("Count")}},
    {"exception-by-site",
     "application",
     "Exceptions by Site",
     false,
     "JavaErrorThrow JavaExceptionThrow",
     "SELECT first(jdk_not_init_frame(f)) AS s, count(startTime) AS c FROM (\n"
     "  SELECT \"stackTrace.frames\" AS f, \"stackTrace.frames.identity\" AS i, "
     "startTime\n"
     "  FROM JavaErrorThrow UNION ALL\n"
     "  SELECT \"stackTrace.frames\", \"stackTrace.frames.identity\", startTime\n"
     "  FROM JavaExceptionThrow)\n"
     "GROUP BY jdk_not_init_frame(f, i) ORDER BY c DESC, s, jdk_not_init_frame(f, i)",
     0,
     {M("Method"), I("Count")}},
    {"file-reads-by-path",
     "application",
     "File Reads by Path",
     false,
     "FileRead",
     "SELECT path, count(*), sum(bytesRead) AS s FROM FileRead GROUP BY path\n"
     "ORDER BY s DESC, path",
     0,
     {TALL("Path", 5), I("Reads"), BYTES("Total Read")}},
    {"file-writes-by-path",
     "application",
     "File Writes by Path",
     false,
     "FileWrite",
     "SELECT path, count(bytesWritten), sum(bytesWritten) AS s FROM FileWrite GROUP BY "
     "path\n"
     "ORDER BY s DESC, path",
     0,
     {TALL("Path", 5), I("Writes"), BYTES("Total Written")}},
    {"finalizers",
     "application",
     "Finalizers",
     false,
     "FinalizerStatistics",
     /* LAST_BATCH: a class whose last event ends when the last event does */
     "SELECT first(finalizableClass), jdk_last(objects) AS o, "
     "jdk_last(totalFinalizersRun)\n"
     "FROM FinalizerStatistics GROUP BY \"finalizableClass.identity\"\n"
     "HAVING last(endTime) = (SELECT last(endTime) FROM FinalizerStatistics)\n"
     "ORDER BY o DESC",
     0,
     {FL("Class", JFRSQL_FMT_CLASS, "finalizableClass"),
      FL("Objects", JFRSQL_FMT_INT, "objects"),
      FL("Finalizers Run", JFRSQL_FMT_INT, "totalFinalizersRun")}},
    /* clang-format off */
    {"gc",
     "jvm",
     "Garbage Collections",
     false,
     "GarbageCollection GCHeapSummary",
     "WITH g AS MATERIALIZED (SELECT gcId, last(startTime) AS s, last(longestPause) AS "
     "p\n"
     "                        FROM GarbageCollection GROUP BY gcId),\n"
     "     h AS MATERIALIZED (SELECT gcId, \"when\" AS w, heapUsed FROM GCHeapSummary\n"
     "                        WHERE w IN ('Before GC', 'After GC')),\n"
     "     b AS MATERIALIZED (SELECT gcId, last(heapUsed) AS h FROM h\n"
     "                        WHERE w = 'Before GC' GROUP BY gcId),\n"
     "     a AS MATERIALIZED (SELECT gcId, last(heapUsed) AS h FROM h\n"
     "                        WHERE w = 'After GC' GROUP BY gcId),\n"
     "     y AS MATERIALIZED (SELECT DISTINCT gcId FROM YoungGarbageCollection),\n"
     "     o AS MATERIALIZED (SELECT DISTINCT gcId FROM OldGarbageCollection),\n"
     "     i AS (SELECT gcId FROM g UNION SELECT gcId FROM b UNION SELECT gcId FROM a\n"
     "           UNION SELECT gcId FROM y UNION SELECT gcId FROM o)\n"
     "SELECT g.s, i.gcId,\n"
     "       CASE WHEN y.gcId IS NOT NULL THEN " LABEL("jdk.YoungGarbageCollection", "Young Garbage Collection") "\n"
     "            WHEN o.gcId IS NOT NULL THEN " LABEL("jdk.OldGarbageCollection", "Old Garbage Collection") " END,\n"
     "       b.h, a.h, g.p\n"
     "FROM i LEFT JOIN g USING (gcId) LEFT JOIN b USING (gcId) LEFT JOIN a USING (gcId)\n"
     "     LEFT JOIN y USING (gcId) LEFT JOIN o USING (gcId)\n"
     "ORDER BY g.s, i.gcId",
     0,
     {TIME("Start"),
      I("GC ID"),
      {.label = "Type", .fmt = JFRSQL_FMT_TEXT, .missing = "Unknown"},
      BYTES("Heap Before GC"),
      BYTES("Heap After GC"),
      SPAN("Longest Pause")}},
    /* clang-format on */
    {"gc-concurrent-phases",
     "jvm",
     "Concurrent GC Phases",
     false,
     "GCPhaseConcurrent GCPhaseConcurrentLevel1",
     "SELECT name, " SPAN_STATS(
         "duration") " FROM (\n"
                     "  SELECT name, duration FROM GCPhaseConcurrent UNION ALL\n"
                     "  SELECT name, duration FROM GCPhaseConcurrentLevel1)\n"
                     "GROUP BY name ORDER BY sum(duration) DESC",
     0,
     {T("Name"), SPAN("Average"), SPAN("P95"), SPAN("Longest"), I("Count"),
      SPAN("Total")},
     .fast_path = "view_spans.c"},
    {"gc-parallel-phases",
     "jvm",
     "Parallel GC Phases",
     false,
     "GCPhaseParallel",
     "SELECT name, " SPAN_STATS("duration") " FROM GCPhaseParallel\n"
                                            "GROUP BY name ORDER BY sum(duration) DESC",
     0,
     {T("Name"), SPAN("Average"), SPAN("P95"), SPAN("Longest"), I("Count"),
      SPAN("Total")},
     .fast_path = "view_spans.c"},
    {"gc-configuration",
     "jvm",
     "GC Configuration",
     true,
     "GCConfiguration",
     "SELECT jdk_last(youngCollector), jdk_last(oldCollector), "
     "jdk_last(parallelGCThreads),\n"
     "       jdk_last(concurrentGCThreads), jdk_last(usesDynamicGCThreads),\n"
     "       jdk_last(isExplicitGCConcurrent), jdk_last(isExplicitGCDisabled), "
     "jdk_last(pauseTarget),\n"
     "       jdk_last(gcTimeRatio) FROM GCConfiguration",
     0,
     {T("Young GC"), T("Old GC"), I("Parallel GC Threads"), I("Concurrent GC Threads"),
      BOOL("Dynamic GC Threads"), BOOL("Concurrent Explicit GC"),
      BOOL("Disable Explicit GC"), SPAN("Pause Target"), I("GC Time Ratio")}},
    /* a name's type: that of its last event (the JDK keeps the last value) */
    {"gc-references",
     "jvm",
     "GC References",
     false,
     "GCReferenceStatistics",
     "SELECT last(startTime), gcId,\n"
     "       last(CASE type WHEN 'Soft reference' THEN count END),\n"
     "       last(CASE type WHEN 'Weak reference' THEN count END),\n"
     "       last(CASE type WHEN 'Phantom reference' THEN count END),\n"
     "       last(CASE type WHEN 'Final reference' THEN count END), sum(count)\n"
     "FROM GCReferenceStatistics GROUP BY gcId ORDER BY gcId",
     0,
     {TIME("Time"), I("GC ID"), I("Soft Ref."), I("Weak Ref."), I("Phantom Ref."),
      I("Final Ref."), I("Total Count")}},
    /* clang-format off */
    {"gc-pause-phases",
     "jvm",
     "GC Pause Phases",
     false,
     "GCPhasePause GCPhasePauseLevel1 GCPhasePauseLevel2 GCPhasePauseLevel3 "
     "GCPhasePauseLevel4",
     "WITH u AS MATERIALIZED (\n"
     "  SELECT " LABEL("jdk.GCPhasePause", "GC Phase Pause") " AS t, name, duration, chunk, endTime, offset FROM GCPhasePause\n"
     "  UNION ALL SELECT " LABEL("jdk.GCPhasePauseLevel1", "GC Phase Pause Level 1") ", name, duration, chunk, endTime, offset\n"
     "            FROM GCPhasePauseLevel1\n"
     "  UNION ALL SELECT " LABEL("jdk.GCPhasePauseLevel2", "GC Phase Pause Level 2") ", name, duration, chunk, endTime, offset\n"
     "            FROM GCPhasePauseLevel2\n"
     "  UNION ALL SELECT " LABEL("jdk.GCPhasePauseLevel3", "GC Phase Pause Level 3") ", name, duration, chunk, endTime, offset\n"
     "            FROM GCPhasePauseLevel3\n"
     "  UNION ALL SELECT " LABEL("jdk.GCPhasePauseLevel4", "GC Phase Pause Level 4") ", name, duration, chunk, endTime, offset\n"
     "            FROM GCPhasePauseLevel4),\n"
     /* the type of a name's last event in the JDK's stream order */
     "     l AS (SELECT name, t FROM (SELECT name, t, row_number() OVER (\n"
     "             PARTITION BY name ORDER BY chunk DESC, endTime DESC, offset DESC) AS r\n"
     "             FROM u)\n"
     "           WHERE r = 1)\n"
     "SELECT l.t, u.name, " SPAN_STATS(
         "u.duration") "\n"
                       "FROM u JOIN l USING (name) GROUP BY u.name ORDER BY l.t, "
                       "sum(u.duration) DESC",
     0,
     {T("Type"), T("Name"), SPAN("Average"), SPAN("P95"), SPAN("Longest"), I("Count"),
      SPAN("Total")}},
    /* clang-format on */
    {"gc-pauses",
     "jvm",
     "GC Pauses",
     true,
     "GCPhasePause",
     "SELECT sum(duration), count(duration), min(duration), jdk_median(duration),\n"
     "       jdk_avg_span(duration), jdk_percentile(duration, 90),\n"
     "       jdk_percentile(duration, 95), jdk_percentile(duration, 99),\n"
     "       jdk_percentile(duration, 99.9), max(duration) FROM GCPhasePause",
     0,
     {SPAN("Total Pause Time"), I("Number of Pauses"), SPAN("Minimum Pause Time"),
      SPAN("Median Pause Time"), SPAN("Average Pause Time"), SPAN("P90 Pause Time"),
      SPAN("P95 Pause Time"), SPAN("P99 Pause Time"), SPAN("P99.9% Pause Time"),
      SPAN("Maximum Pause Time")}},
    {"gc-allocation-trigger",
     "jvm",
     "GC Allocation Trigger",
     false,
     "AllocationRequiringGC",
     "SELECT first(\"stackTrace.topApplicationFrame\") AS s, count(*), sum(size)\n"
     "FROM AllocationRequiringGC GROUP BY \"stackTrace.topApplicationFrame.identity\"\n"
     /* no ORDER BY: by each aggregate in turn, the last one first */
     "ORDER BY sum(size), count(*), s, \"stackTrace.topApplicationFrame.identity\"",
     0,
     {M("Trigger Method (Non-JDK)"), I("Count"), BYTES("Total Requested")}},
    {"gc-cpu-time",
     "jvm",
     "GC CPU Time",
     true,
     "GCCPUTime",
     "SELECT sum(userTime), sum(systemTime), sum(realTime),\n"
     /* DIFF: the last start less the first, in the JDK's stream order */
     "       CASE WHEN count(*) > 1 THEN last(startTime) - first(startTime)\n"
     "            ELSE 9223372036854775807 END, count(*) FROM GCCPUTime",
     0,
     {SPAN("GC User Time"), SPAN("GC System Time"), SPAN("GC Wall Clock Time"),
      SPAN("Total Time"), I("GC Count")}},
    {"heap-configuration",
     "jvm",
     "Heap Configuration",
     true,
     "GCHeapConfiguration",
     "SELECT jdk_last(initialSize), jdk_last(minSize), jdk_last(maxSize), "
     "jdk_last(usesCompressedOops),\n"
     "       jdk_last(compressedOopsMode) FROM GCHeapConfiguration",
     0,
     {FL("Initial Heap Size", JFRSQL_FMT_BYTES, "initialSize"),
      FL("Minimum Heap Size", JFRSQL_FMT_BYTES, "minSize"),
      FL("Maximum Heap Size", JFRSQL_FMT_BYTES, "maxSize"),
      FL("If Compressed Oops Are Used", JFRSQL_FMT_BOOL, "usesCompressedOops"),
      FL("Compressed Oops Mode", JFRSQL_FMT_TEXT, "compressedOopsMode")}},
    {"hot-methods",
     "application",
     "Java Methods that Execute the Most",
     false,
     "ExecutionSample",
     "SELECT first(\"stackTrace.topFrame\") AS m, count(*) AS c, count(*)\n"
     "FROM ExecutionSample GROUP BY \"stackTrace.topFrame.identity\"\n"
     "ORDER BY c DESC, coalesce(m, 'N/A'), \"stackTrace.topFrame.identity\"",
     25,
     {M("Method"), I("Samples"), NORM("Percent")},
     .fast_path = "view_methods.c"},
    {"cpu-time-hot-methods",
     "application",
     "Java Methods that Execute the Most from CPU Time Sampler",
     false,
     "CPUTimeSample",
     "SELECT first(\"stackTrace.topFrame\") AS m, count(*) AS c, count(*)\n"
     "FROM CPUTimeSample GROUP BY \"stackTrace.topFrame.identity\"\n"
     "ORDER BY c DESC, coalesce(m, 'N/A'), \"stackTrace.topFrame.identity\"",
     25,
     {M("Method"), I("Samples"), NORM("Percent")},
     .fast_path = "view_methods.c"},
    {"cpu-time-statistics",
     "application",
     "CPU Time Sample Statistics",
     false,
     "CPUTimeSample CPUTimeSamplesLost",
     NULL,
     0,
     {{0}},
     .fast_path = "view_cpu.c"},
    {"jdk-agents",
     "jvm",
     "JDK Agents",
     false,
     "JavaAgent NativeAgent",
     "SELECT jdk_last(initializationTime) AS t, jdk_last(initializationDuration),\n"
     "       jdk_last(name), jdk_last(options) FILTER (WHERE j) FROM (\n"
     "  SELECT initializationTime, initializationDuration, name, options, 1 AS j, "
     "chunk,\n"
     "         endTime AS e, offset AS o FROM JavaAgent\n"
     "  UNION ALL SELECT initializationTime, initializationDuration, name, NULL, 0, "
     "chunk,\n"
     "         endTime, offset FROM NativeAgent\n"
     /* LAST over both types: in the JDK's stream order */
     "  ORDER BY chunk, e, o) ORDER BY t",
     0,
     {TIME("Time"),
      SPAN("Initialization"),
      {.label = "Name",
       .fmt = JFRSQL_FMT_TEXT,
       .cell_height = 10,
       .truncate_begin = true},
      TALL("Options", 10)}},
    {"jvm-flags",
     "environment",
     "Command Line Flags",
     false,
     "IntFlag UnsignedIntFlag BooleanFlag LongFlag UnsignedLongFlag DoubleFlag "
     "StringFlag IntFlagChanged UnsignedIntFlagChanged BooleanFlagChanged "
     "LongFlagChanged UnsignedLongFlagChanged DoubleFlagChanged StringFlagChanged",
     /* LAST(value) in the JDK's stream order; a change event, whose type
      * has no field `value`, adds its flag's row but no value (N/A for a
      * flag only changed) */
     "WITH u AS (\n"
     "  SELECT name, value AS v, 1 AS has, chunk, endTime, offset FROM IntFlag UNION "
     "ALL\n"
     "  SELECT name, value, 1, chunk, endTime, offset FROM UnsignedIntFlag UNION ALL\n"
     "  SELECT name, CASE value WHEN 1 THEN 'true' ELSE 'false' END, 1, chunk, endTime,\n"
     "    offset FROM BooleanFlag UNION ALL\n"
     "  SELECT name, value, 1, chunk, endTime, offset FROM LongFlag UNION ALL\n"
     "  SELECT name, value, 1, chunk, endTime, offset FROM UnsignedLongFlag UNION ALL\n"
     "  SELECT name, value, 1, chunk, endTime, offset FROM DoubleFlag UNION ALL\n"
     "  SELECT name, value, 1, chunk, endTime, offset FROM StringFlag UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM IntFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM UnsignedIntFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM BooleanFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM LongFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM UnsignedLongFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM DoubleFlagChanged UNION ALL\n"
     "  SELECT name, NULL, 0, 0, 0, 0 FROM StringFlagChanged)\n"
     "SELECT name, v FROM (SELECT name, v, row_number() OVER (PARTITION BY name\n"
     "    ORDER BY has DESC, chunk DESC, endTime DESC, offset DESC) AS r FROM u)\n"
     "WHERE r = 1 ORDER BY name",
     0,
     {FL("Name", JFRSQL_FMT_TEXT, "name"),
      /* the JDK's field is IntFlag's value, a number: of fixed width */
      {.label = "Value",
       .fmt = JFRSQL_FMT_FLAG,
       .field = "value",
       .file_label = true,
       .left =
           true}}},
    {"jvm-information",
     "environment",
     "JVM Information",
     true,
     "JVMInformation",
     "SELECT jdk_last(pid), jdk_last(jvmStartTime), jdk_last(jvmName), "
     "jdk_last(jvmVersion),\n"
     "       jdk_last(jvmArguments), jdk_last(javaArguments) FROM JVMInformation",
     0,
     {I("PID"), TIME("VM Start"), T("Name"), T("Version"), T("VM Arguments"),
      T("Program Arguments")}},
    /* clang-format off */
    {"latencies-by-type",
     "application",
     "Latencies by Type",
     false,
     "JavaMonitorWait JavaMonitorEnter ThreadPark ThreadSleep SocketRead SocketWrite "
     "FileWrite FileRead",
     "SELECT t, count(*), jdk_avg_span(duration), jdk_percentile(duration, 99),\n"
     "       max(duration), sum(duration) FROM (\n"
     "  SELECT " LABEL("jdk.JavaMonitorWait", "Java Monitor Wait") " AS t, duration FROM JavaMonitorWait UNION ALL\n"
     "  SELECT " LABEL("jdk.JavaMonitorEnter", "Java Monitor Blocked") ", duration FROM JavaMonitorEnter UNION ALL\n"
     "  SELECT " LABEL("jdk.ThreadPark", "Java Thread Park") ", duration FROM ThreadPark UNION ALL\n"
     "  SELECT " LABEL("jdk.ThreadSleep", "Java Thread Sleep") ", duration FROM ThreadSleep UNION ALL\n"
     "  SELECT " LABEL("jdk.SocketRead", "Socket Read") ", duration FROM SocketRead UNION ALL\n"
     "  SELECT " LABEL("jdk.SocketWrite", "Socket Write") ", duration FROM SocketWrite UNION ALL\n"
     "  SELECT " LABEL("jdk.FileWrite", "File Write") ", duration FROM FileWrite UNION ALL\n"
     "  SELECT " LABEL("jdk.FileRead", "File Read") ", duration FROM FileRead)\n"
     /* no ORDER BY: by each aggregate in turn, the last one first */
     "GROUP BY t ORDER BY sum(duration) DESC, max(duration) DESC,\n"
     "  jdk_percentile(duration, 99) DESC, jdk_avg_span(duration) DESC, count(*), t",
     0,
     {T("Event Type"), I("Count"), SPAN("Average"), SPAN("P 99"), SPAN("Longest"),
      SPAN("Total")}},
    /* clang-format on */
    {"memory-leaks-by-class",
     "application",
     "Memory Leak Candidates by Class",
     false,
     "OldObjectSample",
     NULL,
     0,
     {{0}},
     .fast_path = "view_leaks.c"},
    {"memory-leaks-by-site",
     "application",
     "Memory Leak Candidates by Site",
     false,
     "OldObjectSample",
     NULL,
     0,
     {{0}},
     .fast_path = "view_leaks.c"},
    {"method-timing",
     "application",
     "Method Timing",
     false,
     "jdk.MethodTiming",
     /* LAST_BATCH: a method whose last event ends when the last event does */
     "SELECT first(method), jdk_last(invocations), jdk_last(minimum), jdk_last(average) "
     "AS a,\n"
     "       jdk_last(maximum) FROM MethodTiming GROUP BY \"method.identity\"\n"
     "HAVING last(endTime) = (SELECT last(endTime) FROM MethodTiming) ORDER BY a DESC",
     0,
     {M("Timed Method"), I("Invocations"), MS6("Minimum Time"), MS6("Average Time"),
      MS6("Maximum Time")}},
    {"method-calls",
     "application",
     "Method Calls",
     false,
     "jdk.MethodTrace",
     "SELECT first(method), first(\"stackTrace.topFrame\"), count(*) AS c FROM "
     "MethodTrace\n"
     "GROUP BY \"method.identity\", \"stackTrace.topFrame.identity\" ORDER BY c DESC",
     0,
     {M("Traced Method"), M("Caller"), I("Invocations")}},
    {"modules",
     "application",
     "Modules",
     false,
     "ModuleRequire",
     "SELECT jdk_last(\"source.name\") AS s FROM ModuleRequire GROUP BY \"source.name\"\n"
     "ORDER BY s",
     0,
     {FL("Name", JFRSQL_FMT_TEXT, "source.name")}},
    /* the JDK's FROM names both (a missing one is told in this order); the
      * rows come from ObjectCount only, which differs where ObjectCountAfterGC
      * has events (it has none in the test's recordings) */
    {"monitor-inflation",
     "application",
     "Monitor Inflation",
     false,
     "jdk.JavaMonitorInflate",
     "SELECT first(\"stackTrace.frames\"), first(monitorClass), count(*), sum(duration) "
     "AS s\n"
     "FROM JavaMonitorInflate GROUP BY \"stackTrace.frames.identity\", "
     "\"monitorClass.identity\"\n"
     "ORDER BY s DESC",
     0,
     {{.label = "Stack Trace",
       .fmt = JFRSQL_FMT_FRAMES,
       .cell_height = 1,
       .field = "stackTrace",
       .file_label = true},
      FL("Monitor Class", JFRSQL_FMT_CLASS, "monitorClass"),
      I("Count"),
      FLA("Total Duration", JFRSQL_FMT_SPAN, "duration", "Total ")}},
    {"native-libraries",
     "environment",
     "Native Libraries",
     false,
     "NativeLibrary",
     "SELECT name, last(baseAddress), last(topAddress) FROM NativeLibrary\n"
     "GROUP BY name ORDER BY name",
     0,
     {{.label = "Name",
       .fmt = JFRSQL_FMT_TEXT,
       .cell_height = 2,
       .field = "name",
       .file_label = true},
      FL("Base Address", JFRSQL_FMT_HEX, "baseAddress"),
      FL("Top Address", JFRSQL_FMT_HEX, "topAddress")}},
    /* clang-format off */
    {"native-library-failures",
     "environment",
     "Native Library Load/Unload Failures",
     false,
     "NativeLibraryUnload NativeLibraryLoad",
     "SELECT op, name, errorMessage FROM (\n"
     "  SELECT " LABEL("jdk.NativeLibraryUnload", "Native Library Unload") " AS op, name, errorMessage, success,\n"
     "         chunk, endTime AS e, offset AS o FROM NativeLibraryUnload UNION ALL\n"
     "  SELECT " LABEL("jdk.NativeLibraryLoad", "Native Library Load") ", name, errorMessage, success, chunk,\n"
     "         endTime, offset FROM NativeLibraryLoad)\n"
     "WHERE success = 0 ORDER BY op, chunk, e, o",
     0,
     {T("Operation"),
      {.label = "Library", .fmt = JFRSQL_FMT_TEXT, .truncate_begin = true},
      TALL("Error Message", 10)}},
    /* clang-format on */
    {"native-memory-committed",
     "jvm",
     "Native Memory Committed",
     false,
     "NativeMemoryUsage",
     "SELECT type, jdk_first(committed), avg(committed), jdk_last(committed), "
     "max(committed)\n"
     "FROM NativeMemoryUsage GROUP BY type ORDER BY max(committed) DESC",
     0,
     {T("Memory Type"), BYTES("First Observed"), BYTES("Average"), BYTES("Last Observed"),
      BYTES("Maximum")}},
    {"native-memory-reserved",
     "jvm",
     "Native Memory Reserved",
     false,
     "NativeMemoryUsage",
     "SELECT type, jdk_first(reserved), avg(reserved), jdk_last(reserved), "
     "max(reserved)\n"
     "FROM NativeMemoryUsage GROUP BY type ORDER BY max(reserved) DESC",
     0,
     {T("Memory Type"), BYTES("First Observed"), BYTES("Average"), BYTES("Last Observed"),
      BYTES("Maximum")}},
    {"native-methods",
     "application",
     "Waiting or Executing Native Methods",
     false,
     "NativeMethodSample",
     "SELECT first(\"stackTrace.topFrame\") AS m, count(*) AS c FROM NativeMethodSample\n"
     "GROUP BY \"stackTrace.topFrame.identity\" ORDER BY c DESC, coalesce(m, 'N/A'), "
     "\"stackTrace.topFrame.identity\"",
     0,
     {M("Method"), I("Samples")},
     .fast_path = "view_methods.c"},
    {"network-utilization",
     "environment",
     "Network Utilization",
     false,
     "NetworkUtilization",
     "SELECT networkInterface, avg(readRate), max(readRate), avg(writeRate), "
     "max(writeRate)\n"
     "FROM NetworkUtilization GROUP BY networkInterface\n"
     /* no ORDER BY: by each aggregate in turn, the last one first */
     "ORDER BY max(writeRate), avg(writeRate), max(readRate), avg(readRate),\n"
     "         networkInterface",
     0,
     {FL("Network Interface", JFRSQL_FMT_TEXT, "networkInterface"),
      FLA("Avg. Read Rate", JFRSQL_FMT_RATE, "readRate", "Avg. "),
      FLA("Max. Read Rate", JFRSQL_FMT_RATE, "readRate", "Max. "),
      FLA("Avg. Write Rate", JFRSQL_FMT_RATE, "writeRate", "Avg. "),
      FLA("Max. Write Rate", JFRSQL_FMT_RATE, "writeRate", "Max. ")}},
    {"object-statistics",
     "application",
     "Objects Occupying More than 1%",
     false,
     "ObjectCountAfterGC ObjectCount",
     /* LAST_BATCH: a class is shown when its last event ends when the last
      * event of both types does (doc/views.md); k orders as the JDK's
      * stream dispatches: chunk by chunk, by end time */
     "WITH u AS MATERIALIZED (\n"
     "  SELECT \"objectClass.identity\" AS i, objectClass AS c, count AS n,\n"
     "    totalSize AS s, endTime AS t, printf('%010d%020d%020d', chunk, endTime, "
     "offset) AS k\n"
     "  FROM ObjectCountAfterGC\n"
     "  UNION ALL SELECT \"objectClass.identity\", objectClass, count, totalSize,\n"
     "    endTime, printf('%010d%020d%020d', chunk, endTime, offset) FROM ObjectCount),\n"
     "l AS (SELECT i, c, n, s, t, max(k) FROM u GROUP BY i),\n"
     "f AS (SELECT i, s AS s0, min(k) FROM u GROUP BY i)\n"
     "SELECT l.c, l.n, l.s AS s, l.s - f.s0 FROM l JOIN f USING (i)\n"
     "WHERE l.t = (SELECT t FROM u ORDER BY k DESC LIMIT 1) ORDER BY s DESC",
     0,
     {C("Class"), I("Count"), BYTES("Heap Space"), BYTES("Increase")}},
    /* ORDER BY without DESC sorts descending in the JDK's views */
    {"pinned-threads",
     "application",
     "Pinned Virtual Threads",
     false,
     "VirtualThreadPinned",
     "SELECT first(\"stackTrace.topApplicationFrame\"), count(*), max(duration), "
     "sum(duration) AS "
     "t\n"
     "FROM VirtualThreadPinned GROUP BY \"stackTrace.topApplicationFrame.identity\" "
     "ORDER BY t DESC",
     0,
     {M("Method"), I("Pinned Count"), SPAN("Longest Pinning"),
      SPAN("Total Time Pinned")}},
    {"thread-count",
     "application",
     "Java Thread Statistics",
     false,
     "JavaThreadStatistics",
     "SELECT startTime, activeCount, daemonCount, accumulatedCount, peakCount\n"
     "FROM JavaThreadStatistics ORDER BY startTime, chunk, endTime, offset",
     0,
     {FL("Time", JFRSQL_FMT_TIME, "startTime"),
      FL("Active Threads", JFRSQL_FMT_INT, "activeCount"),
      FL("Daemon Threads", JFRSQL_FMT_INT, "daemonCount"),
      FL("Accumulated Threads", JFRSQL_FMT_INT, "accumulatedCount"),
      FL("Peak Threads", JFRSQL_FMT_INT, "peakCount")}},
    {"recording",
     "environment",
     "Recording Information",
     true,
     "*",
     "(every event of every type: their count, the startTime of the first and the\n"
     " last in the JDK's order (by end time), the time between, the last\n"
     " jdk.Shutdown's reason)",
     0,
     {I("Event Count"), TIME("First Recorded Event"), TIME("Last Recorded Event"),
      SPAN("Length of Recorded Events"), T("Dump Reason")},
     .fast_path = "view_recording.c"},
    /* The JDK's DIFF([B|E].startTime): from the first to the last instant
     * of the safepoint's begin and end events, "Indefinite" when it has
     * only one (JDK 17 and 25 record no SafepointEnd by default). */
    {"safepoints",
     "jvm",
     "Safepoints",
     false,
     "SafepointBegin SafepointEnd SafepointStateSynchronization",
     "WITH i AS MATERIALIZED (SELECT safepointId AS id, startTime AS t FROM "
     "SafepointBegin\n"
     "                        UNION ALL SELECT safepointId, startTime FROM "
     "SafepointEnd),\n"
     "     d AS MATERIALIZED (SELECT id, CASE WHEN count(*) > 1 THEN max(t) - min(t)\n"
     "                                        ELSE 9223372036854775807 END AS d\n"
     "                        FROM i GROUP BY id),\n"
     "     b AS MATERIALIZED (SELECT safepointId AS id, last(startTime) AS t,\n"
     "                               last(jniCriticalThreadCount) AS j,\n"
     "                               last(totalThreadCount) AS n\n"
     "                        FROM SafepointBegin GROUP BY id),\n"
     "     s AS MATERIALIZED (SELECT safepointId AS id, last(duration) AS s\n"
     "                        FROM SafepointStateSynchronization GROUP BY id),\n"
     "     g AS (SELECT id FROM d UNION SELECT id FROM s)\n"
     "SELECT b.t, d.d, s.s, b.j, b.n\n"
     "FROM g LEFT JOIN d USING (id) LEFT JOIN b USING (id) LEFT JOIN s USING (id)\n"
     "ORDER BY b.t, g.id",
     0,
     {TIME("Start Time"),
      {.label = "Duration", .fmt = JFRSQL_FMT_SPAN, .left = true},
      SPAN("State Syncronization"),
      I("JNI Critical Threads"),
      I("Total Threads")}},
    {"longest-compilations",
     "jvm",
     "Longest Compilations",
     false,
     "Compilation",
     "SELECT startTime, duration, method, compileLevel, succeded FROM Compilation\n"
     "ORDER BY duration DESC, chunk, endTime, offset",
     25,
     {FL("Start Time", JFRSQL_FMT_TIME, "startTime"),
      FL("Duration", JFRSQL_FMT_SPAN, "duration"),
      FL("Method", JFRSQL_FMT_METHOD, "method"),
      FL("Compilation Level", JFRSQL_FMT_INT, "compileLevel"),
      FL("Succeeded", JFRSQL_FMT_BOOL, "succeded")}},
    {"longest-class-loading",
     "application",
     "Longest Class Loading",
     false,
     "ClassLoad",
     "SELECT startTime, loadedClass, duration FROM ClassLoad\n"
     "ORDER BY duration DESC, chunk, endTime, offset",
     25,
     {TIME("Time"), C("Loaded Class"), SPAN("Load Time")}},
    {"system-properties",
     "environment",
     "System Properties at Startup",
     false,
     "InitialSystemProperty",
     "SELECT key, last(value) FROM InitialSystemProperty GROUP BY key ORDER BY key",
     0,
     {FL("Key", JFRSQL_FMT_TEXT, "key"),
      {.label = "Value",
       .fmt = JFRSQL_FMT_TEXT,
       .cell_height = 25,
       .field = "value",
       .file_label = true}}},
    {"socket-writes-by-host",
     "application",
     "Socket Writes by Host",
     false,
     "SocketWrite",
     "SELECT host, count(*), sum(bytesWritten) AS s FROM SocketWrite GROUP BY host\n"
     "ORDER BY s DESC, host",
     0,
     {TALL("Host", 2), I("Writes"), BYTES("Total Written")}},
    {"socket-reads-by-host",
     "application",
     "Socket Reads by Host",
     false,
     "SocketRead",
     "SELECT host, count(*), sum(bytesRead) AS s FROM SocketRead GROUP BY host\n"
     "ORDER BY s DESC, host",
     0,
     {TALL("Host", 2), I("Reads"), BYTES("Total Read")}},
    {"system-information",
     "environment",
     "System Information",
     true,
     "CPUInformation PhysicalMemory OSInformation VirtualizationInformation",
     "SELECT (SELECT jdk_last(totalSize) FROM PhysicalMemory),\n"
     "       (SELECT jdk_last(osVersion) FROM OSInformation),\n"
     "       (SELECT jdk_last(name) FROM VirtualizationInformation),\n"
     "       (SELECT jdk_last(cpu) FROM CPUInformation), (SELECT jdk_last(cores) FROM "
     "CPUInformation),\n"
     "       (SELECT jdk_last(hwThreads) FROM CPUInformation),\n"
     "       (SELECT jdk_last(sockets) FROM CPUInformation),\n"
     "       (SELECT jdk_last(description) FROM CPUInformation)",
     0,
     {BYTES("Total Physical Memory Size"), T("OS Version"), T("Virtualization"),
      T("CPU Type"), I("Number of Cores"), I("Number of Hardware Threads"),
      I("Number of Sockets"), T("CPU Description")}},
    {"system-processes",
     "environment",
     "System Processes",
     false,
     "SystemProcess",
     "SELECT jdk_first(startTime), jdk_last(startTime), jdk_first(pid), "
     "jdk_first(commandLine)\n"
     "FROM SystemProcess GROUP BY pid\n"
     /* no ORDER BY: by each aggregate in turn, the last one first */
     "ORDER BY jdk_first(commandLine), jdk_first(pid), jdk_last(startTime), "
     "jdk_first(startTime)",
     0,
     {TIME("First Observed"),
      TIME("Last Observed"),
      T("PID"),
      {.label = "Command Line", .fmt = JFRSQL_FMT_TEXT, .truncate_begin = true}}},
    {"tlabs",
     "jvm",
     "Thread Local Allocation Buffers",
     true,
     "ObjectAllocationInNewTLAB ObjectAllocationOutsideTLAB",
     "SELECT * FROM\n"
     "  (SELECT count(tlabSize), min(tlabSize), avg(tlabSize), max(tlabSize), "
     "sum(tlabSize)\n"
     "   FROM ObjectAllocationInNewTLAB),\n"
     "  (SELECT count(allocationSize), min(allocationSize), avg(allocationSize),\n"
     "          max(allocationSize), sum(allocationSize) FROM "
     "ObjectAllocationOutsideTLAB)",
     0,
     {I("Inside TLAB Count"), BYTES("Inside TLAB Minimum Size"),
      BYTES("Inside TLAB Average Size"), BYTES("Inside TLAB Maximum Size"),
      BYTES("Inside TLAB Total Allocation"), I("Outside TLAB Count"),
      BYTES("OutSide TLAB Minimum Size"), BYTES("Outside TLAB Average Size"),
      BYTES("Outside TLAB Maximum Size"), BYTES("Outside TLAB Total Allocation")}},
    {"thread-allocation",
     "application",
     "Thread Allocation Statistics",
     false,
     "ThreadAllocationStatistics",
     "SELECT first(thread) AS t, jdk_last(allocated), jdk_last(allocated) AS a\n"
     "FROM ThreadAllocationStatistics GROUP BY \"thread.identity\"\n"
     "ORDER BY a DESC, t, \"thread.identity\"",
     0,
     {TH("Thread"), BYTES("Allocated"), NORM("Percentage")}},
    {"thread-cpu-load",
     "application",
     "Thread CPU Load",
     false,
     "ThreadCPULoad",
     "SELECT first(eventThread) AS t, jdk_last(system), jdk_last(user) AS u FROM "
     "ThreadCPULoad\n"
     "GROUP BY \"eventThread.identity\" ORDER BY u DESC, t, \"eventThread.identity\"",
     0,
     {TH("Thread"), PCT("System"), PCT("User")}},
    {"thread-start",
     "application",
     "Platform Thread Start by Method",
     false,
     "ThreadStart ThreadEnd",
     /* the JDK's GROUP BY eventThread over both types (doc/views.md) */
     "WITH s AS MATERIALIZED (\n"
     "  SELECT \"eventThread.identity\" AS i, last(startTime) AS t,\n"
     "    last(\"stackTrace.frames\") AS f, first(eventThread) AS th,\n"
     "    min(startTime) AS lo, max(startTime) AS hi, count(*) AS n,\n"
     "    min(chunk) AS c, first(endTime) AS te, first(offset) AS o\n"
     "  FROM ThreadStart GROUP BY i),\n"
     "e AS MATERIALIZED (\n"
     "  SELECT \"eventThread.identity\" AS i, first(eventThread) AS th,\n"
     "    min(startTime) AS lo, max(startTime) AS hi, count(*) AS n,\n"
     "    min(chunk) AS c, first(endTime) AS te, first(offset) AS o\n"
     "  FROM ThreadEnd GROUP BY i),\n"
     /* the thread as the group's first event (of either type) names it */
     "g AS (SELECT *, row_number() OVER (PARTITION BY i ORDER BY c, te, o) AS r\n"
     "      FROM (SELECT i, t, f, th, lo, hi, n, c, te, o FROM s\n"
     "            UNION ALL SELECT i, NULL, NULL, th, lo, hi, n, c, te, o FROM e))\n"
     "SELECT max(t), max(f), max(CASE WHEN r = 1 THEN th END),\n"
     "  CASE WHEN sum(n) > 1 THEN max(hi) - min(lo)\n"
     "       ELSE 9223372036854775807 END AS d\n"
     "FROM g GROUP BY i ORDER BY d DESC, min(lo), i",
     0,
     {TIME("Start Time"),
      FRAMES("Stack Trace", 1),
      TH("Thread"),
      {.label = "Duration", .fmt = JFRSQL_FMT_SPAN, .left = true}},
     .jdk_fields = (const char *const[]){"stackTrace.frames", "S.stackTrace", NULL}},
    {"vm-operations",
     "jvm",
     "VM Operations",
     false,
     "jdk.ExecuteVMOperation",
     "SELECT operation, jdk_avg_span(duration), max(duration), count(*), sum(duration)\n"
     "FROM ExecuteVMOperation GROUP BY operation\n"
     /* no ORDER BY: by each aggregate in turn, the last one first */
     "ORDER BY sum(duration) DESC, count(*), max(duration) DESC,\n"
     "         jdk_avg_span(duration) DESC, operation",
     0,
     {T("VM Operation"), SPAN("Average Duration"), SPAN("Longest Duration"), I("Count"),
      SPAN("Total Duration")}},
    {"types",
     "environment",
     "Event Types",
     false,
     "*",
     "(every event type of the recording, with its number of events)",
     0,
     {T("Event Type")},
     .fast_path = "view_generic.c",
     .ours = true},
    {"cpu-time-by-thread",
     "application",
     "CPU Time by Thread",
     false,
     "CPUTimeSample",
     "SELECT first(eventThread) AS t, count(*) AS c, count(*)\n"
     "FROM CPUTimeSample GROUP BY \"eventThread.identity\"\n"
     "ORDER BY c DESC, coalesce(t, 'N/A'), \"eventThread.identity\"",
     25,
     {TH("Thread"), I("Samples"), NORM("Percent")},
     .ours = true},
};
#pragma GCC diagnostic pop

const size_t jfrsql_nviews = sizeof jfrsql_views / sizeof jfrsql_views[0];

const jfrsql_view *jfrsql_view_find(const char *name)
{
    for (size_t i = 0; i < jfrsql_nviews; i++)
        if (strcmp(jfrsql_views[i].name, name) == 0)
            return &jfrsql_views[i];
    return NULL;
}

bool jfrsql_view_has_sql(const jfrsql_view *v)
{
    return v->sql && strcmp(v->types, "*") != 0;
}

const char *jfrsql_view_jdk_field(const jfrsql_view *v, const char *col)
{
    const char *dot = strchr(col, '.');

    for (const char *const *p = v->jdk_fields; p && p[0] && p[1]; p += 2)
        if (strcmp(p[0], col) == 0)
            return p[1];
    /* "a.objectAge": SQLite names the column with the query's qualifier */
    return dot ? dot + 1 : col;
}

const char *jfrsql_view_unit(jfrsql_view_fmt f)
{
    switch (f) {
    case JFRSQL_FMT_SPAN:
        return "ns";
    case JFRSQL_FMT_BYTES:
        return "bytes";
    case JFRSQL_FMT_TIME:
        return "epoch-ns";
    case JFRSQL_FMT_PERCENT:
    case JFRSQL_FMT_NORMALIZED:
        return "percent";
    case JFRSQL_FMT_RATE:
        return "bits/s";
    case JFRSQL_FMT_BYTE_RATE:
        return "bytes/s";
    case JFRSQL_FMT_BITS:
        return "bits";
    default:
        return NULL;
    }
}

static const char *const fmt_names[] = {
    "text",    "method",     "class",     "int",    "span", "bytes", "time",
    "percent", "normalized", "bool",      "frames", "hex",  "rate",  "double",
    "hz",      "flag",       "byte-rate", "bits",   "char", "thread"};

const char *jfrsql_view_fmt_name(jfrsql_view_fmt f)
{
    return (size_t)f < sizeof fmt_names / sizeof fmt_names[0] ? fmt_names[f] : "text";
}

size_t jfrsql_view_ncols(const jfrsql_view *v)
{
    size_t n = 0;

    while (n < JFRSQL_VIEW_MAX_COLS && v->cols[n].label)
        n++;
    return n;
}
