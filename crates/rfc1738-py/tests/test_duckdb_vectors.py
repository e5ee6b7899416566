"""The DuckDB extension reads its VARCHAR vectors as DuckDB lays them out:
a string of up to 12 bytes inlined in its 16-byte `string_t`, a longer one
behind its pointer, a NULL row by the validity mask alone (its `string_t`
unread), and every vector flat (DuckDB flattens the input of a C API
function: a constant, a dictionary or a sequence arrives as one string a
row). Every function gives the Python registration's answers on each
length from 0 to 40 bytes around the 12-byte line, on NULLs among them,
on an embedded NUL and non-ASCII bytes, over more rows than one vector
holds (2048), and on the vectors that DuckDB makes flat for it."""

import pyarrow as pa
import pytest

from rfc1738 import sql
from test_engines import NAMES, assert_duckdb_gives, call, extension_con, sql_call  # noqa: F401 - a fixture


def arrow_table(result):
    return result.to_arrow_table() if hasattr(result, "to_arrow_table") else result.fetch_arrow_table()


def of_length(n):
    """A text of `n` bytes, a valid http URL from 8 bytes on."""
    return "x" * n if n < 8 else "http://" + "a" * (n - 8) + "/"


def lengths_column():
    values = []
    for i in range(5000):
        n = (i * 7) % 41
        values.append(None if i % 5 == 3 else of_length(n))
    values += ["http://a\x00b/", "http://\u00e9.dom/", "http://a.dom/\u00e9" * 3, "", None]
    return pa.array(values, pa.string())


def test_every_length_around_the_inline_line_and_nulls(extension_con):  # noqa: F811 - the fixture
    column = lengths_column()
    assert {len(v) for v in column.to_pylist() if v} >= {11, 12, 13, 14}
    expected = {f.name: call(f, column).to_pylist() for f in sql.FUNCTIONS}
    assert_duckdb_gives(extension_con, column, expected)


@pytest.mark.parametrize(
    "expression",
    [
        # A constant vector: one string for every row.
        "'http://abcdefghijkl.dom/x'",
        "'http://a.do/'",
        # A dictionary vector from a CASE over a few values, NULLs among them.
        "case i % 4 when 0 then 'http://a.do/' when 1 then 'http://ab.dom/long/path' when 2 then NULL else 'x' end",
        # Strings made row by row, of every length from 7 to 26 bytes.
        "'http://' || repeat('a', (i % 20)::integer) || '/'",
    ],
)
def test_vectors_duckdb_flattens(extension_con, expression):  # noqa: F811 - the fixture
    rows = extension_con.sql(f"select {expression} as u from range(3000) t(i) order by i").fetchall()
    column = pa.array([r[0] for r in rows], pa.string())
    calls = ", ".join(f"{sql_call(n, expression)} as {n}" for n in NAMES)
    got = arrow_table(extension_con.sql(f"select {calls} from range(3000) t(i) order by i"))
    for f in sql.FUNCTIONS:
        assert got.column(f.name).to_pylist() == call(f, column).to_pylist(), f.name
