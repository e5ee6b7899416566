"""Percent-encoding of RFC 1738 §2.2: ``%HH`` for an octet.

``encode`` writes the escapes one part of a URL needs (its context);
``decode`` gives back the octets.

>>> from rfc1738 import pct
>>> pct.encode("a/b c", "fsegment")
'a%2Fb%20c'
>>> pct.decode("a%2Fb")
b'a/b'
"""

from typing import Literal, Union

from rfc1738._rfc1738 import pct_decode as decode
from rfc1738._rfc1738 import pct_encode as encode

# A Union of one-value Literals: what type checkers make of the stub's
# `Literal[...]` of eight values.
Context = Union[
    Literal["user"],
    Literal["fsegment"],
    Literal["hsegment"],
    Literal["search"],
    Literal["xchar"],
    Literal["uchar"],
    Literal["field"],
    Literal["article"],
]
"""The parts of a URL ``encode`` writes for."""

__all__ = ["Context", "decode", "encode"]
