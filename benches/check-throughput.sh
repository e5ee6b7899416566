#!/bin/sh
# End-to-end speed of `rfc1738 check`: builds a file of about 1 GB from the
# corpus's URL lists (the .txt files, repeated), then times the command on
# it with its output (the reports of invalid lines and the summary) going
# to /dev/null, with every core and with one.
# Usage: benches/check-throughput.sh [SIZE_MB] [CORPUS_DIR]
# (defaults: 1000 and ../shared/corpus). The file is removed afterwards.
set -eu
size_mb=${1:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${2:-$here/../shared/corpus}
cd "$here"
cargo build --release -q -p rfc1738-cli
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file="$dir/urls.txt"
one="$dir/one.txt"
cat "$corpus"/*.txt > "$one"
while [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" -lt $((size_mb * 1000000)) ]; do
    cat "$one" >> "$file"
done
bytes=$(stat -c %s "$file")
lines=$(wc -l < "$file")
echo "input: $bytes bytes, $lines lines ($(nproc) cores)"
for jobs in "" 1; do
    start=$(date +%s.%N)
    target/release/rfc1738 check ${jobs:+--jobs $jobs} "$file" > /dev/null || true
    end=$(date +%s.%N)
    label=${jobs:+--jobs $jobs}
    echo "${label:-every core}: $(echo "$start $end $bytes" | awk '{ t = $2 - $1; printf "%.2f s, %.0f MB/s", t, $3 / t / 1e6 }')"
done
