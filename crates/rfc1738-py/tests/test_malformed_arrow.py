"""Malformed Arrow columns: every kernel and every SQL function refuses
each one with a ValueError that says what is wrong, and none crashes.

pyarrow builds them: `from_buffers` checks the buffers' sizes and the
first and last offsets, as `Array.validate()` does, not the offsets
between, the views or the dictionary keys. The cases run in a child
process (this file, run as a script), which calls every function on each
column and writes one JSON line per call before and after it: a crash
fails that case's test with the signal and the call it died in, instead
of ending pytest, and a new child goes on with the cases after it.

The functions are found, not listed: every function of the native
module, of `rfc1738.arrow` and of `rfc1738.clf` that has a `column`
parameter, and every SQL function of `rfc1738.sql.FUNCTIONS`. A new
kernel is covered the day it is added; one with a new required argument
fails here until ARGUMENTS gives it a value.
"""

import inspect
import json
import struct
import subprocess
import sys

import pyarrow as pa
import pytest

# -- the columns -------------------------------------------------------------

URLS = [b"http://a.dom/", b"ftp://h.dom/some/longer/path", b"gopher://g.dom/1x"]


def offsets32(*values):
    return pa.py_buffer(struct.pack(f"<{len(values)}i", *values))


def offsets64(*values):
    return pa.py_buffer(struct.pack(f"<{len(values)}q", *values))


OFFSET_TYPES = {
    "string": (pa.string(), offsets32),
    "large_string": (pa.large_string(), offsets64),
    "binary": (pa.binary(), offsets32),
    "large_binary": (pa.large_binary(), offsets64),
}


def offsets_column(kind, offsets, data, length=None, offset=0, nulls=None):
    """A column of `kind` from its offsets and data, as they are given."""
    t, pack = OFFSET_TYPES[kind]
    n = len(offsets) - 1 - offset if length is None else length
    return pa.Array.from_buffers(t, n, [nulls, pack(*offsets), pa.py_buffer(data)], offset=offset)


def view(data, buffer=0, offset=0, length=None):
    """One view: `data` held inline when short, else its length and prefix
    with `buffer` and `offset` as given (`length` overrides its length)."""
    n = len(data) if length is None else length
    if n <= 12:
        return struct.pack("<i12s", n, data)
    return struct.pack("<i4sII", n, data[:4], buffer, offset)


def views_column(kind, views, buffers, nulls=None, length=None, offset=0):
    t = pa.string_view() if kind == "string_view" else pa.binary_view()
    n = len(views) - offset if length is None else length
    return pa.Array.from_buffers(t, n, [nulls, pa.py_buffer(b"".join(views))] + [pa.py_buffer(b) for b in buffers], offset=offset)


def good_offsets():
    """The offsets of URLS laid end to end."""
    out = [0]
    for u in URLS:
        out.append(out[-1] + len(u))
    return out


DATA = b"".join(URLS)


def bits(*valid):
    return pa.py_buffer(bytes([sum(1 << i for i, v in enumerate(valid) if v)]))


# Each malformed case: what builds it, and what the error must say.
BAD = {}
for _kind in OFFSET_TYPES:
    _o = good_offsets()
    BAD[f"{_kind}-middle-offset-past-data"] = (
        lambda k=_kind, o=_o: offsets_column(k, [0, 1000, o[2], o[3]], DATA),
        "offset 1 is 1000, past the 58 bytes",
    )
    BAD[f"{_kind}-decreasing-offsets"] = (
        lambda k=_kind, o=_o: offsets_column(k, [0, o[2], o[1], o[3]], DATA),
        f"offset 2 is {_o[1]}, less than offset 1 ({_o[2]})",
    )
    BAD[f"{_kind}-negative-offset"] = (
        lambda k=_kind, o=_o: offsets_column(k, [0, -5, o[2], o[3]], DATA),
        "offset 1 is -5, negative",
    )
    # A null row's offsets are offsets all the same (the format's rule).
    BAD[f"{_kind}-null-row-offset-past-data"] = (
        lambda k=_kind, o=_o: offsets_column(k, [0, o[1], 4000, o[3]], DATA, nulls=bits(1, 0, 1)),
        "offset 2 is 4000",
    )
    # Sliced: the offsets counted from the column's first row.
    BAD[f"{_kind}-sliced-middle-offset-past-data"] = (
        lambda k=_kind, o=_o: offsets_column(k, [0, 0, o[1], 999, o[3]], DATA, offset=1),
        "offset 2 is 999",
    )
