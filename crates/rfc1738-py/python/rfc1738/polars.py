"""The RFC 1738 functions as a Polars expression namespace.

Importing this module registers ``pl.col(...).rfc1738``:

>>> import polars as pl
>>> import rfc1738.polars  # noqa: F401
>>> pl.DataFrame({"url": ["http://a.dom/", "bad"]}).select(pl.col("url").rfc1738.is_valid())["url"].to_list()
[True, False]

The methods are the SQL functions without their ``rfc1738_`` prefix:
``is_valid`` (``rfc1738_valid``), ``error``, ``parse``, ``scheme``, ``host``,
``port``, ``user``, ``path``, ``normalize``, ``lint``, ``extract``, ``clf_url``.
"""

try:
    import polars as _pl
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("polars", "polars") from _error

from rfc1738.sql import BY_NAME


def _batch(name):
    f = BY_NAME[name]
    dtype = _pl.from_arrow(_empty(f.returns)).dtype

    def run(series: "_pl.Series") -> "_pl.Series":
        out = f.kernel(series.to_arrow())
        return _pl.Series(series.name, out, dtype=dtype)

    def method(self) -> "_pl.Expr":
        return self._expr.map_batches(run, return_dtype=dtype)

    method.__doc__ = f"``{name}``: {f.doc}."
    return method


def _empty(t):
    import pyarrow as pa

    return pa.array([], t)


@_pl.api.register_expr_namespace("rfc1738")
class Rfc1738Namespace:
    """``pl.col("url").rfc1738.<function>()``: one batch per call, read in Rust."""

    def __init__(self, expr: "_pl.Expr") -> None:
        self._expr = expr

    is_valid = _batch("rfc1738_valid")
    error = _batch("rfc1738_error")
    parse = _batch("rfc1738_parse")
    scheme = _batch("rfc1738_scheme")
    host = _batch("rfc1738_host")
    port = _batch("rfc1738_port")
    user = _batch("rfc1738_user")
    path = _batch("rfc1738_path")
    normalize = _batch("rfc1738_normalize")
    lint = _batch("rfc1738_lint")
    extract = _batch("rfc1738_extract")
    clf_url = _batch("rfc1738_clf_url")
