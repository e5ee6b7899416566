"""Checking a directory of access logs across a Dask cluster.

``check_logs`` reads each Common Log Format file in a task of its own on
the cluster's workers, checks every line as ``rfc1738 check --input-format clf``
does (in Rust, a whole file in one pass), and returns per file the counts
by scheme and the invalid lines as an Arrow table.

A recipe, on a cluster of two worker processes on this machine. Run it as
a script: the ``if __name__ == "__main__":`` guard is what lets the worker
processes start (each imports the script again)::

    from dask.distributed import Client, LocalCluster
    import rfc1738.dask

    if __name__ == "__main__":
        with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
            report = rfc1738.dask.check_logs("logs/")
        for path, r in report.items():
            print(path, r["valid"], r["invalid"], r["by_scheme"])
            for bad in r["invalid_lines"].slice(0, 5).to_pylist():
                print(f"  {bad['line']}:{bad['offset']}: {bad['message']}")

In a notebook, the same without the guard. On a real cluster, connect the
``Client`` to its scheduler instead (``Client("tcp://scheduler:8786")``);
the files must be readable from every worker: a shared file system, or
URLs that fsspec reads (``s3://bucket/logs/``, ``gs://...``, with the
fsspec package for that store installed on the workers).

From the shell: ``python -m rfc1738.dask [--scheduler ADDRESS] [--workers
N] PATH...`` prints the counts per file, then each invalid line.
"""

import argparse
import os
import sys
from typing import Any, Dict, Iterable, List, Optional, Union

try:
    import dask as _dask
    from dask import delayed as _delayed
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("dask", "dask[distributed]") from _error

from rfc1738 import clf

PathLike = Union[str, "os.PathLike[str]"]


def _is_url(path: str) -> bool:
    """Whether ``path`` names a file through fsspec (``s3://...``)."""
    return "://" in path


def _files(paths: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    """Every file named, a directory's files in name order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: List[str] = []
    for p in paths:
        p = os.fspath(p)
        if _is_url(p):
            import fsspec

            fs, root = fsspec.core.url_to_fs(p)
            if fs.isdir(root):
                names = sorted(f for f in fs.ls(root, detail=False) if fs.isfile(f))
                out.extend(fs.unstrip_protocol(f) for f in names)
            else:
                out.append(p)
            continue
        if os.path.isdir(p):
            out.extend(os.path.join(p, n) for n in sorted(os.listdir(p)) if os.path.isfile(os.path.join(p, n)))
        else:
            out.append(p)
    return out


def _read(path: str) -> bytes:
    import fsspec

    # A name ending .gz, .bz2, .xz, .zst... is inflated by fsspec; the
    # Rust reader tells any other compressed file by its first bytes.
    with fsspec.open(path, "rb", compression="infer") as f:
        return f.read()


def check_file(path: str, log_format: Optional[str] = None, lenient: bool = False) -> Dict[str, Any]:
    """One file's report (:func:`rfc1738.clf.check_file`): runs on a
    worker. The file is checked in Rust in one pass, without the lock; no
    Python object is made per line. A compressed file (gzip, zstd, bzip2,
    xz) is inflated as it is read.

    ``invalid_lines`` is a ``pyarrow.Table`` of ``line`` (from 1),
    ``input``, ``offset``, ``kind``, ``rule``, ``message`` and the
    referer's ``referer``, ``referer_valid``, ``referer_scheme``,
    ``referer_error``. ``lenient``: as ``--lenient``.
    """
    if _is_url(path):
        return clf.check_log(_read(path), log_format, lenient)
    # Read in Rust a block at a time, as the command reads it.
    return clf.check_file(path, log_format, lenient)


def check_logs(
    paths: Union[PathLike, Iterable[PathLike]],
    client: Optional[Any] = None,
    log_format: Optional[str] = None,
    lenient: bool = False,
) -> Dict[str, Dict[str, Any]]:
    """Checks every line of the Common Log Format files ``paths`` (files,
    directories, or fsspec URLs of either) on the cluster: one task per file.

    Returns ``{path: {lines, valid, invalid, by_scheme, referers,
    invalid_lines}}`` as :func:`rfc1738.clf.check_log` gives them:
    ``by_scheme`` maps each row of the command's summary (the request
    URL's scheme, ``http`` for a path, ``*`` for ``OPTIONS *``, ``(no
    request)``, ``(not clf)``) to ``{valid, invalid}``; ``referers`` the
    referers' schemes; ``invalid_lines`` is a ``pyarrow.Table``, a row per
    invalid line, as ``rfc1738 check --input-format clf --json`` gives them.
    Compressed files (gzip, zstd, bzip2, xz) are read as the command reads
    them. ``client``: a ``dask.distributed`` client; by default the current
    one (or Dask's local scheduler). ``log_format``: as ``--log-format``
    (a preset, an Apache ``LogFormat`` or an nginx ``log_format`` string).
    ``lenient``: as ``--lenient``.
    """
    files = _files(paths)
    tasks = [_delayed(check_file, pure=True)(p, log_format, lenient) for p in files]
    if client is not None:
        results = client.gather(client.compute(tasks))
    else:
        results = _dask.compute(*tasks)
    return dict(zip(files, results))


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m rfc1738.dask``: exit 0 when every line is valid, 1 when not."""
    ap = argparse.ArgumentParser(prog="python -m rfc1738.dask", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="log files, directories, or fsspec URLs")
    ap.add_argument("--scheduler", help="the address of a running scheduler (tcp://host:8786)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of a local cluster (default 2)")
    ap.add_argument("--log-format", help="as rfc1738 check --log-format: a preset, an Apache or nginx format string")
    args = ap.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        with Client(args.scheduler) as client:
            report = check_logs(args.paths, client=client, log_format=args.log_format)
    else:
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                report = check_logs(args.paths, client=client, log_format=args.log_format)
    for path, r in report.items():
        schemes = ", ".join(f"{s} {c['valid']}/{c['valid'] + c['invalid']}" for s, c in r["by_scheme"].items())
        print(f"{path}: {r['lines']} lines, {r['valid']} valid, {r['invalid']} invalid ({schemes})")
    for path, r in report.items():
        for bad in r["invalid_lines"].to_pylist():
            print(f"{path}:{bad['line']}:{bad['offset']}: {bad['message']} (in {bad['rule']})", file=sys.stderr)
    return 0 if all(r["invalid"] == 0 for r in report.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
