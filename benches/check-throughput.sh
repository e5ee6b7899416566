#!/bin/sh
# End-to-end speed of `rfc1738 check` beside `wc -l` and `cat >/dev/null`
# on the same file, in one run: builds a file of about SIZE_MB from the
# corpus's URL lists (the .txt files, repeated), reads it once untimed (so
# that every command finds it in the page cache), then times each command
# ROUNDS times, the commands taking turns, and prints a Markdown table of
# the median and the spread (lowest to highest) of each, and its time over
# that of `wc -l`, and the median CPU time (user + system, all threads) of
# each: on a shared machine the CPU time says what a command costs, the
# wall time also what the other work on the machine left it. BASE_BIN=path/to/rfc1738 adds
# rows for an earlier build, timed in the same rounds.
# Usage: [BASE_BIN=...] benches/check-throughput.sh [SIZE_MB] [CORPUS_DIR] [ROUNDS]
# (defaults: 1000, the nearest shared/corpus above and 5). The file is removed afterwards.
set -eu
size_mb=${1:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${2:-}
if [ -z "$corpus" ]; then
    # The nearest shared/corpus above, as the benchmark binaries look.
    dir=$here
    while [ "$dir" != / ] && [ ! -d "$dir/shared/corpus" ]; do
        dir=$(dirname "$dir")
    done
    corpus=$dir/shared/corpus
fi
rounds=${3:-5}
cd "$here"
cargo build --release -q -p rfc1738-cli
bin="$here/target/release/rfc1738"
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
cat "$file" > /dev/null

# The commands, one a line: a label, a tab, the command (run by sh -c).
cat > "$dir/commands" <<EOF
wc -l	wc -l < "$file" > /dev/null
cat >/dev/null	cat "$file" > /dev/null
check --quiet	"$bin" check --quiet "$file" > /dev/null || true
check --quiet --jobs 1	"$bin" check --quiet --jobs 1 "$file" > /dev/null || true
check --quiet, portable	RFC1738_PORTABLE=1 "$bin" check --quiet "$file" > /dev/null || true
check (reports of invalid lines)	"$bin" check "$file" > /dev/null || true
EOF
if [ -n "${BASE_BIN:-}" ]; then
    cat >> "$dir/commands" <<EOF
earlier build: check --quiet	"$BASE_BIN" check --quiet "$file" > /dev/null || true
earlier build: check --quiet --jobs 1	"$BASE_BIN" check --quiet --jobs 1 "$file" > /dev/null || true
EOF
fi

n=$(wc -l < "$dir/commands")
round=0
while [ "$round" -lt "$rounds" ]; do
    k=0
    while [ "$k" -lt "$n" ]; do
        # Rotate the order from round to round.
        line=$(( (k + round) % n + 1 ))
        label=$(sed -n "${line}p" "$dir/commands" | cut -f1)
        cmd=$(sed -n "${line}p" "$dir/commands" | cut -f2)
        # Wall time, then CPU time: user and system of the command and
        # all its threads (the shell's children, as `times` counts them).
        start=$(date +%s.%N)
        cpu=$(sh -c "$cmd; times" | awk 'NR == 2' | tr 'ms' '  ' | awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }')
        end=$(date +%s.%N)
        echo "$line $(echo "$start $end" | awk '{ printf "%.4f", $2 - $1 }') $cpu" >> "$dir/times"
        k=$((k + 1))
    done
    round=$((round + 1))
done

echo "input: $bytes bytes, $lines lines, $(nproc) cores, $rounds rounds (median, lowest to highest)"
echo
echo "| command | seconds | spread | MB/s | × \`wc -l\` | CPU seconds | CPU × \`wc -l\` |"
echo "| :-- | --: | :-- | --: | --: | --: | --: |"
median() { sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
wc_median=$(awk '$1 == 1 { print $2 }' "$dir/times" | median)
wc_cpu=$(awk '$1 == 1 { print $3 }' "$dir/times" | median)
k=1
while [ "$k" -le "$n" ]; do
    label=$(sed -n "${k}p" "$dir/commands" | cut -f1)
    cpu=$(awk -v k="$k" '$1 == k { print $3 }' "$dir/times" | median)
    awk -v k="$k" '$1 == k { print $2 }' "$dir/times" | sort -n |
        awk -v label="$label" -v bytes="$bytes" -v wc="$wc_median" -v cpu="$cpu" -v wc_cpu="$wc_cpu" '
            { t[NR] = $1 }
            END {
                m = t[int((NR + 1) / 2)]
                ratio = wc_cpu > 0 ? sprintf("%.1f", cpu / wc_cpu) : "-"
                printf "| `%s` | %.2f | %.2f-%.2f | %.0f | %.1f | %.2f | %s |\n", label, m, t[1], t[NR], bytes / m / 1e6, m / wc, cpu, ratio
            }'
    k=$((k + 1))
done
