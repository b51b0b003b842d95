"""In-process timer of lexbor (selectolax's LexborHTMLParser) for the peer bench, and
the timing rules every Python-side bench of tagloom follows (`crates/python/bench/bench.py`
takes its inputs and rules from here).

usage: selectolax_timer.py CORPUS_DIR run ROUNDS | rss ENGINE

Timing rules (the same for every engine, here and in bench.py):
- The timed region is one call on the input bytes *and the release of its result*
  (`del`: selectolax frees its lexbor tree in `__dealloc__`, tagloom its DomStore in
  the Document's destructor); the Rust samples of `examples/peers.rs` drop their trees
  inside the timed loop too. Reading the files, the interpreter's start-up and the
  import are outside it.
- One untimed warm-up call (and release) on the same input right before every sample:
  a sample measures the steady state of a process that parses many documents, not
  the first touch of a fresh heap. Without it a fresh process pays page faults for
  the heap the parse grows into: lexbor (through glibc malloc, 4 KiB pages) takes
  about 42 000 faults on the first parse of the 20 MB concat (0–30 000 on the
  following ones, by what else ran: glibc gives a freed heap top back), and its
  first pass over the 7 pages runs at 0.5–0.65x the speed of the second
  (BENCHMARKS.md, "From Python").
  The peer bench runs this script once per round in a new process and the concat
  once per sample, so before these rules its lexbor concat figure was a cold one.
- The scripts that run the benches (`bench-peers.sh`, `crates/python/bench/run.sh`)
  source `keep-heap.sh`: every allocator keeps what it frees, so a warm sample has no
  page traffic whatever ran before it (`BENCH_KEEP_HEAP=0`: the defaults).
- Engines interleave per input inside a round, in an order rotated every round
  (`rotated`), so none always runs right after the same other one; the peer bench
  alternates which of its two processes goes first.
- The cyclic garbage collector is collected before and disabled during a sample (a
  collection triggered by an unrelated allocation is nobody's parse time).
- Small pages repeat until about SAMPLE_BYTES went through; a sample is the mean
  seconds per call, wall clock (`time.perf_counter`; the peer bench's figure) and
  the process's CPU time (`time.process_time`: less hurt than the wall clock when a
  loaded machine deschedules the process, but it sums the threads of a threaded
  call).
- lexbor is called as `LexborHTMLParser(bytes, scripting=True)`: the scripting flag
  tagloom and the Rust peers parse with (`<noscript>` is raw text); no encoding
  detection (selectolax's default: bytes are UTF-8).

The rules live here as functions (`sample`, `iterations_for`, `rotated`);
`crates/python/tests/test_bench_rules.py` checks them (selectolax is imported only
when an engine is asked for, so the rules import without it).

`run` prints the sample lines of `examples/peers.rs` (engine, input, chunk, bytes,
seconds). selectolax has no chunked parse (its old Modest backend is gone in 1.0),
so only `whole` samples are written. `rss ENGINE` parses the 20 MB concat once
(ENGINE `lexbor` or `baseline`) for /usr/bin/time -v.
"""

import functools
import gc
import os
import sys
import time

CONCAT_BYTES = 20_000_000
SAMPLE_BYTES = 2_000_000


def engines():
    """The Python engines this timer runs: lexbor as the rules above call it."""
    from selectolax.lexbor import LexborHTMLParser

    return {"lexbor": functools.partial(LexborHTMLParser, scripting=True)}


def inputs(corpus):
    names = sorted(n for n in os.listdir(corpus) if n.endswith(".html"))
    pages = []
    for name in names:
        with open(os.path.join(corpus, name), "rb") as f:
            pages.append((name[: -len(".html")], f.read()))
    concat = bytearray()
    while len(concat) < CONCAT_BYTES:
        for _, data in pages:
            concat += data
    pages.append(("concat", bytes(concat)))
    return pages


def iterations_for(size):
    """How many calls a sample of an input of `size` bytes makes."""
    return max(1, -(-SAMPLE_BYTES // size))


def rotated(names, by):
    """`names` starting at index `by` (mod its length): round r of a bench runs its
    engines in the order `rotated(engines, r)`, so none always follows the same one."""
    names = list(names)
    k = by % len(names)
    return names[k:] + names[:k]


def sample(fn, data, iterations):
    """Mean (wall, CPU) seconds of `fn(data)` plus the release of its result, after
    one warm-up call, with the cyclic GC off (the rules above)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = fn(data)
        del result
        wall = cpu = 0.0
        for _ in range(iterations):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = fn(data)
            del result
            cpu += time.process_time() - start_cpu
            wall += time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()
    return wall / iterations, cpu / iterations


def run(corpus, rounds):
    pages = inputs(corpus)
    parsers = engines()
    for _ in range(rounds):
        for name, data in pages:
            for engine, parser in parsers.items():
                secs, _ = sample(parser, data, iterations_for(len(data)))
                print(f"{engine}\t{name}\twhole\t{len(data)}\t{secs:.9f}")
    sys.stdout.flush()


def rss(corpus, engine):
    concat = inputs(corpus)[-1][1]
    if engine != "baseline":
        tree = engines()[engine](concat)
        print(tree.root is not None)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: selectolax_timer.py CORPUS_DIR run ROUNDS | rss ENGINE")
    corpus, mode = sys.argv[1], sys.argv[2]
    if mode == "run":
        run(corpus, int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif mode == "rss":
        rss(corpus, sys.argv[3])
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
