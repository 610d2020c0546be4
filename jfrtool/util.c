/* util.c - diagnostics, allocation and input helpers for jfrtool. */
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "util.h"

static const char *command_name;

void set_command_name(const char *name)
{
    command_name = name;
}

/* Every message reads "jfrtool: COMMAND: ..." (design.md §5). */
void message_prefix(strbuf *sb)
{
    sb_puts(sb, "jfrtool: ");
    if (command_name) {
        sb_puts(sb, command_name);
        sb_puts(sb, ": ");
    }
}

static void (*before_message)(void);

void set_message_hook(void (*hook)(void))
{
    before_message = hook;
}

static void vwarnx(const char *fmt, va_list ap)
{
    strbuf prefix = {0};

    if (before_message)
        before_message();
    fflush(stdout);
    message_prefix(&prefix);
    fputs(sb_str(&prefix), stderr);
    sb_free(&prefix);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void warnx_(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vwarnx(fmt, ap);
    va_end(ap);
}

void diex(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vwarnx(fmt, ap);
    va_end(ap);
    exit(status);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        diex(EXIT_INPUT, "out of memory");
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        diex(EXIT_INPUT, "out of memory");
    return p;
}

void *xrealloc(void *ptr, size_t count, size_t size)
{
    void *p;

    if (size && count > SIZE_MAX / size)
        diex(EXIT_INPUT, "out of memory");
    p = realloc(ptr, count * size != 0 ? count * size : 1);
    if (!p)
        diex(EXIT_INPUT, "out of memory");
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t len)
{
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* --strict: damage reported about an input (every message about one is
 * formatted by format_error) makes the exit status EXIT_INPUT. */
static bool strict_mode, damage_reported;

void set_strict(bool on)
{
    strict_mode = on;
}

void format_error(strbuf *sb, const char *file, const jfr_error *err)
{
    size_t flen = strlen(file);
    char text[JFR_ERROR_MESSAGE_SIZE + 64];

    damage_reported = true;
    jfr_error_text(text, sizeof text, err); /* the location from its fields */
    if (strncmp(err->message, file, flen) == 0 && err->message[flen] == ':')
        sb_puts(sb, err->message); /* the message names the file already */
    else
        sb_printf(sb, "%s: %s", file, text);
}

/* Messages about inputs already given: the tables of one view, or the
 * passes of one command, meet the same damage again (a chunk the JVM did
 * not close, once per table of `view all-views`). */
static strmap said;
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;

/* `len` bytes of `line` (a whole message, prefix included) and a newline
 * to standard error, unless they were said before. */
static void say_once(const char *line, size_t len)
{
    bool again;

    pthread_mutex_lock(&said_lock);
    again = strmap_get_n(&said, line, len) >= 0;
    if (!again)
        strmap_put_n(&said, line, len, 0);
    pthread_mutex_unlock(&said_lock);
    if (again)
        return;
    if (before_message)
        before_message();
    fflush(stdout);
    fwrite(line, 1, len, stderr);
    fputc('\n', stderr);
}

void report_error(const char *file, const jfr_error *err)
{
    strbuf sb = {0};

    message_prefix(&sb);
    format_error(&sb, file, err);
    say_once(sb_str(&sb), sb.len);
    sb_free(&sb);
}

void put_messages(const char *text)
{
    while (*text) {
        size_t len = strcspn(text, "\n");

        say_once(text, len);
        text += len + (text[len] == '\n');
    }
}

/* Inputs already opened by a first look at them (type_names.c), waiting
 * for the command's own pass: standard input can be read only once. */
static struct kept {
    const char *path;
    jfr_recording *rec;
} kept[2];

static void free_kept(void)
{
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        jfr_recording_free(kept[i].rec);
        kept[i].rec = NULL;
    }
}

void keep_recording(const char *path, jfr_recording *rec)
{
    static bool registered;
    size_t i = 0;

    while (i < sizeof kept / sizeof kept[0] && kept[i].rec)
        i++;
    if (i == sizeof kept / sizeof kept[0]) {
        jfr_recording_free(rec);
        return;
    }
    if (!registered)
        atexit(free_kept); /* kept but never asked for: a usage error */
    registered = true;
    kept[i].path = path;
    kept[i].rec = rec;
}

static jfr_recording *take_kept(const char *path)
{
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        jfr_recording *rec = kept[i].rec;

        if (!rec || strcmp(kept[i].path, path) != 0)
            continue;
        kept[i].rec = NULL;
        jfr_recording_rewind(rec);
        return rec;
    }
    return NULL;
}

