"""Percent-encoding of RFC 1738 §2.2: ``%HH`` for an octet.

``encode`` writes the escapes one part of a URL needs (its context);
``decode`` gives back the octets.

>>> from rfc1738 import pct
>>> pct.encode("a/b c", "fsegment")
'a%2Fb%20c'
>>> pct.decode("a%2Fb")
b'a/b'
"""

from rfc1738._rfc1738 import pct_decode as decode
from rfc1738._rfc1738 import pct_encode as encode

__all__ = ["decode", "encode"]
