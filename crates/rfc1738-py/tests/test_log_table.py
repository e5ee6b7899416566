"""A log file as a table: the DuckDB extension's `rfc1738_log` table
function and the Python package's `read_log` (DuckDB, Polars, DataFusion)
give, row for row and column for column, what `rfc1738 check --json`
says of each line of the committed logs, compressed or not, strict and
lenient; a missing file or a refused format is a clear error."""

import datetime
import json
import pathlib
import subprocess

import pyarrow as pa
import pytest

import rfc1738.clf
from conftest import ROOT
from test_engines import extension_con  # noqa: F401 - a fixture

DATA = ROOT / "crates" / "rfc1738-py" / "tests" / "data"
EXAMPLES = ROOT / "docs" / "examples"
NGINX = (
    '$host $remote_addr $remote_user [$time_local] "$request" $status $body_bytes_sent '
    '$request_time "$http_referer" "$http_user_agent"'
)
# (file, format, lenient): every committed log, each in its format.
LOGS = [
    (EXAMPLES / "sample.log", "combined", False),
    (EXAMPLES / "sample.log", "clf", False),
    (EXAMPLES / "sample.log", "combined", True),
    (EXAMPLES / "access.log", "common", False),
    (EXAMPLES / "access.log.gz", "clf", True),
    (EXAMPLES / "vhosts.log", "vhost_combined", False),
    (EXAMPLES / "nginx-access.log", NGINX, False),
    (DATA / "access.log", "combined", False),
    (DATA / "access.log.gz", "combined", False),
    (DATA / "access.log.zst", "clf", False),
    (DATA / "access.log.bz2", "combined", True),
    (DATA / "access.log.xz", "combined", False),
]
IDS = [f"{p.name}-{'nginx' if f == NGINX else f}{'-lenient' if l else ''}" for p, f, l in LOGS]


def command_records(rfc1738_bin, path, log_format, lenient):
    """`check --json`'s records of the file, the empty lines' left out."""
    args = [rfc1738_bin, "check", "--json"]
    args += ["--input-format", "clf"] if log_format == "clf" else ["--log-format", log_format]
    args += ["--lenient"] if lenient else []
    out = subprocess.run(args + [str(path)], capture_output=True, check=False).stdout
    return [json.loads(line) for line in out.decode().splitlines() if line]


def as_row(record):
    """A `check --json` record in the table's columns."""
    row = {k: v for k, v in record.items() if k not in ("error", "referer_error", "warnings", "fields")}
    for prefix, error in (("error_", record["error"]), ("referer_error_", record.get("referer_error"))):
        for key in ("offset", "kind", "rule", "message"):
            row[prefix + key] = None if error is None else error[key]
    row["warnings"] = len(record["warnings"])
    iso = record.get("time_iso")
    row["timestamp"] = None if iso is None else datetime.datetime.fromisoformat(iso).astimezone(datetime.timezone.utc)
    row.update(record.get("fields", {}))
    return row


def same(rows, records, columns):
    assert len(rows) == len(records)
    for got, record in zip(rows, records):
        want = as_row(record)
        if "client" in record:
            assert sorted(want) == sorted(columns)
        else:
            # A line past the limit: `{file, line, input, valid, scheme,
            # error, warnings}`, every field null.
            assert set(want) <= set(columns)
        assert {c: got[c] for c in columns} == {c: want.get(c) for c in columns}, record["line"]


@pytest.mark.parametrize("path,log_format,lenient", LOGS, ids=IDS)
def test_the_extension_gives_the_commands_records(extension_con, rfc1738_bin, path, log_format, lenient):  # noqa: F811
    records = command_records(rfc1738_bin, path, log_format, lenient)
    assert records
    rel = extension_con.execute(
        "select * from rfc1738_log(?, format := ?, lenient := ?)", [str(path), log_format, lenient]
    )
    columns = [d[0] for d in rel.description]
    rows = [dict(zip(columns, r)) for r in rel.fetchall()]
    for r in rows:
        r["file"] = pathlib.Path(r["file"]).name
    for r in records:
        r["file"] = pathlib.Path(r["file"]).name
    same(rows, records, columns)


