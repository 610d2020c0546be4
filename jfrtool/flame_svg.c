/* flame_svg.c - a standalone SVG flame graph in the FlameGraph style: one
 * <g> per frame holding a <title> (name, value, share), a <rect> whose
 * width is proportional to the frame's value and a clipped <text>; the root
 * at the bottom. An inline script zooms on click and searches by regex.
 * Colours by frame kind in the Java palette of FlameGraph and
 * async-profiler (JIT green, inlined aqua, interpreted light green, native
 * red, C++ yellow, kernel orange, synthetic frames grey), or red/blue by
 * change in differential graphs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decimal_text.h"
#include "flame_output.h"
#include "util.h"

#define WIDTH     1200.0
#define SIDE      10.0
#define FRAME_H   16
#define TOP       64
#define BOTTOM    28
#define FONT_SIZE 12
#define CHAR_W    7.0 /* average glyph width of FONT_SIZE monospace */
#define MIN_WIDTH 0.1 /* frames narrower than this (px) are left out */

static size_t utf8_length(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        if ((*s & 0xc0) != 0x80)
            n++;
    return n;
}

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;

    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static void hsl_to_rgb(double h, double s, double l, int rgb[3])
{
    double c = (1 - fabs(2 * l - 1)) * s, hp = fmod(h, 360) / 60;
    double x = c * (1 - fabs(fmod(hp, 2) - 1)), m = l - c / 2;
    double r = 0, g = 0, b = 0;

    if (hp < 1) {
        r = c;
        g = x;
    } else if (hp < 2) {
        r = x;
        g = c;
    } else if (hp < 3) {
        g = c;
        b = x;
    } else if (hp < 4) {
        g = x;
        b = c;
    } else if (hp < 5) {
        r = x;
        b = c;
    } else {
        r = c;
        b = x;
    }
    rgb[0] = (int)lround((r + m) * 255);
    rgb[1] = (int)lround((g + m) * 255);
    rgb[2] = (int)lround((b + m) * 255);
}

/* Hue, saturation, lightness per flame_kind (as flame.html's KINDS). */
static const double KIND_HSL[FK_COUNT][3] = {
    {120, 0.60, 0.55}, {180, 0.55, 0.55}, {120, 0.40, 0.78},
    {0, 0.68, 0.62},   {60, 0.58, 0.50},  {0, 0.0, 0.72},
    {0, 0.0, 0.80},    {300, 0.12, 0.70}, {33, 1.0, 0.45},
};

static const char *const KIND_LABEL[FK_COUNT] = {
    "JIT compiled", "inlined", "interpreted", "native", "C++ (JVM)",
    "synthetic",    "all",     "unknown",     "kernel",
};

/* The kinds the legend shows, in the order of the palette's description. */
static const uint8_t LEGEND[] = {FK_JIT,    FK_INLINED, FK_INTERPRETED, FK_CPP,
                                 FK_NATIVE, FK_KERNEL,  FK_SYNTHETIC};

static void kind_colour(const flame_node *n, int rgb[3])
{
    const double *k = KIND_HSL[n->kind < FK_COUNT ? n->kind : FK_UNKNOWN];
    uint32_t h = fnv1a(n->name);
    /* a small jitter by name keeps neighbours apart, each kind in its hue */
    double dh = k[1] > 0 ? ((h & 255) / 255.0 - 0.5) * 12 : 0;
    double dl = (((h >> 8) & 255) / 255.0 - 0.5) * 0.10;

    hsl_to_rgb(k[0] + dh + 360, k[1], k[2] + dl, rgb);
}

static void diff_colour(const flame_node *n, int rgb[3])
{
    double m = n->value > n->base ? n->value : n->base;
    double s = m > 0 ? fabs(n->value - n->base) / m : 0;
    int c = (int)lround(236 - 180 * sqrt(s < 1 ? s : 1));

    if (s < 1e-9) {
        rgb[0] = rgb[1] = rgb[2] = 236;
    } else if (n->value > n->base) {
        rgb[0] = 255;
        rgb[1] = c;
        rgb[2] = c;
    } else {
        rgb[0] = c;
        rgb[1] = c;
        rgb[2] = 255;
    }
}

/* `v` with `decimals` (fixed_text) and `after` */
static void put_fixed(strbuf *sb, double v, int decimals, const char *after)
{
    char *at = sb_extend(sb, DECIMAL_TEXT_ROOM);

    sb->len = (size_t)(at - sb->ptr) + fixed_text(at, v, decimals);
    sb_puts(sb, after);
}

static void put_value(strbuf *sb, double v, const char *unit)
{
    if (strcmp(unit, "ns") == 0) {
        put_fixed(sb, v / 1e9, 3, " s");
    } else {
        put_fixed(sb, v, v == floor(v) ? 0 : 1, " ");
        sb_puts(sb, unit);
    }
}

