"""docs/PYTHON.md's table of names: every cell run on one sample, each
binding held to the `Url` column (to `rfc1738.arrow` where the `Url` has
no such name). A name means one thing in every binding."""

import os
import pathlib
import re

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rfc1738
import rfc1738.pandas  # noqa: F401
import rfc1738.polars  # noqa: F401
from rfc1738 import arrow
from conftest import ROOT

BINDINGS = ["Url", "rfc1738.arrow", "pandas", "Polars", "SQL"]
# The library's committed sample of the bulk validator, and what it lacks:
# escapes in a login, each scheme's search, a null.
SAMPLE = [line for line in (ROOT / "crates/rfc1738/tests/bulk-sample.txt").read_text().splitlines()] + [
    "ftp://a%20b:p%41ss@h.dom:2121/x/y;type=i#f%20g",
    "http://h.dom/a%20b/c?x=1&y=%41#frag",
    "http://www.h.dom/a/b.tar.gz?x=a+b&x=2#f",
    "http://www.Example.CO.UK/",
    "ftp://a.b.example.com/",
    "wais://h.dom/db?x=1",
    "http://www.h.dom/",
    "gopher://h.dom/7s%09q%20r",
    "wais://h.dom/db?s",
    "mailto:a@b.dom",
    "news:comp.lang.c",
    "file:///etc/motd",
    "ftp://@h.dom/",
    "HTTP://H.DOM:80/",
    "z39.50:record",
    "http://user@h.dom/",
    # Strictly invalid, read with lenient=True (§2.2's unsafe "~", "_" in a host).
    "http://h.dom/~me/a?q#f",
    "ftp://my_user@my_host.dom:2121/~x",
    None,
]


def table():
    """The rows of the table: {name, meaning, and a cell a binding}."""
    text = (ROOT / "docs" / "PYTHON.md").read_text().split("### One name, one meaning\n", 1)[1]
    block = text[text.index("\n| ") + 1 :].split("\n\n", 1)[0]
    lines = block.splitlines()
    header = [c.strip().strip("`") for c in lines[0].strip("|").split("|")]
    assert header == ["name", "meaning", *BINDINGS], header
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = dict(zip(header, cells))
        for b in BINDINGS:
            code = re.fullmatch(r"`(.*)`", row[b])
            row[b] = code.group(1) if code else None
        rows.append(row)
    return rows


ROWS = table()


def plain(values):
    """pandas' and NumPy's missing values, scalars and arrays as Python's."""

    def one(v):
        if v is None or v is pd.NA:
            return None
        if hasattr(v, "tolist") and hasattr(v, "ndim") and v.ndim == 1:
            return [one(x) for x in v.tolist()]
        return v.item() if hasattr(v, "item") else v

    return [one(v) for v in values]


def run(binding, code, sample):
    """The cell `code` of `binding` on `sample`: one value a URL."""
    if binding == "Url":
        out = []
        for u in sample:
            if u is None:
                out.append(None)
            elif "(u)" in code:
                out.append(eval(code, {"rfc1738": rfc1738, "u": u}))
            else:
                url = rfc1738.parse(u) if rfc1738.is_valid(u) else None
                out.append(None if url is None else eval(code, {"url": url}))
        return out
    if binding == "rfc1738.arrow":
        return eval(code, {"arrow": arrow, "c": pa.array(sample, pa.string())}).to_pylist()
    if binding == "pandas":
        return plain(eval("s.rfc1738" + code, {"s": pd.Series(sample, dtype=object)}).tolist())
    if binding == "Polars":
        series = eval("s.rfc1738" + code, {"s": pl.Series("url", sample, dtype=pl.String)}).to_list()
        expr = eval('pl.col("url").rfc1738' + code, {"pl": pl})
        frame = pl.DataFrame({"url": pl.Series(sample, dtype=pl.String)}).select(expr.alias("v"))["v"].to_list()
        assert series == frame, code
        return series
    raise AssertionError(binding)


def oracle(row):
    binding = "Url" if row["Url"] else "rfc1738.arrow"
    return run(binding, row[binding], SAMPLE)


def same(got, want):
    # SQL's `rfc1738_part` answers text: a port's digits.
    return [None if g is None else str(g) for g in got] == [None if w is None else str(w) for w in want]


def test_the_table_names_every_binding_and_the_names_it_must():
    names = [r["name"].strip("`") for r in ROWS]
    for name in ["is_valid", "scheme", "kind", "user", "password", "host", "port", "effective_port", "path",
                 "http.path", "http.search", "search", "fragment", "normalize", "part(name)", "authority",
                 "cut_search", "cut_fragment", "extension", "host_without_www", "query_param(name)", "decode",
                 "public_suffix", "registrable_domain", "query_params", "segments", "lint",
                 "host(lenient=True)", "lint(lenient=True)"]:
        assert name in names, name
    for row in ROWS:
        for b in BINDINGS[1:]:
            assert row[b], f"{row['name']}: no {b}"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["name"].strip("`"))
