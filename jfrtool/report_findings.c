/* report_findings.c - the report's findings: a few rules over what the
 * two passes gathered, each with its evidence and the part of the page
 * that shows it (the rules and thresholds are listed in doc/report.md),
 * and the leak candidates as `jfrtool leaks` ranks them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Thresholds (doc/report.md). */
#define GC_PAUSE_MS        100.0             /* a pause this long is a finding */
#define GC_PAUSE_SHARE     0.05              /* or pauses taking this share of the time */
#define ALLOC_RATE_MEAN    (512.0 * 1048576) /* bytes/s over the recording */
#define ALLOC_RATE_PEAK    (1024.0 * 1048576) /* bytes/s in one time bucket */
#define LOCK_BLOCKED_MS    100.0              /* time blocked entering monitors */
#define LOCK_EVENTS        5     /* and at least this many contended enters */
#define EXCEPTION_RATE     100.0 /* throwables per second */
#define BIAS_SHARE         0.10  /* CPU-time samples taken at a safepoint */
#define LOST_SHARE         0.05  /* CPU-time samples lost */
#define THREAD_SHARE       0.75  /* of CPU samples on one thread */
#define THREAD_MIN_SAMPLES 100
#define THREAD_MIN_THREADS 4
#define LEAK_FINDINGS      3 /* candidates named among the findings */

typedef struct finding_list {
    jw *w;
} finding_list;

static void finding(jw *w, const char *id, const char *severity, const char *link,
                    const char *title, const char *evidence)
{
    jw_begin(w, '{');
    jw_key(w, "id");
    jw_str(w, id);
    jw_key(w, "severity");
    jw_str(w, severity);
    jw_key(w, "title");
    jw_str(w, title);
    jw_key(w, "evidence");
    jw_str(w, evidence);
    jw_key(w, "link");
    jw_str(w, link);
    jw_end(w, '}');
}

static double seconds(const report *r)
{
    double s = (double)(r->end - r->origin) / 1e9;

    return s > 0.001 ? s : 0.001;
}

static void human_bytes(strbuf *sb, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;

    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    sb_printf(sb, "%.1f %s", b, units[u]);
}

/* "Holder.field" or "Type[index]" for the reference into `node`. */
static void hop_text(strbuf *sb, jfr_leaks *lk, uint32_t node)
{
    const jfr_leak_node *n = jfr_leaks_node_at(lk, node);
    const jfr_leak_node *p = n ? jfr_leaks_node_at(lk, n->parent) : NULL;

    if (!n) {
        sb_puts(sb, "?");
    } else if (n->field) {
        const char *holder = jfr_leaks_holder_name(lk, node);
        sb_printf(sb, "%s.%s", holder ? holder : "?", n->field);
    } else if (n->array_index >= 0) {
        sb_printf(sb, "%s[%d]", p && p->type ? p->type : "?", n->array_index);
    } else {
        sb_printf(sb, "%s (root)", n->type ? n->type : "?");
    }
}

static void gc_findings(jw *w, report *r, strbuf *ev)
{
    const series *gc = &r->series[S_GC];
    double longest = 0, sum = 0;
    size_t at = 0;

    for (size_t i = 0; i < gc->count; i++) {
        double p = gc->v[2][i];
        if (!isnan(p) && p > longest) {
            longest = p;
            at = i;
        }
        if (!isnan(gc->v[3][i]))
            sum += gc->v[3][i];
    }
    if (longest >= GC_PAUSE_MS || sum / 1e3 >= GC_PAUSE_SHARE * seconds(r)) {
        sb_clear(ev);
        sb_printf(
            ev,
            "%zu collections; longest pause %.1f ms (%s at %.3f s); pauses %.1f ms in "
            "all, %.1f%% of the recording",
            gc->count, longest, gc->text[at] ? gc->text[at] : "GC", gc->v[0][at] / 1e3,
            sum, 100.0 * sum / 1e3 / seconds(r));
        finding(w, "gc-pauses", "warning", "#tl-gc", "Long GC pauses", sb_str(ev));
    }
}

