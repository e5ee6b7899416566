"""The RFC 1738 functions as a Polars expression namespace and a Series
namespace.

Importing this module registers ``pl.col(...).rfc1738`` and
``series.rfc1738``:

>>> import polars as pl
>>> import rfc1738.polars  # noqa: F401
>>> pl.DataFrame({"url": ["http://a.dom/", "bad"]}).select(pl.col("url").rfc1738.is_valid())["url"].to_list()
[True, False]
>>> pl.Series("url", ["http://a.dom:81/", "bad"]).rfc1738.host().to_list()
['a.dom', None]

The methods are the SQL functions without their ``rfc1738_`` prefix:
``is_valid`` (``rfc1738_valid``), ``error``, ``parse``, ``scheme``, ``user``,
``password``, ``host``, ``port``, ``path``, ``search``, ``fragment``,
``normalize``, ``lint``, ``extract``, ``clf_url``, and the log line's
``clf_valid``, ``clf_scheme``, ``clf_error``, ``clf_referer``,
``clf_referer_valid``, ``clf_referer_scheme``, ``clf_referer_error``, and
every field of the line: ``clf_client``, ``clf_ident``, ``clf_user``,
``clf_time``, ``clf_time_iso``, ``clf_timestamp``, ``clf_method``,
``clf_target``, ``clf_protocol``, ``clf_status``, ``clf_bytes``,
``clf_user_agent``.
"""

try:
    import polars as _pl
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("polars", "polars") from _error

from rfc1738.sql import BY_NAME


def _run(name):
    """The function ``name`` over one Series, a Series of its result."""
    f = BY_NAME[name]
    dtype = _pl.from_arrow(_empty(f.returns)).dtype

    def run(series: "_pl.Series") -> "_pl.Series":
        out = f.kernel(series.to_arrow())
        return _pl.Series(series.name, out, dtype=dtype)

    return run, dtype


def _batch(name):
    run, dtype = _run(name)

    def method(self) -> "_pl.Expr":
        return self._expr.map_batches(run, return_dtype=dtype)

    method.__doc__ = f"``{name}``: {BY_NAME[name].doc}; null where the URL is invalid or null."
    return method


def _series(name):
    run, _ = _run(name)

    def method(self) -> "_pl.Series":
        return run(self._series)

    method.__doc__ = f"``{name}``: {BY_NAME[name].doc}; null where the URL is invalid or null."
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
    password = _batch("rfc1738_password")
    path = _batch("rfc1738_path")
    search = _batch("rfc1738_search")
    fragment = _batch("rfc1738_fragment")
    normalize = _batch("rfc1738_normalize")
    lint = _batch("rfc1738_lint")
    extract = _batch("rfc1738_extract")
    clf_url = _batch("rfc1738_clf_url")
    clf_valid = _batch("rfc1738_clf_valid")
    clf_scheme = _batch("rfc1738_clf_scheme")
    clf_error = _batch("rfc1738_clf_error")
    clf_referer = _batch("rfc1738_clf_referer")
    clf_referer_valid = _batch("rfc1738_clf_referer_valid")
    clf_referer_scheme = _batch("rfc1738_clf_referer_scheme")
    clf_referer_error = _batch("rfc1738_clf_referer_error")
    clf_client = _batch("rfc1738_clf_client")
    clf_ident = _batch("rfc1738_clf_ident")
    clf_user = _batch("rfc1738_clf_user")
    clf_time = _batch("rfc1738_clf_time")
    clf_time_iso = _batch("rfc1738_clf_time_iso")
    clf_timestamp = _batch("rfc1738_clf_timestamp")
    clf_method = _batch("rfc1738_clf_method")
    clf_target = _batch("rfc1738_clf_target")
    clf_protocol = _batch("rfc1738_clf_protocol")
    clf_status = _batch("rfc1738_clf_status")
    clf_bytes = _batch("rfc1738_clf_bytes")
    clf_user_agent = _batch("rfc1738_clf_user_agent")


@_pl.api.register_series_namespace("rfc1738")
class Rfc1738SeriesNamespace:
    """``series.rfc1738.<function>()``: the same functions over a Series,
    read in Rust in one call; each returns a Series of the same name."""

    def __init__(self, series: "_pl.Series") -> None:
        self._series = series

    is_valid = _series("rfc1738_valid")
    error = _series("rfc1738_error")
    parse = _series("rfc1738_parse")
    scheme = _series("rfc1738_scheme")
    user = _series("rfc1738_user")
    password = _series("rfc1738_password")
    host = _series("rfc1738_host")
    port = _series("rfc1738_port")
    path = _series("rfc1738_path")
    search = _series("rfc1738_search")
    fragment = _series("rfc1738_fragment")
    normalize = _series("rfc1738_normalize")
    lint = _series("rfc1738_lint")
    extract = _series("rfc1738_extract")
    clf_url = _series("rfc1738_clf_url")
    clf_valid = _series("rfc1738_clf_valid")
    clf_scheme = _series("rfc1738_clf_scheme")
    clf_error = _series("rfc1738_clf_error")
    clf_referer = _series("rfc1738_clf_referer")
    clf_referer_valid = _series("rfc1738_clf_referer_valid")
    clf_referer_scheme = _series("rfc1738_clf_referer_scheme")
    clf_referer_error = _series("rfc1738_clf_referer_error")
    clf_client = _series("rfc1738_clf_client")
    clf_ident = _series("rfc1738_clf_ident")
    clf_user = _series("rfc1738_clf_user")
    clf_time = _series("rfc1738_clf_time")
    clf_time_iso = _series("rfc1738_clf_time_iso")
    clf_timestamp = _series("rfc1738_clf_timestamp")
    clf_method = _series("rfc1738_clf_method")
    clf_target = _series("rfc1738_clf_target")
    clf_protocol = _series("rfc1738_clf_protocol")
    clf_status = _series("rfc1738_clf_status")
    clf_bytes = _series("rfc1738_clf_bytes")
    clf_user_agent = _series("rfc1738_clf_user_agent")
