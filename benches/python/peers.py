"""The peers' functions of `rfc1738.arrow` beside the regex a user of
pyarrow would write for each (ClickHouse's own functions are regexes and
string scans of the same kind). A regex checks nothing and decodes
nothing: it is the speed to beat, not the same answer.

    taskset -c 1 target/py-venv/bin/python benches/python/peers.py [--rows N]

The lowest CPU time of `--rounds` rounds, the subjects taking turns.
"""

import argparse
import os
import pathlib
import sys
import time

import pyarrow.compute as pc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import engines  # noqa: E402
from rfc1738 import arrow  # noqa: E402

SCHEME = r"^[a-zA-Z][-+.a-zA-Z0-9]*://"
PAIRS = {
    "authority": (lambda c: arrow.authority(c), lambda c: pc.extract_regex(c, SCHEME + r"(?P<a>[^/?#]*)")),
    "cut_search": (lambda c: arrow.cut_search(c), lambda c: pc.replace_substring_regex(c, r"\?[^#]*", "", max_replacements=1)),
    "cut_fragment": (lambda c: arrow.cut_fragment(c), lambda c: pc.replace_substring_regex(c, r"#.*$", "")),
    "extension": (lambda c: arrow.extension(c), lambda c: pc.extract_regex(c, r"^[^?#]*/[^/?#;]+\.(?P<e>[^./?#;]+)(?:[;?#]|$)")),
    "host_without_www": (
        lambda c: arrow.host_without_www(c),
        lambda c: pc.extract_regex(c, SCHEME + r"(?:[^@/?#]*@)?(?:www\.)?(?P<h>[^:/?#]*)"),
    ),
    'query_param("q")': (lambda c: arrow.query_param(c, "q"), lambda c: pc.extract_regex(c, r"[?&]q=(?P<v>[^&#]*)")),
}


def lowest(subjects, rounds):
    best = {name: float("inf") for name in subjects}
    for _ in range(rounds):
        for name, fn in subjects.items():
            t = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    args = ap.parse_args()
    col = engines.corpus(args.corpus, args.rows)
    n = len(col)
    print(f"{n} corpus URLs, one core, lowest CPU time of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}\n")
    print("| function | rfc1738.arrow ns/URL | pyarrow regex ns/URL | regex ÷ rfc1738 |")
    print("| :-- | --: | --: | --: |")
    base = lowest({"is_valid": lambda: arrow.is_valid(col)}, args.rounds)["is_valid"]
    print(f"| (arrow.is_valid) | {base / n * 1e9:.1f} | | |")
    for name, (ours, regex) in PAIRS.items():
        best = lowest({"ours": lambda: ours(col), "regex": lambda: regex(col)}, args.rounds)
        o, r = best["ours"] / n * 1e9, best["regex"] / n * 1e9
        print(f"| {name} | {o:.1f} | {r:.1f} | {r / o:.2f} |")


if __name__ == "__main__":
    main()
