/* two_parts.h - work cut in two parts, the second in a helper thread when
 * the caller may have one: the pattern of the flame page's passes and of
 * pprof's compression, in one place. */
#ifndef JFRTOOL_TWO_PARTS_H
#define JFRTOOL_TWO_PARTS_H

#include <stdbool.h>

/**
 * work(first) in this thread and work(second) in a helper thread when
 * `two` and one could be started, else after it in this thread; either
 * part may be NULL (not done). Returns once both are done. The parts must
 * not write what the other reads.
 */
void run_in_two(void *(*work)(void *), void *first, void *second, bool two);

#endif
