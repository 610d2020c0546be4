/* top_term.c - a raw terminal with plain ANSI escapes (see top_term.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "top_term.h"

/* the alternate screen, cursor hidden; and back */
static const char ENTER[] = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
static const char LEAVE[] = "\x1b[?25h\x1b[?1049l";

static struct termios saved;
static volatile sig_atomic_t active, redraw;

/* Async-signal-safe: write(2) and tcsetattr(3) only. */
static void restore(void)
{
    if (!active)
        return;
    active = 0;
    (void)!write(STDOUT_FILENO, LEAVE, sizeof LEAVE - 1);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
}

static bool make_raw(void)
{
    struct termios raw = saved;

    /* keys one at a time, not echoed; Ctrl-C still signals (ISIG) */
    raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0)
        return false;
    active = 1;
    (void)!write(STDOUT_FILENO, ENTER, sizeof ENTER - 1);
    return true;
}

static void on_stop(int sig);

static void on_continue(int sig)
{
    struct sigaction sa;

    (void)sig;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGTSTP, &sa, NULL);
    make_raw();
    redraw = 1;
}

/* Ctrl-Z: the shell gets its terminal back before the process stops. */
static void on_stop(int sig)
{
    int saved_errno = errno;

    restore();
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved_errno;
}

/* Hangup, quit: the terminal is given back, then the signal does what it
 * would have done. */
static void on_fatal(int sig)
{
    restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_resize(int sig)
{
    (void)sig;
    redraw = 1;
}

bool term_enter(void)
{
    static const int fatal[] = {SIGHUP, SIGQUIT};
    struct sigaction sa;

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
        tcgetattr(STDIN_FILENO, &saved) != 0 || !make_raw())
        return false;
    atexit(term_leave);
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        sa.sa_handler = on_fatal;
        sigaction(fatal[i], &sa, NULL);
    }
    sa.sa_handler = on_stop;
    sigaction(SIGTSTP, &sa, NULL);
    sa.sa_handler = on_continue;
    sigaction(SIGCONT, &sa, NULL);
    sa.sa_handler = on_resize;
    sigaction(SIGWINCH, &sa, NULL);
    return true;
}

void term_leave(void)
{
    restore();
}

int term_key(void)
{
    unsigned char c;

    if (!active || read(STDIN_FILENO, &c, 1) != 1)
        return -1;
    return c;
}

bool term_size(int *width, int *height)
{
    struct winsize ws;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0)
        return false;
    *width = ws.ws_col;
    *height = ws.ws_row;
    return true;
}

bool term_redraw_needed(void)
{
    bool r = redraw != 0;

    redraw = 0;
    return r;
}
