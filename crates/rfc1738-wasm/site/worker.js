// The explorer's long requests (many lines, free text) off the page's
// thread: a message {id, op, args} in, {id, answer} or {id, error} out.
"use strict";
importScripts("explorer-core.js");

const ready = rfc1738Explorer(new URL("explorer.wasm", self.location.href));

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    const explorer = await ready;
    self.postMessage({ id, answer: explorer[op](...args) });
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
};
