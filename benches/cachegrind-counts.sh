#!/usr/bin/env bash
# Counts what one URL costs each parser, under valgrind's cachegrind: the
# instructions, the conditional branches, and how many of those a
# predictor without history (cachegrind's model: a table of two-bit
# counters indexed by the branch's address) guesses wrong; the same for
# indirect jumps. Unlike a timing these counts are exact and the same
# from run to run and from code layout to code layout, so a change of a
# few percent shows at once; they are the cost of a parse on a processor
# whose predictor has learnt nothing, which is close to how the
# interleaved passes of parse-bench find it on the generated corpus.
#
#   benches/cachegrind-counts.sh PARSER... [-- parse-bench options]
#
# e.g. benches/cachegrind-counts.sh "rfc1738 borrow" fluent-uri -- --corpus /tmp/c
# (PARSER as parse-bench's --only takes it, naming one parser: a name that
# several contain, "rfc1738", would sum them; the options are any but
# --rounds, which this sets). Each parser runs alone, once
# with one measured round and once with five; the difference is four
# passes over every file, free of start-up and corpus loading. Needs
# valgrind (Debian: apt-get install valgrind).
set -euo pipefail
parsers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    parsers+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
[ ${#parsers[@]} -gt 0 ] || { echo "usage: $0 PARSER... [-- parse-bench options]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 1; }
cd "$(dirname "$0")/.."
cargo build --quiet --release -p rfc1738-bench --bin parse-bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-18s %8s %9s %9s %8s %8s\n' parser instr branches missed indirect missed
for parser in "${parsers[@]}"; do
    for rounds in 1 5; do
        valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
            --cachegrind-out-file="$out/cg.$rounds" \
            target/release/parse-bench --rounds "$rounds" --only "$parser" "$@" >"$out/table.$rounds" 2>/dev/null
    done
    urls=$(awk '/^all files: /{print $3}' "$out/table.5")
    [ -n "$urls" ] || { echo "$0: no URLs measured for $parser" >&2; exit 1; }
    # The `summary:` line: Ir Bc Bcm Bi Bim over the whole run.
    paste <(grep '^summary:' "$out/cg.1") <(grep '^summary:' "$out/cg.5") |
        awk -v p="$parser" -v n="$urls" '{
            d = 4 * n
            # A sum over a few functions can shrink by a count or two
            # between the runs: never below zero.
            for (k = 8; k <= 12; k++) if ($k < $(k - 6)) $k = $(k - 6)
            printf "%-18s %8.0f %9.1f %9.2f %8.2f %8.2f\n", p, ($8 - $2) / d, ($9 - $3) / d,
                ($10 - $4) / d, ($11 - $5) / d, ($12 - $6) / d
        }'
done
echo "per URL, over $urls URLs a pass (four passes counted)"
