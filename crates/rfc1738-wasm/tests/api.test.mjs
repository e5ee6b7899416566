// The package's functions one by one: each answer, each error path,
// values that are not strings, lone surrogates, a 10 MB input, and memory
// that stays flat over a million calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg } from "./package.mjs";

const r = await import(pkg);

test("parse: the parts of an ftp URL, an empty user kept apart from an absent one (§3.1)", () => {
  const u = r.parse("FTP://@host.dom:2121/pub/f%20x;type=i#frag");
  assert.equal(u.href, "ftp://@host.dom:2121/pub/f%20x;type=i#frag");
  assert.equal(u.scheme, "ftp");
  assert.equal(u.kind, "ftp");
  assert.equal(u.user, "");
  assert.equal(u.password, null);
  assert.equal(u.host, "host.dom");
  assert.equal(u.port, 2121);
  assert.equal(u.effectivePort, 2121);
  assert.equal(u.urlPath, "pub/f%20x;type=i");
  assert.equal(u.fragment, "frag");
  assert.deepEqual(u.offsets, {
    scheme: [0, 3], user: [6, 6], password: null, host: [7, 15], port: [16, 20], urlPath: [21, 37], fragment: [38, 42],
  });
  assert.deepEqual(u.ftp.cwd, ["pub"]);
  assert.equal(u.ftp.name, "f x");
  assert.equal(u.ftp.typecode, "i");
  assert.equal(u.http, null);
  assert.equal(String(u), u.href);
  assert.equal(JSON.parse(JSON.stringify(u)).host, "host.dom");
  assert.equal(r.parse("ftp://h.dom/").user, null);
  assert.equal(r.parse("ftp://h.dom/").effectivePort, 21);
  assert.equal(r.parse("http://u%3Ax:p%41ss@h.dom/".replace("http", "ftp")).user, "u:x");
  assert.equal(r.parse("ftp://u:p%41ss@h.dom/").password, "pAss");
  assert.equal(new r.Url("news:comp.lang.c").news.group, "comp.lang.c");
});

test("parse: each scheme's view", () => {
  assert.deepEqual(r.parse("gopher://h.dom/7a%09b").gopher.search, "b");
  assert.deepEqual(r.parse("http://h.dom/p?q").http, { path: "p", search: "q" });
  assert.equal(r.parse("mailto:a@b.dom").mailto.address, "a@b.dom");
  assert.deepEqual(r.parse("nntp://h.dom/g.x/12").nntp, { group: "g.x", article: 12 });
  assert.deepEqual(r.parse("telnet://u@h.dom/").telnet, {});
  assert.equal(r.parse("wais://h.dom/db?s").wais.form, "index");
  assert.equal(r.parse("file:///etc/motd").file.is_local, true);
  assert.deepEqual(r.parse("prospero://h.dom/p;a=b").prospero.fields, [["a", "b"]]);
  assert.equal(r.parse("x-y:z").other.experimental, true);
  // A port above 65535: written, but no TCP port (§5 gives no range).
  const u = r.parse("http://h.dom:70000/");
  assert.equal(u.port, 70000);
  assert.equal(u.effectivePort, null);
});

test("errors: offset, kind, rule and message; thrown by parse, returned by validate", () => {
  const e = r.validate("http://h.dom/a b");
  assert.ok(e instanceof r.ParseError && e instanceof Error);
  assert.deepEqual([e.offset, e.kind, e.rule], [14, "unsafe", "hpath"]);
  assert.equal(e.reason, "unsafe character must be encoded");
  assert.match(e.message, /at offset 14/);
  assert.equal(e.input, "http://h.dom/a b");
  assert.throws(() => r.parse("http://h.dom/a b"), (x) => x instanceof r.ParseError && x.offset === 14);
  assert.throws(() => new r.Url(""), (x) => x.kind === "empty-scheme" && x.offset === 0);
  assert.equal(r.validate("http://h.dom/"), null);
  assert.throws(() => r.normalize("http://h:x/"), (x) => x.offset === 9 && x.rule === "port");
  assert.throws(() => r.explain("nope"), r.ParseError);
  // The same answers leniently, with the deviation as a warning.
  assert.equal(r.validate("http://h.dom/a b", { lenient: true }), null);
  const u = r.parse("http://h.dom/a b", { lenient: true });
  assert.equal(u.isLenient, true);
  assert.equal(u.warnings[0].offset, 14);
  assert.equal(r.parse("http://h.dom/").isLenient, false);
});

