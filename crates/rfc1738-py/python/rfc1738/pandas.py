"""The RFC 1738 readings as a pandas accessor: ``Series.rfc1738``.

Importing this module registers it:

>>> import pandas as pd
>>> import rfc1738.pandas  # noqa: F401
>>> s = pd.Series(["http://h.dom:8080/a", "ftp://u@f.dom/x", "bad", None])
>>> s.rfc1738.host().tolist()
['h.dom', 'f.dom', <NA>, <NA>]
>>> s.rfc1738.port().tolist()
[8080, <NA>, <NA>, <NA>]
>>> s.rfc1738.effective_port().tolist()
[8080, 21, <NA>, <NA>]

Each method runs the kernel of :mod:`rfc1738.arrow` over the column in
one call (no Python call per row) and returns a Series of the same
index and name, of an ``ArrowDtype`` (``string``, ``uint16``, ``bool``). Object columns (``str``, ``bytes`` or missing values) are
read through Arrow, columns backed by Arrow (``string[pyarrow]``,
``ArrowDtype``) as they are.
"""

try:
    import pandas as _pd
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("pandas", "pandas") from _error

import pyarrow as _pa

from rfc1738 import arrow as _arrow


def _column(series: "_pd.Series") -> "_pa.Array":
    """The series as an Arrow column, without a copy when it is Arrow already."""
    values = series.array
    if hasattr(values, "__arrow_array__"):
        return values.__arrow_array__()
    return _pa.array(values.to_numpy(dtype=object), from_pandas=True)


