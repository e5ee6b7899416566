"""The readings of :mod:`rfc1738` over whole Arrow columns."""

from typing import Any, Optional, Union

import pyarrow as pa

from rfc1738 import Text, Url

Column = Any
"""Anything with ``__arrow_c_array__`` or ``__arrow_c_stream__`` holding strings."""
Result = Union[pa.Array, pa.ChunkedArray]

def is_valid(column: Column, *, lenient: bool = False) -> Result:
    """Booleans: whether each URL is valid; null where null."""

def validate(column: Column, *, lenient: bool = False) -> Result:
    """Structs ``{offset, kind, rule, message}``: the error of each URL, as
    :class:`rfc1738.ParseError` gives it; null where valid or null."""

def parse(column: Column, *, lenient: bool = False, views: bool = False) -> Result:
    """One struct per URL: the top-level fields of ``rfc1738 parse --json``
    (``input``, ``valid``, ``scheme``, ``kind``, ``user`` and ``password``
    decoded, ``host``, ``port``, ``effective_port``, ``url_path``,
    ``fragment``, ``warnings``) and the error's (``error_offset``,
    ``error_kind``, ``error_rule``, ``error_message``); a null row where
    the input is null.

    ``input`` is the column given when it is one of strings (shared, not
    copied: its own type); the parts and the warnings' texts are
    ``string`` (``large_string`` for a large input); with ``views=True``
    the parts are string views into the input, the warnings' ``kind`` and
    ``message`` views into one copy of each distinct text.

    Raises ``TypeError`` for a column that is not one of strings.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> row = arrow.parse(pa.array(["ftp://h.dom:21/f"]))[0].as_py()
    >>> (row["host"], row["port"], row["url_path"], row["error_kind"])
    ('h.dom', 21, 'f', None)
    """

