"""rfc1738's Python package beside the Python URL parsers, per URL.

Each one-at-a-time parser is called in a Python loop over every URL of
the corpus files; the Arrow kernels take the whole column in one call.
Rounds alternate between the contenders; the median round is reported.
The Rust `validate` time per URL comes from parse-bench in the same run.
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import time
import urllib.parse

import pyarrow as pa

import rfc1738
from rfc1738 import arrow

ROOT = pathlib.Path(__file__).resolve().parents[2]


def corpus_lines(directory):
    lines = []
    for path in sorted(directory.iterdir()):
        if path.suffix not in (".txt", ".csv"):
            continue
        data = path.read_bytes().removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
        lines.extend(line.removesuffix("\r") for line in data.split("\n"))
    return lines


def loop(fn, errors):
    def run(urls):
        for u in urls:
            try:
                fn(u)
            except errors:
                pass

    return run


def contenders():
    out = {
        "rfc1738.parse": loop(rfc1738.parse, rfc1738.ParseError),
        "rfc1738.is_valid": loop(rfc1738.is_valid, ()),
        "urllib.parse.urlsplit": loop(urllib.parse.urlsplit, ValueError),
    }
    try:
        import yarl

        out["yarl.URL"] = loop(yarl.URL, (ValueError, TypeError))
    except ImportError:
        pass
    try:
        import can_ada

        out["can_ada.parse"] = loop(can_ada.parse, ValueError)
    except ImportError:
        pass
    try:
        import rfc3986

        out["rfc3986 (validated)"] = loop(lambda u: rfc3986.uri_reference(u).is_valid(), (ValueError,))
    except ImportError:
        pass
    return out


def rust_validate_ns(parse_bench, corpus):
    """ns per URL of the Rust `validate` over all files, from parse-bench."""
    run = subprocess.run(
        [parse_bench, "--only", "validate", "--corpus", str(corpus)], capture_output=True, text=True, check=True
    )
    block = run.stdout.split("all files:", 1)[1]
    m = re.search(r"rfc1738 validate\s+([\d.]+)", block)
    return float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--parse-bench")
    args = ap.parse_args()
    urls = corpus_lines(pathlib.Path(args.corpus))
    column = pa.array(urls)
    n = len(urls)
    one = contenders()
    whole = {
        "rfc1738.arrow.is_valid (column)": lambda: arrow.is_valid(column),
        "rfc1738.arrow.parse (column)": lambda: arrow.parse(column),
    }
    times = {name: [] for name in [*one, *whole]}
    for _ in range(args.rounds):
        for name, fn in one.items():
            t = time.perf_counter()
            fn(urls)
            times[name].append(time.perf_counter() - t)
        for name, fn in whole.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    rust = rust_validate_ns(args.parse_bench, args.corpus) if args.parse_bench else None
    split = statistics.median(times["urllib.parse.urlsplit"]) / n * 1e9
    print(f"{n} URLs of {args.corpus}, {args.rounds} rounds, median round\n")
    print("| contender | ns/URL | × urlsplit |")
    print("| :-- | --: | --: |")
    for name, ts in times.items():
        ns = statistics.median(ts) / n * 1e9
        print(f"| `{name}` | {ns:.0f} | {ns / split:.2f} |")
    if rust is not None:
        print(f"| Rust `rfc1738::validate` (parse-bench) | {rust:.1f} | {rust / split:.3f} |")
    invalid_against_valid(urls, args.rounds)


class _Raised(ValueError):
    """A ValueError subclass defined in Python, as ParseError is."""


def _raise(u):
    raise _Raised(u, 0, "kind", "rule", "message")


def invalid_and_valid(urls, rounds, chunk=200):
    """ns per URL of `rfc1738.parse` on the valid URLs and on the invalid
    ones, and what an invalid one's cost is made of: `rfc1738.is_valid` on
    them (the call and the parse that fails, no exception), and a Python
    function that raises a five-argument ValueError subclass, caught (the
    exception).

    Each timing is a run over `chunk` URLs, well under a time slice, the
    contenders taking turns chunk by chunk; the median over every chunk
    of every round. A preempted run is then one outlier among many, not
    a whole group's time (the valid URLs are twenty times as many as the
    invalid ones, and a long run on a loaded machine is preempted more)."""
    groups = {"valid": [u for u in urls if rfc1738.is_valid(u)], "invalid": [u for u in urls if not rfc1738.is_valid(u)]}
    parse = loop(rfc1738.parse, rfc1738.ParseError)
    runs = {
        "valid": (parse, groups["valid"]),
        "invalid": (parse, groups["invalid"]),
        "is_valid": (loop(rfc1738.is_valid, ()), groups["invalid"]),
        "raise": (loop(_raise, _Raised), groups["invalid"]),
    }
    times = {name: [] for name in runs}
    n = min(len(g) for g in groups.values()) // chunk
    for _ in range(rounds):
        for k in range(n):
            for name, (run, group) in runs.items():
                # The valid URLs' chunks spread over the whole group.
                step = len(group) // n
                part = group[k * step : k * step + chunk]
                t = time.perf_counter()
                run(part)
                times[name].append((time.perf_counter() - t) / len(part) * 1e9)
    return {name: statistics.median(v) for name, v in times.items()}


def invalid_against_valid(urls, rounds):
    """`rfc1738.parse` on the valid URLs of the corpus and on the invalid
    ones (each caught as a ParseError), by `invalid_and_valid`."""
    one = invalid_and_valid(urls, rounds)
    valid, invalid = one["valid"], one["invalid"]
    print(f"\n`rfc1738.parse` in a loop: valid URLs {valid:.0f} ns each, invalid ones {invalid:.0f} ns each "
          f"(a ParseError raised and caught): {invalid / valid:.2f}× (aim: at most 1.5×); `is_valid` on the "
          f"invalid ones {one['is_valid']:.0f} ns, a Python raise of a ValueError subclass {one['raise']:.0f} ns")


if __name__ == "__main__":
    main()
