/* view_methods.c - the hot-methods family: the methods on top of the stack
 * of execution, CPU-time and native-method samples (doc/views.md §1). */
#include "views.h"

static const view_rows_spec hot_spec = {.key_label = "Method",
                                        .key_json = "method",
                                        .show_count = true,
                                        .share_label = "Percent",
                                        .limit = 25};

static const view_rows_spec cpu_spec = {.key_label = "Method",
                                        .key_json = "method",
                                        .show_count = true,
                                        .share_label = "Percent",
                                        .limit = 25,
                                        .cpu_lines = true};

static const view_rows_spec native_spec = {
    .key_label = "Method", .key_json = "method", .show_count = true};

static int run_hot(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &hot_spec);
}

static int run_cpu(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &cpu_spec);
}

static int run_native(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &native_spec);
}

static const char *const exec_types[] = {"jdk.ExecutionSample", NULL};
static const char *const cpu_types[] = {"jdk.CPUTimeSample", "jdk.CPUTimeSamplesLost",
                                        NULL};
static const char *const native_types[] = {"jdk.NativeMethodSample", NULL};

const view_def view_hot_methods = {
    "hot-methods",
    "Java Methods that Execute the Most",
    exec_types,
    run_hot,
    "top 25 methods on top of the stack of jdk.ExecutionSample, with share",
    .cell_options = true};

const view_def view_cpu_time_hot_methods = {
    "cpu-time-hot-methods",
    "Java Methods that Execute the Most from CPU Time Sampler",
    cpu_types,
    run_cpu,
    "the same for jdk.CPUTimeSample, then the honest CPU-time lines",
    .cell_options = true};

const view_def view_native_methods = {
    "native-methods",
    "Waiting or Executing Native Methods",
    native_types,
    run_native,
    "every method on top of the stack of jdk.NativeMethodSample",
    .cell_options = true};