for _kind in ("string_view", "binary_view"):
    _long = b"http://a.dom/a/long/path"
    BAD[f"{_kind}-view-past-its-buffer"] = (
        lambda k=_kind: views_column(k, [view(b"http://a.dom/"), view(_long, 0, 8)], [_long]),
        f"view 1 (row 1) is bytes 8..{8 + len(_long)} of data buffer 0, which holds {len(_long)} bytes",
    )
    BAD[f"{_kind}-view-longer-than-4-gib-of-buffer"] = (
        lambda k=_kind: views_column(k, [view(_long, 0, 0xFFFF_FFF0)], [_long]),
        "view 0 (row 0) is bytes 4294967280..",
    )
    BAD[f"{_kind}-bad-buffer-index"] = (
        lambda k=_kind: views_column(k, [view(b"x"), view(_long, 3, 0)], [_long]),
        "view 1 (row 1) names data buffer 3, and the column has one",
    )
    BAD[f"{_kind}-view-with-no-buffer"] = (
        lambda k=_kind: views_column(k, [view(_long, 0, 0)], []),
        "names data buffer 0, and the column has none",
    )
    BAD[f"{_kind}-sliced-view-past-its-buffer"] = (
        lambda k=_kind: views_column(k, [view(b"x"), view(b"y"), view(_long, 0, 1)], [_long], offset=1),
        "view 1 (row 1) is bytes 1..",
    )
for _key in (pa.int8(), pa.int32(), pa.uint64()):
    BAD[f"dictionary-{_key}-key-out-of-range"] = (
        lambda t=_key: pa.DictionaryArray.from_arrays(pa.array([0, 2, 1], t), pa.array(["http://a.dom/", "x"]), safe=False),
        "dictionary key 2 at row 1 is not an index of the dictionary's 2 values",
    )
BAD["dictionary-negative-key"] = (
    lambda: pa.DictionaryArray.from_arrays(pa.array([0, -1], pa.int16()), pa.array(["http://a.dom/"]), safe=False),
    "dictionary key -1 at row 1",
)
BAD["dictionary-key-into-an-empty-dictionary"] = (
    lambda: pa.DictionaryArray.from_arrays(pa.array([None, 0], pa.int32()), pa.array([], pa.string()), safe=False),
    "dictionary key 0 at row 1 is not an index of the dictionary's 0 values",
)
BAD["dictionary-of-malformed-values"] = (
    lambda: pa.DictionaryArray.from_arrays(
        pa.array([0, 1], pa.int32()), offsets_column("string", [0, 1000, 58], DATA), safe=False
    ),
    "the dictionary's values: malformed Arrow column: offset 1 is 1000",
)
BAD["chunked-second-chunk-malformed"] = (
    lambda: pa.chunked_array([pa.array(["http://a.dom/"]), offsets_column("string", [0, 1000, 58], DATA)]),
    # The SQL functions join a batch's chunks first (pyarrow moves the
    # offsets by the 13 bytes before them).
    ("chunk 1: malformed Arrow column: offset 1 is 1000", "malformed Arrow column: offset 2 is 1013"),
)
BAD["table-column-malformed"] = (
    lambda: pa.table({"url": offsets_column("binary", [0, 1000, 58], DATA)}),
    "offset 1 is 1000",
)

# Valid columns the check must let through, each with a plain column of
# the same values: every function gives the same answer on both.
GOOD = {}
for _kind, (_t, _) in OFFSET_TYPES.items():
    _o = good_offsets()
    # A slice whose offsets before its first row are anything: they are
    # not the column's (only offsets[offset..offset + length + 1] are).
    GOOD[f"{_kind}-sliced-with-garbage-before"] = (
        lambda k=_kind, o=_o: offsets_column(k, [9999, -3, o[1], o[2], o[3]], DATA, offset=2),
        lambda t=_t: pa.array(URLS[1:], t),
    )
    GOOD[f"{_kind}-sliced-by-pyarrow"] = (
        lambda t=_t: pa.array([b"x"] + URLS + [b"y"], t).slice(1, 3),
        lambda t=_t: pa.array(URLS, t),
    )
    GOOD[f"{_kind}-nulls"] = (
        lambda k=_kind, o=_o: offsets_column(k, o, DATA, nulls=bits(1, 0, 1)),
        lambda t=_t: pa.array([URLS[0], None, URLS[2]], t),
    )
