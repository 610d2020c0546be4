/*
 * jsoncmp - compare `jfr print --json` output (the JDK's, the reference)
 * with `jfrtool print --json` output, event by event.
 *
 * Usage: jsoncmp [OPTIONS] REF.json OURS.json
 *        jsoncmp [OPTIONS] REF.json... -- OURS.json...
 *        jsoncmp --count FILE.json...
 * Options: --first-chunk-events N, --max-report N, --ref-label NAME (see
 * usage()). Several files on one side are read as one list of events, which
 * tests that a concatenated recording prints as the sum of its parts.
 *
 * Either file may be gzip-compressed (zlib reads plain files as they are);
 * "-" is standard input. Both tools sort each chunk's events by end time
 * with a stable sort, so the i-th event of one stream is compared with the
 * i-th of the other: same type, same fields in the same order, same values.
 * The documents are streamed one event at a time, so memory does not grow
 * with the number of events.
 *
 * Only the normalisations below are applied; each one is counted and the
 * counts are printed at the end, so a reader sees how much was forgiven:
 *   (a) cesu8:  the JDK decodes a supplementary character that HotSpot wrote
 *       in modified UTF-8 (CESU-8: a surrogate pair as two 3-byte sequences)
 *       as U+FFFD U+FFFD; we decode the real character. A JDK string with
 *       U+FFFD U+FFFD where ours has one 4-byte UTF-8 character, equal
 *       elsewhere, is accepted.
 *   (b) timebase: in a multi-chunk file the JDK converts every chunk's
 *       ticks with the first chunk's time base (startNanos, startTicks)
 *       (jfr-format.md §11, §14 gotcha 24), so within one JVM run its
 *       timestamps after the first chunk are off by a few microseconds
 *       (2.5 us measured on multi-jdk25.jfr). For events at index >=
 *       --first-chunk-events, two ISO-8601 instants within TIMEBASE_SLACK_NS
 *       are accepted. Events of the first chunk get no tolerance.
 *
 * Numbers are compared by their text (see NUMBER_MARK); numbers with a
 * fraction or exponent also match when they read back as the same double.
 *
 * Exit status: 0 equal, 1 different, 2 usage or input error.
 * --count prints the number of events and exits 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

/* The largest time-base shift accepted by normalisation (b). */
#define TIMEBASE_SLACK_NS 10000

/* One JSON input. jansson parses one event object at a time from it and
 * must stop exactly at the object's end, so we can go on from there. */
typedef struct input {
    char **parts; /* files read one after the other, as one event list */
    int nparts, part;
    const char *name; /* the part being read */
    gzFile gz;
    uint64_t events;      /* events read over all parts */
    uint64_t part_events; /* events read from this part */
    /* Lexical state of the number-quoting filter (see input_getc). */
    bool in_string, escaped, in_number;
    int depth;      /* nesting of objects and arrays inside the current event */
    char queue[16]; /* bytes to hand out before reading more */
    size_t qhead, qlen;
} input;

/*
 * Numbers are compared as text, not as jansson numbers: the JDK prints
 * unsigned 64-bit fields up to 18446744073709551615, which does not fit
 * json_int_t, and text keeps every digit. input_getc() rewrites each number
 * token outside strings into a string that starts with NUMBER_MARK; no
 * string in a recording starts with a NUL byte followed by '#'.
 */
#define NUMBER_MARK       "\\u0000#"
#define NUMBER_MARK_BYTES "\0#"

/* Per-type event counts of both streams, in order of first appearance. */
typedef struct type_count {
    char *name;
    uint64_t jdk, ours;
} type_count;

