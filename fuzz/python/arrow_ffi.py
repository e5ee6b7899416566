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

Three layouts are tampered with: one offset of a binary column, one view
of a binary-view column (its length, buffer or offset), or one key of a
dictionary is set to a value the input's last byte chooses, as
`from_buffers` lets a producer do. Where the result is still a well-formed
column (the target's own check of the format), the kernels answer for
the values it now holds; where not, every kernel raises the `ValueError`
of a malformed column, and none reads out of bounds.

The Rust code is not instrumented; this file's own functions are, so
that libFuzzer keeps an input that reaches a new layout or a new branch
of the tampering.

Run by scripts/fuzz-python (atheris is not a dependency of the package).
"""

import sys

import atheris

with atheris.instrument_imports():
    import pyarrow as pa

    import rfc1738
    from rfc1738 import arrow

import struct

LAYOUTS = ["string", "large_string", "string_view", "dictionary", "chunked", "sliced", "table"]
TAMPERED = ["bad_offsets", "bad_views", "bad_keys"]


@atheris.instrument_func
def values(data: bytes):
    """The input's values: lines, a line starting with NUL a null."""
    out = []
    for part in data.split(b"\n"):
        out.append(None if part.startswith(b"\x00") else part.decode("utf-8", "replace"))
    return out


@atheris.instrument_func
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


@atheris.instrument_func
def tampered(layout, vals, cut: int, pick: int):
    """A column of the values with one offset, view or key set from
    `cut` and `pick`, and the values it holds if it is well formed (None
    if not); None for both when pyarrow itself refuses it."""
    blobs = [b"" if v is None else v.encode("utf-8", "surrogatepass") for v in vals]
    valid = [v is not None for v in vals]
    mask = pa.py_buffer(bytes(sum(1 << j for j in range(8) if i + j < len(valid) and valid[i + j]) for i in range(0, len(valid), 8)))
    data = b"".join(blobs)
    n = len(vals)
    if layout == "bad_offsets":
        offsets = [0]
        for b in blobs:
            offsets.append(offsets[-1] + len(b))
        offsets[cut % (n + 1)] = pick % (len(data) + 8) - 2
        try:
            col = pa.Array.from_buffers(
                pa.binary(), n, [mask, pa.py_buffer(struct.pack(f"<{n + 1}i", *offsets)), pa.py_buffer(data)]
            )
        except pa.ArrowInvalid:
            return None, None
        ok = all(0 <= o <= len(data) for o in offsets) and all(a <= b for a, b in zip(offsets, offsets[1:]))
        held = [data[offsets[i] : offsets[i + 1]] if valid[i] else None for i in range(n)]
        return col, held if ok else None
    if layout == "bad_views":
        views, at = [], 0
        for b in blobs:
            views.append(struct.pack("<i12s", len(b), b) if len(b) <= 12 else struct.pack("<i4sII", len(b), b[:4], 0, at))
            at += len(b)
        i = cut % n
        length, prefix, buffer, offset = struct.unpack("<i4sII", views[i])
        field = pick % 3
        if field == 0:
            length = pick // 3 % (len(data) + 16)
        elif field == 1:
            buffer = pick // 3 % 3
        else:
            offset = pick // 3 % (len(data) + 16)
        views[i] = struct.pack("<i4sII", length, prefix, buffer, offset)
        col = pa.Array.from_buffers(pa.binary_view(), n, [mask, pa.py_buffer(b"".join(views)), pa.py_buffer(data)])
        held = []
        for j, raw in enumerate(views):
            length, _, buffer, offset = struct.unpack("<i4sII", raw)
            if not valid[j]:
                held.append(None)
            elif length <= 12:
                held.append(raw[4 : 4 + length])
            elif buffer == 0 and offset + length <= len(data):
                held.append(data[offset : offset + length])
            else:
                return col, None
        return col, held
    values = pa.array(sorted(set(b for b, v in zip(blobs, valid) if v)), pa.binary())
    index = {b: k for k, b in enumerate(values.to_pylist())}
    keys = [index[b] if v else 0 for b, v in zip(blobs, valid)]
    keys[cut % n] = pick % (len(values) + 3) - 1
    keys_array = pa.Array.from_buffers(pa.int32(), n, [mask, pa.py_buffer(struct.pack(f"<{n}i", *keys))])
    col = pa.DictionaryArray.from_arrays(keys_array, values, safe=False)
    if any(v and not 0 <= k < len(values) for k, v in zip(keys, valid)):
        return col, None
    return col, [values[k].as_py() if v else None for k, v in zip(keys, valid)]


def expected(value):
    if value is None:
        return (None, None, None, None)
    try:
        url = rfc1738.parse(value)
    except rfc1738.ParseError:
        return (False, None, None, None)
    return (True, url.host, url.port, url.scheme.lower())


@atheris.instrument_func
def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    layouts = LAYOUTS + TAMPERED
    layout = layouts[data[0] % len(layouts)]
    vals = values(data[2:])
    if layout in TAMPERED:
        col, held = tampered(layout, vals, data[1], data[-1])
        if col is None:
            return
        if held is None:
            for f in (arrow.is_valid, arrow.host, arrow.port, arrow.scheme, arrow.parse, arrow.extract, arrow.normalize):
                try:
                    f(col)
                except ValueError as e:
                    assert "malformed Arrow column" in str(e), (layout, f, e)
                else:
                    raise AssertionError(f"{layout}: {f.__name__} read a malformed column")
            return
        vals = held
    else:
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
