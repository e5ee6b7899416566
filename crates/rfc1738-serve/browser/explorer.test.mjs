// The explorer page in headless Chromium (Debian's package), driven by
// playwright-core. scripts/test-browser starts `rfc1738 serve` and passes
// its address in RFC1738_SERVE_URL; screenshots go to RFC1738_SHOTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.RFC1738_SERVE_URL;
// The JSON API: the page's own server, or in the run against the static
// page (RFC1738_STATIC=1) the server beside it, whose answers the static
// page must give too.
const API = process.env.RFC1738_API_URL || BASE;
const SHOTS = process.env.RFC1738_SHOTS || "shots";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

let browser;
let context;

before(async () => {
  assert.ok(BASE, "RFC1738_SERVE_URL must name the running server");
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

after(async () => {
  await browser?.close();
});

// A page with every dialog and every request to another origin recorded.
async function open(path = "/") {
  const page = await context.newPage();
  page.dialogs = [];
  page.foreign = [];
  page.on("dialog", (d) => {
    page.dialogs.push(d.message());
    d.dismiss();
  });
  page.on("request", (r) => {
    if (!r.url().startsWith(BASE)) page.foreign.push(r.url());
  });
  await page.goto(BASE + path);
  return page;
}

async function type(page, text) {
  await page.fill("#url", text);
  await page.waitForFunction((t) => document.body.dataset.shown === t, text);
}

async function part(page, name) {
  const p = page.locator(`#drawing .part[data-part="${name}"]`).first();
  return { text: await p.locator(".text").textContent(), label: await p.locator(".label").textContent() };
}

async function row(page, name) {
  const r = page.locator(`#compare tr[data-part="${name}"]`);
  const cells = await r.locator("td").allTextContents();
  return { differ: (await r.getAttribute("class"))?.includes("differ") ?? false, cells };
}

// A screenshot of the whole page, or of what the viewport shows.
async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage });
}

test("each part of an ftp URL is marked and labelled", async () => {
  const page = await open();
  await type(page, "ftp://myname@host.dom:2121/pub/%2Fetc/motd;type=a");
  assert.deepEqual(await part(page, "scheme"), { text: "ftp", label: "scheme" });
  assert.deepEqual(await part(page, "user"), { text: "myname", label: "user" });
  assert.deepEqual(await part(page, "host"), { text: "host.dom", label: "host" });
  assert.deepEqual(await part(page, "port"), { text: "2121", label: "port" });
  assert.deepEqual(await part(page, "ftp.name"), { text: "motd", label: "ftp.name" });
  assert.deepEqual(await part(page, "ftp.typecode"), { text: "a", label: "ftp.typecode" });
  const cwd = await page.locator('#drawing .part[data-part="ftp.cwd"] .text').allTextContents();
  assert.deepEqual(cwd, ["pub", "%2Fetc"]);
  assert.match(await page.textContent("#explain"), /CWD \/etc/);
  assert.match(await page.textContent("#verdict"), /valid: an ftp URL/);
  await shot(page, "ftp-parts");
  assert.deepEqual(page.foreign, [], "the page fetches nothing from elsewhere");
  await page.close();
});

