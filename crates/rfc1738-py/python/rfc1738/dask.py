"""Checking a directory of access logs across a Dask cluster.

``check_logs`` reads each Common Log Format file in a task of its own on
the cluster's workers, checks every line as ``rfc1738 check --format clf``
does (in Rust, a whole file as one Arrow column), and returns per file the
counts by scheme and the invalid lines with their errors.

A recipe, on a cluster of two worker processes on this machine::

    from dask.distributed import Client, LocalCluster
    import rfc1738.dask

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        report = rfc1738.dask.check_logs("logs/")
    for path, r in report.items():
        print(path, r["valid"], r["invalid"], r["by_scheme"])
        for bad in r["invalid_lines"][:5]:
            print(f"  {bad['line']}:{bad['offset']}: {bad['message']}")

On a real cluster, connect the ``Client`` to its scheduler instead; the
files must be readable from every worker (a shared file system).
"""

import os
from typing import Any, Dict, Iterable, List, Optional, Union

try:
    import dask as _dask
    from dask import delayed as _delayed
    import pyarrow  # noqa: F401 - the invalid lines come back as Arrow
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("dask", "dask[distributed]") from _error

from rfc1738 import _rfc1738

PathLike = Union[str, "os.PathLike[str]"]


def _files(paths: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    """Every file named, a directory's files in name order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: List[str] = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            out.extend(os.path.join(p, n) for n in sorted(os.listdir(p)) if os.path.isfile(os.path.join(p, n)))
        else:
            out.append(p)
    return out


def check_file(path: str) -> Dict[str, Any]:
    """One file's report: runs on a worker. The file is checked in Rust
    in one pass, without the lock; only its invalid lines become Python
    objects."""
    with open(path, "rb") as f:
        lines, counts, invalid = _rfc1738.clf_check_log(f.read())
    by_scheme = {
        "(no scheme)" if scheme is None else scheme: {"valid": v, "invalid": i} for scheme, v, i in counts
    }
    invalid_lines = invalid.to_pylist()
    return {
        "lines": lines,
        "valid": lines - len(invalid_lines),
        "invalid": len(invalid_lines),
        "by_scheme": dict(sorted(by_scheme.items())),
        "invalid_lines": invalid_lines,
    }


def check_logs(
    paths: Union[PathLike, Iterable[PathLike]], client: Optional[Any] = None
) -> Dict[str, Dict[str, Any]]:
    """Checks every line of the Common Log Format files ``paths`` (files or
    directories) on the cluster: one task per file.

    Returns ``{path: {lines, valid, invalid, by_scheme, invalid_lines}}``;
    ``by_scheme`` maps the request URL's scheme (``http`` for a path) to
    ``{valid, invalid}``; each invalid line is ``{line, input, offset,
    kind, rule, message}``, offsets in the line, as ``rfc1738 check
    --format clf --json`` gives them. ``client``: a ``dask.distributed``
    client; by default the current one (or Dask's local scheduler).
    """
    files = _files(paths)
    tasks = [_delayed(check_file, pure=True)(p) for p in files]
    if client is not None:
        results = client.gather(client.compute(tasks))
    else:
        results = _dask.compute(*tasks)
    return dict(zip(files, results))
