// elcheck explorer: the page keeps no state of its own but the location's
// hash: the configuration (ids, init, net, ch), the path of event choices
// (path) and how far along it the page shows (at). Every state is asked of
// the server (/api/state), which takes the steps with elcheck's own
// transition system; back and forward only move "at".
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let cfgQuery = "", path = [], at = 0, current = null;

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  path = (h.get("path") || "").split(",").filter((s) => s !== "").map(Number);
  at = h.has("at") ? Math.max(0, Math.min(path.length, Number(h.get("at")))) : path.length;
  h.delete("path");
  h.delete("at");
  cfgQuery = h.toString();
}

function go(newPath, newAt) {
  path = newPath;
  at = newAt;
  const h = cfgQuery + "&path=" + path.join(",") + "&at=" + at;
  if (location.hash.slice(1) === h) load();
  else location.hash = h; // hashchange loads it
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = !msg;
}

function showNote(msg) {
  const e = $("note");
  e.textContent = msg;
  e.hidden = !msg;
}

// api asks the server, or, in the WebAssembly build (make web), elcheck
// running in this page (window.elcheckLocal, set by wasm.js).
async function api(url, opts) {
  let status, text;
  if (window.elcheckLocal) {
    const r = await window.elcheckLocal((opts && opts.method) || "GET", url, opts && opts.body);
    status = r.status;
    text = r.body;
  } else {
    const r = await fetch(url, opts);
    status = r.status;
    text = await r.text();
  }
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new Error("the answer is not JSON (" + status + ")");
  }
  if (status >= 400) throw new Error(body.error || "error " + status);
  return body;
}

async function load() {
  document.body.dataset.busy = "yes";
  try {
    const st = await api("api/state?" + cfgQuery + "&path=" + path.slice(0, at).join(","));
    current = st;
    showError("");
    render(st);
  } catch (e) {
    showError(e.message);
  } finally {
    document.body.dataset.at = String(at);
    document.body.dataset.steps = String(path.length);
    document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
    document.body.dataset.busy = "no";
  }
}

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function render(st) {
  $("config").textContent = st.config;
  $("position").textContent = "step " + at + " of " + path.length;
  $("start").disabled = $("back").disabled = at === 0;
  $("forward").disabled = $("end").disabled = at >= path.length;
  drawNetwork(st);
  const ev = $("events");
  ev.replaceChildren();
  const next = at < path.length ? path[at] : -1;
  for (const e of st.enabled) {
    const b = el("button", { "data-index": e.index }, "#" + e.index + "  " + e.label);
    if (e.index === next) b.className = "next";
    b.onclick = () => choose(e.index);
    ev.append(b);
  }
  if (st.enabled.length === 0) {
    ev.append(el("p", { class: "none" }, st.failed ? "the last step failed: " + st.failed : "no event is enabled: the execution has ended"));
  }
  const tb = $("props").tBodies[0];
  tb.replaceChildren();
  for (const p of st.properties) {
    const tr = el("tr", { class: p.status, "data-prop": p.name, "data-status": p.status });
    tr.append(el("td", {}, p.name), el("td", {}, p.status), el("td", {}, p.detail || ""));
    tb.append(tr);
  }
  const ol = $("steps");
  ol.replaceChildren();
  st.steps.forEach((s, k) => ol.append(el("li", { class: k === at - 1 ? "now" : "" }, s)));
  for (let k = at; k < path.length; k++) ol.append(el("li", { class: "future" }, "(ahead: event #" + path[k] + ")"));
  $("chart").innerHTML = st.chart; // drawn by elcheck's counterexamples package, text escaped there
}

