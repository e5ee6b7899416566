// `rfc1738/core`, the parse alone from the smaller module: the same
// answers as the whole package (which differential.test.mjs holds to the
// command) on the samples and the corpus; under 40 KB gzipped; what it
// lacks says so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { pkg } from "./package.mjs";

const full = await import(pkg);
const core = await import(pkg.replace(/rfc1738\.js$/, "core.js"));
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");

test("the core module is under 40 KB gzipped", () => {
  const wasm = readFileSync(new URL("rfc1738-core.wasm", pkg));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gz < 40 * 1024, `${gz} bytes gzipped`);
});

test("what the core lacks throws, naming the whole package", () => {
  const u = core.parse("ftp://h.dom/a;type=i");
  for (const f of [() => u.toJSON(), () => u.ftp, () => u.warnings, () => u.normalize(), () => u.explain(), () => u.resolve("b")]) {
    assert.throws(f, /rfc1738\/core has no .*import "rfc1738"/);
  }
  assert.equal(core.ParseError, full.ParseError);
  assert.equal(core.normalize, undefined);
});

function lines() {
  const out = readFileSync(join(root, "crates/rfc1738/tests/bulk-sample.txt"), "utf8").split("\n");
  const corpus = [join(root, "../shared/corpus"), join(root, "../../shared/corpus")].find((d) => existsSync(d));
  if (corpus) {
    for (const name of readdirSync(corpus).filter((n) => n.endsWith(".txt"))) {
      out.push(...readFileSync(join(corpus, name), "utf8").split("\n"));
    }
  }
  return out.map((l) => l.replace(/\r$/, "")).filter((l) => l !== "");
}

const PARTS = ["href", "scheme", "kind", "user", "password", "host", "port", "effectivePort", "urlPath", "fragment", "isLenient", "offsets"];

for (const lenient of [false, true]) {
  test(`the same answers as the whole package on every line${lenient ? ", lenient" : ""}`, () => {
    const all = lines();
    const opts = { lenient };
    let diffs = 0;
    for (const l of all) {
      const [a, b] = [core.validate(l, opts), full.validate(l, opts)];
      assert.equal(core.isValid(l, opts), b === null, l);
      assert.deepEqual(a && [a.offset, a.kind, a.rule, a.reason], b && [b.offset, b.kind, b.rule, b.reason], l);
      if (b === null) {
        const [u, v] = [core.parse(l, opts), full.parse(l, opts)];
        for (const p of PARTS) if (JSON.stringify(u[p]) !== JSON.stringify(v[p])) diffs++;
      }
    }
    assert.equal(diffs, 0);
    const text = all.join("\n");
    const [c, f] = [core.check(text, opts), full.check(text, opts)];
    assert.deepEqual([...c.valid], [...f.valid]);
    assert.deepEqual(c.errors.map((e) => [e.line, e.offset, e.kind, e.rule, e.reason, e.input]),
      f.errors.map((e) => [e.line, e.offset, e.kind, e.rule, e.reason, e.input]));
  });
}
