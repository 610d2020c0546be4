/* top_screen.c - top's screen and plain tables (see top_screen.h). The
 * screen is built in a buffer and written at once: the cursor goes home,
 * each line is written over the old one and cleared to its end. */
#include <string.h>
#include <time.h>

#include "top_screen.h"

#define FIXED_COLUMNS 18 /* "  SELF%  TOTAL%  " and the gap after the sparkline */
#define MIN_NAME      50

static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                     "\u2585", "\u2586", "\u2587", "\u2588"};
static const char ascii_levels[] = ".:-=+*#@";

static void clock_text(char *buf, size_t size, int64_t now_nanos)
{
    time_t secs = (time_t)(now_nanos / 1000000000);
    struct tm tm;

    gmtime_r(&secs, &tm);
    strftime(buf, size, "%H:%M:%S UTC", &tm);
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "12.3 ms" */
static void put_millis(strbuf *sb, int64_t nanos)
{
    sb_printf(sb, "%.1f ms", (double)nanos / 1e6);
}

/* The numbers above the table, in `sb`, no line breaks. */
static void header_lines(strbuf *l1, strbuf *l2, const top_view *v, top_kind shown,
                         const top_header *h, int64_t now_nanos)
{
    char clock[32];

    clock_text(clock, sizeof clock, now_nanos);
    sb_printf(l1, "jfrtool top  %s  %s  %s: %s, last %d s%s", v->target, clock,
              top_kind_name(v->kind), top_kind_label(shown), v->window,
              v->paused ? "  [paused]" : "");
    if (h->has_cpu_load)
        sb_printf(l2, "CPU: JVM %.1f%% user %.1f%% system, machine %.1f%%",
                  100 * h->jvm_user, 100 * h->jvm_system, 100 * h->machine);
    else
        sb_puts(l2, "CPU: no jdk.CPULoad yet");
    sb_printf(l2, "   GC: %llu pauses, ", (unsigned long long)h->gc_pauses);
    put_millis(l2, h->gc_pause_nanos);
    if (h->gc_pauses) {
        sb_puts(l2, " (longest ");
        put_millis(l2, h->gc_longest_nanos);
        sb_putc(l2, ')');
    }
    sb_printf(l2, "   %llu samples", (unsigned long long)h->samples);
    if (shown == TOP_CPU)
        sb_printf(l2, ", %llu lost", (unsigned long long)h->lost);
}

/* `columns` characters of the row's share per second, the oldest left. */
static void put_sparkline(strbuf *sb, const top_row *r, int columns, bool utf8)
{
    int per = (TOP_HISTORY + columns - 1) / columns;

    for (int c = 0; c < columns; c++) {
        double sum = 0;
        int n = 0, level;

        for (int i = TOP_HISTORY - (columns - c) * per;
             i < TOP_HISTORY - (columns - c - 1) * per; i++)
            if (i >= 0 && r->spark[i] >= 0)
                sum += r->spark[i], n++;
        if (!n || sum <= 0) {
            sb_putc(sb, ' ');
            continue;
        }
        level = (int)(sum / n * 8);
        level = level > 7 ? 7 : level;
        if (utf8)
            sb_puts(sb, blocks[level]);
        else
            sb_putc(sb, ascii_levels[level]);
    }
}

/* Up to `room` columns of `s`, never splitting a UTF-8 sequence. */
static void put_clipped(strbuf *sb, const char *s, int room)
{
    int cols = 0;
    const char *p = s;

    while (*p && cols < room) {
        p++;
        while ((*p & 0xc0) == 0x80)
            p++;
        cols++;
    }
    sb_putn(sb, s, (size_t)(p - s));
}

static void end_line(strbuf *sb)
{
    sb_puts(sb, "\x1b[K\n");
}

void top_draw_screen(strbuf *out, top_model *m, const top_view *v, int64_t now_nanos,
                     int width, int height)
{
    /* the window ends with the second that holds `now` (its samples so far) */
    int64_t now_sec = now_nanos / 1000000000 + 1;
    top_kind shown = top_model_effective(m, v->kind, now_sec);
    int spark = width - FIXED_COLUMNS - MIN_NAME;
    size_t rows_room = height > 5 ? (size_t)(height - 5) : 1, n;
    strbuf l1 = {0}, l2 = {0};
    const top_row *rows;
    top_header h;

    spark = spark > TOP_HISTORY ? TOP_HISTORY : spark < 10 ? 0 : spark;
    rows = top_model_rows(m, shown, now_sec, v->window, v->by_total, rows_room, &n, &h);
    header_lines(&l1, &l2, v, shown, &h, now_nanos);
    sb_puts(out, "\x1b[H\x1b[1m");
    put_clipped(out, sb_str(&l1), width);
    sb_puts(out, "\x1b[0m");
    end_line(out);
    put_clipped(out, sb_str(&l2), width);
    end_line(out);
    sb_printf(out, "\x1b[7m%s  %s  %-*s%sMETHOD", v->by_total ? " SELF% " : "*SELF% ",
              v->by_total ? "*TOTAL%" : " TOTAL%", spark, spark ? "LAST 60 S" : "",
              spark ? "  " : "");
    sb_printf(out, "%*s\x1b[0m", width > 40 + spark ? width - 22 - spark : 0, "");
    end_line(out);
    for (size_t i = 0; i < n; i++) {
        const top_row *r = &rows[i];

        sb_printf(out, "%6.1f%%  %6.1f%%  ", share(r->self, h.weight),
                  share(r->total, h.weight));
        if (spark) {
            put_sparkline(out, r, spark, v->utf8);
            sb_puts(out, "  ");
        }
        put_clipped(out, r->name, width - FIXED_COLUMNS - spark);
        end_line(out);
    }
    if (!n)
        sb_puts(out, "  (no samples of this kind in the window)\x1b[K\n");
    sb_puts(out, "\x1b[J\x1b[");
    sb_printf(out, "%d;1H\x1b[7m", height);
    put_clipped(out,
                " q quit  c cpu  a alloc  l lock  i io  s sort by self/total  p pause ",
                width);
    sb_puts(out, "\x1b[0m");
    sb_free(&l1);
    sb_free(&l2);
}

void top_print_table(FILE *out, top_model *m, const top_view *v, int64_t now_nanos,
                     size_t rows_max)
{
    int64_t now_sec = now_nanos / 1000000000 + 1;
    top_kind shown = top_model_effective(m, v->kind, now_sec);
    strbuf l1 = {0}, l2 = {0};
    const top_row *rows;
    top_header h;
    size_t n;

    rows = top_model_rows(m, shown, now_sec, v->window, v->by_total, rows_max, &n, &h);
    header_lines(&l1, &l2, v, shown, &h, now_nanos);
    fprintf(out, "%s\n%s\n  SELF%%   TOTAL%%  METHOD\n", sb_str(&l1), sb_str(&l2));
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%6.1f%%  %6.1f%%  %s\n", share(rows[i].self, h.weight),
                share(rows[i].total, h.weight), rows[i].name);
    fputc('\n', out);
    fflush(out);
    sb_free(&l1);
    sb_free(&l2);
}
