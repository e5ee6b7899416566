// The page at its limits, each point at a phone's width (390 px) and a
// desktop's (1280 px): errors of the API shown as messages, long values
// collapsed, the comparison's column and counts, no word broken, the
// visible space, copy buttons, dark mode, the RFC's examples, and the
// many-lines view (a caret at each error, a lenient switch, method and
// status of log lines). scripts/test-browser starts the server with a
// body limit of 200 kB and 2000 lines.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.RFC1738_SERVE_URL;
// The static page (scripts/build-site) has no server, and so none of its limits.
const STATIC = process.env.RFC1738_STATIC === "1";
const SHOTS = process.env.RFC1738_SHOTS || "shots";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const WIDTHS = [390, 1280];

let browser;

before(async () => {
  assert.ok(BASE, "RFC1738_SERVE_URL must name the running server");
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
});

async function open(width, options = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(BASE + "/");
  return page;
}

// Typing, as an input event; long texts are set at once (filling them
// character by character takes the browser minutes).
async function type(page, text) {
  await page.evaluate((t) => {
    const input = document.getElementById("url");
    input.value = t;
    input.dispatchEvent(new Event("input"));
  }, text);
  await page.waitForFunction((n) => (document.body.dataset.shown ?? "").length === n && document.body.dataset.shown === document.getElementById("url").value, text.length);
}

async function checkLines(page, text) {
  await page.click("#tab-many");
  await page.evaluate((t) => {
    delete document.body.dataset.checked;
    document.getElementById("lines").value = t;
  }, text);
  await page.click("#check");
  await page.waitForFunction(() => document.body.dataset.checked !== undefined);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, name + ".png"), fullPage: true });
}

async function close(page) {
  assert.deepEqual(page.errors, [], "the page threw");
  await page.context().close();
}