@pytest.mark.parametrize("path,log_format,lenient", LOGS, ids=IDS)
def test_read_log_gives_the_commands_records(rfc1738_bin, path, log_format, lenient):
    records = command_records(rfc1738_bin, path, log_format, lenient)
    table = rfc1738.clf.read_log(path, log_format, lenient)
    same(table.to_pylist(), records, table.column_names)


def test_a_line_past_the_limit_is_a_row_of_its_own(extension_con, rfc1738_bin, tmp_path):  # noqa: F811
    """A line longer than a mebibyte (the command's --max-len) is what
    `check --json` says of it, `too-long`; the lines around it as they are."""
    line = (EXAMPLES / "sample.log").read_text().splitlines()[0]
    log = tmp_path / "long.log"
    log.write_text(f"{line}\n{line[:60]}{'x' * (1 << 21)}{line[60:]}\r\n{line}\n")
    records = command_records(rfc1738_bin, log, "combined", False)
    assert [r["error"] and r["error"]["kind"] for r in records] == [None, "too-long", None]
    rel = extension_con.execute("select * from rfc1738_log(?)", [str(log)])
    columns = [d[0] for d in rel.description]
    same([dict(zip(columns, r)) for r in rel.fetchall()], records, columns)
    table = rfc1738.clf.read_log(log)
    same(table.to_pylist(), records, table.column_names)


def test_every_engine_has_the_same_columns_and_rows(extension_con):  # noqa: F811
    path = str(DATA / "access.log.gz")
    table = rfc1738.clf.read_log(path)
    import duckdb

    from rfc1738 import duckdb as rfc1738_duckdb

    con = duckdb.connect()
    log = rfc1738_duckdb.read_log(con, path)
    assert log.columns == table.column_names
    assert log.fetchall() == extension_con.execute("select * from rfc1738_log(?)", [path]).fetchall()
    assert con.sql("select count(*) from log where not valid").fetchall() == [
        (table.column("valid").to_pylist().count(False),)
    ]
    # The extension's types are the Arrow table's, as DuckDB reads it.
    ext = extension_con.execute("select * from rfc1738_log(?) limit 0", [path])
    assert [str(t) for _, t, *_ in ext.description] == [str(t) for _, t, *_ in con.from_arrow(table).description]
    polars = pytest.importorskip("polars")
    from rfc1738 import polars as rfc1738_polars

    frame = rfc1738_polars.read_log(path)
    assert frame.columns == table.column_names
    assert frame.to_arrow().to_pylist() == table.to_pylist()
    assert frame.schema["timestamp"] == polars.Datetime("us", "UTC")
    datafusion = pytest.importorskip("datafusion")
    from rfc1738 import datafusion as rfc1738_datafusion

    ctx = datafusion.SessionContext()
    df = rfc1738_datafusion.read_log(ctx, path)
    assert pa.Table.from_batches(df.collect()).to_pylist() == table.to_pylist()


def test_the_extension_has_the_table_function(extension_con):  # noqa: F811
    rows = extension_con.sql(
        "select function_type, parameters, parameter_types from duckdb_functions() "
        "where function_name = 'rfc1738_log'"
    ).fetchall()
    assert rows == [("table", ["col0", "format", "lenient"], ["VARCHAR", "VARCHAR", "BOOLEAN"])]


