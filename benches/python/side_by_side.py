"""Builds of the extension module side by side in one process: the same
kernels of each build timed in turn on the corpus, with `arrow_is_valid`
of each as the unit.

    taskset -c 1 target/py-venv/bin/python benches/python/side_by_side.py \\
        arrow_parse,arrow_host OLD.so NEW.so [--rows N] [--rounds N]

A build is the `lib_rfc1738.so` cargo makes (`cargo build --release` in
crates/rfc1738-py) or an installed `_rfc1738.abi3.so`, copied first: each
copy is a module of its own. Each timing is the lowest CPU time
(`time.process_time`, page faults included) of `--rounds` rounds, the
subjects taking turns; the minor page faults of that call beside it.
"""

import argparse
import importlib.machinery
import importlib.util
import os
import pathlib
import resource
import shutil
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import engines  # noqa: E402


def load(path, into):
    """The module of the build at `path`, from a copy of it in `into`."""
    copy = pathlib.Path(into, "_rfc1738.abi3.so")
    copy.parent.mkdir()
    shutil.copy(path, copy)
    loader = importlib.machinery.ExtensionFileLoader("_rfc1738", str(copy))
    spec = importlib.util.spec_from_file_location("_rfc1738", str(copy), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernels", help="names in _rfc1738, comma-separated (arrow_parse,arrow_host)")
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    args = ap.parse_args()
    col = engines.corpus(args.corpus, args.rows)
    tmp = tempfile.mkdtemp()
    subjects = {}
    for i, path in enumerate(args.builds):
        module = load(path, pathlib.Path(tmp, str(i)))
        for name in ["arrow_is_valid"] + args.kernels.split(","):
            subjects[(i, name)] = getattr(module, name)
    best = dict.fromkeys(subjects, float("inf"))
    faults = {}
    for _ in range(args.rounds):
        for key, fn in subjects.items():
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            t = time.process_time()
            fn(col)
            t = time.process_time() - t
            if t < best[key]:
                best[key] = t
                faults[key] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0
    n = len(col)
    print(f"{n} corpus URLs, lowest CPU time of {args.rounds} rounds; load {os.getloadavg()[0]:.1f}\n")
    print("| build | kernel | ns/URL | × its is_valid | page faults |")
    print("| :-- | :-- | --: | --: | --: |")
    for (i, name), t in best.items():
        unit = best[(i, "arrow_is_valid")]
        print(f"| {pathlib.Path(args.builds[i]).name} | {name} | {t / n * 1e9:.1f} | {t / unit:.2f} | {faults[(i, name)]} |")


if __name__ == "__main__":
    main()
