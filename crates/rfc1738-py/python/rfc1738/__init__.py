"""URLs read exactly as RFC 1738 defines them.

``parse`` reads one URL into an immutable :class:`Url`; an invalid one
raises :class:`ParseError`, which says at which byte, why, and in which
rule of the §5 grammar. ``rfc1738.arrow`` does the same over whole Arrow
columns, ``rfc1738.build`` writes URLs from decoded parts, and
``rfc1738.pct`` encodes and decodes ``%HH`` escapes.

>>> import rfc1738
>>> url = rfc1738.parse("ftp://myname@host.dom/%2Fetc/motd")
>>> url.ftp.commands
['CWD /etc', 'RETR motd']
>>> rfc1738.is_valid("http://host.dom/a b")
False
"""

from typing import List, TypedDict, Union

from rfc1738._rfc1738 import (
    BuildError,
    FileView,
    FoundList,
    FtpView,
    GopherView,
    HttpView,
    MailtoView,
    NewsView,
    NntpView,
    OtherView,
    ParseError,
    ProsperoView,
    ResolveError,
    TelnetView,
    Url,
    View,
    WaisView,
    __version__,
    Extracted,
    extract,
    extract_iter,
    is_valid,
    parse,
    validate,
)
from rfc1738 import build, pct

Text = Union[str, bytes]
"""What a URL is read from: ``str``, or ``bytes`` read from a log."""


class WarningDict(TypedDict):
    """A warning: ``{offset, len, kind, security, message}``."""

    offset: int
    len: int
    kind: str
    security: bool
    message: str


class Found(TypedDict):
    """A URL found in text by :func:`extract`."""

    url: str
    start: int
    end: int
    form: str
    hyphen_breaks: List[int]
    valid: bool


__all__ = [
    "BuildError",
    "FileView",
    "Found",
    "FoundList",
    "FtpView",
    "GopherView",
    "HttpView",
    "MailtoView",
    "NewsView",
    "NntpView",
    "OtherView",
    "ParseError",
    "ProsperoView",
    "ResolveError",
    "TelnetView",
    "Text",
    "Url",
    "View",
    "WaisView",
    "WarningDict",
    "__version__",
    "build",
    "Extracted",
    "extract",
    "extract_iter",
    "is_valid",
    "parse",
    "pct",
    "validate",
]
