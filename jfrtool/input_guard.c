/* input_guard.c - a clear message, not a crash, when a mapped input shrinks.
 *
 * The library maps regular files. When another process cuts such a file
 * shorter while it is read, touching a page past the new end raises SIGBUS
 * (BUS_ADRERR), which would kill jfrtool with a core dump and no word on
 * why. No byte read after that point can be trusted, so the command ends:
 * the handler writes a message made before any file was opened (write and
 * _exit are the only calls it makes, both safe in a signal handler) and
 * exits with the status of an unreadable input. Any other SIGBUS is a bug
 * and is left to crash as before. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jfrtool.h"
#include "input_guard.h"

static char message[256];
static size_t message_len;

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (info->si_code != BUS_ADRERR) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (write(STDERR_FILENO, message, message_len) < 0)
        _exit(EXIT_INPUT);
    _exit(EXIT_INPUT);
}

void input_guard_install(const char *command)
{
    struct sigaction sa;
    int n;

    n = snprintf(message, sizeof message,
                 "jfrtool: %s: an input file was cut shorter by another process "
                 "while it was read; read a copy that nothing writes to\n",
                 command);
    message_len = n > 0 && (size_t)n < sizeof message ? (size_t)n : sizeof message - 1;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}