// Every word of the prose in `selector` lies on one line: none is
// broken across two.
async function brokenWords(page, selector) {
  return page.evaluate((sel) => {
    const broken = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest(".mono, pre, button")) continue;
        for (const m of node.textContent.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);
}

for (const width of WIDTHS) {
  test(`${width} px: an API error is a message, and nothing stale stays`, { skip: STATIC && "the static page has no server limits" }, async () => {
    const page = await open(width);
    await type(page, "ftp://host.dom/pub/motd;type=i");
    assert.ok(await page.locator("#compare tbody tr").count() > 0);
    // Longer than any request line the server reads.
    const huge = "http://host.dom/" + "a".repeat(70000);
    await type(page, huge);
    await page.waitForFunction(() => document.body.dataset.refused === "true");
    assert.match(await page.textContent("#verdict"), /^No answer for this text: .*\(414, url-too-long\)/);
    assert.equal(await page.locator("#compare tbody tr").count(), 0, "no verdict of the URL before");
    assert.equal(await page.locator("#parts tbody tr").count(), 0);
    assert.equal(await page.textContent("#normal"), "");
    assert.equal(await page.textContent("#drawing"), "");
    // Many lines: a body over the limit, then a good one, then too many lines.
    await checkLines(page, "http://a.dom/\nhttp://b.dom/ x\n");
    assert.equal(await page.locator("#results tbody tr").count(), 2);
    await checkLines(page, ("http://a.dom/" + "x".repeat(90) + "\n").repeat(2200));
    assert.equal(await page.getAttribute("body", "data-refused"), "true");
    assert.match(await page.textContent("#summary"), /^Not checked: .*\(413, body-too-large\)/);
    assert.equal(await page.locator("#results tbody tr").count(), 0, "no rows of the check before");
    assert.equal(await page.isVisible("#charts"), false);
    await checkLines(page, "h:\n".repeat(2001));
    assert.match(await page.textContent("#summary"), /2001 lines, more than the limit of 2000 \(413, too-many-lines\)/);
    await shot(page, `refused-${width}`);
    await close(page);
  });

  test(`${width} px: a long value is shown once, cut, with "show all"`, async () => {
    const page = await open(width);
    const long = "http://host.dom/" + "segment-of-a-long-path/".repeat(86) + "end";
    await type(page, long);
    const whole = await page.evaluate((l) => document.body.innerText.split(l).length - 1, long);
    assert.equal(whole, 0, "the whole URL is printed nowhere before asked");
    const more = page.locator("#normal button.more");
    assert.equal(await more.textContent(), `show all ${long.length} characters`);
    await more.click();
    assert.equal(await page.textContent("#normal .value"), long);
    assert.equal(await more.getAttribute("aria-expanded"), "true");
    await more.click();
    assert.ok((await page.textContent("#normal .value")).length < 200);
    // The comparison's values too.
    assert.ok(await page.locator('#compare tr[data-part="path"] button.more').count() === 2);
    await close(page);
  });

  test(`${width} px: the column is this browser's new URL(); ftp's CWD and TYPE are differences`, async () => {
    const page = await open(width);
    await type(page, "ftp://host.dom/pub/motd;type=i");
    const heads = await page.locator("#compare thead th").allTextContents();
    assert.deepEqual(heads, ["part", "RFC 1738", "this browser's new URL()", "verdict"]);
    assert.match(await page.textContent("#one h2:has(#compare-summary)"), /RFC 1738 and this browser's new URL\(\)/);
    const rows = await page.locator("#compare tbody tr").evaluateAll((rs) =>
      Object.fromEntries(rs.map((r) => [r.dataset.part, r.dataset.verdict])));
    assert.equal(rows["ftp CWD"], "only RFC 1738");
    assert.equal(rows["ftp typecode"], "only RFC 1738");
    assert.match(await page.textContent('#compare tr[data-part="ftp CWD"]'), /CWD pub/);
    assert.match(await page.textContent('#compare tr[data-part="ftp typecode"]'), /TYPE I/);
    assert.match(await page.textContent("#compare-summary"), /^\(2 differences\)$/);
    // An ftp URL with neither: nothing is counted that is not there.
    await type(page, "ftp://host.dom/motd");
    assert.match(await page.textContent("#compare-summary"), /they agree/);
    await close(page);
  });

  test(`${width} px: no word of the prose is broken mid-way`, async () => {
    const page = await open(width);
    for (const url of ["ftp://@host.dom/pub/%2Fetc/motd;type=a", "http://host.dom/my file.html",
      "gopher://h.dom/7a%09b#f", "no scheme", "http://a.dom/%2e%2e/b"]) {
      await type(page, url);
      assert.deepEqual(await brokenWords(page, "#compare, #parts, .note, #verdict, #risks, #deviations"), [], url);
    }
    await close(page);
  });

  test(`${width} px: a space is marked by CSS, and copied as a space`, async () => {
    const page = await open(width);
    await type(page, "http://host.dom/my file.html");
    const space = page.locator('#drawing [data-part="unread"] .space').first();
    assert.equal(await space.textContent(), " ");
    const style = await space.evaluate((e) => {
      const s = getComputedStyle(e);
      return [s.borderBottomWidth, s.borderLeftWidth, s.borderTopWidth, e.getBoundingClientRect().width > 4];
    });
    assert.deepEqual(style, ["1px", "1px", "0px", true]);
    assert.equal(await page.evaluate(() => document.body.innerText.includes("\u2420")), false);
    await close(page);
  });

  test(`${width} px: copy buttons on each value and on the normal form`, async () => {
    const page = await open(width, { permissions: ["clipboard-read", "clipboard-write"] });
    await type(page, "ftp://myname@host.dom/%2Fetc/motd");
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.click('#parts tr[data-part="host"] td[data-label="as written"] button.copy');
    assert.equal(await clipboard(), "host.dom");
    await page.click('#parts tr[data-part="ftp.cwd"] td[data-label="decoded"] button.copy');
    assert.equal(await clipboard(), "/etc");
    assert.equal(await page.getAttribute('#parts tr[data-part="user"] button.copy >> nth=0', "aria-label"), "copy user as written");
    await page.click("#copy-normal");
    assert.equal(await clipboard(), "ftp://myname@host.dom/%2Fetc/motd");
    assert.equal(await page.textContent("#copy-normal"), "copied");
    const buttons = await page.locator("#parts button.copy").count();
    assert.equal(buttons, 2 * (await page.locator("#parts tbody tr").count()));
    await close(page);
  });

  test(`${width} px: dark mode follows the system`, async () => {
    const page = await open(width, { colorScheme: "dark" });
    await type(page, "http://host.dom/my file.html");
    const [bg, ink] = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.backgroundColor, s.color];
    });
    assert.equal(bg, "rgb(21, 24, 29)");
    assert.equal(ink, "rgb(230, 233, 239)");
    assert.deepEqual(await axe(page), [], "contrast in dark mode");
    await shot(page, `dark-${width}`);
    await checkLines(page, LOG);
    assert.deepEqual(await axe(page), [], "many lines in dark mode");
    await close(page);
  });

  test(`${width} px: the empty page offers the RFC's examples`, async () => {
    const page = await open(width);
    assert.equal(await page.isVisible("#examples"), true);
    const urls = await page.locator("#examples button.example").allTextContents();
    assert.ok(urls.includes("ftp://myname@host.dom/%2Fetc/motd"), urls.join(" "));
    assert.ok(urls.length >= 8);
    await shot(page, `examples-${width}`);
    await page.click('#examples button[data-url="ftp://@host.com/"]');
    await page.waitForFunction(() => document.body.dataset.shown === "ftp://@host.com/");
    assert.equal(await page.inputValue("#url"), "ftp://@host.com/");
    assert.equal(await page.isVisible("#examples"), false);
    await type(page, "");
    assert.equal(await page.isVisible("#examples"), true);
    await close(page);
  });

  test(`${width} px: many lines: a caret at each error, a lenient switch, method and status`, async () => {
    const page = await open(width);
    await checkLines(page, ["http://a.dom/", "http://b.dom/a b", "gopher://c.dom/1", "ftp://d.dom/x;type=q"].join("\n"));
    const carets = await page.locator("#results pre.caret-line").allTextContents();
    assert.equal(carets.length, 2);
    assert.deepEqual(carets[0].split("\n"), ["http://b.dom/a b", " ".repeat(14) + "^"]);
    assert.equal(await page.isVisible('#results th:has-text("method")'), false, "no method column for URLs");
    // Lenient: the space is accepted, with a warning.
    await page.evaluate(() => { delete document.body.dataset.checked; });
    await page.check("#lenient-many");
    await page.waitForFunction(() => document.body.dataset.checked !== undefined);
    assert.match(await page.textContent("#summary"), /3 valid, 1 invalid/);
    assert.match(await page.textContent("#results tbody tr:nth-child(2)"), /unsafe-char at offset 14/);
    await page.uncheck("#lenient-many");
    // A log: its method and status.
    await checkLines(page, LOG);
    assert.equal(await page.isVisible('#results th:has-text("method")'), true);
    const second = await page.locator("#results tbody tr:nth-child(2) td").allTextContents();
    assert.equal(second[2], "GET");
    assert.equal(second[3], "404");
    const caret = (await page.textContent("#results tbody tr:nth-child(2) pre.caret-line")).split("\n");
    assert.equal(caret[0][caret[1].length - 1], " ", "the caret is under the space of /a b.html");
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `${wide} px wide`);
    await shot(page, `many-log-${width}`);
    await close(page);
  });
}

