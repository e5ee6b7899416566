"""The SQL functions of every engine, once: names, Arrow types, kernels.

Each function takes one Arrow column and returns one, built on the
kernels of :mod:`rfc1738.arrow` (a batch per call, never a Python call per
row). ``rfc1738.duckdb``, ``rfc1738.datafusion`` and ``rfc1738.polars``
register these same functions under these same names.

========================  ==================================================
``rfc1738_valid``          boolean (null in, null out)
``rfc1738_error``          ``{offset, kind, rule, message}``; null when valid
``rfc1738_parse``          the top-level fields of ``parse --json``
``rfc1738_scheme`` ...     ``scheme``, ``kind``, ``user``, ``password``
                           (decoded), ``host``, ``port`` (as written),
                           ``effective_port`` (written or the scheme's
                           default), ``path``, ``search``, ``fragment`` (as
                           written): null when absent or invalid, ``''``
                           when empty
``rfc1738_part``           ``rfc1738_part(url, name)``: any part
                           ``parse --get`` names, as text
``rfc1738_authority`` ...  peers' functions: ``authority`` (§3.1's login),
                           ``cut_search``, ``cut_fragment``, ``extension``,
                           ``host_without_www``, ``public_suffix``,
                           ``registrable_domain``, ``decode`` (any text),
                           ``query_param(url, name)`` (the HTML form
                           convention over http's search),
                           ``query_params`` (every pair: ``[{name,
                           value}]``), ``segments`` (``[VARCHAR]``)
``rfc1738_normalize``      the normal form; null when invalid
``rfc1738_lint``           the §6 warnings: ``[{offset, kind, message}]``
``rfc1738_extract``        the URLs found in a text: ``[{url, start, end, form}]``
``rfc1738_clf_url``        the request URL of a Common Log Format line
``rfc1738_clf_valid``      whether the log line is valid, as ``rfc1738 check
                           --input-format clf`` says (request URL and referer)
``rfc1738_clf_scheme``     the row of the command's summary the line counts
                           under: the request URL's scheme (``http`` for a
                           path), ``*``, ``(no request)``, ``(not clf)``
``rfc1738_clf_error``      ``{offset, kind, rule, message}`` of the line
``rfc1738_clf_referer``    the Combined referer as logged; null for ``"-"``
``rfc1738_clf_referer_valid``, ``_referer_scheme``, ``_referer_error``:
                           the referer's own verdict, scheme, error
``rfc1738_clf_client`` ... every field of the line: ``client``, ``ident``,
                           ``user``, ``time`` (as logged), ``time_iso``
                           (ISO 8601 with its offset), ``timestamp`` (an
                           instant), ``method``, ``target``, ``protocol``,
                           ``status``, ``bytes``, ``user_agent``
========================  ==================================================

Every function that reads a URL (all but ``rfc1738_decode``,
``rfc1738_extract`` and ``rfc1738_clf_url``) takes ``lenient`` last,
optional, a BOOLEAN: ``rfc1738_host(url, true)`` reads the URL as
``rfc1738 parse --lenient`` does; ``rfc1738_lint(url, true)`` gives the
warnings beside such a value.

The ``rfc1738_clf_*`` functions are the command's one rule for a log line
(``rfc1738_report::clf``): ``rfc1738_valid(rfc1738_clf_url(line))`` is
not, since a path is no URL; grouping a log by ``rfc1738_clf_scheme`` and
``rfc1738_clf_valid`` gives the counts of ``rfc1738 check --input-format clf``.
"""

from dataclasses import dataclass
from typing import Callable

import pyarrow as pa
import pyarrow.compute as pc

from rfc1738 import _rfc1738, arrow

VIEW: pa.DataType = pa.string_view()
"""The type of a part: string views into the batch's own buffers."""
WARNING = pa.struct([("offset", pa.int64()), ("kind", pa.string()), ("message", pa.string())])
ERROR = pa.struct([("offset", pa.int64()), ("kind", pa.string()), ("rule", pa.string()), ("message", pa.string())])
FOUND = pa.struct([("url", pa.string()), ("start", pa.int64()), ("end", pa.int64()), ("form", pa.string())])
PARSED = pa.struct(
    [
        ("input", pa.string()),
        ("valid", pa.bool_()),
        ("scheme", pa.string()),
        ("kind", pa.string()),
        ("user", pa.string()),
        ("password", pa.string()),
        ("host", pa.string()),
        ("port", pa.uint16()),
        ("effective_port", pa.uint16()),
        ("url_path", pa.string()),
        ("fragment", pa.string()),
        (
            "warnings",
            pa.list_(
                pa.field(
                    "item",
                    pa.struct(
                        [
                            pa.field("offset", pa.int64(), nullable=False),
                            pa.field("len", pa.int64(), nullable=False),
                            pa.field("kind", pa.string(), nullable=False),
                            pa.field("security", pa.bool_(), nullable=False),
                            pa.field("message", pa.string(), nullable=False),
                        ]
                    ),
                    nullable=False,
                )
            ),
        ),
        ("error", ERROR),
    ]
)


