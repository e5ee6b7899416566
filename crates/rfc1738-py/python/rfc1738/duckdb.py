"""The RFC 1738 SQL functions in DuckDB, vectorized over Arrow.

>>> import duckdb, rfc1738.duckdb
>>> con = duckdb.connect()
>>> rfc1738.duckdb.register(con)
>>> con.sql("select rfc1738_valid('http://a.dom/'), rfc1738_host('ftp://h.dom/x')").fetchall()
[(True, 'h.dom')]
"""

try:
    import duckdb as _duckdb
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("duckdb", "duckdb") from _error

import pyarrow as pa

from rfc1738.sql import FUNCTIONS


def _sql_type(t: pa.DataType) -> str:
    """The DuckDB type of an Arrow type."""
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_string(t) or pa.types.is_string_view(t):
        return "VARCHAR"
    if pa.types.is_int64(t):
        return "BIGINT"
    if pa.types.is_int32(t):
        return "INTEGER"
    if pa.types.is_uint16(t):
        return "USMALLINT"
    if pa.types.is_timestamp(t) and t.tz is not None:
        return "TIMESTAMPTZ"
    if pa.types.is_list(t):
        return f"{_sql_type(t.value_type)}[]"
    if pa.types.is_struct(t):
        return "STRUCT(" + ", ".join(f'"{f.name}" {_sql_type(f.type)}' for f in t) + ")"
    raise TypeError(f"no DuckDB type for {t}")


def _varargs(f):
    """``f.kernel`` as DuckDB reads a Python function with ``*columns``:
    its parameters before them take the first fixed types, ``*columns``
    the last and then DuckDB's varargs (``ANY``)."""
    if len(f.args) == 1:
        return lambda *columns: f.kernel(*columns)
    return lambda url, *columns: f.kernel(url, *columns)


def register(con: "_duckdb.DuckDBPyConnection") -> None:
    """Registers every ``rfc1738_*`` function on the connection ``con``.

    Each one is an Arrow-vectorized function: DuckDB hands it a batch of
    rows, the kernel reads the batch in Rust. A function that reads a URL
    takes ``lenient`` last, optional (``rfc1738_host(url, true)``): DuckDB's
    ``create_function`` takes one signature a name, so its arguments
    after the fixed ones are DuckDB's varargs, which the kernel checks (at
    most one, a BOOLEAN), where the extension has two overloads.
    """
    for f in FUNCTIONS:
        # duckdb's stubs want enums for `type` and `null_handling`, which
        # not every version exports; each version takes their names.
        con.create_function(  # type: ignore[call-overload]
            f.name,
            _varargs(f) if f.lenient else f.read,
            [_sql_type(t) for t in f.args],
            _duckdb.sqltype(_sql_type(f.returns)),
            type="arrow",
            null_handling="special",
            side_effects=False,
        )


def read_log(
    con: "_duckdb.DuckDBPyConnection", path: str, format: str = "combined", lenient: bool = False
) -> "_duckdb.DuckDBPyRelation":
    """The log file at ``path`` (compressed or not) as a relation of
    ``con``: the rows and columns of the extension's ``rfc1738_log(path,
    format := ..., lenient := ...)`` table function (see
    :func:`rfc1738.clf.read_log`).

    DuckDB's Python API registers no table function; this is the nearest:
    a relation, which a query names as a view (``.create_view("log")``)
    or as the Python variable holding it.

    >>> import duckdb, rfc1738.duckdb
    >>> con = duckdb.connect()
    >>> log = rfc1738.duckdb.read_log(con, "docs/examples/sample.log")  # doctest: +SKIP
    >>> con.sql("select status, count(*) from log group by all order by 1 limit 1").fetchall()  # doctest: +SKIP
    [(200, 46)]
    """
    from rfc1738.clf import read_log as _read

    return con.from_arrow(_read(path, format, lenient))
