"""One URL at a time: the RFC's examples, every scheme's view, errors with offsets."""

import pickle

import pytest

import rfc1738

# The example URLs of the RFC text, with the section each comes from.
RFC_EXAMPLES = [
    ("§3.2.2", "ftp://myname@host.dom/%2Fetc/motd"),
    ("§3.2.2", "ftp://myname@host.dom/etc/motd"),
    ("§3.2.2", "ftp://myname@host.dom//etc/motd"),
    ("§3.1", "ftp://@host.com/"),
    ("§3.1", "ftp://foo:@host.com/"),
    ("Appendix", "ftp://info.cern.ch/pub/www/doc;type=d"),
    ("Appendix", "http://ds.internic.net/instructions/overview.html#WARNING"),
    ("§3.4.2", "gopher://gopher.host.dom/7search%09rfc1738"),
    ("§3.5", "mailto:timbl@info.cern.ch"),
    ("§3.6", "news:comp.infosystems.www.misc"),
    ("§3.6", "news:*"),
    ("§3.7", "nntp://news.host.dom/comp.infosystems.www.misc/1234"),
    ("§3.8", "telnet://guest:guest@host.dom:2323/"),
    ("§3.9", "wais://wais.host.dom:210/database?search"),
    ("§3.10", "file://vms.host.edu/disk$user/my/notes/note12345.txt"),
    ("§3.11", "prospero://host.dom//pros/name"),
    ("§4", "z39.50:record"),
]


@pytest.mark.parametrize("section,text", RFC_EXAMPLES)
def test_every_example_of_the_rfc_parses(section, text):
    url = rfc1738.parse(text)
    assert rfc1738.is_valid(text)
    rfc1738.validate(text)
    assert str(url) == text
    assert url.to_dict()["valid"] is True


def test_ftp_keeps_what_later_parsers_drop():
    # §3.2.2: %2F stays inside one CWD argument.
    assert rfc1738.parse("ftp://myname@host.dom/%2Fetc/motd").ftp.commands == ["CWD /etc", "RETR motd"]
    # §3.2.2: an empty segment is a CWD with a null argument.
    assert rfc1738.parse("ftp://myname@host.dom//etc/motd").ftp.commands == ["CWD ", "CWD etc", "RETR motd"]
    # §3.1: an empty user is not an absent one.
    assert rfc1738.parse("ftp://@host.com/").user == ""
    assert rfc1738.parse("ftp://host.com/").user is None
    assert rfc1738.parse("ftp://foo:@host.com/").password == ""
    ftp = rfc1738.parse("ftp://h.dom/a/b;type=d").ftp
    assert (ftp.cwd, ftp.name, ftp.typecode) == (["a"], "b", "d")


def test_every_scheme_has_its_view_and_none_of_the_others():
    views = {
        "ftp://h.dom/x": ("ftp", "name", "x"),
        "http://h.dom/p?q": ("http", "search", "q"),
        "gopher://h.dom/7search%09rfc": ("gopher", "request", "search\trfc\r\n"),
        "mailto:a@b.dom": ("mailto", "address", "a@b.dom"),
        "news:comp.lang.c": ("news", "group", "comp.lang.c"),
        "nntp://h.dom/comp.lang.c/12": ("nntp", "article", 12),
        "telnet://h.dom/": ("telnet", None, None),
        "wais://h.dom/db?x": ("wais", "form", "index"),
        "file:///etc/motd": ("file", "path", "etc/motd"),
        "prospero://h.dom/a;n=v": ("prospero", "fields", [["n", "v"]]),
        "z39.50:record": ("other", "scheme_specific_part", "record"),
    }
    names = [v[0] for v in views.values()]
    for text, (kind, part, value) in views.items():
        url = rfc1738.parse(text)
        assert url.kind == kind
        view = getattr(url, kind)
        assert view is not None and view.kind == kind
        if part is not None:
            assert getattr(view, part) == value, (text, view)
        for other in names:
            if other != kind:
                assert getattr(url, other) is None
        assert view.to_dict() == url.to_dict()[kind]
        with pytest.raises(AttributeError):
            view.no_such_part


def test_attributes_follow_the_json_contract():
    url = rfc1738.parse("FTP://us%3Aer:pa%40ss@Host.dom:2121/a#frag")
    assert (url.scheme, url.kind, url.user, url.password) == ("ftp", "ftp", "us:er", "pa@ss")
    assert (url.host, url.port, url.effective_port, url.url_path, url.fragment) == ("Host.dom", 2121, 2121, "a", "frag")
    kinds = [w["kind"] for w in url.warnings]
    assert "uppercase-scheme" in kinds and "password" in kinds
    mail = rfc1738.parse("mailto:a@b.dom")
    assert (mail.host, mail.port, mail.effective_port, mail.user) == (None, None, None, None)


def test_errors_say_where_why_and_in_which_rule():
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse("http://user@host.dom/")
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.offset, err.kind, err.rule) == (7, "user-not-allowed", "login")
    assert err.input == "http://user@host.dom/"
    lines = str(err).splitlines()
    assert lines[0] == "invalid URL: this scheme allows no user name or password at offset 7 (in login)"
    assert lines[1] == "  http://user@host.dom/"
    assert lines[2] == "  " + " " * 7 + "^"
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.validate("http://host.dom/my file.html")
    assert (e.value.offset, e.value.kind, e.value.rule) == (18, "unsafe", "hpath")
    assert not rfc1738.is_valid("http://host.dom/my file.html")


