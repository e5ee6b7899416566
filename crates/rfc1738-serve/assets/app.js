// The rfc1738 explorer. Everything typed is hostile input: it reaches the
// page only through textContent and attribute values, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

// A byte offset in the UTF-8 of `s` as an index into `s`.
function byteToIndex(s, offset) {
  let bytes = 0;
  let i = 0;
  while (i < s.length && bytes < offset) {
    const cp = s.codePointAt(i);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

// Text as bytes: the slice [start, end) of the UTF-8 of `s`.
function sliceBytes(s, start, end) {
  return s.slice(byteToIndex(s, start), byteToIndex(s, end));
}

// Control characters shown as their pictures, so the caret stays aligned.
function printable(s) {
  return s.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    String.fromCharCode(c === "\u007f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

// %XX decoded; what is not UTF-8 or is a control octet stays escaped, so
// that what is shown is what the URL holds.
function decodePct(raw) {
  if (!raw.includes("%")) return raw;
  const bytes = [];
  for (let i = 0; i < raw.length; i++) {
    const m = /^%[0-9A-Fa-f]{2}/.exec(raw.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(raw[i]));
    }
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
  } catch (e) {
    return raw;
  }
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) =>
    "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

const CATEGORY = {
  scheme: "scheme", user: "login", password: "login", host: "host", port: "port",
  fragment: "fragment", "http.search": "search", "gopher.search": "search",
  "wais.search": "search", "gopher.plus": "search",
};

function category(part) {
  return CATEGORY[part] || "path";
}

// ---------------------------------------------------------------- one URL

let sequence = 0;

async function show(text) {
  const mine = ++sequence;
  const lenient = $("lenient").checked;
  const link = "/?url=" + encodeURIComponent(text) + (lenient ? "&lenient=true" : "");
  history.replaceState(null, "", link);
  $("link").setAttribute("href", link);
  if (text === "") {
    render(text, null);
    return;
  }
  const res = await fetch("/api/view?url=" + encodeURIComponent(text) + "&lenient=" + lenient);
  const view = await res.json();
  if (mine === sequence) render(text, view);
}

function render(text, view) {
  for (const id of ["drawing", "explain", "normal", "warnings", "caret", "error-text", "verdict"]) clear($(id));
  clear($("parts").tBodies[0]);
  clear($("compare").tBodies[0]);
  clear($("compare-summary"));
  $("error").hidden = true;
  $("verdict").className = "verdict";
  // What is on view, for whoever waits for it (the browser tests).
  document.body.dataset.shown = text;
  if (!view) return;
  const record = view.record;
  if (record.valid) {
    $("verdict").textContent = "valid: a " + record.kind + " URL";
    $("verdict").classList.add("valid");
    drawParts(text, view.spans);
    $("explain").textContent = view.explain.join("\n");
    $("normal").textContent = view.normal;
  } else {
    $("verdict").textContent = "not a URL by RFC 1738";
    $("verdict").classList.add("invalid");
    drawError(text, record.error);
  }
  for (const w of record.warnings) {
    const li = el("li", { class: w.security ? "security" : "warning" });
    li.textContent = w.kind + " at offset " + w.offset + ": " + w.message;
    $("warnings").append(li);
  }
  compare(text, view);
}

function drawParts(text, spans) {
  const drawing = $("drawing");
  const body = $("parts").tBodies[0];
  let at = 0;
  for (const s of spans) {
    if (s.start > at) drawing.append(el("span", { class: "sep" }, sliceBytes(text, at, s.start)));
    const written = sliceBytes(text, s.start, s.end);
    // An empty part that is there (an empty user name, §3.1) is drawn as ∅.
    const shown = el("span", { class: written === "" ? "text empty" : "text" }, written === "" ? "\u2205" : written);
    const part = el("span", { class: "part cat-" + category(s.part), "data-part": s.part },
      shown, el("span", { class: "label" }, s.part + (written === "" ? " (empty)" : "")));
    drawing.append(part);
    body.append(el("tr", { "data-part": s.part },
      el("td", {}, s.part), el("td", { class: "mono" }, written), el("td", { class: "mono" }, decodePct(written))));
    at = s.end;
  }
  const end = new TextEncoder().encode(text).length;
  if (at < end) drawing.append(el("span", { class: "sep" }, sliceBytes(text, at, end)));
}

function drawError(text, error) {
  const shown = printable(text);
  const column = byteToIndex(text, error.offset);
  const caret = $("caret");
  caret.append(shown + "\n" + " ".repeat(column), el("span", { class: "caret" }, "^"));
  $("error-text").textContent =
    error.message + " at offset " + error.offset + " (in " + error.rule + ", §5)";
  $("error").hidden = false;
  $("drawing").append(el("span", { class: "sep" }, text));
}

// ------------------------------------------------ RFC 1738 beside WHATWG

const SPECIAL_PORTS = { "http:": "80", "https:": "443", "ftp:": "21", "ws:": "80", "wss:": "443" };

function partText(text, view, names) {
  for (const s of view.spans) {
    if (names.includes(s.part)) return sliceBytes(text, s.start, s.end);
  }
  return null;
}

function rfcPath(text, view) {
  const r = view.record;
  if (!r.valid) return null;
  if (r.url_path === undefined) {
    const ssp = text.slice(text.indexOf(":") + 1).split("#")[0];
    return ssp;
  }
  if (r.url_path === null) return "";
  const search = partText(text, view, ["http.search", "wais.search"]);
  const path = search === null ? r.url_path : r.url_path.slice(0, r.url_path.length - search.length - 1);
  return "/" + path;
}

const show_ = (v) => (v === null || v === undefined ? "(absent)" : v === "" ? '"" (empty)' : v);

// The rows of the comparison: [part, RFC 1738, WHATWG, why they differ or null].
function rows(text, view, w) {
  const r = view.record;
  const out = [];
  const ok = r.valid;
  out.push(["accepts", ok ? "yes" : "no: " + r.error.message, w ? "yes" : "no: it throws",
    ok !== Boolean(w) ? (ok ? "WHATWG rejects what RFC 1738 accepts" : "WHATWG accepts what RFC 1738 rejects") : null]);
  if (!ok || !w) return out;
  const scheme = w.protocol.slice(0, -1);
  out.push(["scheme", r.scheme, scheme, r.scheme !== scheme ? "the scheme is read differently" : null]);
  const wUser = w.username === "" ? null : decodePct(w.username);
  let userWhy = null;
  if (r.user === "") userWhy = "RFC 1738 keeps an empty user name (§3.1); WHATWG cannot tell it from none";
  else if ((r.user ?? null) !== wUser) userWhy = "the user name differs";
  out.push(["user", show_(r.user), show_(wUser), userWhy]);
  const wPass = w.password === "" ? null : decodePct(w.password);
  let passWhy = null;
  if (r.password === "") passWhy = "RFC 1738 keeps an empty password (§3.1); WHATWG drops it";
  else if ((r.password ?? null) !== wPass) passWhy = "the password differs";
  out.push(["password", show_(r.password), show_(wPass), passWhy]);
  const rHost = r.host === undefined || r.host === null ? null : r.host.toLowerCase();
  const wHost = w.hostname === "" ? null : w.hostname;
  out.push(["host", show_(r.host), show_(wHost), rHost !== wHost ? "another host: the two would connect to different places" : null]);
  const rPort = r.effective_port === undefined || r.effective_port === null ? null : String(r.effective_port);
  const wPort = w.port !== "" ? w.port : SPECIAL_PORTS[w.protocol] || null;
  out.push(["port", show_(rPort), show_(wPort), rPort !== wPort ? "another port" : null]);
  const rPath = rfcPath(text, view);
  out.push(["path", show_(rPath), show_(w.pathname), rPath !== w.pathname ? pathWhy(rPath, w.pathname) : null]);
  const rSearch = partText(text, view, ["http.search", "gopher.search", "wais.search"]);
  const wSearch = w.search === "" ? (text.includes("?") && w.href.includes("?") ? "" : null) : w.search.slice(1);
  out.push(["search", show_(rSearch), show_(wSearch), rSearch !== wSearch ? searchWhy(r) : null]);
  const wHash = w.hash === "" ? (w.href.endsWith("#") ? "" : null) : w.hash.slice(1);
  out.push(["fragment", show_(r.fragment), show_(wHash), (r.fragment ?? null) !== wHash ? "the fragment differs" : null]);
  return out;
}

function pathWhy(rfc, whatwg) {
  if (/%2e/i.test(rfc || "")) return "WHATWG reads an encoded dot segment (%2e) as . or ..; RFC 1738 keeps it as data";
  return "the path differs";
}

function searchWhy(record) {
  if (record.kind === "gopher") return "a gopher search follows an encoded TAB (%09), not ? (§3.4)";
  return "the search differs";
}

function compare(text, view) {
  let w = null;
  try {
    w = new URL(text);
  } catch (e) {
    w = null;
  }
  const body = $("compare").tBodies[0];
  let differ = 0;
  for (const [part, rfc, whatwg, why] of rows(text, view, w)) {
    const tr = el("tr", { "data-part": part },
      el("td", {}, part), el("td", { class: "mono" }, rfc), el("td", { class: "mono" }, whatwg), el("td", {}, why || ""));
    if (why) {
      tr.classList.add("differ");
      differ++;
    }
    body.append(tr);
  }
  $("compare-summary").textContent = differ === 0 ? "(they agree)" : "(" + differ + " disagreement" + (differ > 1 ? "s" : "") + ")";
}

// ------------------------------------------------------------ many lines

let results = [];

async function checkLines() {
  const res = await fetch("/api/check", { method: "POST", body: $("lines").value });
  const text = await res.text();
  if (!res.ok) {
    $("summary").textContent = "error: " + JSON.parse(text).error;
    return;
  }
  results = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const schemes = [...new Set(results.map((r) => r.scheme || "(no scheme)"))].sort();
  const select = $("filter-scheme");
  clear(select);
  select.append(el("option", { value: "" }, "all"));
  for (const s of schemes) select.append(el("option", { value: s }, s));
  summarize();
  table();
  document.body.dataset.checked = String(results.length);
}

function summarize() {
  const valid = results.filter((r) => r.valid).length;
  const lines = ["checked " + results.length + " URLs: " + valid + " valid, " + (results.length - valid) + " invalid"];
  const by = new Map();
  for (const r of results) {
    const k = r.scheme || "(no scheme)";
    const c = by.get(k) || [0, 0];
    c[r.valid ? 0 : 1]++;
    by.set(k, c);
  }
  lines.push("  " + "scheme".padEnd(20) + "valid".padStart(12) + "invalid".padStart(12));
  for (const [k, [v, i]] of [...by].sort((a, b) => b[1][0] + b[1][1] - a[1][0] - a[1][1])) {
    lines.push("  " + k.padEnd(20) + String(v).padStart(12) + String(i).padStart(12));
  }
  const errors = new Map();
  for (const r of results.filter((r) => !r.valid)) {
    const k = r.error.kind + " (" + r.error.rule + ")";
    errors.set(k, (errors.get(k) || 0) + 1);
  }
  for (const [k, n] of [...errors].sort((a, b) => b[1] - a[1])) lines.push("  " + k.padEnd(32) + String(n).padStart(8));
  $("summary").textContent = lines.join("\n");
}

const SHOWN_ROWS = 5000;

function table() {
  const scheme = $("filter-scheme").value;
  const validity = $("filter-valid").value;
  const body = $("results").tBodies[0];
  clear(body);
  const rows = results.filter((r) =>
    (scheme === "" || (r.scheme || "(no scheme)") === scheme) &&
    (validity === "" || (validity === "valid") === r.valid));
  for (const r of rows.slice(0, SHOWN_ROWS)) {
    const error = r.error ? r.error.message + " at offset " + r.error.offset + " (in " + r.error.rule + ")" : "";
    body.append(el("tr", { class: r.valid ? "valid" : "invalid" },
      el("td", {}, String(r.line)), el("td", { class: "mono" }, r.input), el("td", {}, r.scheme || ""),
      el("td", {}, r.valid ? "valid" : "invalid"), el("td", {}, error)));
  }
  if (rows.length > SHOWN_ROWS) {
    body.append(el("tr", {}, el("td", { colspan: "5" }, (rows.length - SHOWN_ROWS) + " more rows not shown")));
  }
}

// ------------------------------------------------------------------ wiring

function selectTab(which) {
  for (const [tab, panel] of [["tab-one", "one"], ["tab-many", "many"]]) {
    const on = panel === which;
    $(tab).setAttribute("aria-selected", String(on));
    $(panel).hidden = !on;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  let timer = null;
  const input = $("url");
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => show(input.value), 60);
  };
  input.addEventListener("input", later);
  $("lenient").addEventListener("change", later);
  $("tab-one").addEventListener("click", () => selectTab("one"));
  $("tab-many").addEventListener("click", () => selectTab("many"));
  $("check").addEventListener("click", checkLines);
  $("filter-scheme").addEventListener("change", table);
  $("filter-valid").addEventListener("change", table);
  const params = new URLSearchParams(location.search);
  $("lenient").checked = params.get("lenient") === "true";
  if (params.has("url")) {
    input.value = params.get("url");
    show(input.value);
  }
});
