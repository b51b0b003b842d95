#!/bin/sh
# The wikitext bench of issue 11 (point 4), on real Wikipedia articles:
#
# 1. speed: `tagloom_wikitext::render` (in process, examples/wiki_speed.rs of
#    crates/wikitext) against mwparserfromhell's parse (in process,
#    mwpfh_timer.py, C tokenizer checked), one core, rounds interleaved, same run;
# 2. dump: `tagloom wiki --dump` on a multistream .bz2 dump of the corpus (4
#    copies), RAYON_NUM_THREADS=1 against 2, wall and user+sys per run, with the
#    load average (the machine is shared: say it with the figures).
#
# The corpus comes from a package, downloaded at bench time into target/ (nothing
# of it is committed): the gensim wheel (PyPI) ships two shortened English
# Wikipedia dumps as test data (2016-2017 revisions; the text is Wikipedia's,
# CC BY-SA 3.0 / GFDL; gensim's LGPL covers its code). wiki_corpus.py takes the
# 111 main-namespace non-redirect articles out of them (5.98 MB of wikitext). The
# dumps hold no template pages: every template call renders as a red link to its
# template (what `tagloom wiki` does without --templates pages).
#
# usage: crates/bench/scripts/bench-wiki.sh [ROUNDS] [DUMP_ROUNDS]   (from the workspace root)
# env:   WIKI_VENV (default target/wiki-venv), WIKI_OUT (default target/wiki-bench),
#        WIKI_AUTOGROUP_NICE: with Linux's per-session scheduling (sched_autogroup) a
#        process on a busy machine gets one session's share of the cores however many
#        threads it runs, so 1 and 2 threads take the same wall time; run the script
#        as `setsid env WIKI_AUTOGROUP_NICE=-20 crates/bench/scripts/bench-wiki.sh` (root)
#        to give its session the cores for the bench (say so with the figures).
set -eu
if [ -n "${WIKI_AUTOGROUP_NICE:-}" ]; then
    echo "$WIKI_AUTOGROUP_NICE" > /proc/self/autogroup
fi
rounds=${1:-5}
dump_rounds=${2:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
venv=${WIKI_VENV:-$root/target/wiki-venv}
out=${WIKI_OUT:-$root/target/wiki-bench}
scripts=$root/crates/bench/scripts
corpus=$out/corpus
mkdir -p "$out"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet mwparserfromhell
fi
if [ ! -f "$corpus/index.tsv" ]; then
    "$venv/bin/pip" download --quiet --no-deps --only-binary :all: -d "$out/wheel" gensim==4.4.0
    "$venv/bin/python" "$scripts/wiki_corpus.py" "$out"/wheel/gensim-4.4.0-*.whl "$corpus" 4
fi
: | cargo build --release -p tagloom-wikitext --example wiki_speed
: | cargo build --release -p tagloom-cli
speed=$root/target/release/examples/wiki_speed
tagloom=$root/target/release/tagloom

echo "## speed (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
: > "$out/samples.tsv"
i=0
while [ "$i" -lt "$rounds" ]; do
    "$speed" run "$corpus" 1 | sed "s/\t0\t/\t$i\t/" >> "$out/samples.tsv"
    "$venv/bin/python" "$scripts/mwpfh_timer.py" "$corpus" 1 | sed "s/\t0\t/\t$i\t/" >> "$out/samples.tsv"
    i=$((i + 1))
done
"$speed" table "$out/samples.tsv"
echo "(load average after: $(cut -d' ' -f1-3 /proc/loadavg))"

echo
echo "## wiki --dump, $(basename "$corpus"/dump-x4-multistream.xml.bz2)"
echo
echo "| run | threads | wall s | user s | sys s | load average (1, 5, 15 min) |"
echo "|---:|---:|---:|---:|---:|---|"
i=0
while [ "$i" -lt "$dump_rounds" ]; do
    for n in 1 2; do
        rm -rf "$out/dump-out"
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        t=$(RAYON_NUM_THREADS=$n /usr/bin/time -f "%e %U %S" \
            "$tagloom" wiki --dump "$corpus/dump-x4-multistream.xml.bz2" -o "$out/dump-out" 2>&1 >/dev/null | tail -1)
        echo "| $i | $n | $(echo "$t" | tr ' ' '|' | sed 's/|/ | /g') | $load |"
    done
    i=$((i + 1))
done
rm -rf "$out/dump-out"
