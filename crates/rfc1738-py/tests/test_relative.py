"""Url.resolve, Url.make_relative, rfc1738.arrow.resolve (RFC 1808) and
Url.replace (the builders), beside the command where it has the same."""

import json
import subprocess

import pyarrow as pa
import pytest

import rfc1738
from rfc1738 import arrow

from conftest import ROOT

# The cases `rfc1738 set` answers too (crates/rfc1738-cli/tests/cli.rs).
SET_CASES = [json.loads(line) for line in (ROOT / "crates/rfc1738-cli/tests/fixtures/set-cases.jsonl").read_text().splitlines() if line.strip()]

BASE = "http://a/b/c/d;p?q#f"
# RFC 1808 §5.1 and §5.2, as `rfc1738 resolve` gives them.
REFERENCES = ["g", "./g", "g/", "/g", "?y", "g?y", "#s", "g#s", ";x", "", ".", "./", "..", "../", "../g", "../..", "../../g", "../../../g", "g.", "..g", "./../g", "g/./h", "g/../h"]


def test_resolve_is_the_commands(rfc1738_bin):
    run = subprocess.run([rfc1738_bin, "resolve", BASE, *REFERENCES], capture_output=True, text=True, check=True)
    expected = run.stdout.splitlines()
    base = rfc1738.parse(BASE)
    assert [str(base.resolve(r)) for r in REFERENCES] == expected
    assert arrow.resolve(base, pa.array(REFERENCES)).to_pylist() == expected
    assert arrow.resolve(BASE, pa.chunked_array([REFERENCES[:3], REFERENCES[3:]])).to_pylist() == expected


def test_resolve_errors_say_where_and_why():
    base = rfc1738.parse("ftp://ftp.dom/pub/dir/index;type=a")
    assert str(base.resolve("../file.txt")) == "ftp://ftp.dom/pub/file.txt"
    with pytest.raises(rfc1738.ResolveError) as e:
        base.resolve("a b")
    assert isinstance(e.value, ValueError)
    assert (e.value.offset, e.value.kind, e.value.reference, e.value.resolved) == (1, "invalid-char", "a b", None)
    with pytest.raises(rfc1738.ResolveError) as e:
        rfc1738.parse("http://a/b/c/d;p?q").resolve("http:g")
    assert e.value.kind == "not-rfc1738" and e.value.resolved == "http:g"
    with pytest.raises(rfc1738.ResolveError) as e:
        rfc1738.parse("mailto:a@b.dom").resolve("x")
    assert e.value.kind == "not-hierarchical"
    with pytest.raises(rfc1738.ResolveError):
        arrow.resolve("news:comp.lang.c", pa.array(["x"]))
    assert arrow.resolve(BASE, pa.array(["a b", None, "g"])).to_pylist() == [None, None, "http://a/b/c/g"]


def test_make_relative_is_the_commands(rfc1738_bin):
    base = rfc1738.parse("http://a/b/c/d;p?q")
    for target in ["http://a/b/g", "http://a/b/c/d;p?y", "http://x/y", "ftp://a/b"]:
        run = subprocess.run([rfc1738_bin, "relative", str(base), target], capture_output=True, text=True, check=True)
        reference = base.make_relative(target)
        assert reference == run.stdout.strip()
        assert str(base.resolve(reference)) == target
        assert base.make_relative(rfc1738.parse(target)) == reference
    assert rfc1738.parse("mailto:a@b.dom").make_relative("mailto:c@d.dom") is None


def test_replace_rebuilds_through_the_builders():
    url = rfc1738.parse("ftp://me:pw@h.dom/pub/%2Fx/file;type=i")
    assert str(url.replace(host="other.dom", port=2121)) == "ftp://me:pw@other.dom:2121/pub/%2Fx/file;type=i"
    assert str(url.replace(user="a@b", password=None)) == "ftp://a%40b@h.dom/pub/%2Fx/file;type=i"
    assert str(url.replace(cwd=["/etc"], name="motd", typecode=None)) == "ftp://me:pw@h.dom/%2Fetc/motd"
    assert str(rfc1738.parse("http://h.dom/a%20b?q").replace(search="x y")) == "http://h.dom/a%20b?x%20y"
    assert str(rfc1738.parse("http://h.dom/").replace(path=["a/b", "c"])) == "http://h.dom/a%2Fb/c"
    assert str(rfc1738.parse("gopher://h.dom/7x%09y").replace(search="z")) == "gopher://h.dom/7x%09z"
    assert str(rfc1738.parse("mailto:a@b.dom").replace(address="c@d.dom")) == "mailto:c@d.dom"
    assert str(rfc1738.parse("news:comp.lang.c").replace(group="comp.lang.d")) == "news:comp.lang.d"
    assert str(rfc1738.parse("nntp://h.dom/g/1").replace(article=2)) == "nntp://h.dom/g/2"
    assert str(rfc1738.parse("telnet://u@h.dom/").replace(user="v")) == "telnet://v@h.dom/"
    assert str(rfc1738.parse("wais://h.dom/db?x").replace(database="d2")) == "wais://h.dom/d2?x"
    assert str(rfc1738.parse("file://h.dom/etc/motd").replace(host="")) == "file:///etc/motd"
    assert str(rfc1738.parse("prospero://h.dom/a;n=v").replace(fields=[])) == "prospero://h.dom/a"
    assert str(rfc1738.parse("z39.50s://h.dom/x").replace(port=210)) == "z39.50s://h.dom:210/x"
    for text in ["ftp://h.dom/a/b;type=d", "http://h.dom/p/q?s", "gopher://h.dom/1sel", "wais://h.dom/db/t/p", "file:///a/b", "prospero://h.dom/x;a=b"]:
        url = rfc1738.parse(text)
        assert url.replace() == url, text


