// The static page's one difference from the served one: its requests to
// /api/ are answered here, from the WebAssembly module, not by a server.
// app.js is unchanged: it still calls fetch("/api/view?...") and
// fetch("/api/check?...", {method: "POST"}); this script, loaded before
// it, answers those with the same JSON `rfc1738 serve` sends. A view is
// made on the page's thread (tens of microseconds); many lines and free
// text go to a Worker, so the page stays responsive while they are read.
// Other requests go to the network as before.
"use strict";

(function () {
  const network = globalThis.fetch.bind(globalThis);
  const base = document.currentScript ? document.currentScript.src : location.href;
  const wasmUrl = new URL("explorer.wasm", base);
  let here = null;
  const page = () => (here ??= rfc1738Explorer(wasmUrl, network));

  // The Worker, when the browser gives one (not from file:// in some).
  let worker = null;
  let next = 0;
  const waiting = new Map();
  try {
    worker = new Worker(new URL("worker.js", base));
    worker.onmessage = (event) => {
      const { id, answer, error } = event.data;
      const job = waiting.get(id);
      waiting.delete(id);
      if (error === undefined) job.resolve(answer);
      else job.reject(new Error(error));
    };
    worker.onerror = () => {
      // A Worker that cannot start: its jobs are done on the page.
      worker = null;
      for (const [, job] of waiting) job.fallback();
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  function inWorker(op, args) {
    if (worker === null) return page().then((explorer) => explorer[op](...args));
    return new Promise((resolve, reject) => {
      const id = ++next;
      const fallback = () => page().then((explorer) => resolve(explorer[op](...args)), reject);
      waiting.set(id, { resolve, reject, fallback });
      worker.postMessage({ id, op, args });
    });
  }

  const json = (body, headers = {}) =>
    new Response(body, { status: 200, headers: { "content-type": "application/json", ...headers } });
  const flag = (query) => query.get("lenient") === "true";

  async function answer(url, init) {
    const query = url.searchParams;
    const body = init && init.body != null ? String(init.body) : "";
    switch (url.pathname.slice(url.pathname.lastIndexOf("/api/"))) {
      case "/api/view": {
        const explorer = await page();
        return json(explorer.view(query.get("url") ?? "", flag(query)));
      }
      case "/api/check": {
        const { format, body: lines } = await inWorker("check", [body, flag(query), query.get("format")]);
        return json(lines, { "content-type": "application/x-ndjson", "rfc1738-format": format });
      }
      case "/api/extract":
        return json(await inWorker("extract", [body]), { "content-type": "application/x-ndjson" });
      default:
        return null;
    }
  }

  globalThis.fetch = async function (input, init) {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.origin === location.origin && url.pathname.includes("/api/")) {
      const res = await answer(url, init);
      if (res !== null) return res;
    }
    return network(input, init);
  };
})();