test("an invalid URL gets a caret under its offset, with the rule", async () => {
  const page = await open();
  await type(page, "http://host.dom/my file.html");
  assert.equal(await page.isVisible("#error"), true);
  const [shown, caret] = (await page.textContent("#caret")).split("\n");
  assert.equal(shown, "http://host.dom/my file.html");
  assert.equal(caret, " ".repeat(18) + "^");
  assert.match(await page.textContent("#error-text"), /unsafe character must be encoded at offset 18 \(in hpath/);
  await shot(page, "error-caret");
  await page.close();
});

test("an empty user name: RFC 1738 keeps it, new URL() drops it", async () => {
  const page = await open();
  await type(page, "ftp://@host.dom/pub/%2Fetc/motd;type=a");
  assert.deepEqual(await part(page, "user"), { text: "\u2205", label: "user (empty)" });
  const user = await row(page, "user");
  assert.equal(user.differ, true);
  assert.equal(user.cells[1], '"" (empty)');
  assert.match(user.cells[3], /empty user name/);
  assert.equal((await row(page, "host")).differ, false);
  // The user, and the CWD and TYPE new URL() has no word for.
  assert.match(await page.textContent("#compare-summary"), /3 differences/);
  await shot(page, "empty-user");
  await page.close();
});

test("an encoded dot segment: new URL() climbs, RFC 1738 does not", async () => {
  const page = await open();
  await type(page, "http://a.dom/%2e%2e/b");
  const path = await row(page, "path");
  assert.equal(path.differ, true);
  assert.equal(path.cells[1], "/%2e%2e/b");
  assert.equal(path.cells[2], "/b");
  assert.match(path.cells[3], /%2e/);
  await shot(page, "dot-segment");
  await page.close();
});

test("a URL with markup stays text", async () => {
  const page = await open();
  // The page's own scripts (the static page has its shim's too); no more.
  const scripts = await page.evaluate(() => document.scripts.length);
  for (const hostile of ["http://a.dom/<script>window.__pwned=1</script>", 'http://a.dom/"><img src=x onerror=alert(1)>']) {
    await type(page, hostile);
    assert.equal((await page.textContent("#caret")).split("\n")[0], hostile);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => document.scripts.length), scripts);
    assert.equal(await page.locator("img").count(), 0);
  }
  await shot(page, "markup-stays-text");
  assert.deepEqual(page.dialogs, []);
  await page.close();
});

test("a link reopens the same view", async () => {
  const page = await open("/?url=" + encodeURIComponent("gopher://h.dom/7a%09rfc1738"));
  await page.waitForFunction(() => document.body.dataset.shown !== undefined);
  assert.equal(await page.inputValue("#url"), "gopher://h.dom/7a%09rfc1738");
  assert.deepEqual(await part(page, "gopher.search"), { text: "rfc1738", label: "gopher.search" });
  const search = await row(page, "search");
  assert.equal(search.differ, true);
  assert.match(search.cells[3], /encoded TAB/);
  await type(page, "news:comp.lang.rust");
  assert.equal(await page.getAttribute("#link", "href"), "/?url=" + encodeURIComponent("news:comp.lang.rust"));
  await page.close();
});

test("many lines: a table with a filter and a summary (old form)", async () => {
  const page = await open();
  await page.click("#tab-many");
  await page.fill("#lines", ["http://a.dom/", "ftp://b.dom/x;type=q", "gopher://c.dom/1", "http://d.dom/a b"].join("\n"));
  await page.click("#check");
  await page.waitForFunction(() => document.body.dataset.checked === "4");
  assert.match(await page.textContent("#summary"), /Checked 4 lines: 2 valid, 2 invalid/);
  assert.equal(await page.locator("#results tbody tr").count(), 4);
  await page.selectOption("#filter-valid", "invalid");
  assert.equal(await page.locator("#results tbody tr").count(), 2);
  await page.selectOption("#filter-scheme", "ftp");
  const cells = await page.locator("#results tbody tr td").allTextContents();
  assert.equal(cells[1], "ftp://b.dom/x;type=q");
  await page.selectOption("#filter-valid", "");
  await page.selectOption("#filter-scheme", "");
  await shot(page, "many-lines");
  await page.close();
});

// ------------------------------------------------------- every box, every width

