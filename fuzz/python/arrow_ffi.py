"""Fuzz target (atheris) for the Python package's Arrow C data interface
code (`crates/rfc1738-py/src/ffi.rs`, `unsafe`): columns made from the
input, in every layout the package reads, go in through the PyCapsule
interface and come out as string views into their own buffers.

The input's first bytes choose the layout (string, large string, string
view, dictionary-encoded, chunked, sliced, a one-column table); the rest
is cut into values at each `\\n` (an empty value after `\\x00` is a null).
Whatever they are, each kernel's answer has one row per row, nulls where
the input is null, and equals, row by row, what `rfc1738.parse` says of
that one value: validity, host, port, scheme.

Run by scripts/fuzz-python (atheris is not a dependency of the package).
"""

import sys

import atheris

with atheris.instrument_imports():
    import pyarrow as pa

    import rfc1738
    from rfc1738 import arrow

LAYOUTS = ["string", "large_string", "string_view", "dictionary", "chunked", "sliced", "table"]


def values(data: bytes):
    """The input's values: lines, a line starting with NUL a null."""
    out = []
    for part in data.split(b"\n"):
        out.append(None if part.startswith(b"\x00") else part.decode("utf-8", "replace"))
    return out


def column(layout: str, vals, cut: int):
    if layout == "large_string":
        return pa.array(vals, pa.large_string())
    if layout == "string_view":
        return pa.array(vals, pa.string_view())
    if layout == "dictionary":
        return pa.array(vals, pa.string()).dictionary_encode()
    if layout == "chunked":
        at = cut % (len(vals) + 1)
        return pa.chunked_array([pa.array(vals[:at], pa.string()), pa.array(vals[at:], pa.string())])
    if layout == "sliced":
        # An offset into its buffers: rows before and after it that the
        # kernels must not read.
        before = cut % 5 + 1
        return pa.array(["ftp://before.dom/"] * before + vals + ["http://after.dom/"], pa.string()).slice(before, len(vals))
    if layout == "table":
        return pa.table({"url": pa.array(vals, pa.string())})
    return pa.array(vals, pa.string())


def rows(result):
    """A kernel's answer as a Python list (string views cast first)."""
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks() if result.num_chunks else pa.array([], result.type)
    if pa.types.is_string_view(result.type):
        result = result.cast(pa.string())
    return result.to_pylist()


def expected(value):
    if value is None:
        return (None, None, None, None)
    try:
        url = rfc1738.parse(value)
    except rfc1738.ParseError:
        return (False, None, None, None)
    return (True, url.host, url.port, url.scheme.lower())


def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    layout = LAYOUTS[data[0] % len(LAYOUTS)]
    vals = values(data[2:])
    col = column(layout, vals, data[1])
    valid, host, port, scheme = (rows(f(col)) for f in (arrow.is_valid, arrow.host, arrow.port, arrow.scheme))
    assert len(valid) == len(host) == len(port) == len(scheme) == len(vals), layout
    for n, v in enumerate(vals):
        want = expected(v)
        got = (valid[n], host[n], port[n], None if scheme[n] is None else scheme[n].lower())
        if want[0] is False:
            # An invalid URL: null parts (the scheme may still be named).
            assert got[0] is False and got[1] is None and got[2] is None, (layout, v, got)
        else:
            assert got == want, (layout, v, got, want)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
