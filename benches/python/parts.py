"""The aims of issue 51 in one run, as a markdown table: the part kernels
against `arrow.is_valid`, the SQL part functions against `rfc1738_valid`,
the fastest regex way to the same part in each engine beside, and the
cost of an invalid `rfc1738.parse` against a raise and catch in Python.

    taskset -c 1 target/py-venv/bin/python benches/python/parts.py [--rows N]

Each timing is the lowest CPU time (`time.process_time`) of `--rounds`
rounds, the subjects taking turns in every round; only ratios within one
run mean much on a shared machine.
"""

import argparse
import os
import pathlib
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import engines  # noqa: E402
import rfc1738  # noqa: E402
from rfc1738 import arrow  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The host of a URL with a `//` login, as a regex: the nearest a regex
# comes to `rfc1738_host` (it checks nothing).
HOST = r"^[a-zA-Z][-+.a-zA-Z0-9]*://(?:[^@/?#]*@)?([^:/?#]*)"


def lowest(subjects, rounds):
    best = {name: float("inf") for name in subjects}
    for _ in range(rounds):
        for name, fn in subjects.items():
            t = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t)
    return best


def arrow_subjects(col):
    s = {"arrow.is_valid": lambda: arrow.is_valid(col)}
    for k in ("scheme", "user", "password", "host", "port", "path", "search", "fragment"):
        s[f"arrow.{k}"] = lambda k=k: getattr(arrow, k)(col)
    s['arrow.part("ftp.typecode")'] = lambda: arrow.part(col, "ftp.typecode")
    s["arrow.host(decoded=True)"] = lambda: arrow.host(col, decoded=True)
    s["arrow.parse"] = lambda: arrow.parse(col)
    s["pyarrow extract_regex (host)"] = lambda: pc.extract_regex(col, r"^[a-zA-Z][-+.a-zA-Z0-9]*://(?:[^@/?#]*@)?(?P<host>[^:/?#]*)")
    return s


def duckdb_subjects(col, extension):
    import duckdb

    import rfc1738.duckdb

    out = {}
    con = duckdb.connect()
    con.execute("set threads=1")
    rfc1738.duckdb.register(con)
    con.register("t", pa.table({"url": col}))
    q = "select count({}) from t"
    out["DuckDB (Python) rfc1738_valid"] = lambda: con.sql(q.format("nullif(rfc1738_valid(url), false)")).fetchall()
    out["DuckDB (Python) rfc1738_host"] = lambda: con.sql(q.format("rfc1738_host(url)")).fetchall()
    out["DuckDB regexp_extract (host)"] = lambda: con.sql(q.format(f"regexp_extract(url, '{HOST}', 1)")).fetchall()
    if extension:
        ext = duckdb.connect(config={"allow_unsigned_extensions": "true"})
        ext.execute("set threads=1")
        ext.execute(f"load '{extension}'")
        ext.register("t", pa.table({"url": col}))
        ext.execute("create table u as select url from t")
        out["DuckDB (extension) rfc1738_valid"] = lambda: ext.sql(
            "select count(nullif(rfc1738_valid(url), false)) from u").fetchall()
        out["DuckDB (extension) rfc1738_host"] = lambda: ext.sql("select count(rfc1738_host(url)) from u").fetchall()
        out["DuckDB (extension) regexp_extract (host)"] = lambda: ext.sql(
            f"select count(regexp_extract(url, '{HOST}', 1)) from u").fetchall()
    return out


def polars_subjects(col):
    import polars as pl

    import rfc1738.polars  # noqa: F401

    df = pl.DataFrame({"url": col})
    return {
        "Polars rfc1738.is_valid": lambda: df.select(pl.col("url").rfc1738.is_valid()),
        "Polars rfc1738.host": lambda: df.select(pl.col("url").rfc1738.host()),
        "Polars str.extract (host)": lambda: df.select(pl.col("url").str.extract(HOST, 1)),
    }


class Invalid(ValueError):
    """A ValueError subclass raised with five arguments, as ParseError is."""


def invalid_aim(urls, rounds):
    """ns per URL: a succeeding parse, a failing one (raised and caught),
    and a raise and catch in pure Python."""
    valid = [u for u in urls if rfc1738.is_valid(u)][:200_000]
    bad = [u for u in urls if not rfc1738.is_valid(u)][:200_000]
    parse = rfc1738.parse
    error = rfc1738.ParseError

    def ok():
        for u in valid:
            try:
                parse(u)
            except error:
                pass

    def fail():
        for u in bad:
            try:
                parse(u)
            except error:
                pass

    def python():
        for u in bad:
            try:
                raise Invalid(u, 0, "k", "r", "m")
            except Invalid:
                pass

    best = lowest({"ok": ok, "fail": fail, "python": python}, rounds)
    return best["ok"] / len(valid) * 1e9, best["fail"] / len(bad) * 1e9, best["python"] / len(bad) * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--extension", default=str(ROOT / "target" / "duckdb" / "rfc1738.duckdb_extension"))
    args = ap.parse_args()
    col = engines.corpus(args.corpus, args.rows)
    n = len(col)
    extension = args.extension if os.path.exists(args.extension) else None
    groups = [
        ("arrow.is_valid", arrow_subjects(col)),
        ("DuckDB (Python) rfc1738_valid", duckdb_subjects(col, extension)),
        ("Polars rfc1738.is_valid", polars_subjects(col)),
    ]
    print(f"{n} corpus URLs, one core, lowest CPU time of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}\n")
    print("| subject | ns/URL | × the group's first |")
    print("| :-- | --: | --: |")
    for base, subjects in groups:
        best = lowest(subjects, args.rounds)
        firsts = {"DuckDB (extension)": best.get("DuckDB (extension) rfc1738_valid")}
        for name, t in best.items():
            ref = best[base]
            if name.startswith("DuckDB (extension)"):
                ref = firsts["DuckDB (extension)"]
            print(f"| {name} | {t / n * 1e9:.1f} | {t / ref:.2f} |")
    ok, fail, python = invalid_aim(col.to_pylist(), max(3, args.rounds // 3))
    print()
    print(f"invalid-URL aim: failing parse {fail:.0f} ns − succeeding {ok:.0f} ns = {fail - ok:.0f} ns;"
          f" raise and catch in Python {python:.0f} ns; ratio {(fail - ok) / python:.2f} (aim ≤ 1.25)")


if __name__ == "__main__":
    main()