test("normalize, explain, resolve", () => {
  assert.equal(r.normalize("HTTP://H.DOM:80/%7e"), "http://h.dom/%7E");
  assert.equal(r.parse("HTTP://H.DOM:80/%7e").normalize().href, "http://h.dom/%7E");
  assert.match(r.explain("ftp://h.dom/a;type=d")[0], /RFC 1738 §3.2/);
  assert.deepEqual(r.parse("ftp://h.dom/f").explain(), r.explain("ftp://h.dom/f"));
  assert.equal(r.resolve("http://a/b/c/d", "../g"), "http://a/b/g");
  assert.equal(r.parse("http://a/b/c/d").resolve("g?y").href, "http://a/b/c/g?y");
  assert.throws(() => r.resolve("http://a b/", "g"), r.ParseError);
  assert.throws(() => r.resolve("http://a/b", "http:g"), (x) => x instanceof r.ResolveError &&
    x.kind === "not-rfc1738" && x.resolved === "http:g" && x.offset === 5 && x.rule === "ip-schemepart");
  assert.throws(() => r.resolve("mailto:a@b.dom", "g"), (x) => x.kind === "not-hierarchical" && x.offset === 0);
  assert.throws(() => r.resolve("http://a/b", "g h"), (x) => x.kind === "invalid-char" && x.offset === 1);
  assert.throws(() => r.resolve("http://a/b", "é%"), (x) => x.kind === "invalid-char" && x.offset === 0);
  assert.throws(() => r.resolve("http://a/b", "g%zz"), (x) => x.kind === "invalid-escape" && x.offset === 1);
});

test("extract: URLs in free text, offsets in the string's indices", () => {
  const text = "é see <URL:ftp://h.dom/x> and http://a.dom/.";
  const found = r.extract(text);
  assert.deepEqual(found.map((m) => m.url), ["ftp://h.dom/x", "http://a.dom/"]);
  assert.equal(text.slice(found[0].start, found[0].end), "<URL:ftp://h.dom/x>");
  assert.equal(text.slice(found[1].start, found[1].end), "http://a.dom/");
  assert.equal(found[0].form, "url-prefix");
  assert.deepEqual(r.extract("<URL:ftp://x.org/internet-\ndrafts>")[0].hyphenBreaks, [20]);
  assert.deepEqual(r.extract(""), []);
});

test("check: many lines in one call, as a string or an array", () => {
  const res = r.check("http://a.dom/\r\nhttp://a.dom/ b\n\nnews:x\n");
  assert.equal(res.length, 4);
  assert.deepEqual([...res.valid], [1, 0, 0, 1]);
  assert.equal(res.invalid, 2);
  assert.deepEqual(res.errors.map((e) => [e.line, e.offset, e.kind]), [[1, 13, "unsafe"], [2, 0, "empty-scheme"]]);
  assert.equal(res.errors[0].input, "http://a.dom/ b");
  const arr = r.check(["é:x", "http://é/", "x:y", ""]);
  assert.deepEqual([...arr.valid], [0, 0, 1, 0]);
  assert.deepEqual(arr.errors.map((e) => [e.line, e.offset]), [[0, 0], [1, 7], [3, 0]]);
  // An element holding a line break is read whole, as one URL.
  const odd = r.check(["http://a.dom/\nx", "x:y"]);
  assert.deepEqual([...odd.valid], [0, 1]);
  assert.equal(odd.errors[0].offset, 13);
  // A "\r" ending an element is part of it, not of a line break.
  const cr = r.check(["http://a.dom/\r", "x:y"]);
  assert.deepEqual([...cr.valid], [0, 1]);
  assert.equal(cr.errors[0].offset, 13);
  assert.equal(r.check("").length, 0);
  assert.equal(r.check([]).length, 0);
  assert.deepEqual([...r.check("http://a.dom/ b", { lenient: true }).valid], [1]);
});

