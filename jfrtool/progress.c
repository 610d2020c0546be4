/* progress.c - the progress line on standard error (progress.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

static bool enabled;
static bool shown;
static double started, last_drawn;
static double delay = 1.0, interval = 0.2;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(bool streaming)
{
    const char *test_delay = getenv("JFRTOOL_PROGRESS_DELAY_MS");

    enabled = isatty(STDERR_FILENO) && !(streaming && isatty(STDOUT_FILENO));
    started = now();
    set_message_hook(progress_clear); /* messages erase the line first */
    /* tests/cli/check-progress.py: show it at once, on every chunk */
    if (test_delay) {
        delay = atof(test_delay) / 1000;
        interval = 0;
    }
}

void progress_update(const char *name, uint64_t done, uint64_t total, uint64_t chunks)
{
    strbuf line = {0};
    double t;

    if (!enabled)
        return;
    t = now();
    if (t - started < delay || (shown && t - last_drawn < interval))
        return;
    last_drawn = t;
    shown = true;
    if (total && done > total)
        done = total; /* a cut chunk declares more than the input holds */
    sb_putc(&line, '\r');
    message_prefix(&line);
    sb_printf(&line, "%s: %.1f", name, (double)done / 1e6);
    if (total)
        sb_printf(&line, " of %.1f MB (%d %%)", (double)total / 1e6,
                  (int)(100.0 * (double)done / (double)total));
    else
        sb_puts(&line, " MB");
    sb_printf(&line, ", %llu chunks\033[K", (unsigned long long)chunks);
    fflush(stdout);
    fputs(sb_str(&line), stderr);
    fflush(stderr);
    sb_free(&line);
}

void progress_clear(void)
{
    if (!shown)
        return;
    shown = false;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
