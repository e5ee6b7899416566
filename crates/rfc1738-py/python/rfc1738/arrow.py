"""The readings of :mod:`rfc1738` over whole Arrow columns.

Each function takes any Arrow string column, anything with
``__arrow_c_array__`` or ``__arrow_c_stream__``: a ``pyarrow`` array or
chunked array, a one-column table, record batch or record batch reader,
a Polars ``Series`` (Categorical too) or one-column ``DataFrame``, a
DuckDB relation or query result of one column, a pandas column backed by
Arrow. Strings, large strings, string views, binaries, and any of them
dictionary-encoded. It returns a ``pyarrow.Array`` for an array and a
``pyarrow.ChunkedArray`` for a stream, of the function's type even when
the stream is empty. Nulls stay null. The work runs in Rust without the
GIL; no Python object is made per URL.

>>> import pyarrow as pa
>>> from rfc1738 import arrow
>>> arrow.is_valid(pa.array(["http://a.dom/", "http://a.dom/a b", None])).to_pylist()
[True, False, None]

``is_valid`` and ``validate`` check a column in bulk, block by block over
its bytes; the full parser reads only the URLs that check rejects or
cannot decide, and gives every error.
"""

try:
    import pyarrow as _pyarrow
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "rfc1738.arrow needs pyarrow: pip install 'rfc1738[arrow]' (or pip install pyarrow)"
    ) from e

import inspect as _inspect
from typing import Any, Callable, Union

from rfc1738 import _rfc1738


def _public(name: str) -> Callable[..., Any]:
    """The kernel ``arrow_NAME`` of the extension module under its public
    name: ``help(rfc1738.arrow.host)`` names ``host`` and shows its
    keywords and what it returns."""
    native = getattr(_rfc1738, f"arrow_{name}")

    def kernel(*args: Any, **keywords: Any) -> Any:
        return native(*args, **keywords)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__module__ = __name__
    doc = native.__doc__ or ""
    if "pyarrow.Array" not in doc:
        doc = doc.rstrip() + (
            "\n\nReturns a ``pyarrow.Array`` for an array, a ``pyarrow.ChunkedArray``"
            " for a stream (of the same type even when it has no chunk)."
        )
    kernel.__doc__ = doc
    kernel.__signature__ = _inspect.signature(native)  # type: ignore[attr-defined]
    return kernel


authority = _public("authority")
cut_fragment = _public("cut_fragment")
cut_search = _public("cut_search")
decode = _public("decode")
effective_port = _public("effective_port")
extension = _public("extension")
extract = _public("extract")
fragment = _public("fragment")
host = _public("host")
host_without_www = _public("host_without_www")
is_valid = _public("is_valid")
lint = _public("lint")
normalize = _public("normalize")
parse = _public("parse")
part = _public("part")
password = _public("password")
path = _public("path")
port = _public("port")
public_suffix = _public("public_suffix")
query_param = _public("query_param")
query_params = _public("query_params")
registrable_domain = _public("registrable_domain")
resolve = _public("resolve")
scheme = _public("scheme")
segments = _public("segments")
search = _public("search")
user = _public("user")
validate = _public("validate")

Column = Any
"""Anything with ``__arrow_c_array__`` or ``__arrow_c_stream__`` holding strings."""
Result = Union[_pyarrow.Array, _pyarrow.ChunkedArray]
"""A ``pyarrow.Array`` for an array in, a ``pyarrow.ChunkedArray`` for a stream."""

__all__ = [
    "Column",
    "Result",
    "authority",
    "cut_fragment",
    "cut_search",
    "decode",
    "extension",
    "host_without_www",
    "query_param",
    "public_suffix",
    "query_params",
    "registrable_domain",
    "segments",
    "effective_port",
    "extract",
    "fragment",
    "host",
    "is_valid",
    "lint",
    "normalize",
    "parse",
    "part",
    "password",
    "path",
    "port",
    "resolve",
    "scheme",
    "search",
    "user",
    "validate",
]
