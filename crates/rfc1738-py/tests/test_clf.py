"""One log, one answer: the command (`rfc1738 check --input-format clf`), the
SQL example and the `rfc1738_clf_*` functions of every engine (DuckDB,
the DuckDB extension, DataFusion, Polars), `rfc1738.clf` and the Dask
reader count the same lines valid and invalid under the same schemes, on
the committed sample log (tests/data/access.log: paths, absolute URLs,
CONNECT, `OPTIONS *`, `"-"`, lines of no log, Combined referers valid,
invalid, relative and `"-"`), compressed in each way the command reads."""

import doctest
import gzip
import importlib.util
import json
import os
import subprocess
import zlib

import pyarrow as pa
import pytest

import rfc1738.clf
from conftest import ROOT

DATA = ROOT / "crates" / "rfc1738-py" / "tests" / "data"
LOG = DATA / "access.log"
EXAMPLE = ROOT / "crates" / "rfc1738-py" / "examples" / "access_log_sql.py"


def summary(binary, *args):
    run = subprocess.run(
        # Every kind of error listed (`--top`), for the engines' counts.
        [binary, "check", "--input-format", "clf", "--json", "--quiet", "--summary", "--top", "100", *args],
        capture_output=True,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)["summary"]


def table(rows):
    return {r["scheme"]: (r["valid"], r["invalid"]) for r in rows}


@pytest.fixture(scope="module")
def command(rfc1738_bin):
    return summary(rfc1738_bin, str(LOG))


def lines():
    return [line for line in LOG.read_text().splitlines() if line]


def test_the_sample_log_has_every_shape(command):
    schemes = table(command["schemes"])
    assert {"http", "ftp", "*", "(no request)", "(not clf)"} <= set(schemes)
    assert command["valid"] > 0 and command["invalid"] > 0
    assert {"http", "(no scheme)"} <= set(table(command["referers"]))


