"""URLs read exactly as RFC 1738 defines them."""

from typing import Any, List, Optional, TypedDict, Union

from rfc1738 import build as build
from rfc1738 import pct as pct

Text = Union[str, bytes]

class WarningDict(TypedDict):
    offset: int
    kind: str
    security: bool
    message: str

class Found(TypedDict):
    url: str
    start: int
    end: int
    form: str
    hyphen_breaks: List[int]
    valid: bool

class ParseError(ValueError):
    """The text is not a URL of RFC 1738; ``str()`` shows a caret under ``offset``."""

    offset: int
    """The byte where no rule of §5 accepts the input."""
    kind: str
    """The error's id, e.g. ``"user-not-allowed"``."""
    rule: str
    """The §5 rule being matched, e.g. ``"login"``."""
    message: str
    """Why, in one lower-case line."""
    input: Text
    """The text as given."""

class BuildError(ValueError):
    """A part cannot be written into a URL."""

    part: str
    """The §5 rule of the part."""

class View:
    """The parts a scheme defines, as attributes (``url.ftp.cwd``)."""

    @property
    def kind(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

class FtpView(View):
    cwd: List[str]
    name: str
    typecode: Optional[str]
    commands: List[str]
    login: List[str]

class HttpView(View):
    path: Optional[str]
    search: Optional[str]

class GopherView(View):
    type: str
    selector: str
    search: Optional[str]
    plus: Optional[str]
    request: str

class MailtoView(View):
    address: str

class NewsView(View):
    group: Optional[str]
    article: Optional[str]
    all: bool

class NntpView(View):
    group: str
    article: Optional[int]

class TelnetView(View): ...

class WaisView(View):
    form: str
    database: str
    search: Optional[str]
    wtype: Optional[str]
    wpath: Optional[str]

class FileView(View):
    host: Optional[str]
    path: Optional[str]
    is_local: bool

class ProsperoView(View):
    hsoname: str
    fields: List[List[str]]

class OtherView(View):
    scheme_specific_part: str
    reserved: bool
    experimental: bool

class Url:
    """A URL read as RFC 1738 reads it: immutable, hashable, compared by text."""

    def __init__(self, text: Text, *, lenient: bool = False) -> None: ...
    @property
    def scheme(self) -> str:
        """The scheme, lower-cased (§2.1)."""
    @property
    def kind(self) -> str:
        """``ftp http gopher mailto news nntp telnet wais file prospero other``."""
    @property
    def user(self) -> Optional[str]:
        """Decoded; ``None`` when absent, ``""`` when empty."""
    @property
    def password(self) -> Optional[str]:
        """Decoded; ``None`` when absent, ``""`` when empty."""
    @property
    def host(self) -> Optional[str]: ...
    @property
    def port(self) -> Optional[int]: ...
    @property
    def effective_port(self) -> Optional[int]: ...
    @property
    def url_path(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def warnings(self) -> List[WarningDict]: ...
    @property
    def is_lenient(self) -> bool: ...
    @property
    def ftp(self) -> Optional[FtpView]: ...
    @property
    def http(self) -> Optional[HttpView]: ...
    @property
    def gopher(self) -> Optional[GopherView]: ...
    @property
    def mailto(self) -> Optional[MailtoView]: ...
    @property
    def news(self) -> Optional[NewsView]: ...
    @property
    def nntp(self) -> Optional[NntpView]: ...
    @property
    def telnet(self) -> Optional[TelnetView]: ...
    @property
    def wais(self) -> Optional[WaisView]: ...
    @property
    def file(self) -> Optional[FileView]: ...
    @property
    def prospero(self) -> Optional[ProsperoView]: ...
    @property
    def other(self) -> Optional[OtherView]: ...
    def normalize(self) -> Url:
        """The normal form: only what the RFC says does not matter is changed."""
    def equivalent(self, other: Union[Url, Text]) -> bool:
        """Whether ``other`` has the same normal form."""
    def redacted(self) -> str:
        """The text with any password replaced by ``***``."""
    def security_warnings(self) -> List[WarningDict]:
        """The §6 security warnings."""
    def to_dict(self) -> dict[str, Any]:
        """The record ``rfc1738 parse --json`` writes for the same input."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def parse(text: Text, *, lenient: bool = False) -> Url:
    """Parses ``text`` (``str``, or ``bytes`` from a log) as an RFC 1738 URL.

    Raises :class:`ParseError` with the offset, kind and rule of the first
    byte no rule accepts; :class:`TypeError` for a value that is not text.
    """

def validate(text: Text, *, lenient: bool = False) -> None:
    """Raises :class:`ParseError` unless ``text`` is a URL of RFC 1738."""

def is_valid(text: object, *, lenient: bool = False) -> bool:
    """Whether ``text`` is a URL of RFC 1738 (``False`` for any other value)."""

def extract(text: Text) -> List[Found]:
    """The URLs in free text (RFC 1738 Appendix), with character offsets."""

__all__ = ["BuildError", "ParseError", "Url", "View", "build", "extract", "is_valid", "parse", "pct", "validate"]