test("an invalid URL: parts up to the error, a lenient reading, every comparison row", async () => {
  const page = await open();
  await type(page, "http://host.dom/my file.html");
  // The drawing: the parts read before the error, then what was not read.
  assert.deepEqual(await part(page, "host"), { text: "host.dom", label: "host" });
  assert.deepEqual(await part(page, "http.path"), { text: "my", label: "http.path" });
  assert.match(await page.textContent('#drawing [data-part="unread"]'), /^ file\.html/);
  assert.equal(await page.locator('#drawing [data-part="unread"] .space').count(), 1);
  // Parts, explanation, normal form, warnings: each says something.
  assert.match(await page.textContent("#parts-note"), /lenient reading/);
  assert.equal(await page.locator("#parts tbody tr").count(), 3);
  assert.match(await page.textContent("#explain"), /connect to host\.dom on TCP port 80/);
  assert.equal(await page.textContent("#normal"), "http://host.dom/my%20file.html");
  assert.match(await page.textContent("#deviations"), /unsafe-char at offset 18/);
  // The comparison is whole: a row per part, each with a verdict.
  const verdicts = await page.locator("#compare tbody tr").evaluateAll((rows) =>
    rows.map((r) => [r.dataset.part, r.dataset.verdict]));
  assert.deepEqual(verdicts.map((v) => v[0]),
    ["accepts", "scheme", "user", "password", "host", "port", "path", "search", "fragment"]);
  assert.deepEqual(Object.fromEntries(verdicts).accepts, "differ");
  assert.deepEqual(Object.fromEntries(verdicts).host, "agree");
  assert.match((await row(page, "accepts")).cells[3], /new URL\(\) accepts what RFC 1738 rejects/);
  await shot(page, "invalid");
  // Nothing reads it: still every box and every row.
  await type(page, "no scheme here");
  assert.match(await page.textContent("#explain"), /^Nothing: a client cannot use/);
  assert.match(await page.textContent("#normal"), /^None/);
  assert.equal(await page.textContent("#risks"), "none");
  assert.equal(await page.textContent("#deviations"), "none");
  assert.equal(await page.locator("#compare tbody tr").count(), 9);
  assert.match((await row(page, "accepts")).cells[2], /^no: it throws/);
  await page.close();
});

test("gopher without a port: no false disagreement on the port", async () => {
  const page = await open();
  await type(page, "gopher://h.dom/1");
  const port = await row(page, "port");
  assert.equal(port.differ, false);
  assert.equal(port.cells[1], "70 (default)");
  assert.match(port.cells[3], /^agree: neither names a port/);
  assert.match(await page.textContent("#compare-summary"), /they agree/);
  await type(page, "gopher://h.dom:71/1");
  assert.equal((await row(page, "port")).differ, false, "both read 71");
  await page.close();
});

const LONG = "http://host.dom/" + "segment-of-a-long-path/".repeat(86) + "end?" + "q".repeat(10);
const WIDTH_INPUTS = {
  valid: "ftp://myname@host.dom:2121/pub/%2Fetc/motd;type=a",
  invalid: "http://host.dom/my file.html with spaces and a very long tail that goes on and on",
  long: LONG,
  mailto: "mailto:someone.with.a.long.name@a-rather-long-host-name.example.dom",
};

test("no horizontal scroll at 320, 390, 768 and 1280 px", async () => {
  assert.ok(LONG.length >= 2000, String(LONG.length));
  for (const width of [320, 390, 768, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(BASE + "/");
    for (const [name, url] of Object.entries(WIDTH_INPUTS)) {
      await type(page, url);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= width, `${name} at ${width} px: the page is ${wide} px wide`);
      if (width === 390 && name === "valid") await shot(page, "phone", false);
      if (width === 390 && name === "invalid") await shot(page, "phone-invalid");
    }
    await page.click("#tab-many");
    await page.fill("#lines", Object.values(WIDTH_INPUTS).join("\n"));
    await page.click("#check");
    await page.waitForFunction(() => document.body.dataset.checked === "4");
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `many lines at ${width} px: the page is ${wide} px wide`);
    await ctx.close();
  }
});

// ------------------------------------------------------------- many lines

const LOG = [
  '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326',
  '127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /a b.html HTTP/1.0" 404 12',
  '127.0.0.1 - - [10/Oct/2000:13:55:38 -0700] "GET ftp://ftp.dom/x;type=q HTTP/1.0" 200 7',
  '127.0.0.1 - - [10/Oct/2000:13:55:39 -0700] "GET /x<y HTTP/1.0" 400 0',
  '127.0.0.1 - - [10/Oct/2000:13:55:40 -0700] "-" 408 0',
  '127.0.0.1 - - [10/Oct/2000:13:55:41 -0700] "GET gopher://g.dom/1 HTTP/1.0" 200 9',
].join("\n");

