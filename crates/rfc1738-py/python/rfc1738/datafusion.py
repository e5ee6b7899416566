"""The RFC 1738 SQL functions in DataFusion (its Python package).

>>> import datafusion, rfc1738.datafusion
>>> ctx = datafusion.SessionContext()
>>> rfc1738.datafusion.register(ctx)
>>> ctx.sql("select rfc1738_valid('http://a.dom/') as v").to_pydict()
{'v': [True]}
"""

try:
    import datafusion as _datafusion
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("datafusion", "datafusion") from _error

import pyarrow as pa

from rfc1738.sql import FUNCTIONS


def register(ctx: "_datafusion.SessionContext") -> None:
    """Registers every ``rfc1738_*`` function on the session ``ctx``.

    Each one is a scalar UDF over Arrow batches: DataFusion hands it a
    batch, the kernel reads it in Rust.
    """
    for f in FUNCTIONS:
        udf = _datafusion.udf(f.kernel, list(f.args), f.returns, "immutable", name=f.name)
        ctx.register_udf(udf)


def read_log(
    ctx: "_datafusion.SessionContext", path: str, format: str = "combined", lenient: bool = False
) -> "_datafusion.DataFrame":
    """The log file at ``path`` (compressed or not) as a DataFrame of
    ``ctx``: the columns of the DuckDB extension's ``rfc1738_log`` table
    function (see :func:`rfc1738.clf.read_log`); ``.to_view()`` or
    ``ctx.register_record_batches`` names it for SQL."""
    from rfc1738.clf import read_log as _read

    return ctx.from_arrow(_read(path, format, lenient))