@pytest.mark.parametrize("binding", ["rfc1738.arrow", "pandas", "Polars"])
def test_each_python_binding_means_what_the_table_says(row, binding):
    want = oracle(row)
    assert any(w not in (None, False) for w in want), "the sample says nothing of this name"
    got = run(binding, row[binding], SAMPLE)
    assert got == want, (row["name"], binding)


def sql_engines():
    import duckdb

    import rfc1738.datafusion
    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("t", pa.table({"i": range(len(SAMPLE)), "url": pa.array(SAMPLE, pa.string())}))
    engines = {"DuckDB": lambda q: [r[0] for r in con.sql(f"select {q} from t order by i").fetchall()]}
    import datafusion

    ctx = datafusion.SessionContext()
    rfc1738.datafusion.register(ctx)
    ctx.register_record_batches("t", [[pa.record_batch({"i": pa.array(range(len(SAMPLE))), "url": pa.array(SAMPLE, pa.string())})]])
    engines["DataFusion"] = lambda q: pa.Table.from_batches(ctx.sql(f"select {q} as v from t order by i").collect()).column("v").to_pylist()
    extension = os.environ.get("RFC1738_DUCKDB_EXTENSION") or str(ROOT / "target" / "duckdb" / "rfc1738.duckdb_extension")
    if pathlib.Path(extension).is_file():
        ext = duckdb.connect(config={"allow_unsigned_extensions": "true"})
        ext.execute(f"load '{extension}'")
        ext.register("t", pa.table({"i": range(len(SAMPLE)), "url": pa.array(SAMPLE, pa.string())}))
        engines["DuckDB extension"] = lambda q: [r[0] for r in ext.sql(f"select {q} from t order by i").fetchall()]
    return engines


@pytest.fixture(scope="module")
def engines():
    return sql_engines()


def is_lenient(sql):
    """Whether an SQL cell passes the optional `lenient` argument."""
    return sql.endswith(", true)")


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["name"].strip("`"))
def test_each_sql_engine_means_what_the_table_says(row, engines):
    want = oracle(row)
    for engine, query in engines.items():
        if engine == "DataFusion" and is_lenient(row["SQL"]):
            continue  # DataFusion's Python UDFs take one signature: strict only.
        got = query(row["SQL"])
        assert same(got, want), (row["name"], engine)


# The names that read no URL, and so take no `lenient`.
NOT_URLS = ("`decode`",)


def sql_leniently(sql, flag="true"):
    """An SQL cell's call with the `lenient` argument added."""
    return sql[:-1] + f", {flag})"


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["name"] not in NOT_URLS and "lenient" not in r["name"]], ids=lambda r: r["name"].strip("`")
)
def test_every_sql_function_reads_leniently_when_asked(row, engines):
    """`rfc1738_x(url, true)` is `arrow.x(c, lenient=True)`, in DuckDB
    through the package and in the extension; `false` is the default."""
    want = run("rfc1738.arrow", leniently(row["rfc1738.arrow"]), SAMPLE)
    strict = oracle(row)
    duckdbs = {e: q for e, q in engines.items() if e != "DataFusion"}
    assert "DuckDB extension" in duckdbs or not os.environ.get("RFC1738_DUCKDB_EXTENSION")
    for engine, query in duckdbs.items():
        assert same(query(sql_leniently(row["SQL"])), want), (row["name"], engine)
        assert same(query(sql_leniently(row["SQL"], "false")), strict), (row["name"], engine)


def test_lenient_is_a_row_s_own_boolean_and_null_gives_null(engines):
    """The argument is per row, as any SQL argument: a column of booleans
    reads each URL as its row says; a NULL `lenient` gives NULL."""
    lenient = [None if i % 3 == 2 else i % 3 == 0 for i in range(len(SAMPLE))]
    host = arrow.host(pa.array(SAMPLE), lenient=True).to_pylist()
    strict = arrow.host(pa.array(SAMPLE)).to_pylist()
    want = [None if f is None else h if f else s for f, h, s in zip(lenient, host, strict)]
    assert want != strict and want != host
    flag = "case i % 3 when 0 then true when 1 then false end"
    for engine, query in engines.items():
        if engine != "DataFusion":
            assert query(f"rfc1738_host(url, {flag})") == want, engine


def test_lenient_is_a_boolean_in_every_duckdb(engines):
    import duckdb

    for engine, query in engines.items():
        if engine == "DataFusion":
            continue
        with pytest.raises(duckdb.Error):
            query("rfc1738_host(url, 'x')")
        with pytest.raises(duckdb.Error):
            query("rfc1738_host(url, true, true)")


