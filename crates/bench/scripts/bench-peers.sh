#!/bin/sh
# The peer bench of issue 12 (see examples/peers.rs): tagloom, html5ever, html5gum,
# lol-html and lexbor (selectolax, installed into a venv under target/) on the bench
# pages and their 20 MB concat, whole and in 16 KiB chunks; rounds interleaved across
# the two processes (first one, then the other first), then one Markdown table on stdout.
#
# usage: crates/bench/scripts/bench-peers.sh [ROUNDS]   (from the workspace root)
# env:   TAGLOOM_BENCH_CORPUS (default ../shared/bench-corpus), PEERS_VENV, PEERS_OUT,
#        BENCH_KEEP_HEAP=0 (the allocators' defaults; see keep-heap.sh)
set -eu
rounds=${1:-5}
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/crates/bench/scripts/keep-heap.sh"
corpus=${TAGLOOM_BENCH_CORPUS:-$root/../shared/bench-corpus}
venv=${PEERS_VENV:-$root/target/peers-venv}
out=${PEERS_OUT:-$root/target/peers}
script=$root/crates/bench/scripts/selectolax_timer.py
mkdir -p "$out"
: > "$out/samples.tsv"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet selectolax
fi
: | cargo build --release -p tagloom-bench --example peers
peers=$root/target/release/examples/peers
export TAGLOOM_BENCH_CORPUS="$corpus"

# One round = one `peers run 1` and one `selectolax_timer.py run 1` (each sample after
# a warm-up parse; the rules are at the top of selectolax_timer.py); which of the two
# goes first alternates, so neither always runs in the other's wake.
i=0
while [ "$i" -lt "$rounds" ]; do
    if [ $((i % 2)) -eq 0 ]; then
        "$peers" run 1 >> "$out/samples.tsv"
        "$venv/bin/python" "$script" "$corpus" run 1 >> "$out/samples.tsv"
    else
        "$venv/bin/python" "$script" "$corpus" run 1 >> "$out/samples.tsv"
        "$peers" run 1 >> "$out/samples.tsv"
    fi
    i=$((i + 1))
done

# Peak RSS: one process per engine on the concat, minus the same runtime's baseline
# (the process with the concat loaded and nothing parsed).
max_rss_kib() {
    /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'
}
: > "$out/rss.tsv"
for chunk in whole 16k; do
    base=$(max_rss_kib "$peers" rss baseline "$chunk")
    for engine in tagloom tagloom-tok html5ever html5ever-tok html5gum lol-html; do
        kib=$(max_rss_kib "$peers" rss "$engine" "$chunk")
        echo "rss	$engine	$chunk	$(echo "$kib $base" | awk '{printf "%.1f", ($1-$2)/1024}')" >> "$out/rss.tsv"
    done
done
base=$(max_rss_kib "$venv/bin/python" "$script" "$corpus" rss baseline)
for engine in lexbor; do
    kib=$(max_rss_kib "$venv/bin/python" "$script" "$corpus" rss "$engine")
    echo "rss	$engine	whole	$(echo "$kib $base" | awk '{printf "%.1f", ($1-$2)/1024}')" >> "$out/rss.tsv"
done

"$peers" table "$out/samples.tsv" "$out/rss.tsv"