const char *input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

jfr_recording *open_recording(const char *path, int *status)
{
    jfr_recording *rec = take_kept(path);
    jfr_error err;
    const char *name = input_name(path);

    if (rec)
        return rec;
    if (jfr_recording_open_file(&rec, path, NULL, &err) < 0) {
        report_error(name, &err);
        *status = EXIT_INPUT;
        return NULL;
    }
    return rec;
}

static bool unreadable_input;

void note_unreadable_input(void)
{
    unreadable_input = true;
}

int command_status(int status)
{
    /* under --strict the damage decides, also where it then made a query
     * fail ("no such table": the type's declaration was damaged) */
    if ((status == EXIT_OK || status == EXIT_USAGE) && strict_mode && damage_reported)
        return EXIT_INPUT;
    return status == EXIT_OK && unreadable_input ? EXIT_INPUT : status;
}

/* The first `needle` in [p, end), or NULL (memmem is not in C11). */
static const char *mem_find(const char *p, const char *end, const char *needle)
{
    size_t n = strlen(needle);

    for (; (size_t)(end - p) >= n; p++)
        if (*p == *needle && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

void fill_template(FILE *out, const unsigned char *tpl, size_t size,
                   const char *data_line, const char *title,
                   void (*data)(FILE *out, void *user), void *user)
{
    const char *p = (const char *)tpl, *end = p + size;
    size_t dlen = strlen(data_line);

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl + 1 : end;
        size_t len = (size_t)(line_end - p);
        const char *mark;

        if (len >= dlen && strncmp(p, data_line, dlen) == 0 &&
            (len == dlen || p[dlen] == '\n')) {
            data(out, user);
            p = line_end;
            continue;
        }
        /* the title marker, as often as it appears on the line */
        while ((mark = mem_find(p, line_end, "@@TITLE@@"))) {
            fwrite(p, 1, (size_t)(mark - p), out);
            markup_text(out, title, SIZE_MAX);
            p = mark + strlen("@@TITLE@@");
        }
        fwrite(p, 1, (size_t)(line_end - p), out);
        p = line_end;
    }
}

/* ---- strbuf -------------------------------------------------------------- */

void sb_grow_to(strbuf *sb, size_t need)
{
    sb->cap = sb->cap ? sb->cap : 64;
    while (sb->cap < need)
        sb->cap *= 2;
    sb->ptr = xrealloc(sb->ptr, sb->cap, 1);
}

void sb_puts(strbuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}

void sb_put_u64(strbuf *sb, uint64_t v)
{
    /* in place: the pages' arrays write millions of numbers */
    if (sb->len + 21 > sb->cap)
        sb_grow_to(sb, sb->len + 21);
    sb->len += jfr_text_u64(sb->ptr + sb->len, JFR_TEXT_U64_ROOM, v);
    sb->ptr[sb->len] = '\0';
}

void sb_put_i64(strbuf *sb, int64_t v)
{
    if (v < 0)
        sb_putc(sb, '-');
    sb_put_u64(sb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (sb->len + (size_t)n + 1 > sb->cap)
        sb_grow_to(sb, sb->len + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(sb->ptr + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->ptr)
        sb->ptr[0] = '\0';
}

void sb_free(strbuf *sb)
{
    free(sb->ptr);
    sb->ptr = NULL;
    sb->len = sb->cap = 0;
}

const char *sb_str(strbuf *sb)
{
    if (!sb->ptr)
        sb_grow_to(sb, 1), sb->ptr[0] = '\0';
    return sb->ptr;
}

char **split_list(const char *s, size_t *count)
{
    size_t n = 1, k = 0;
    char **list;

    for (const char *p = s; *p; p++)
        n += *p == ',';
    list = xcalloc(n + 1, sizeof *list);
    while (*s) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len)
            list[k++] = xstrndup(s, len);
        s += len + (comma != NULL);
    }
    *count = k;
    return list;
}

void free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

int utf16_units(const unsigned char **p, uint32_t units[2])
{
    uint32_t c = *(*p)++;
    int extra = c < 0x80 ? 0 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;

    c &= extra == 3 ? 0x07 : extra == 2 ? 0x0f : extra == 1 ? 0x1f : 0x7f;
    for (int i = 0; i < extra; i++)
        c = (c << 6) | (*(*p)++ & 0x3f);
    if (c < 0x10000) {
        units[0] = c;
        return 1;
    }
    c -= 0x10000;
    units[0] = 0xd800 + (c >> 10);
    units[1] = 0xdc00 + (c & 0x3ff);
    return 2;
}

/* ---- strmap -------------------------------------------------------------- */

static size_t str_hash(const char *s, size_t len)
{
    size_t h = 14695981039346656037u; /* FNV-1a */

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The slot holding `key`, or the free slot where it would go. */
static size_t strmap_slot(const strmap *m, const char *key, size_t len)
{
    size_t i = str_hash(key, len) & (m->cap - 1);

    while (m->keys[i] && (m->lens[i] != len || memcmp(m->keys[i], key, len) != 0))
        i = (i + 1) & (m->cap - 1);
    return i;
}

long strmap_get_n(const strmap *m, const char *key, size_t len)
{
    size_t i;

    if (!m->cap)
        return -1;
    i = strmap_slot(m, key, len);
    return m->keys[i] ? (long)m->vals[i] : -1;
}

long strmap_get(const strmap *m, const char *key)
{
    return strmap_get_n(m, key, strlen(key));
}

static void grow(strmap *m)
{
    strmap old = *m;

    m->cap = m->cap ? m->cap * 2 : 64;
    m->keys = xcalloc(m->cap, sizeof *m->keys);
    m->lens = xcalloc(m->cap, sizeof *m->lens);
    m->vals = xcalloc(m->cap, sizeof *m->vals);
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i]) {
            size_t j = strmap_slot(m, old.keys[i], old.lens[i]);
            m->keys[j] = old.keys[i];
            m->lens[j] = old.lens[i];
            m->vals[j] = old.vals[i];
        }
    }
    free(old.keys);
    free(old.lens);
    free(old.vals);
}

