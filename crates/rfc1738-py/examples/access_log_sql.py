"""An access log in SQL: which request URLs are invalid, and why, and which
hosts carry the most §6 warnings.

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


def main():
    if len(sys.argv) > 1:
        log = sys.argv[1]
    else:
        log = str(pathlib.Path(tempfile.mkdtemp()) / "access.log")
        write_log(log)
    lines = pathlib.Path(log).read_bytes().decode("utf-8", "replace").splitlines()
    con = duckdb.connect()
    rfc1738.duckdb.register(con)
    con.register("log", pa.table({"line": pa.array(lines, pa.string())}))
    con.sql("create table requests as select rfc1738_clf_url(line) as url from log")
    print(f"{len(lines)} lines of {log}\n")
    print("Invalid request URLs by error kind (share of all requests):")
    con.sql(
        """
        select rfc1738_error(url).kind as kind, rfc1738_error(url).rule as rule, count(*) as urls,
               round(100.0 * count(*) / (select count(*) from requests), 2) as percent
        from requests where not rfc1738_valid(url)
        group by all order by urls desc limit 10
        """
    ).show()
    print("Hosts with the most §6 warnings:")
    con.sql(
        """
        select host, count(*) as warnings, string_agg(distinct w.kind, ', ' order by w.kind) as kinds
        from (select rfc1738_host(url) as host, unnest(rfc1738_lint(url)) as w from requests)
        where host is not null
        group by host order by warnings desc, host limit 10
        """
    ).show(max_width=160)


if __name__ == "__main__":
    main()