typedef struct compare {
    uint64_t event;        /* index of the event being compared */
    uint64_t first_chunk;  /* events before this index get no tolerance */
    const char *type;      /* type of the event being compared */
    const char *ref_label; /* what the reference side is called in reports */
    char path[4096];       /* JSON path of the value being compared */
    uint64_t mismatches;   /* values that differ */
    uint64_t reported, max_report;
    uint64_t norm_cesu8;     /* strings accepted by normalisation (a) */
    uint64_t norm_timebase;  /* timestamps accepted by normalisation (b) */
    int64_t max_timebase_ns; /* largest difference accepted by (b) */
    type_count *types;
    size_t ntypes, captypes;
} compare;

/* Open part number `part` of `in` (lexical state starts afresh). */
static int open_part(input *in, int part)
{
    const char *name = in->parts[part];
    in->part = part;
    in->name = name;
    in->part_events = 0;
    in->in_string = in->escaped = in->in_number = false;
    in->depth = 0;
    in->qhead = in->qlen = 0;
    errno = 0;
    in->gz = strcmp(name, "-") == 0 ? gzdopen(0, "rb") : gzopen(name, "rb");
    if (in->gz == NULL) {
        fprintf(stderr, "jsoncmp: %s: %s\n", name, strerror(errno ? errno : ENOMEM));
        return -1;
    }
    return 0;
}

static int find_events(input *in);

/* Open the first of `nparts` files and position it on its first event. */
static int open_input(input *in, char **parts, int nparts)
{
    memset(in, 0, sizeof *in);
    in->parts = parts;
    in->nparts = nparts;
    return open_part(in, 0) < 0 || find_events(in) < 0 ? -1 : 0;
}

static void enqueue(input *in, const char *bytes, size_t n)
{
    memmove(in->queue, in->queue + in->qhead, in->qlen);
    in->qhead = 0;
    memcpy(in->queue + in->qlen, bytes, n);
    in->qlen += n;
}

static bool is_number_byte(int c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
           c == 'E';
}

/* The next byte of the document, with numbers turned into marked strings. */
static int input_getc(input *in)
{
    if (in->qlen > 0) {
        in->qlen--;
        return (unsigned char)in->queue[in->qhead++];
    }
    int c = gzgetc(in->gz);
    if (c == -1)
        return -1;
    if (in->in_string) {
        if (in->escaped)
            in->escaped = false;
        else if (c == '\\')
            in->escaped = true;
        else if (c == '"')
            in->in_string = false;
        return c;
    }
    if (in->in_number) {
        if (is_number_byte(c))
            return c;
        /* The number ends: close its string, then hand out c. */
        in->in_number = false;
        in->in_string = c == '"';
        if (c == '}' || c == ']')
            in->depth--;
        char after = (char)c;
        enqueue(in, &after, 1);
        return '"';
    }
    if (c == '"') {
        in->in_string = true;
    } else if (c == '{' || c == '[') {
        in->depth++;
    } else if (c == '}' || c == ']') {
        in->depth--;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        in->in_number = true;
        char first = (char)c;
        enqueue(in, NUMBER_MARK, sizeof NUMBER_MARK - 1);
        enqueue(in, &first, 1);
        return '"';
    }
    return c;
}

static int skip_space(input *in)
{
    int c;
    do
        c = input_getc(in);
    while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    return c;
}

/* Position `in` just after the '[' that opens "events". */
static int find_events(input *in)
{
    static const char key[] = "\"events\"";
    size_t matched = 0;
    int c;
    while (key[matched] != '\0') {
        c = input_getc(in);
        if (c == -1) {
            fprintf(stderr, "jsoncmp: %s: no \"events\" array\n", in->name);
            return -1;
        }
        matched = c == key[matched] ? matched + 1 : (c == key[0] ? 1 : 0);
    }
    if (skip_space(in) != ':' || skip_space(in) != '[') {
        fprintf(stderr, "jsoncmp: %s: \"events\" is not an array\n", in->name);
        return -1;
    }
    return 0;
}

/* jansson's reader callback: it must stop exactly at the '}' that ends the
 * event, so it hands out bytes until the event's nesting depth is back to 0
 * and nothing is queued. */
