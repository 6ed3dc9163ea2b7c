// clconv serve's page: explain as you type, a bit editor, a vector view per
// mode and lane, and a snippet runner. No library, no network but the
// server that sent it.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : String(k));
  return e;
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: "bad answer from the server" }; }
  return { ok: r.ok, status: r.status, data };
}

// ---- explain ----

let report = null;      // the last report shown
let selected = [];      // selected lane per conversion
let explainSeq = 0;

async function explainNow() {
  const seq = ++explainSeq;
  const expr = $("expr").value;
  if (expr.trim() === "") { showReport(null, ""); return; }
  const r = await post("/api/explain", { expr, mode: $("mode").value });
  if (seq !== explainSeq) return; // a newer request is on its way
  if (!r.ok) { showReport(null, r.data.error); return; }
  selected = r.data.conversions.map(() => 0);
  showReport(r.data, "");
}

function showReport(rep, err) {
  report = rep;
  const errBox = $("explain-error");
  errBox.hidden = !err;
  errBox.textContent = err || "";
  const out = $("explain");
  out.textContent = "";
  if (!rep) return;
  out.append(el("div", { class: "mono", id: "value" }, rep.expr + " = " + rep.value + "   " + rep.bits));
  if (rep.conversions.length === 0) {
    out.append(el("p", {}, "This expression performs no conversion (as_ reinterprets bits)."));
  }
  rep.conversions.forEach((c, ci) => out.append(renderConversion(c, ci)));
  if (rep.omitted > 0) out.append(el("p", {}, rep.omitted + " more conversions not explained."));
}

// shown is a result's exact value, or its shortest decimal when the exact
// one is long.
function shown(r) { return r.exact.length > 24 ? r.value : r.exact; }

function resultLabel(r) { return r.mode + (r.sat ? " _sat" : ""); }

function renderConversion(c, ci) {
  const box = el("div", { class: "conv", id: "conv" + ci });
  box.append(el("div", { class: "conv-head mono" },
    `${c.pos}  ${c.function}: ${c.from} \u2192 ${c.to} (${c.kind}, rounds ${c.mode}${c.sat ? ", _sat" : ""}) = ${c.result}`));
  // Every mode side by side, a column per lane.
  const t = el("table", { class: "modes" });
  const head = el("tr", {}, el("th", {}, "mode"));
  c.lanes.forEach((l, li) => {
    const th = el("th", { class: "lane" + (li === selected[ci] ? " sel" : ""), title: "show this lane's bits" },
      c.lanes.length > 1 ? "lane " + li : "result");
    th.addEventListener("click", () => { selected[ci] = li; rerender(ci); });
    head.append(th);
  });
  t.append(head);
  c.lanes[0].results.forEach((r0, j) => {
    const tr = el("tr", {}, el("th", {}, resultLabel(r0)));
    c.lanes.forEach((l) => {
      const r = l.results[j];
      tr.append(el("td", { class: r.own ? "own" : "", title: r.rule.id + ": " + r.rule.text }, shown(r) + " ", el("span", { class: "cite" }, r.bits)));
    });
    t.append(tr);
  });
  box.append(t);
  box.append(renderLane(c, ci, c.lanes[selected[ci]]));
  return box;
}

function rerender(ci) {
  const old = $("conv" + ci);
  old.replaceWith(renderConversion(report.conversions[ci], ci));
}

