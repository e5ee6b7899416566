"""An access log in SQL: how many log lines are valid, by scheme, as
`rfc1738 check --input-format clf` counts them; which are invalid, and why; the
referers; and which hosts carry the most §6 warnings.

Run it as it is (after pip install './crates/rfc1738-py[duckdb]'):

    python crates/rfc1738-py/examples/access_log_sql.py [LOG]

Without LOG it first writes a Common Log Format log whose requests are the
URLs of the corpus (../shared/corpus), or of a few built-in examples when
the corpus is not there.
"""

import pathlib
import sys
import tempfile

import duckdb
import pyarrow as pa

import rfc1738.duckdb

HERE = pathlib.Path(__file__).resolve()
CORPUS = HERE.parents[4] / "shared" / "corpus"
BUILT_IN = [
    "ftp://myname@host.dom/%2Fetc/motd",
    "http://host.dom/my file.html",
    "gopher://mail.dom:25/7x%09HELO%0D%0A",
    "ftp://me:secret@h.dom/x",
    "http://user@host.dom/",
    "/index.html",
    "/~joe/",
]


def urls():
    if CORPUS.is_dir():
        for path in sorted(CORPUS.glob("*.txt")):
            text = path.read_bytes().removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
            yield from (line.removesuffix("\r") for line in text.split("\n") if line)
    else:
        yield from BUILT_IN * 100


def write_log(path):
    with open(path, "w") as out:
        for n, url in enumerate(urls()):
            out.write(f'10.0.{n // 250 % 250}.{n % 250} - - [10/Oct/2000:13:55:36 -0700] "GET {url} HTTP/1.0" 200 {n}\n')


def read_lines(log):
    """The log's lines as the command reads them: empty ones skipped."""
    text = pathlib.Path(log).read_bytes().decode("utf-8", "replace")
    return [line for line in text.splitlines() if line]


def by_scheme(con):
    """``{scheme: (valid, invalid)}``: the table of ``rfc1738 check --format
    clf``'s summary, by the command's own rule for a log line."""
    rows = con.sql(
        """
        select rfc1738_clf_scheme(line) as scheme,
               count(*) filter (where rfc1738_clf_valid(line)) as valid,
               count(*) filter (where not rfc1738_clf_valid(line)) as invalid
        from log group by all order by all
        """
    ).fetchall()
    return {scheme: (valid, invalid) for scheme, valid, invalid in rows}


def main():
    if len(sys.argv) > 1:
        log = sys.argv[1]
    else:
        log = str(pathlib.Path(tempfile.mkdtemp()) / "access.log")
        write_log(log)
    lines = read_lines(log)
    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("log", pa.table({"line": pa.array(lines, pa.string())}))
    print(f"{len(lines)} lines of {log}\n")
    # The request URL is a path (`/index.html`) on most lines: checked as
    # an http URL's path, as the command checks it. `rfc1738_clf_valid` is
    # that rule (the referer of a Combined line checked too);
    # `rfc1738_valid(rfc1738_clf_url(line))` is not: a path is no URL.
    print("Log lines by scheme, as rfc1738 check --input-format clf counts them:")
    con.sql(
        """
        select rfc1738_clf_scheme(line) as scheme,
               count(*) filter (where rfc1738_clf_valid(line)) as valid,
               count(*) filter (where not rfc1738_clf_valid(line)) as invalid
        from log group by all order by valid + invalid desc, scheme
        """
    ).show()
    print("Invalid log lines by error kind (share of all lines):")
    con.sql(
        """
        select e.kind as kind, e.rule as rule, count(*) as lines,
               round(100.0 * count(*) / (select count(*) from log), 2) as percent
        from (select rfc1738_clf_error(line) as e from log) where e is not null
        group by all order by lines desc, kind limit 10
        """
    ).show()
    print("Referers by scheme:")
    con.sql(
        """
        select rfc1738_clf_referer_scheme(line) as scheme,
               count(*) filter (where rfc1738_clf_referer_valid(line)) as valid,
               count(*) filter (where not rfc1738_clf_referer_valid(line)) as invalid
        from log where rfc1738_clf_referer(line) is not null
        group by all order by valid + invalid desc, scheme
        """
    ).show()
    print("Hosts with the most §6 warnings (absolute request URLs):")
    con.sql(
        """
        select host, count(*) as warnings, string_agg(distinct w.kind, ', ' order by w.kind) as kinds
        from (select rfc1738_host(url) as host, unnest(rfc1738_lint(url)) as w
              from (select rfc1738_clf_url(line) as url from log))
        where host is not null
        group by host order by warnings desc, host limit 10
        """
    ).show(max_width=160)


if __name__ == "__main__":
    main()
