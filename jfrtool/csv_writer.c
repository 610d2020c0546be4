/* csv_writer.c - jfrtool's one CSV row writer (csv_writer.h). */
#include <string.h>

#include "csv_writer.h"

void csv_row_begin(csv_row *row, FILE *out)
{
    row->out = out;
    row->fields = 0;
}

void csv_field(csv_row *row, const char *s, size_t len)
{
    if (row->fields++)
        putc(',', row->out);
    if (!s)
        return;
    if (!memchr(s, '"', len) && !memchr(s, ',', len) && !memchr(s, '\n', len) &&
        !memchr(s, '\r', len)) {
        fwrite(s, 1, len, row->out);
        return;
    }
    putc('"', row->out);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            putc('"', row->out);
        putc(s[i], row->out);
    }
    putc('"', row->out);
}

void csv_field_str(csv_row *row, const char *s)
{
    csv_field(row, s, s ? strlen(s) : 0);
}

void csv_row_end(csv_row *row)
{
    fputs("\r\n", row->out);
    row->fields = 0;
}