for _kind in ("string_view", "binary_view"):
    _t = pa.string_view() if _kind == "string_view" else pa.binary_view()
    _long = b"http://a.dom/a/long/path"
    # A null row's view is not the column's: anything may be in it.
    GOOD[f"{_kind}-null-row-with-a-wild-view"] = (
        lambda k=_kind: views_column(k, [view(_long, 7, 9999), view(_long, 0, 0)], [_long], nulls=bits(0, 1)),
        lambda t=_t: pa.array([None, _long], t),
    )
    GOOD[f"{_kind}-sliced"] = (
        lambda k=_kind: views_column(k, [view(_long, 5, 0), view(b"ftp://h.dom/"), view(_long, 0, 0)], [_long], offset=1),
        lambda t=_t: pa.array([b"ftp://h.dom/", _long], t),
    )
    GOOD[f"{_kind}-exactly-at-the-end"] = (
        lambda k=_kind: views_column(k, [view(_long[3:], 0, 3)], [_long]),
        lambda t=_t: pa.array([_long[3:]], t),
    )
GOOD["dictionary-null-key-out-of-range"] = (
    lambda: pa.DictionaryArray.from_arrays(
        pa.Array.from_buffers(pa.int32(), 2, [bits(1, 0), offsets32(0, 7)]), pa.array(["http://a.dom/"]), safe=False
    ),
    lambda: pa.array(["http://a.dom/", None]),
)
GOOD["dictionary-sliced"] = (
    lambda: pa.DictionaryArray.from_arrays(pa.array([5, 0, 1], pa.int8()), pa.array(["http://a.dom/", "x"]), safe=False).slice(1),
    lambda: pa.array(["http://a.dom/", "x"]),
)
GOOD["chunked-sliced"] = (
    lambda: pa.chunked_array([pa.array(["x", "http://a.dom/"]).slice(1), pa.array(["ftp://h.dom/"])]),
    lambda: pa.chunked_array([pa.array(["http://a.dom/"]), pa.array(["ftp://h.dom/"])]),
)

# -- the functions -----------------------------------------------------------

# Values for the parameters, other than `column`, that a function needs.
ARGUMENTS = {"base": "http://b.dom/dir/", "name": "host"}


def functions():
    """Every function that takes a column: (name, callable, kwargs), each
    boolean option also once set (`lenient`, `decoded`: other paths)."""
    import rfc1738
    import rfc1738.clf
    import rfc1738.sql
    from rfc1738 import _rfc1738, arrow

    found = {}
    for module in (_rfc1738, arrow, rfc1738.clf):
        for name, f in vars(module).items():
            if name.startswith("_") or not callable(f) or isinstance(f, type):
                continue
            try:
                params = inspect.signature(f).parameters
            except (TypeError, ValueError):
                continue
            if "column" not in params:
                continue
            found.setdefault(getattr(f, "__name__", name), (f, params))
    out = []
    for name, (f, params) in sorted(found.items()):
        kwargs = {}
        flags = []
        for p in params.values():
            if p.name == "column":
                continue
            if p.default is inspect.Parameter.empty:
                if p.name not in ARGUMENTS:
                    raise AssertionError(f"{name}: no value for its parameter {p.name!r}: add one to ARGUMENTS")
                kwargs[p.name] = ARGUMENTS[p.name]
            elif p.default is False:
                flags.append(p.name)
        out.append((name, f, kwargs))
        for flag in flags:
            out.append((f"{name}({flag}=True)", f, {**kwargs, flag: True}))
    for f in rfc1738.sql.FUNCTIONS:
        # A second column (`rfc1738_part(url, name)`): its ARGUMENTS value
        # in every row.
        more = {p: ARGUMENTS[p] for p in list(_params(f.read))[1:] if p in ("names",)}
        out.append((f"sql {f.name}", f.read, {"_rows": more} if more else {}))
        if f.lenient:
            out.append((f"sql {f.name}(lenient=True)", f.read, {"_rows": more, "lenient": True}))
    return out


ARGUMENTS["names"] = "host"


def call(f, column, kwargs):
    rows = kwargs.get("_rows")
    if rows is not None:
        rest = {k: v for k, v in kwargs.items() if k != "_rows"}
        return f(column, *(pa.array([v] * len(column)) for v in rows.values()), **rest)
    return f(column=column, **kwargs) if "column" in _params(f) else f(column, **kwargs)


def _params(f):
    try:
        return inspect.signature(f).parameters
    except (TypeError, ValueError):
        return {}


def plain(result):
    """A result as Python values, string views cast, chunks joined."""
    if isinstance(result, pa.ChunkedArray):
        result = pa.concat_arrays([c for c in result.chunks]) if result.num_chunks else pa.array([], result.type)
    if isinstance(result, pa.Array):
        return result.to_pylist()
    return repr(result)