@dataclass(frozen=True)
class Function:
    """One SQL function: its name, its result type, its kernel, and the
    Arrow types of its arguments (one string, the URL, unless said).

    A function that reads a URL (``lenient``) takes ``lenient`` last too,
    optional: a column of booleans, each row's URL read as ``rfc1738 parse
    --lenient`` reads it where true, a null where null. ``kernel`` takes
    it as an argument (an engine's column), ``read`` as a keyword (a
    Python ``bool``, the whole column read one way)."""

    name: str
    returns: pa.DataType
    read: Callable[..., pa.Array]
    doc: str
    args: tuple = (pa.string(),)
    lenient: bool = True

    def kernel(self, *columns):
        """The function on an engine's columns: the arguments, then, for a
        function that reads a URL, ``lenient`` if the call gave it."""
        fixed, more = columns[: len(self.args)], columns[len(self.args) :]
        if len(fixed) < len(self.args) or len(more) > int(self.lenient):
            takes = len(self.args) + int(self.lenient)
            raise TypeError(f"{self.name} takes {len(self.args)}{' or ' + str(takes) if self.lenient else ''} arguments, not {len(columns)}")
        if not more:
            return self.read(*fixed)
        flags = _array(more[0])
        if not (pa.types.is_boolean(flags.type) or pa.types.is_null(flags.type)):
            raise TypeError(f"{self.name}: lenient is a BOOLEAN, not {flags.type}")
        present = set(pc.unique(flags).to_pylist())
        if present == {True} or present == {False}:
            return self.read(*fixed, lenient=present == {True})
        # Each row as its flag says: one call per reading asked for.
        length = len(_array(fixed[0]))
        out = pa.nulls(length, _plain(self.returns))
        for flag in (True, False):
            if flag in present:
                rows = pc.fill_null(pc.equal(flags, flag), False)
                out = pc.if_else(rows, _cast(self.read(*fixed, lenient=flag), out.type), out)
        return out


def _plain(t):
    """A string view's type as a plain string, for ``if_else``."""
    return pa.string() if pa.types.is_string_view(t) else t


def _cast(column, t):
    column = _array(column)
    return column if column.type == t else column.cast(t)


def _array(column):
    """One pyarrow array from an array or a chunked array."""
    if isinstance(column, pa.ChunkedArray):
        return column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return column


def _parsed(column, lenient=False):
    return _array(arrow.parse(_array(column), views=True, lenient=lenient))


def _part(name, decoded=False):
    """The kernel of one part: ``rfc1738.arrow.part``, string views into
    the batch's own buffers where the part is written unchanged."""

    def kernel(column, lenient=False):
        return _array(arrow.part(_array(column), name, decoded=decoded, views=True, lenient=lenient))

    return kernel


def _error(column, lenient=False):
    """The errors alone: checked in bulk, the full parser asked only for
    the invalid URLs (no parse of a valid one)."""
    return _array(arrow.validate(_array(column), lenient=lenient))


def _parse(column, lenient=False):
    parsed = _parsed(column, lenient)
    names = [f.name for f in PARSED if f.name != "error"]
    fields = [parsed.field(f"error_{f.name}").cast(f.type) for f in ERROR]
    invalid = pc.fill_null(pc.invert(parsed.field("valid")), False)
    error = pa.StructArray.from_arrays(fields, fields=list(ERROR), mask=pc.invert(invalid))
    arrays = [parsed.field(n).cast(PARSED.field(n).type) for n in names] + [error]
    mask = pc.is_null(parsed)
    return pa.StructArray.from_arrays(arrays, fields=list(PARSED), mask=mask)


def _lint(column, lenient=False):
    return _array(arrow.lint(_array(column), lenient=lenient)).cast(pa.list_(WARNING))