function drawNetwork(st) {
  const svg = $("network");
  svg.replaceChildren();
  const defs = el("svg:defs");
  const mk = el("svg:marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
  mk.append(el("svg:path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#555" }));
  defs.append(mk);
  svg.append(defs);
  const n = st.processes.length, cx = 330, cy = 265, R = n <= 2 ? 120 : 175, r = 30;
  const pos = st.topology === "tree" && n > 2 ? treeLayout(st, cx, cy) : st.processes.map((_, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return { x: cx + R * Math.cos(a), y: cy + R * Math.sin(a), dx: Math.cos(a), dy: Math.sin(a) };
  });
  const pairs = new Set(st.edges.map((e) => e.from + ">" + e.to));
  st.edges.forEach((e) => {
    const A = pos[e.from], B = pos[e.to];
    let ux = B.x - A.x, uy = B.y - A.y;
    const len = Math.hypot(ux, uy) || 1;
    ux /= len; uy /= len;
    // the normal on the edge's right; two-way pairs are drawn apart
    let nx = -uy, ny = ux;
    const mx = (A.x + B.x) / 2, my = (A.y + B.y) / 2;
    const outward = (mx - cx) * nx + (my - cy) * ny >= 0;
    const two = pairs.has(e.to + ">" + e.from);
    const off = two ? 7 : 0;
    if (!two && !outward) { nx = -nx; ny = -ny; }
    const x1 = A.x + ux * (r + 4) + nx * off, y1 = A.y + uy * (r + 4) + ny * off;
    const x2 = B.x - ux * (r + 6) + nx * off, y2 = B.y - uy * (r + 6) + ny * off;
    svg.append(el("svg:line", { class: "chan" + (e.messages.length ? " full" : ""), x1, y1, x2, y2, "marker-end": "url(#arrow)" }));
    if (e.messages.length) {
      const d = off + 12, lx = mx + nx * d, ly = my + ny * d + 4;
      const anchor = nx > 0.3 ? "start" : nx < -0.3 ? "end" : "middle";
      svg.append(el("svg:text", { class: "msgs", x: lx, y: ly, "text-anchor": anchor, "data-edge": e.from + ">" + e.to }, e.messages.join(" ")));
    }
  });
  const acting = current && at < path.length ? (st.enabled.find((e) => e.index === path[at]) || {}).process : undefined;
  st.processes.forEach((p, i) => {
    const P = pos[i];
    const g = el("svg:g", { class: "proc " + p.decision + (p.asleep ? " asleep" : "") + (i === acting ? " acting" : ""), "data-proc": i });
    g.append(el("svg:circle", { cx: P.x, cy: P.y, r }));
    g.append(el("svg:text", { class: "pname", x: P.x, y: P.y - 3, "text-anchor": "middle" }, "p" + i));
    g.append(el("svg:text", { class: "pid", x: P.x, y: P.y + 14, "text-anchor": "middle" }, "id " + p.id));
    const tx = P.x + P.dx * (r + 10);
    // above a process near the top, a second line goes above the first
    const ty = P.y + P.dy * (r + 14) + 4 - (p.asleep && P.dy < -0.3 ? 14 : 0);
    const anchor = P.dx > 0.3 ? "start" : P.dx < -0.3 ? "end" : "middle";
    g.append(el("svg:text", { class: "pstate", x: tx, y: ty, "text-anchor": anchor }, p.state));
    if (p.asleep) g.append(el("svg:text", { class: "pwake", x: tx, y: ty + 14, "text-anchor": anchor }, "wake-up pending"));
    if (p.held) g.append(el("svg:text", { class: "pwake", x: tx, y: ty + 14, "text-anchor": anchor }, "blocked, holds " + p.held.join(", ")));
    svg.append(g);
  });
}

// treeLayout draws a tree in levels from a centre (a node of least
// eccentricity), children under their parent, spread evenly by leaves.
function treeLayout(st, cx, cy) {
  const n = st.processes.length, adj = st.processes.map(() => []);
  st.edges.forEach((e) => { if (!adj[e.from].includes(e.to)) adj[e.from].push(e.to); });
  const bfs = (root) => {
    const depth = Array(n).fill(-1), parent = Array(n).fill(-1), order = [root];
    depth[root] = 0;
    for (let k = 0; k < order.length; k++) {
      for (const w of adj[order[k]]) if (depth[w] < 0) { depth[w] = depth[order[k]] + 1; parent[w] = order[k]; order.push(w); }
    }
    return { depth, parent, order };
  };
  let root = 0, best = Infinity;
  for (let v = 0; v < n; v++) { const e = Math.max(...bfs(v).depth); if (e < best) { best = e; root = v; } }
  const { depth, parent, order } = bfs(root);
  const kids = st.processes.map(() => []);
  order.slice(1).forEach((v) => kids[parent[v]].push(v));
  const leaves = (v) => (kids[v].length ? kids[v].reduce((s, w) => s + leaves(w), 0) : 1);
  const pos = Array(n), W = 560, H = 380, levels = Math.max(1, best);
  const place = (v, left, width) => {
    pos[v] = { x: cx - W / 2 + left + width / 2, y: cy - H / 2 + (H * depth[v]) / levels, dx: 0, dy: -1 };
    let at = left;
    for (const w of kids[v]) { const share = (width * leaves(w)) / leaves(v); place(w, at, share); at += share; }
  };
  place(root, 0, W);
  // labels go beside a node, on the side away from the centre line
  pos.forEach((P) => { P.dx = P.x >= cx ? 1 : -1; P.dy = 0; });
  return pos;
}

