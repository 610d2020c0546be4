/* peakrss.c - run a command and print its peak resident memory in KiB.
 *
 * A test in Python cannot measure this itself: the child it forks starts as
 * a copy of the interpreter, and the kernel keeps that high-water mark
 * across exec. Forked from this small program, the mark is the command's.
 * Usage: peakrss COMMAND [ARG...]; prints "KIB STATUS" on standard error. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage usage;
    int status;
    pid_t pid;

    if (argc < 2) {
        fputs("usage: peakrss COMMAND [ARG...]\n", stderr);
        return 2;
    }
    pid = fork();
    if (pid < 0) {
        perror("peakrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("peakrss: exec");
        _exit(127);
    }
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("peakrss: wait");
        return 2;
    }
    fprintf(stderr, "%ld %d\n", usage.ru_maxrss,
            WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
