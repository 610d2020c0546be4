/* text_number.c - numbers as Java writes them (jfr/text.h): grouped
 * integers, NumberFormat, Double/Float.toString and String.format's "%.Nf". */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr/text.h"
#include "text_out.h"

void jfrp_text_printf(text_out *t, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        text_putn(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static const char DIGIT_PAIRS[] = /* "00" to "99" */
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The digits of `v` at `to`, which has room for 20, from the right two at
 * a time: flame pages, JSON and folded weights write millions of them. */
static size_t u64_digits(char *to, uint64_t v)
{
    uint64_t ten = 10;
    size_t n = 1;
    char *p;

    if (v < 10) {
        *to = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        memcpy(to, DIGIT_PAIRS + v * 2, 2);
        return 2;
    }
    /* depths and name indexes: mostly three or four digits */
    if (v < 1000) {
        *to = (char)('0' + v / 100);
        memcpy(to + 1, DIGIT_PAIRS + v % 100 * 2, 2);
        return 3;
    }
    if (v < 10000) {
        memcpy(to, DIGIT_PAIRS + v / 100 * 2, 2);
        memcpy(to + 2, DIGIT_PAIRS + v % 100 * 2, 2);
        return 4;
    }
    while (n < 20 && v >= ten) {
        n++;
        ten = n < 20 ? ten * 10 : ten;
    }
    for (p = to + n; v >= 100; v /= 100) {
        p -= 2;
        memcpy(p, DIGIT_PAIRS + v % 100 * 2, 2);
    }
    if (v >= 10)
        memcpy(p - 2, DIGIT_PAIRS + v * 2, 2);
    else
        p[-1] = (char)('0' + v);
    return n;
}

/* Less room than any number needs: the digits that fit. Apart, so that
 * the common call has no buffer of its own to set up. */
__attribute__((noinline)) static size_t u64_digits_cut(char *dst, size_t room, uint64_t v)
{
    char digits[JFR_TEXT_U64_ROOM];
    size_t n = u64_digits(digits, v);

    if (room)
        memcpy(dst, digits, n < room ? n : room);
    return n;
}

size_t jfr_text_u64(char *dst, size_t room, uint64_t v)
{
    return room >= JFR_TEXT_U64_ROOM ? u64_digits(dst, v) : u64_digits_cut(dst, room, v);
}

size_t jfr_text_grouped(char *dst, size_t room, int64_t v)
{
    text_out t = {dst, room, 0};
    char digits[JFR_TEXT_U64_ROOM];
    size_t n, lead;

    if (v < 0)
        text_putc(&t, '-');
    n = u64_digits(digits, v < 0 ? -(uint64_t)v : (uint64_t)v);
    lead = n % 3 ? n % 3 : 3;
    text_putn(&t, digits, lead);
    for (size_t i = lead; i < n; i += 3) {
        text_putc(&t, ',');
        text_putn(&t, digits + i, 3);
    }
    return t.len;
}

size_t jfr_text_number(char *dst, size_t room, double d)
{
    text_out t = {dst, room, 0};
    char buf[400];
    char *dot, *end;
    int n, lead;

    if (isnan(d) || isinf(d)) {
        text_puts(&t, isnan(d) ? "NaN" : d < 0 ? "-\u221e" : "\u221e");
        return t.len;
    }
    /* %.3f rounds the exact binary value half-even, as DecimalFormat does */
    n = snprintf(buf, sizeof buf, "%.3f", d);
    if (n < 0 || (size_t)n >= sizeof buf)
        return jfr_text_double(dst, room, d);
    dot = strchr(buf, '.');
    end = buf + n;
    while (end > dot + 1 && end[-1] == '0')
        end--;
    if (end == dot + 1)
        end = dot;
    if (buf[0] == '-') {
        /* "-0" as Java prints a negative number that rounds to zero */
        text_putc(&t, '-');
        memmove(buf, buf + 1, (size_t)(end - buf));
        dot--;
        end--;
    }
    lead = (int)(dot - buf) % 3 ? (int)(dot - buf) % 3 : 3;
    text_putn(&t, buf, (size_t)lead);
    for (char *p = buf + lead; p < dot; p += 3) {
        text_putc(&t, ',');
        text_putn(&t, p, 3);
    }
    text_putn(&t, dot, (size_t)(end - dot));
    return t.len;
}

/* The first precision worth trying. A normal double that some decimal of
 * at most 15 digits reads back as also reads back from its own 15-digit
 * rounding, which is that decimal padded with zeros (DBL_DIG is 15); so
 * when 15 digits read back, the shortest digits are those, trimmed, and
 * when they do not, no fewer will: 2 or 3 tries instead of up to 17. */
static int first_precision(double d, int max_prec, int is_float)
{
    return !is_float && max_prec >= DBL_DIG && fabs(d) >= DBL_MIN ? DBL_DIG : 1;
}

/* Whether `text` reads back as `d` (as a float when `is_float`). */
static bool reads_back(const char *text, double d, int is_float)
{
    double back = strtod(text, NULL);

    return is_float ? (float)back == (float)d : back == d;
}

int jfr_text_shortest_digits(char *digits, int *exp10, double d, int max_digits,
                             int is_float)
{
    char buf[64];

    for (int prec = first_precision(d, max_digits, is_float); prec <= max_digits;
         prec++) {
        char *e;
        int n = 0;

        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (!reads_back(buf, d, is_float))
            continue;
        /* Java writes two digits at least, and of the decimals of one or
         * two digits that read back takes the nearest: 4.9E-324 where one
         * digit would be 5E-324 (printf rounds the exact value) */
        if (prec == 1 && max_digits >= 2) {
            snprintf(buf, sizeof buf, "%.1e", d);
            if (!reads_back(buf, d, is_float))
                snprintf(buf, sizeof buf, "%.0e", d);
        }
        for (const char *p = buf; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        e = strchr(buf, 'e');
        *exp10 = e ? atoi(e + 1) : 0;
        return n;
    }
    digits[0] = '0';
    digits[1] = '\0';
    *exp10 = 0;
    return 1;
}

/* The digits of a positive `d` in Java's toString layout: plain between
 * 10^-3 and 10^7, else "d.dddE<exp>". */
static void java_digits(text_out *t, const char *digits, int n, int exp10, double d)
{
    if (d >= 1e-3 && d < 1e7) {
        if (exp10 >= 0) {
            for (int i = 0; i <= exp10; i++)
                text_putc(t, i < n ? digits[i] : '0');
            text_putc(t, '.');
            if (exp10 + 1 >= n)
                text_putc(t, '0');
            else
                text_puts(t, digits + exp10 + 1);
        } else {
            text_puts(t, "0.");
            for (int i = 0; i < -exp10 - 1; i++)
                text_putc(t, '0');
            text_puts(t, digits);
        }
        return;
    }
    text_putc(t, digits[0]);
    text_putc(t, '.');
    text_puts(t, n > 1 ? digits + 1 : "0");
    jfrp_text_printf(t, "E%d", exp10);
}

static size_t java_decimal(char *dst, size_t room, double d, int max_prec, int is_float)
{
    text_out t = {dst, room, 0};
    char digits[40];
    int exp10, n;

    if (isnan(d) || isinf(d)) {
        text_puts(&t, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        return t.len;
    }
    if (signbit(d)) {
        text_putc(&t, '-');
        d = -d;
    }
    if (d == 0) {
        text_puts(&t, "0.0");
        return t.len;
    }
    n = jfr_text_shortest_digits(digits, &exp10, d, max_prec, is_float);
    java_digits(&t, digits, n, exp10, d);
    return t.len;
}

size_t jfr_text_double(char *dst, size_t room, double d)
{
    return java_decimal(dst, room, d, 17, 0);
}

size_t jfr_text_float(char *dst, size_t room, float f)
{
    return java_decimal(dst, room, (double)f, 9, 1);
}

/* Round the `n` digits (point after `point` of them) to `prec` decimals,
 * half-up; returns the digits kept. 9.99 -> 10.0 gains a leading digit. */
static int round_digits(char *digits, int n, int *point, int prec)
{
    int keep = *point + prec;
    bool up;

    if (keep < 0)
        return 0;
    if (keep >= n)
        return n;
    up = digits[keep] >= '5';
    for (int i = keep - 1; up && i >= 0; i--) {
        up = digits[i] == '9';
        digits[i] = up ? '0' : (char)(digits[i] + 1);
    }
    if (up) {
        memmove(digits + 1, digits, (size_t)keep);
        digits[0] = '1';
        keep++;
        (*point)++;
    }
    return keep;
}

/* Java's Formatter rounds the shortest decimal digits half-up (0.125 ->
 * "0.13"), where C's printf rounds the exact binary value. */
void jfrp_text_fixed(text_out *t, double d, int prec)
{
    char digits[48];
    int exp10, n = 0, point = 1;

    if (isnan(d) || isinf(d)) {
        text_puts(t, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (signbit(d)) {
        text_putc(t, '-');
        d = -d;
    }
    if (d != 0) {
        n = jfr_text_shortest_digits(digits, &exp10, d, 17, 0);
        point = exp10 + 1; /* digits before the decimal point */
        n = round_digits(digits, n, &point, prec);
    }
    if (point <= 0)
        text_putc(t, '0');
    for (int i = 0; i < point; i++)
        text_putc(t, i < n ? digits[i] : '0');
    if (prec > 0)
        text_putc(t, '.');
    for (int i = point; i < point + prec; i++)
        text_putc(t, i >= 0 && i < n ? digits[i] : '0');
}

size_t jfr_text_fixed(char *dst, size_t room, double d, int decimals)
{
    text_out t = {dst, room, 0};

    jfrp_text_fixed(&t, d, decimals);
    return t.len;
}