def part(column: Column, name: str, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """The part ``name`` of each URL, any part ``rfc1738 parse --get`` names
    (``"host"``, ``"ftp.typecode"``, ``"gopher.selector"``, ...), and
    ``"path"`` (the url-path) and ``"search"`` (the search of http,
    gopher or wais).

    Returns strings (``uint16`` for ``"port"`` and ``"effective_port"``):
    the part as written in the URL, or with ``decoded=True`` its ``%HH``
    escapes decoded (octets that are not UTF-8 replaced by U+FFFD; the
    default of ``"user"`` and ``"password"`` alone); null
    where the URL is invalid (or null) or has no such part, ``""`` where
    the part is empty. The strings are ``string`` (``large_string`` for a
    large input, views for a string-view input), which every pyarrow,
    pandas and Polars function takes; ``views=True`` gives string views
    into the input's buffer instead: nothing is copied, but pyarrow's
    ``filter``, ``take`` and comparisons do not take them.

    ``lenient=True`` reads each URL accepting the deviations of
    ``rfc1738 parse --lenient`` (§2.2's unsafe characters, ``_`` in a
    host, ...; ``rfc1738.parse(text, lenient=True).warnings`` says which),
    each parsed in full and its part copied.

    Raises ``ValueError`` for a name that is not a part (``"valid"``,
    ``"error.kind"``: see ``parse`` and ``validate``), ``TypeError`` for a
    column that is not one of strings.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.part(pa.array(["ftp://h.dom/f;type=i", "ftp://h.dom/f", "x"]), "ftp.typecode").to_pylist()
    ['i', None, None]
    """

def scheme(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the scheme of each URL, lower-cased (§2.1); null where invalid.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.scheme(pa.array(["HTTP://h.dom/", "bad"])).to_pylist()
    ['http', None]
    """

def user(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the user name (§3.1), decoded (``decoded=False``: as written); null
    where invalid or absent, ``""`` where empty.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.user(pa.array(["ftp://a%20b@h.dom/", "ftp://h.dom/"])).to_pylist()
    ['a b', None]
    """

def password(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the password (§3.1); null where invalid or absent.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.password(pa.array(["ftp://a:@h.dom/", "ftp://a@h.dom/"])).to_pylist()
    ['', None]
    """

def host(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the host (§3.1); null where invalid or absent.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.host(pa.array(["http://www.example.com:8080/x", "mailto:a@b.dom"])).to_pylist()
    ['www.example.com', None]
    """

def port(column: Column, *, lenient: bool = False) -> Result:
    """``uint16``: the port written in each URL (§3.1); null where invalid or
    none is written. ``part(column, "effective_port")`` gives the scheme's
    default where none is written.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.port(pa.array(["http://h.dom:8080/", "http://h.dom/"])).to_pylist()
    [8080, None]
    """

def effective_port(column: Column, *, lenient: bool = False) -> Result:
    """``uint16``: the port to connect to, written or the scheme's default
    (§3); null where invalid, without a ``//`` login, or above 65535.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.effective_port(pa.array(["http://h.dom:8080/", "http://h.dom/", "mailto:a@b.dom"])).to_pylist()
    [8080, 80, None]
    """

def path(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the url-path (§3.1, after the ``/`` that ends the host
    or port); null where invalid or absent.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.path(pa.array(["http://h.dom/a%20b?q", "http://h.dom"]), decoded=True).to_pylist()
    ['a b?q', None]
    """

def search(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the search of an http (§3.3), gopher (§3.4) or wais
    (§3.9) URL; null where invalid or absent.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.search(pa.array(["http://h.dom/p?q=1", "http://h.dom/p"])).to_pylist()
    ['q=1', None]
    """

def fragment(column: Column, *, decoded: Optional[bool] = None, views: bool = False, lenient: bool = False
) -> Result:
    """Strings (views with ``views=True``): the fragment identifier after ``#`` (§2.2); null where
    invalid or absent.

    >>> import pyarrow as pa
    >>> from rfc1738 import arrow
    >>> arrow.fragment(pa.array(["http://h.dom/#top", "http://h.dom/"])).to_pylist()
    ['top', None]
    """

def normalize(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the normal form of each URL; null where invalid."""

def extract(column: Column) -> Result:
    """Lists of ``{url, start, end, form}``: the URLs found in each text."""

def resolve(base: Union[Url, Text], column: Column) -> Result:
    """Strings: each reference resolved against ``base`` (RFC 1808); null where it cannot be."""

def lint(column: Column, *, lenient: bool = False) -> Result:
    """Lists of ``{offset, kind, message}``: the §6 warnings; null where invalid.
    ``lenient=True``: the warnings beside a value read leniently, each
    deviation the reading forgave first among them (``rfc1738 lint --lenient``)."""

def authority(column: Column, *, lenient: bool = False) -> Result:
    """Strings: what ``//`` and the next ``/`` enclose (§3.1's login, peers' netloc), as written."""

def cut_search(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the URL without the ``?search`` of http (§3.3) or wais (§3.9), its fragment kept."""

def cut_fragment(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the URL without its ``#fragment`` (§2.2)."""

def extension(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the file extension of an http, ftp or file URL, as written."""

def host_without_www(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the host less a leading ``www.``."""

def public_suffix(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the host's public suffix by the Public Suffix List, as written."""

def registrable_domain(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the host's registrable domain by the Public Suffix List, as written."""

def decode(column: Column) -> Result:
    """Strings: each text's ``%HH`` escapes decoded (§2.2)."""

def query_param(column: Column, name: str, *, lenient: bool = False) -> Result:
    """Strings: the value of the first pair ``name`` in an http search, by the HTML form convention."""

def segments(column: Column, *, lenient: bool = False) -> Result:
    """Lists of strings: the segments of an http, ftp (cwd, then name) or file path, as written."""

def query_params(column: Column, *, lenient: bool = False) -> Result:
    """Lists of ``{name, value}``: every pair of an http search, by the HTML form convention."""

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