static size_t read_event_bytes(void *buffer, size_t buflen, void *data)
{
    input *in = data;
    unsigned char *out = buffer;
    size_t n = 0;
    if (in->depth == 0 && in->qlen == 0)
        return 0;
    while (n < buflen) {
        int c = input_getc(in);
        if (c == -1)
            break;
        out[n++] = (unsigned char)c;
        if (in->depth == 0 && in->qlen == 0)
            break;
    }
    return n;
}

/*
 * Read the next event object. Returns 1 with *out set, 0 at the end of the
 * array, -1 on a syntax error (reported).
 */
static int next_event(input *in, json_t **out)
{
    int c = skip_space(in);
    if (c == ',' && in->part_events > 0) {
        c = skip_space(in);
    } else if (c == ']') {
        gzclose(in->gz);
        in->gz = NULL;
        if (in->part + 1 == in->nparts)
            return 0;
        if (open_part(in, in->part + 1) < 0 || find_events(in) < 0)
            return -1;
        return next_event(in, out);
    }
    if (c != '{') {
        fprintf(stderr, "jsoncmp: %s: event %" PRIu64 ": expected an object, got %s\n",
                in->name, in->part_events, c == -1 ? "end of file" : "another character");
        return -1;
    }
    char brace = '{';
    enqueue(in, &brace, 1);
    in->depth = 1;
    json_error_t err;
    *out = json_load_callback(read_event_bytes, in,
                              JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL, &err);
    if (*out == NULL) {
        fprintf(stderr, "jsoncmp: %s: event %" PRIu64 ": %s (line %d of the event)\n",
                in->name, in->part_events, err.text, err.line);
        return -1;
    }
    in->events++;
    in->part_events++;
    return 1;
}

static void close_input(input *in)
{
    if (in->gz != NULL)
        gzclose(in->gz);
    in->gz = NULL;
}

static const char *event_type(json_t *ev)
{
    const char *type = json_string_value(json_object_get(ev, "type"));
    return type != NULL ? type : "(no type)";
}

static type_count *count_type(compare *cmp, const char *name)
{
    for (size_t i = 0; i < cmp->ntypes; i++)
        if (strcmp(cmp->types[i].name, name) == 0)
            return &cmp->types[i];
    if (cmp->ntypes == cmp->captypes) {
        cmp->captypes = cmp->captypes ? 2 * cmp->captypes : 64;
        cmp->types = realloc(cmp->types, cmp->captypes * sizeof *cmp->types);
        if (cmp->types == NULL) {
            perror("jsoncmp");
            exit(2);
        }
    }
    type_count *t = &cmp->types[cmp->ntypes++];
    t->name = strdup(name);
    t->jdk = t->ours = 0;
    if (t->name == NULL) {
        perror("jsoncmp");
        exit(2);
    }
    return t;
}

static bool is_number(json_t *v)
{
    return json_is_string(v) && json_string_length(v) >= 2 &&
           memcmp(json_string_value(v), NUMBER_MARK_BYTES, 2) == 0;
}

/* Print a value on one line, shortened: enough to see the difference. */
static void print_value(const char *label, json_t *v)
{
    if (is_number(v)) {
        printf("    %s %s\n", label, json_string_value(v) + 2);
        return;
    }
    char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    size_t len = text ? strlen(text) : 0;
    if (len > 200)
        printf("    %s %.200s... (%zu bytes)\n", label, text, len);
    else
        printf("    %s %s\n", label, text ? text : "?");
    free(text);
}

static void mismatch(compare *cmp, const char *what, json_t *jdk, json_t *ours)
{
    cmp->mismatches++;
    if (cmp->reported >= cmp->max_report)
        return;
    cmp->reported++;
    printf("MISMATCH event %" PRIu64 " (%s) at %s: %s\n", cmp->event, cmp->type,
           cmp->path[0] ? cmp->path : "(event)", what);
    char label[64];
    snprintf(label, sizeof label, "%-5s", cmp->ref_label);
    print_value(label, jdk);
    print_value("ours ", ours);
}