def test_replace_errors_name_the_part():
    url = rfc1738.parse("gopher://h.dom/1x")
    with pytest.raises(rfc1738.BuildError) as e:
        url.replace(selector="a\tb")
    assert e.value.part == "selector"
    with pytest.raises(rfc1738.BuildError) as e:
        url.replace(host="bad host")
    assert e.value.part == "host"
    with pytest.raises(TypeError, match="no part 'user'"):
        rfc1738.parse("http://h.dom/").replace(user="me")
    with pytest.raises(TypeError):
        rfc1738.parse("z39.50:record").replace(host="h")


@pytest.mark.parametrize("case", SET_CASES, ids=lambda c: f"{c['url']} {' '.join(c['set'])}")
def test_replace_answers_as_set_does(case, rfc1738_bin):
    url = rfc1738.parse(case["url"])
    run = subprocess.run([rfc1738_bin, "set", case["url"], *case["set"]], capture_output=True, text=True)
    if "expect" in case:
        assert str(url.replace(**case["replace"])) == case["expect"]
        assert run.stdout.strip() == case["expect"]
    else:
        with pytest.raises((rfc1738.BuildError, TypeError)) as e:
            url.replace(**case["replace"])
        assert getattr(e.value, "part", None) == case["error"] or repr(case["error"]) in str(e.value)
        assert run.returncode == 1 and case["error"] in run.stderr


def test_replace_keeps_the_fragment_and_sets_or_clears_it():
    url = rfc1738.parse("http://www.h.dom/a/b.html?x=1#f")
    assert str(url.replace(host="x.dom")) == "http://x.dom/a/b.html?x=1#f"
    assert url.replace(host="x.dom").fragment == "f"
    assert str(url.replace(fragment=None)) == "http://www.h.dom/a/b.html?x=1"
    assert str(url.replace(fragment="")) == "http://www.h.dom/a/b.html?x=1#"
    assert str(url.replace(fragment=b"a b")) == "http://www.h.dom/a/b.html?x=1#a%20b"
    assert url.replace() == url
    assert str(rfc1738.parse("http://h.dom:99999/x").replace(search="q")) == "http://h.dom:99999/x?q"
    assert str(rfc1738.parse("http://h.dom:99999/x").replace(port=80)) == "http://h.dom:80/x"


@pytest.mark.parametrize(
    "text, parts, says",
    [
        ("http://h.dom/", {"path": "c"}, "argument 'path': expected a list of segments (str or bytes), not str"),
        ("http://h.dom/", {"path": [1]}, "argument 'path': expected each segment str or bytes, not int"),
        ("http://h.dom/", {"port": "80"}, "argument 'port': expected an int from 0 to 65535, not str"),
        ("http://h.dom/", {"search": 3}, "argument 'search': expected str or bytes, not int"),
        ("http://h.dom/", {"host": b"h"}, "argument 'host': expected str, not bytes"),
        ("http://h.dom/", {"fragment": 1}, "argument 'fragment': expected str, bytes or None, not int"),
        ("ftp://h.dom/", {"cwd": b"a"}, "argument 'cwd': expected a list of segments (str or bytes), not bytes"),
        ("nntp://h.dom/g", {"article": "2"}, "argument 'article': expected a non-negative int, not str"),
        ("prospero://h.dom/a", {"fields": ["ab"]}, "argument 'fields': expected a list of (name, value) pairs, not str"),
    ],
)
def test_replace_and_the_builders_say_what_a_part_takes(text, parts, says):
    with pytest.raises(TypeError) as e:
        rfc1738.parse(text).replace(**parts)
    assert str(e.value) == says
    assert "extract" not in str(e.value)


def test_a_port_out_of_range_is_a_value_error():
    with pytest.raises(ValueError, match="70000 is no port"):
        rfc1738.build.http("h.dom", port=70000)


@pytest.mark.parametrize("value", [42, None, 1.5, ["http://h.dom/"]])
def test_is_valid_refuses_what_is_not_text(value):
    with pytest.raises(TypeError, match="a URL is str or bytes"):
        rfc1738.is_valid(value)
    with pytest.raises(TypeError, match="a URL is str or bytes"):
        rfc1738.is_valid(value, lenient=True)
