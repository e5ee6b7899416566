// The package's hand-written declarations, type-checked by tsc (strict)
// against uses of every function: run by scripts/test-npm.
import { parse, isValid, validate, check, extract, resolve, normalize, explain, ParseError, ResolveError, Url } from "rfc1738";
import * as core from "rfc1738/core";
const u: Url = parse("ftp://h.dom/a;type=i", { lenient: true });
const t: string | null = u.ftp?.typecode ?? null;
const c: number[] = u.ftp ? u.ftp.cwd.map((s) => s.length) : [];
const p: number | null = u.effectivePort;
const o: [number, number] | null = u.offsets.host;
const ok: boolean = isValid(5);
const e: ParseError | null = validate("x");
const r = check(["a:b"]); const n: number = r.errors[0]?.offset ?? 0;
const f = extract("see http://a.dom/"); const s: "url-prefix" | "angle" | "bare" = f[0].form;
const x: string = resolve("http://a/", "b") + normalize("http://a/") + explain("http://a/").join();
const cu: core.Url = core.parse("http://a/"); const j = cu.toJSON().kind;
try { resolve("a:b", "c") } catch (err) { if (err instanceof ResolveError) console.log(err.kind, err.resolved); }
console.log(t, c, p, o, ok, e, n, s, x, j);
