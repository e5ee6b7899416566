"""URLs read exactly as RFC 1738 defines them."""

from typing import Any, Iterator, List, Optional, Sequence, TypedDict, Union, final, overload

from typing_extensions import Self, disjoint_base

from rfc1738 import build as build
from rfc1738 import pct as pct

__version__: str

Text = Union[str, bytes]

class WarningDict(TypedDict):
    offset: int
    len: int
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

    @property
    def offset(self) -> int:
        """The byte where no rule of §5 accepts the input."""
    @property
    def kind(self) -> str:
        """The error's id, e.g. ``"user-not-allowed"``."""
    @property
    def rule(self) -> str:
        """The §5 rule being matched, e.g. ``"login"``."""
    @property
    def message(self) -> str:
        """Why, in one lower-case line."""
    @property
    def input(self) -> Text:
        """The text as given."""

class ResolveError(ValueError):
    """A reference cannot be resolved against a base (RFC 1808)."""

    offset: int
    """Where, in the reference (or in ``resolved`` for ``"not-rfc1738"``)."""
    kind: str
    """``"not-hierarchical"``, ``"invalid-char"``, ``"invalid-escape"`` or ``"not-rfc1738"``."""
    reference: str
    """The reference as given."""
    resolved: Optional[str]
    """The text RFC 1808 §4 gave, when it is not an RFC 1738 URL."""

class BuildError(ValueError):
    """A part cannot be written into a URL."""

    part: str
    """The §5 rule of the part."""

@disjoint_base
class View:
    """The parts a scheme defines, as attributes (``url.ftp.cwd``); one subclass per scheme."""

    @property
    def kind(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any, /) -> Self: ...

@final
class FtpView(View):
    @property
    def cwd(self) -> List[str]: ...
    @property
    def name(self) -> str: ...
    @property
    def typecode(self) -> Optional[str]: ...
    @property
    def commands(self) -> List[str]: ...
    @property
    def login(self) -> List[str]: ...

@final
class HttpView(View):
    @property
    def path(self) -> Optional[str]: ...
    @property
    def search(self) -> Optional[str]: ...

@final
class GopherView(View):
    @property
    def type(self) -> str: ...
    @property
    def selector(self) -> str: ...
    @property
    def search(self) -> Optional[str]: ...
    @property
    def plus(self) -> Optional[str]: ...
    @property
    def request(self) -> str: ...

@final
class MailtoView(View):
    @property
    def address(self) -> str: ...

@final
class NewsView(View):
    @property
    def group(self) -> Optional[str]: ...
    @property
    def article(self) -> Optional[str]: ...
    @property
    def all(self) -> bool: ...

@final
class NntpView(View):
    @property
    def group(self) -> str: ...
    @property
    def article(self) -> Optional[int]: ...

@final
class TelnetView(View): ...

@final
class WaisView(View):
    @property
    def form(self) -> str: ...
    @property
    def database(self) -> str: ...
    @property
    def search(self) -> Optional[str]: ...
    @property
    def wtype(self) -> Optional[str]: ...
    @property
    def wpath(self) -> Optional[str]: ...

@final
class FileView(View):
    @property
    def host(self) -> Optional[str]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def is_local(self) -> bool: ...

@final
class ProsperoView(View):
    @property
    def hsoname(self) -> str: ...
    @property
    def fields(self) -> List[List[str]]: ...

@final
class OtherView(View):
    @property
    def scheme_specific_part(self) -> str: ...
    @property
    def reserved(self) -> bool: ...
    @property
    def experimental(self) -> bool: ...

@final
class Url:
    """A URL read as RFC 1738 reads it: immutable, hashable, compared by text."""

    def __new__(cls, text: Text, *, lenient: bool = False) -> Self: ...
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
    def resolve(self, reference: str) -> Url:
        """The URL ``reference`` names relative to this one (RFC 1808 §4)."""
    def make_relative(self, other: Union[Url, Text]) -> Optional[str]:
        """The shortest reference that resolves back to ``other``; ``None`` for a non-hierarchical scheme."""
    def replace(self, **parts: Any) -> Url:
        """This URL with parts replaced (``fragment`` too), the others kept, written again by the scheme's builder in :mod:`rfc1738.build`."""
    def redacted(self) -> str:
        """The text with any password replaced by ``***``."""
    def security_warnings(self) -> List[WarningDict]:
        """The §6 security warnings."""
    def to_dict(self) -> dict[str, Any]:
        """The record ``rfc1738 parse --json`` writes for the same input."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any, /) -> Self: ...

def parse(text: Text, *, lenient: bool = False) -> Url:
    """Parses ``text`` (``str``, or ``bytes`` from a log) as an RFC 1738 URL.

    Raises :class:`ParseError` with the offset, kind and rule of the first
    byte no rule accepts; :class:`TypeError` for a value that is not text.
    """

def validate(text: Text, *, lenient: bool = False) -> None:
    """Raises :class:`ParseError` unless ``text`` is a URL of RFC 1738."""

def is_valid(text: Text, *, lenient: bool = False) -> bool:
    """Whether ``text`` is a URL of RFC 1738; :class:`TypeError` for a value that is not text."""

def extract(text: Text) -> FoundList:
    """The URLs in free text (RFC 1738 Appendix): a sequence of dicts
    ``{url, start, end, form, hyphen_breaks, valid}``; offsets count
    characters of a ``str`` (bytes of ``bytes``). The sequence holds the
    text once and each URL as a small record, and makes a URL's dict when
    it is read (by index, slice or iteration): a few times the text,
    however many URLs it holds. ``list(...)`` makes the plain list;
    ``extract_iter`` gives the dicts one at a time.

    A lone surrogate in a ``str`` is read as U+FFFD (one character, so
    the offsets still count the ``str``'s); no URL holds either. Raises
    ``TypeError`` for a value that is not ``str`` or ``bytes``.

    >>> import rfc1738
    >>> [m["url"] for m in rfc1738.extract("see <URL:ftp://a.org/x> or http://b.org/.")]
    ['ftp://a.org/x', 'http://b.org/']
    """

@final
class FoundList(Sequence[Found]):
    """What :func:`extract` returns: a read-only sequence of dicts ``{url,
    start, end, form, hyphen_breaks, valid}``, each made when read; equal
    to a list of the same dicts."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> Found: ...
    @overload
    def __getitem__(self, key: slice, /) -> List[Found]: ...
    def __eq__(self, value: object, /) -> bool: ...

def extract_iter(text: Text) -> Extracted:
    """The URLs in free text, one dict at a time, as :func:`extract` lists
    them: the search goes on only as far as the next URL, so memory holds
    the text and one dict, whatever the number of URLs.

    >>> import rfc1738
    >>> it = rfc1738.extract_iter("http://a.dom/ and http://b.dom/")
    >>> next(it)["url"], next(it)["start"]
    ('http://a.dom/', 18)
    """

@final
class Extracted(Iterator[Found]):
    """The iterator of :func:`extract_iter`: each URL found in a text, as a
    dict ``{url, start, end, form, hyphen_breaks, valid}``."""

    def __iter__(self) -> Extracted: ...
    def __next__(self) -> Found: ...

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
