"""Web server logs checked as ``rfc1738 check --input-format clf`` checks them.

Every function here applies the command's one rule for a log line (the
request URL, a path read as an http URL's, and the Combined referer, each
checked strictly; ``rfc1738_report::clf`` in Rust), reads compressed logs
as the command does (gzip of one member or several, zstd, bzip2 and xz,
told by their first bytes), and takes ``log_format=``: an Apache
``LogFormat`` or nginx ``log_format`` string, or a preset (``common``,
``combined``, ``vhost_combined``, nginx ``main``), as ``--log-format``
reads it; an unknown directive is a ``ValueError`` naming it.

>>> import rfc1738.clf
>>> r = rfc1738.clf.check_log(b'h - - [d] "GET /a HTTP/1.0" 200 1 "http://r.dom/a b" "ua"\\n')
>>> r["invalid"], r["by_scheme"], r["referers"]
(1, {'http': {'valid': 0, 'invalid': 1}}, {'http': {'valid': 0, 'invalid': 1}})
"""

import os
from typing import Any, Dict, Optional, Union

try:
    import pyarrow as _pa
except ImportError as _error:  # pragma: no cover - depends on the environment
    from rfc1738.sql import missing

    raise missing("arrow", "pyarrow") from _error

from rfc1738 import _rfc1738

PathLike = Union[str, "os.PathLike[str]"]


def _counts(rows):
    return {name: {"valid": v, "invalid": i} for name, v, i in rows}


class LogReadError(OSError):
    """A compressed log whose reading failed part way (a truncated or
    corrupt file): the message names the format and the compressed byte;
    ``report`` is the report of the whole lines read before the fault,
    as the command reports them before its error.

    >>> import gzip, rfc1738.clf
    >>> data = gzip.compress(b'h - - [d] "GET /a HTTP/1.0" 200 1\\n' * 3)
    >>> try:
    ...     rfc1738.clf.check_log(data[:-12])
    ... except rfc1738.clf.LogReadError as e:
    ...     e.report["valid"] >= 0
    True
    """

    def __init__(self, message: str, report: Dict[str, Any]) -> None:
        super().__init__(message)
        self.report = report


def _report(result) -> Dict[str, Any]:
    lines, counts, invalid, referers, fault = result
    table = _pa.Table.from_struct_array(invalid)
    report = {
        "lines": lines,
        "valid": lines - len(table),
        "invalid": len(table),
        "by_scheme": _counts(counts),
        "referers": _counts(referers),
        "invalid_lines": table,
    }
    if fault is not None:
        raise LogReadError(fault, report)
    return report


def check_log(data: bytes, log_format: Optional[str] = None, lenient: bool = False) -> Dict[str, Any]:
    """Checks every line of the log ``data`` (compressed or not), in Rust
    in one pass without the lock; no Python object is made per line.

    Returns ``{lines, valid, invalid, by_scheme, referers,
    invalid_lines}``: ``lines`` checked (empty lines are skipped, as the
    command skips them); ``by_scheme`` maps each row of the command's
    summary (the request URL's scheme, ``http`` for a path, ``*`` for
    ``OPTIONS *``, ``(no request)``, ``(not clf)``) to ``{valid,
    invalid}``; ``referers`` maps each referer scheme (``(no scheme)``)
    the same way; ``invalid_lines`` is a ``pyarrow.Table``, a row per
    invalid line: ``line`` (from 1), ``input``, ``offset`` (in the line),
    ``kind``, ``rule``, ``message``, ``referer``, ``referer_valid``,
    ``referer_scheme``, ``referer_error``, as ``rfc1738 check --input-format clf
    --json`` gives them. ``lenient=True`` checks as ``--lenient`` does:
    the deviations real logs are full of (``~`` and ``|`` in a path, ``/``
    and ``?`` in a query, ``_`` in a host...) are accepted.
    """
    return _report(_rfc1738.clf_check_log(data, log_format, lenient))


def check_file(path: PathLike, log_format: Optional[str] = None, lenient: bool = False) -> Dict[str, Any]:
    """:func:`check_log` of the file at ``path``, read in Rust a block at
    a time (a compressed one inflated as it is read): the file is never
    one Python object. A corrupt or truncated compressed file raises
    :class:`LogReadError` (an ``OSError``) naming the format and the
    compressed byte, with the report of the lines before the fault."""
    return _report(_rfc1738.clf_check_file(os.fspath(path), log_format, lenient))


def check(column: Any, log_format: Optional[str] = None, lenient: bool = False) -> Any:
    """Each log line of an Arrow column of strings checked, one struct per
    line: ``valid``, ``url`` (the request target), ``scheme`` (as the
    command's record: the summary's row, ``*`` for ``OPTIONS *``, ``(no
    request)``, ``(not clf)``), ``row`` (the same), ``error_offset``, ``error_kind``,
    ``error_rule``, ``error_message``, ``referer``, ``referer_valid``,
    ``referer_scheme``, ``referer_error_offset``, ``referer_error_kind``,
    ``referer_error_rule``, ``referer_error_message``, and every field of
    the line: ``client``, ``ident``, ``user``, ``time``, ``time_iso``,
    ``method``, ``target``, ``protocol``, ``user_agent``, ``timestamp``,
    ``status``, ``bytes``, then every other field ``log_format`` names
    (``%D`` as ``request_time_us``, ``$request_time``), typed, as in
    :func:`read_log`; a null row where the line is null.
    ``lenient=True`` checks as ``--lenient`` does."""
    return _rfc1738.arrow_clf_check(column, log_format, lenient)


def read_log(path: PathLike, log_format: str = "combined", lenient: bool = False) -> Any:
    """The log file at ``path`` (compressed or not) as a ``pyarrow.Table``:
    a row per line that is not empty, the columns of the DuckDB
    extension's ``rfc1738_log`` table function, each row what ``rfc1738
    check --json`` says of the line: ``file``, ``line`` (from 1),
    ``input``, ``valid``, ``scheme``, ``client``, ``ident``, ``user``,
    ``time`` (as written), ``time_iso``, ``timestamp`` (UTC),
    ``method``, ``target``, ``protocol``, ``status``, ``bytes``,
    ``referer``, ``referer_valid``, ``referer_scheme``,
    ``referer_error_offset``, ``referer_error_kind``,
    ``referer_error_rule``, ``referer_error_message``, ``user_agent``,
    ``error_offset``, ``error_kind``, ``error_rule``, ``error_message``,
    ``warnings`` (how many), then every other field ``log_format`` names
    (``%D`` as ``request_time_us``, ``%{X-Forwarded-For}i`` as
    ``http_x_forwarded_for``, ``$request_time``), numbers as numbers.

    ``log_format``: ``clf`` (the command's default reading), a preset
    (``combined``, ``common``, ``vhost_combined``, ``main``) or a format
    string, as ``--log-format``: a ``ValueError`` names what is refused.
    ``lenient=True`` checks as ``--lenient``. A line longer than a
    mebibyte is a row with the error ``too-long`` (its text not kept), as
    ``check --json`` gives it. A file that cannot be read, or a
    compressed one that stops short, raises ``OSError``.

    >>> import rfc1738.clf
    >>> t = rfc1738.clf.read_log("docs/examples/sample.log")  # doctest: +SKIP
    >>> t.num_rows, t.column("valid").to_pylist().count(True)  # doctest: +SKIP
    (75, 35)
    """
    return _pa.Table.from_struct_array(_rfc1738.log_table(os.fspath(path), log_format, lenient))
