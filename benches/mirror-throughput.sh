#!/usr/bin/env bash
# `rfc1738 mirror` beside Debian's `wget --mirror --warc-file` on the same
# ftp tree of many small files, served by the test ftp server (vsftpd,
# scripts/test-servers start): the time per file of each, in one run,
# the wait between requests set to 0 for both.
#
#   benches/mirror-throughput.sh [FILES]     (default 500)
#
# The tree is made under the ftp root (bench/, beside the tests' pub/)
# and removed at the end. Both write WARC files into a temporary
# directory; the counts of resource records are printed beside the times.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-500}
env=target/test-servers/env
[[ -f $env ]] || { echo "mirror-throughput: no $env; run scripts/test-servers start" >&2; exit 2; }
# shellcheck disable=SC1090
source "$env"
command -v wget >/dev/null || { echo "mirror-throughput: no wget (apt-get install wget)" >&2; exit 2; }
bin=$(scripts/build-command)
tree=$ROOT/ftp/bench
work=$(mktemp -d)
trap 'rm -rf "$tree" "$work"' EXIT
mkdir -p "$tree/a" "$tree/b"
for i in $(seq 1 "$files"); do
    d=$tree/$([[ $((i % 2)) == 0 ]] && echo a || echo b)
    printf 'file %d of the mirror benchmark\n' "$i" >"$d/f$i.txt"
done
chmod -R a+rX "$tree"
seed=ftp://127.0.0.1:$FTP_PORT/bench/

time_of() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N); echo "$end - $start" | bc; }
records() { zcat "$@" | grep -ac '^WARC-Type: resource' || true; }

ours=$(time_of "$bin" mirror --wait 0 --no-robots --warc "$work/ours" "$seed")
(cd "$work" && mkdir w)
theirs=$(cd "$work/w" && time_of wget -q --mirror --no-host-directories --wait=0 --warc-file=wget "$seed")
n_ours=$(records "$work"/ours-*.warc.gz)
n_theirs=$(records "$work"/w/wget.warc.gz)
per() { echo "scale=2; $1 * 1000 / $files" | bc; }
echo "mirror-throughput: $files files of an ftp tree (two directories), wait 0, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '| tool | seconds | ms/file | resource records |\n|---|---|---|---|\n'
printf '| rfc1738 mirror | %.2f | %s | %s |\n' "$ours" "$(per "$ours")" "$n_ours"
printf '| wget --mirror --warc-file | %.2f | %s | %s |\n' "$theirs" "$(per "$theirs")" "$n_theirs"