function renderLane(c, ci, l) {
  const d = el("div", { class: "lane-detail" });
  if (c.lanes.length > 1) d.append(el("h3", {}, "lane " + l.lane));
  const s = l.source;
  d.append(el("div", { class: "mono" }, `source ${s.type} ${s.bits} = ${s.exact}` + (l.edited ? "  (bits edited)" : "")));
  // The bit editor: most significant bit first.
  const f = l.fields;
  // e8m0 has no sign and no fraction field: those parts are absent.
  const parts = f.integer ? [["int", f.integer]] : [["sign", f.sign || ""], ["exp", f.exponent], ["frac", f.fraction || ""]];
  const width = parts.reduce((n, p) => n + p[1].length, 0);
  const bits = el("div", { class: "bits", id: "bits" + ci });
  let pos = width - 1;
  for (const [cls, str] of parts) {
    [...str].forEach((ch, k) => {
      const bitPos = pos--;
      bits.append(el("button", {
        class: "bit " + cls + (k === 0 && cls !== "sign" && cls !== "int" ? " gap" : ""),
        "data-bit": bitPos, title: "bit " + bitPos + ": click to flip",
        onclick: () => flip(ci, l, bitPos),
      }, ch));
    });
  }
  d.append(bits);
  let fl = f.integer ? `${f.class} integer` : (f.sign ? `sign ${f.sign} | ` : "") + `exponent ${f.exponent}` +
    (f.fraction ? ` | fraction ${f.fraction}` : "") + `  (${f.class}` +
    (f.exponent_value !== undefined ? `, 2^${f.exponent_value})` : ")");
  d.append(el("div", { class: "mono cite" }, fl));
  // A neighbour without bits is a value the type has no pattern for (e4m3's 480).
  const nb = (n) => n ? (n.bits ? `${n.bits} = ${n.exact}` : n.exact) + (n.note ? `  (${n.note})` : "") : "none";
  if (l.exact) d.append(el("div", { class: "mono" }, `in ${l.to}: exact ${nb(l.below)}`));
  else if (!l.below && !l.above) d.append(el("div", { class: "mono" }, `in ${l.to}: no neighbours (NaN)`));
  else {
    d.append(el("div", { class: "mono" }, `in ${l.to}: below ${nb(l.below)}`));
    d.append(el("div", { class: "mono" }, `${" ".repeat(l.to.length + 4)}above ${nb(l.above)}`));
  }
  const t = el("table", { class: "results", id: "results" + ci },
    el("tr", {}, el("th", {}, "mode"), el("th", {}, "result"), el("th", {}, "bits"), el("th", {}, "rule")));
  for (const r of l.results) {
    t.append(el("tr", {},
      el("th", {}, resultLabel(r)),
      el("td", { class: r.own ? "own" : "" }, shown(r)),
      el("td", { class: r.own ? "own" : "" }, r.bits),
      el("td", { class: "rule" }, el("b", {}, r.rule.id), ": " + r.rule.text, el("div", { class: "cite" }, r.rule.cite))));
  }
  d.append(t);
  return d;
}

async function flip(ci, l, bitPos) {
  const c = report.conversions[ci];
  const f = l.fields;
  const width = f.integer ? f.integer.length : (f.sign || "").length + f.exponent.length + (f.fraction || "").length;
  const b = BigInt(l.source.bits) ^ (1n << BigInt(bitPos));
  const hex = "0x" + b.toString(16).padStart(Math.ceil(width / 4), "0");
  const r = await post("/api/lane", { from: l.source.type, to: l.to, bits: hex, mode: c.mode, sat: c.sat });
  if (!r.ok) { $("explain-error").hidden = false; $("explain-error").textContent = r.data.error; return; }
  const nl = r.data;
  nl.lane = l.lane;
  nl.edited = true;
  c.lanes[l.lane] = nl;
  rerender(ci);
}

let timer = 0;
$("expr").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(explainNow, 120); });
$("mode").addEventListener("change", explainNow);

// ---- snippets ----

let errorLines = new Map(); // line -> message

function paintLines() {
  const lines = $("src").value.split("\n");
  const gutter = $("gutter"), back = $("backdrop");
  gutter.textContent = "";
  back.textContent = "";
  lines.forEach((text, i) => {
    const msg = errorLines.get(i + 1);
    const g = el("div", { class: msg ? "err" : "", "data-line": i + 1 }, String(i + 1));
    if (msg) g.title = msg;
    gutter.append(g);
    back.append(el("div", { class: msg ? "err" : "" }, text || " "));
  });
  syncScroll();
}

function syncScroll() {
  $("gutter").scrollTop = $("src").scrollTop;
  $("backdrop").scrollTop = $("src").scrollTop;
  $("backdrop").scrollLeft = $("src").scrollLeft;
}

function formatVar(v) {
  const val = v.value.length > 1 ? "(" + v.value.join(", ") + ")" : v.value[0];
  return `${v.name} = (${v.type})${val}`;
}

async function runNow() {
  const r = await post("/api/run", { src: $("src").value, mode: $("mode").value });
  errorLines = new Map();
  const list = $("errors");
  list.textContent = "";
  if (!r.ok) {
    const errs = r.data.errors && r.data.errors.length ? r.data.errors : [{ line: 0, col: 0, message: r.data.error, detail: r.data.error }];
    for (const e of errs) {
      if (e.line > 0 && !errorLines.has(e.line)) errorLines.set(e.line, e.message);
      list.append(el("li", { "data-line": e.line }, e.line > 0 ? `line ${e.line}:${e.col}: ${e.message}` : e.message));
    }
    $("out").textContent = "";
  } else {
    for (const w of r.data.warnings) list.append(el("li", { class: "warn" }, `line ${w.line}:${w.col}: ${w.message}`));
    $("out").textContent = r.data.vars.map(formatVar).join("\n");
  }
  paintLines();
}

$("src").addEventListener("input", paintLines);
$("src").addEventListener("scroll", syncScroll);
$("src").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runNow(); } });
$("run").addEventListener("click", runNow);

paintLines();
explainNow();
runNow();
