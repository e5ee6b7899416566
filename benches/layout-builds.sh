#!/usr/bin/env bash
# Builds parse-bench from the working tree once per code layout, for
# compare-builds.sh.
#
#   benches/layout-builds.sh DIR [LAYOUTS]
#
# Writes DIR/layout-1 ... DIR/layout-LAYOUTS (default 8): the same code,
# each linked with its functions in a different order (lld's
# --shuffle-sections, seeded with the layout's number; lld is Rust's
# default linker on x86_64 Linux). Where a function lies moves a parser's
# time by a few percent on this machine, for rfc1738 and its peers alike,
# so one build is one draw of that; a difference between two versions of
# the code that is smaller than the spread over layouts shows only in the
# median over several. Only the final link changes: the dependencies are
# built once.
set -euo pipefail
dir=${1:?usage: $0 DIR [LAYOUTS]}
layouts=${2:-8}
cd "$(dirname "$0")/.."
mkdir -p "$dir"
for seed in $(seq "$layouts"); do
    cargo rustc --quiet --release -p rfc1738-bench --bin parse-bench -- \
        -C link-arg=-Wl,--shuffle-sections="*=$seed"
    cp target/release/parse-bench "$dir/layout-$seed"
done
# Leave target/release/parse-bench as a plain build would.
cargo rustc --quiet --release -p rfc1738-bench --bin parse-bench
echo "$layouts layouts in $dir"
