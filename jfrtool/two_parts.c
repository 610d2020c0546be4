/* two_parts.c - run_in_two (two_parts.h). */
#include <pthread.h>

#include "two_parts.h"

void run_in_two(void *(*work)(void *), void *first, void *second, bool two)
{
    pthread_t helper;
    bool started = second && two && pthread_create(&helper, NULL, work, second) == 0;

    if (first)
        work(first);
    if (started)
        pthread_join(helper, NULL);
    else if (second)
        work(second);
}
