/* input_guard.h - end with a message when a mapped input file shrinks. */
#ifndef JFRTOOL_INPUT_GUARD_H
#define JFRTOOL_INPUT_GUARD_H

/* Handle SIGBUS from a mapped input that another process cut shorter:
 * "jfrtool: COMMAND: ..." on stderr and exit status EXIT_INPUT. */
void input_guard_install(const char *command);

#endif
