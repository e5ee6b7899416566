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

from rfc1738._rfc1738 import (
    BuildError,
    ParseError,
    Url,
    View,
    extract,
    is_valid,
    parse,
    validate,
)
from rfc1738 import build, pct

# The view classes of the stubs are one class at run time.
FtpView = HttpView = GopherView = MailtoView = NewsView = NntpView = View
TelnetView = WaisView = FileView = ProsperoView = OtherView = View

__all__ = [
    "BuildError",
    "ParseError",
    "Url",
    "View",
    "build",
    "extract",
    "is_valid",
    "parse",
    "pct",
    "validate",
]
