/* view_alloc.c - allocation pressure: the sampled allocation weight
 * (jdk.ObjectAllocationSample.weight, bytes) by allocated class, by the
 * method on top of the allocating stack and by thread (doc/views.md §1). */
#include "views.h"

static const view_rows_spec by_class_spec = {.class_field = "objectClass",
                                             .weight_field = "weight",
                                             .key_label = "Object Type",
                                             .key_json = "objectType",
                                             .share_label = "Allocation Pressure",
                                             .limit = 25};

static const view_rows_spec by_site_spec = {.weight_field = "weight",
                                            .key_label = "Method",
                                            .key_json = "method",
                                            .share_label = "Allocation Pressure",
                                            .limit = 25};

static const view_rows_spec by_thread_spec = {.thread_field = "eventThread",
                                              .weight_field = "weight",
                                              .key_label = "Thread",
                                              .key_json = "thread",
                                              .share_label = "Allocation Pressure",
                                              .limit = 25};

static int run_by_class(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &by_class_spec);
}

static int run_by_site(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &by_site_spec);
}

static int run_by_thread(const view_def *view, const view_ctx *ctx)
{
    return view_rows_run(view, ctx, &by_thread_spec);
}

static const char *const alloc_types[] = {"jdk.ObjectAllocationSample", NULL};

const view_def view_allocation_by_class = {
    "allocation-by-class",
    "Allocation by Class",
    alloc_types,
    run_by_class,
    "top 25 allocated classes by sampled allocation weight",
    .cell_options = true};

const view_def view_allocation_by_site = {
    "allocation-by-site",
    "Allocation by Site",
    alloc_types,
    run_by_site,
    "top 25 allocating methods by sampled allocation weight",
    .cell_options = true};

const view_def view_allocation_by_thread = {
    "allocation-by-thread",
    "Allocation by Thread",
    alloc_types,
    run_by_thread,
    "top 25 allocating threads by sampled allocation weight",
    .cell_options = true};
