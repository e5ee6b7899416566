#!/bin/sh
# Runs every benchmark once and puts the tables where they are read:
# - benches/results/NAME.md: the whole output of each binary and of
#   check-throughput.sh, with the machine and the commit;
# - benches/README.md, between <!-- NAME:start --> and <!-- NAME:end -->:
#   parse-bench's tables over all files, check-throughput's and
#   log-throughput's tables;
# - docs/SPEED.md, between <!-- speed:start --> and <!-- speed:end -->: the
#   same parse-bench, check-throughput and log-throughput tables.
# Usage: benches/update-readme.sh [extra options for every binary, e.g. --corpus DIR]
# CHECK_MB sets the size of check-throughput's file (default 1000), LOG_MB
# that of log-throughput's log (default 300), LOG_ROUNDS its rounds (5); LOG_BASE the earlier commit
# whose build log-throughput times beside this one (default cb4188dc, the
# command before compressed logs and referers; empty for none), or BASE_BIN
# a build of it made already. ONLY=log runs log-throughput alone (some 3
# minutes; the whole script takes far longer) and puts its table in place,
# the other tables taken from benches/results/ as an earlier run left them.
# On a machine shared with other work, BENCH_WRAP runs each binary under a
# wrapper, e.g. (as root) BENCH_WRAP="nice -n -5 taskset -c 1": one core,
# ahead of ordinary processes. (A real-time class, "chrt -f 10", once left a
# run spinning in the kernel, deaf to SIGKILL until its class was lowered.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$here/results"

cd "$root"
[ "${ONLY:-}" = log ] || cargo build --release -p rfc1738-bench --bins
{
    echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores" \
        "($(lscpu | sed -n 's/^Core(s) per socket: *//p') per socket," \
        "$(lscpu | sed -n 's/^Thread(s) per core: *//p') thread per core)," \
        "$(uname -sr), $(rustc --version)."
    echo "Library at commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)," \
        "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)."
    if [ -n "${BENCH_WRAP:-}" ]; then
        echo "Run under \`$BENCH_WRAP\`."
    fi
    echo
} > "$out/machine"

# Each binary's whole output, with the machine and the command first
# (with ONLY=log, the results of an earlier run are kept).
[ "${ONLY:-}" = log ] || for bin in parse-bench growth-bench extract-bench; do
    # shellcheck disable=SC2086 # BENCH_WRAP is a command line, split on purpose
    ${BENCH_WRAP:-} "target/release/$bin" --markdown "$@" > "$out/$bin.raw"
    {
        cat "$out/machine"
        echo "\`${BENCH_WRAP:+$BENCH_WRAP }cargo run --release -p rfc1738-bench --bin $bin -- --markdown\`"
        echo
        # Drop the binary's own header (machine line), keep the rest.
        sed '1d' "$out/$bin.raw"
    } > "$here/results/$bin.md"
done
if [ "${ONLY:-}" != log ]; then
    {
        # Not under BENCH_WRAP: it times the command with both cores.
        grep -v '^Run under' "$out/machine"
        echo "\`benches/check-throughput.sh ${CHECK_MB:-1000}\`"
        echo
        sh "$here/check-throughput.sh" "${CHECK_MB:-1000}"
    } > "$here/results/check-throughput.md"
fi
# The log's rows of an earlier build: the command before compressed logs
# and referers (LOG_BASE, a commit; empty: none), built once into
# target/log-base (kept between runs: incremental).
log_base=${LOG_BASE-cb4188dc}
base_bin=${BASE_BIN:-}
if [ -z "$base_bin" ] && [ -n "$log_base" ]; then
    git worktree add --detach "$out/base" "$log_base" >/dev/null
    (cd "$out/base" && cargo build --release -q -p rfc1738-cli --target-dir "$root/target/log-base")
    git worktree remove --force "$out/base"
    base_bin="$root/target/log-base/release/rfc1738"
fi
{
    grep -v '^Run under' "$out/machine"
    echo "\`${base_bin:+BASE_BIN=<build of $log_base> }benches/log-throughput.sh ${LOG_MB:-300} ${LOG_ROUNDS:-5}\`"
    echo
    BASE_BIN=$base_bin sh "$here/log-throughput.sh" "${LOG_MB:-300}" "${LOG_ROUNDS:-5}"
} > "$here/results/log-throughput.md"
cp "$here/results/log-throughput.md" "$out/log-throughput"

# What the READMEs show: parse-bench from its table over all files on,
# check-throughput's table.
{
    cat "$out/machine"
    sed -n '/^all files:/,$p' "$here/results/parse-bench.md"
} > "$out/parse-bench"
cp "$here/results/check-throughput.md" "$out/check-throughput"
{
    # The table over all files alone (the ratios per file stay in
    # benches/README.md).
    sed -n '/^all files:/,/^time relative/p' "$here/results/parse-bench.md" | sed '$d'
    echo "\`rfc1738 check\` on a file of the corpus's lists repeated" \
        "(\`benches/check-throughput.sh\`, both cores):"
    echo
    sed -n '/^input:/,$p' "$here/results/check-throughput.md"
    echo
    echo "\`rfc1738 check --input-format clf\` on a Combined log, gzip'd and plain" \
        "(\`benches/log-throughput.sh\`, both cores; $(sed -n '2{s/^Library at //;s/\.$//;p}' "$here/results/log-throughput.md")):"
    echo
    sed -n '/^input:/,$p' "$here/results/log-throughput.md"
    echo
    # The machine and commit of the tables above the log's.
    sed -n '1,2p' "$here/results/parse-bench.md"
} > "$out/speed"

# Replaces what lies between the markers NAME in FILE by the file $out/NAME.
put() {
    awk -v name="$1" -v file="$out/$1" '
        $0 == "<!-- " name ":start -->" { print; while ((getline line < file) > 0) print line; skip = 1; next }
        $0 == "<!-- " name ":end -->" { skip = 0 }
        !skip { print }
    ' "$2" > "$out/put"
    cp "$out/put" "$2"
}
if [ "${ONLY:-}" != log ]; then
    put parse-bench "$here/README.md"
    put check-throughput "$here/README.md"
fi
put log-throughput "$here/README.md"
put speed "$root/docs/SPEED.md"
echo "updated benches/results/, benches/README.md and docs/SPEED.md"
