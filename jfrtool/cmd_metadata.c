/* cmd_metadata.c - jfrtool metadata: the types of the recording and their
 * fields as Java-like declarations, laid out and ordered as JDK 25's
 * `jfr metadata` does (doc/print-format.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "event_filters.h"
#include "jfrtool.h"
#include "out_text.h"
#include "util.h"

const char usage_metadata[] =
    "Usage: jfrtool metadata [--events FILTER] [--categories FILTER] FILE...\n"
    "\n"
    "Print every type the recording's metadata declares, with its fields,\n"
    "their types and annotations, in the layout and order of `jfr metadata`.\n"
    "A declaration repeated by later chunks (same id, same text) is printed once.\n"
    "  --events FILTER   only the event types FILTER names: a comma-separated\n"
    "                    list of full names, short names and quoted globs\n"
    "  --categories FILTER\n"
    "                    only the event types in a category FILTER names; with\n"
    "                    --events, the types both select, as jfr metadata\n";

/* One declaration, rendered while its chunk was open. */
typedef struct decl {
    char *name;
    char *package; /* the name up to and including its last '.' */
    int group;
    uint64_t id; /* the type's id in the chunk that declared it */
    size_t seq;  /* first appearance, for a stable sort */
    char *text;
} decl;

typedef struct decl_list {
    decl *items;
    size_t n, cap;
} decl_list;

/* The JDK's grouping: plain types, annotations, settings, then events. */
static int group_of(const jfr_type *t)
{
    const char *super = jfr_type_super(t);

    if (!super)
        return 1;
    if (strcmp(super, "java.lang.annotation.Annotation") == 0)
        return 3;
    if (strcmp(super, "jdk.jfr.SettingControl") == 0)
        return 4;
    if (strcmp(super, "jdk.jfr.Event") == 0)
        return 5;
    return 2;
}

static const char *simple_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

static void put_element(strbuf *sb, const jfr_type *elem_type, const char *text)
{
    const char *name = elem_type ? jfr_type_name(elem_type) : NULL;

    if (!text) {
        sb_puts(sb, "null");
    } else if (name && strcmp(name, "java.lang.String") == 0) {
        sb_printf(sb, "\"%s\"", text);
    } else if (name && strcmp(name, "boolean") == 0) {
        sb_puts(sb, strcmp(text, "true") == 0 ? "true" : "false");
    } else if (name && (strcmp(name, "double") == 0 || strcmp(name, "float") == 0)) {
        double d = strtod(text, NULL);
        if (strcmp(name, "float") == 0)
            fmt_java_float(sb, (float)d);
        else
            fmt_java_double(sb, d);
    } else {
        sb_puts(sb, text);
    }
}

static const char *element_value(const jfr_annotation *a, const char *key)
{
    for (size_t k = 0; k < a->count; k++)
        if (strcmp(a->names[k], key) == 0)
            return a->values[k];
    return NULL;
}

/* One element of an annotation: arrays come as name-0, name-1, ... and
 * read as the lone value when there is one, else {a, b}. */
static void put_annotation_value(strbuf *sb, const jfr_annotation *a, const jfr_field *f)
{
    const char *name = jfr_field_name(f);
    const jfr_type *type = jfr_field_type(f);

    if (jfr_field_is_array(f)) {
        char key[256];
        size_t count = 0;

        while (snprintf(key, sizeof key, "%s-%zu", name, count) < (int)sizeof key &&
               element_value(a, key))
            count++;
        if (count != 1)
            sb_putc(sb, '{');
        for (size_t i = 0; i < count; i++) {
            snprintf(key, sizeof key, "%s-%zu", name, i);
            if (i)
                sb_puts(sb, ", ");
            put_element(sb, type, element_value(a, key));
        }
        if (count != 1)
            sb_putc(sb, '}');
    } else {
        put_element(sb, type, element_value(a, name));
    }
}

static void put_annotations(strbuf *sb, size_t n,
                            const jfr_annotation *(*at)(const void *, size_t),
                            const void *owner, const char *indent)
{
    for (size_t i = 0; i < n; i++) {
        const jfr_annotation *a = at(owner, i);
        size_t nf;

        if (!a || !a->type || strcmp(jfr_type_name(a->type), "jdk.jfr.Name") == 0)
            continue;
        sb_printf(sb, "%s@%s", indent, simple_name(jfr_type_name(a->type)));
        nf = jfr_type_field_count(a->type);
        if (nf > 0) {
            sb_putc(sb, '(');
            for (size_t k = 0; k < nf; k++) {
                const jfr_field *f = jfr_type_field_at(a->type, k);

                if (k)
                    sb_puts(sb, ", ");
                if (nf > 1 || strcmp(jfr_field_name(f), "value") != 0)
                    sb_printf(sb, "%s=", jfr_field_name(f));
                put_annotation_value(sb, a, f);
            }
            sb_putc(sb, ')');
        }
        sb_putc(sb, '\n');
    }
}

static const jfr_annotation *type_ann(const void *t, size_t i)
{
    return jfr_type_annotation_at(t, i);
}

static const jfr_annotation *field_ann(const void *f, size_t i)
{
    return jfr_field_annotation_at(f, i);
}

/* ValueDescriptor.getTypeName(): a type the metadata marks simpleType
 * reads as the type of its one field, so Symbol fields show as String. */
