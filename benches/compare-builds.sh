#!/usr/bin/env bash
# Compares parse-bench binaries built from different commits, alternated.
#
#   benches/compare-builds.sh RUNS BIN... [-- parse-bench options]
#
# Build each commit's parse-bench and copy it aside first, e.g.
#   cargo build --release -p rfc1738-bench && cp target/release/parse-bench /tmp/pb-new
# Each run copies the binary to a fresh file before starting it: on a
# virtual machine, where a binary's pages happen to lie in memory can move
# rfc1738's time by 20-25% on some files for as long as that file stays
# cached, so a binary measured from one file gives one draw of that, not
# the build's time. Prints, per binary and corpus file, the median over the
# runs of rfc1738 borrow's and fluent-uri's ns per URL and of their ratio.
# Runs under BENCH_WRAP (default: "taskset -c 1") from the workspace root.
set -euo pipefail
runs=${1:?RUNS}
shift
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    bins+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
[ ${#bins[@]} -gt 0 ] || { echo "usage: $0 RUNS BIN... [-- options]" >&2; exit 2; }
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$runs"); do
    for k in "${!bins[@]}"; do
        cp "${bins[$k]}" "$out/bin"
        # shellcheck disable=SC2086 # BENCH_WRAP is a command line, split on purpose
        ${BENCH_WRAP:-taskset -c 1} "$out/bin" "$@" 2>/dev/null |
            awk -v k="$k" '/ URLs, /{f=$1; sub(":$", "", f)} /^rfc1738 borrow/{b[f]=$3} /^fluent-uri/{fl[f]=$2}
                END{for (f in b) if (f != "all" && (f in fl)) print k, f, b[f], fl[f], fl[f] / b[f]}' >> "$out/runs"
        rm -f "$out/bin"
    done
done
median() { sort -g | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for k in "${!bins[@]}"; do
    echo "${bins[$k]} ($runs runs): median ns/URL, rfc1738 borrow / fluent-uri, and fluent-uri / rfc1738 borrow"
    for f in $(awk -v k="$k" '$1 == k {print $2}' "$out/runs" | sort -u); do
        b=$(awk -v k="$k" -v f="$f" '$1 == k && $2 == f {print $3}' "$out/runs" | median)
        fl=$(awk -v k="$k" -v f="$f" '$1 == k && $2 == f {print $4}' "$out/runs" | median)
        r=$(awk -v k="$k" -v f="$f" '$1 == k && $2 == f {print $5}' "$out/runs" | median)
        printf '  %-26s %6.1f %6.1f  %5.3f\n' "$f" "$b" "$fl" "$r"
    done
done