@pytest.mark.parametrize("row", [r for r in ROWS if r["name"] in ("`host`", "`port`", "`user`", "`path`")], ids=lambda r: r["name"])
def test_dask_runs_the_pandas_accessor_by_partition(row):
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(pd.DataFrame({"url": pd.Series(SAMPLE, dtype=object)}), npartitions=3)
    code = row["pandas"]
    got = ddf["url"].map_partitions(lambda s: eval("s.rfc1738" + code, {"s": s}), meta=("url", object)).compute()
    assert plain(got.tolist()) == oracle(row)


def test_the_names_are_the_same_in_every_binding():
    """The same name, not a synonym, in each binding's cell."""
    for row in ROWS:
        name = row["name"].strip("`")
        if "." in name or "(" in name:
            continue
        assert row["pandas"] == f".{name}()" and row["Polars"] == f".{name}()", name
        sql = {"is_valid": "valid"}.get(name, name)
        assert row["SQL"] == f"rfc1738_{sql}(url)", name


PARTS = ["scheme", "kind", "user", "password", "host", "port", "effective_port", "path", "http.path", "http.search", "search", "fragment"]


def leniently(code):
    """A cell's call with ``lenient=True`` added."""
    if code.endswith("()"):
        return code[:-1] + "lenient=True)"
    return code[:-1] + ", lenient=True)"


@pytest.mark.parametrize("row", [r for r in ROWS if r["name"].strip("`") in PARTS], ids=lambda r: r["name"].strip("`"))
@pytest.mark.parametrize("binding", ["rfc1738.arrow", "pandas", "Polars"])
def test_every_part_reads_leniently_when_asked(row, binding):
    if row["Url"]:
        want = []
        for u in SAMPLE:
            url = rfc1738.parse(u, lenient=True) if u is not None and rfc1738.is_valid(u, lenient=True) else None
            want.append(None if url is None else eval(row["Url"], {"url": url}))
    else:
        want = run("rfc1738.arrow", leniently(row["rfc1738.arrow"]), SAMPLE)
    got = run(binding, leniently(row[binding]), SAMPLE)
    assert got == want
    # The lenient reading gives more than the strict one, never less.
    strict = run(binding, row[binding], SAMPLE)
    assert all(s is None or s == g for s, g in zip(strict, got))
    assert sum(g is not None for g in got) > sum(s is not None for s in strict) or row["name"] in ("`password`", "`port`", "`http.search`", "`search`")


def test_help_names_each_kernel_by_its_public_name():
    import pydoc

    for name in arrow.__all__:
        f = getattr(arrow, name)
        if not callable(f) or name in ("Column", "Result"):
            continue
        text = pydoc.render_doc(f, renderer=pydoc.plaintext)
        assert f.__name__ == name and f"\n{name}(" in text and "arrow_" not in text, name
        assert "Array" in text or "pyarrow" in text or name in ("resolve",), name


def test_the_lists_in_each_python_binding():
    urls = ["http://h.dom/a/b.html?x=1&y=a+b&x=2", "ftp://h.dom/%2Fetc/motd;type=a", "http://h.dom", "mailto:a@b.dom", None]
    segments = [["a", "b.html"], ["%2Fetc", "motd"], None, None, None]
    params = [[{"name": "x", "value": "1"}, {"name": "y", "value": "a b"}, {"name": "x", "value": "2"}], None, None, None, None]
    c = pa.array(urls)
    assert arrow.segments(c).to_pylist() == segments
    assert arrow.query_params(c).to_pylist() == params
    s = pd.Series(urls, dtype=object)
    assert plain(s.rfc1738.segments().tolist())[2:] == [None] * 3
    assert [list(v) for v in s.rfc1738.segments().tolist()[:2]] == segments[:2]
    assert pl.Series(urls).rfc1738.segments().to_list() == segments
    assert pl.Series(urls).rfc1738.query_params().to_list() == params
    assert pl.DataFrame({"u": urls}).select(pl.col("u").rfc1738.segments())["u"].to_list() == segments


def test_the_warnings_beside_a_lenient_value_are_those_of_parse():
    """`lint(lenient=True)` lists what `arrow.parse(c, lenient=True)` gives
    as its warnings: the deviations forgiven and the §6 warnings, by offset."""
    c = pa.array(SAMPLE)
    parsed = arrow.parse(c, lenient=True).to_pylist()
    want = [None if p is None or not p["valid"] else [{k: w[k] for k in ("offset", "kind", "message")} for w in p["warnings"]] for p in parsed]
    got = arrow.lint(c, lenient=True).to_pylist()
    assert got == want
    assert any(w and any(x["kind"] == "unsafe-char" for x in w) for w in got)
    # The strict lint keeps its meaning: the §6 warnings alone.
    assert not any(w and any(x["kind"] == "unsafe-char" for x in w) for w in arrow.lint(c).to_pylist())
