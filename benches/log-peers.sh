#!/bin/sh
# `rfc1738 check` beside GoAccess and lnav on one Combined log of about
# SIZE_MB, made by repeating LOG (default: docs/examples/sample.log, the
# project's committed sample log), in one run: each command once, in
# turn, from the page cache. Prints a Markdown table of the wall time and
# the CPU time (user + system of every thread, /usr/bin/time) of each.
#   goaccess FILE --log-format=COMBINED -o FILE.json   every panel, as JSON
#   lnav -n -c ';SELECT count(*) ...' FILE               the log indexed, one query
#   check --quiet --log-format combined FILE           the summary alone
#   check --json --log-format combined FILE            a record per line
#   SELECT ... FROM rfc1738_log(FILE)                   the DuckDB extension's table, every row
# GoAccess and lnav are Debian's packages (`apt-get install goaccess
# lnav`); a missing one is a row that says so. The DuckDB row needs a
# Python with the duckdb package (DUCKDB_PYTHON, default python3) and
# the extension (scripts/build-duckdb-extension); without them it says so.
# Usage: benches/log-peers.sh [SIZE_MB] [LOG]   (default 300)
# The files are removed afterwards.
set -eu
size_mb=${1:-300}
here=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-$here/docs/examples/sample.log}
cd "$here"
bin=${RFC1738_BIN:-$here/target/release/rfc1738}
[ -x "$bin" ] || cargo build --release -q -p rfc1738-cli
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
log="$dir/access.log"
# Doubling: the log, then itself twice, until it passes SIZE_MB.
cp "$src" "$log"
while [ "$(stat -c %s "$log")" -lt $((size_mb * 1000000)) ]; do
    cat "$log" "$log" > "$dir/next"
    mv "$dir/next" "$log"
done
head -c $((size_mb * 1000000)) "$log" | sed '$d' > "$dir/cut"
mv "$dir/cut" "$log"
bytes=$(stat -c %s "$log")
lines=$(wc -l < "$log")
cat "$log" > /dev/null

run() {
    label=$1
    shift
    if ! command -v "$1" > /dev/null 2>&1 && [ ! -x "$1" ]; then
        echo "| $label | not installed | | |"
        return
    fi
    /usr/bin/time -f '%e %U %S %M' -o "$dir/t" "$@" > /dev/null 2> "$dir/err" || true
    # The last line: /usr/bin/time writes a line of its own before it
    # when the command exits with a status other than 0.
    awk -v label="$label" '
        END { printf "| %s | %.2f | %.2f | %d |\n", label, $1, $2 + $3, $4 / 1024 }' "$dir/t"
}

echo "input: $(basename "$src") repeated to $bytes bytes, $lines lines; $(nproc) cores;" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(goaccess --version 2>/dev/null | head -1 || echo 'GoAccess not installed');" \
    "$(lnav -V 2>/dev/null || echo 'lnav not installed'); rfc1738 at $(git rev-parse --short HEAD)"
echo
echo "| command | wall s | CPU s | peak MB |"
echo "|---|---:|---:|---:|"
run '`rfc1738 check --quiet --log-format combined`' "$bin" check --quiet --log-format combined "$log"
run '`rfc1738 check --json --log-format combined`' "$bin" check --json --log-format combined "$log"
run '`goaccess --log-format=COMBINED -o report.json`' goaccess "$log" --log-format=COMBINED \
    --no-global-config -o "$dir/report.json"
run '`lnav -n -c ";SELECT count(*) FROM access_log"`' lnav -n -c ';SELECT count(*) FROM access_log' "$log"
ext=$here/target/duckdb/rfc1738.duckdb_extension
py=${DUCKDB_PYTHON:-python3}
if [ -f "$ext" ] && "$py" -c 'import duckdb' 2>/dev/null; then
    cat > "$dir/table.py" <<PY
import duckdb, sys
con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute("load '$ext'")
print(con.execute("select count(*), count(*) filter (where not valid), count(distinct client) from rfc1738_log(?)", [sys.argv[1]]).fetchall())
PY
    run '`SELECT count(*) ... FROM rfc1738_log(FILE)` (DuckDB)' "$py" "$dir/table.py" "$log"
else
    echo "| \`rfc1738_log\` (DuckDB) | no duckdb package or no extension | | |"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