def _extract(column):
    return _array(arrow.extract(_array(column))).cast(pa.list_(FOUND))


def _port(name):
    def kernel(column, lenient=False):
        return _part(name)(column, lenient).cast(pa.int32())

    return kernel


def _named_part(column, names, lenient=False):
    """``rfc1738_part(url, name)``: each row's part by its name, as text
    (a port's digits too): one kernel call per distinct name of the batch."""
    column, names = _array(column), _array(names)
    out = pa.nulls(len(column), pa.string())
    for name in pc.unique(names).drop_null().to_pylist():
        part = arrow.part(column, name, lenient=lenient).cast(pa.string())
        out = pc.if_else(pc.fill_null(pc.equal(names, name), False), part, out)
    return out


def _peer(name):
    def kernel(column, lenient=False):
        return _array(getattr(arrow, name)(_array(column), lenient=lenient))

    return kernel


def _query_param(column, names, lenient=False):
    """``rfc1738_query_param(url, name)``: one kernel call per distinct name."""
    column, names = _array(column), _array(names)
    out = pa.nulls(len(column), pa.string())
    for name in pc.unique(names).drop_null().to_pylist():
        value = arrow.query_param(column, name, lenient=lenient).cast(pa.string())
        out = pc.if_else(pc.fill_null(pc.equal(names, name), False), value, out)
    return out


PAIR = pa.struct([("name", pa.string()), ("value", pa.string())])


def _query_params(column, lenient=False):
    return _array(arrow.query_params(_array(column), lenient=lenient)).cast(pa.list_(PAIR))


def _segments(column, lenient=False):
    return _array(arrow.segments(_array(column), lenient=lenient)).cast(pa.list_(pa.string()))


FUNCTIONS = [
    Function(
        "rfc1738_valid", pa.bool_(), lambda c, lenient=False: _array(arrow.is_valid(_array(c), lenient=lenient)), "whether the URL is valid"
    ),
    Function("rfc1738_error", ERROR, _error, "where and why the URL is invalid; null when valid"),
    Function("rfc1738_parse", PARSED, _parse, "the top-level fields of rfc1738 parse --json"),
    Function("rfc1738_scheme", VIEW, _part("scheme"), "the scheme, lower-cased"),
    Function("rfc1738_kind", VIEW, _part("kind"), "the scheme's kind: ftp, http, ..., other"),
    Function("rfc1738_user", VIEW, _part("user", decoded=True), "the user name, decoded"),
    Function("rfc1738_password", VIEW, _part("password", decoded=True), "the password, decoded"),
    Function("rfc1738_host", VIEW, _part("host"), "the host"),
    Function("rfc1738_port", pa.int32(), _port("port"), "the port as written"),
    Function("rfc1738_effective_port", pa.int32(), _port("effective_port"), "the port written or the scheme's default"),
    Function("rfc1738_path", VIEW, _part("path"), "the url-path, raw"),
    Function("rfc1738_search", VIEW, _part("search"), "the search of http, gopher or wais, raw"),
    Function("rfc1738_fragment", VIEW, _part("fragment"), "the fragment identifier, raw"),
    Function(
        "rfc1738_normalize", pa.string(), lambda c, lenient=False: _array(arrow.normalize(_array(c), lenient=lenient)), "the normal form"
    ),
    Function("rfc1738_lint", pa.list_(WARNING), _lint, "the §6 security warnings"),
    Function("rfc1738_extract", pa.list_(FOUND), _extract, "the URLs found in a text (Appendix)", lenient=False),
    Function(
        "rfc1738_clf_url",
        pa.string(),
        lambda c: _array(_rfc1738.arrow_clf_url(_array(c))),
        "the request URL of a Common Log Format line",
        lenient=False,
    ),
    Function(
        "rfc1738_part",
        pa.string(),
        _named_part,
        "the part a name of parse --get names, as text",
        (pa.string(), pa.string()),
    ),
    Function("rfc1738_authority", pa.string(), _peer("authority"), "what // and the next / enclose (§3.1's login)"),
    Function("rfc1738_cut_search", pa.string(), _peer("cut_search"), "the URL without the ?search of http or wais"),
    Function("rfc1738_cut_fragment", pa.string(), _peer("cut_fragment"), "the URL without its #fragment"),
    Function("rfc1738_extension", pa.string(), _peer("extension"), "the file extension of an http, ftp or file URL"),
    Function("rfc1738_host_without_www", pa.string(), _peer("host_without_www"), "the host less a leading www."),
    Function("rfc1738_public_suffix", pa.string(), _peer("public_suffix"), "the host's public suffix (Public Suffix List)"),
    Function(
        "rfc1738_registrable_domain", pa.string(), _peer("registrable_domain"), "the host's registrable domain (Public Suffix List)"
    ),
    Function("rfc1738_decode", pa.string(), lambda c: _array(arrow.decode(_array(c))), "a text's %HH escapes decoded", lenient=False),
    Function(
        "rfc1738_query_param",
        pa.string(),
        _query_param,
        "the value of a pair of an http search, by the HTML form convention",
        (pa.string(), pa.string()),
    ),
    Function(
        "rfc1738_query_params",
        pa.list_(PAIR),
        _query_params,
        "every pair of an http search, by the HTML form convention, in order",
    ),
    Function("rfc1738_segments", pa.list_(pa.string()), _segments, "the segments of an http, ftp or file path, as written"),
]


