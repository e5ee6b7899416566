"""Result columns every tool takes: each string kernel's answer is a plain
``string`` (``large_string`` for a large input), and the ordinary
follow-ups of pyarrow, pandas and Polars run on it as on a column made
by hand. A null (an invalid URL, or no such part) stays apart from an
empty part in every count."""

import io

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pytest

import rfc1738
import rfc1738.pandas  # noqa: F401
import rfc1738.polars  # noqa: F401
from rfc1738 import arrow

# `file:///etc/motd` has an empty host, `bad url` none: the two must not
# merge in a count.
URLS = [
    "http://h.dom/a?x=1#f",
    "file:///etc/motd",
    "ftp://@h.dom/;type=i",
    "bad url",
    None,
    "http://h.dom/a?x=1#f",
    "ftp://u:p@g.dom/x#",
    "file:///",
]

KERNELS = {
    "scheme": arrow.scheme,
    "user": arrow.user,
    "password": arrow.password,
    "host": arrow.host,
    "path": arrow.path,
    "search": arrow.search,
    "fragment": arrow.fragment,
    "ftp.typecode": lambda c, **k: arrow.part(c, "ftp.typecode", **k),
    "normalize": lambda c, **k: arrow.normalize(c),
    "parse.host": lambda c, **k: arrow.parse(c, **k).field("host"),
    "parse.url_path": lambda c, **k: arrow.parse(c, **k).field("url_path"),
}


def by_hand(values, type_):
    return pa.array(values, type_)


@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("input_type, answer_type", [(pa.string(), pa.string()), (pa.large_string(), pa.large_string())])
def test_pyarrow_follow_ups_run_on_every_answer(name, input_type, answer_type):
    out = KERNELS[name](pa.array(URLS, input_type))
    # The normal form is a new text, never a slice: always `string`.
    answer_type = pa.string() if name == "normalize" else answer_type
    assert out.type == answer_type, name
    values = out.to_pylist()
    ref = by_hand(values, answer_type)
    some = next(v for v in values if v is not None)
    assert pc.equal(out, some).to_pylist() == pc.equal(ref, some).to_pylist()
    mask = pc.is_valid(out)
    assert out.filter(mask).to_pylist() == [v for v in values if v is not None]
    assert out.take([2, 0]).to_pylist() == [values[2], values[0]]
    assert out.take(pc.sort_indices(out)).to_pylist() == ref.take(pc.sort_indices(ref)).to_pylist()
    assert pc.utf8_lower(out).to_pylist() == pc.utf8_lower(ref).to_pylist()
    assert pc.starts_with(out, "h").to_pylist() == pc.starts_with(ref, "h").to_pylist()
    assert pc.is_in(out, value_set=pa.array([some])).to_pylist() == [v == some for v in values]
    assert sorted(pc.unique(out).to_pylist(), key=str) == sorted(set(values), key=str)
    counts = {c["values"]: c["counts"] for c in pc.value_counts(out).to_pylist()}
    assert counts == {v: values.count(v) for v in set(values)}
    table = pa.table({"k": out, "row": range(len(values))})
    other = pa.table({"k": ref, "again": range(len(values))})
    joined = table.join(other, "k", join_type="inner").to_pydict()
    assert sorted(joined["row"]) == sorted(i for i, v in enumerate(values) for w in values if v is not None and v == w)
    sink = io.BytesIO()
    pacsv.write_csv(table, sink)
    again = pacsv.read_csv(io.BytesIO(sink.getvalue()), convert_options=pacsv.ConvertOptions(column_types={"k": pa.string()}, strings_can_be_null=False))
    assert len(again) == len(values)


@pytest.mark.parametrize("name", ["host", "path", "search", "fragment", "user"])
def test_null_and_empty_stay_apart_in_counts(name):
    out = KERNELS[name](pa.array(URLS))
    values = out.to_pylist()
    counts = {c["values"]: c["counts"] for c in pc.value_counts(out).to_pylist()}
    assert counts.get(None, 0) == values.count(None)
    assert counts.get("", 0) == values.count("")
    assert None in pc.unique(out).to_pylist()
    if name == "host":
        # Two empty hosts (file:///...), two nulls (an invalid URL, a null).
        assert counts[""] == 2 and counts[None] == 2


