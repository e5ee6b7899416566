"""The SQL functions give the same answers in DuckDB, DataFusion and Polars
as rfc1738.arrow, on the corpus (nulls included); so does the loadable
DuckDB extension (crates/rfc1738-duckdb), without Python's registration."""

import os
import pathlib

import pyarrow as pa
import pytest

from rfc1738 import sql
from conftest import ROOT, lines_of

NAMES = [f.name for f in sql.FUNCTIONS]
# The arguments after the URL of a function that takes more: a constant.
MORE = {"rfc1738_part": ["http.path"], "rfc1738_query_param": ["x"]}


def call(f, column, lenient=None):
    """`f`'s kernel on `column`, its other arguments the constants of MORE,
    and `lenient` (a column of it) when given."""
    more = [pa.array([v] * len(column), pa.string()) for v in MORE.get(f.name, [])]
    if lenient is not None:
        more.append(pa.array([lenient] * len(column), pa.bool_()))
    return f.kernel(column, *more)


def sql_call(name, url="url", lenient=None):
    more = [repr(v) for v in MORE.get(name, [])] + ([] if lenient is None else [str(lenient).lower()])
    return f"{name}({', '.join([url] + more)})"


@pytest.fixture(scope="module")
def column(corpus_files):
    """Every tenth line of the corpus, a few texts and CLF lines, and nulls."""
    urls = []
    for path in corpus_files:
        urls.extend(line.decode("utf-8", "replace") for line in lines_of(path)[::10])
    urls += [None, "see <URL:ftp://a.org/x> and http://b.org/.", 'h - - [d] "GET /a b HTTP/1.0" 200 1', None]
    return pa.array(urls, pa.string())


@pytest.fixture(scope="module")
def expected(column):
    return {f.name: call(f, column).to_pylist() for f in sql.FUNCTIONS}


def test_duckdb(column, expected):
    duckdb = pytest.importorskip("duckdb")
    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    assert_duckdb_gives(con, column, expected)


def arrow_of(result):
    """A DuckDB result as an Arrow table, in every duckdb version."""
    return result.to_arrow_table() if hasattr(result, "to_arrow_table") else result.fetch_arrow_table()


def assert_duckdb_gives(con, column, expected):
    """Every function, called in `con` on `column`, gives `expected`."""
    table = pa.table({"i": pa.array(range(len(column))), "url": column})
    con.register("t", table)
    calls = ", ".join(f"{sql_call(n)} as {n}" for n in NAMES)
    got = arrow_of(con.sql(f"select {calls} from t order by i"))
    for name in NAMES:
        assert got.column(name).to_pylist() == expected[name], name


def test_datafusion(column, expected):
    datafusion = pytest.importorskip("datafusion")
    import rfc1738.datafusion

    ctx = datafusion.SessionContext()
    rfc1738.datafusion.register(ctx)
    ctx.register_record_batches("t", [[pa.record_batch({"i": pa.array(range(len(column))), "url": column})]])
    calls = ", ".join(f"{sql_call(n)} as {n}" for n in NAMES)
    got = pa.Table.from_batches(ctx.sql(f"select {calls} from t order by i").collect())
    for name in NAMES:
        assert got.column(name).to_pylist() == expected[name], name


def test_polars(column, expected):
    pl = pytest.importorskip("polars")
    import rfc1738.polars  # noqa: F401

    df = pl.DataFrame({"url": pl.Series(column)})
    methods = {
        "rfc1738_valid": "is_valid",
        **{n: n.removeprefix("rfc1738_") for n in NAMES if n != "rfc1738_valid"},
    }
    out = df.select([getattr(pl.col("url").rfc1738, m)(*MORE.get(n, [])).alias(n) for n, m in methods.items()])
    for name in NAMES:
        assert out[name].to_list() == expected[name], name


def test_names_and_results():
    f = sql.BY_NAME
    col = pa.array(["ftp://u@h.dom:2121/x", "http://a.dom/a b", None])
    assert f["rfc1738_valid"].kernel(col).to_pylist() == [True, False, None]
    assert f["rfc1738_port"].kernel(col).to_pylist() == [2121, None, None]
    assert f["rfc1738_effective_port"].kernel(pa.array(["http://h.dom/", "http://h.dom:81/"])).to_pylist() == [80, 81]
    assert f["rfc1738_port"].kernel(pa.array(["http://h.dom/", "http://h.dom:81/"])).to_pylist() == [None, 81]
    names = pa.array(["ftp.typecode", "port", None])
    assert f["rfc1738_part"].kernel(pa.array(["ftp://h.dom/x;type=i", "ftp://h.dom:21/", "ftp://h.dom/"]), names).to_pylist() == ["i", "21", None]
    assert f["rfc1738_user"].kernel(col).to_pylist() == ["u", None, None]
    errors = f["rfc1738_error"].kernel(col).to_pylist()
    assert errors[0] is None and errors[1]["kind"] == "unsafe" and errors[2] is None


