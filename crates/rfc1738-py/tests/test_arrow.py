"""Arrow columns: the same answers as one URL at a time, for every input kind."""

import pathlib

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rfc1738
from rfc1738 import arrow
from conftest import lines_of

ALPHABET = "abhtpfgo:/@%?;=.#~ 0129AF\t\n\r\u00e9"
texts = st.lists(st.one_of(st.none(), st.text(alphabet=ALPHABET, max_size=30)), max_size=40)
SAMPLE = [
    "http://a.dom/",
    "http://a.dom/a b",
    None,
    "ftp://u:p@h.dom:21/a;type=i",
    "gopher://h.dom:25/7x%09a",
    "mailto:a@b.dom",
    "",
    "bad",
]


def one(text, lenient=False):
    """The row `arrow.parse` should give, from the one-at-a-time API."""
    if text is None:
        return None
    try:
        d = rfc1738.parse(text, lenient=lenient).to_dict()
    except rfc1738.ParseError as e:
        scheme = text.split(":", 1)[0].lower() if ":" in text and text.split(":", 1)[0] else None
        return {"valid": False, "offset": e.offset, "kind": e.kind, "rule": e.rule, "scheme": scheme}
    return {
        "valid": True,
        "scheme": d["scheme"],
        "kind": d["kind"],
        "user": d.get("user"),
        "password": d.get("password"),
        "host": d.get("host"),
        "port": d.get("port"),
        "effective_port": d.get("effective_port"),
        "url_path": d.get("url_path"),
        "fragment": d["fragment"],
        "warnings": d["warnings"],
    }


def row(r):
    if r is None:
        return None
    if not r["valid"]:
        return {"valid": False, "offset": r["error_offset"], "kind": r["error_kind"], "rule": r["error_rule"]}
    keys = ["scheme", "kind", "user", "password", "host", "port", "effective_port", "url_path", "fragment", "warnings"]
    return {"valid": True, **{k: r[k] for k in keys}}


def valid_of(text, lenient=False):
    return None if text is None else rfc1738.is_valid(text, lenient=lenient)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_columns_answer_as_single_urls(values):
    column = pa.array(values, pa.string())
    assert arrow.is_valid(column).to_pylist() == [valid_of(v) for v in values]
    expected = [one(v) for v in values]
    for e in expected:
        if e is not None and not e["valid"]:
            e.pop("scheme")
    assert [row(r) for r in arrow.parse(column).to_pylist()] == expected
    normal = [None if v is None or not rfc1738.is_valid(v) else str(rfc1738.parse(v).normalize()) for v in values]
    assert arrow.normalize(column).to_pylist() == normal
    found = [None if v is None else [{k: m[k] for k in ("url", "start", "end", "form")} for m in rfc1738.extract(v)] for v in values]
    assert arrow.extract(column).to_pylist() == found


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.string_view(), pa.binary()])
def test_every_string_type(kind):
    column = pa.array(SAMPLE, kind)
    assert arrow.is_valid(column).to_pylist() == [valid_of(v) for v in SAMPLE]


def test_chunked_arrays_keep_their_chunks():
    column = pa.chunked_array([SAMPLE[:3], SAMPLE[3:], []], pa.string())
    out = arrow.is_valid(column)
    assert isinstance(out, pa.ChunkedArray)
    assert [len(c) for c in out.chunks] == [3, len(SAMPLE) - 3, 0]
    assert out.to_pylist() == [valid_of(v) for v in SAMPLE]


def test_polars_series_in_place():
    pl = pytest.importorskip("polars")
    series = pl.Series("url", SAMPLE)
    assert arrow.is_valid(series).to_pylist() == [valid_of(v) for v in SAMPLE]
    parsed = arrow.parse(series).to_pylist()
    assert [None if r is None else r["valid"] for r in parsed] == [valid_of(v) for v in SAMPLE]


def test_lint_lists_the_security_warnings():
    out = arrow.lint(pa.array(["gopher://h.dom:25/x", "http://a.dom/", "bad", None])).to_pylist()
    assert [w["kind"] for w in out[0]] == ["foreign-port"]
    assert out[1] == [] and out[2] is None and out[3] is None


def test_lenient_columns():
    column = pa.array(["http://my_host.dom/~me", "http://a.dom/"])
    assert arrow.is_valid(column).to_pylist() == [False, True]
    assert arrow.is_valid(column, lenient=True).to_pylist() == [True, True]
    assert arrow.parse(column, lenient=True).to_pylist()[0]["warnings"][0]["kind"] == "underscore-in-host"


