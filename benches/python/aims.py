"""The Python package's aims of issue 42 in one run, as a table:

- `rfc1738.parse` of an invalid URL (a ParseError raised and caught)
  against a valid one, in a Python loop over the corpus (at most 1.5×);
- Dask's `check_logs` with one worker against `rfc1738 check --input-format clf
  --jobs 1` on the same logs, per line (at most 1.5×).

Run it pinned to one core for the "on one core" of the aim:
`taskset -c 1 target/py-venv/bin/python benches/python/aims.py`; the
Dask cluster and the command then share that core. The timings are
medians of rounds; only ratios within one run mean much.
"""

import argparse
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench  # noqa: E402
import engines  # noqa: E402
import rfc1738  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def dask_and_command(rows, binary, corpus, rounds):
    """ns per line of `check_logs` on a cluster of one worker and of the
    command with one job, over the same four logs: the median of `rounds`
    runs each, the two taking turns."""
    import subprocess

    from dask.distributed import Client, LocalCluster

    import rfc1738.dask

    directory, files, warm = engines.write_logs(engines.corpus(corpus, rows))
    dask, command = [], []
    cmd = [binary, "check", "--input-format", "clf", "--jobs", "1", *files]
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as c, Client(c) as client:
        client.run(lambda: rfc1738.dask.check_file(str(warm)))
        for _ in range(rounds):
            seconds, report = engines.timed(lambda: rfc1738.dask.check_logs(files, client=client))
            assert sum(r["lines"] for r in report.values()) == rows
            dask.append(seconds / rows * 1e9)
            seconds, _ = engines.timed(lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            command.append(seconds / rows * 1e9)
    engines.shutil.rmtree(directory)
    return dask, command


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the Dask comparison")
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "rfc1738"))
    args = ap.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    print(f"cores {cores}, load average before the run {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    urls = bench.corpus_lines(pathlib.Path(args.corpus))
    one = bench.invalid_and_valid(urls, 15)
    valid, invalid = one["valid"], one["invalid"]
    dasks, commands = dask_and_command(args.rows, args.binary, args.corpus, args.rounds)
    dask, command = statistics.median(dasks), statistics.median(commands)
    ratios = sorted(d / c for d, c in zip(dasks, commands))
    print("| measure | aim | this run |")
    print("| :-- | --: | --: |")
    print(f"| `rfc1738.parse` of an invalid URL against a valid one, in a Python loop | 1.5× | "
          f"{invalid / valid:.2f}× ({invalid:.0f} against {valid:.0f} ns) |")
    print(f"| `check_logs` per line, one worker, against `check --input-format clf --jobs 1` ({args.rows} lines) | 1.5× | "
          f"{dask / command:.2f}× ({dask:.0f} against {command:.0f} ns; rounds {ratios[0]:.2f}× to {ratios[-1]:.2f}×) |")
    print(f"\nAn invalid URL's {invalid:.0f} ns: `rfc1738.is_valid` on the invalid URLs takes {one['is_valid']:.0f} ns "
          f"(the call and the parse that fails); a Python function raising a five-argument ValueError subclass, "
          f"caught, {one['raise']:.0f} ns.")


if __name__ == "__main__":
    main()