/* Length of the UTF-8 sequence starting with byte b (1 for stray bytes). */
static size_t utf8_length(unsigned char b)
{
    if (b >= 0xF0 && b <= 0xF4)
        return 4;
    if (b >= 0xE0 && b <= 0xEF)
        return 3;
    if (b >= 0xC0 && b <= 0xDF)
        return 2;
    return 1;
}

/*
 * Normalisation (a): equal except that where `jdk` has U+FFFD U+FFFD
 * (EF BF BD EF BF BD), `ours` has one supplementary character (4 bytes).
 */
static bool equal_but_cesu8(const char *jdk, size_t jlen, const char *ours, size_t olen)
{
    static const char two_replacements[] = "\xEF\xBF\xBD\xEF\xBF\xBD";
    size_t i = 0, j = 0;
    bool replaced = false;
    while (i < jlen && j < olen) {
        size_t n = utf8_length((unsigned char)ours[j]);
        if (n == 4 && j + 4 <= olen && i + 6 <= jlen &&
            memcmp(jdk + i, two_replacements, 6) == 0) {
            i += 6;
            j += 4;
            replaced = true;
            continue;
        }
        if (j + n > olen || i + n > jlen || memcmp(jdk + i, ours + j, n) != 0)
            return false;
        i += n;
        j += n;
    }
    return replaced && i == jlen && j == olen;
}

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Parse an instant as both tools print it ("2026-11-22T03:02:58.495462814Z",
 * fraction optional, 0 to 9 digits) into nanoseconds since the epoch. */
static bool parse_instant(const char *s, int64_t *ns)
{
    int y, mo, d, h, mi, sec, used = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6 ||
        used != 19)
        return false;
    s += used;
    int64_t frac = 0;
    int digits = 0;
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9' && digits < 9; s++, digits++)
            frac = frac * 10 + (*s - '0');
        if (digits == 0)
            return false;
    }
    if (s[0] != 'Z' || s[1] != '\0')
        return false;
    for (; digits < 9; digits++)
        frac *= 10;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    *ns = secs * 1000000000 + frac;
    return true;
}

/* Normalisation (b): two instants close enough, after the first chunk. */
static bool equal_but_timebase(compare *cmp, const char *jdk, const char *ours)
{
    int64_t a, b;
    if (cmp->event < cmp->first_chunk || !parse_instant(jdk, &a) ||
        !parse_instant(ours, &b))
        return false;
    int64_t delta = a > b ? a - b : b - a;
    if (delta > TIMEBASE_SLACK_NS)
        return false;
    if (delta > cmp->max_timebase_ns)
        cmp->max_timebase_ns = delta;
    return true;
}

/*
 * Numbers (marked strings, see input_getc): integers must have the same
 * digits; numbers with a fraction or exponent must read back as the same
 * double (Java writes 1.0E-4 where C might write 0.0001).
 */
static void compare_numbers(compare *cmp, json_t *jdk, json_t *ours)
{
    const char *a = json_string_value(jdk) + 2, *b = json_string_value(ours) + 2;
    if (strcmp(a, b) == 0)
        return;
    if (strpbrk(a, ".eE") != NULL && strpbrk(b, ".eE") != NULL &&
        strtod(a, NULL) == strtod(b, NULL))
        return;
    mismatch(cmp, "different numbers", jdk, ours);
}

static void compare_strings(compare *cmp, json_t *jdk, json_t *ours)
{
    if (is_number(jdk) || is_number(ours)) {
        if (is_number(jdk) && is_number(ours))
            compare_numbers(cmp, jdk, ours);
        else
            mismatch(cmp, "number and string", jdk, ours);
        return;
    }
    const char *a = json_string_value(jdk), *b = json_string_value(ours);
    size_t alen = json_string_length(jdk), blen = json_string_length(ours);
    if (alen == blen && memcmp(a, b, alen) == 0)
        return;
    if (equal_but_cesu8(a, alen, b, blen)) {
        cmp->norm_cesu8++;
        return;
    }
    if (equal_but_timebase(cmp, a, b)) {
        cmp->norm_timebase++;
        return;
    }
    mismatch(cmp, "different strings", jdk, ours);
}

