// The explorer's answers from the WebAssembly module (explorer.wasm, the
// crate rfc1738-wasm with the feature `explorer`): a classic script, for
// the page (shim.js) and its Worker (worker.js) alike. The answers are
// the bytes `rfc1738 serve` would send: the same Rust functions make them.
"use strict";

globalThis.rfc1738Explorer = async function load(wasmUrl, fetchWith = fetch) {
  const res = await fetchWith(wasmUrl);
  if (!res.ok) throw new Error("explorer.wasm: " + res.status);
  const { instance } = await WebAssembly.instantiate(await res.arrayBuffer(), {});
  const w = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let at = 0;
  let cap = 0;

  // The text's UTF-8 in the module's input buffer; returns its length.
  function put(text) {
    if (text.length * 3 > cap) {
      cap = Math.max(text.length * 3, cap * 2, 1024);
      at = w.rfc1738_input(cap);
    }
    return encoder.encodeInto(text, new Uint8Array(w.memory.buffer, at, cap)).written;
  }
  function out(len) {
    return decoder.decode(new Uint8Array(w.memory.buffer, w.rfc1738_out(), len));
  }
  function outLen() {
    return new Uint32Array(w.memory.buffer, w.rfc1738_table(), 32)[31];
  }
  return {
    // GET /api/view?url=&lenient=
    view(url, lenient) {
      return out(w.rfc1738_api_view(put(url), lenient ? 1 : 0));
    },
    // POST /api/check?lenient=&format=: {format, body}
    check(body, lenient, format) {
      const asked = { url: 1, clf: 2 }[format] || 0;
      const read = w.rfc1738_api_check(put(body), lenient ? 1 : 0, asked);
      return { format: read === 1 ? "clf" : "url", body: out(outLen()) };
    },
    // POST /api/extract
    extract(text) {
      return out(w.rfc1738_api_extract(put(text)));
    },
  };
};
