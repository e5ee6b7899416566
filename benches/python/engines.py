"""The SQL functions beside what an analyst would otherwise write, per
engine, over ten million URLs (the corpus repeated), in one run.

- DuckDB, DataFusion, Polars: `rfc1738_valid` (a batch per call) against a
  Python scalar function that calls `urllib.parse.urlsplit` on each row, and
  against the engine's own regular expression for a URL.
- Dask: `rfc1738.dask.check_logs` with one and two workers against
  `rfc1738 check --input-format clf` on the same files.

The Python scalar functions are timed on a tenth of the rows (they take
minutes on all of them) and scaled; the table says so.
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.parse

import pyarrow as pa

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATTERN = r"^[a-zA-Z][a-zA-Z0-9+.-]*:[^ <>\"{}|\\^`]*$"


def corpus(directory, n):
    urls = []
    for path in sorted(pathlib.Path(directory).glob("*.txt")):
        text = path.read_bytes().removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
        urls.extend(line.removesuffix("\r") for line in text.split("\n"))
    out = (urls * (n // len(urls) + 1))[:n]
    return pa.array(out, pa.string())


def py_valid(u):
    try:
        urllib.parse.urlsplit(u)
        return True
    except ValueError:
        return False


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def duckdb_rows(column, small):
    import duckdb

    import rfc1738.duckdb

    con = duckdb.connect()
    con.execute("set threads=1")
    rfc1738.duckdb.register(con)
    con.create_function("py_valid", py_valid, ["VARCHAR"], "BOOLEAN")
    con.register("t", pa.table({"url": column}))
    con.register("s", pa.table({"url": small}))
    q = "select count(*) from {} where {}"
    yield "DuckDB", "rfc1738_valid", timed(lambda: con.sql(q.format("t", "rfc1738_valid(url)")).fetchall())[0], 1
    yield "DuckDB", "regexp_matches", timed(lambda: con.sql(q.format("t", f"regexp_matches(url, '{PATTERN}')")).fetchall())[0], 1
    yield "DuckDB", "Python UDF (urlsplit)", timed(lambda: con.sql(q.format("s", "py_valid(url)")).fetchall())[0], len(column) / len(small)


def datafusion_rows(column, small):
    import datafusion

    import rfc1738.datafusion

    ctx = datafusion.SessionContext(datafusion.SessionConfig().with_target_partitions(1))
    rfc1738.datafusion.register(ctx)
    ctx.register_udf(
        datafusion.udf(lambda a: pa.array([py_valid(u) for u in a.to_pylist()]), [pa.string()], pa.bool_(), "immutable", name="py_valid")
    )
    ctx.register_record_batches("t", [pa.table({"url": column}).to_batches(max_chunksize=65536)])
    ctx.register_record_batches("s", [pa.table({"url": small}).to_batches(max_chunksize=65536)])
    q = "select count(*) from {} where {}"
    yield "DataFusion", "rfc1738_valid", timed(lambda: ctx.sql(q.format("t", "rfc1738_valid(url)")).collect())[0], 1
    yield "DataFusion", "regexp_like", timed(lambda: ctx.sql(q.format("t", f"regexp_like(url, '{PATTERN}')")).collect())[0], 1
    yield "DataFusion", "Python UDF (urlsplit)", timed(lambda: ctx.sql(q.format("s", "py_valid(url)")).collect())[0], len(column) / len(small)


def polars_rows(column, small):
    import polars as pl

    import rfc1738.polars  # noqa: F401

    df, ds = pl.DataFrame({"url": column}), pl.DataFrame({"url": small})
    yield "Polars", "rfc1738.is_valid", timed(lambda: df.select(pl.col("url").rfc1738.is_valid().sum()))[0], 1
    yield "Polars", "str.contains (regex)", timed(lambda: df.select(pl.col("url").str.contains(PATTERN).sum()))[0], 1
    yield "Polars", "map_elements (urlsplit)", timed(
        lambda: ds.select(pl.col("url").map_elements(py_valid, return_dtype=pl.Boolean).sum())
    )[0], len(column) / len(small)


def write_logs(column):
    """Four Common Log Format files whose requests are the column's URLs,
    and a one-line file to warm workers up, in a new temporary directory."""
    directory = pathlib.Path(tempfile.mkdtemp())
    urls = column.to_pylist()
    files = []
    for k in range(4):
        path = directory / f"access-{k}.log"
        with open(path, "w") as out:
            for n, u in enumerate(urls[k::4]):
                out.write(f'10.0.0.{n % 250} - - [10/Oct/2000:13:55:36 -0700] "GET {u} HTTP/1.0" 200 {n}\n')
        files.append(str(path))
    warm = directory / "warm-up.log"
    warm.write_text('10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 1\n')
    return directory, files, warm


def dask_rows(column, binary, workers=(1, 2), jobs=(1, 2)):
    from dask.distributed import Client, LocalCluster

    import rfc1738.dask

    directory, files, warm = write_logs(column)
    for n in workers:
        with LocalCluster(n_workers=n, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as c, Client(c) as client:
            # Workers in their steady state: the package imported on each.
            client.run(lambda: rfc1738.dask.check_file(str(warm)))
            yield "Dask", f"check_logs, {n} worker(s)", timed(lambda: rfc1738.dask.check_logs(files, client=client))[0], 1
    for n in jobs:
        cmd = [binary, "check", "--input-format", "clf", "--jobs", str(n), *files]
        yield "command", f"rfc1738 check --input-format clf --jobs {n}", timed(
            lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )[0], 1
    shutil.rmtree(directory)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "rfc1738"))
    ap.add_argument("--only", choices=["duckdb", "datafusion", "polars", "dask"], action="append",
                    help="run these engines only (repeatable)")
    args = ap.parse_args()
    column = corpus(args.corpus, args.rows)
    small = column.slice(0, args.rows // 10)
    print(f"{len(column)} URLs (the corpus repeated); one thread per engine\n")
    print("| engine | function | ns/URL | note |")
    print("| :-- | :-- | --: | :-- |")
    engines = {
        "duckdb": lambda: duckdb_rows(column, small),
        "datafusion": lambda: datafusion_rows(column, small),
        "polars": lambda: polars_rows(column, small),
        "dask": lambda: dask_rows(column, args.binary),
    }
    for key, rows in engines.items():
        if args.only and key not in args.only:
            continue
        for engine, name, seconds, scale in rows():
            note = f"on {len(small)} rows, scaled" if scale != 1 else ""
            print(f"| {engine} | {name} | {seconds * scale / len(column) * 1e9:.0f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
