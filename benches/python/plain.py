"""What the plain strings cost: each string kernel of `rfc1738.arrow`
answering a `string` column (the default: each part copied into one
buffer) against string views into the input (`views=True`: no copy).

    taskset -c 1 target/py-venv/bin/python benches/python/plain.py [--rows N]

The lowest CPU time of `--rounds` rounds, the two answers taking turns;
only the ratios within one run mean much on a shared machine.
"""

import argparse
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import engines  # noqa: E402
from rfc1738 import arrow  # noqa: E402


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
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    args = ap.parse_args()
    col = engines.corpus(args.corpus, args.rows)
    n = len(col)
    print(f"{n} corpus URLs, one core, lowest CPU time of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}\n")
    print("| kernel | views ns/URL | string ns/URL | string ÷ views |")
    print("| :-- | --: | --: | --: |")
    for k in ("scheme", "user", "host", "path", "search", "fragment", "parse"):
        f = getattr(arrow, k)
        best = lowest({"views": lambda: f(col, views=True), "plain": lambda: f(col)}, args.rounds)
        v, p = best["views"] / n * 1e9, best["plain"] / n * 1e9
        print(f"| arrow.{k} | {v:.1f} | {p:.1f} | {p / v:.2f} |")


if __name__ == "__main__":
    main()
