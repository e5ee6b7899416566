// The package against the native library: every line of the committed
// samples and of the corpus (shared/corpus beside the workspace, when it
// is there) read by both, strictly and leniently. The oracle is the
// `rfc1738` command's `parse --json` record of the same line
// ($RFC1738_BIN, built by scripts/test-npm).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pkg } from "./package.mjs";

const r = await import(pkg);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");
const BIN = process.env.RFC1738_BIN;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

// Lines of a file as the command reads them: split at "\n", a "\r"
// before it dropped; lines that are not UTF-8 left out (a string cannot
// hold their octets), and empty ones too (the command skips them).
function linesOf(buffer) {
  const out = [];
  let start = 0;
  while (start < buffer.length) {
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    let stop = end;
    if (stop > start && buffer[stop - 1] === 13) stop--;
    try {
      const line = strictUtf8.decode(buffer.subarray(start, stop));
      if (line !== "") out.push(line);
    } catch {
      // Octets that are not UTF-8.
    }
    start = end + 1;
  }
  return out;
}

// The inputs of the conformance cases: `[§x] ok|err INPUT ...`, with
// `\s`, `\t` and `\xHH` written out.
function caseInputs() {
  const dir = join(root, "crates/rfc1738/tests/cases");
  const out = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".txt"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      const m = /^\[[^\]]*\] (?:ok|err) (\S+)/.exec(line);
      if (!m) continue;
      const octets = [];
      const raw = m[1];
      for (let k = 0; k < raw.length; k++) {
        if (raw[k] === "\\" && raw[k + 1] === "s") { octets.push(32); k++; }
        else if (raw[k] === "\\" && raw[k + 1] === "t") { octets.push(9); k++; }
        else if (raw[k] === "\\" && raw[k + 1] === "x") { octets.push(parseInt(raw.slice(k + 2, k + 4), 16)); k += 3; }
        else octets.push(...Buffer.from(raw[k]));
      }
      const bytes = Buffer.from(octets);
      if (!bytes.includes(10) && !bytes.includes(13)) out.push(...linesOf(bytes));
    }
  }
  return out;
}

function oracle(lines, lenient) {
  const args = ["parse", "--json", "--keep-lines", "-", ...(lenient ? ["--lenient"] : [])];
  const run = spawnSync(BIN, args, { input: lines.join("\n") + "\n", maxBuffer: 1 << 30 });
  assert.ok(run.status === 0 || run.status === 1, `${BIN} exited ${run.status}: ${run.stderr}`);
  const records = run.stdout.toString("utf8").split("\n");
  records.pop();
  assert.equal(records.length, lines.length);
  return records.map((l) => withoutColumns(JSON.parse(l)));
}

// The command adds a `column` (1-based, in characters) to each error and
// warning for people; the library's record has the byte offset alone.
function withoutColumns(rec) {
  if (rec.error) delete rec.error.column;
  for (const w of rec.warnings ?? []) delete w.column;
  return rec;
}

const bytesBefore = (text, index) => Buffer.byteLength(text.slice(0, index));

// One line's answers against its record; returns a list of differences.
function compare(line, rec, lenient) {
  const opts = { lenient };
  const diffs = [];
  const same = (what, a, b) => {
    try {
      assert.deepEqual(a, b);
    } catch {
      const show = (v) => JSON.stringify(v)?.slice(0, 300);
      diffs.push(`${show(line)} ${lenient ? "lenient " : ""}${what}: ${show(a)} != ${show(b)}`);
    }
  };
  same("isValid", r.isValid(line, opts), rec.valid);
  const e = r.validate(line, opts);
  if (rec.valid) {
    same("validate", e, null);
    const u = r.parse(line, opts);
    same("toJSON", u.toJSON(), rec);
    same("scheme", u.scheme, rec.scheme);
    same("kind", u.kind, rec.kind);
    same("fragment", u.fragment, rec.fragment);
    same("view", u[rec.kind], rec[rec.kind]);
    same("warnings", u.warnings, rec.warnings);
    const ip = "host" in rec;
    same("user", u.user, ip ? rec.user : null);
    same("password", u.password, ip ? rec.password : null);
    same("port", u.port, ip ? rec.port : null);
    same("urlPath", u.urlPath, ip ? rec.url_path : null);
    if (ip) {
      same("host", u.host, rec.host);
      same("effectivePort", u.effectivePort, rec.effective_port);
    }
    for (const [part, range] of Object.entries(u.offsets)) {
      if (range === null) continue;
      const raw = line.slice(...range);
      if (part === "host") same("offsets.host", raw, u.host);
      if (part === "urlPath") same("offsets.urlPath", raw, u.urlPath);
      if (part === "fragment") same("offsets.fragment", raw, u.fragment);
      if (part === "scheme") same("offsets.scheme", raw.toLowerCase(), u.scheme);
    }
  } else {
    same("validate", e && { offset: bytesBefore(line, e.offset), kind: e.kind, rule: e.rule, message: e.reason }, rec.error);
    assert.throws(() => r.parse(line, opts), r.ParseError);
  }
  return diffs;
}

function differential(name, lines) {
  for (const lenient of [false, true]) {
    test(`${name}: ${lines.length} lines${lenient ? ", lenient" : ""}`, { skip: !BIN && "RFC1738_BIN is not set" }, () => {
      const records = oracle(lines, lenient);
      const diffs = [];
      lines.forEach((line, k) => diffs.push(...compare(line, records[k], lenient)));
      // The batch, of an array and of a text: the same verdicts and errors.
      for (const input of [lines, lines.join("\n")]) {
        const batch = r.check(input, { lenient });
        assert.equal(batch.length, lines.length);
        const invalid = new Map(batch.errors.map((e) => [e.line, e]));
        records.forEach((rec, k) => {
          if (batch.valid[k] !== (rec.valid ? 1 : 0)) diffs.push(`check ${JSON.stringify(lines[k])}: ${batch.valid[k]}`);
          const e = invalid.get(k);
          if (!rec.valid && (!e || e.input !== lines[k] || bytesBefore(lines[k], e.offset) !== rec.error.offset ||
              e.kind !== rec.error.kind || e.rule !== rec.error.rule || e.reason !== rec.error.message)) {
            diffs.push(`check error ${JSON.stringify(lines[k])}: ${e?.offset} ${e?.kind}`);
          }
        });
      }
      assert.equal(diffs.length, 0, `${diffs.length} differences:\n${diffs.slice(0, 8).join("\n")}`);
    });
  }
}

differential("bulk-sample.txt", linesOf(readFileSync(join(root, "crates/rfc1738/tests/bulk-sample.txt"))));
differential("conformance cases", caseInputs());

const corpus = [join(root, "../shared/corpus"), join(root, "../../shared/corpus")].find((d) => existsSync(d));
if (corpus) {
  for (const name of readdirSync(corpus).filter((n) => n.endsWith(".txt")).sort()) {
    differential(`corpus ${name}`, linesOf(readFileSync(join(corpus, name))));
  }
} else {
  test("corpus", { skip: "no shared/corpus beside the workspace" }, () => {});
}
