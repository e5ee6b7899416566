#!/bin/sh
# Speed of `rfc1738 check --quiet --input-format clf` on a web server's log as it
# comes, in one run: a Combined log of about SIZE_MB (made here by awk:
# paths, queries, referers, user agents, one line in a hundred with an
# unsafe character), then gzip'd. Times, each ROUNDS times, the commands
# taking turns:
#   gzip -dc FILE.gz >/dev/null           inflating alone (the bar)
#   check --input-format clf FILE.gz            inflated on a thread while checked
#   check --input-format clf FILE               plain, request and referer checked
#   check --input-format clf --fields request   plain, the request alone
#   check --json --input-format clf FILE         a record per line, every field
#   the same with BASE_BIN (optional)     a build of an earlier commit
# and prints a Markdown table of the median and the spread of each, and
# its time over that of `gzip -dc`.
# Usage: benches/log-throughput.sh [SIZE_MB] [ROUNDS]   (defaults: 300, 5)
# BASE_BIN=path/to/rfc1738 adds the rows of an earlier build (benches/
# update-readme.sh builds commit LOG_BASE for it); e.g.
#   git worktree add /tmp/base main && (cd /tmp/base &&
#   cargo build --release -p rfc1738-cli) && BASE_BIN=/tmp/base/target/release/rfc1738
# The files are removed afterwards.
set -eu
size_mb=${1:-300}
rounds=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cargo build --release -q -p rfc1738-cli
bin="$here/target/release/rfc1738"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
log="$dir/access.log"
awk -v want=$((size_mb * 1000000)) 'BEGIN {
    srand(1738);
    split("GET GET GET GET POST HEAD", methods, " ");
    split("/ /index.html /img/logo.png /css/site.css /api/v1/items /search /blog/2000/10/10/post.html /favicon.ico", paths, " ");
    split("http://www.example.com/ https://search.example.org/q?s=rfc+1738 - - - http://news.example.net/a/b.html android-app://com.example.app/ http://ref.example/a%20b", refs, " ");
    n = 0; bytes = 0;
    while (bytes < want) {
        n++;
        path = paths[1 + int(rand() * 8)];
        if (path == "/search" || path == "/api/v1/items") path = path "?q=" int(rand() * 100000) "&page=" int(rand() * 9);
        if (n % 100 == 0) path = path "~user/x y";
        ref = refs[1 + int(rand() * 8)];
        line = sprintf("192.0.%d.%d - - [10/Oct/2000:13:%02d:%02d -0700] \"%s %s HTTP/1.1\" %d %d \"%s\" \"Mozilla/5.0 (X11; Linux x86_64) Example/%d.0\"",
            int(rand() * 256), int(rand() * 256), int(rand() * 60), int(rand() * 60), methods[1 + int(rand() * 6)], path,
            (rand() < 0.9 ? 200 : 404), int(rand() * 50000), ref, int(rand() * 120));
        print line;
        bytes += length(line) + 1;
    }
}' > "$log"
gzip -6 -c "$log" > "$log.gz"
bytes=$(stat -c %s "$log")
gz=$(stat -c %s "$log.gz")
lines=$(wc -l < "$log")
cat "$log" "$log.gz" > /dev/null

cat > "$dir/commands" <<CMDS
gzip -dc FILE.gz >/dev/null	gzip -dc "$log.gz" > /dev/null
check --quiet --input-format clf FILE.gz	"$bin" check --quiet --input-format clf "$log.gz" > /dev/null || true
check --quiet --input-format clf FILE	"$bin" check --quiet --input-format clf "$log" > /dev/null || true
check --quiet --input-format clf --fields request FILE	"$bin" check --quiet --input-format clf --fields request "$log" > /dev/null || true
check --json --input-format clf FILE	"$bin" check --json --input-format clf "$log" > /dev/null 2>&1 || true
CMDS
if [ -n "${BASE_BIN:-}" ]; then
    printf '%s\t%s\n' "earlier build: check --quiet --input-format clf FILE" "\"$BASE_BIN\" check --quiet --input-format clf \"$log\" > /dev/null || true" >> "$dir/commands"
    printf '%s\t%s\n' "earlier build: check --json --input-format clf FILE" "\"$BASE_BIN\" check --json --input-format clf \"$log\" > /dev/null 2>&1 || true" >> "$dir/commands"
    printf '%s\t%s\n' "earlier build: zcat FILE.gz | check --quiet --input-format clf -" "gzip -dc \"$log.gz\" | \"$BASE_BIN\" check --quiet --input-format clf - > /dev/null || true" >> "$dir/commands"
fi

n=$(wc -l < "$dir/commands")
round=0
while [ "$round" -lt "$rounds" ]; do
    k=0
    while [ "$k" -lt "$n" ]; do
        line=$(( (k + round) % n + 1 ))
        cmd=$(sed -n "${line}p" "$dir/commands" | cut -f2)
        start=$(date +%s.%N)
        sh -c "$cmd"
        end=$(date +%s.%N)
        echo "$line $(echo "$start $end" | awk '{ printf "%.4f", $2 - $1 }')" >> "$dir/times"
        k=$((k + 1))
    done
    round=$((round + 1))
done

echo "input: a Combined log of $bytes bytes, $lines lines; gzip -6: $gz bytes; $(nproc) cores, $rounds rounds (median, lowest to highest)"
echo
echo "| command | median s | spread s | over gzip -dc |"
echo "|---|---:|---:|---:|"
k=1
base=
while [ "$k" -le "$n" ]; do
    label=$(sed -n "${k}p" "$dir/commands" | cut -f1)
    stats=$(awk -v k="$k" '$1 == k { print $2 }' "$dir/times" | sort -n | awk '
        { t[NR] = $1 }
        END { m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, t[1], t[NR] }')
    median=${stats%% *}
    rest=${stats#* }
    [ -z "$base" ] && base=$median
    ratio=$(echo "$median $base" | awk '{ printf "%.2f", $1 / $2 }')
    echo "| \`$label\` | $median | ${rest% *}–${rest#* } | ${ratio}× |"
    echo "$median" > "$dir/median.$k"
    k=$((k + 1))
done
# The two aims in words: the .gz file against `gzip -dc` alone, the plain
# file (request and referer) against the earlier build's plain run.
echo
over() { awk -v a="$(cat "$dir/median.$1")" -v b="$(cat "$dir/median.$2")" 'BEGIN { printf "%.2f× (%.2f s against %.2f s)", a / b, a, b }'; }
echo "gzip'd log over \`gzip -dc\`: $(over 2 1)."
echo "\`--json\` over \`--quiet\`, plain log: $(over 5 3)."
if [ -n "${BASE_BIN:-}" ]; then
    echo "Plain log, request and referer, over the earlier build's plain run: $(over 3 6);" \
        "\`--fields request\` over it: $(over 4 6)."
    echo "The earlier build's \`--json\` over its \`--quiet\`: $(over 7 6)."
fi
