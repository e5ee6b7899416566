"""Builders: decoded parts in, a :class:`rfc1738.Url` out.

Each function writes the escapes its parts need (§2.2, §3), then parses
the result back; a part that cannot be written raises
:class:`rfc1738.BuildError`, whose ``.part`` names the §5 rule.

>>> from rfc1738 import build
>>> str(build.ftp("host.dom", cwd=["/etc"], name="motd"))
'ftp://host.dom/%2Fetc/motd'
"""

from typing import Union

from rfc1738._rfc1738 import build_file as file
from rfc1738._rfc1738 import build_ftp as ftp
from rfc1738._rfc1738 import build_generic as generic
from rfc1738._rfc1738 import build_gopher as gopher
from rfc1738._rfc1738 import build_http as http
from rfc1738._rfc1738 import build_mailto as mailto
from rfc1738._rfc1738 import build_news as news
from rfc1738._rfc1738 import build_nntp as nntp
from rfc1738._rfc1738 import build_prospero as prospero
from rfc1738._rfc1738 import build_telnet as telnet
from rfc1738._rfc1738 import build_wais as wais

Part = Union[str, bytes]
"""A decoded part: ``str`` (written as UTF-8) or ``bytes``."""

__all__ = ["Part", "file", "ftp", "generic", "gopher", "http", "mailto", "news", "nntp", "prospero", "telnet", "wais"]
