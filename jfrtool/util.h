/* util.h - diagnostics, checked allocation and opening inputs for jfrtool. */
#ifndef JFRTOOL_UTIL_H
#define JFRTOOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jfr.h>

#include "input.h" /* next_chunk, close_recording: nearly every command */

/** The command that messages name after "jfrtool: " (NULL: none). */
void set_command_name(const char *name);
/** A function to call before each message (progress.c erases its line):
 * this file calls nothing above it. */
void set_message_hook(void (*hook)(void));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void diex(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t len);

/** The name messages give input `path`: "(standard input)" for "-". */
const char *input_name(const char *path);

/** Print "jfrtool: FILE: chunk N, offset X: message" for an error, unless
 * the same message was printed before. */
void report_error(const char *file, const jfr_error *err);
/** Write `text`, messages one a line as parallel_say makes them, to
 * standard error: each line only once a process, as report_error. */
void put_messages(const char *text);

/**
 * Open `path` for reading. On failure, report and return NULL; *status is
 * set to EXIT_INPUT.
 */
jfr_recording *open_recording(const char *path, int *status);

/**
 * Keep `rec`, opened from `path` by a first look at the inputs, for the
 * next open_recording(path), which then returns it rewound instead of
 * opening the input again: standard input can be read only once, and a
 * compressed input is decompressed once. Two are kept at most (others are
 * freed); those never asked for are freed at exit.
 */
void keep_recording(const char *path, jfr_recording *rec);

/**
 * Note that an input opened but none of its chunks could be read
 * (next_chunk and parallel_chunks call it).
 */
void note_unreadable_input(void);

/** --strict: a warning about damaged input makes the exit status
 * EXIT_INPUT (command_status). */
void set_strict(bool on);

/**
 * The exit status of a command that returned `status`: EXIT_INPUT instead
 * of EXIT_OK when an input had no readable chunk (design.md §3: "input
 * that could not be read at all"), whatever the other inputs gave, or,
 * with --strict, when any damage was reported.
 */
int command_status(int status);

/** A growable array of bytes, for building strings. */
typedef struct strbuf {
    char *ptr;
    size_t len, cap;
} strbuf;

/** Append "jfrtool: COMMAND: ", the start of every message. */
void message_prefix(strbuf *sb);

/**
 * Write a page template (flame.html, report.html, compiled in): its line
 * that is exactly `data_line` is replaced by what data(out, user) writes,
 * and every "@@TITLE@@" by `title`, escaped for HTML.
 */
void fill_template(FILE *out, const unsigned char *tpl, size_t size,
                   const char *data_line, const char *title,
                   void (*data)(FILE *out, void *user), void *user);

/** Grow the buffer to hold `need` bytes (the slow path of the appends). */
void sb_grow_to(strbuf *sb, size_t need);

/* The appends are inline: JSON and folded output make millions of them. */
static inline void sb_putn(strbuf *sb, const char *s, size_t n)
{
    if (sb->len + n + 1 > sb->cap)
        sb_grow_to(sb, sb->len + n + 1);
    memcpy(sb->ptr + sb->len, s, n);
    sb->len += n;
    sb->ptr[sb->len] = '\0';
}

/** Make room for `n` more bytes at the end, count them in, and return where
 * they start, for the caller to fill (e.g. with a jfr_name_of_* call). */
static inline char *sb_extend(strbuf *sb, size_t n)
{
    if (sb->len + n + 1 > sb->cap)
        sb_grow_to(sb, sb->len + n + 1);
    sb->len += n;
    sb->ptr[sb->len] = '\0';
    return sb->ptr + sb->len - n;
}

static inline void sb_putc(strbuf *sb, char c)
{
    if (sb->len + 2 > sb->cap)
        sb_grow_to(sb, sb->len + 2);
    sb->ptr[sb->len++] = c;
    sb->ptr[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s);
/** `v` in decimal, without printf. */
void sb_put_u64(strbuf *sb, uint64_t v);
/** `v` in decimal, '-' first when negative, without printf. */
void sb_put_i64(strbuf *sb, int64_t v);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_clear(strbuf *sb);
void sb_free(strbuf *sb);
/** The content, NUL-terminated. */
const char *sb_str(strbuf *sb);

/** The UTF-16 units (1 or 2, in units[]) of the character that starts at
 * *p in valid UTF-8; *p moves past it. */
int utf16_units(const unsigned char **p, uint32_t units[2]);

/** Append report_error's text (without "jfrtool: " and newline) to `sb`. */
void format_error(strbuf *sb, const char *file, const jfr_error *err);

/** A map from byte strings to non-negative indexes (open addressing): the
 * tool's one hash table. */
typedef struct strmap {
    char **keys;
    size_t *lens;
    size_t *vals;
    size_t cap, count;
} strmap;

/** The index stored for the `len` bytes at `key`, or -1. */
long strmap_get_n(const strmap *m, const char *key, size_t len);
/** Store `val` for the `len` bytes at `key` (copied). */
void strmap_put_n(strmap *m, const char *key, size_t len, size_t val);
/** The same for a NUL-terminated key. */
long strmap_get(const strmap *m, const char *key);
void strmap_put(strmap *m, const char *key, size_t val);
void strmap_free(strmap *m);

/** Write `s` as XML/HTML text or attribute value: markup characters escaped,
 * control characters (not allowed in XML 1.0) as '?', at most `max`
 * characters (SIZE_MAX: all; UTF-8 is never split). */
void markup_text(FILE *out, const char *s, size_t max);
/** markup_text appended to `sb`. */
void sb_markup(strbuf *sb, const char *s, size_t max);

/**
 * Options of a command whose only option is --help, followed by FILE...
 * Returns -1 to go on with the files at argv[optind], else the exit status
 * (after printing the usage).
 */
int parse_help_only(int argc, char **argv, const char *usage);

/** Split "a,b,c" into a NULL-terminated array (free with free_list). */
char **split_list(const char *s, size_t *count);
void free_list(char **list);

#endif
