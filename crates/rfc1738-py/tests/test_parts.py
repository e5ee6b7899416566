"""The part kernels (`arrow.host`, `arrow.part`, ...) against `rfc1738.parse`,
one URL at a time: every URL of the committed samples and of the corpus,
in every column layout."""

import pathlib

import pyarrow as pa
import pytest

import rfc1738
from rfc1738 import arrow, pct
from conftest import lines_of

ROOT = pathlib.Path(__file__).resolve().parents[3]
SAMPLES = [ROOT / "crates/rfc1738/tests/bulk-sample.txt", ROOT / "benches/data/rfc1738-schemes.txt"]


def decoded(raw):
    return None if raw is None else pct.decode(raw).decode("utf-8", "replace")


def search_of(url):
    view = url.http or url.gopher or url.wais
    return None if view is None else view.search


def expected(urls):
    """Each part of each URL as `rfc1738.parse` gives it; None for an invalid one."""
    out = {k: [] for k in ("scheme", "host", "port", "effective_port", "path", "fragment", "user", "password",
                           "search", "typecode", "selector")}
    for u in urls:
        try:
            url = rfc1738.parse(u)
        except rfc1738.ParseError:
            url = None
        get = (lambda f: None) if url is None else (lambda f: f(url))
        out["scheme"].append(get(lambda x: x.scheme))
        out["host"].append(get(lambda x: x.host))
        out["port"].append(get(lambda x: x.port))
        out["effective_port"].append(get(lambda x: x.effective_port))
        out["path"].append(get(lambda x: x.url_path))
        out["fragment"].append(get(lambda x: x.fragment))
        out["user"].append(get(lambda x: x.user))
        out["password"].append(get(lambda x: x.password))
        out["search"].append(get(search_of))
        out["typecode"].append(get(lambda x: x.ftp and x.ftp.typecode))
        out["selector"].append(get(lambda x: x.gopher and x.gopher.selector))
    return out


def layouts(urls):
    """The same URLs as every kind of string column."""
    a = pa.array(urls, pa.string())
    yield "string", a
    yield "large_string", a.cast(pa.large_string())
    yield "string_view", a.cast(pa.string_view())
    yield "binary", a.cast(pa.binary())
    yield "dictionary", a.dictionary_encode()
    yield "sliced", pa.array([None, "x"] + urls)[2:]
    yield "chunked", pa.chunked_array([a[: len(urls) // 3], a[len(urls) // 3 :]])


def check(urls):
    want = expected(urls)
    for name, column in layouts(urls):
        got = lambda f: f.to_pylist()  # noqa: E731
        assert got(arrow.scheme(column)) == want["scheme"], name
        assert got(arrow.host(column)) == want["host"], name
        assert got(arrow.port(column)) == want["port"], name
        assert got(arrow.part(column, "effective_port")) == want["effective_port"], name
        assert got(arrow.path(column)) == want["path"], name
        assert got(arrow.fragment(column)) == want["fragment"], name
        assert got(arrow.user(column, decoded=True)) == want["user"], name
        assert got(arrow.password(column, decoded=True)) == want["password"], name
        assert [decoded(u) for u in got(arrow.user(column))] == want["user"], name
        assert got(arrow.path(column, decoded=True)) == [decoded(p) for p in want["path"]], name
        # The views of `parse` give some parts raw, some decoded.
        assert all(r == w or decoded(r) == w for r, w in zip(got(arrow.search(column)), want["search"])), name
        assert got(arrow.part(column, "ftp.typecode")) == want["typecode"], name
        selectors = got(arrow.part(column, "gopher.selector"))
        assert all(r == w or decoded(r) == w for r, w in zip(selectors, want["selector"])), name


def test_the_committed_samples():
    for path in SAMPLES:
        urls = [line.decode("utf-8", "replace") for line in lines_of(path)]
        check(urls)


def test_the_corpus(corpus_files):
    for path in corpus_files:
        check([line.decode("utf-8", "replace") for line in lines_of(path)])


def test_empty_is_not_absent_and_invalid_is_null():
    column = pa.array(["ftp://@h.dom/", "ftp://h.dom/", "ftp://u:@h.dom/", "http://h.dom/?", "http://h.dom/",
                       "http://h.dom/#", "bad", None, ""])
    assert arrow.user(column).to_pylist() == ["", None, "u", None, None, None, None, None, None]
    assert arrow.password(column).to_pylist() == [None, None, "", None, None, None, None, None, None]
    assert arrow.search(column).to_pylist() == [None, None, None, "", None, None, None, None, None]
    assert arrow.fragment(column).to_pylist() == [None, None, None, None, None, "", None, None, None]
    assert arrow.path(column).to_pylist() == ["", "", "", "?", "", "", None, None, None]


def test_results_are_views_of_the_input_and_typed():
    long_host = "a-rather-long-host-name.example.dom"
    column = pa.array([f"http://{long_host}/x"] * 3)
    host = arrow.host(column)
    assert host.type == pa.string_view() and host.to_pylist() == [long_host] * 3
    # The views point into the input's value buffer: the answer adds its
    # views alone, not a copy of the hosts.
    assert host.buffers()[2].address == column.buffers()[2].address
    assert arrow.port(column).type == pa.uint16()
    assert arrow.host(pa.chunked_array([], pa.string())).type == pa.string_view()


def test_decoded_parts_that_are_not_utf8_are_replaced():
    column = pa.array(["ftp://%FF%41@h.dom/a%2Fb%E2%82%AC"])
    assert arrow.user(column, decoded=True).to_pylist() == ["\ufffdA"]
    assert arrow.path(column, decoded=True).to_pylist() == ["a/b\u20ac"]
    assert arrow.part(column, "ftp.name", decoded=True).to_pylist() == ["a/b\u20ac"]


def test_an_upper_case_scheme_is_lower_cased():
    assert arrow.scheme(pa.array(["HTTP://h.dom/", "Ftp://h.dom/"])).to_pylist() == ["http", "ftp"]


def test_names_that_are_not_parts_are_value_errors():
    column = pa.array(["http://h.dom/"])
    for name in ("valid", "error.kind", "nonsense"):
        with pytest.raises(ValueError):
            arrow.part(column, name)
    with pytest.raises(TypeError):
        arrow.host(pa.array([1, 2]))


@pytest.mark.parametrize("layout", ["dictionary", "string"])
def test_a_column_of_nulls_alone_gives_nulls_from_every_kernel(layout):
    # A dictionary of nulls alone has no values: arrow's own key reading
    # panics on it (found by fuzz/python/arrow_ffi.py).
    column = pa.array([None, None], pa.string())
    if layout == "dictionary":
        column = column.dictionary_encode()
        assert len(column.dictionary) == 0
    for name in ("is_valid", "scheme", "user", "password", "host", "port", "path", "search", "fragment"):
        assert getattr(arrow, name)(column).to_pylist() == [None, None], name
    assert arrow.part(column, "ftp.typecode").to_pylist() == [None, None]
    assert arrow.host(column, decoded=True).to_pylist() == [None, None]
    assert len(arrow.parse(column)) == 2