def test_the_sql_example_counts_as_the_command(command):
    duckdb = pytest.importorskip("duckdb")
    spec = importlib.util.spec_from_file_location("access_log_sql", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("log", pa.table({"line": pa.array(example.read_lines(LOG), pa.string())}))
    assert example.by_scheme(con) == table(command["schemes"])


BY_SCHEME = """
    select rfc1738_clf_scheme(line) as scheme,
           count(*) filter (where rfc1738_clf_valid(line)) as valid,
           count(*) filter (where not rfc1738_clf_valid(line)) as invalid
    from log group by all
"""
REFERERS = """
    select rfc1738_clf_referer_scheme(line) as scheme,
           count(*) filter (where rfc1738_clf_referer_valid(line)) as valid,
           count(*) filter (where not rfc1738_clf_referer_valid(line)) as invalid
    from log where rfc1738_clf_referer(line) is not null group by all
"""
ERRORS = """
    select rfc1738_clf_error(line)['kind'] as kind, count(*) as n from log
    where rfc1738_clf_error(line) is not null group by all
"""


def rows(result):
    return {r[0]: tuple(r[1:]) for r in result}


def duckdb_python():
    duckdb = pytest.importorskip("duckdb")
    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("log", pa.table({"line": lines()}))
    return lambda q: rows(con.sql(q).fetchall())


def duckdb_extension():
    duckdb = pytest.importorskip("duckdb")
    path = os.environ.get("RFC1738_DUCKDB_EXTENSION")
    if not path:
        pytest.skip("RFC1738_DUCKDB_EXTENSION is not set (scripts/test-python sets it)")
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{path}'")
    con.register("log", pa.table({"line": lines()}))
    return lambda q: rows(con.sql(q).fetchall())


def datafusion():
    datafusion = pytest.importorskip("datafusion")
    import rfc1738.datafusion

    ctx = datafusion.SessionContext()
    rfc1738.datafusion.register(ctx)
    ctx.register_record_batches("log", [pa.table({"line": lines()}).to_batches()])

    def run(q):
        # DataFusion has no `group by all`.
        q = q.replace("group by all", "group by 1")
        return rows(zip(*ctx.sql(q).to_pydict().values()))

    return run


def polars():
    pl = pytest.importorskip("polars")
    import rfc1738.polars  # noqa: F401

    df = pl.DataFrame({"line": lines()})

    def run(q):
        c = pl.col("line").rfc1738
        if q is BY_SCHEME:
            out = df.group_by(c.clf_scheme().alias("scheme")).agg(
                c.clf_valid().sum().alias("valid"), (~c.clf_valid()).sum().alias("invalid")
            )
        elif q is REFERERS:
            out = (
                df.filter(c.clf_referer().is_not_null())
                .group_by(c.clf_referer_scheme().alias("scheme"))
                .agg(c.clf_referer_valid().sum().alias("valid"), (~c.clf_referer_valid()).sum().alias("invalid"))
            )
        else:
            out = (
                df.select(c.clf_error().struct.field("kind"))
                .drop_nulls()
                .group_by("kind")
                .agg(pl.len().alias("n"))
            )
        return rows(out.iter_rows())

    return run


@pytest.mark.parametrize("engine", [duckdb_python, duckdb_extension, datafusion, polars])
def test_every_engine_counts_as_the_command(engine, command):
    run = engine()
    assert run(BY_SCHEME) == table(command["schemes"])
    assert run(REFERERS) == table(command["referers"])
    errors = {}
    for e in command["errors"]:
        errors[e["kind"]] = errors.get(e["kind"], 0) + e["count"]
    assert {k: n for k, (n,) in run(ERRORS).items()} == errors


def test_a_path_is_valid_as_the_command_says_not_as_a_url():
    duckdb = pytest.importorskip("duckdb")
    import rfc1738.duckdb

    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    line = '1.2.3.4 - - [d] "GET /index.html HTTP/1.0" 200 1'
    got = con.sql(
        f"select rfc1738_clf_valid('{line}'), rfc1738_clf_scheme('{line}'), rfc1738_valid(rfc1738_clf_url('{line}'))"
    ).fetchall()
    assert got == [(True, "http", False)]
    assert con.sql("select rfc1738_clf_valid(null), rfc1738_clf_error(null)").fetchall() == [(None, None)]


def test_rfc1738_clf_reads_as_the_command(command):
    for report in (rfc1738.clf.check_file(LOG), rfc1738.clf.check_log(LOG.read_bytes())):
        assert {k: (v["valid"], v["invalid"]) for k, v in report["by_scheme"].items()} == table(command["schemes"])
        assert {k: (v["valid"], v["invalid"]) for k, v in report["referers"].items()} == table(command["referers"])
        assert (report["lines"], report["valid"], report["invalid"]) == (
            command["checked"],
            command["valid"],
            command["invalid"],
        )
    checked = rfc1738.clf.check(pa.array(lines())).to_pylist()
    assert sum(r["valid"] for r in checked) == command["valid"]


def test_rfc1738_clf_reads_leniently_as_the_command_does(rfc1738_bin):
    command = summary(rfc1738_bin, "--lenient", str(LOG))
    strict = summary(rfc1738_bin, str(LOG))
    assert command["valid"] > strict["valid"], "the sample log has lines only a lenient check takes"
    for report in (rfc1738.clf.check_file(LOG, lenient=True), rfc1738.clf.check_log(LOG.read_bytes(), lenient=True)):
        assert {k: (v["valid"], v["invalid"]) for k, v in report["by_scheme"].items()} == table(command["schemes"])
        assert (report["lines"], report["valid"], report["invalid"]) == (
            command["checked"],
            command["valid"],
            command["invalid"],
        )
    checked = rfc1738.clf.check(pa.array(lines()), lenient=True).to_pylist()
    assert sum(r["valid"] for r in checked) == command["valid"]
    reader = pytest.importorskip("rfc1738.dask")
    report = reader.check_file(str(LOG), lenient=True)
    assert (report["lines"], report["valid"]) == (command["checked"], command["valid"])


def test_every_field_of_a_line_is_in_the_struct(rfc1738_bin):
    run = subprocess.run([rfc1738_bin, "check", "--input-format", "clf", "--json", str(LOG)], capture_output=True)
    records = [json.loads(x) for x in run.stdout.splitlines() if x]
    checked = rfc1738.clf.check(pa.array(lines())).to_pylist()
    assert len(records) == len(checked)
    fields = ("client", "ident", "user", "time", "time_iso", "method", "target", "protocol", "status", "bytes", "user_agent")
    for command, python in zip(records, checked):
        assert {k: python[k] for k in fields} == {k: command[k] for k in fields}
    assert any(r["client"] for r in checked) and any(r["timestamp"] for r in checked)


@pytest.mark.parametrize("name", ["access.log.gz", "access.log.zst", "access.log.bz2", "access.log.xz"])
def test_a_compressed_log_reads_as_the_plain_one(name):
    plain = rfc1738.clf.check_file(LOG)
    for report in (rfc1738.clf.check_file(DATA / name), rfc1738.clf.check_log((DATA / name).read_bytes())):
        assert report["invalid_lines"] == plain["invalid_lines"]
        assert (report["lines"], report["by_scheme"], report["referers"]) == (
            plain["lines"],
            plain["by_scheme"],
            plain["referers"],
        )


def test_several_gzip_members_are_one_log(tmp_path):
    # access.log.gz is two members already; three more, joined as `cat` does.
    data = LOG.read_bytes()
    joined = gzip.compress(data[:100]) + gzip.compress(data[100:5000]) + gzip.compress(data[5000:])
    assert rfc1738.clf.check_log(joined)["invalid_lines"] == rfc1738.clf.check_log(data)["invalid_lines"]


def test_a_truncated_compressed_log_says_so():
    with pytest.raises(OSError, match=r"gzip data ends early at compressed byte \d+"):
        rfc1738.clf.check_file(DATA / "truncated.log.gz")
    with pytest.raises(OSError, match="gzip"):
        rfc1738.clf.check_log((DATA / "truncated.log.gz").read_bytes())


def test_a_truncated_compressed_log_keeps_the_report_of_its_whole_lines():
    # What a reader of the stream gets before the fault: its whole lines
    # are reported, as the command reports them before its error.
    data = (DATA / "truncated.log.gz").read_bytes()
    text = zlib.decompressobj(wbits=31).decompress(data)
    whole = text[: text.rindex(b"\n") + 1]
    expected = rfc1738.clf.check_log(whole)
    assert expected["lines"] > 0
    for check in (
        lambda: rfc1738.clf.check_file(DATA / "truncated.log.gz"),
        lambda: rfc1738.clf.check_log(data),
    ):
        with pytest.raises(rfc1738.clf.LogReadError) as e:
            check()
        assert isinstance(e.value, OSError)
        report = e.value.report
        assert {k: v for k, v in report.items() if k != "invalid_lines"} == {
            k: v for k, v in expected.items() if k != "invalid_lines"
        }
        assert report["invalid_lines"].equals(expected["invalid_lines"])


def test_the_examples_of_the_module_run():
    assert doctest.testmod(rfc1738.clf).failed == 0


def test_a_text_line_that_starts_like_a_magic_is_text():
    line = b'BZh9 - - [d] "GET /a HTTP/1.0" 200 1\n'
    assert rfc1738.clf.check_log(line)["valid"] == 1


COMBINED = (
    '192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 200 2326 "http://r.dom/x y" "Mozilla/5.0"'
)


@pytest.mark.parametrize(
    "log_format, line",
    [
        ("common", '192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a b HTTP/1.1" 200 2326'),
        ("combined", COMBINED),
        ("vhost_combined", "www.dom:443 " + COMBINED),
        ("main", COMBINED + ' "203.0.113.9"'),
        (r'%v %h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-agent}i\" %D', "www.dom " + COMBINED + " 1234"),
        ('$host $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
         '"$http_referer" "$http_user_agent" $request_time', "www.dom 192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "
         '"GET /a?b HTTP/1.1" 200 2326 "http://r.dom/x y" "Mozilla/5.0" 0.003'),
    ],
)
def test_log_format_reads_as_the_command(log_format, line, tmp_path, rfc1738_bin):
    log = tmp_path / "access.log"
    log.write_text(line + "\n")
    theirs = summary(rfc1738_bin, "--log-format", log_format, str(log))
    mine = rfc1738.clf.check_file(log, log_format=log_format)
    assert (mine["valid"], mine["invalid"]) == (theirs["valid"], theirs["invalid"]) == (0, 1)
    assert {k: (v["valid"], v["invalid"]) for k, v in mine["by_scheme"].items()} == table(theirs["schemes"])
    assert {k: (v["valid"], v["invalid"]) for k, v in mine["referers"].items()} == table(theirs.get("referers", []))
    assert rfc1738.clf.check(pa.array([line]), log_format=log_format).to_pylist()[0]["valid"] is False


def test_an_unknown_directive_is_named():
    with pytest.raises(ValueError, match="%Z"):
        rfc1738.clf.check_log(b"", log_format="%h %Z")
    with pytest.raises(ValueError, match=r"\$nosuch"):
        rfc1738.clf.check(pa.array(["x"]), log_format="$nosuch")


def test_dask_reads_compressed_files_by_name_and_by_magic(tmp_path, rfc1738_bin):
    pytest.importorskip("dask")
    pytest.importorskip("fsspec")
    import rfc1738.dask

    plain = rfc1738.clf.check_file(LOG)
    (tmp_path / "a.log.gz").write_bytes((DATA / "access.log.gz").read_bytes())
    (tmp_path / "b.log").write_bytes((DATA / "access.log.xz").read_bytes())
    for path in (tmp_path / "a.log.gz", tmp_path / "b.log"):
        for name in (str(path), f"file://{path}"):
            report = rfc1738.dask.check_file(name)
            assert report["invalid_lines"] == plain["invalid_lines"], name
    report = rfc1738.dask.check_file(f"file://{tmp_path / 'a.log.gz'}", log_format="combined")
    theirs = summary(rfc1738_bin, "--log-format", "combined", str(tmp_path / "a.log.gz"))
    assert {k: (v["valid"], v["invalid"]) for k, v in report["by_scheme"].items()} == table(theirs["schemes"])
    assert report["by_scheme"] != plain["by_scheme"]
