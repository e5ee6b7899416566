// rfc1738: URLs read exactly as RFC 1738 defines them, in JavaScript.
//
// The other half of the WebAssembly module's hand-written interface
// (crates/rfc1738-wasm/src/lib.rs draws the table): an input is written
// into the module's buffer as UTF-8, one function reads it, and the
// answer comes back as numbers in a table, or as text for the rare
// answers (errors, JSON). Parts are offsets into the input, sliced from
// the string JavaScript already holds when they are read.
//
// `bind` makes the functions over one module: rfc1738.js over the whole
// (rfc1738.wasm), core.js over the parse alone (rfc1738-core.wasm).

/** The module at `wasmUrl`, instantiated: read from the file system under
 * node, fetched in a browser. */
export async function load(wasmUrl) {
  let bytes;
  if (wasmUrl.protocol === "file:" && typeof process === "object" && process.versions?.node) {
    const { readFile } = await import("node:fs/promises");
    bytes = await readFile(wasmUrl);
  } else {
    const res = await fetch(wasmUrl);
    if (!res.ok) throw new Error(`rfc1738: ${wasmUrl} answered ${res.status}`);
    bytes = await res.arrayBuffer();
  }
  return (await WebAssembly.instantiate(bytes, {})).instance;
}

// The table is read as signed: the absent mark (u32::MAX) is -1, so a
// URL's copy of it is a plain array of small integers.
const NONE = -1;
const OUT_LEN = 31;
const KINDS = ["ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero", "https", "other"];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A UTF-8 byte offset into `text` as an index into the string: what the
// offsets say when the text is not ASCII. A lone surrogate was written as
// U+FFFD, three bytes, as any other character of the BMP above U+07FF.
function index(text, offset) {
  return indexer(text)(offset);
}

// `index` for many offsets of one text, each read from where the one
// before ended when it is not smaller: offsets in order (the URLs found
// in a text, a URL's parts) cost one walk over the text, not one each.
function indexer(text) {
  let bytesSeen = 0;
  let k = 0;
  return (offset) => {
    if (offset < bytesSeen) {
      bytesSeen = 0;
      k = 0;
    }
    while (k < text.length && bytesSeen < offset) {
      const c = text.codePointAt(k);
      bytesSeen += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      k += c >= 0x10000 ? 2 : 1;
    }
    return k;
  };
}


// An error of this package is a value that says where in the input it
// is: it carries no stack trace, whose capture costs more than the parse
// (benches/README.md), and `validate` and `check` return many of them.
function withoutStack(make) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Why a text is not a URL of RFC 1738: where (`offset`, an index into the
 * input string), what (`kind`), in which rule of §5 (`rule`). No stack
 * trace: the offset says where. */
export class ParseError extends Error {
  constructor(input, offset, kind, rule, message) {
    withoutStack(() => super(`${message} at offset ${offset} (${kind}, in ${rule})`));
    this.name = "ParseError";
    this.input = input;
    this.offset = offset;
    this.kind = kind;
    this.rule = rule;
    this.reason = message;
  }
}

/** Why a reference could not be resolved against a base (RFC 1808). */
export class ResolveError extends Error {
  constructor(reference, offset, kind, rule, message, resolved) {
    withoutStack(() => super(message));
    this.name = "ResolveError";
    this.reference = reference;
    this.offset = offset;
    this.kind = kind;
    this.rule = rule || null;
    this.resolved = resolved || null;
  }
}


// `%HH` decoded to octets (§2.2), then read as UTF-8, U+FFFD for each
// octet that is not: what the library's `pct::decode` and the record give.
const HEX = /^[0-9A-Fa-f]{2}$/;
function pctDecode(raw) {
  if (raw === null || !raw.includes("%")) return raw;
  const octets = encoder.encode(raw);
  const out = new Uint8Array(octets.length);
  let n = 0;
  for (let k = 0; k < octets.length; k++) {
    const hex = String.fromCharCode(octets[k + 1], octets[k + 2]);
    if (octets[k] === 0x25 && k + 2 < octets.length && HEX.test(hex)) {
      out[n++] = parseInt(hex, 16);
      k += 2;
    } else {
      out[n++] = octets[k];
    }
  }
  return decoder.decode(out.subarray(0, n));
}


