/* report_findings.c - the report's findings and leak candidates as the
 * page's JSON. The rules are rows (sql/rules.ini, libjfr's
 * findings_rules.c, a user's --rules file; doc/report.md) evaluated by
 * libjfr (jfr/findings.h); this file adds what only the tool knows
 * (input it could not read), the part of the page each finding links to
 * (the first of its rule's links the page has) and the time of the worst
 * case relative to the recording's start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"

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

/* The parts of the page a finding may link to, besides the profiles'
 * tabs ("#profile-KIND", when the page has that profile). */
static bool on_page(const report *r, const char *anchor, size_t len)
{
    static const char *const parts[] = {
        "#overview", "#findings",   "#timelines",     "#profiles",  "#leaks",
        "#lost",     "#tl-cpu",     "#tl-heap",       "#tl-gc",     "#tl-pause",
        "#tl-alloc", "#tl-threads", "#tl-safepoints", "#tl-cpulost"};
    char kind[64];

    if (len > 9 && strncmp(anchor, "#profile-", 9) == 0 && len - 9 < sizeof kind) {
        memcpy(kind, anchor + 9, len - 9);
        kind[len - 9] = '\0';
        return report_has_profile(r, kind);
    }
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        if (strlen(parts[i]) == len && strncmp(parts[i], anchor, len) == 0)
            return true;
    return false;
}

/* Where on the page a rule's evidence is: the first of the rule's links
 * (separated by spaces) that the page has, else the findings. */
static void link_of(strbuf *out, const report *r, const char *links)
{
    const char *p = links ? links : "";

    sb_clear(out);
    while (*p) {
        size_t len;
        p += strspn(p, " ");
        len = strcspn(p, " ");
        if (len && on_page(r, p, len)) {
            sb_printf(out, "%.*s", (int)len, p);
            return;
        }
        p += len;
    }
    sb_puts(out, "#findings");
}

void report_findings_json(jw *w, report *r)
{
    strbuf ev = {0}, link = {0};
    size_t n;

    report_profiles_to_findings(r);
    if (jfr_findings_add_rate(r->findings, "alloc",
                              jfr_report_data_alloc_rate(r->data)) == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (jfr_findings_add_leaks(r->findings, jfr_report_data_leaks(r->data)) ==
            JFR_ENOMEM ||
        jfr_findings_evaluate(r->findings) != JFR_OK)
        diex(EXIT_INPUT, "out of memory");
    jw_begin(w, '[');
    if (r->nlost) {
        sb_printf(&ev,
                  "%zu problem%s reading the input; the page shows what could be read",
                  r->nlost, r->nlost == 1 ? "" : "s");
        finding(w, "damaged", "warning", "#lost", "Recording damaged", sb_str(&ev));
    }
    n = jfr_findings_count(r->findings);
    for (size_t i = 0; i < n; i++) {
        const jfr_finding *f = jfr_findings_at(r->findings, i);

        sb_clear(&ev);
        sb_puts(&ev, f->evidence);
        if (f->at_nanos)
            sb_printf(&ev, "; at %.3f s",
                      (double)jfr_nanos_between(r->origin, f->at_nanos) / 1e9);
        link_of(&link, r, f->link);
        /* the key is unique on the page: leak-1, leak-2, ... */
        finding(w, f->key, f->severity == JFR_SEVERITY_WARNING ? "warning" : "info",
                sb_str(&link), f->title, sb_str(&ev));
    }
    jw_end(w, ']');
    sb_free(&ev);
    sb_free(&link);
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
    jfr_leaks *lk = jfr_report_data_leaks(r->data);
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