static void compare_values(compare *cmp, json_t *jdk, json_t *ours);

static void compare_objects(compare *cmp, json_t *jdk, json_t *ours)
{
    size_t base = strlen(cmp->path);
    void *ia = json_object_iter(jdk), *ib = json_object_iter(ours);
    for (; ia != NULL && ib != NULL;
         ia = json_object_iter_next(jdk, ia), ib = json_object_iter_next(ours, ib)) {
        const char *ka = json_object_iter_key(ia), *kb = json_object_iter_key(ib);
        if (strcmp(ka, kb) != 0) {
            mismatch(cmp, "different fields (name or order)", jdk, ours);
            return;
        }
        snprintf(cmp->path + base, sizeof cmp->path - base, ".%s", ka);
        compare_values(cmp, json_object_iter_value(ia), json_object_iter_value(ib));
        cmp->path[base] = '\0';
    }
    if (ia != NULL || ib != NULL)
        mismatch(cmp, "different number of fields", jdk, ours);
}

static void compare_arrays(compare *cmp, json_t *jdk, json_t *ours)
{
    size_t n = json_array_size(jdk);
    if (n != json_array_size(ours)) {
        mismatch(cmp, "different array lengths", jdk, ours);
        return;
    }
    size_t base = strlen(cmp->path);
    for (size_t i = 0; i < n; i++) {
        snprintf(cmp->path + base, sizeof cmp->path - base, "[%zu]", i);
        compare_values(cmp, json_array_get(jdk, i), json_array_get(ours, i));
        cmp->path[base] = '\0';
    }
}

static void compare_values(compare *cmp, json_t *jdk, json_t *ours)
{
    if (json_typeof(jdk) != json_typeof(ours)) {
        mismatch(cmp, "different JSON types", jdk, ours);
        return;
    }
    switch (json_typeof(jdk)) {
    case JSON_OBJECT:
        compare_objects(cmp, jdk, ours);
        break;
    case JSON_ARRAY:
        compare_arrays(cmp, jdk, ours);
        break;
    case JSON_STRING:
        compare_strings(cmp, jdk, ours);
        break;
    case JSON_INTEGER: /* numbers arrive as marked strings */
    case JSON_REAL:
    case JSON_TRUE:
    case JSON_FALSE:
    case JSON_NULL:
        break;
    }
}

static int count_only(char **parts, int nparts)
{
    input in;
    json_t *ev;
    int rc;
    if (open_input(&in, parts, nparts) < 0)
        return 2;
    while ((rc = next_event(&in, &ev)) > 0)
        json_decref(ev);
    close_input(&in);
    if (rc < 0)
        return 2;
    printf("%" PRIu64 "\n", in.events);
    return 0;
}

static int usage(void)
{
    fputs("usage: jsoncmp [OPTIONS] REF.json[.gz] OURS.json[.gz]\n"
          "       jsoncmp [OPTIONS] REF.json... -- OURS.json...\n"
          "       jsoncmp --count FILE.json...\n"
          "Several files on one side are read as one list of events (the sum of\n"
          "the parts). Options:\n"
          "  --first-chunk-events N  apply the time-base tolerance from event N on\n"
          "  --max-report N          show at most N mismatches (default 20)\n"
          "  --ref-label NAME        name of the reference side (default jdk)\n",
          stderr);
    return 2;
}

static bool parse_count(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-')
        return false;
    *out = v;
    return true;
}

/* Print the per-type table when the counts differ; return the number of
 * types whose counts differ. */
