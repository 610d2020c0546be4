/* output.h - where a command's output goes, and making sure it got there:
 * every write error ends in a message naming the output and exit status 2,
 * and `-o OUT` replaces OUT only when the whole output was written. */
#ifndef JFRTOOL_OUTPUT_H
#define JFRTOOL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct outfile {
    FILE *fp;         /**< where to write */
    const char *path; /**< OUT, or NULL for standard output */
    char *tmp;        /**< the file beside OUT that becomes it */
    char *buf;        /**< stdio's buffer for it, freed after fclose */
} outfile;

/** Whether `-o OUT` means standard output: no OUT, or "-". */
bool output_is_stdout(const char *path);

/** Open OUT (NULL or "-": standard output) for writing: a new file in
 * OUT's directory, that becomes OUT in outfile_close. EXIT_OK, or
 * EXIT_USAGE after a message. */
int outfile_open(outfile *o, const char *path);

/** Finish: when every write succeeded and every input was read (the
 * command's status is EXIT_OK), OUT takes the new content; otherwise OUT
 * is left as it was. Returns the command's status, or EXIT_INPUT after a
 * message when writing failed. */
int outfile_close(outfile *o, int status);

/** Drop the new file of an OUT that is replaced (o->tmp set): OUT stays
 * as it was. For a command that decides itself that its output is not to
 * be kept; nothing happens for standard output or an OUT written as it
 * is. */
void outfile_discard(outfile *o);

/** The terminal's width in columns when standard output is a terminal,
 * else 0 (pipes and files keep the commands' own defaults). */
int output_terminal_width(void);

/** Called before anything is written to standard output: when it is a
 * regular file, stdio writes it in pieces of 256 KiB rather than of the
 * file's block size. */
void output_buffer_stdout(void);

/** Called first: a closed standard descriptor is held open on /dev/null
 * the wrong way round (standard output and error read-only, input
 * write-only), so that no file opened later takes its number, and a
 * command writing to a closed standard output still fails as it should
 * (EBADF) while one writing elsewhere (-o OUT) does not fail for it. */
void output_hold_standard_fds(void);

/** Flush and check standard output at exit: EXIT_INPUT after a message
 * when anything written to it was lost, else `status`. */
int output_finish(int status);

#endif