def _clf(column, lenient=False):
    """Each line's record, the lines of a batch checked in bulk."""
    return _array(_rfc1738.arrow_clf_check(_array(column), lenient=lenient))


def _clf_field(name):
    def kernel(column, lenient=False):
        return _clf(column, lenient).field(name)

    return kernel


def _clf_error(prefix):
    def kernel(column, lenient=False):
        checked = _clf(column, lenient)
        fields = [checked.field(f"{prefix}{f.name}").cast(f.type) for f in ERROR]
        return pa.StructArray.from_arrays(fields, fields=list(ERROR), mask=pc.is_null(fields[0]))

    return kernel


FUNCTIONS += [
    Function("rfc1738_clf_valid", pa.bool_(), _clf_field("valid"), "whether the log line is valid, as check --input-format clf says"),
    Function("rfc1738_clf_scheme", pa.string(), _clf_field("row"), "the summary row of check --input-format clf the line counts under"),
    Function("rfc1738_clf_error", ERROR, _clf_error("error_"), "where and why the log line is invalid; null when valid"),
    Function("rfc1738_clf_referer", pa.string(), _clf_field("referer"), "the Combined referer as logged"),
    Function("rfc1738_clf_referer_valid", pa.bool_(), _clf_field("referer_valid"), "whether the referer is a valid URL"),
    Function("rfc1738_clf_referer_scheme", pa.string(), _clf_field("referer_scheme"), "the referer's scheme, or (no scheme)"),
    Function("rfc1738_clf_referer_error", ERROR, _clf_error("referer_error_"), "where and why the referer is invalid"),
    Function("rfc1738_clf_client", pa.string(), _clf_field("client"), "the client (%h, $remote_addr) as logged"),
    Function("rfc1738_clf_ident", pa.string(), _clf_field("ident"), "the identd identity (%l); null for -"),
    Function("rfc1738_clf_user", pa.string(), _clf_field("user"), "the authenticated user (%u); null for -"),
    Function("rfc1738_clf_time", pa.string(), _clf_field("time"), "the time as logged, without brackets"),
    Function("rfc1738_clf_time_iso", pa.string(), _clf_field("time_iso"), "the time as ISO 8601 with its offset"),
    Function("rfc1738_clf_timestamp", pa.timestamp("us", tz="UTC"), _clf_field("timestamp"), "the time as an instant"),
    Function("rfc1738_clf_method", pa.string(), _clf_field("method"), "the request's method"),
    Function("rfc1738_clf_target", pa.string(), _clf_field("target"), "the request target as logged"),
    Function("rfc1738_clf_protocol", pa.string(), _clf_field("protocol"), "the request's HTTP/x.y"),
    Function("rfc1738_clf_status", pa.int32(), _clf_field("status"), "the status code; null for -"),
    Function("rfc1738_clf_bytes", pa.int64(), _clf_field("bytes"), "the response size; null for -"),
    Function("rfc1738_clf_user_agent", pa.string(), _clf_field("user_agent"), "the User-Agent, its escapes read"),
]

BY_NAME = {f.name: f for f in FUNCTIONS}


def missing(extra, package):
    """The ImportError for a missing optional extra, naming it."""
    return ImportError(f"rfc1738.{extra} needs {package}: pip install 'rfc1738[{extra}]'")
