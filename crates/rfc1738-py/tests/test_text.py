"""Text in: lone surrogates are a ParseError or a ValueError that says
where, never a UnicodeEncodeError or a silent encoding; `extract` in
bounded memory; the pandas accessor and the Polars Series namespace."""

import resource

import pyarrow as pa
import pytest

import rfc1738
from rfc1738 import build, pct


def not_unicode_error(excinfo):
    assert not isinstance(excinfo.value, UnicodeError), repr(excinfo.value)


def test_lone_surrogates_in_urls_are_parse_errors():
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse("http://h.dom/\ud800")
    assert (e.value.offset, e.value.kind) == (13, "non-ascii")
    with pytest.raises(rfc1738.ParseError):
        rfc1738.validate("\udfff")
    assert not rfc1738.is_valid("http://h.dom/\ud800")


@pytest.mark.parametrize(
    "call",
    [
        lambda: pct.decode("\ud800"),
        lambda: pct.encode("\ud800"),
        lambda: pct.encode("a\udc80", "fsegment"),
        lambda: rfc1738.parse("http://a.dom/b/").resolve("\ud800"),
        lambda: build.http("h\ud800.dom"),
        lambda: build.http("h.dom", path=["\ud800"]),
        lambda: build.file(host="\ud800"),
        lambda: build.news(group="a\ud800"),
        lambda: build.ftp("h.dom", user="\ud800"),
        lambda: rfc1738.parse("http://a.dom/").replace(host="\ud800"),
    ],
)
def test_lone_surrogates_elsewhere_are_value_errors(call):
    with pytest.raises(ValueError) as e:
        call()
    not_unicode_error(e)
    assert "surrogate" in str(e.value) or isinstance(e.value, (rfc1738.BuildError, rfc1738.ParseError))


def test_the_value_error_says_where():
    with pytest.raises(ValueError, match="index 2"):
        pct.encode("ab\ud800c")


def test_extract_reads_a_lone_surrogate_as_one_character():
    text = "\ud800 see http://b.org/x."
    found = rfc1738.extract(text)
    assert [m["url"] for m in found] == ["http://b.org/x"]
    assert text[found[0]["start"] : found[0]["end"]] == "http://b.org/x"


def test_extract_iter_gives_what_extract_lists():
    text = "é see <URL:ftp://a.org/long-\n name> and http://b.org/x. " * 3
    assert list(rfc1738.extract_iter(text)) == rfc1738.extract(text)
    assert list(rfc1738.extract_iter(text.encode())) == rfc1738.extract(text.encode())
    assert list(rfc1738.extract_iter("")) == []


def rss_kib():
    """The resident set now, in KiB (Linux: /proc/self/status)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # pragma: no cover


def test_extract_iter_over_100_mb_holds_the_text_and_one_dict():
    # 100 MB of text, one URL in it every ~100 bytes.
    unit = "some words, then http://h.dom/a/b?c and ftp://f.dom/x;type=i, and more words here..\n"
    text = unit * (100_000_000 // len(unit))
    before = rss_kib()
    peak = before
    n = 0
    for i, m in enumerate(rfc1738.extract_iter(text)):
        n += 1
        if i % 200_000 == 0:
            peak = max(peak, rss_kib())
        if i == 400_000:
            break  # memory is held from the first URL on; the rest is time
    grown = (max(peak, rss_kib()) - before) * 1024
    assert n == 400_001
    # The iterator holds one copy of the text (100 MB) and one dict.
    assert grown < 2.5 * len(text), grown


def test_extract_over_100_mb_stays_within_a_few_times_the_text():
    # One URL every 42 bytes: a list of dicts would take twenty times the text.
    unit = "some words, then http://h.dom/a/b?c and ftp://f.dom/x;type=i, and more words here..\n"
    text = unit * (100_000_000 // len(unit))
    before = rss_kib()
    found = rfc1738.extract(text)
    grown = (rss_kib() - before) * 1024
    assert len(found) == 2 * (100_000_000 // len(unit))
    assert found[-1]["url"] == "ftp://f.dom/x;type=i" and found[1]["start"] == 40
    assert grown < 4 * len(text), grown


def test_extract_is_a_sequence_equal_to_its_list():
    found = rfc1738.extract("http://a.dom/ and http://b.dom/ and http://c.dom/")
    assert len(found) == 3 and found[-1]["url"] == "http://c.dom/"
    assert [m["url"] for m in found[::2]] == ["http://a.dom/", "http://c.dom/"]
    assert found == list(found) and list(found) == found
    with pytest.raises(IndexError):
        found[3]


def test_the_pandas_accessor():
    pd = pytest.importorskip("pandas")
    import rfc1738.pandas  # noqa: F401

    urls = ["http://h.dom:8080/a%20b?q#f", "ftp://u:@f.dom/x;type=i", "bad", None]
    expected_hosts = ["h.dom", "f.dom", None, None]
    for series in (
        pd.Series(urls, index=[5, 6, 7, 8], name="u", dtype=object),
        pd.Series(urls, index=[5, 6, 7, 8], name="u", dtype="string[pyarrow]"),
        pd.Series(urls, index=[5, 6, 7, 8], name="u", dtype=pd.ArrowDtype(pa.string())),
    ):
        host = series.rfc1738.host()
        assert isinstance(host.dtype, pd.ArrowDtype) and list(host.index) == [5, 6, 7, 8] and host.name == "u"
        assert [None if pd.isna(h) else h for h in host] == expected_hosts
        assert series.rfc1738.port().dtype == pd.ArrowDtype(pa.uint16())
        assert series.rfc1738.is_valid().tolist()[:3] == [True, True, False]
        assert series.rfc1738.password().tolist()[1] == ""
        assert series.rfc1738.path(decoded=True).tolist()[0] == "a b?q"
        assert series.rfc1738.part("ftp.typecode").tolist()[1] == "i"
        assert (series.rfc1738.host() == "h.dom").tolist()[0]


def test_the_polars_series_namespace():
    pl = pytest.importorskip("polars")
    import rfc1738.polars  # noqa: F401

    s = pl.Series("u", ["http://h.dom:81/p?q#f", "bad", None])
    assert s.rfc1738.host().to_list() == ["h.dom", None, None]
    assert s.rfc1738.port().to_list() == [81, None, None]
    assert s.rfc1738.search().to_list() == ["q", None, None]
    assert s.rfc1738.fragment().to_list() == ["f", None, None]
    assert s.rfc1738.is_valid().to_list() == [True, False, None]
    assert s.rfc1738.host().name == "u"
    frame = pl.DataFrame({"u": s})
    assert frame.select(pl.col("u").rfc1738.host())["u"].to_list() == s.rfc1738.host().to_list()
