"""Percent-encoding of RFC 1738 §2.2."""

from typing import Literal, Union

Context = Literal["user", "fsegment", "hsegment", "search", "xchar", "uchar", "field", "article"]

def encode(octets: Union[str, bytes], context: Context = "uchar") -> str:
    """``%HH``-encodes what ``context`` (a part of a URL) cannot hold as it is."""

def decode(text: str) -> bytes:
    """The octets of ``text``, every ``%HH`` decoded."""

__all__ = ["Context", "decode", "encode"]