def test_bytes_are_octets_from_a_log():
    url = rfc1738.parse(b"gopher://h.dom/7search%09rfc")
    assert url.gopher.search == "rfc"
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse(b"http://h.dom/a\xffb")
    assert (e.value.offset, e.value.kind) == (14, "non-ascii")
    assert e.value.input == b"http://h.dom/a\xffb"
    assert not rfc1738.is_valid(b"http://h.dom/a\xffb")


def test_lenient_accepts_deviations_and_says_each():
    with pytest.raises(rfc1738.ParseError):
        rfc1738.parse("http://my_host.dom/~me")
    url = rfc1738.parse("http://my_host.dom/~me", lenient=True)
    assert url.is_lenient
    assert [w["kind"] for w in url.warnings] == ["underscore-in-host", "unsafe-char"]
    assert rfc1738.is_valid("http://my_host.dom/~me", lenient=True)


@pytest.mark.parametrize("bad", [None, 17, 1.5, ["http://a.dom/"], object()])
def test_values_that_are_not_text_raise_type_error(bad):
    with pytest.raises(TypeError):
        rfc1738.parse(bad)
    with pytest.raises(TypeError):
        rfc1738.validate(bad)
    with pytest.raises(TypeError):
        rfc1738.is_valid(bad)


def test_lone_surrogates_are_non_ascii_at_their_offset():
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse("http://h.dom/a\ud800b")
    assert (e.value.offset, e.value.kind) == (14, "non-ascii")
    assert not rfc1738.is_valid("http://h.dom/\udfff")


def test_a_100_mb_string_is_read_and_answered():
    big = "http://h.dom/" + "a" * (100 * 1024 * 1024)
    assert rfc1738.is_valid(big)
    url = rfc1738.parse(big)
    assert len(url.url_path) == 100 * 1024 * 1024
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse(big + " ")
    assert e.value.offset == len(big)


def test_urls_are_immutable_hashable_and_compared_by_text():
    a, b = rfc1738.parse("HTTP://h.dom/"), rfc1738.parse("http://h.dom/")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != "http://h.dom/"
    assert repr(a) == 'Url("http://h.dom/")'
    with pytest.raises(AttributeError):
        a.host = "x"
    assert pickle.loads(pickle.dumps(a)) == a


def test_normalize_equivalent_redacted_security():
    url = rfc1738.parse("FTP://Host.dom:21/%7euser/%2Fetc")
    assert str(url.normalize()) == "ftp://host.dom/%7Euser/%2Fetc"
    assert url.equivalent("ftp://host.dom/%7Euser/%2fetc")
    assert url.equivalent(rfc1738.parse("ftp://host.dom/%7Euser/%2fetc"))
    assert rfc1738.parse("ftp://me:pw@h.dom/").redacted() == "ftp://me:***@h.dom/"
    risky = rfc1738.parse("gopher://mail.dom:25/7x%09HELO%0D%0A")
    assert risky.security_warnings()[0]["kind"] == "foreign-port"
    assert all(w["security"] for w in risky.security_warnings())


def test_extract_finds_urls_with_character_offsets():
    text = "é see <URL:ftp://a.org/long-\n name> and http://b.org/x."
    found = rfc1738.extract(text)
    assert [m["url"] for m in found] == ["ftp://a.org/long-name", "http://b.org/x"]
    assert text[found[1]["start"] : found[1]["end"]] == "http://b.org/x"
    assert found[0]["form"] == "url-prefix" and found[1]["form"] == "bare"
    assert found[0]["hyphen_breaks"] == [16]


def test_builders_take_decoded_parts():
    from rfc1738 import build

    assert str(build.ftp("host.dom", cwd=["/etc"], name="motd")) == "ftp://host.dom/%2Fetc/motd"
    assert str(build.ftp("h.dom", name="x", typecode="i", user="me", password="a@b")) == "ftp://me:a%40b@h.dom/x;type=i"
    assert str(build.http("h.dom", path=["a b", "c"], search="q")) == "http://h.dom/a%20b/c?q"
    assert str(build.gopher("h.dom", type_="7", selector="s", search="rfc")) == "gopher://h.dom/7s%09rfc"
    assert str(build.mailto("a@b.dom")) == "mailto:a@b.dom"
    assert str(build.news(group="comp.lang.c")) == "news:comp.lang.c"
    assert str(build.news()) == "news:*"
    assert str(build.nntp("h.dom", "comp.lang.c", article=12)) == "nntp://h.dom/comp.lang.c/12"
    assert str(build.telnet("h.dom", user="guest")) == "telnet://guest@h.dom/"
    assert str(build.wais("h.dom", "db", search="x")) == "wais://h.dom/db?x"
    assert str(build.file(["etc", "motd"])) == "file:///etc/motd"
    assert str(build.prospero("h.dom", "a/b", fields=[("n", "v")])) == "prospero://h.dom/a/b;n=v"
    with pytest.raises(rfc1738.BuildError) as e:
        build.gopher("h.dom", selector="a\tb")
    assert e.value.part == "selector"
    with pytest.raises(rfc1738.BuildError):
        build.ftp("bad host")


def test_pct_round_trips():
    from rfc1738 import pct

    assert pct.encode("a/b c", "fsegment") == "a%2Fb%20c"
    assert pct.decode("a%2Fb") == b"a/b"
    assert pct.decode(pct.encode(b"\x00\xff/", "user")) == b"\x00\xff/"
    with pytest.raises(ValueError):
        pct.encode("x", "nowhere")
