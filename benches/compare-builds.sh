#!/usr/bin/env bash
# Compares parse-bench binaries built from different commits, alternated.
#
#   benches/compare-builds.sh RUNS BUILD... [-- parse-bench options]
#
# A BUILD is a parse-bench binary, or a directory of them: the same code in
# several layouts (benches/layout-builds.sh writes one), measured as one
# build over all its layouts. Build each commit's parse-bench and copy it
# aside first, e.g.
#   cargo build --release -p rfc1738-bench && cp target/release/parse-bench /tmp/pb-new
# or
#   benches/layout-builds.sh /tmp/new
# Each run copies the binary to a fresh file before starting it: on a
# virtual machine, where a binary's pages happen to lie in memory can move
# rfc1738's time by 20-25% on some files for as long as that file stays
# cached, so a binary measured from one file gives one draw of that, not
# the build's time. Prints, per build and corpus file, the median over the
# runs (and layouts) of rfc1738 borrow's and fluent-uri's ns per URL and of
# their ratio; for a directory, also the lowest and highest of its layouts'
# own median ratios.
# Runs under BENCH_WRAP (default: "taskset -c 1") from the workspace root.
set -euo pipefail
runs=${1:?RUNS}
shift
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    builds+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
[ ${#builds[@]} -gt 0 ] || { echo "usage: $0 RUNS BUILD... [-- options]" >&2; exit 2; }
# Every binary to run, with the build it belongs to.
bins=()
owner=()
for k in "${!builds[@]}"; do
    if [ -d "${builds[$k]}" ]; then
        for bin in "${builds[$k]}"/*; do
            [ -x "$bin" ] && bins+=("$(realpath "$bin")") && owner+=("$k")
        done
    else
        bins+=("$(realpath "${builds[$k]}")")
        owner+=("$k")
    fi
done
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$runs"); do
    for n in "${!bins[@]}"; do
        cp "${bins[$n]}" "$out/bin"
        # shellcheck disable=SC2086 # BENCH_WRAP is a command line, split on purpose
        ${BENCH_WRAP:-taskset -c 1} "$out/bin" "$@" 2>/dev/null |
            awk -v k="${owner[$n]}" -v n="$n" '/ URLs, /{f=$1; sub(":$", "", f)} /^rfc1738 borrow/{b[f]=$3}
                /^fluent-uri/{fl[f]=$2}
                END{for (f in b) if (f != "all" && (f in fl)) print k, n, f, b[f], fl[f], fl[f] / b[f]}' >> "$out/runs"
        rm -f "$out/bin"
    done
done
median() { sort -g | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# The median of column C over the runs of build K on file F: col K F C.
col() { awk -v k="$1" -v f="$2" -v c="$3" '$1 == k && $3 == f {print $c}' "$out/runs" | median; }
for k in "${!builds[@]}"; do
    layouts=$(awk -v k="$k" '$1 == k {print $2}' "$out/runs" | sort -u | wc -l)
    echo "${builds[$k]} ($runs runs x $layouts layouts): median ns/URL, rfc1738 borrow / fluent-uri," \
        "and fluent-uri / rfc1738 borrow"
    for f in $(awk -v k="$k" '$1 == k {print $3}' "$out/runs" | sort -u); do
        printf '  %-26s %6.1f %6.1f  %5.3f' "$f" "$(col "$k" "$f" 4)" "$(col "$k" "$f" 5)" "$(col "$k" "$f" 6)"
        if [ "$layouts" -gt 1 ]; then
            per_layout=$(for n in $(awk -v k="$k" '$1 == k {print $2}' "$out/runs" | sort -u); do
                awk -v n="$n" -v f="$f" '$2 == n && $3 == f {print $6}' "$out/runs" | median
            done | sort -g)
            printf '  (layouts %5.3f to %5.3f)' "$(echo "$per_layout" | head -1)" "$(echo "$per_layout" | tail -1)"
        fi
        echo
    done
done