test("many lines: a log is detected, the bars are the API's counts, a bar filters", async () => {
  const api = await (await fetch(API + "/api/check", { method: "POST", body: LOG })).text();
  const records = api.split("\n").filter((l) => l).map((l) => JSON.parse(l));
  const expect = (key) => {
    const m = {};
    for (const r of records) if (key(r) !== null) m[key(r)] = (m[key(r)] || 0) + 1;
    return m;
  };
  const page = await open();
  await page.click("#tab-many");
  await page.fill("#lines", LOG);
  await page.click("#check");
  await page.waitForFunction(() => document.body.dataset.checked === "6");
  assert.match(await page.textContent("#detected"), /Common Log Format/);
  const barsOf = (id) => page.locator(`#${id} .bar`).evaluateAll((bars) =>
    Object.fromEntries(bars.map((b) => [b.dataset.key, Number(b.dataset.count)])));
  assert.deepEqual(await barsOf("by-scheme"), expect((r) => r.scheme || "(no scheme)"));
  assert.deepEqual(await barsOf("by-error"), expect((r) => (r.valid ? null : r.error.kind + " (" + r.error.rule + ")")));
  const headers = await page.locator("#by-scheme thead th").allTextContents();
  assert.deepEqual(headers, ["scheme", "lines (click to filter)", "invalid"]);
  await page.click('#by-error .bar[data-key="unsafe (hpath)"]');
  assert.equal(await page.locator("#results tbody tr").count(), 2);
  assert.equal(await page.getAttribute('#by-error .bar[data-key="unsafe (hpath)"]', "aria-pressed"), "true");
  await shot(page, "many-lines-log");
  await page.click('#by-error .bar[data-key="unsafe (hpath)"]');
  assert.equal(await page.locator("#results tbody tr").count(), 6);
  await page.close();
});

test("several lines pasted into the URL field: an offer to check them all", async () => {
  const page = await open();
  await page.focus("#url");
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData("text/plain", "http://a.dom/\nhttp://b.dom/ x\ngopher://c.dom/1\n");
    document.getElementById("url").dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.body.dataset.shown === "http://a.dom/");
  assert.equal(await page.isVisible("#paste-offer"), true);
  assert.match(await page.textContent("#paste-text"), /You pasted 3 lines/);
  await page.click("#paste-go");
  await page.waitForFunction(() => document.body.dataset.checked === "3");
  assert.equal(await page.getAttribute("#tab-many", "aria-selected"), "true");
  assert.match(await page.textContent("#detected"), /list of URLs/);
  await page.close();
});

// ---------------------------------------------------------- accessibility

test("tabs follow the WAI-ARIA pattern: roles, one tab stop, arrow keys", async () => {
  const page = await open();
  assert.equal(await page.getAttribute(".tabs", "role"), "tablist");
  assert.deepEqual(await page.locator('[role="tab"]').evaluateAll((t) => t.map((x) => x.tabIndex)), [0, -1]);
  await page.focus("#tab-one");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-many");
  assert.equal(await page.getAttribute("#tab-many", "aria-selected"), "true");
  assert.equal(await page.isVisible("#many"), true);
  assert.equal(await page.isVisible("#one"), false);
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-one", "the keys wrap around");
  await page.keyboard.press("End");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-many");
  await page.keyboard.press("Home");
  assert.equal(await page.getAttribute("#tab-one", "aria-selected"), "true");
  await page.close();
});

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

// axe-core in the page: the violations that are serious or critical.
async function axe(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "));
}

test("axe-core finds no serious violation (contrast 4.5:1 included)", async () => {
  const page = await open();
  for (const url of [WIDTH_INPUTS.valid, "ftp://@host.dom/x", WIDTH_INPUTS.invalid, "gopher://h.dom/7a%09b#f", "no scheme"]) {
    await type(page, url);
    assert.deepEqual(await axe(page), [], url);
  }
  await page.click("#tab-many");
  await page.fill("#lines", LOG);
  await page.click("#check");
  await page.waitForFunction(() => document.body.dataset.checked === "6");
  assert.deepEqual(await axe(page), [], "many lines");
  await page.close();
});

test("the favicon is served and the console stays clean", async () => {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(r.status() + " " + r.url());
  });
  await page.goto(BASE + "/?url=" + encodeURIComponent("http://a.dom/"));
  await page.waitForFunction(() => document.body.dataset.shown !== undefined);
  const icon = await fetch(API + "/favicon.ico");
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get("content-type"), "image/svg+xml");
  assert.deepEqual(problems, []);
  await page.close();
});
