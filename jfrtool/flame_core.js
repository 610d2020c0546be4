// The flame graph drawing shared by flame.html and report.html (issue 27).
// Makefile.am puts this file into both pages at build time, in place of
// their "//@@FLAME_CORE@@" line. Pages own their layout, header and events;
// this owns the palette, the tree geometry, drawing, hit testing and search.
const FlameCore = (function () {
"use strict";
// by "k" code (jfrtool/flame_tree.h): the Java palette of FlameGraph and
// async-profiler, as jfrtool's SVG draws it (issue 26)
const KINDS = [ // label, hue, saturation, lightness
  ["JIT compiled", 120, 60, 55], ["inlined", 180, 55, 55], ["interpreted", 120, 40, 78],
  ["native", 0, 68, 62], ["C++ (JVM)", 60, 58, 50], ["synthetic", 0, 0, 72],
  ["root", 0, 0, 80], ["unknown", 300, 12, 70], ["kernel", 33, 100, 45]];
const NK = KINDS.length, LEGEND = [0, 1, 2, 4, 3, 8, 5], ROOT = 6;
const MATCH = "#e436e4", ROW = 17, MINW = 0.5;
const FONT = '12px Menlo, Consolas, "DejaVu Sans Mono", monospace';

function hash(s) { // FNV-1a, 32 bit
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return h >>> 0;
}
const kindOf = (k) => k < NK ? k : 7;
const kindLabel = (k) => KINDS[kindOf(k)][0];
const legendColour = (k) => `hsl(${KINDS[k][1]},${KINDS[k][2]}%,${KINDS[k][3]}%)`;

// The tree of a page's data ({names, n, k, d, v}) with its geometry.
// Nodes are in pre-order, so the subtree of i is the index range [i, end[i]).
// x0[i] is the node's left edge in value units (sum of earlier siblings plus
// the parent's left edge); kids[i] ends up as the sum of the children's values.
function Tree(data) {
  const N = data.n.length;
  this.names = data.names; this.N = N;
  this.nameIx = Int32Array.from(data.n); this.kind = Uint8Array.from(data.k);
  this.depth = Int32Array.from(data.d);
  this.val = Float64Array.from(data.v);                     // Float64: byte/ns weights exceed 2^31
  const end = this.end = new Int32Array(N), par = this.par = new Int32Array(N);
  const x0 = this.x0 = new Float64Array(N), kids = this.kids = new Float64Array(N);
  const depth = this.depth, val = this.val, stack = [];
  let maxDepth = 0;
  for (let i = 0; i < N; i++) {
    const d = depth[i];
    while (stack.length > d) end[stack.pop()] = i;
    if (d > 0 && stack.length >= d) {
      const p = stack[d - 1];
      par[i] = p; x0[i] = x0[p] + kids[p]; kids[p] += val[i];
    } else { par[i] = -1; }
    stack.push(i);
    if (d > maxDepth) maxDepth = d;
  }
  while (stack.length) end[stack.pop()] = N;
  this.maxDepth = maxDepth;
  this.colCache = new Map();
}
Tree.prototype.name = function (i) { return this.names[this.nameIx[i]]; };
Tree.prototype.isAnc = function (a, i) { return a <= i && i < this.end[a]; }; // a is i or an ancestor of i
Tree.prototype.kindColour = function (i) {
  const k = kindOf(this.kind[i]), key = this.nameIx[i] * NK + k;
  let c = this.colCache.get(key);
  if (c === undefined) {
    const h = hash(this.name(i)), K = KINDS[k];
    // small deterministic jitter so neighbouring frames are distinguishable
    const dh = K[2] ? ((h & 255) / 255 - 0.5) * 12 : 0, dl = (((h >>> 8) & 255) / 255 - 0.5) * 10;
    c = `hsl(${(K[1] + dh).toFixed(1)},${K[2]}%,${(K[3] + dl).toFixed(1)}%)`;
    this.colCache.set(key, c);
  }
  return c;
};
// Calls f(i, x, w) for the frames visible under zoom in a width of W px,
// skipping subtrees narrower than MINW; the zoomed frame's ancestors excluded.
Tree.prototype.eachVisible = function (zoom, W, f) {
  const s = W / (this.val[zoom] || 1), ox = this.x0[zoom], val = this.val, end = this.end;
  for (let i = zoom + 1, e = end[zoom]; i < e;) {
    const w = val[i] * s;
    if (w < MINW) { i = end[i]; continue; }                  // children are narrower still: skip subtree
    f(i, (this.x0[i] - ox) * s, w);
    i++;
  }
};
// The frame at depth d under horizontal position px, or -1: walks down from
// the zoomed frame, no per-draw bookkeeping.
Tree.prototype.nodeAt = function (zoom, W, px, d) {
  if (!this.N || px < 0 || px >= W || d < 0 || d > this.maxDepth) return -1;
  const depth = this.depth, par = this.par, x0 = this.x0, val = this.val, end = this.end;
  if (d <= depth[zoom]) { let a = zoom; while (depth[a] > d) a = par[a]; return a; }
  const s = W / (val[zoom] || 1), target = x0[zoom] + px / s;
  let p = zoom;
  while (depth[p] < d) {
    let c = p + 1, found = -1;
    for (; c < end[p]; c = end[c]) if (target >= x0[c] && target < x0[c] + val[c]) { found = c; break; }
    if (found < 0) return -1;
    p = found;
  }
  return val[p] * s < MINW ? -1 : p;
};
// Search by regular expression: matchName[nameIndex] is 1 for a match; every
// matching frame counts, but a value is added only for the outermost match of
// each nested chain so recursion is not counted twice. null for a bad pattern.
Tree.prototype.search = function (re) {
  const matchName = new Uint8Array(this.names.length);
  for (let j = 0; j < this.names.length; j++) matchName[j] = re.test(this.names[j]) ? 1 : 0;
  let value = 0, count = 0, coverEnd = 0;
  for (let i = 0; i < this.N; i++) {
    if (this.kind[i] === ROOT || !matchName[this.nameIx[i]]) continue;
    count++;
    if (i >= coverEnd) { value += this.val[i]; coverEnd = this.end[i]; }
  }
  return { matchName: matchName, value: value, count: count };
};
// Draws the tree on ctx (W x H CSS px at dpr): the zoomed frame and its
// ancestors full width, then the visible subtree. rowY(depth) gives the top
// of a row; colour(i) the fill; matchName (or null) the search hits.
function draw(ctx, t, o) {
  ctx.setTransform(o.dpr, 0, 0, o.dpr, 0, 0);
  ctx.clearRect(0, 0, o.W, o.H);
  if (!t || !t.N) return;
  ctx.font = FONT; ctx.textBaseline = "middle";
  const charW = ctx.measureText("MMMMMMMMMM").width / 10;
  const box = (i, x, w) => {
    const y = o.rowY(t.depth[i]);
    ctx.fillStyle = (o.matchName && t.kind[i] !== ROOT && o.matchName[t.nameIx[i]]) ? MATCH : o.colour(i);
    ctx.fillRect(x, y, w > 2 ? w - 1 : w, ROW - 1);           // 1 px gap between frames
    const room = Math.floor((w - 6) / charW);
    if (room < 3) return;
    let s = t.name(i);
    // too long: drop the package ("java.util.HashMap.get" -> "HashMap.get"), then cut the end
    if (s.length > room) s = s.replace(/^(?:[a-z_][\w$]*\.)+(?=[A-Z])/, "");
    ctx.fillStyle = "#000";
    ctx.fillText(s.length <= room ? s : s.slice(0, room - 1) + "\u2026", x + 3, y + ROW / 2);
  };
  for (let a = o.zoom; a >= 0; a = t.par[a]) box(a, 0, o.W);  // zoomed frame and its ancestors
  t.eachVisible(o.zoom, o.W, box);
}
// Sizes a canvas for the tree: W CSS px wide, one row per depth; browsers
// refuse canvases taller than ~32k device px, so very deep stacks are cut off.
function size(canvas, t, W) {
  const dpr = window.devicePixelRatio || 1;
  const H = Math.max(ROW, Math.min((t ? t.maxDepth + 1 : 1) * ROW, Math.floor(32000 / dpr / ROW) * ROW));
  canvas.style.width = W + "px"; canvas.style.height = H + "px";
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  return { W: W, H: H, dpr: dpr };
}
return { KINDS: KINDS, LEGEND: LEGEND, MATCH: MATCH, ROW: ROW, MINW: MINW, hash: hash,
  kindLabel: kindLabel, legendColour: legendColour, Tree: Tree, draw: draw, size: size };
})();
