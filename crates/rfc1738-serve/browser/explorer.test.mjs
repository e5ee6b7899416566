// The explorer page in headless Chromium (Debian's package), driven by
// playwright-core. scripts/test-browser starts `rfc1738 serve` and passes
// its address in RFC1738_SERVE_URL; screenshots go to RFC1738_SHOTS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.RFC1738_SERVE_URL;
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

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage: true });
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
  assert.match(await page.textContent("#verdict"), /valid: a ftp URL/);
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
  assert.match(await page.textContent("#compare-summary"), /1 disagreement/);
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
  for (const hostile of ["http://a.dom/<script>window.__pwned=1</script>", 'http://a.dom/"><img src=x onerror=alert(1)>']) {
    await type(page, hostile);
    assert.equal((await page.textContent("#caret")).split("\n")[0], hostile);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => document.scripts.length), 1);
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

test("many lines: a table with a filter and a summary", async () => {
  const page = await open();
  await page.click("#tab-many");
  await page.fill("#lines", ["http://a.dom/", "ftp://b.dom/x;type=q", "gopher://c.dom/1", "http://d.dom/a b"].join("\n"));
  await page.click("#check");
  await page.waitForFunction(() => document.body.dataset.checked === "4");
  assert.match(await page.textContent("#summary"), /checked 4 URLs: 2 valid, 2 invalid/);
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
