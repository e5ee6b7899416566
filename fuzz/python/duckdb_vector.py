"""Fuzz target (atheris) for the DuckDB extension's vector code
(`crates/rfc1738-duckdb/src/vector.rs`, `unsafe`): the strings of a
VARCHAR vector read in place (inlined up to 12 bytes, pointed to beyond),
and the results written into flat, struct and list vectors.

The input is cut into values at each `\\n` (a value after `\\x00` is
NULL); they go into DuckDB as a column, through the loadable extension
($RFC1738_DUCKDB_EXTENSION). Whatever they are, every function answers
one row per row, NULL for NULL, and agrees, row by row, with the Python
package's own reading of the same value (its Arrow kernels and
`rfc1738.parse`): validity, the error's kind, the host, the number of
security warnings and of URLs extracted.

Run by scripts/fuzz-python (atheris is not a dependency of the package).
"""

import os
import sys

import atheris

with atheris.instrument_imports():
    import duckdb
    import pyarrow as pa

    import rfc1738
    from rfc1738 import arrow

CON = duckdb.connect(config={"allow_unsigned_extensions": "true"})
CON.execute(f"load '{os.environ['RFC1738_DUCKDB_EXTENSION']}'")
QUERY = """
select rfc1738_valid(u), rfc1738_error(u).kind, rfc1738_host(u),
       len(rfc1738_lint(u)), len(rfc1738_extract(u))
from t
"""


def values(data: bytes):
    out = []
    for part in data.split(b"\n"):
        out.append(None if part.startswith(b"\x00") else part.decode("utf-8", "replace"))
    return out


def expected(value, host, lint, found):
    """The row DuckDB should give: lint and extract as counts (None where
    the Arrow kernel gives null, as for an invalid URL's lint)."""
    if value is None:
        return (None, None, None, None, None)
    try:
        rfc1738.parse(value)
        kind = None
    except rfc1738.ParseError as e:
        kind = e.kind
    count = lambda items: None if items is None else len(items)  # noqa: E731
    return (kind is None, kind, host, count(lint), count(found))


def test_one_input(data: bytes) -> None:
    vals = values(data)
    column = pa.array(vals, pa.string())
    CON.register("t", pa.table({"u": column}))
    got = CON.sql(QUERY).fetchall()
    assert len(got) == len(vals)
    hosts = arrow.host(column).cast(pa.string()).to_pylist()
    lints = arrow.lint(column).to_pylist()
    found = arrow.extract(column).to_pylist()
    for n, v in enumerate(vals):
        want = expected(v, hosts[n], lints[n], found[n])
        row = tuple(got[n])
        if v is None:
            assert row[:3] == (None, None, None), (v, row)
            continue
        assert row == want, (v, row, want)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