def test_a_missing_extra_names_it(monkeypatch):
    import builtins
    import importlib
    import sys

    real = builtins.__import__

    def no_duckdb(name, *args, **kwargs):
        if name == "duckdb":
            raise ImportError("No module named 'duckdb'")
        return real(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "rfc1738.duckdb", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_duckdb)
    with pytest.raises(ImportError, match=r"pip install 'rfc1738\[duckdb\]'"):
        importlib.import_module("rfc1738.duckdb")


# The loadable extension (crates/rfc1738-duckdb): the same functions in
# DuckDB without Python. scripts/test-python builds it and names it here.
EXTENSION = os.environ.get("RFC1738_DUCKDB_EXTENSION") or str(ROOT / "target" / "duckdb" / "rfc1738.duckdb_extension")


@pytest.fixture(scope="module")
def extension_con():
    duckdb = pytest.importorskip("duckdb")
    if not pathlib.Path(EXTENSION).is_file():
        pytest.skip(f"no DuckDB extension at {EXTENSION}: run scripts/build-duckdb-extension")
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"load '{EXTENSION}'")
    return con


def signatures(con):
    rows = con.sql(
        "select function_name, parameter_types, varargs, return_type from duckdb_functions() "
        "where function_name like 'rfc1738_%' and function_type = 'scalar' order by all"
    ).fetchall()
    return [(name, list(params), varargs, returns) for name, params, varargs, returns in rows]


def test_duckdb_extension_has_the_same_functions(extension_con):
    """The same names, arguments and result types. A function that reads a
    URL takes `lenient BOOLEAN` last, optional: an overload in the
    extension; in Python's registration, whose `create_function` takes one
    signature a name, its kernel reads it from `*args` (checked there)."""
    import duckdb

    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    python = {(n, tuple(p), r) for n, p, _, r in signatures(con)}
    extension = signatures(extension_con)
    want = set()
    for f in sql.FUNCTIONS:
        args = tuple("VARCHAR" for _ in f.args)
        returns = [r for n, _, _, r in extension if n == f.name][0]
        want.add((f.name, args, returns))
        if f.lenient:
            want.add((f.name, args + ("BOOLEAN",), returns))
    assert {(n, tuple(p), r) for n, p, _, r in extension} == want
    assert python == {w for w in want if "BOOLEAN" not in w[1]}
    assert {n for n, _, v, _ in signatures(con) if v == "ANY"} == {f.name for f in sql.FUNCTIONS if f.lenient}
    assert sorted({s[0] for s in extension}) == sorted(NAMES)


LENIENT = [f for f in sql.FUNCTIONS if f.lenient]


def test_every_function_that_reads_a_url_takes_lenient():
    assert {f.name for f in sql.FUNCTIONS if not f.lenient} == {"rfc1738_decode", "rfc1738_extract", "rfc1738_clf_url"}


@pytest.mark.parametrize("where", ["python", "extension"])
def test_lenient_in_duckdb_on_the_corpus(where, column, request):
    """`rfc1738_x(url, true)` is the kernel read leniently; each part is
    `rfc1738.arrow.<part>(column, lenient=True)`."""
    import duckdb

    if where == "extension":
        con = request.getfixturevalue("extension_con")
    else:
        import rfc1738.duckdb

        con = duckdb.connect()
        rfc1738.duckdb.register(con)
    con.register("t", pa.table({"i": pa.array(range(len(column))), "url": column}))
    calls = ", ".join(f"{sql_call(f.name, lenient=True)} as {f.name}" for f in LENIENT)
    got = arrow_of(con.sql(f"select {calls} from t order by i"))
    for f in LENIENT:
        assert got.column(f.name).to_pylist() == call(f, column, lenient=True).to_pylist(), f.name
    from rfc1738 import arrow

    for part in ["scheme", "user", "password", "host", "port", "effective_port", "path", "search", "fragment",
                 "authority", "extension", "host_without_www", "segments", "query_params", "normalize"]:
        want = getattr(arrow, part)(column, lenient=True).to_pylist()
        assert got.column(f"rfc1738_{part}").to_pylist() == want, part
    strict = arrow_of(con.sql("select rfc1738_host(url) as h from t order by i")).column("h")
    assert got.column("rfc1738_host").null_count < strict.null_count


def test_duckdb_extension(extension_con, column, expected):
    assert_duckdb_gives(extension_con, column, expected)


