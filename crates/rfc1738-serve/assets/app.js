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
  let view;
  let refused = null;
  try {
    const res = await fetch("/api/view?url=" + encodeURIComponent(text) + "&lenient=" + lenient);
    const body = await res.text();
    if (res.ok) view = JSON.parse(body);
    else refused = errorMessage(res.status, body);
  } catch (e) {
    refused = "the server could not be reached (" + e.message + ")";
  }
  if (mine !== sequence) return;
  if (refused !== null) {
    // Nothing of the text before stays on view: only why there is no answer.
    render(text, null);
    $("examples").hidden = true;
    $("verdict").textContent = "No answer for this text: " + refused;
    $("verdict").classList.add("invalid");
    document.body.dataset.refused = "true";
    return;
  }
  render(text, view);
}

// What an error answer of the API says: {"error": {"kind", "message"}}.
function errorMessage(status, body) {
  try {
    const e = JSON.parse(body).error;
    return e.message + " (" + status + ", " + e.kind + ")";
  } catch (_) {
    return "the server answered " + status;
  }
}

function td(label, text, cls) {
  const attrs = { "data-label": label };
  if (cls) attrs.class = cls;
  return el("td", attrs, text);
}

function render(text, view) {
  for (const id of ["drawing", "explain", "normal", "risks", "deviations", "caret", "error-text", "verdict",
    "parts-note", "explain-note", "normal-note", "compare-note", "compare-summary"]) clear($(id));
  clear($("parts").tBodies[0]);
  clear($("compare").tBodies[0]);
  $("error").hidden = true;
  $("verdict").className = "verdict";
  $("examples").hidden = text !== "";
  $("copy-normal").hidden = true;
  // What is on view, for whoever waits for it (the browser tests).
  document.body.dataset.shown = text;
  delete document.body.dataset.refused;
  // No empty boxes: the results show with something in them.
  $("results-one").hidden = !view;
  if (!view) return;
  const record = view.record;
  let warnings = record.warnings;
  if (record.valid) {
    $("verdict").textContent = "valid: " + article(record.kind) + " " + record.kind + " URL" + ($("lenient").checked ? " (read leniently)" : "");
    $("verdict").classList.add("valid");
    drawParts(text, view.spans, text.length);
    partRows(text, view.spans);
    explainLines(view.explain);
    normalForm(view.normal);
  } else {
    const e = record.error;
    $("verdict").textContent = "not a URL by RFC 1738: " + e.message + " at offset " + e.offset;
    $("verdict").classList.add("invalid");
    drawError(text, e);
    const partial = view.partial;
    const end = byteToIndex(text, partial.end);
    drawParts(text, partial.spans, end);
    drawRest(text.slice(end), e);
    const lenient = view.lenient;
    if (lenient) {
      $("parts-note").textContent = "As a lenient reading takes it (RFC 1738 itself stops at offset " + e.offset +
        ", drawn above): each deviation it accepts is a warning below.";
      partRows(text, lenient.spans);
      $("explain-note").textContent = "Not a URL, so a client does nothing with it. A lenient reading would do this:";
      explainLines(lenient.explain);
      $("normal-note").textContent = "A URL that is not one has no normal form. A lenient reading gives:";
      normalForm(lenient.normal);
      warnings = lenient.record.warnings;
    } else {
      $("parts-note").textContent = partial.spans.length
        ? "Read before the error at offset " + e.offset + "; a lenient reading fails too."
        : "Nothing could be read before the error at offset " + e.offset + "; a lenient reading fails too.";
      partRows(text, partial.spans);
      $("explain").textContent = "Nothing: a client cannot use text that is not a URL (" + e.message + ").";
      $("normal").textContent = "None: text that is not a URL has no normal form.";
    }
  }
  // §6 risks apart from the deviations a lenient reading accepted: the
  // first are the RFC's security considerations, the second the input's.
  for (const w of warnings) {
    const li = el("li", { class: w.security ? "security" : "warning" });
    li.textContent = w.kind + " at offset " + w.offset + ": " + w.message;
    $(w.security ? "risks" : "deviations").append(li);
  }
  for (const id of ["risks", "deviations"]) {
    if (!$(id).firstChild) $(id).append(el("li", {}, "none"));
  }
  compare(text, view);
}

