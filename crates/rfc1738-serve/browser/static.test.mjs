// The static page (scripts/build-site) against the server: each request
// the page makes, answered in the page by the WebAssembly module, gives
// the bytes `rfc1738 serve` sends for it. Run by scripts/test-browser with
// RFC1738_STATIC=1, the static page at RFC1738_SERVE_URL and the server
// at RFC1738_API_URL; skipped against the served page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const STATIC = process.env.RFC1738_STATIC === "1";
const BASE = process.env.RFC1738_SERVE_URL;
const API = process.env.RFC1738_API_URL;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const skip = !STATIC && "runs against the static page only";

let browser;
let page;
const workers = [];

before(async () => {
  if (!STATIC) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  page = await browser.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("worker", (w) => workers.push(w.url()));
  await page.goto(BASE + "/");
});

after(async () => {
  await browser?.close();
});

// What the page's fetch answers: status, the headers that matter, body.
async function inPage(path, body) {
  return page.evaluate(async ([path, body]) => {
    const res = await fetch(path, body === undefined ? undefined : { method: "POST", body });
    return { status: res.status, type: res.headers.get("content-type"), format: res.headers.get("rfc1738-format"), body: await res.text() };
  }, [path, body]);
}

async function fromServer(path, body) {
  const res = await fetch(API + path, body === undefined ? undefined : { method: "POST", body });
  return { status: res.status, type: res.headers.get("content-type"), format: res.headers.get("rfc1738-format"), body: await res.text() };
}

const VIEWS = [
  "ftp://@host.dom/%2Fetc/motd;type=a", "FTP://u:p@h.dom:21/a/b;type=d", "ftp://h.dom/", "http://h.dom/p?q",
  "http://h.dom:80/%7e", "http://h.dom/a b", "http://host.dom/my file.html", "http://h:x/", "no scheme", "",
  "gopher://g.dom/7search%09rfc", "gopher://g.dom/1", "gopher://g.dom/0a%09b%09+c", "mailto:a@b.dom",
  "news:comp.lang.c", "news:*", "news:123@h.dom", "nntp://h.dom/g.x/12", "telnet://u:p@h.dom:2323/",
  "wais://h.dom/db?s", "wais://h.dom/db/t/p", "file:///etc/motd", "file://h.dom/x", "prospero://h.dom/p;a=b",
  "x-y:z", "https://h.dom/", "http://h.dom/<script>", "http://h_x.dom/", "ftp://h.dom/a%2", "http://h.dom/é",
  "javascript:alert(1)", "http://h.dom/" + "a".repeat(5000),
];

for (const lenient of [false, true]) {
  test(`GET /api/view: the server's bytes for ${VIEWS.length} inputs${lenient ? ", lenient" : ""}`, { skip }, async () => {
    for (const url of VIEWS) {
      const path = "/api/view?url=" + encodeURIComponent(url) + "&lenient=" + lenient;
      const [mine, theirs] = [await inPage(path), await fromServer(path)];
      assert.deepEqual(mine, theirs, url);
    }
  });
}

const LOG = [
  '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326',
  '127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /a b.html HTTP/1.0" 404 12',
  '127.0.0.1 - - [10/Oct/2000:13:55:40 -0700] "-" 408 0',
].join("\n");
const LIST = "http://a.dom/\r\nhttp://b.dom/ x\n\nnews:x\nftp://é/\n";

test("POST /api/check and /api/extract: the server's bytes and format", { skip }, async () => {
  for (const [path, body] of [
    ["/api/check", LIST], ["/api/check?lenient=true", LIST], ["/api/check", LOG], ["/api/check?format=url", LOG],
    ["/api/check?format=clf&lenient=true", LOG], ["/api/check", ""],
    ["/api/extract", "see <URL:ftp://h.dom/x> and http://a b, é <http://c.dom/>"], ["/api/extract", ""],
  ]) {
    const [mine, theirs] = [await inPage(path, body), await fromServer(path, body)];
    assert.deepEqual(mine, theirs, path + " " + JSON.stringify(body));
  }
});

test("many lines are read in a Worker, and a big check completes", { skip }, async () => {
  const lines = Array.from({ length: 50000 }, (_, k) => (k % 7 ? "http://h.dom/p" + k : "http://h.dom/a b")).join("\n");
  const answer = await inPage("/api/check", lines);
  const rows = answer.body.split("\n").filter((l) => l);
  assert.equal(rows.length, 50000);
  assert.equal(rows.filter((l) => JSON.parse(l).valid).length, 50000 - Math.ceil(50000 / 7));
  assert.ok(workers.some((u) => u.endsWith("/worker.js")), `workers: ${workers}`);
  assert.deepEqual(page.errors, []);
});
