#!/bin/sh
# Builds the release wheel (the one users get: fat LTO) into a venv with the peers
# (selectolax, lxml, html5lib, nh3) and runs bench.py.
# usage: crates/python/bench/run.sh [ROUNDS]   (from the workspace root)
# The timing rules are at the top of crates/bench/scripts/selectolax_timer.py; the
# load-independent figure (instructions per call, callgrind) is instructions.py here.
# env:   TAGLOOM_BENCH_CORPUS (default ../shared/bench-corpus), BENCH_VENV,
#        BENCH_KEEP_HEAP=0 (the allocators' defaults; see crates/bench/scripts/keep-heap.sh)
set -eu
rounds=${1:-5}
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/crates/bench/scripts/keep-heap.sh"
corpus=${TAGLOOM_BENCH_CORPUS:-$root/../shared/bench-corpus}
venv=${BENCH_VENV:-$root/target/py-bench-venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet selectolax lxml html5lib nh3 maturin
fi
(cd "$root/crates/python" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --release --quiet)
"$venv/bin/python" "$root/crates/python/bench/bench.py" "$corpus" "$rounds"
