"""Builders: decoded parts in, a :class:`rfc1738.Url` out."""

from typing import Optional, Sequence, Tuple, Union

from rfc1738 import Url

Part = Union[str, bytes]

def ftp(
    host: str,
    *,
    cwd: Sequence[Part] = ...,
    name: Optional[Part] = None,
    typecode: Optional[Part] = None,
    user: Optional[Part] = None,
    password: Optional[Part] = None,
    port: Optional[int] = None,
) -> Url: ...
def http(host: str, *, path: Sequence[Part] = ..., search: Optional[Part] = None, port: Optional[int] = None) -> Url: ...
def gopher(
    host: str,
    *,
    type_: Optional[Part] = None,
    selector: Optional[Part] = None,
    search: Optional[Part] = None,
    plus: Optional[Part] = None,
    port: Optional[int] = None,
) -> Url: ...
def mailto(address: Part) -> Url: ...
def news(*, group: Optional[str] = None, article: Optional[Part] = None) -> Url: ...
def nntp(host: str, group: str, *, article: Optional[int] = None, port: Optional[int] = None) -> Url: ...
def telnet(
    host: str, *, user: Optional[Part] = None, password: Optional[Part] = None, port: Optional[int] = None
) -> Url: ...
def wais(
    host: str,
    database: Part,
    *,
    search: Optional[Part] = None,
    wtype: Optional[Part] = None,
    wpath: Optional[Part] = None,
    port: Optional[int] = None,
) -> Url: ...
def file(path: Sequence[Part] = ..., *, host: str = ...) -> Url: ...
def prospero(
    host: str, hsoname: Part, *, fields: Sequence[Tuple[Part, Part]] = ..., port: Optional[int] = None
) -> Url: ...
def generic(
    scheme: str,
    *,
    host: Optional[str] = None,
    user: Optional[Part] = None,
    password: Optional[Part] = None,
    port: Optional[int] = None,
    path: Optional[Part] = None,
) -> Url: ...

__all__ = ["Part", "file", "ftp", "generic", "gopher", "http", "mailto", "news", "nntp", "prospero", "telnet", "wais"]
