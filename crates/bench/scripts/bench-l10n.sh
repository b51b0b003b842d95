#!/usr/bin/env bash
# The localization bench of issue 12 (point 4), in one run:
#  1. `l10n_speed run ROUNDS`: extract and merge of the bench pages' 20 MB concat
#     against html5ever's tokenizer on the same file, rounds alternating;
#  2. a generated page of BIG_BYTES (default 1 GB): extract and merge once each,
#     with the peak RSS (`/usr/bin/time`) and the peak temp disk (the bytes of the
#     files the process holds open in its TMPDIR, polled every 0.2 s: the skeleton
#     store is an anonymous temp file, invisible to `du`), and a byte-identical
#     untranslated round trip; before them, `l10n_speed run BIG_ROUNDS` (default 1)
#     on that page, for the same-run ratios to html5ever's tokenizer there. A merge
#     of one regular file reads and writes at once and keeps its skeleton in
#     memory (no temp file: 0 MB is its true figure); the temp-file skeleton
#     (directory runs, `--temp-dir`, the fallback path) is measured by a third
#     merge with `--temp-dir`, whose store the poll sees.
#
# Usage: crates/bench/scripts/bench-l10n.sh [ROUNDS]   (BIG_BYTES=… to change the size;
# BIG_BYTES=0: the concat only, no generated page; BIG_ROUNDS=… rounds on the big page)
# Disk: the page, its XLIFF (~3.7x the page) and the translated XLIFF (~4.7x) at
# once while translating, about 9.4x BIG_BYTES; intermediates are deleted as it goes.
# Files go to target/l10n-bench/ (the big page is kept between runs).
set -euo pipefail

ROUNDS=${1:-3}
BIG_BYTES=${BIG_BYTES:-1000000000}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"

# Two builds: with `--example`, cargo would leave the `tagloom` binary as it was.
cargo build --release -p tagloom-cli --bin tagloom
cargo build --release -p tagloom-bench --example l10n_speed
TAGLOOM=$ROOT/target/release/tagloom
SPEED=$ROOT/target/release/examples/l10n_speed
WORK=$ROOT/target/l10n-bench
TMP=$WORK/tmp
mkdir -p "$TMP"

rm -f "$WORK/big.merged.html" "$WORK/big.translated.xlf"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$SPEED" run "$ROUNDS"

if [ "$BIG_BYTES" -eq 0 ]; then
    echo "== BIG_BYTES=0: no generated page"
    echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

# A page kept from an earlier run is used when it has the size asked for (the
# generator overshoots by less than a section).
BIG=$WORK/big.html
if [ ! -f "$BIG" ] || [ "$(stat -c %s "$BIG")" -lt "$BIG_BYTES" ] ||
    [ "$(stat -c %s "$BIG")" -gt "$((BIG_BYTES + 1000000))" ]; then
    "$SPEED" generate "$BIG" "$BIG_BYTES"
fi

# The same-run ratios on the big page (issue 12 pt 4 asks for both inputs):
# BIG_ROUNDS rounds of html5ever's tokenizer, extract and merge, alternating.
# Its XLIFF, translated XLIFF and merge (~9.4x the page) go once it is done.
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$SPEED" run "${BIG_ROUNDS:-1}" "$BIG"
rm -f "$WORK/big.xlf" "$WORK/big.translated.xlf" "$WORK/big.merged.html"

# Sum of the sizes of the files process $1 holds open under $TMP (an unlinked
# file reads as `$TMP/#INODE (deleted)`), each file once however many of its
# descriptors are open.
temp_bytes() {
    local sum=0 fd link inode size seen=" "
    for fd in /proc/"$1"/fd/*; do
        link=$(readlink "$fd" 2>/dev/null) || continue
        case "$link" in
        "$TMP"/*)
            read -r inode size < <(stat -L -c '%i %s' "$fd" 2>/dev/null) || continue
            case "$seen" in *" $inode "*) continue ;; esac
            seen="$seen$inode "
            sum=$((sum + size))
            ;;
        esac
    done
    echo "$sum"
}

# measure LABEL COMMAND...: runs it with TMPDIR=$TMP; prints wall, peak RSS, peak temp.
# Dirty pages of the earlier steps are flushed first (untimed, as `l10n_speed` does
# before each engine): each run pays for writing its own output, not the last one's.
measure() {
    local label=$1
    shift
    sync
    TMPDIR=$TMP /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" &
    local timer=$! child="" peak=0 now
    while kill -0 "$timer" 2>/dev/null; do
        [ -n "$child" ] || child=$(pgrep -P "$timer" || true)
        if [ -n "$child" ]; then
            now=$(temp_bytes "$child")
            [ "$now" -gt "$peak" ] && peak=$now
        fi
        sleep 0.2
    done
    wait "$timer" || { cat "$WORK/stderr.txt" >&2; return 1; }
    read -r wall rss <"$WORK/time.txt"
    local bytes
    bytes=$(stat -c %s "$BIG")
    printf '| %s | %.1f MB | %s s | %.1f MB/s | %.1f MiB | %.1f MB (%.2f× the input) |\n' \
        "$label" "$(echo "$bytes / 1000000" | bc -l)" "$wall" \
        "$(echo "$bytes / 1000000 / $wall" | bc -l)" "$(echo "$rss / 1024" | bc -l)" \
        "$(echo "$peak / 1000000" | bc -l)" "$(echo "$peak / $bytes" | bc -l)"
}

echo
echo "| job | input | wall | MB/s | peak RSS | peak temp disk |"
echo "|---|---:|---:|---:|---:|---:|"
measure "extract (XLIFF)" "$TAGLOOM" l10n extract "$BIG" --source en --target fr -o "$WORK/big.xlf"
measure "merge, untranslated" "$TAGLOOM" l10n merge "$BIG" "$WORK/big.xlf" -o "$WORK/big.merged.html"
same_as_big() {
    if cmp -s "$BIG" "$WORK/big.merged.html"; then
        echo "untranslated round trip ($1): byte-identical"
    else
        echo "untranslated round trip ($1): DIFFERS" >&2
        exit 1
    fi
}
same_as_big "in-memory skeleton"
rm -f "$WORK/big.merged.html"
measure "merge, untranslated, temp-file skeleton" "$TAGLOOM" l10n merge "$BIG" "$WORK/big.xlf" \
    --temp-dir "$TMP" -o "$WORK/big.merged.html"
same_as_big "temp-file skeleton"
# The XLIFF is ~4x the page and its translation ~5x: keep the disk they need small.
rm -f "$WORK/big.merged.html"
"$SPEED" translate "$WORK/big.xlf" "$WORK/big.translated.xlf"
rm -f "$WORK/big.xlf"
measure "merge, every unit translated" "$TAGLOOM" l10n merge "$BIG" "$WORK/big.translated.xlf" -o "$WORK/big.merged.html"
rm -f "$WORK/big.merged.html" "$WORK/big.translated.xlf"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