def test_views_are_an_opt_in_and_hold_the_same_values():
    col = pa.array(URLS)
    for name in ["scheme", "user", "password", "host", "path", "search", "fragment"]:
        plain = KERNELS[name](col)
        views = KERNELS[name](col, views=True)
        assert views.type == pa.string_view(), name
        assert plain.to_pylist() == views.to_pylist(), name
    parsed = arrow.parse(col, views=True)
    assert parsed.type.field("host").type == pa.string_view()
    assert arrow.parse(col).type.field("host").type == pa.string()
    # A view column in keeps views; a chunked column keeps its chunks and type.
    assert arrow.host(col.cast(pa.string_view())).type == pa.string_view()
    chunked = arrow.host(pa.chunked_array([URLS[:3], URLS[3:]], pa.large_string()))
    assert chunked.type == pa.large_string() and chunked.num_chunks == 2
    assert arrow.host(pa.chunked_array([], pa.string())).type == pa.string()
    assert arrow.host(pa.array(URLS).dictionary_encode()).type == pa.string()


@pytest.mark.parametrize("method", ["scheme", "user", "password", "host", "path", "search", "fragment"])
def test_pandas_follow_ups_run_on_every_answer(method):
    s = pd.Series(URLS, name="url")
    out = getattr(s.rfc1738, method)()
    values = [None if v is pd.NA else v for v in out.tolist()]
    some = next(v for v in values if v is not None)
    assert (out == some).fillna(False).tolist() == [v == some for v in values]
    assert out[out.notna()].tolist() == [v for v in values if v is not None]
    assert out.take([2, 0]).tolist() == [out.iloc[2], out.iloc[0]]
    assert out.sort_values().dropna().tolist() == sorted(v for v in values if v is not None)
    assert len(out.unique()) == len(set(values))
    counts = out.value_counts(dropna=False)
    assert counts.sum() == len(values)
    assert sum(c for k, c in counts.items() if k is pd.NA or k is None) == values.count(None)
    assert counts.get("", 0) == values.count("")
    assert out.isin([some]).tolist() == [v == some for v in values]
    merged = pd.DataFrame({"k": out, "row": range(len(values))}).merge(pd.DataFrame({"k": [some]}), on="k")
    assert sorted(merged["row"]) == [i for i, v in enumerate(values) if v == some]
    text = pd.DataFrame({"k": out}).to_csv(index=False)
    assert text.count("\n") == len(values) + 1


@pytest.mark.parametrize("method", ["scheme", "user", "password", "host", "path", "search", "fragment"])
def test_polars_follow_ups_run_on_every_answer(method):
    s = pl.Series("url", URLS)
    for out in (getattr(s.rfc1738, method)(), pl.from_arrow(KERNELS[method](pa.array(URLS)))):
        values = out.to_list()
        some = next(v for v in values if v is not None)
        assert (out == some).fill_null(False).to_list() == [v == some for v in values]
        assert out.filter(out.is_not_null()).to_list() == [v for v in values if v is not None]
        assert out.gather([2, 0]).to_list() == [values[2], values[0]]
        assert out.sort().drop_nulls().to_list() == sorted(v for v in values if v is not None)
        assert out.n_unique() == len(set(values))
        counts = dict(out.value_counts().iter_rows())
        assert counts.get(None, 0) == values.count(None) and counts.get("", 0) == values.count("")
        assert out.is_in([some]).fill_null(False).to_list() == [v == some for v in values]
        df = pl.DataFrame({"k": out, "row": range(len(values))})
        joined = df.join(pl.DataFrame({"k": [some]}), on="k")
        assert sorted(joined["row"].to_list()) == [i for i, v in enumerate(values) if v == some]
        assert df.write_csv().count("\n") == len(values) + 1


def test_parts_agree_with_the_url_object():
    # The oracle: each URL's own accessors (as written).
    for name in ["host", "fragment"]:
        got = KERNELS[name](pa.array(URLS)).to_pylist()
        want = [None if u is None or not rfc1738.is_valid(u) else getattr(rfc1738.parse(u), name) for u in URLS]
        assert got == want, name


def test_the_polars_namespace_imports_no_pandas():
    import subprocess
    import sys

    code = "import sys, rfc1738.polars; print('pandas' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"


def test_the_polars_types_are_the_sql_functions():
    from rfc1738 import sql

    for f in sql.FUNCTIONS:
        assert rfc1738.polars._dtype(f.returns) == pl.from_arrow(pa.array([], f.returns)).dtype, f.name
