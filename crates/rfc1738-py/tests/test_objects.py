"""Urls, views and errors as Python values: pickle, copy, hash, classes,
the names of the stubs."""

import ast
import copy
import pathlib
import pickle

import pytest

import rfc1738

PACKAGE = pathlib.Path(rfc1738.__file__).parent
VIEWS = {
    "ftp://h.dom/x": rfc1738.FtpView,
    "http://h.dom/p?q": rfc1738.HttpView,
    "gopher://h.dom/7search%09rfc": rfc1738.GopherView,
    "mailto:a@b.dom": rfc1738.MailtoView,
    "news:comp.lang.c": rfc1738.NewsView,
    "nntp://h.dom/comp.lang.c/12": rfc1738.NntpView,
    "telnet://h.dom/": rfc1738.TelnetView,
    "wais://h.dom/db?x": rfc1738.WaisView,
    "file:///etc/motd": rfc1738.FileView,
    "prospero://h.dom/a;n=v": rfc1738.ProsperoView,
    "z39.50:record": rfc1738.OtherView,
}


def round_trips(value):
    """Pickled (every protocol), copied and deep-copied: equal, same hash."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(value, protocol))
        assert again == value and hash(again) == hash(value), protocol
        assert type(again) is type(value)
    for again in (copy.copy(value), copy.deepcopy(value)):
        assert again == value and hash(again) == hash(value)


@pytest.mark.parametrize("text", list(VIEWS))
def test_urls_and_their_views_pickle_copy_and_hash(text):
    url = rfc1738.parse(text)
    round_trips(url)
    view = getattr(url, url.kind)
    round_trips(view)
    assert pickle.loads(pickle.dumps(view)).to_dict() == view.to_dict()


def test_lenient_urls_stay_lenient_through_pickle_and_copy():
    url = rfc1738.parse("http://my_host.dom/~me", lenient=True)
    round_trips(url)
    again = pickle.loads(pickle.dumps(url))
    assert again.is_lenient and again.warnings == url.warnings
    assert copy.copy(url).is_lenient and copy.deepcopy(url.http) == url.http
    assert pickle.loads(pickle.dumps(url.http)).path == "~me"
    assert pickle.loads(pickle.dumps(url.normalize())) == url.normalize()


def test_each_view_is_its_own_class():
    for text, cls in VIEWS.items():
        view = getattr(rfc1738.parse(text), cls.__name__[:-4].lower())
        assert type(view) is cls and isinstance(view, rfc1738.View)
        others = [c for c in VIEWS.values() if c is not cls]
        assert not any(isinstance(view, c) for c in others), text
        assert repr(view).startswith(cls.__name__ + "(")
    assert not isinstance(rfc1738.parse("http://h.dom/").http, rfc1738.FtpView)
    assert rfc1738.parse("gopher://h.dom/1x").gopher.type == "1"
    assert rfc1738.parse("ftp://h.dom/x").ftp != rfc1738.parse("ftp://h.dom/y").ftp
    assert rfc1738.parse("ftp://h.dom/x").ftp == rfc1738.parse("ftp://other.dom/x").ftp


def test_parse_errors_pickle_and_keep_their_attributes():
    with pytest.raises(rfc1738.ParseError) as e:
        rfc1738.parse("http://user@host.dom/")
    again = pickle.loads(pickle.dumps(e.value))
    assert type(again) is rfc1738.ParseError
    assert (again.offset, again.kind, again.rule, again.input) == (7, "user-not-allowed", "login", "http://user@host.dom/")
    assert str(again) == str(e.value)
    assert rfc1738.ParseError.__module__ == "rfc1738"


def stub_names(path):
    """The public names a stub file defines at its top level."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.module == "rfc1738":
            names.update(a.asname for a in node.names if a.asname)
    return {n for n in names if n != "__all__"}


@pytest.mark.parametrize("stub", sorted(p.name for p in PACKAGE.glob("*.pyi")))
def test_every_name_of_the_stubs_is_importable(stub):
    import importlib

    module = "rfc1738" if stub == "__init__.pyi" else f"rfc1738.{stub[:-4]}"
    runtime = importlib.import_module(module)
    names = stub_names(PACKAGE / stub)
    assert names
    missing = sorted(n for n in names if not hasattr(runtime, n))
    assert not missing, f"{module} lacks {missing}"


def test_the_version_is_the_packages():
    from importlib.metadata import version

    assert rfc1738.__version__ == version("rfc1738")
