#!/bin/sh
# Runs the three benchmarks and puts their tables into benches/README.md,
# between the <!-- NAME:start --> and <!-- NAME:end --> markers.
# Usage: benches/update-readme.sh [extra options for every binary, e.g. --corpus DIR]
# On a machine shared with other work, BENCH_WRAP runs each binary under a
# wrapper, e.g. (as root) BENCH_WRAP="nice -n -5 taskset -c 1": one core,
# ahead of ordinary processes. (A real-time class, "chrt -f 10", once left a
# run spinning in the kernel, deaf to SIGKILL until its class was lowered.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
readme="$here/README.md"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cd "$here/.."
cargo build --release -p rfc1738-bench --bins
{
    echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores" \
        "($(lscpu | sed -n 's/^Core(s) per socket: *//p') per socket," \
        "$(lscpu | sed -n 's/^Thread(s) per core: *//p') thread per core)," \
        "$(uname -sr), $(rustc --version)."
    echo "Library at commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)."
    if [ -n "${BENCH_WRAP:-}" ]; then
        echo "Run under \`$BENCH_WRAP\`."
    fi
    echo
} > "$out/machine"
for bin in parse-bench growth-bench extract-bench; do
    # shellcheck disable=SC2086 # BENCH_WRAP is a command line, split on purpose
    ${BENCH_WRAP:-} "target/release/$bin" --markdown "$@" > "$out/$bin.raw"
    {
        cat "$out/machine"
        echo "\`${BENCH_WRAP:+$BENCH_WRAP }cargo run --release -p rfc1738-bench --bin $bin -- --markdown\`"
        echo
        # Drop the binary's own header (machine line), keep the rest.
        sed '1d' "$out/$bin.raw"
    } > "$out/$bin"
    awk -v name="$bin" -v file="$out/$bin" '
        $0 == "<!-- " name ":start -->" { print; while ((getline line < file) > 0) print line; skip = 1; next }
        $0 == "<!-- " name ":end -->" { skip = 0 }
        !skip { print }
    ' "$readme" > "$out/readme"
    cp "$out/readme" "$readme"
done
echo "updated $readme"