@_pd.api.extensions.register_series_accessor("rfc1738")
class Rfc1738Accessor:
    """``series.rfc1738.<method>()``: the kernels of :mod:`rfc1738.arrow`
    over a pandas Series of URLs; each returns a Series with an
    ``ArrowDtype``, null where the URL is invalid or has no such part.
    ``lenient=True`` reads each URL accepting the deviations of
    ``rfc1738 parse --lenient`` (``Url.warnings`` says which).

    Raises ``TypeError`` when the Series does not hold text.
    """

    def __init__(self, series: "_pd.Series") -> None:
        self._series = series

    def _wrap(self, result) -> "_pd.Series":
        # pyarrow's compute kernels (filter, take, comparisons), which
        # pandas calls, do not all take string views: a part column is
        # copied into a plain string column here.
        if _pa.types.is_string_view(result.type):
            result = result.cast(_pa.string())
        return _pd.Series(
            _pd.arrays.ArrowExtensionArray(result), index=self._series.index, name=self._series.name, copy=False
        )

    def is_valid(self, *, lenient: bool = False) -> "_pd.Series":
        """Booleans: whether each URL is valid (:func:`rfc1738.arrow.is_valid`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://a.dom/", "http://a.dom/a b"]).rfc1738.is_valid().tolist()
        [True, False]
        """
        return self._wrap(_arrow.is_valid(_column(self._series), lenient=lenient))

    def part(self, name: str, *, decoded: "bool | None" = None, lenient: bool = False) -> "_pd.Series":
        """The part ``name`` of each URL, as ``rfc1738 parse --get`` names it
        (:func:`rfc1738.arrow.part`); raises ``ValueError`` for another name.

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["ftp://h.dom/f;type=i"]).rfc1738.part("ftp.typecode").tolist()
        ['i']
        """
        return self._wrap(_arrow.part(_column(self._series), name, decoded=decoded, lenient=lenient))

    def scheme(self, *, lenient: bool = False) -> "_pd.Series":
        """The scheme, lower-cased (:func:`rfc1738.arrow.scheme`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["HTTP://h.dom/"]).rfc1738.scheme().tolist()
        ['http']
        """
        return self._wrap(_arrow.scheme(_column(self._series), lenient=lenient))

    def user(self, *, decoded: bool = True, lenient: bool = False) -> "_pd.Series":
        """The user name, decoded (``decoded=False``: as written; :func:`rfc1738.arrow.user`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["ftp://a%20b@h.dom/"]).rfc1738.user().tolist()
        ['a b']
        """
        return self._wrap(_arrow.user(_column(self._series), decoded=decoded, lenient=lenient))

    def password(self, *, decoded: bool = True, lenient: bool = False) -> "_pd.Series":
        """The password, decoded (``decoded=False``: as written; :func:`rfc1738.arrow.password`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["ftp://a:pw@h.dom/"]).rfc1738.password().tolist()
        ['pw']
        """
        return self._wrap(_arrow.password(_column(self._series), decoded=decoded, lenient=lenient))

    def host(self, *, lenient: bool = False) -> "_pd.Series":
        """The host (:func:`rfc1738.arrow.host`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/"]).rfc1738.host().tolist()
        ['h.dom']
        """
        return self._wrap(_arrow.host(_column(self._series), lenient=lenient))

    def port(self, *, lenient: bool = False) -> "_pd.Series":
        """The port written in the URL, ``uint16`` (:func:`rfc1738.arrow.port`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom:81/"]).rfc1738.port().tolist()
        [81]
        """
        return self._wrap(_arrow.port(_column(self._series), lenient=lenient))

    def effective_port(self, *, lenient: bool = False) -> "_pd.Series":
        """The port written or the scheme's default, ``uint16`` (:func:`rfc1738.arrow.effective_port`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/"]).rfc1738.effective_port().tolist()
        [80]
        """
        return self._wrap(_arrow.effective_port(_column(self._series), lenient=lenient))

    def kind(self, *, lenient: bool = False) -> "_pd.Series":
        """The scheme's kind: ``ftp``, ``http``, ..., ``other`` (``part("kind")``).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["z39.50:x"]).rfc1738.kind().tolist()
        ['other']
        """
        return self._wrap(_arrow.part(_column(self._series), "kind", lenient=lenient))

    def parse(self, *, lenient: bool = False) -> "_pd.Series":
        """One struct a URL: the fields of ``parse --json`` (:func:`rfc1738.arrow.parse`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["ftp://h.dom/x"]).rfc1738.parse().tolist()[0]["host"]
        'h.dom'
        """
        return self._wrap(_arrow.parse(_column(self._series), lenient=lenient))

    def error(self, *, lenient: bool = False) -> "_pd.Series":
        """Each URL's error ``{offset, kind, rule, message}``; null where valid (:func:`rfc1738.arrow.validate`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://user@h.dom/"]).rfc1738.error().tolist()[0]["kind"]
        'user-not-allowed'
        """
        return self._wrap(_arrow.validate(_column(self._series), lenient=lenient))

    def lint(self, *, lenient: bool = False) -> "_pd.Series":
        """The §6 security warnings of each URL (:func:`rfc1738.arrow.lint`);
        ``lenient=True``: the warnings beside a value read leniently, each
        deviation forgiven too, as ``rfc1738 lint --lenient`` gives them."""
        return self._wrap(_arrow.lint(_column(self._series), lenient=lenient))

    def extract(self) -> "_pd.Series":
        """The URLs found in each text (:func:`rfc1738.arrow.extract`)."""
        return self._wrap(_arrow.extract(_column(self._series)))

    def path(self, *, decoded: bool = False, lenient: bool = False) -> "_pd.Series":
        """The url-path (:func:`rfc1738.arrow.path`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/a%20b"]).rfc1738.path(decoded=True).tolist()
        ['a b']
        """
        return self._wrap(_arrow.path(_column(self._series), decoded=decoded, lenient=lenient))

    def search(self, *, decoded: bool = False, lenient: bool = False) -> "_pd.Series":
        """The search of an http, gopher or wais URL (:func:`rfc1738.arrow.search`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/p?q"]).rfc1738.search().tolist()
        ['q']
        """
        return self._wrap(_arrow.search(_column(self._series), decoded=decoded, lenient=lenient))

    def fragment(self, *, decoded: bool = False, lenient: bool = False) -> "_pd.Series":
        """The fragment identifier (:func:`rfc1738.arrow.fragment`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/#top"]).rfc1738.fragment().tolist()
        ['top']
        """
        return self._wrap(_arrow.fragment(_column(self._series), decoded=decoded, lenient=lenient))

    def normalize(self, *, lenient: bool = False) -> "_pd.Series":
        """The normal form of each URL (:func:`rfc1738.arrow.normalize`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["HTTP://H.DOM:80/"]).rfc1738.normalize().tolist()
        ['http://h.dom/']
        """
        return self._wrap(_arrow.normalize(_column(self._series), lenient=lenient))

    def authority(self, *, lenient: bool = False) -> "_pd.Series":
        """What ``//`` and the next ``/`` enclose, §3.1's login (:func:`rfc1738.arrow.authority`)."""
        return self._wrap(_arrow.authority(_column(self._series), lenient=lenient))

    def cut_search(self, *, lenient: bool = False) -> "_pd.Series":
        """The URL without the ``?search`` of http or wais (:func:`rfc1738.arrow.cut_search`)."""
        return self._wrap(_arrow.cut_search(_column(self._series), lenient=lenient))

    def cut_fragment(self, *, lenient: bool = False) -> "_pd.Series":
        """The URL without its ``#fragment`` (:func:`rfc1738.arrow.cut_fragment`)."""
        return self._wrap(_arrow.cut_fragment(_column(self._series), lenient=lenient))

    def extension(self, *, lenient: bool = False) -> "_pd.Series":
        """The file extension of an http, ftp or file URL (:func:`rfc1738.arrow.extension`)."""
        return self._wrap(_arrow.extension(_column(self._series), lenient=lenient))

    def host_without_www(self, *, lenient: bool = False) -> "_pd.Series":
        """The host less a leading ``www.`` (:func:`rfc1738.arrow.host_without_www`)."""
        return self._wrap(_arrow.host_without_www(_column(self._series), lenient=lenient))

    def public_suffix(self, *, lenient: bool = False) -> "_pd.Series":
        """The host's public suffix (:func:`rfc1738.arrow.public_suffix`)."""
        return self._wrap(_arrow.public_suffix(_column(self._series), lenient=lenient))

    def registrable_domain(self, *, lenient: bool = False) -> "_pd.Series":
        """The host's registrable domain (:func:`rfc1738.arrow.registrable_domain`)."""
        return self._wrap(_arrow.registrable_domain(_column(self._series), lenient=lenient))

    def decode(self) -> "_pd.Series":
        """Each text's ``%HH`` escapes decoded (:func:`rfc1738.arrow.decode`)."""
        return self._wrap(_arrow.decode(_column(self._series)))

    def query_param(self, name: str, *, lenient: bool = False) -> "_pd.Series":
        """The value of the pair ``name`` of an http search, by the HTML form convention
        (:func:`rfc1738.arrow.query_param`).

        >>> import pandas as pd, rfc1738.pandas
        >>> pd.Series(["http://h.dom/?q=a+b"]).rfc1738.query_param("q").tolist()
        ['a b']
        """
        return self._wrap(_arrow.query_param(_column(self._series), name, lenient=lenient))

    def segments(self, *, lenient: bool = False) -> "_pd.Series":
        """The segments of an http, ftp or file path (:func:`rfc1738.arrow.segments`)."""
        return self._wrap(_arrow.segments(_column(self._series), lenient=lenient))

    def query_params(self, *, lenient: bool = False) -> "_pd.Series":
        """Every pair of an http search (:func:`rfc1738.arrow.query_params`)."""
        return self._wrap(_arrow.query_params(_column(self._series), lenient=lenient))


__all__ = ["Rfc1738Accessor"]