/* "JIT compiled 80.00%, interpreted 20.00%" of a node that merges kinds. */
static void put_mix(strbuf *sb, const flame_mix *m, double value)
{
    const double part[] = {m->jit, m->inlined, m->interpreted};
    const char *label[] = {"JIT compiled", "inlined", "interpreted"};
    const char *sep = "; ";

    for (int k = 0; k < 3; k++) {
        if (part[k] <= 0 || value <= 0)
            continue;
        sb_puts(sb, sep);
        sb_puts(sb, label[k]);
        sb_putc(sb, ' ');
        put_fixed(sb, 100 * part[k] / value, 2, "%");
        sep = ", ";
    }
}

static void put_title(strbuf *sb, const flame_tree *t, const flame_node *n, double total)
{
    sb_puts(sb, "<title>");
    sb_markup(sb, n->name, SIZE_MAX);
    sb_puts(sb, " (");
    put_value(sb, n->value, t->unit);
    sb_puts(sb, ", ");
    put_fixed(sb, total > 0 ? 100 * n->value / total : 0, 2, "%");
    if (n->mix)
        put_mix(sb, n->mix, n->value);
    if (t->diff) {
        sb_puts(sb, "; base ");
        put_value(sb, n->base, t->unit);
        sb_puts(sb, ", delta ");
        if (n->value >= n->base)
            sb_putc(sb, '+');
        put_value(sb, n->value - n->base, t->unit);
    }
    sb_puts(sb, ")</title>");
}

