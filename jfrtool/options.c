/* options.c - option values several commands take alike (options.h). */
#include <stdlib.h>

#include "options.h"
#include "util.h"

int option_jobs(const char *arg, int *jobs)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (end == arg || *end || n < 1 || n > JOBS_MAX) {
        warnx_("--jobs is a number of threads from 1 to %d, not '%s'", JOBS_MAX, arg);
        return -1;
    }
    *jobs = (int)n;
    return 0;
}
