// The npm package `rfc1738` (its WebAssembly module) beside node's own
// URL parser (ada, in C++), url-parse and whatwg-url, on the corpus: every
// line of every .txt file of shared/corpus, one process, the parsers
// taking turns in an order that rotates from round to round. Each ratio
// is a median time over another's, from the same run.
//
//   node benches/node/bench.mjs [--rounds N] [--corpus DIR] [--markdown]
//
// The package is target/npm (scripts/build-npm); url-parse and whatwg-url
// come from this folder's package.json (npm ci).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const ROUNDS = Number(opt("--rounds", 15));
const markdown = args.includes("--markdown");
const npmDir = process.env.RFC1738_NPM || join(root, "target/npm");
const r = await import(pathToFileURL(join(npmDir, "rfc1738.js")).href);
const require = createRequire(import.meta.url);
const UrlParse = require("url-parse");
const whatwg = require("whatwg-url");

const corpusDir = opt("--corpus", [join(root, "../shared/corpus"), join(root, "../../shared/corpus")].find(existsSync));
const lines = [];
for (const name of readdirSync(corpusDir).filter((n) => n.endsWith(".txt")).sort()) {
  for (let line of readFileSync(join(corpusDir, name), "utf8").split("\n")) {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line !== "") lines.push(line);
  }
}
const bytes = lines.reduce((n, l) => n + l.length, 0);
// `check` of a text: the lines as one string, as read from a file.
const text = lines.join("\n");
// The lines RFC 1738 accepts: parse without the cost of throwing.
const valid = lines.filter((l) => r.isValid(l));

// Each runner makes one pass over the lines and returns a count, so that
// no pass can be optimised away.
const runners = {
  "rfc1738 isValid": () => {
    let n = 0;
    for (const l of lines) if (r.isValid(l)) n++;
    return n;
  },
  "URL.canParse": () => {
    let n = 0;
    for (const l of lines) if (URL.canParse(l)) n++;
    return n;
  },
  "rfc1738 parse": () => {
    let n = 0;
    for (const l of lines) {
      try {
        r.parse(l);
        n++;
      } catch {}
    }
    return n;
  },
  "new URL()": () => {
    let n = 0;
    for (const l of lines) {
      try {
        new URL(l);
        n++;
      } catch {}
    }
    return n;
  },
  "rfc1738 parse, valid lines": () => {
    let n = 0;
    for (const l of valid) n += r.parse(l).kind.length;
    return n;
  },
  "new URL(), the same lines": () => {
    let n = 0;
    for (const l of valid) {
      try {
        n += new URL(l).protocol.length;
      } catch {}
    }
    return n;
  },
  "rfc1738 parse + host": () => {
    let n = 0;
    for (const l of lines) {
      try {
        n += r.parse(l).host === null ? 0 : 1;
      } catch {}
    }
    return n;
  },
  "new URL().hostname": () => {
    let n = 0;
    for (const l of lines) {
      try {
        n += new URL(l).hostname === "" ? 0 : 1;
      } catch {}
    }
    return n;
  },
  "rfc1738 check (text)": () => r.check(text).invalid,
  "rfc1738 check (array)": () => r.check(lines).invalid,
  "url-parse": () => {
    let n = 0;
    for (const l of lines) n += new UrlParse(l).hostname === "" ? 0 : 1;
    return n;
  },
  // whatwg-url is 200 to 300 times slower: a tenth of the lines, scaled.
  "whatwg-url": () => {
    let n = 0;
    for (let k = 0; k < lines.length; k += 10) if (whatwg.parseURL(lines[k]) !== null) n++;
    return n;
  },
};
const scale = { "whatwg-url": 10 };
const count = (name) => (name.includes("valid lines") || name.includes("the same lines") ? valid.length : lines.length);

const load = (await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ");
const names = Object.keys(runners);
const times = Object.fromEntries(names.map((n) => [n, []]));
const counts = {};
for (const n of names) counts[n] = runners[n](); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + round) % names.length];
    if (name === "whatwg-url" && round % 3 !== 0) continue;
    const t0 = process.hrtime.bigint();
    runners[name]();
    times[name].push(Number(process.hrtime.bigint() - t0) * (scale[name] ?? 1));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ns = Object.fromEntries(names.map((n) => [n, median(times[n]) / count(n)]));
const wasm = readFileSync(join(npmDir, "rfc1738.wasm"));
const js = readFileSync(join(npmDir, "rfc1738.js"));

const rows = [
  ["rfc1738 isValid", "URL.canParse"],
  ["URL.canParse", "URL.canParse"],
  ["rfc1738 parse", "new URL()"],
  ["new URL()", "new URL()"],
  ["rfc1738 parse, valid lines", "new URL(), the same lines"],
  ["new URL(), the same lines", "new URL(), the same lines"],
  ["rfc1738 parse + host", "new URL().hostname"],
  ["new URL().hostname", "new URL().hostname"],
  ["rfc1738 check (text)", "URL.canParse"],
  ["rfc1738 check (array)", "URL.canParse"],
  ["url-parse", "new URL()"],
  ["whatwg-url", "new URL()"],
];
const out = [];
out.push(`node ${process.version}, load average before the run ${load}; ${lines.length} lines (${(bytes / 1e6).toFixed(1)} MB) of ${corpusDir.split("/").slice(-2).join("/")}, ${ROUNDS} rounds; rfc1738.wasm ${wasm.length} bytes, ${gzipSync(wasm, { level: 9 }).length} gzipped; rfc1738.js ${gzipSync(js, { level: 9 }).length} gzipped`);
out.push("");
out.push("| parser | ns/URL | against | × |");
out.push("|---|---:|---|---:|");
for (const [name, against] of rows) {
  out.push(`| ${name} | ${ns[name].toFixed(0)} | ${against} | ${(ns[name] / ns[against]).toFixed(2)} |`);
}
console.log(markdown ? out.join("\n") : out.join("\n").replaceAll("|", " ").replace(/ -+:? /g, ""));