static void alloc_findings(jw *w, report *r, strbuf *ev)
{
    profile_facts f;
    double mean, peak = 0, peak_t = 0;
    double *per_bucket;

    report_profile_facts(r, "alloc", &f);
    if (!f.present || r->nbuckets <= 0)
        return;
    mean = (double)f.total / seconds(r);
    per_bucket = report_bucket_totals(r, "alloc");
    for (int64_t b = 0; per_bucket && b < r->nbuckets; b++)
        if (per_bucket[b] > peak) {
            peak = per_bucket[b];
            peak_t = (double)b * (double)r->bucket_ns / 1e9;
        }
    free(per_bucket);
    peak /= (double)r->bucket_ns / 1e9;
    if (mean >= ALLOC_RATE_MEAN || peak >= ALLOC_RATE_PEAK) {
        sb_clear(ev);
        sb_puts(ev, "mean ");
        human_bytes(ev, mean);
        sb_puts(ev, "/s; peak ");
        human_bytes(ev, peak);
        sb_printf(ev, "/s at %.1f s (estimated from allocation samples)", peak_t);
        finding(w, "alloc-rate", "warning", "#tl-alloc", "High allocation rate",
                sb_str(ev));
    }
}

static void lock_findings(jw *w, report *r, strbuf *ev)
{
    if (r->monitor_enters >= LOCK_EVENTS && r->monitor_ns / 1e6 >= LOCK_BLOCKED_MS) {
        sb_clear(ev);
        sb_printf(
            ev,
            "%llu contended monitor enters (jdk.JavaMonitorEnter), %.1f ms blocked in "
            "all; see the lock profile for where",
            (unsigned long long)r->monitor_enters, r->monitor_ns / 1e6);
        finding(w, "lock-contention", "warning", "#profile-lock", "Lock contention",
                sb_str(ev));
    }
}

static void exception_findings(jw *w, report *r, strbuf *ev)
{
    profile_facts f;
    double n = (double)r->exceptions_statistics;

    report_profile_facts(r, "exceptions", &f);
    if ((double)f.samples > n)
        n = (double)f.samples;
    if (n / seconds(r) >= EXCEPTION_RATE) {
        sb_clear(ev);
        sb_printf(ev, "%.0f throwables created, %.0f per second", n, n / seconds(r));
        finding(w, "exceptions", "warning",
                f.present ? "#profile-exceptions" : "#overview", "Many exceptions",
                sb_str(ev));
    }
}

static void cpu_findings(jw *w, report *r, strbuf *ev)
{
    profile_facts f;
    uint64_t all;

    report_profile_facts(r, "cpu", &f);
    if (f.cpu.samples >= THREAD_MIN_SAMPLES &&
        (double)f.cpu.biased / (double)f.cpu.samples >= BIAS_SHARE) {
        sb_clear(ev);
        sb_printf(
            ev,
            "%llu of %llu CPU-time samples (%.1f%%) were taken at a safepoint: their "
            "stacks lean towards safepoint polls",
            (unsigned long long)f.cpu.biased, (unsigned long long)f.cpu.samples,
            100.0 * (double)f.cpu.biased / (double)f.cpu.samples);
        finding(w, "safepoint-bias", "warning", "#profile-cpu", "Safepoint bias",
                sb_str(ev));
    }
    all = f.cpu.samples + f.cpu.lost;
    if (f.cpu.lost && (double)f.cpu.lost / (double)all >= LOST_SHARE) {
        sb_clear(ev);
        sb_printf(ev,
                  "%llu of %llu CPU-time samples (%.1f%%) were lost "
                  "(jdk.CPUTimeSamplesLost): CPU shares undercount",
                  (unsigned long long)f.cpu.lost, (unsigned long long)all,
                  100.0 * (double)f.cpu.lost / (double)all);
        finding(w, "cpu-lost", "warning", "#tl-cpulost", "CPU-time samples lost",
                sb_str(ev));
    } else if (f.cpu.lost) {
        sb_clear(ev);
        sb_printf(ev, "%llu of %llu CPU-time samples were lost (under %.0f%%)",
                  (unsigned long long)f.cpu.lost, (unsigned long long)all,
                  100 * LOST_SHARE);
        finding(w, "cpu-lost", "info", "#tl-cpulost", "A few CPU-time samples lost",
                sb_str(ev));
    }
    if (!f.present)
        report_profile_facts(r, "exec", &f);
    if (f.present && f.samples >= THREAD_MIN_SAMPLES && f.threads >= THREAD_MIN_THREADS &&
        f.top_thread_share >= THREAD_SHARE) {
        sb_clear(ev);
        sb_printf(ev, "thread %s has %.1f%% of the CPU samples, %zu threads were sampled",
                  f.top_thread ? f.top_thread : "?", 100.0 * f.top_thread_share,
                  f.threads);
        finding(w, "hot-thread", "warning", "#profiles", "One thread dominates CPU",
                sb_str(ev));
    }
}