/** The package's functions over one instance of the module. */
export function bind(instance) {
  const w = instance.exports;
  const tableAt = w.rfc1738_table();
  // The module's answers beyond the parse: only in the whole module.
  const full = (what) => {
    if (typeof w.rfc1738_record !== "function") {
      throw new Error(`rfc1738/core has no ${what}: import "rfc1738" for it`);
    }
    return w;
  };


  // Views of the module's memory, made again when it grows.
  let memory = null;
  let bytes;
  let table;
  let input;
  let inputAt = 0;
  let inputCap = 0;

  function views() {
    if (memory !== w.memory.buffer) {
      memory = w.memory.buffer;
      bytes = new Uint8Array(memory);
      table = new Int32Array(memory, tableAt, 32);
      input = new Uint8Array(memory, inputAt, inputCap);
    }
  }

  // The input's UTF-8 in the module's buffer; returns its length in bytes
  // and whether it is ASCII (then byte offsets are string indices).
  let ascii = true;
  function put(text, at = 0) {
    if (typeof text !== "string") {
      throw new TypeError(`rfc1738: a URL is a string, not ${text === null ? "null" : typeof text}`);
    }
    const need = at + text.length * 3;
    if (need > inputCap) {
      inputCap = Math.max(need, inputCap * 2, 256);
      inputAt = w.rfc1738_input(inputCap);
      memory = null;
    }
    views();
    // encodeInto into a view kept from call to call: faster than a loop
    // over the characters, even for short texts (benches/node). A text is
    // ASCII when each character took one byte.
    const { written } = encoder.encodeInto(text, at === 0 ? input : input.subarray(at));
    ascii = written === text.length;
    return written;
  }

  // The module's memory may have grown during the call that made the
  // answer: the views are made again before the table is read.
  function outText(len) {
    views();
    len ??= table[OUT_LEN];
    const at = w.rfc1738_out();
    return decoder.decode(bytes.subarray(at, at + len));
  }

  function outJson() {
    return JSON.parse(outText());
  }


  // The error the module left in the table and the out buffer.
  function lastError(input, wasAscii) {
    const [kind, rule, message] = outText().split("\0");
    const offset = wasAscii ? table[0] : index(input, table[0]);
    return new ParseError(input, offset, kind, rule, message);
  }

  function flag(options) {
    return options?.lenient ? 1 : 0;
  }


  const PARTS = { user: 2, password: 4, host: 6, port: 8, urlPath: 11 };

  /** A URL that matched RFC 1738: the input once, its parts as offsets. */
  class Url {
    #input;
    #t;
    #lenient;
    #record = null;

    /** Parses `input`; throws a `ParseError` if it is not a URL. */
    constructor(input, options) {
      const len = put(input);
      const lenient = flag(options);
      if (!w.rfc1738_parse(len, lenient)) throw lastError(input, ascii);
      // A lenient parse allocates: the memory may have grown.
      views();
      this.#input = input;
      this.#lenient = lenient;
      const t = table;
      this.#t = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]];
      if (!ascii) {
        const at = indexer(input);
        for (let k = 1; k < 14; k++) if (k !== 10 && this.#t[k] !== NONE) this.#t[k] = at(this.#t[k]);
      }
    }

    #part(slot) {
      const start = this.#t[slot];
      return start === NONE ? null : this.#input.slice(start, this.#t[slot + 1]);
    }

    /** The parts' offsets in the input: `[start, end]`, or `null` when absent. */
    get offsets() {
      const t = this.#t;
      const range = (slot) => (t[slot] === NONE ? null : [t[slot], t[slot + 1]]);
      return {
        scheme: [0, t[1]],
        user: range(2),
        password: range(4),
        host: range(6),
        port: range(8),
        urlPath: range(11),
        fragment: t[14] ? [t[13] + 1, this.#input.length] : null,
      };
    }
    /** The URL as stored: the input with its scheme lower-cased (§2.1). */
    get href() {
      return this.scheme + this.#input.slice(this.#t[1]);
    }
    /** The scheme, lower-cased (§2.1). */
    get scheme() {
      return this.#input.slice(0, this.#t[1]).toLowerCase();
    }
    /** `ftp http gopher mailto news nntp telnet wais file prospero https other`. */
    get kind() {
      return KINDS[this.#t[0]];
    }
    /** Decoded; `null` when absent, `""` when empty (§3.1). */
    get user() {
      return pctDecode(this.#part(PARTS.user));
    }
    /** Decoded; `null` when absent, `""` when empty (§3.1). */
    get password() {
      return pctDecode(this.#part(PARTS.password));
    }
    get host() {
      return this.#part(PARTS.host);
    }
    /** The explicit port's number (above 65535 too: §5 gives no range). */
    get port() {
      const p = this.#part(PARTS.port);
      return p === null ? null : Number(p);
    }
    /** The explicit port, or the scheme's default (§3); `null` above 65535. */
    get effectivePort() {
      return this.#t[10] === NONE ? null : this.#t[10];
    }
    /** The url-path, raw, without the `/` before it (§3.1). */
    get urlPath() {
      return this.#part(PARTS.urlPath);
    }
    /** The fragment after `#`, raw (§2.2: not part of the URL). */
    get fragment() {
      return this.#t[14] ? this.#input.slice(this.#t[13] + 1) : null;
    }
    /** Whether a lenient parse accepted a deviation. */
    get isLenient() {
      return this.#t[15] === 1;
    }
    /** Deviations accepted and §6 security warnings. */
    get warnings() {
      return this.toJSON().warnings;
    }
    get ftp() { return this.#view("ftp"); }
    get http() { return this.#view("http"); }
    get gopher() { return this.#view("gopher"); }
    get mailto() { return this.#view("mailto"); }
    get news() { return this.#view("news"); }
    get nntp() { return this.#view("nntp"); }
    get telnet() { return this.#view("telnet"); }
    get wais() { return this.#view("wais"); }
    get file() { return this.#view("file"); }
    get prospero() { return this.#view("prospero"); }
    get https() { return this.#view("https"); }
    get other() { return this.#view("other"); }

    #view(kind) {
      return this.kind === kind ? this.toJSON()[kind] : null;
    }

    /** The normal form: only what the RFC says does not matter is changed. */
    normalize() {
      return new Url(normalize(this.#input, { lenient: this.#lenient }), { lenient: this.#lenient });
    }
    /** The URL `reference` names relative to this one (RFC 1808 §4). */
    resolve(reference) {
      return new Url(resolve(this.#input, reference, { lenient: this.#lenient }), { lenient: this.#lenient });
    }
    /** What a client does with this URL, one line per step. */
    explain() {
      return explain(this.#input, { lenient: this.#lenient });
    }
    /** The record `rfc1738 parse --json` writes for the same input. */
    toJSON() {
      if (this.#record === null) {
        full("record (toJSON, the views, warnings)").rfc1738_record(put(this.#input), this.#lenient);
        this.#record = outJson();
      }
      return structuredClone(this.#record);
    }
    toString() {
      return this.href;
    }
  }

  /** Parses `input` as an RFC 1738 URL; throws `ParseError`. */
  function parse(input, options) {
    return new Url(input, options);
  }

  /** Whether `input` is a URL of RFC 1738 (`false` for any other value). */
  function isValid(input, options) {
    if (typeof input !== "string") return false;
    return w.rfc1738_is_valid(put(input), flag(options)) === 1;
  }

  /** `null` when `input` is a URL, else the `ParseError` (not thrown). */
  function validate(input, options) {
    const len = put(input);
    return w.rfc1738_validate(len, flag(options)) ? null : lastError(input, ascii);
  }

  /** The normal form's text; throws `ParseError`. */
  function normalize(input, options) {
    const len = put(input);
    if (!full("normalize").rfc1738_normalize(len, flag(options))) throw lastError(input, ascii);
    return outText();
  }

  /** What a client does with the URL, one line per step; throws `ParseError`. */
  function explain(input, options) {
    const len = put(input);
    if (!full("explain").rfc1738_explain(len, flag(options))) throw lastError(input, ascii);
    return outJson();
  }

  /** `reference` resolved against `base` (RFC 1808 §4), as text; throws
   * `ParseError` for a base that is not a URL, `ResolveError` else. */
  function resolve(base, reference, options) {
    if (typeof reference !== "string") throw new TypeError("rfc1738: a reference is a string");
    const baseLen = put(base);
    const baseAscii = ascii;
    const refLen = put(reference, baseLen);
    const refAscii = ascii;
    const status = full("resolve").rfc1738_resolve(baseLen, refLen, flag(options));
    if (status === 1) return outText();
    if (status === 0) throw lastError(base, baseAscii);
    const [kind, rule, message, resolved] = outText().split("\0");
    const at = table[0];
    const offset = kind === "not-rfc1738" ? index(resolved, at) : refAscii ? at : index(reference, at);
    throw new ResolveError(reference, offset, kind, rule, message, resolved);
  }

  /** The URLs in free text (RFC 1738 Appendix), with where each lies. */
  function extract(text) {
    const len = put(text);
    const wasAscii = ascii;
    full("extract").rfc1738_extract(len);
    const found = outJson();
    if (!wasAscii) {
      const at = indexer(text);
      for (const m of found) {
        m.start = at(m.start);
        m.end = at(m.end);
      }
    }
    return found;
  }

  /** Many URLs in one call: a string of lines (split at "\n", a "\r"
   * before it dropped, no last empty line), or an array of strings, each
   * one URL. */
  function check(lines, options) {
    if (Array.isArray(lines)) {
      // One call per element: cheaper than joining them into one text
      // (benches/node), and an element is one URL whatever it holds.
      for (const l of lines) if (typeof l !== "string") throw new TypeError("rfc1738: check takes strings");
      return checkEach(lines, options);
    }
    if (typeof lines !== "string") {
      throw new TypeError("rfc1738: check takes a string of lines or an array of strings");
    }
    const len = put(lines);
    const wasAscii = ascii;
    const n = w.rfc1738_check(len, flag(options));
    views();
    const at = w.rfc1738_out();
    const valid = bytes.slice(at, at + n);
    const errors = JSON.parse(decoder.decode(bytes.subarray(at + n, at + table[OUT_LEN])));
    const result = [];
    // The errors come in line order: the text is walked once, to their lines.
    let start = 0;
    let current = 0;
    for (const [line, offset, kind, rule, message] of errors) {
      for (; current < line; current++) start = lines.indexOf("\n", start) + 1;
      let end = lines.indexOf("\n", start);
      if (end < 0) end = lines.length;
      if (end > start && lines.charCodeAt(end - 1) === 13) end--;
      const input = lines.slice(start, end);
      const e = new ParseError(input, wasAscii ? offset : index(input, offset), kind, rule, message);
      e.line = line;
      result.push(e);
    }
    return { length: n, valid, invalid: result.length, errors: result };
  }

  function checkEach(lines, options) {
    const valid = new Uint8Array(lines.length);
    const errors = [];
    lines.forEach((l, k) => {
      const e = validate(l, options);
      valid[k] = e === null ? 1 : 0;
      if (e) {
        e.line = k;
        errors.push(e);
      }
    });
    return { length: lines.length, valid, invalid: errors.length, errors };
  }

  /** The bytes of the module's memory (for tests of its growth). */
  function __memoryBytes() {
    return w.memory.buffer.byteLength;
  }

  return { Url, parse, isValid, validate, normalize, explain, resolve, extract, check, __memoryBytes };
}