static const char *field_type_name(const jfr_type *t)
{
    for (int hops = 0; t && hops < 64; hops++) {
        const jfr_field *first = jfr_type_field_at(t, 0);

        if (!jfr_type_is_simple(t) || !first || !jfr_field_type(first))
            return jfr_type_name(t);
        t = jfr_field_type(first);
    }
    return t ? jfr_type_name(t) : "?";
}

static void render_type(strbuf *sb, const jfr_type *t)
{
    const char *name = jfr_type_name(t);

    if (strchr(name, '.'))
        sb_printf(sb, "@Name(\"%s\")\n", name);
    put_annotations(sb, jfr_type_annotation_count(t), type_ann, t, "");
    sb_printf(sb, "class %s", simple_name(name));
    if (jfr_type_super(t))
        sb_printf(sb, " extends %s", jfr_type_super(t));
    sb_puts(sb, " {\n");
    for (size_t i = 0; i < jfr_type_field_count(t); i++) {
        const jfr_field *f = jfr_type_field_at(t, i);
        const jfr_type *ft = jfr_field_type(f);
        const char *super = ft ? jfr_type_super(ft) : NULL;

        if (i)
            sb_putc(sb, '\n');
        put_annotations(sb, jfr_field_annotation_count(f), field_ann, f, "  ");
        sb_printf(sb, "  %s%s%s %s;\n",
                  super && strcmp(super, "jdk.jfr.SettingControl") == 0 ? "static " : "",
                  ft ? simple_name(field_type_name(ft)) : "?",
                  jfr_field_is_array(f) ? "[]" : "", jfr_field_name(f));
    }
    sb_puts(sb, "}\n\n");
}

/* Chunks of one JVM repeat their declarations under the same ids: keep each
 * (id, text) once. Types of one chunk all count (a chunk may declare two
 * types of one name), and so does a type whose id another JVM's chunk used
 * for something else (the JDK drops that one). */
static bool seen_before(const decl_list *l, uint64_t id, const char *name,
                        const char *text)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].id == id && strcmp(l->items[i].name, name) == 0 &&
            strcmp(l->items[i].text, text) == 0)
            return true;
    return false;
}

/* The chunk's declarations: with filters, only the event types they
 * select, as jfr metadata --events shows them. */
static void collect_chunk(decl_list *l, jfr_chunk *chunk, const event_filters *f)
{
    strbuf sb = {0};

    for (size_t k = 0; k < jfr_chunk_type_count(chunk); k++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, k);
        const char *name = jfr_type_name(t), *dot;
        decl *d;

        if (!t || !name ||
            (event_filters_any(f) &&
             (!jfr_type_is_event(t) || !event_filters_select(f, t))))
            continue;
        sb_clear(&sb);
        render_type(&sb, t);
        if (seen_before(l, jfr_type_id(t), name, sb_str(&sb)))
            continue;
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 256;
            l->items = xrealloc(l->items, l->cap, sizeof *l->items);
        }
        d = &l->items[l->n];
        dot = strrchr(name, '.');
        d->name = xstrdup(name);
        d->package = xstrndup(name, dot ? (size_t)(dot - name) + 1 : 0);
        d->group = group_of(t);
        d->id = jfr_type_id(t);
        d->seq = l->n++;
        d->text = xstrdup(sb_str(&sb));
    }
    sb_free(&sb);
}

/* Group, then package, then name; first appearance breaks ties. */
static int compare_decls(const void *a, const void *b)
{
    const decl *x = a, *y = b;
    int c;

    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    c = strcmp(x->package, y->package);
    if (c == 0)
        c = strcmp(x->name, y->name);
    if (c == 0)
        c = x->seq < y->seq ? -1 : x->seq > y->seq;
    return c;
}

/* -1 to go on, else the exit status. */
static int parse_options(event_filters *f, int argc, char **argv)
{
    static const struct option opts[] = {
        {"events", required_argument, NULL, 'e'},
        {"categories", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    int c, rc = EXIT_OK;

    while (rc == EXIT_OK && (c = getopt_long(argc, argv, "e:c:h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_metadata, stdout);
            return EXIT_OK;
        }
        if (c != 'e' && c != 'c') {
            fputs(usage_metadata, stderr);
            return EXIT_USAGE;
        }
        rc = event_filters_take(f, c == 'c', optarg);
    }
    if (rc == EXIT_OK && optind >= argc) {
        fputs(usage_metadata, stderr);
        return EXIT_USAGE;
    }
    if (rc == EXIT_OK)
        rc = event_filters_check(f, argv + optind, argc - optind);
    return rc == EXIT_OK ? -1 : rc;
}

int cmd_metadata(int argc, char **argv)
{
    int status = EXIT_OK, c;
    decl_list list = {0};
    event_filters filters = {0};
    bool damaged = false;

    if ((c = parse_options(&filters, argc, argv)) >= 0) {
        event_filters_free(&filters);
        return c;
    }
    for (int i = optind; i < argc; i++) {
        jfr_recording *rec = open_recording(argv[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, argv[i], &damaged) == JFR_OK)
            collect_chunk(&list, chunk, &filters);
        close_recording(rec);
    }
    if (list.n)
        qsort(list.items, list.n, sizeof *list.items, compare_decls);
    for (size_t i = 0; i < list.n; i++) {
        fputs(list.items[i].text, stdout);
        free(list.items[i].name);
        free(list.items[i].package);
        free(list.items[i].text);
    }
    free(list.items);
    event_filters_free(&filters);
    return status;
}
