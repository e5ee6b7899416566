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

from typing import Any, Union

from rfc1738._rfc1738 import arrow_authority as authority
from rfc1738._rfc1738 import arrow_cut_fragment as cut_fragment
from rfc1738._rfc1738 import arrow_cut_search as cut_search
from rfc1738._rfc1738 import arrow_decode as decode
from rfc1738._rfc1738 import arrow_effective_port as effective_port
from rfc1738._rfc1738 import arrow_extension as extension
from rfc1738._rfc1738 import arrow_extract as extract
from rfc1738._rfc1738 import arrow_fragment as fragment
from rfc1738._rfc1738 import arrow_host as host
from rfc1738._rfc1738 import arrow_is_valid as is_valid
from rfc1738._rfc1738 import arrow_lint as lint
from rfc1738._rfc1738 import arrow_normalize as normalize
from rfc1738._rfc1738 import arrow_parse as parse
from rfc1738._rfc1738 import arrow_part as part
from rfc1738._rfc1738 import arrow_password as password
from rfc1738._rfc1738 import arrow_host_without_www as host_without_www
from rfc1738._rfc1738 import arrow_query_param as query_param
from rfc1738._rfc1738 import arrow_query_params as query_params
from rfc1738._rfc1738 import arrow_path as path
from rfc1738._rfc1738 import arrow_port as port
from rfc1738._rfc1738 import arrow_resolve as resolve
from rfc1738._rfc1738 import arrow_scheme as scheme
from rfc1738._rfc1738 import arrow_search as search
from rfc1738._rfc1738 import arrow_user as user
from rfc1738._rfc1738 import arrow_validate as validate

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
    "query_params",
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
