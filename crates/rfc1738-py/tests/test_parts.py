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
    assert arrow.host(column).type == pa.string()
    host = arrow.host(column, views=True)
    assert host.type == pa.string_view() and host.to_pylist() == [long_host] * 3
    # The views point into the input's value buffer: the answer adds its
    # views alone, not a copy of the hosts.
    assert host.buffers()[2].address == column.buffers()[2].address
    assert arrow.port(column).type == pa.uint16()
    assert arrow.host(pa.chunked_array([], pa.string()), views=True).type == pa.string_view()
    assert arrow.host(pa.chunked_array([], pa.string())).type == pa.string()


def test_decoded_parts_that_are_not_utf8_are_replaced():
    column = pa.array(["ftp://%FF%41@h.dom/a%2Fb%E2%82%AC"])
    assert arrow.user(column, decoded=True).to_pylist() == ["\ufffdA"]
    assert arrow.path(column, decoded=True).to_pylist() == ["a/b\u20ac"]
    assert arrow.part(column, "ftp.name", decoded=True).to_pylist() == ["a/b\u20ac"]


def test_an_upper_case_scheme_is_lower_cased():
    assert arrow.scheme(pa.array(["HTTP://h.dom/", "Ftp://h.dom/"])).to_pylist() == ["http", "ftp"]


def test_the_scheme_is_read_from_the_verdict_alone():
    # `arrow.scheme` takes what comes before the first ":" of a URL the bulk
    # validator finds valid: every layout, short values held in their views,
    # a ":" in the fragment, invalid texts with a ":" in them.
    urls = ["a:b", "news:x", "X-Y:z", "http://h.dom/#a:b", "Ftp://h.dom/x:y", "1+.-:q", "a b:c", ":x", "x",
            "http://h.dom/a b", "mailto:a@b.dom", "file:///x", "", None, "http://" + "h" * 70 + ".dom/p:q"]
    want = expected([u or "" for u in urls])["scheme"]
    want[urls.index(None)] = None
    for name, column in layouts(urls):
        assert arrow.scheme(column).to_pylist() == want, name
        assert arrow.part(column, "scheme").to_pylist() == want, name


def test_the_fragment_and_search_are_read_at_their_delimiters():
    # `arrow.fragment` and `arrow.search` slice a URL the bulk validator finds
    # valid at its first "#" and (http alone) its first "?": a "?" in a
    # login, a "?" or "#" in the fragment, a gopher or wais search (read by
    # the parse), invalid texts with both in them.
    urls = ["http://h.dom/p?q#f", "http://h.dom/p#f?q", "http://h.dom/?", "http://h.dom/p?a%20b#", "HTTP://h.dom/?q",
            "ftp://a?b@h.dom/p?q", "foo:x?y#z", "mailto:a@b.dom#f?g", "gopher://h.dom/7s%09q%20r#f", "wais://h.dom/d?x",
            "http://h.dom/p?q#f#g", "http://h.dom/a b?q#f", "http://h.dom?q", "x?y#z", "", None,
            "http://" + "h" * 70 + ".dom/p?" + "q" * 20 + "#" + "f" * 20]
    want = expected([u or "" for u in urls])
    want["fragment"][urls.index(None)] = want["search"][urls.index(None)] = None
    for name, column in layouts(urls):
        assert arrow.fragment(column).to_pylist() == want["fragment"], name
        assert arrow.part(column, "search").to_pylist() == arrow.search(column).to_pylist(), name
        got = arrow.search(column, decoded=True).to_pylist()
        assert all(r == w or r == decoded(w) for r, w in zip(got, want["search"])), name
        assert [s is None for s in got] == [w is None for w in want["search"]], name


def test_a_file_urls_host_is_read_from_the_verdict():
    # `arrow.host` slices a file URL the bulk validator finds valid between
    # "file://" and the next "/": empty, localhost, any case of the scheme,
    # long hosts, and invalid ones (a login, a port, no "/", a bad name).
    urls = ["file:///x", "FILE://localhost/x", "File://h.dom/a/b#c", "file://h.dom", "file://a@h.dom/x",
            "file://h.dom:21/x", "file://-h/x", "file:/x", "file://", "file:///", "file://h.dom/#", "", None,
            "file://" + "h" * 60 + ".dom/" + "p" * 30, "file://" + "h" * 70 + ".dom/p"]
    want = expected([u or "" for u in urls])["host"]
    want[urls.index(None)] = None
    for name, column in layouts(urls):
        assert arrow.host(column).to_pylist() == want, name
        assert arrow.part(column, "host").to_pylist() == want, name
        # No login nor port in a file URL (§3.10): null, unread.
        for kernel in (arrow.user, arrow.password, arrow.port):
            assert kernel(column).to_pylist() == [None] * len(urls), name
        assert arrow.part(column, "effective_port").to_pylist() == [None] * len(urls), name