function choose(i) {
  if (at < path.length && path[at] === i) go(path, at + 1);
  else go(path.slice(0, at).concat([i]), at + 1);
}

async function jump(p) {
  showNote("");
  document.body.dataset.busy = "yes";
  try {
    const j = await p;
    showError("");
    showNote(j.note + (j.property ? " (" + j.property + ": " + j.detail + ")" : ""));
    if (j.found) {
      cfgQuery = j.query;
      go(j.path, 0);
      return;
    }
  } catch (e) {
    showError(e.message);
  }
  document.body.dataset.busy = "no";
}

$("start").onclick = () => go(path, 0);
$("back").onclick = () => go(path, Math.max(0, at - 1));
$("forward").onclick = () => go(path, Math.min(path.length, at + 1));
$("end").onclick = () => go(path, path.length);
$("jump-cex").onclick = () => jump(api("api/counterexample"));
$("jump-worst").onclick = () => jump(api("api/worst"));
$("trace-file").onchange = async (ev) => {
  const f = ev.target.files[0];
  if (!f) return;
  const text = await f.text();
  ev.target.value = "";
  jump(api("api/trace", { method: "POST", headers: { "Content-Type": "application/json" }, body: text }));
};
// measureBounds asks for the messages of every configuration of n = 1..N
// (api/bounds) and shows them as a table and elcheck bounds -plot's plot.
async function measureBounds() {
  const box = $("bounds-box");
  $("measure").disabled = true;
  box.dataset.busy = "yes";
  $("bounds-note").hidden = false;
  $("bounds-note").textContent = "measuring: every configuration of every n is explored...";
  try {
    const b = await api("api/bounds");
    showError("");
    $("bounds-note").textContent = b.note;
    const tb = $("bounds-table").tBodies[0];
    tb.replaceChildren();
    for (const r of b.rows) {
      const tr = el("tr", { class: r.status || "", "data-n": r.n });
      const bound = r.bound === undefined ? "none declared" : r.bound + " (" + r.status + ")";
      const configs = r.measured === r.configs ? String(r.configs) : r.measured + " of " + r.configs;
      for (const v of [r.n, configs, r.min, r.mean, r.max, bound, r.note || ""]) tr.append(el("td", {}, String(v)));
      tb.append(tr);
    }
    $("bounds-table").hidden = b.rows.length === 0;
    $("bounds-plot").innerHTML = b.svg || ""; // drawn by elcheck's bounds package, text escaped there
    box.dataset.complete = b.complete ? "yes" : "no";
  } catch (e) {
    showError(e.message);
    $("bounds-note").textContent = "";
    $("measure").disabled = false;
  } finally {
    box.dataset.busy = "no";
  }
}

$("measure").onclick = measureBounds;
window.addEventListener("hashchange", () => { readHash(); load(); });

(async function init() {
  try {
    if (window.elcheckReady) await window.elcheckReady;
    const info = await api("api/info");
    $("algo").textContent = info.algo + " (n=" + info.n + ")";
    $("doc").textContent = info.doc + (info.bug ? " (buggy variant: " + info.bug + ")" : "");
    document.title = "elcheck explorer: " + info.algo;
    $("measure").textContent = "measure messages for n = 1.." + info.bounds_n;
    $("measure").disabled = false;
    $("bounds-cap").textContent = "every id placement and initiator set of each n; n is capped at " + info.bounds_cap +
      " on a " + info.topology + " (the page's time limit applies; elcheck bounds -plot=FILE.svg measures larger n)" +
      (window.elcheckLocal ? "; measured in this page, on one thread" : "");
    if (!location.hash) history.replaceState(null, "", "#" + info.query + "&path=&at=0");
  } catch (e) {
    showError(e.message);
  }
  readHash();
  load();
})();