def test_a_billion_nulls_stay_null():
    column = pa.nulls(10**9)
    out = arrow.is_valid(column)
    assert len(out) == 10**9 and out.null_count == 10**9


def test_what_is_not_a_string_column_is_a_type_error():
    with pytest.raises(TypeError):
        arrow.is_valid(pa.array([1, 2, 3]))
    with pytest.raises(TypeError):
        arrow.is_valid(["http://a.dom/"])


def test_the_corpus_as_one_column(corpus_files):
    for path in corpus_files:
        lines = [line.decode("utf-8", "replace") for line in lines_of(path)]
        column = pa.array(lines)
        assert arrow.is_valid(column).to_pylist() == [rfc1738.is_valid(v) for v in lines], path.name


EXPECTED = [valid_of(v) for v in SAMPLE]


def test_dictionary_encoded_strings_are_read_through_their_dictionary():
    column = pa.array(SAMPLE, pa.string()).dictionary_encode()
    assert pa.types.is_dictionary(column.type)
    assert arrow.is_valid(column).to_pylist() == EXPECTED
    for index in (pa.int8(), pa.uint32(), pa.int64()):
        typed = pa.array(SAMPLE).dictionary_encode().cast(pa.dictionary(index, pa.large_string()))
        assert arrow.normalize(typed).to_pylist() == arrow.normalize(pa.array(SAMPLE)).to_pylist()


def test_tables_batches_and_readers_of_one_column():
    table = pa.table({"url": pa.chunked_array([SAMPLE[:2], SAMPLE[2:]])})
    out = arrow.is_valid(table)
    assert isinstance(out, pa.ChunkedArray) and out.to_pylist() == EXPECTED
    batch = pa.record_batch({"url": pa.array(SAMPLE)})
    assert arrow.is_valid(batch).to_pylist() == EXPECTED
    reader = pa.RecordBatchReader.from_batches(batch.schema, [batch, batch])
    assert arrow.is_valid(reader).to_pylist() == EXPECTED * 2
    with pytest.raises(TypeError, match="2 columns"):
        arrow.is_valid(pa.table({"a": SAMPLE, "b": SAMPLE}))


def test_empty_input_keeps_the_answer_type():
    empty = pa.chunked_array([], pa.string())
    assert arrow.is_valid(empty).type == pa.bool_()
    assert arrow.parse(empty).type == arrow.parse(pa.array([], pa.string())).type
    assert arrow.normalize(pa.table({"url": pa.array([], pa.string())})).type == pa.string()
    assert arrow.is_valid(pa.array([], pa.string())).type == pa.bool_()
    # An empty slice at an offset into a longer array.
    sliced = pa.array(["http://a.dom/", "http://b.dom/path", "c"]).slice(2, 0)
    assert arrow.is_valid(sliced).to_pylist() == [] and arrow.normalize(sliced).to_pylist() == []


def test_polars_categorical_and_views():
    pl = pytest.importorskip("polars")
    series = pl.Series("url", SAMPLE, dtype=pl.Categorical)
    assert arrow.is_valid(series).to_pylist() == EXPECTED
    frame = pl.DataFrame({"url": SAMPLE})
    assert arrow.is_valid(frame).to_pylist() == EXPECTED


def test_duckdb_relations_and_results():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("create table t as select * from (values ('http://a.dom/'), ('http://a.dom/a b'), (null)) v(url)")
    relation = con.sql("select url from t")
    assert arrow.is_valid(relation).to_pylist() == [True, False, None]
    assert arrow.is_valid(con.sql("select url::varchar as u from t where false")).type == pa.bool_()


def test_anything_with_the_capsule_interface():
    class Column:
        def __init__(self, array):
            self.array = array

        def __arrow_c_array__(self, requested_schema=None):
            return self.array.__arrow_c_array__(requested_schema)

    class Stream:
        def __arrow_c_stream__(self, requested_schema=None):
            return pa.chunked_array([SAMPLE]).__arrow_c_stream__(requested_schema)

    assert arrow.is_valid(Column(pa.array(SAMPLE))).to_pylist() == EXPECTED
    assert arrow.is_valid(Stream()).to_pylist() == EXPECTED


def test_the_bulk_validator_answers_as_one_url_at_a_time(corpus_files):
    """Strings and binaries of 32- and 64-bit offsets go to the bulk
    validator, sliced ones too; views and dictionaries do not."""
    urls = []
    for path in corpus_files:
        urls.extend(line.decode("utf-8", "replace") for line in lines_of(path)[::3])
    urls += [None, "", "http://a.dom/\nhttp://b.dom/", "http://" + "a" * 70 + ".dom/x", "ftp://h.dom/a;type=i\r"]
    expected = [valid_of(v) for v in urls]
    for kind in (pa.string(), pa.large_string(), pa.binary(), pa.large_binary(), pa.string_view()):
        column = pa.array(urls, kind)
        assert arrow.is_valid(column).to_pylist() == expected, kind
        assert arrow.is_valid(column.slice(7, 1000)).to_pylist() == expected[7:1007], kind


