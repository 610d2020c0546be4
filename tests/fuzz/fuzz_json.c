/* fuzz_json.c - generic event decoding through jfrtool's `print --json`
 * renderer (jfrtool/out_json.c), as it runs on every event of every chunk.
 * Properties: each event renders or fails with the recording's error set
 * and its output untouched; what it writes parses back as JSON, names the
 * event's type and has at most one member per declared field. */
#include <jansson.h>

#include "fuzz_common.h"
#include "out_json.h"

static void check_rendered(const char *text, size_t len, const jfr_event *ev)
{
    json_t *back, *values;
    json_error_t jerr;

    back = json_loadb(text, len, JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &jerr);
    if (!back)
        fprintf(stderr, "unparsable JSON (%s): %.200s\n", jerr.text, text);
    FZ_CHECK(back != NULL);
    FZ_CHECK(json_is_string(json_object_get(back, "type")));
    FZ_CHECK(strcmp(json_string_value(json_object_get(back, "type")),
                    jfr_type_name(jfr_event_type(ev))) == 0);
    values = json_object_get(back, "values");
    FZ_CHECK(json_is_object(values));
    FZ_CHECK(json_object_size(values) <= jfr_type_field_count(jfr_event_type(ev)));
    json_decref(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    json_opts opts = {SIZE_MAX};
    int rc, guard = 0;
    /* at most this many events per input: a whole recording (the 114 KB
     * cpu-jdk17.jfr.gz seed, 20,000 events) took 23 s under ASan, past
     * libFuzzer's -timeout=20, so a run stopped while loading its corpus;
     * the first events of each chunk cover every type's decoding */
    int budget = 2000;
    strbuf out = {0};

    if (fz_open(&rec, data, size) < 0)
        return 0;
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE && guard++ < 1000) {
        jfr_event_iter *it;
        const jfr_event *ev;
        int n = 0;

        if (rc < 0 || jfr_event_iter_new(&it, chunk, NULL, 0, 0) < 0)
            continue;
        event_json_new_chunk();
        while (n++ < 20000 && budget-- > 0 && jfr_event_next(&ev, it) == JFR_OK) {
            sb_clear(&out);
            if (event_json(&out, ev, &opts, 0) < 0) {
                FZ_CHECK(out.len == 0);
                if (!event_json_loss())
                    fz_check_error(jfr_recording_error(rec));
                continue;
            }
            check_rendered(out.ptr, out.len, ev);
        }
        jfr_event_iter_free(it);
    }
    jfr_recording_free(rec);
    sb_free(&out);
    return 0;
}
