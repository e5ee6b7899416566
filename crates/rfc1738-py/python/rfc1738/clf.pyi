"""Web server logs checked as ``rfc1738 check --input-format clf`` checks them."""

import os
from typing import Any, Dict, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]

class LogReadError(OSError):
    """A compressed log whose reading failed part way; ``report`` is the
    report of the whole lines read before the fault."""

    report: Dict[str, Any]
    def __init__(self, message: str, report: Dict[str, Any]) -> None: ...

def check_log(data: bytes, log_format: Optional[str] = None, lenient: bool = False) -> Dict[str, Any]:
    """Checks every line of the log ``data`` (compressed or not): ``{lines,
    valid, invalid, by_scheme, referers, invalid_lines}``."""

def check_file(path: PathLike, log_format: Optional[str] = None, lenient: bool = False) -> Dict[str, Any]:
    """:func:`check_log` of the file at ``path``, read a block at a time;
    a fault part way raises :class:`LogReadError`."""

def check(column: Any, log_format: Optional[str] = None, lenient: bool = False) -> Any:
    """Each log line of an Arrow column checked: one struct per line."""

def read_log(path: PathLike, log_format: str = "combined", lenient: bool = False) -> Any:
    """The log file at ``path`` as a ``pyarrow.Table``, the columns of the
    ``rfc1738_log`` table function."""