def test_duckdb_extension_on_constants_and_nulls(extension_con):
    urls = ["ftp://u@h.dom:2121/x", "http://a.dom/a b", None, "telnet://h.dom", "http://user:pw@h/"]
    col = pa.array(urls, pa.string())
    for f in sql.FUNCTIONS:
        want = call(f, col).to_pylist()
        got = [extension_con.execute(f"select {sql_call(f.name, '?')}", [u]).fetchall()[0][0] for u in urls]
        assert got == want, f.name


def test_the_readme_duckdb_shell_example(extension_con):
    """The query of docs/PYTHON.md's "DuckDB without Python" prints the table shown there."""
    import re

    readme = (ROOT / "docs" / "PYTHON.md").read_text().split("### DuckDB without Python\n", 1)[1]
    shell = re.findall(r"```text\n\$ (duckdb .*?)```", readme, re.S)[0]
    query = re.search(r"LOAD '[^']*';(.*?)\"\n", shell, re.S).group(1)
    lines = shell.splitlines()
    body = lines[next(i for i, line in enumerate(lines) if line.startswith("├")) + 1 :]
    shown = [[cell.strip() for cell in line.split("│")[1:-1]] for line in body if line.startswith("│")]

    def cell(v):
        return "NULL" if v is None else str(v).lower() if isinstance(v, bool) else str(v)

    assert [[cell(v) for v in row] for row in extension_con.sql(query).fetchall()] == shown



# Run in a process of its own: memory freed by earlier tests and kept by
# the allocator would hide the growth.
PEAK = r"""
import sys, duckdb
where, extension = sys.argv[1], sys.argv[2]
def kib(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field))
if where == "extension":
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"load '{extension}'")
else:
    import rfc1738.duckdb
    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.execute("select rfc1738_extract('http://h.dom/')").fetchall()
con.execute("set threads=1")
# One 10 MB value with a URL every 42 bytes.
unit = "some words, then http://h.dom/a/b?c and ftp://f.dom/x;type=i, and more words here..\n"
con.execute(f"create table t as select repeat('{unit}', {10_000_000 // len(unit)}) as v")
size = con.execute("select strlen(v) from t").fetchone()[0]
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets the peak resident set (Linux)
except OSError:
    sys.exit(3)
before = kib("VmRSS:")
found = con.execute("select len(rfc1738_extract(v)) from t").fetchone()[0]
print(found, (kib("VmHWM:") - before) / size)
"""


@pytest.mark.parametrize("where", ["extension", "python"])
def test_extract_of_one_long_value_stays_within_a_few_times_it(where):
    import subprocess
    import sys

    pytest.importorskip("duckdb")
    if where == "extension" and not pathlib.Path(EXTENSION).is_file():
        pytest.skip(f"no DuckDB extension at {EXTENSION}")
    run = subprocess.run([sys.executable, "-c", PEAK, where, EXTENSION], capture_output=True, text=True)
    if run.returncode == 3:  # pragma: no cover
        pytest.skip("no /proc/self/clear_refs to reset the peak")
    assert run.returncode == 0, run.stderr
    found, grown = run.stdout.split()
    assert int(found) == 2 * (10_000_000 // 84)  # two URLs in each 84-byte unit
    # The extension writes each URL into DuckDB's list as it finds it
    # (about 1.1 times the text; 2.75 when it listed them first); the
    # Python registration goes through Arrow: DuckDB's copy of the text
    # into Arrow, the answer's columns, and DuckDB's copy of them back
    # (about 4 times).
    assert float(grown) < (2 if where == "extension" else 5), grown


@pytest.mark.parametrize("where", ["python", "extension"])
def test_lenient_row_by_row_in_every_function(where, column, request):
    """A column of flags: each row read as its own says (true, false,
    NULL: a NULL result), in every function that takes `lenient`."""
    import duckdb

    if where == "extension":
        con = request.getfixturevalue("extension_con")
    else:
        import rfc1738.duckdb

        con = duckdb.connect()
        rfc1738.duckdb.register(con)
    urls = pa.concat_arrays([column.slice(0, 400), pa.array(["http://h.dom/~me?x=1", 'h - - [d] "GET /~a HTTP/1.0" 200 1', None])])
    flags = pa.array([None if i % 5 == 4 else i % 2 == 0 for i in range(len(urls))])
    con.register("m", pa.table({"i": pa.array(range(len(urls))), "url": urls, "f": flags}))
    for f in LENIENT:
        lenient, strict = call(f, urls, lenient=True).to_pylist(), call(f, urls, lenient=False).to_pylist()
        want = [None if g is None else a if g else b for g, a, b in zip(flags.to_pylist(), lenient, strict)]
        got = [r[0] for r in con.sql(f"select {sql_call(f.name, lenient='f')} from m order by i").fetchall()]
        if f.returns == pa.timestamp("us", tz="UTC"):
            got = [None if g is None else g.timestamp() for g in got]
            want = [None if w is None else w.timestamp() for w in want]
        assert got == want, f.name