static size_t report_type_counts(const compare *cmp)
{
    size_t differ = 0;
    for (size_t i = 0; i < cmp->ntypes; i++)
        if (cmp->types[i].jdk != cmp->types[i].ours)
            differ++;
    if (differ == 0)
        return 0;
    printf("event counts per type differ (%zu types):\n", differ);
    printf("  %-50s %10s %10s\n", "type", cmp->ref_label, "ours");
    for (size_t i = 0; i < cmp->ntypes; i++)
        if (cmp->types[i].jdk != cmp->types[i].ours)
            printf("  %-50s %10" PRIu64 " %10" PRIu64 "\n", cmp->types[i].name,
                   cmp->types[i].jdk, cmp->types[i].ours);
    return differ;
}

int main(int argc, char **argv)
{
    compare cmp = {.first_chunk = UINT64_MAX, .max_report = 20, .ref_label = "jdk"};
    int i = 1;
    if (argc >= 3 && strcmp(argv[1], "--count") == 0)
        return count_only(argv + 2, argc - 2);
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2] != '\0'; i += 2) {
        if (strcmp(argv[i], "--ref-label") == 0) {
            cmp.ref_label = argv[i + 1];
            continue;
        }
        uint64_t *dst = strcmp(argv[i], "--first-chunk-events") == 0 ? &cmp.first_chunk
                        : strcmp(argv[i], "--max-report") == 0       ? &cmp.max_report
                                                                     : NULL;
        if (dst == NULL || !parse_count(argv[i + 1], dst))
            return usage();
    }
    /* REF... -- OURS..., or exactly REF OURS */
    int sep = i;
    while (sep < argc && strcmp(argv[sep], "--") != 0)
        sep++;
    int nref = sep < argc ? sep - i : 1,
        nours = sep < argc ? argc - sep - 1 : argc - i - 1;
    char **ours_parts = sep < argc ? argv + sep + 1 : argv + i + 1;
    if (nref < 1 || nours < 1 || (sep == argc && argc - i != 2))
        return usage();

    input ref, ours;
    if (open_input(&ref, argv + i, nref) < 0 || open_input(&ours, ours_parts, nours) < 0)
        return 2;

    int ra = 1, rb = 1;
    while (ra > 0 || rb > 0) {
        json_t *a = NULL, *b = NULL;
        if (ra > 0 && (ra = next_event(&ref, &a)) > 0)
            count_type(&cmp, event_type(a))->jdk++;
        if (rb > 0 && (rb = next_event(&ours, &b)) > 0)
            count_type(&cmp, event_type(b))->ours++;
        if (a != NULL && b != NULL) {
            cmp.type = event_type(a);
            cmp.path[0] = '\0';
            compare_values(&cmp, a, b);
        }
        cmp.event++;
        json_decref(a);
        json_decref(b);
    }
    close_input(&ref);
    close_input(&ours);
    if (ra < 0 || rb < 0)
        return 2;

    size_t differ = report_type_counts(&cmp);
    if (ref.events != ours.events)
        printf("event counts differ: %s %" PRIu64 ", ours %" PRIu64 "\n", cmp.ref_label,
               ref.events, ours.events);
    if (cmp.mismatches > cmp.reported)
        printf("(%" PRIu64 " more mismatches not shown)\n",
               cmp.mismatches - cmp.reported);
    printf("%" PRIu64 " events, %zu types, %" PRIu64 " mismatching values\n", ref.events,
           cmp.ntypes, cmp.mismatches);
    printf("normalised (a) cesu8 supplementary characters: %" PRIu64 " strings\n",
           cmp.norm_cesu8);
    printf("normalised (b) cross-chunk time base: %" PRIu64
           " timestamps (largest difference %" PRId64 " ns)\n",
           cmp.norm_timebase, cmp.max_timebase_ns);
    for (size_t t = 0; t < cmp.ntypes; t++)
        free(cmp.types[t].name);
    free(cmp.types);
    return cmp.mismatches == 0 && differ == 0 && ref.events == ours.events ? 0 : 1;
}