void strmap_put_n(strmap *m, const char *key, size_t len, size_t val)
{
    size_t i;

    if ((m->count + 1) * 2 > m->cap)
        grow(m);
    i = strmap_slot(m, key, len);
    if (!m->keys[i]) {
        m->keys[i] = xmalloc(len + 1);
        memcpy(m->keys[i], key, len);
        m->keys[i][len] = '\0';
        m->lens[i] = len;
        m->count++;
    }
    m->vals[i] = val;
}

void strmap_put(strmap *m, const char *key, size_t val)
{
    strmap_put_n(m, key, strlen(key), val);
}

void strmap_free(strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->lens);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- markup ----------------------------------------------------------------- */

void sb_markup(strbuf *sb, const char *s, size_t max)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        /* count characters, not bytes, so truncation never splits UTF-8 */
        if ((*p & 0xc0) != 0x80 && n++ == max)
            break;
        switch (*p) {
        case '&':
            sb_putn(sb, "&amp;", 5);
            break;
        case '<':
            sb_putn(sb, "&lt;", 4);
            break;
        case '>':
            sb_putn(sb, "&gt;", 4);
            break;
        case '"':
            sb_putn(sb, "&quot;", 6);
            break;
        case '\'':
            sb_putn(sb, "&apos;", 6);
            break;
        default:
            sb_putc(sb, *p < 0x20 && *p != '\t' ? '?' : (char)*p);
        }
    }
}

void markup_text(FILE *out, const char *s, size_t max)
{
    strbuf sb = {0};

    sb_markup(&sb, s, max);
    fwrite(sb_str(&sb), 1, sb.len, out);
    sb_free(&sb);
}

int parse_help_only(int argc, char **argv, const char *usage)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    int c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    return -1;
}