test("values that are not strings: TypeError, or false from isValid", () => {
  for (const v of [undefined, null, 42, {}, ["http://a/"], new URL("http://a.dom/"), Symbol("s")]) {
    assert.equal(r.isValid(v), false);
    assert.throws(() => r.parse(v), TypeError);
    assert.throws(() => r.validate(v), TypeError);
    assert.throws(() => r.normalize(v), TypeError);
    assert.throws(() => r.explain(v), TypeError);
    assert.throws(() => r.extract(v), TypeError);
    assert.throws(() => r.resolve(v, "g"), TypeError);
    assert.throws(() => r.resolve("http://a/", v), TypeError);
    if (!Array.isArray(v)) assert.throws(() => r.check(v), TypeError);
  }
  assert.throws(() => r.check(["x:y", 5]), TypeError);
});

test("lone surrogates: a non-ASCII error at their index, never a throw of another kind", () => {
  for (const [s, at] of [["\ud800", 13], ["\udfff", 13], ["a\ud800b", 14], ["a\udc00\ud800", 14]]) {
    const input = "http://h.dom/" + s;
    const e = r.validate(input);
    assert.deepEqual([e.offset, e.kind], [at, "non-ascii"]);
    assert.equal(r.isValid(input), false);
    assert.throws(() => r.parse(input), r.ParseError);
  }
  const e = r.validate("ftp://h\ud800.dom/");
  assert.deepEqual([e.offset, e.kind], [7, "non-ascii"]);
  // In free text, a surrogate is a character like another: offsets count it.
  const text = "\ud800 http://a.dom/ \udc00";
  const [m] = r.extract(text);
  assert.equal(text.slice(m.start, m.end), "http://a.dom/");
  // A valid pair (an astral character) counts two indices.
  const astral = "😀 http://a.dom/";
  assert.equal(astral.slice(...[r.extract(astral)[0]].map((x) => [x.start, x.end])[0]), "http://a.dom/");
  assert.equal(r.validate("http://h.dom/😀x").offset, 13);
});

test("a 10 MB input: read whole, its error found at its offset", () => {
  const path = "a".repeat(10 << 20);
  const url = "http://h.dom/" + path;
  assert.equal(r.isValid(url), true);
  const u = r.parse(url);
  assert.equal(u.urlPath.length, 10 << 20);
  const bad = url + " x";
  assert.equal(r.validate(bad).offset, url.length);
  assert.equal(r.check(url + "\n" + bad).invalid, 1);
  assert.equal(r.extract("see " + url + " ").length, 1);
  // A small input after a big one is read alone.
  assert.equal(r.isValid("http://h.dom/"), true);
  assert.equal(r.validate("x y").offset, 1);
});

test("an answer that grows the module's memory is read whole", () => {
  // 100,000 URLs found: a JSON answer of 15 MB, made in the call.
  const text = "é http://a.dom/x ".repeat(100000);
  const found = r.extract(text);
  assert.equal(found.length, 100000);
  assert.equal(text.slice(found[99999].start, found[99999].end), "http://a.dom/x");
});

test("memory stays flat over a million calls", () => {
  const mem = () => r.__memoryBytes();
  r.isValid("http://warm.dom/");
  r.parse("http://warm.dom/").toJSON();
  r.validate("http://h.dom/a b");
  const before = mem();
  for (let k = 0; k < 1_000_000; k++) {
    const n = k % 4;
    if (n === 0) r.isValid("http://h.dom/p" + k);
    else if (n === 1) r.parse("ftp://@h.dom/p" + k).host;
    else if (n === 2) r.validate("http://h.dom/a b" + k);
    else if (k % 1000 === 3) r.parse("gopher://h.dom/1" + k).toJSON();
  }
  assert.equal(mem(), before, "the module's memory grew");
});

// Each `expression; // value` line of the READMEs' examples (the
// package's and the project's), checked.
for (const readme of ["../npm/README.md", "../../../README.md"]) {
  test(`${readme}: each example says what the package answers`, async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(new URL(readme, import.meta.url), "utf8");
    const code = /```js\n([\s\S]*?)```/.exec(text)[1];
    const names = Object.keys(r).join(", ");
    const body = code.replace(/^import .*$/m, "").replace(/^(\s*)(\S.*?);\s*\/\/ (\S.*?)(?: \(.*|: .*)?$/gm,
      (_, indent, expr, want) => `${indent}checks.push([${JSON.stringify(expr)}, ${expr}, ${want}]);`);
    const checks = [];
    new Function("r", "checks", `const { ${names} } = r;\n${body}`)(r, checks);
    assert.ok(checks.length >= 6, `${checks.length} checks read`);
    for (const [expr, got, want] of checks) assert.deepEqual(got, want, expr);
  });
}