static void leak_findings(jw *w, report *r, strbuf *ev)
{
    size_t n = jfr_leaks_candidate_count(r->leaks);

    for (size_t i = 0; i < n && i < LEAK_FINDINGS; i++) {
        const jfr_leak_candidate *c = jfr_leaks_candidate_at(r->leaks, i);
        const jfr_leak_node *node = jfr_leaks_node_at(r->leaks, c->node);
        strbuf title = {0};
        char id[32];

        sb_puts(&title, "Leak candidate: ");
        hop_text(&title, r->leaks, c->site);
        sb_clear(ev);
        sb_printf(ev,
                  "keeps alive %llu old-object samples (%.1f%% of all), through %s; "
                  "relevance %.2f",
                  (unsigned long long)c->samples, 100.0 * c->share_of_all,
                  node && node->type ? node->type : "?", c->relevance);
        snprintf(id, sizeof id, "leak-%zu", i + 1);
        finding(w, id, "warning", "#leaks", sb_str(&title), sb_str(ev));
        sb_free(&title);
    }
}

void report_findings_json(jw *w, report *r)
{
    strbuf ev = {0};

    jw_begin(w, '[');
    if (r->nlost) {
        sb_printf(&ev,
                  "%zu problem%s reading the input; the page shows what could be read",
                  r->nlost, r->nlost == 1 ? "" : "s");
        finding(w, "damaged", "warning", "#lost", "Recording damaged", sb_str(&ev));
    }
    gc_findings(w, r, &ev);
    alloc_findings(w, r, &ev);
    lock_findings(w, r, &ev);
    exception_findings(w, r, &ev);
    cpu_findings(w, r, &ev);
    leak_findings(w, r, &ev);
    jw_end(w, ']');
    sb_free(&ev);
}

static void rank_json(jw *w, jfr_leaks *lk, jfr_leaks_rank_by by, uint32_t within)
{
    const jfr_leak_rank *rows;
    size_t n;

    jw_begin(w, '[');
    if (jfr_leaks_rank(&rows, &n, lk, by, within) == JFR_OK)
        for (size_t i = 0; i < n && i < 5; i++) {
            jw_begin(w, '[');
            jw_str(w, rows[i].name);
            jw_int(w, (int64_t)rows[i].samples);
            jw_end(w, ']');
        }
    jw_end(w, ']');
}

void report_leaks_json(jw *w, report *r)
{
    jfr_leaks *lk = r->leaks;
    size_t n = jfr_leaks_candidate_count(lk);
    strbuf sb = {0};

    jw_begin(w, '{');
    jw_key(w, "samples");
    jw_int(w, (int64_t)jfr_leaks_sample_count(lk));
    jw_key(w, "candidates");
    jw_begin(w, '[');
    for (size_t i = 0; i < n && i < 10; i++) {
        const jfr_leak_candidate *c = jfr_leaks_candidate_at(lk, i);
        const jfr_leak_tree *t = jfr_leaks_tree_at(lk, c->tree);
        const jfr_leak_node *node = jfr_leaks_node_at(lk, c->node);
        uint32_t path[64];
        size_t len = 0;

        jw_begin(w, '{');
        sb_clear(&sb);
        hop_text(&sb, lk, c->site);
        jw_key(w, "growsThrough");
        jw_str(w, sb_str(&sb));
        jw_key(w, "objectType");
        jw_str(w, node ? node->type : NULL);
        jw_key(w, "samples");
        jw_int(w, (int64_t)c->samples);
        jw_key(w, "shareOfAll");
        jw_num(w, c->share_of_all);
        jw_key(w, "relevance");
        jw_num(w, c->relevance);
        jw_key(w, "root");
        sb_clear(&sb);
        sb_printf(&sb, "%s, %s", t && t->system ? t->system : "unknown system",
                  t && t->type ? t->type : "unknown type");
        jw_str(w, sb_str(&sb));
        /* the path from the root, at most the last 64 references */
        for (uint32_t k = c->node; k != JFR_LEAK_NONE && len < 64;
             k = jfr_leaks_node_at(lk, k)->parent)
            path[len++] = k;
        jw_key(w, "path");
        jw_begin(w, '[');
        while (len) {
            uint32_t k = path[--len];
            sb_clear(&sb);
            hop_text(&sb, lk, k);
            if (k == c->site)
                sb_puts(&sb, "   <- the leak grows here");
            jw_str(w, sb_str(&sb));
        }
        jw_end(w, ']');
        jw_key(w, "types");
        rank_json(w, lk, JFR_LEAKS_BY_CLASS, c->node);
        jw_key(w, "sites");
        rank_json(w, lk, JFR_LEAKS_BY_SITE, c->node);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
    sb_free(&sb);
}