def error_of(text, lenient=False):
    """The row `arrow.validate` should give, from `rfc1738.validate`."""
    if text is None:
        return None
    try:
        rfc1738.validate(text, lenient=lenient)
    except rfc1738.ParseError as e:
        return {"offset": e.offset, "kind": e.kind, "rule": e.rule, "message": e.message}
    return None


TRICKY = SAMPLE + [
    "http://a.dom/\nhttp://b.dom/",
    "http://" + "a" * 70 + ".dom/x",
    "http://" + "a" * 300 + ".dom/x",
    "ftp://h.dom/a;type=i\r",
    "http://h.dom/#frag",
    "http://h.dom/a%2",
    "x:",
    "news:",
    "HTTP://H.DOM/",
    "http://h.dom:65536/",
    "telnet://u@h.dom/",
    "mailto:",
    "\u00e9",
    None,
    "",
]


def columns_of(values):
    """The same values in every layout a column may come in: offsets of
    32 and 64 bits, views, binaries, sliced at an offset, dictionaries
    of several index types, a chunked array."""
    out = {}
    for kind in (pa.string(), pa.large_string(), pa.string_view(), pa.binary(), pa.large_binary(), pa.binary_view()):
        out[str(kind)] = (pa.array(values, kind), values)
        padded = pa.array(["http://pad.dom/"] * 5 + values + ["bad pad"], kind)
        out[f"{kind} sliced"] = (padded.slice(5, len(values)), values)
    for index in (pa.int16(), pa.uint32(), pa.int64()):
        typed = pa.array(values, pa.string()).dictionary_encode().cast(pa.dictionary(index, pa.large_string()))
        out[f"dictionary {index}"] = (typed, values)
    out["dictionary sliced"] = (pa.array(["x"] * 3 + values, pa.string()).dictionary_encode().slice(3), values)
    out["chunked"] = (pa.chunked_array([values[:4], values[4:]], pa.string()), values)
    return out


def test_validate_gives_the_error_of_each_url_in_every_layout():
    for name, (column, values) in columns_of(TRICKY).items():
        assert arrow.validate(column).to_pylist() == [error_of(v) for v in values], name
        assert arrow.is_valid(column).to_pylist() == [valid_of(v) for v in values], name
        lenient = arrow.validate(column, lenient=True).to_pylist()
        assert lenient == [error_of(v, lenient=True) for v in values], name


def test_validate_equals_validate_on_the_corpus(corpus_files):
    urls = []
    for path in corpus_files:
        urls.extend(line.decode("utf-8", "replace") for line in lines_of(path)[::5])
    column = pa.array(urls)
    assert arrow.validate(column).to_pylist() == [error_of(u) for u in urls]
    keys = pa.array(urls).dictionary_encode()
    assert arrow.is_valid(keys).to_pylist() == [valid_of(u) for u in urls]


def test_validate_equals_validate_on_the_committed_samples():
    """The bulk validator's sample and the generated corpus of every
    scheme (one URL in ten with an error), in every layout."""
    root = pathlib.Path(__file__).resolve().parents[3]
    for path in (root / "crates/rfc1738/tests/bulk-sample.txt", root / "benches/data/rfc1738-schemes.txt"):
        urls = [line.decode("utf-8", "replace") for line in lines_of(path)]
        expected = [error_of(u) for u in urls]
        assert any(expected) and not all(expected), path.name
        for name, (column, _) in columns_of(urls).items():
            assert arrow.validate(column).to_pylist() == expected, (path.name, name)
            assert arrow.is_valid(column).to_pylist() == [e is None for e in expected], (path.name, name)


def test_validate_keeps_the_error_type_for_empty_input():
    empty = arrow.validate(pa.chunked_array([], pa.string()))
    assert empty.type == arrow.validate(pa.array(["bad"])).type
    assert [f.name for f in empty.type] == ["offset", "kind", "rule", "message"]


@settings(max_examples=100, deadline=None)
@given(texts)
def test_validate_answers_as_single_urls(values):
    for name, (column, vs) in columns_of(values).items():
        assert arrow.validate(column).to_pylist() == [error_of(v) for v in vs], name
        assert arrow.is_valid(column).to_pylist() == [valid_of(v) for v in vs], name
