/* test_json_writer.c - jw_uint32s against jw_uint item by item: the same
 * text in every style, across its runs of items and the writer's flushes
 * to a FILE, inside and after other items. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

/* The document {"a":[7, v..., 9],"b":[v...]} written to memory, through
 * jw_uint32s or through jw_uint one item at a time. */
static char *document(const json_style *style, const uint32_t *v, size_t n, bool batch)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    jw w;

    cr_assert_not_null(out);
    jw_init_style(&w, out, style);
    jw_begin(&w, '{');
    jw_key(&w, "a");
    jw_begin(&w, '[');
    jw_uint(&w, 7);
    for (int pass = 0; pass < 2; pass++) {
        if (batch)
            jw_uint32s(&w, v, n);
        else
            for (size_t i = 0; i < n; i++)
                jw_uint(&w, v[i]);
        if (pass == 0)
            jw_uint(&w, 9);
        if (pass == 0) {
            jw_end(&w, ']');
            jw_key(&w, "b");
            jw_begin(&w, '[');
        }
    }
    jw_end(&w, ']');
    jw_end(&w, '}');
    jw_flush(&w);
    fclose(out);
    return text;
}

Test(json_writer, uint32s_write_what_uint_writes)
{
    const json_style *styles[] = {&json_page, &json_pretty, &json_compact};
    /* over several runs of items and several 64 KiB flushes */
    const size_t sizes[] = {0, 1, 4095, 4096, 4097, 50000};
    uint32_t *v = malloc(50000 * sizeof *v);
    uint32_t x = 1;

    cr_assert_not_null(v);
    for (size_t i = 0; i < 50000; i++) {
        x = x * 1103515245u + 12345u;
        /* every length of number, 0 and UINT32_MAX among them */
        v[i] = i % 7 == 0 ? 0 : i % 11 == 0 ? UINT32_MAX : x >> (i % 32);
    }
    for (size_t s = 0; s < sizeof styles / sizeof *styles; s++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            char *one = document(styles[s], v, sizes[k], false);
            char *run = document(styles[s], v, sizes[k], true);

            cr_expect_str_eq(run, one, "style %zu, %zu items", s, sizes[k]);
            free(one);
            free(run);
        }
    free(v);
}

/* one check that the reference itself is what it should be */
Test(json_writer, page_style_items)
{
    const uint32_t v[] = {0, 10, 4294967295u};
    char *text = document(&json_page, v, 3, true);

    cr_expect_str_eq(text, "{\"a\":[7,0,10,4294967295,9],\"b\":[0,10,4294967295]}");
    free(text);
}