def test_a_part_of_one_scheme_is_null_for_the_others_unread():
    # `part(column, "ftp.typecode")` reads only the URLs whose scheme is
    # ftp (in any case); `other.…` those of a scheme of no section of §3.
    urls = ["ftp://h.dom/f;type=i", "FTP://h.dom/f;type=a", "http://h.dom/f;type=i", "ftp://h.dom/f;type=x", "ftp:x",
            "gopher://h.dom/1sel", "https://h.dom/x", "foo:bar", "ftps://h.dom/f;type=i", "", None]
    rows = [u or "" for u in urls]
    want = expected(rows)
    for name, column in layouts(urls):
        got = arrow.part(column, "ftp.typecode").to_pylist()
        assert got[:-1] == want["typecode"][:-1] and got[-1] is None, name
        assert arrow.part(column, "gopher.selector").to_pylist()[:-1] == want["selector"][:-1], name
        other = [None if u is None else (rfc1738.parse(u).other.scheme_specific_part if valid(u) and rfc1738.parse(u).other else None)
                 for u in urls]
        assert arrow.part(column, "other.scheme_specific_part").to_pylist() == other, name


def valid(url):
    try:
        rfc1738.parse(url)
        return True
    except rfc1738.ParseError:
        return False


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


def parse_row(text):
    """The row `arrow.parse` should give, from the one-at-a-time API."""
    if text is None:
        return None
    try:
        d = rfc1738.parse(text).to_dict()
    except rfc1738.ParseError as e:
        return {"input": text, "valid": False, "error_offset": e.offset, "error_kind": e.kind,
                "error_rule": e.rule, "error_message": str(e.message), "warnings": []}
    keys = ["scheme", "kind", "user", "password", "host", "port", "effective_port", "url_path", "fragment", "warnings"]
    row = {"input": text, "valid": True, **{k: d.get(k) for k in keys}}
    # A port past 65535 (valid by §5, which gives none a range) is no uint16.
    for k in ("port", "effective_port"):
        row[k] = row[k] if row[k] is None or row[k] <= 65535 else None
    return {**row, "error_offset": None, "error_kind": None, "error_rule": None, "error_message": None}


def parse_rows(column):
    keep = ["input", "valid", "scheme", "kind", "user", "password", "host", "port", "effective_port", "url_path",
            "fragment", "warnings", "error_offset", "error_kind", "error_rule", "error_message"]
    out = []
    for r in arrow.parse(column).to_pylist():
        if r is not None and not r["valid"]:
            r = {k: r[k] for k in ("input", "valid", "error_offset", "error_kind", "error_rule", "error_message",
                                   "warnings")}
        out.append(r if r is None else {k: r[k] for k in keep if k in r})
    return out


def test_parse_agrees_with_one_url_at_a_time():
    for path in SAMPLES:
        urls = [line.decode("utf-8", "replace") for line in lines_of(path)] + [None]
        want = [parse_row(u) for u in urls]
        for name, column in layouts(urls):
            assert parse_rows(column) == want, name


def test_parse_agrees_on_the_corpus(corpus_files):
    for path in corpus_files:
        urls = [line.decode("utf-8", "replace") for line in lines_of(path)]
        assert parse_rows(pa.array(urls)) == [parse_row(u) for u in urls], path.name


def test_parse_shares_the_input_and_types_its_fields():
    urls = ["file://files.example/a-long-path/of/a/file.txt", "bad", None, "http://h.example:8080/#f"] * 50
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        column = pa.array(urls, kind)
        parsed = arrow.parse(column, views=True)
        # The input is the column given, not a copy of it.
        assert parsed.type.field("input").type == kind
        assert parsed.field("input").buffers()[-1].address == column.buffers()[-1].address
        assert parsed.field("input").to_pylist() == urls
    parsed = arrow.parse(pa.array(urls, pa.binary()), views=True)
    assert parsed.type.field("input").type == pa.string_view() and parsed.field("input").to_pylist() == urls
    plain = arrow.parse(pa.array(urls, pa.binary()))
    assert plain.type.field("input").type == pa.string() and plain.to_pylist() == parsed.to_pylist()
    assert plain.type.field("warnings").type.value_type.field("message").type == pa.string()
    t = parsed.type
    for name in ("scheme", "kind", "user", "password", "host", "url_path", "fragment"):
        assert t.field(name).type == pa.string_view(), name
    for name in ("error_kind", "error_rule", "error_message"):
        assert t.field(name).type == pa.string(), name
    item = t.field("warnings").type.value_type
    assert [(f.name, f.type) for f in item] == [("offset", pa.int64()), ("len", pa.int64()),
                                               ("kind", pa.string_view()), ("security", pa.bool_()),
                                               ("message", pa.string_view())]
    # Each distinct warning text is held once: the messages' own buffer
    # does not grow with the rows that repeat it.
    messages = parsed.field("warnings").flatten().field("message")
    assert len(messages) == 100 and messages[0].as_py().startswith("a file URL on host")
    distinct = {m.encode() for m in messages.to_pylist()}
    assert sum(b.size for b in messages.buffers()[2:]) == sum(map(len, distinct)) and len(distinct) == 2