def test_other_fields_are_typed_columns(extension_con, tmp_path):  # noqa: F811
    log = tmp_path / "nginx.log"
    log.write_text(
        '192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.1" 200 5 0.012 "203.0.113.9" 1234\n'
        '192.0.2.2 - - [10/Oct/2000:13:55:37 +0000] "GET /b HTTP/1.1" 200 5 - "-" -\n'
    )
    apache_and_nginx = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
    fmt = apache_and_nginx + '$request_time "$http_x_forwarded_for" $request_length'
    rel = extension_con.execute(
        "select request_time, http_x_forwarded_for, request_length, typeof(request_time), typeof(request_length) "
        "from rfc1738_log(?, format := ?)",
        [str(log), fmt],
    )
    assert rel.fetchall() == [
        (0.012, "203.0.113.9", 1234, "DOUBLE", "BIGINT"),
        (None, None, None, "DOUBLE", "BIGINT"),
    ]
    # The same fields in each line's struct of rfc1738.clf.check.
    rows = rfc1738.clf.check(pa.array(log.read_text().splitlines() + [None]), fmt).to_pylist()
    assert [r and (r["request_time"], r["http_x_forwarded_for"], r["request_length"]) for r in rows] == [
        (0.012, "203.0.113.9", 1234),
        (None, None, None),
        None,
    ]
    assert "request_time" not in rfc1738.clf.check(pa.array(["x"]), "combined").type.names
    table = rfc1738.clf.read_log(log, fmt)
    assert table.select(["request_time", "http_x_forwarded_for", "request_length"]).to_pylist() == [
        {"request_time": 0.012, "http_x_forwarded_for": "203.0.113.9", "request_length": 1234},
        {"request_time": None, "http_x_forwarded_for": None, "request_length": None},
    ]
    assert table.schema.field("request_time").type == pa.float64()


def test_errors_are_clear_and_never_a_crash(extension_con, tmp_path):  # noqa: F811
    import duckdb

    sample = str(EXAMPLES / "sample.log")
    cases = [
        ("select * from rfc1738_log('no/such.log')", r'rfc1738_log: cannot read "no/such.log": No such file'),
        (f"select * from rfc1738_log('{sample}', format := 'combind')", r"format \"combind\": not a preset.*presets"),
        (f"select * from rfc1738_log('{sample}', format := '%h %Z %r')", r"unknown directive %Z at offset 3"),
        ("select * from rfc1738_log(NULL)", r"the path is NULL"),
        (f"select * from rfc1738_log('{sample}', lenient := NULL)", r"lenient is NULL"),
        (f"select * from rfc1738_log('{tmp_path}')", r"Is a directory"),
    ]
    for query, message in cases:
        with pytest.raises(duckdb.Error, match=message):
            extension_con.execute(query).fetchall()
    # A gzip'd log cut short: the query's error names the format and the byte.
    cut = tmp_path / "cut.log.gz"
    cut.write_bytes((DATA / "access.log.gz").read_bytes()[:-40])
    with pytest.raises(duckdb.Error, match=r"gzip"):
        extension_con.execute("select count(*) from rfc1738_log(?)", [str(cut)]).fetchall()
    # The connection still answers.
    assert extension_con.execute("select count(*) from rfc1738_log(?)", [sample]).fetchall() == [(75,)]
    with pytest.raises(OSError, match=r"cannot read .*No such file"):
        rfc1738.clf.read_log("no/such.log")
    with pytest.raises(ValueError, match="presets"):
        rfc1738.clf.read_log(sample, "combind")
    with pytest.raises(OSError, match="gzip"):
        rfc1738.clf.read_log(cut)


def test_the_guides_sql_examples_print_what_it_shows(extension_con, monkeypatch):  # noqa: F811
    """Each ```sql block of docs/GUIDE.md followed by a ```text table gives
    that table, run in docs/examples (where the guide's files are)."""
    import re

    guide = (ROOT / "docs" / "GUIDE.md").read_text()
    pairs = re.findall(r"```sql\n(.*?)```\n\n```text\n(.*?)```", guide, re.S)
    assert len(pairs) >= 2
    monkeypatch.chdir(EXAMPLES)

    def cell(v):
        return "NULL" if v is None else str(v).lower() if isinstance(v, bool) else str(v)

    for query, shown in pairs:
        lines = shown.splitlines()
        body = lines[next(i for i, line in enumerate(lines) if line.startswith("├")) + 1 :]
        want = [[c.strip() for c in line.split("│")[1:-1]] for line in body if line.startswith("│")]
        got = [[cell(v) for v in row] for row in extension_con.sql(query.rstrip().rstrip(";")).fetchall()]
        assert got == want, query
