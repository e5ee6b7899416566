"""The readings of :mod:`rfc1738` over whole Arrow columns."""

from typing import Any, Union

import pyarrow as pa

from rfc1738 import Text, Url

Column = Any
"""Anything with ``__arrow_c_array__`` or ``__arrow_c_stream__`` holding strings."""
Result = Union[pa.Array, pa.ChunkedArray]

def is_valid(column: Column, *, lenient: bool = False) -> Result:
    """Booleans: whether each URL is valid; null where null."""

def validate(column: Column, *, lenient: bool = False) -> Result:
    """Structs ``{offset, kind, rule, message}``: the error of each URL, as
    :class:`rfc1738.ParseError` gives it; null where valid or null."""

def parse(column: Column, *, lenient: bool = False) -> Result:
    """Structs: the top-level fields of ``parse --json`` and ``error_offset``,
    ``error_kind``, ``error_rule``, ``error_message``."""

def normalize(column: Column, *, lenient: bool = False) -> Result:
    """Strings: the normal form of each URL; null where invalid."""

def extract(column: Column) -> Result:
    """Lists of ``{url, start, end, form}``: the URLs found in each text."""

def resolve(base: Union[Url, Text], column: Column) -> Result:
    """Strings: each reference resolved against ``base`` (RFC 1808); null where it cannot be."""

def lint(column: Column) -> Result:
    """Lists of ``{offset, kind, message}``: the §6 warnings; null where invalid."""

__all__ = ["Column", "Result", "extract", "is_valid", "lint", "normalize", "parse", "resolve", "validate"]
