"""The peers' functions of `rfc1738.arrow` and of the DuckDB extension
beside the regex a user would write for each, in pyarrow and in DuckDB
(ClickHouse's own URL functions are regexes and string scans of the
same kind). A regex checks nothing and decodes nothing: it is the speed
to beat, not the same answer.

    taskset -c 1 target/py-venv/bin/python benches/python/peers.py [--rows N]

The lowest CPU time of `--rounds` rounds, the subjects taking turns;
DuckDB on one thread. `--extension` names the loadable extension
(scripts/build-duckdb-extension); without it, the DuckDB columns are
left empty.
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
from rfc1738 import arrow  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEME = r"^[a-zA-Z][-+.a-zA-Z0-9]*://"
HOST = SCHEME + r"(?:[^@/?#]*@)?(?P<h>[^:/?#]*)"
# ClickHouse's topLevelDomain and cutToFirstSignificantSubdomain without
# a list: the last label, the last two.
TLD = SCHEME + r"(?:[^@/?#]*@)?[^:/?#]*\.(?P<s>[^.:/?#]+)(?:[:/?#]|$)"
LAST_TWO = SCHEME + r"(?:[^@/?#]*@)?(?:[^:/?#]*\.)?(?P<d>[^.:/?#]+\.[^.:/?#]+)(?:[:/?#]|$)"
EXTENSION = r"^[^?#]*/[^/?#;]+\.(?P<e>[^./?#;]+)(?:[;?#]|$)"
WWW = SCHEME + r"(?:[^@/?#]*@)?(?:www\.)?(?P<h>[^:/?#]*)"
SEARCH = r"\?(?P<q>[^#]*)"
PATH = SCHEME + r"[^/?#]*/(?P<p>[^?#]*)"


def field(c, regex):
    return pc.extract_regex(c, regex).field(0)


# name: (ours in rfc1738.arrow, pyarrow's regex, the extension's SQL, DuckDB's regex SQL)
PAIRS = {
    "authority": (arrow.authority, lambda c: field(c, SCHEME + r"(?P<a>[^/?#]*)"),
                  "rfc1738_authority(url)", f"regexp_extract(url, '{SCHEME}([^/?#]*)', 1)"),
    "cut_search": (arrow.cut_search, lambda c: pc.replace_substring_regex(c, r"\?[^#]*", "", max_replacements=1),
                   "rfc1738_cut_search(url)", r"regexp_replace(url, '\?[^#]*', '')"),
    "cut_fragment": (arrow.cut_fragment, lambda c: pc.replace_substring_regex(c, r"#.*$", ""),
                     "rfc1738_cut_fragment(url)", "regexp_replace(url, '#.*$', '')"),
    "extension": (arrow.extension, lambda c: field(c, EXTENSION),
                  "rfc1738_extension(url)", f"regexp_extract(url, '{EXTENSION.replace('?P<e>', '')}', 1)"),
    "host_without_www": (arrow.host_without_www, lambda c: field(c, WWW),
                         "rfc1738_host_without_www(url)", f"regexp_extract(url, '{WWW.replace('?P<h>', '')}', 1)"),
    "public_suffix": (arrow.public_suffix, lambda c: field(c, TLD),
                      "rfc1738_public_suffix(url)", f"regexp_extract(url, '{TLD.replace('?P<s>', '')}', 1)"),
    "registrable_domain": (arrow.registrable_domain, lambda c: field(c, LAST_TWO),
                           "rfc1738_registrable_domain(url)", f"regexp_extract(url, '{LAST_TWO.replace('?P<d>', '')}', 1)"),
    "decode": (arrow.decode, None, "rfc1738_decode(url)", "try(url_decode(url))"),
    'query_param("q")': (lambda c: arrow.query_param(c, "q"), lambda c: field(c, r"[?&]q=(?P<v>[^&#]*)"),
                         "rfc1738_query_param(url, 'q')", "regexp_extract(url, '[?&]q=([^&#]*)', 1)"),
    "query_params": (arrow.query_params, lambda c: pc.split_pattern(field(c, SEARCH), "&"),
                     "rfc1738_query_params(url)", r"string_split(regexp_extract(url, '\?([^#]*)', 1), '&')"),
    "segments": (arrow.segments, lambda c: pc.split_pattern(field(c, PATH), "/"),
                 "rfc1738_segments(url)", f"string_split(regexp_extract(url, '{PATH.replace('?P<p>', '')}', 1), '/')"),
    "host": (arrow.host, lambda c: field(c, HOST), "rfc1738_host(url)", f"regexp_extract(url, '{HOST.replace('?P<h>', '')}', 1)"),
    "host(lenient=True)": (lambda c: arrow.host(c, lenient=True), lambda c: field(c, HOST),
                           "rfc1738_host(url, true)", f"regexp_extract(url, '{HOST.replace('?P<h>', '')}', 1)"),
    "lint(lenient=True)": (lambda c: arrow.lint(c, lenient=True), None, "rfc1738_lint(url, true)", None),
}


def lowest(subjects, rounds):
    best = {name: float("inf") for name in subjects}
    for _ in range(rounds):
        for name, fn in subjects.items():
            t = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t)
    return best


def connect(col, extension):
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute("set threads=1")
    con.execute(f"load '{extension}'")
    con.register("t", pa.table({"url": col}))
    con.execute("create table u as select url from t")
    return con


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--extension", default=str(ROOT / "target" / "duckdb" / "rfc1738.duckdb_extension"))
    args = ap.parse_args()
    col = engines.corpus(args.corpus, args.rows)
    n = len(col)
    con = connect(col, args.extension) if os.path.exists(args.extension) else None
    print(f"{n} corpus URLs, one core, lowest CPU time of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}\n")
    print("| function | rfc1738.arrow | pyarrow regex | regex ÷ rfc1738 | DuckDB extension | DuckDB regex | regex ÷ extension |")
    print("| :-- | --: | --: | --: | --: | --: | --: |")
    ns = lambda s: s / n * 1e9  # noqa: E731
    cell = lambda v: "" if v is None else f"{v:.1f}"  # noqa: E731
    ratio = lambda a, b: "" if a is None or b is None else f"{a / b:.2f}"  # noqa: E731
    subjects = {"ours": lambda: arrow.is_valid(col)}
    if con:
        subjects["sql"] = lambda: con.sql("select count(nullif(rfc1738_valid(url), false)) from u").fetchall()
    base = lowest(subjects, args.rounds)
    print(f"| (is_valid) | {ns(base['ours']):.1f} | | | {cell(ns(base['sql']) if con else None)} | | |")
    for name, (ours, regex, sql, sql_regex) in PAIRS.items():
        subjects = {"ours": lambda: ours(col)}
        if regex:
            subjects["regex"] = lambda: regex(col)
        if con:
            subjects["sql"] = lambda: con.sql(f"select count({sql}) from u").fetchall()
            if sql_regex:
                subjects["sql_regex"] = lambda: con.sql(f"select count({sql_regex}) from u").fetchall()
        best = {k: ns(v) for k, v in lowest(subjects, args.rounds).items()}
        o, r, s, sr = best["ours"], best.get("regex"), best.get("sql"), best.get("sql_regex")
        print(f"| {name} | {o:.1f} | {cell(r)} | {ratio(r, o)} | {cell(s)} | {cell(sr)} | {ratio(sr, s)} |")


if __name__ == "__main__":
    main()