# -- the child: the cases, every function ------------------------------------


def run_cases(cases):
    """Calls every function on each case's column; one JSON line a call
    before it starts and one after, so a crash names its call."""
    found = functions()
    for case in cases:
        bad = case in BAD
        column = (BAD[case][0] if bad else GOOD[case][0])()
        same = None if bad else GOOD[case][1]()
        for name, f, kwargs in found:
            print(json.dumps({"case": case, "start": name}), flush=True)
            try:
                got = plain(call(f, column, kwargs))
                want = None if same is None else plain(call(f, same, kwargs))
                record = {"ok": True, "same": got == want, "got": repr(got)[:300], "want": repr(want)[:300]}
            except Exception as e:  # noqa: BLE001 - every exception is reported to the parent
                record = {"ok": False, "type": type(e).__name__, "value_error": isinstance(e, ValueError), "message": str(e)}
            print(json.dumps({"case": case, "name": name, **record}), flush=True)
        print(json.dumps({"case": case, "done": True}), flush=True)


@pytest.fixture(scope="module")
def outcomes():
    """Each case's records, or why its child died: all the cases in one
    child, and after a crash a new child for the cases after the one it
    died in."""
    cases = sorted(BAD) + sorted(GOOD)
    out = {}
    while cases:
        proc = subprocess.run([sys.executable, __file__, *cases], capture_output=True, text=True, timeout=600)
        lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        done = {r["case"] for r in lines if r.get("done")}
        for case in cases:
            if case in done:
                out[case] = [r for r in lines if r["case"] == case and "name" in r]
                continue
            started = [r["start"] for r in lines if r["case"] == case and "start" in r]
            out[case] = (
                f"{case}: the child ended with status {proc.returncode} (a negative status is a signal) "
                f"in {started[-1] if started else 'making the column'}\n{proc.stderr[-3000:]}"
            )
            cases = cases[cases.index(case) + 1 :]
            break
        else:
            cases = []
    return out


def child(outcomes, case):
    """The case's records; its test fails if the child died in it."""
    records = outcomes[case]
    if isinstance(records, str):
        pytest.fail(records)
    return records


# -- the tests ---------------------------------------------------------------


def test_the_functions_are_found():
    names = [n for n, _, _ in functions()]
    for expected in ("arrow_is_valid", "arrow_parse", "arrow_host", "arrow_extract", "arrow_clf_check", "sql rfc1738_parse"):
        assert expected in names, names
    assert "arrow_is_valid(lenient=True)" in names


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_column_is_a_value_error_in_every_function(outcomes, case):
    says = BAD[case][1]
    says = says if isinstance(says, tuple) else (says,)
    wrong = []
    for r in child(outcomes, case):
        if r["ok"]:
            wrong.append(f"{r['name']}: answered {r['got']}")
        elif not r["value_error"] or not any(s in r["message"] for s in says):
            wrong.append(f"{r['name']}: {r['type']}: {r['message']}")
    assert not wrong, f"{case}: expected a ValueError saying {says!r}\n" + "\n".join(wrong)


@pytest.mark.parametrize("case", sorted(GOOD))
def test_a_valid_sliced_or_null_laden_column_still_works(outcomes, case):
    wrong = []
    for r in child(outcomes, case):
        if not r["ok"]:
            wrong.append(f"{r['name']}: {r['type']}: {r['message']}")
        elif not r["same"]:
            wrong.append(f"{r['name']}: {r['got']} where the plain column gives {r['want']}")
    assert not wrong, f"{case}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("kind", sorted(OFFSET_TYPES))
def test_buffers_too_short_never_reach_a_kernel(kind):
    """The C data interface carries no buffer sizes: an importer takes the
    length and offset the producer states, and `validate()` on import
    sizes the buffers from them. A short buffer is the producer's to
    refuse, and pyarrow does, with a ValueError (ArrowInvalid)."""
    o = good_offsets()
    with pytest.raises(ValueError, match="too small|large enough"):
        offsets_column(kind, o[:2], DATA, length=3)
    with pytest.raises(ValueError, match="too small|large enough"):
        offsets_column(kind, o, DATA, length=2, offset=2)
    with pytest.raises(ValueError, match="too small|large enough"):
        many = list(range(0, 20))
        offsets_column(kind, many, DATA, nulls=pa.py_buffer(b"\xff"))


if __name__ == "__main__":
    run_cases(sys.argv[1:])