const LOG = [
  '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.0" 200 2326',
  '127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /a b.html HTTP/1.0" 404 12',
  '127.0.0.1 - - [10/Oct/2000:13:55:40 -0700] "-" 408 0',
].join("\n");

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

async function axe(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "));
}

// What a user tripped on: a long URL drawn whole before any table, empty
// result boxes before any URL, "a ftp URL", deviations listed as §6
// risks, and a log of many lines as one long page.
for (const width of WIDTHS) {
  test(`${width} px: a long part is collapsed in the drawing too`, async () => {
    const page = await open(width);
    const long = "http://host.dom/" + "a".repeat(10000);
    await type(page, long);
    const drawn = await page.textContent("#drawing");
    assert.ok(drawn.length < 400, `the drawing holds ${drawn.length} characters`);
    const more = page.locator("#drawing button.more");
    assert.equal(await more.count(), 1);
    const height = await page.evaluate(() => document.querySelector("#drawing").getBoundingClientRect().height);
    assert.ok(height < 300, `the drawing is ${height} px tall`);
    await more.click();
    assert.ok((await page.textContent("#drawing")).includes("a".repeat(10000)), "shown whole when asked");
    // A long rest after an error too.
    await type(page, "http://host.dom/ " + "b".repeat(5000));
    assert.ok((await page.textContent("#drawing")).length < 400);
    await shot(page, `long-drawing-${width}`);
    await close(page);
  });

  test(`${width} px: no empty result boxes before a URL`, async () => {
    const page = await open(width);
    assert.equal(await page.isVisible("#results-one"), false, "no skeleton of results");
    assert.equal(await page.isVisible("#examples"), true);
    await type(page, "ftp://host.dom/");
    assert.equal(await page.isVisible("#results-one"), true);
    await type(page, "");
    assert.equal(await page.isVisible("#results-one"), false);
    await close(page);
  });

  test(`${width} px: the article is said by sound, risks and deviations apart`, async () => {
    const page = await open(width);
    for (const [url, said] of [["ftp://host.dom/", "valid: an ftp URL"], ["http://host.dom/", "valid: an http URL"],
      ["gopher://host.dom/", "valid: a gopher URL"], ["x-y:z", "valid: an other URL"]]) {
      await type(page, url);
      assert.equal(await page.textContent("#verdict"), said);
    }
    await page.check("#lenient");
    await type(page, "http://user@host.dom:25/~x");
    await page.waitForFunction(() => document.querySelector("#risks li") !== null);
    const risks = await page.textContent("#risks");
    const deviations = await page.textContent("#deviations");
    assert.match(risks, /foreign-port/);
    assert.doesNotMatch(risks, /unsafe-char|disallowed-user/);
    assert.match(deviations, /unsafe-char/);
    assert.match(deviations, /disallowed-user/);
    assert.doesNotMatch(deviations, /foreign-port/);
    assert.match(await page.textContent("#one h2:has(+ #risks)"), /§6/);
    await close(page);
  });

  test(`${width} px: "they agree" is not drawn in the differences' colour`, async () => {
    const page = await open(width);
    const colour = () => page.evaluate(() => getComputedStyle(document.getElementById("compare-summary")).color);
    await type(page, "http://host.dom/a");
    assert.equal(await page.textContent("#compare-summary"), "(they agree)");
    const agree = await colour();
    await type(page, "ftp://host.dom/pub/motd;type=i");
    assert.match(await page.textContent("#compare-summary"), /difference/);
    assert.notEqual(await colour(), agree);
    await close(page);
  });

  test(`${width} px: a long log is shown a page at a time`, async () => {
    const page = await open(width);
    const lines = Array.from({ length: 260 }, (_, k) => `http://h${k}.dom/` + (k % 3 ? "" : " x")).join("\n");
    await checkLines(page, lines);
    assert.equal(await page.locator("#results tbody tr.valid, #results tbody tr.invalid").count(), 100);
    const more = page.locator("#results-more");
    assert.match(await more.textContent(), /show 100 more of 160/);
    await more.click();
    assert.equal(await page.locator("#results tbody tr.valid, #results tbody tr.invalid").count(), 200);
    await more.click();
    assert.equal(await page.locator("#results tbody tr.valid, #results tbody tr.invalid").count(), 260);
    assert.equal(await more.isVisible(), false);
    // A filter starts again at the first page.
    await page.selectOption("#filter-valid", "invalid");
    assert.equal(await page.locator("#results tbody tr.invalid").count(), 87);
    await shot(page, `long-log-${width}`);
    await close(page);
  });
}