// Values longer than this are shown cut, with a button that shows them whole.
const LONG = 160;

// "an" before a scheme name said with a vowel sound (an ftp, an http, an
// nntp URL), else "a".
function article(kind) {
  return /^(ftp|http|nntp|other)$/.test(kind) ? "an" : "a";
}

// A value to show: itself, or when long its start and "show all".
function value(text) {
  if (text.length <= LONG) return document.createTextNode(text);
  const cut = text.slice(0, LONG - 40) + "\u2026";
  const shown = el("span", { class: "value" }, cut);
  const button = el("button", { type: "button", class: "more", "aria-expanded": "false" },
    "show all " + text.length + " characters");
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") === "true";
    shown.textContent = open ? cut : text;
    button.setAttribute("aria-expanded", String(!open));
    button.textContent = open ? "show all " + text.length + " characters" : "show less";
  });
  return el("span", { class: "long" }, shown, " ", button);
}

// A button that copies `text`, named for what it copies.
function copyButton(text, what) {
  const button = el("button", { type: "button", class: "copy", "aria-label": "copy " + what }, "copy");
  button.addEventListener("click", () => copy(text, button));
  return button;
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    // Without the clipboard API (an insecure origin): the old way.
    const area = el("textarea", { class: "offscreen", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  button.textContent = "copied";
  setTimeout(() => { button.textContent = "copy"; }, 1500);
}

function explainLines(lines) {
  for (const [k, line] of lines.entries()) {
    if (k > 0) $("explain").append("\n");
    $("explain").append(value(line));
  }
}

function normalForm(normal) {
  $("normal").append(value(normal));
  const button = $("copy-normal");
  button.hidden = false;
  button.dataset.text = normal;
}

// Text with each space marked (a box drawn by CSS around a real space,
// so that what is copied is what was typed), control characters as
// their pictures.
function spaced(text) {
  const out = el("span", { class: "text" });
  const pieces = printable(text).split(" ");
  for (const [k, piece] of pieces.entries()) {
    if (k > 0) out.append(el("span", { class: "space", title: "a space" }, " "));
    if (piece) out.append(piece);
  }
  return out;
}

// The parts drawn in the text up to `end` (an index in `text`).
function drawParts(text, spans, endIndex) {
  const drawing = $("drawing");
  const endBytes = new TextEncoder().encode(text.slice(0, endIndex)).length;
  let at = 0;
  for (const s of spans) {
    if (s.start > at) drawing.append(el("span", { class: "sep" }, sliceBytes(text, at, s.start)));
    const written = sliceBytes(text, s.start, s.end);
    // An empty part that is there (an empty user name, §3.1) is drawn as ∅.
    // A long part is cut in the drawing too, as in the tables below.
    const shown = el("span", { class: written === "" ? "text empty" : "text" }, written === "" ? "\u2205" : value(written));
    drawing.append(el("span", { class: "part cat-" + category(s.part), "data-part": s.part },
      shown, el("span", { class: "label" }, s.part + (written === "" ? " (empty)" : ""))));
    at = s.end;
  }
  if (at < endBytes) drawing.append(el("span", { class: "sep" }, sliceBytes(text, at, endBytes)));
}

function partRows(text, spans) {
  const body = $("parts").tBodies[0];
  for (const s of spans) {
    const written = sliceBytes(text, s.start, s.end);
    const decoded = decodePct(written);
    const cell = (label, v) => {
      const c = td(label, value(show_(v)), "mono");
      c.append(" ", copyButton(v, s.part + " " + label));
      return c;
    };
    body.append(el("tr", { "data-part": s.part }, td("part", s.part), cell("as written", written), cell("decoded", decoded)));
  }
}

// What the rules did not read: from the error to the end.
function drawRest(rest, error) {
  if (rest === "") rest = "\u2205";
  $("drawing").append(el("span", { class: "rest", "data-part": "unread" },
    // A space where the error is would be invisible: it is marked (a
    // long rest is cut, its start shown as the other long values).
    rest.length > LONG ? el("span", { class: "text" }, value(rest)) : spaced(rest),
    el("span", { class: "label" }, "not read: " + error.message)));
}

// The characters shown on each side of an error in the many-lines view:
// the caret line fits a phone's width.
const LINE_WINDOW = 16;

// The line with a caret under its error: a window of the line around the
// offset, so that it stays short.
function caretLine(input, offset) {
  const at = byteToIndex(input, offset);
  const from = Math.max(0, at - LINE_WINDOW);
  const to = Math.min(input.length, at + LINE_WINDOW);
  const before = from > 0 ? "\u2026" : "";
  const shown = before + printable(input.slice(from, to)) + (to < input.length ? "\u2026" : "");
  return el("pre", { class: "caret-line", tabindex: "0", "aria-label": "the line with a caret under the error" },
    shown + "\n" + " ".repeat(before.length + at - from), el("span", { class: "caret" }, "^"));
}

// Long inputs: the caret line shows a window of this many characters
// around the offset, so that it stays short.
const CARET_WINDOW = 60;

function drawError(text, error) {
  const at = byteToIndex(text, error.offset);
  const from = Math.max(0, at - CARET_WINDOW);
  const to = Math.min(text.length, at + CARET_WINDOW);
  const before = from > 0 ? "\u2026" : "";
  const shown = before + printable(text.slice(from, to)) + (to < text.length ? "\u2026" : "");
  const caret = $("caret");
  caret.append(shown + "\n" + " ".repeat(before.length + at - from), el("span", { class: "caret" }, "^"));
  $("error-text").textContent =
    error.message + " at offset " + error.offset + " (in " + error.rule + ", §5)";
  $("error").hidden = false;
}

// ------------------------------ RFC 1738 beside this browser's new URL()

// The ports new URL() knows; for any other scheme it has no default.
const SPECIAL_PORTS = { "http:": "80", "https:": "443", "ftp:": "21", "ws:": "80", "wss:": "443" };

function partText(text, spans, names) {
  for (const s of spans) {
    if (names.includes(s.part)) return sliceBytes(text, s.start, s.end);
  }
  return null;
}

// RFC 1738's reading as the rows need it: each part's text, or null
// where the reading has none. `source` says whose reading it is.
function rfcReading(text, view) {
  if (view.record.valid) return fromRecord(text, view.record, view.spans, "RFC 1738");
  if (view.lenient) return fromRecord(text, view.lenient.record, view.lenient.spans, "a lenient reading");
  const partial = view.partial;
  const upTo = text.slice(0, byteToIndex(text, partial.end));
  if (partial.record) return fromRecord(upTo, partial.record, partial.spans, "RFC 1738 up to offset " + partial.end);
  const scheme = partText(text, partial.spans, ["scheme"]);
  return { source: "RFC 1738 up to offset " + partial.end, scheme: scheme && scheme.toLowerCase(),
    user: null, password: null, host: null, port: null, effectivePort: null, path: null, search: null, fragment: null,
    ftp: null };
}

function fromRecord(text, r, spans, source) {
  let path;
  if (r.url_path === undefined) {
    path = text.slice(text.indexOf(":") + 1).split("#")[0];
  } else if (r.url_path === null) {
    path = "";
  } else {
    const search = partText(text, spans, ["http.search", "wais.search"]);
    path = "/" + (search === null ? r.url_path : r.url_path.slice(0, r.url_path.length - search.length - 1));
  }
  const port = r.port === undefined || r.port === null ? null : String(r.port);
  const eff = r.effective_port === undefined || r.effective_port === null ? null : String(r.effective_port);
  return {
    source, scheme: r.scheme, kind: r.kind,
    user: r.user ?? null, password: r.password ?? null,
    host: r.host ?? null, port, effectivePort: eff, path,
    search: partText(text, spans, ["http.search", "gopher.search", "wais.search"]),
    fragment: r.fragment ?? null,
    ftp: r.ftp ?? null,
  };
}

function whatwgReading(text, w) {
  if (!w) return null;
  return {
    scheme: w.protocol.slice(0, -1),
    user: w.username === "" ? null : decodePct(w.username),
    password: w.password === "" ? null : decodePct(w.password),
    host: w.hostname === "" ? null : w.hostname,
    port: w.port === "" ? null : w.port,
    effectivePort: w.port !== "" ? w.port : SPECIAL_PORTS[w.protocol] || null,
    path: w.pathname,
    search: w.search === "" ? (w.href.includes("?") && text.includes("?") ? "" : null) : w.search.slice(1),
    fragment: w.hash === "" ? (w.href.endsWith("#") ? "" : null) : w.hash.slice(1),
  };
}

const show_ = (v) => (v === null || v === undefined ? "(absent)" : v === "" ? '"" (empty)' : v);

// One row: [part, RFC 1738's text, new URL()'s text, verdict, why].
// The verdict is "agree", "differ", "only RFC 1738" or "only new URL()".
function row(part, r, w, why) {
  let verdict;
  if (r === w) verdict = "agree";
  else if (w === null) verdict = "only RFC 1738";
  else if (r === null) verdict = "only new URL()";
  else verdict = "differ";
  return [part, r, w, verdict, why(verdict)];
}

function rows(text, view, w, error) {
  const r = rfcReading(text, view);
  const ww = whatwgReading(text, w) || {};
  const ok = view.record.valid;
  const out = [];
  const rfcSays = ok ? "yes" : "no: " + view.record.error.message + " at offset " + view.record.error.offset;
  const wSays = w ? "yes" : "no: it throws (" + error + ")";
  out.push(["accepts", rfcSays, wSays, ok === Boolean(w) ? "agree" : "differ",
    ok === Boolean(w) ? (ok ? "" : "neither reads it as a URL")
      : ok ? "new URL() rejects what RFC 1738 accepts" : "new URL() accepts what RFC 1738 rejects"]);
  const noWhatwg = "new URL() reads nothing: it throws";
  const noRfc = "RFC 1738 reads no " + "such part" + (ok ? "" : " (" + r.source + ")");
  const generic = (name, differ) => (v) =>
    v === "agree" ? "" : v === "only RFC 1738" ? (w ? "new URL() has no " + name : noWhatwg)
      : v === "only new URL()" ? noRfc.replace("such part", name) : differ;
  out.push(row("scheme", r.scheme === null ? null : r.scheme.toLowerCase(), ww.scheme ?? null,
    generic("scheme", "the scheme is read differently")));
  out.push(row("user", r.user, ww.user ?? null, (v) =>
    r.user === "" && w && ww.user === null ? "RFC 1738 keeps an empty user name (§3.1); new URL() cannot tell it from none"
      : generic("user name", "the user name differs")(v)));
  out.push(row("password", r.password, ww.password ?? null, (v) =>
    r.password === "" && w && ww.password === null ? "RFC 1738 keeps an empty password (§3.1); new URL() drops it"
      : generic("password", "the password differs")(v)));
  const rHost = r.host === null ? null : r.host.toLowerCase();
  const hostRow = row("host", rHost, ww.host ?? null,
    generic("host", "another host: the two would connect to different places"));
  hostRow[1] = r.host;
  out.push(hostRow);
  out.push(portRow(r, ww, w));
  out.push(row("path", r.path, ww.path ?? null, generic("path", pathWhy(r.path))));
  out.push(row("search", r.search, ww.search ?? null, (v) => (v !== "agree" && w && r.kind === "gopher"
    ? "a gopher search follows an encoded TAB (%09), not ? (§3.4)" : generic("search", "the search differs")(v))));
  out.push(row("fragment", r.fragment, ww.fragment ?? null, generic("fragment", "the fragment differs")));
  // Meanings RFC 1738 gives an ftp URL that new URL() has no word for
  // (§3.2.2): each one a difference, as gopher's %09 is.
  if (r.ftp) {
    if (r.ftp.cwd.length > 0) {
      out.push(["ftp CWD", r.ftp.cwd.map((d) => "CWD " + d).join(", "), null, "only RFC 1738",
        "new URL() has no CWD steps: its path is one string, where RFC 1738 changes directory once per segment (§3.2.2)"]);
    }
    if (r.ftp.typecode !== null && r.ftp.typecode !== undefined) {
      out.push(["ftp typecode", "TYPE " + r.ftp.typecode.toUpperCase(), null, "only RFC 1738",
        "new URL() keeps ;type= as part of the path; RFC 1738 reads it as the transfer type (§3.2.2)"]);
    }
  }
  return out;
}

// Ports are compared as the port each would connect to. new URL() knows
// the default port of a few schemes only: for the others (gopher's 70,
// §3.4) it has none, and both leaving the port out is agreement.
function portRow(r, ww, w) {
  const shownRfc = r.effectivePort === null ? null
    : r.port === null ? r.effectivePort + " (default)" : r.port;
  const shownW = w ? (ww.port ?? (ww.effectivePort ? ww.effectivePort + " (default)" : null)) : null;
  let verdict;
  let why = "";
  if (!w) {
    verdict = r.effectivePort === null ? "agree" : "only RFC 1738";
    why = r.effectivePort === null ? "" : "new URL() reads nothing: it throws";
  } else if (r.effectivePort === ww.effectivePort) {
    verdict = "agree";
  } else if (r.port === null && ww.port === null && ww.effectivePort === null) {
    verdict = "agree";
    why = "neither names a port; RFC 1738 gives " + r.kind + " its default, " + r.effectivePort +
      ", new URL() knows no default for it";
  } else if (r.effectivePort === null) {
    verdict = "only new URL()";
    why = "RFC 1738 reads no port here";
  } else {
    verdict = "differ";
    why = "another port: the two would connect to different ports";
  }
  return ["port", shownRfc, shownW, verdict, why];
}

function pathWhy(rfc) {
  if (/%2e/i.test(rfc || "")) return "new URL() reads an encoded dot segment (%2e) as . or ..; RFC 1738 keeps it as data";
  return "the path differs";
}

function compare(text, view) {
  let w = null;
  let error = "";
  try {
    w = new URL(text);
  } catch (e) {
    error = e.message;
  }
  const body = $("compare").tBodies[0];
  let differ = 0;
  for (const [part, rfc, whatwg, verdict, why] of rows(text, view, w, error)) {
    const cell = el("td", { "data-label": "verdict", class: "why" }, el("span", { class: "verdict-word" }, verdict), why ? ": " + why : "");
    const tr = el("tr", { "data-part": part, "data-verdict": verdict },
      td("part", part), td("RFC 1738", value(show_(rfc)), "mono"),
      td("this browser's new URL()", value(show_(whatwg)), "mono"), cell);
    if (verdict !== "agree") {
      tr.classList.add("differ");
      differ++;
    }
    body.append(tr);
  }
  const source = rfcReading(text, view).source;
  if (source !== "RFC 1738") $("compare-note").textContent = "RFC 1738's column is " + source + ".";
  $("compare-summary").textContent = differ === 0 ? "(they agree)" : "(" + differ + " difference" + (differ > 1 ? "s" : "") + ")";
  // The differences' colour for differences alone.
  $("compare-summary").classList.toggle("agree", differ === 0);
}

// ------------------------------------------------------------ many lines

let results = [];

async function checkLines() {
  const lenient = $("lenient-many").checked;
  let res;
  let text;
  try {
    res = await fetch("/api/check?lenient=" + lenient, { method: "POST", body: $("lines").value });
    text = await res.text();
  } catch (e) {
    refusedLines("the server could not be reached (" + e.message + ")");
    return;
  }
  if (!res.ok) {
    refusedLines(errorMessage(res.status, text));
    return;
  }
  const format = res.headers.get("rfc1738-format");
  $("detected").textContent = format === "clf"
    ? "Read as a Common Log Format log: the request URL of each line is checked, offsets in the line."
    : "Read as a list of URLs, one per line.";
  document.body.dataset.format = format;
  results = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  $("results").classList.toggle("clf", format === "clf");
  delete document.body.dataset.refused;
  const valid = results.filter((r) => r.valid).length;
  $("summary").textContent = "Checked " + results.length + " lines: " + valid + " valid, " + (results.length - valid) + " invalid.";
  fill($("filter-scheme"), counts(results, schemeOf).map(([k]) => k));
  fill($("filter-error"), counts(results.filter((r) => !r.valid), errorOf).map(([k]) => k));
  charts();
  table();
  document.body.dataset.checked = String(results.length);
}

// An error answer: its message, and nothing of an earlier check.
function refusedLines(message) {
  results = [];
  $("summary").textContent = "Not checked: " + message;
  $("detected").textContent = "";
  charts();
  table();
  document.body.dataset.refused = "true";
  document.body.dataset.checked = "refused";
}

const schemeOf = (r) => r.scheme || "(no scheme)";
const errorOf = (r) => (r.error ? r.error.kind + " (" + r.error.rule + ")" : "");

// [key, lines, invalid] for each key, the most lines first.
function counts(list, key) {
  const by = new Map();
  for (const r of list) {
    const c = by.get(key(r)) || [0, 0];
    c[0]++;
    if (!r.valid) c[1]++;
    by.set(key(r), c);
  }
  return [...by].map(([k, [n, bad]]) => [k, n, bad]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

function fill(select, keys) {
  clear(select);
  select.append(el("option", { value: "" }, "all"));
  for (const k of keys) select.append(el("option", { value: k }, k));
}

// A bar per key; clicking one filters the lines by it (again: all lines).
function bars(tableId, list, key, filterId, withInvalid) {
  const body = $(tableId).tBodies[0];
  clear(body);
  const rows = counts(list, key);
  const most = Math.max(1, ...rows.map((r) => r[1]));
  for (const [k, n, bad] of rows) {
    const fill = el("span", { class: withInvalid ? "fill" : "fill bad" });
    fill.style.width = (100 * n / most * 0.7).toFixed(1) + "%";
    const bar = el("button", { type: "button", class: "bar", "data-key": k, "data-count": String(n),
      "aria-pressed": String($(filterId).value === k), "aria-label": k + ": " + n + " lines; show them" },
      fill, el("span", { class: "n" }, String(n)));
    bar.addEventListener("click", () => {
      $(filterId).value = $(filterId).value === k ? "" : k;
      table();
      charts();
    });
    const cells = [el("td", { class: "mono" }, k), el("td", {}, bar)];
    if (withInvalid) cells.push(el("td", { class: "num" }, String(bad)));
    body.append(el("tr", {}, ...cells));
  }
}

function charts() {
  $("charts").hidden = results.length === 0;
  bars("by-scheme", results, schemeOf, "filter-scheme", true);
  bars("by-error", results.filter((r) => !r.valid), errorOf, "filter-error", false);
}


// Rows of the results shown at a time; "show more" adds as many.
const PAGE = 100;
let pageRows = PAGE;

// The results table from its first page (a new check, a new filter).
function table() {
  pageRows = PAGE;
  tableRows();
}

function tableRows() {
  const scheme = $("filter-scheme").value;
  const validity = $("filter-valid").value;
  const error = $("filter-error").value;
  const body = $("results").tBodies[0];
  clear(body);
  const rows = results.filter((r) =>
    (scheme === "" || schemeOf(r) === scheme) &&
    (validity === "" || (validity === "valid") === r.valid) &&
    (error === "" || errorOf(r) === error));
  for (const r of rows.slice(0, pageRows)) {
    const e = td("error", "");
    if (r.error) {
      e.append(caretLine(r.input, r.error.offset),
        el("span", {}, r.error.message + " at offset " + r.error.offset + " (in " + r.error.rule + ")"));
    } else if (r.warnings && r.warnings.length > 0) {
      e.append(r.warnings.map((w) => w.kind + " at offset " + w.offset).join("; "));
    }
    const status = r.status === null || r.status === undefined ? "" : String(r.status);
    body.append(el("tr", { class: r.valid ? "valid" : "invalid" },
      td("line", String(r.line)), td("input", value(r.input), "mono"),
      td("method", r.method || "", "clf-only"), td("status", status, "clf-only"), td("scheme", r.scheme || ""),
      td("valid", r.valid ? "valid" : "invalid"), e));
  }
  const left = rows.length - pageRows;
  $("results-more").hidden = left <= 0;
  $("results-more").textContent = "show " + Math.min(PAGE, left) + " more of " + left;
  $("shown").textContent = rows.length === results.length ? "" : rows.length + " of " + results.length + " lines shown";
}

// --------------------------------------------------------------- examples

// The URLs RFC 1738 itself gives, with where.
const EXAMPLES = [
  ["ftp://@host.com/", "§3.1: an empty user name"],
  ["ftp://foo:@host.com/", "§3.1: an empty password"],
  ["ftp://myname@host.dom/%2Fetc/motd", "§3.2.2: CWD /etc"],
  ["ftp://myname@host.dom/etc/motd", "§3.2.2: CWD etc"],
  ["ftp://myname@host.dom//etc/motd", "§3.2.2: an empty segment"],
  ["ftp://ds.internic.net/rfc/rfc1436.txt;type=a", "References: a typecode"],
  ["news:*", "§3.6: every newsgroup"],
  ["file://vms.host.edu/disk$user/my/notes/note12345.txt", "§3.10: a file on a VMS host"],
  ["prospero://host.dom//pros/name", "§3.11"],
  ["http://www.acl.lanl.gov/URI/archive/uri-archive.index.html", "§1: the URI archive"],
];

function examples() {
  const list = $("example-list");
  for (const [url, where] of EXAMPLES) {
    const button = el("button", { type: "button", class: "example mono", "data-url": url }, url);
    button.addEventListener("click", () => {
      $("url").value = url;
      $("url").focus();
      show(url);
    });
    list.append(el("li", {}, button, " ", el("span", { class: "note" }, where)));
  }
}

// ------------------------------------------------------------------ wiring

const TABS = [["tab-one", "one"], ["tab-many", "many"]];

// WAI-ARIA tabs: the selected tab alone is in the tab order; arrow keys,
// Home and End move between tabs and select them.
function selectTab(which, focus) {
  for (const [tab, panel] of TABS) {
    const on = panel === which;
    $(tab).setAttribute("aria-selected", String(on));
    $(tab).tabIndex = on ? 0 : -1;
    $(panel).hidden = !on;
    if (on && focus) $(tab).focus();
  }
}

function tabKeys(event) {
  const at = TABS.findIndex(([tab]) => tab === event.target.id);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  selectTab(TABS[(to + TABS.length) % TABS.length][1], true);
}

// Several lines pasted into the URL field: the field keeps the first, and
// the page offers to check them all.
let pasted = "";

function onPaste(event) {
  const text = event.clipboardData ? event.clipboardData.getData("text") : "";
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length < 2) return;
  event.preventDefault();
  pasted = text;
  $("url").value = lines[0];
  $("url").dispatchEvent(new Event("input"));
  $("paste-text").textContent = "You pasted " + lines.length + " lines; this field takes one URL, the first.";
  $("paste-go").textContent = "Check all " + lines.length + " in Many lines";
  $("paste-offer").hidden = false;
}

function readFile(file) {
  if (!file) return;
  file.text().then((text) => {
    $("lines").value = text;
    checkLines();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  let timer = null;
  const input = $("url");
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => show(input.value), 60);
  };
  input.addEventListener("input", later);
  input.addEventListener("paste", onPaste);
  $("lenient").addEventListener("change", later);
  $("lenient-many").addEventListener("change", () => {
    if ($("lines").value !== "") checkLines();
  });
  $("copy-normal").addEventListener("click", () => copy($("copy-normal").dataset.text, $("copy-normal")));
  examples();
  for (const [tab, panel] of TABS) {
    $(tab).addEventListener("click", () => selectTab(panel, false));
    $(tab).addEventListener("keydown", tabKeys);
  }
  $("paste-go").addEventListener("click", () => {
    $("paste-offer").hidden = true;
    $("lines").value = pasted;
    selectTab("many", true);
    checkLines();
  });
  $("check").addEventListener("click", checkLines);
  $("file").addEventListener("change", () => readFile($("file").files[0]));
  const area = $("lines");
  area.addEventListener("dragover", (e) => {
    e.preventDefault();
    area.classList.add("drop");
  });
  area.addEventListener("dragleave", () => area.classList.remove("drop"));
  area.addEventListener("drop", (e) => {
    e.preventDefault();
    area.classList.remove("drop");
    readFile(e.dataTransfer.files[0]);
  });
  $("results-more").addEventListener("click", () => {
    pageRows += PAGE;
    tableRows();
  });
  for (const id of ["filter-scheme", "filter-valid", "filter-error"]) {
    $(id).addEventListener("change", () => {
      table();
      charts();
    });
  }
  const params = new URLSearchParams(location.search);
  $("lenient").checked = params.get("lenient") === "true";
  if (params.has("url")) {
    input.value = params.get("url");
    show(input.value);
  }
});