static const char SCRIPT[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "'use strict';\n"
    "var W = WIDTH, SIDE = SIDEPX, CW = CHARW, frames = [], zoomed = null;\n"
    "function init() {\n"
    "  var gs = document.getElementById('frames').getElementsByTagName('g');\n"
    "  for (var i = 0; i < gs.length; i++) {\n"
    "    var g = gs[i], r = g.getElementsByTagName('rect')[0];\n"
    "    frames.push({g: g, r: r, t: g.getElementsByTagName('text')[0],\n"
    "      x: +g.getAttribute('data-x'), w: +g.getAttribute('data-w'), d: "
    "+g.getAttribute('data-d'),\n"
    "      name: g.getAttribute('data-name'), fill: r.getAttribute('fill')});\n"
    "    g.addEventListener('click', zoomTo.bind(null, frames[frames.length - 1]));\n"
    "    g.addEventListener('mouseover', details.bind(null, g));\n"
    "    g.addEventListener('mouseout', details.bind(null, null));\n"
    "  }\n"
    "  document.getElementById('unzoom').addEventListener('click', function () { "
    "zoomTo(null); });\n"
    "  document.getElementById('search').addEventListener('click', search);\n"
    "  document.addEventListener('keydown', function (e) {\n"
    "    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); "
    "}\n"
    "    if (e.key === 'Escape') zoomTo(null);\n"
    "  });\n"
    "}\n"
    "function details(g) {\n"
    "  var t = g && g.getElementsByTagName('title')[0];\n"
    "  document.getElementById('details').textContent = t ? t.textContent : ' ';\n"
    "}\n"
    "function label(f, px) {\n"
    "  var n = Math.floor((px - 6) / CW);\n"
    "  if (n < 3) return '';\n"
    "  return f.name.length <= n ? f.name : f.name.substring(0, n - 2) + '..';\n"
    "}\n"
    "function zoomTo(z) {\n"
    "  zoomed = z;\n"
    "  var x0 = z ? z.x : 0, w0 = z ? z.w : frames[0].w, s = (W - 2 * SIDE) / w0;\n"
    "  for (var i = 0; i < frames.length; i++) {\n"
    "    var f = frames[i], show = true, x, w;\n"
    "    if (z && f.d < z.d && f.x <= z.x && f.x + f.w >= z.x + z.w) { x = SIDE; w = W - "
    "2 * SIDE; }\n"
    "    else if (z && (f.d < z.d || f.x + f.w <= x0 || f.x >= x0 + w0)) { show = false; "
    "}\n"
    "    else { x = SIDE + (f.x - x0) * s; w = f.w * s; }\n"
    "    f.g.style.display = show ? '' : 'none';\n"
    "    if (!show) continue;\n"
    "    f.g.style.opacity = z && f.d < z.d ? '0.6' : '';\n"
    "    f.r.setAttribute('x', x.toFixed(2)); f.r.setAttribute('width', w.toFixed(2));\n"
    "    f.t.setAttribute('x', (x + 3).toFixed(2)); f.t.textContent = label(f, w);\n"
    "  }\n"
    "  document.getElementById('unzoom').style.opacity = z ? '1' : '0.3';\n"
    "}\n"
    "function search() {\n"
    "  var term = prompt('Search frames (regular expression)', '');\n"
    "  var info = document.getElementById('matched'), re, ranges = [], sum = 0, end = "
    "-1;\n"
    "  for (var i = 0; i < frames.length; i++) frames[i].r.setAttribute('fill', "
    "frames[i].fill);\n"
    "  info.textContent = '';\n"
    "  if (!term) return;\n"
    "  try { re = new RegExp(term); } catch (e) { info.textContent = 'bad regex'; "
    "return; }\n"
    "  for (var j = 0; j < frames.length; j++) {\n"
    "    var f = frames[j];\n"
    "    if (f.d > 0 && re.test(f.name)) { f.r.setAttribute('fill', 'rgb(228,54,228)'); "
    "ranges.push([f.x, f.x + f.w]); }\n"
    "  }\n"
    "  ranges.sort(function (a, b) { return a[0] - b[0]; });\n"
    "  for (var k = 0; k < ranges.length; k++) {\n"
    "    var a = Math.max(ranges[k][0], end), b = ranges[k][1];\n"
    "    if (b > a) { sum += b - a; end = b; }\n"
    "  }\n"
    "  info.textContent = 'Matched: ' + (frames[0].w > 0 ? 100 * sum / frames[0].w : "
    "0).toFixed(2) + '%';\n"
    "}\n"
    "window.addEventListener('load', init);\n"
    "]]></script>\n";

/* SCRIPT with its WIDTH/SIDEPX/CHARW placeholders filled in. */
static void write_script(FILE *out)
{
    const char *p = SCRIPT;
    static const struct {
        const char *mark;
        double value;
    } subst[] = {{"WIDTH", WIDTH}, {"SIDEPX", SIDE}, {"CHARW", CHAR_W}};

    while (*p) {
        bool done = false;
        for (size_t i = 0; i < sizeof subst / sizeof subst[0] && !done; i++) {
            size_t n = strlen(subst[i].mark);
            if (strncmp(p, subst[i].mark, n) == 0) {
                fprintf(out, "%g", subst[i].value);
                p += n;
                done = true;
            }
        }
        if (!done)
            fputc(*p++, out);
    }
}

static void write_legend(FILE *out, const flame_tree *t, double y)
{
    double x = SIDE;

    if (t->diff) {
        fprintf(out,
                "<text x=\"%.0f\" y=\"%.0f\" class=\"legend\">red: more in NEW than in "
                "BASE, blue: less (BASE normalised to the same total)</text>\n",
                x, y);
        return;
    }
    for (size_t i = 0; i < sizeof LEGEND; i++) {
        int k = LEGEND[i], rgb[3];

        hsl_to_rgb(KIND_HSL[k][0], KIND_HSL[k][1], KIND_HSL[k][2], rgb);
        fprintf(out,
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" "
                "fill=\"rgb(%d,%d,%d)\"/><text x=\"%.0f\" y=\"%.0f\" "
                "class=\"legend\">%s</text>\n",
                x, y - 9, rgb[0], rgb[1], rgb[2], x + 14, y, KIND_LABEL[k]);
        x += 14 + CHAR_W * (double)strlen(KIND_LABEL[k]) + 16;
    }
}

/* `v` as "%.17g" writes it, then `after` */
static void put_g17(strbuf *sb, double v, const char *after)
{
    char *at = sb_extend(sb, DECIMAL_TEXT_ROOM);

    sb->len = (size_t)(at - sb->ptr) + g17_text(at, v);
    sb_puts(sb, after);
}

/* The <g> of one node, its colour `rgb`, at (px, y), `w` wide. */
static void put_frame(strbuf *sb, const flame_tree *t, const flame_node *n, double x,
                      double px, double y, double w, const int rgb[3], double total)
{
    size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

    sb_puts(sb, "<g data-x=\"");
    put_g17(sb, x, "\" data-w=\"");
    put_g17(sb, n->value, "\" data-d=\"");
    sb_put_u64(sb, n->depth);
    sb_puts(sb, "\" data-k=\"");
    sb_put_u64(sb, (unsigned)n->kind);
    sb_puts(sb, "\" data-name=\"");
    sb_markup(sb, n->name, SIZE_MAX);
    sb_puts(sb, "\">");
    put_title(sb, t, n, total);
    sb_puts(sb, "<rect x=\"");
    put_fixed(sb, px, 2, "\" y=\"");
    put_fixed(sb, y, 0, "\" width=\"");
    put_fixed(sb, w, 2, "\" height=\"");
    sb_put_u64(sb, FRAME_H - 1);
    sb_puts(sb, "\" fill=\"rgb(");
    for (int k = 0; k < 3; k++) {
        sb_put_i64(sb, rgb[k]);
        sb_putc(sb, k < 2 ? ',' : ')');
    }
    sb_puts(sb, "\" rx=\"2\" ry=\"2\"/><text x=\"");
    put_fixed(sb, px + 3, 2, "\" y=\"");
    put_fixed(sb, y + FRAME_H - 4, 0, "\">");
    if (fit >= 3) {
        if (utf8_length(n->name) <= fit) {
            sb_markup(sb, n->name, SIZE_MAX);
        } else {
            sb_markup(sb, n->name, fit - 2);
            sb_puts(sb, "..");
        }
    }
    sb_puts(sb, "</text></g>\n");
}

/* The <g> of each node wide enough to see, made in `sb` and written at
 * once; next_x[d] is where the next node at depth d starts. */
static void write_frames(FILE *out, strbuf *sb, const flame_tree *t, const flame_batch *b,
                         double *next_x, double scale, uint32_t max_depth, double total)
{
    size_t mixes = 0;

    for (size_t i = 0; i < b->count; i++) {
        const flame_node node = flame_batch_node(t, b, i, &mixes), *n = &node;
        double x = next_x[n->depth], w = n->value * scale;
        double px = SIDE + x * scale, y = TOP + (double)(max_depth - n->depth) * FRAME_H;
        int rgb[3];

        next_x[n->depth] += n->value;
        next_x[n->depth + 1] = x;
        if (w < MIN_WIDTH)
            continue;
        if (t->diff)
            diff_colour(n, rgb);
        else
            kind_colour(n, rgb);
        put_frame(sb, t, n, x, px, y, w, rgb, total);
    }
    fwrite(sb->ptr ? sb->ptr : "", 1, sb->len, out);
    sb_clear(sb);
}

void flame_write_svg(FILE *out, const flame_tree *t, const char *title)
{
    uint32_t max_depth = t->max_depth;
    double total, scale, height;
    double *next_x;
    flame_batch *b = xmalloc(sizeof *b);
    strbuf frames = {0};
    flame_iter it;

    flame_iter_init(&it, t, FLAME_NEED_VALUE);
    total = flame_iter_read(&it, b) ? b->value[0] : 0;
    height = TOP + (double)(max_depth + 1) * FRAME_H + BOTTOM;
    scale = total > 0 ? (WIDTH - 2 * SIDE) / total : 0;
    next_x = xcalloc((size_t)max_depth + 2, sizeof *next_x);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
    fprintf(out,
            "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            WIDTH, height, WIDTH, height);
    fputs("<style type=\"text/css\">\n"
          "text { font-family: Menlo, Consolas, \"DejaVu Sans Mono\", monospace; "
          "font-size: 12px; fill: #000; }\n"
          "#frames g { cursor: pointer; }\n"
          "#frames g:hover rect { stroke: #000; stroke-width: 0.5; }\n"
          ".title { font-size: 17px; font-family: sans-serif; }\n"
          ".legend, .button, #matched { font-family: sans-serif; font-size: 12px; }\n"
          ".button { cursor: pointer; fill: #0645ad; }\n"
          "</style>\n",
          out);
    write_script(out);
    fprintf(out,
            "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\"/>\n",
            WIDTH, height);
    fprintf(out, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" class=\"title\">",
            WIDTH / 2);
    markup_text(out, title, SIZE_MAX);
    fputs("</text>\n", out);
    write_legend(out, t, 44);
    fprintf(out,
            "<text id=\"unzoom\" x=\"%.0f\" y=\"60\" class=\"button\" "
            "style=\"opacity:0.3\">Reset zoom</text>\n",
            SIDE);
    fprintf(out,
            "<text id=\"search\" x=\"%.0f\" y=\"60\" class=\"button\" "
            "text-anchor=\"end\">Search</text>\n",
            WIDTH - SIDE);
    fprintf(out,
            "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"></text>\n",
            WIDTH - SIDE, height - 10);
    /* the hovered frame's <title>, as FlameGraph's detail line shows it */
    fprintf(out, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", SIDE,
            height - 10);
    if (t->hint && *t->hint) { /* a nearly empty kind: which one has the samples */
        fprintf(out,
                "<text x=\"%.0f\" y=\"60\" text-anchor=\"middle\" class=\"hint\" "
                "style=\"font-family: sans-serif; font-size: 12px; fill: #a35200\">",
                WIDTH / 2);
        markup_text(out, t->hint, SIZE_MAX);
        fputs("</text>\n", out);
    }
    fputs("<g id=\"frames\">\n", out);
    flame_iter_init(&it, t, FLAME_NEED_ALL);
    /* under a node too narrow to draw every node is narrower still */
    flame_iter_prune(&it, scale, MIN_WIDTH);
    while (flame_iter_read(&it, b) > 0)
        write_frames(out, &frames, t, b, next_x, scale, max_depth, total);
    fputs("</g>\n</svg>\n", out);
    sb_free(&frames);
    free(next_x);
    free(b);
}
