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
``is_valid`` (``rfc1738_valid``), ``error``, ``parse``, ``scheme``, ``kind``,
``user``, ``password``, ``host``, ``port``, ``effective_port``, ``path``,
``search``, ``fragment``, ``part(name)``, ``normalize``, ``lint``,
``extract``, ``clf_url``, the peers' ``authority``, ``cut_search``,
``cut_fragment``, ``extension``, ``host_without_www``,
``public_suffix``, ``registrable_domain``, ``decode``,
``query_param(name)``, ``query_params``, ``segments``, and the log line's
``clf_valid``, ``clf_scheme``, ``clf_error``, ``clf_referer``,
``clf_referer_valid``, ``clf_referer_scheme``, ``clf_referer_error``, and
every field of the line: ``clf_client``, ``clf_ident``, ``clf_user``,
``clf_time``, ``clf_time_iso``, ``clf_timestamp``, ``clf_method``,
``clf_target``, ``clf_protocol``, ``clf_status``, ``clf_bytes``,
``clf_user_agent``. Each that reads a URL takes ``lenient=True`` (the
SQL functions' optional last argument).
"""

try:
    import polars as _pl
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("polars", "polars") from _error

from rfc1738 import arrow as _arrow
from rfc1738.sql import BY_NAME


def _run(name, **keywords):
    """The function ``name`` over one Series, a Series of its result."""
    f = BY_NAME[name]
    dtype = _dtype(f.returns)

    def run(series: "_pl.Series") -> "_pl.Series":
        out = f.read(series.to_arrow(), **keywords)
        return _pl.Series(series.name, out, dtype=dtype)

    return run, dtype


def _doc(name):
    f = BY_NAME[name]
    doc = f"``{name}``: {f.doc}; null where the URL is invalid or null."
    if f.lenient:
        doc += " ``lenient=True`` reads the URL as ``rfc1738 parse --lenient`` does."
    return doc


def _batch(name):
    def method(self, **keywords) -> "_pl.Expr":
        run, dtype = _run(name, **keywords)
        return self._expr.map_batches(run, return_dtype=dtype)

    method.__doc__ = _doc(name)
    return method


def _series(name):
    def method(self, **keywords) -> "_pl.Series":
        run, _ = _run(name, **keywords)
        return run(self._series)

    method.__doc__ = _doc(name)
    return method


def _part_run(name, decoded, lenient, dtype=None):
    """The part ``name`` of one Series (``rfc1738.arrow.part``), a Series."""
    dtype = dtype or (_pl.UInt16 if name in ("port", "effective_port") else _pl.String)

    def run(series: "_pl.Series") -> "_pl.Series":
        out = _arrow.part(series.to_arrow(), name, decoded=decoded, lenient=lenient)
        return _pl.Series(series.name, out).cast(dtype)

    return run, dtype


def _text(name):
    """A text part with its ``decoded=`` and ``lenient=`` keywords."""

    def method(self, *, decoded: "bool | None" = None, lenient: bool = False):
        run, dtype = _part_run(name, decoded, lenient)
        return self._apply(run, dtype)

    method.__doc__ = (
        f"``{name}``: {BY_NAME['rfc1738_' + name].doc}; ``decoded=`` decodes its escapes or not"
        " (the default: decoded for user and password, else as written); ``lenient=True`` reads"
        " the URL as ``rfc1738 parse --lenient`` does."
    )
    return method


def _plain(name, dtype):
    """A part without escapes (the scheme, a port), with ``lenient=``; of
    the SQL function's type."""

    def method(self, *, lenient: bool = False):
        run, _ = _part_run(name, False, lenient, dtype)
        return self._apply(run, dtype)

    method.__doc__ = (
        f"``{name}``: {BY_NAME['rfc1738_' + name].doc}; ``lenient=True`` reads the URL as"
        " ``rfc1738 parse --lenient`` does."
    )
    return method


def _part(self, name: str, *, decoded: "bool | None" = None, lenient: bool = False):
    """``part(name)``: any part ``rfc1738 parse --get`` names (``"ftp.typecode"``,
    ``"http.path"``, ...), ``"path"`` and ``"search"``, as ``rfc1738.arrow.part``;
    ``UInt16`` for the ports, else text."""
    run, dtype = _part_run(name, decoded, lenient)
    return self._apply(run, dtype)


def _kernel(name, dtype):
    """A peer function of ``rfc1738.arrow`` (``authority``, ``extension``,
    ...), with its keywords."""

    def method(self, *args, **keywords):
        def run(series: "_pl.Series") -> "_pl.Series":
            return _pl.Series(series.name, getattr(_arrow, name)(series.to_arrow(), *args, **keywords))

        return self._apply(run, dtype)

    method.__doc__ = f"``{name}``: :func:`rfc1738.arrow.{name}` over the column."
    return method


_PARAMS = _pl.List(_pl.Struct({"name": _pl.String, "value": _pl.String}))


def _dtype(t):
    """The Polars type of an Arrow type, told without ``pl.from_arrow``
    (which imports pandas: 0.9 s of an import that needs none)."""
    import pyarrow as pa

    if pa.types.is_boolean(t):
        return _pl.Boolean
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return _pl.String
    if pa.types.is_list(t):
        return _pl.List(_dtype(t.value_type))
    if pa.types.is_struct(t):
        return _pl.Struct({f.name: _dtype(f.type) for f in t})
    if pa.types.is_timestamp(t):
        return _pl.Datetime(t.unit, t.tz)
    return {pa.int32(): _pl.Int32, pa.int64(): _pl.Int64, pa.uint16(): _pl.UInt16}[t]


@_pl.api.register_expr_namespace("rfc1738")
class Rfc1738Namespace:
    """``pl.col("url").rfc1738.<function>()``: one batch per call, read in Rust."""

    def __init__(self, expr: "_pl.Expr") -> None:
        self._expr = expr

    def _apply(self, run, dtype) -> "_pl.Expr":
        return self._expr.map_batches(run, return_dtype=dtype)

    part = _part

    is_valid = _batch("rfc1738_valid")
    error = _batch("rfc1738_error")
    parse = _batch("rfc1738_parse")
    scheme = _plain("scheme", _pl.String)
    kind = _plain("kind", _pl.String)
    host = _text("host")
    port = _plain("port", _pl.Int32)
    effective_port = _plain("effective_port", _pl.Int32)
    user = _text("user")
    password = _text("password")
    path = _text("path")
    search = _text("search")
    fragment = _text("fragment")
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
    authority = _kernel("authority", _pl.String)
    cut_search = _kernel("cut_search", _pl.String)
    cut_fragment = _kernel("cut_fragment", _pl.String)
    extension = _kernel("extension", _pl.String)
    host_without_www = _kernel("host_without_www", _pl.String)
    public_suffix = _kernel("public_suffix", _pl.String)
    registrable_domain = _kernel("registrable_domain", _pl.String)
    decode = _kernel("decode", _pl.String)
    query_param = _kernel("query_param", _pl.String)
    query_params = _kernel("query_params", _PARAMS)
    segments = _kernel("segments", _pl.List(_pl.String))
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

    def _apply(self, run, dtype) -> "_pl.Series":
        return run(self._series)

    part = _part

    is_valid = _series("rfc1738_valid")
    error = _series("rfc1738_error")
    parse = _series("rfc1738_parse")
    scheme = _plain("scheme", _pl.String)
    kind = _plain("kind", _pl.String)
    user = _text("user")
    password = _text("password")
    host = _text("host")
    port = _plain("port", _pl.Int32)
    effective_port = _plain("effective_port", _pl.Int32)
    path = _text("path")
    search = _text("search")
    fragment = _text("fragment")
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
    authority = _kernel("authority", _pl.String)
    cut_search = _kernel("cut_search", _pl.String)
    cut_fragment = _kernel("cut_fragment", _pl.String)
    extension = _kernel("extension", _pl.String)
    host_without_www = _kernel("host_without_www", _pl.String)
    public_suffix = _kernel("public_suffix", _pl.String)
    registrable_domain = _kernel("registrable_domain", _pl.String)
    decode = _kernel("decode", _pl.String)
    query_param = _kernel("query_param", _pl.String)
    query_params = _kernel("query_params", _PARAMS)
    segments = _kernel("segments", _pl.List(_pl.String))
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


def read_log(path: str, format: str = "combined", lenient: bool = False) -> "_pl.DataFrame":
    """The log file at ``path`` (compressed or not) as a DataFrame: the
    columns of the DuckDB extension's ``rfc1738_log`` table function
    (see :func:`rfc1738.clf.read_log`)."""
    from rfc1738.clf import read_log as _read

    frame = _pl.from_arrow(_read(path, format, lenient))
    assert isinstance(frame, _pl.DataFrame)
    return frame
