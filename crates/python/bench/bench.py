"""tagloom from Python against the Python peers, same run (not a test).

usage: python bench.py CORPUS_DIR [ROUNDS]

- parse: ``tagloom.parse`` vs selectolax's ``LexborHTMLParser``, ``lxml.html`` and
  ``html5lib`` (html5lib on the pages only, one parse a sample: it is far slower);
- parse from ``str``: the same two calls on the decoded text (the pages and the
  concat; selectolax encodes a ``str`` with ``str.encode``, tagloom reads an ASCII
  one in place and encodes any other itself, from UCS-4 pieces);
- sanitize: ``tagloom.sanitize`` vs ``nh3.clean`` (default policies; str in, str out);
- ``parse_many`` and ``extract_text_many`` on 2 threads vs 1 over the pages
  repeated to about 20 MB: one sample a round like the rest, then a steadiness loop
  (``STEADY_CALLS`` calls of each thread count, alternating, one warm-up call each
  first) whose 2 / 1 ratios are given as min / median / max, with the CPU time of
  the calls (a 2-thread call that costs more CPU than a 1-thread one pays for
  something besides the parse; on a loaded machine the CPU figures are the ones to
  read, the wall clock there depends on what else runs); with them the same for a
  pure-compute control (SHA-256 of the batch, GIL released, on the same threads
  scheme): the 2 / 1 that 2 threads can get on the machine at that moment.

Inputs: every ``*.html`` of CORPUS_DIR and their 20 MB concat, bytes in (str for
the sanitizers and the ``str`` parse table, decoded outside the timed region). A
``str`` is a new string for every call (``Fresh``, made before the sample), as a
user's freshly decoded text is: CPython keeps a string's UTF-8 once anything has
asked for it through ``PyUnicode_AsUTF8AndSize``, and such a string would spare
every later call the encoding a real call pays.

Timing rules: those of ``crates/bench/scripts/selectolax_timer.py`` (the peer
bench's lexbor timer; its ``sample`` is the one used here), the same for every
engine and call:
- timed: the call on the input *and the release of its result* (``del``: lexbor's
  tree, tagloom's ``Document``, lxml's tree, the batch calls' lists);
- one untimed warm-up call on the same input right before every sample (steady
  state, not a fresh heap's first touch); the cyclic GC collected before and off
  during a sample;
- a sample is the mean over enough calls to cover about 2 MB;
- ``run.sh`` sources ``crates/bench/scripts/keep-heap.sh`` (every allocator keeps
  what it frees; the header line says whether it was in effect);
- engines interleave per input inside a round, in an order rotated every round, so
  none always runs right after the same other engine (allocator and cache state);
- lexbor parses with ``scripting=True``, as tagloom does by default; tagloom sniffs
  the encoding (its default), lexbor reads UTF-8 (its default).
The concat's parse calls (bytes) also record each call's system time and page faults
(``Traffic``; ``getrusage`` around the call and the release, inside the timed region,
a few microseconds): a timed call that grows the heap into fresh memory pays the
kernel for it, which the CPU ratio shows but cannot explain (BENCHMARKS.md, "From
Python", session 15: mimalloc's huge pages made tagloom's concat bimodal).
MB/s = 10^6 bytes/s (wall clock), the median of ROUNDS samples; a ratio is
tagloom's speed over the peer's in the same round, then the median over the rounds;
the "CPU" ratios take the process's CPU time instead of the wall clock (steadier
when a loaded machine deschedules the process). The "7 pages" row is the pages'
total bytes over their total time per round. Prints Markdown tables.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.metadata
import os
import resource
import statistics
import sys
import threading
import time
from typing import Callable, Dict, List, Tuple

import html5lib
import lxml.html
import nh3

import tagloom

# One loader, one timing rule: the peer bench's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "scripts"))
from selectolax_timer import CONCAT_BYTES, engines, inputs, iterations_for, rotated, sample  # noqa: E402

PARSERS: Dict[str, Callable[[bytes], object]] = {
    "tagloom": tagloom.parse,
    "lexbor": engines()["lexbor"],
    "lxml": lxml.html.document_fromstring,
    "html5lib": html5lib.parse,
}
SANITIZERS: Dict[str, Callable[[str], object]] = {
    "tagloom": tagloom.sanitize,
    "nh3": nh3.clean,
}
PAGES = "7 pages"
STR_PARSERS = ("tagloom", "lexbor")
STEADY_CALLS = 20
CONTROL = "control: sha256, 10 passes"


def control(batch: List[bytes], threads: int) -> None:
    """The batch calls' pure-compute control: SHA-256 of every document on `threads`
    threads (hashlib releases the GIL), items taken from a shared index as the pool
    takes them. What 2 threads give here is what the machine gives 2 threads of
    CPU-bound work right now (the two vCPUs may share a physical core, other
    processes may hold one): the cap for ``parse_many``'s 2 / 1."""
    items = iter(batch)
    lock = threading.Lock()

    def run() -> None:
        while True:
            with lock:
                item = next(items, None)
            if item is None:
                return
            hashlib.sha256(item).digest()

    helpers = [threading.Thread(target=run) for _ in range(threads - 1)]
    for helper in helpers:
        helper.start()
    run()
    for helper in helpers:
        helper.join()

Samples = Dict[Tuple[str, str], List[float]]


class Fresh:
    """`fn` on a new copy of `text` at every call (the argument `sample` passes is
    ignored): a string whose UTF-8 CPython has not made yet. Popping a prepared copy
    is the only work added to the timed region, the same for every engine."""

    def __init__(self, fn: Callable[[str], object], text: str, calls: int) -> None:
        self.fn = fn
        self.copies = [text.encode("utf-8").decode("utf-8") for _ in range(calls)]

    def __call__(self, _: object) -> object:
        return self.fn(self.copies.pop())


class Traffic:
    """`fn` with each call's system time (ms) and page faults recorded, the release
    of the result included (the call returns None, so `sample`'s own release is a
    no-op). `sample` makes one warm-up call before the timed ones: `timed` drops it."""

    def __init__(self, fn: Callable[[bytes], object]) -> None:
        self.fn = fn
        self.calls: List[Tuple[float, int]] = []

    def __call__(self, data: bytes) -> None:
        before = resource.getrusage(resource.RUSAGE_SELF)
        result = self.fn(data)
        del result
        after = resource.getrusage(resource.RUSAGE_SELF)
        self.calls.append(((after.ru_stime - before.ru_stime) * 1e3, after.ru_minflt - before.ru_minflt))

    def timed(self) -> List[Tuple[float, int]]:
        """The calls of samples of one timed call each (the concat's), warm-ups left out."""
        return self.calls[1::2]


def fresh_sample(fn: Callable[[str], object], text: str, iterations: int) -> Tuple[float, float]:
    """`sample` (warm-up call included) with a new string for every call."""
    return sample(Fresh(fn, text, iterations + 1), text, iterations)


def rates(secs: Samples, pages: List[Tuple[str, bytes]], name: str, engine: str) -> List[float]:
    """MB/s per round of `engine` on input `name`, or on all pages for PAGES."""
    if name != PAGES:
        size = next(len(d) for n, d in pages if n == name)
        return [size / s / 1e6 for s in secs[(name, engine)]]
    chosen = [(len(d), secs[(n, engine)]) for n, d in pages if n != "concat"]
    total = sum(size for size, _ in chosen)
    rounds = min(len(s) for _, s in chosen)
    return [total / sum(s[r] for _, s in chosen) / 1e6 for r in range(rounds)]


def cell(secs: Samples, pages, name: str, engine: str) -> str:
    if name != PAGES and (name, engine) not in secs:
        return "-"
    return f"{statistics.median(rates(secs, pages, name, engine)):.1f}"


def ratio(secs: Samples, pages, name: str, ours: str, peer: str) -> str:
    if name != PAGES and (name, peer) not in secs:
        return "-"
    per_round = [a / b for a, b in zip(rates(secs, pages, name, ours), rates(secs, pages, name, peer))]
    return f"{statistics.median(per_round):.2f}x"


def steadiness(calls, call: str, batch) -> Tuple[List[float], Dict[int, List[float]], Dict[int, List[float]]]:
    """STEADY_CALLS calls of `call` on 1 and 2 threads, alternating, each timed with
    the release of its result: the per-pair 2 / 1 speed ratios, walls and CPU times."""
    walls: Dict[int, List[float]] = {1: [], 2: []}
    cpus: Dict[int, List[float]] = {1: [], 2: []}
    sample(calls[(call, 1)], batch, 1)
    sample(calls[(call, 2)], batch, 1)
    gc.collect()
    gc.disable()
    try:
        for _ in range(STEADY_CALLS):
            for threads in (1, 2):
                start, start_cpu = time.perf_counter(), time.process_time()
                result = calls[(call, threads)](batch)
                del result
                cpus[threads].append(time.process_time() - start_cpu)
                walls[threads].append(time.perf_counter() - start)
    finally:
        gc.enable()
    return [a / b for a, b in zip(walls[1], walls[2])], walls, cpus


def spread(values: List[float], unit: str = "") -> str:
    fmt = ".2f" if unit else ".3f"
    return " / ".join(f"{v:{fmt}}{unit}" for v in (min(values), statistics.median(values), max(values)))


def versions() -> str:
    names = ("selectolax", "lxml", "html5lib", "nh3")
    return ", ".join(f"{n} {importlib.metadata.version(n)}" for n in names)


def main() -> None:
    corpus = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pages = inputs(corpus)
    texts = {name: data.decode("utf-8", errors="replace") for name, data in pages}
    parse: Samples = {}
    parse_cpu: Samples = {}
    parse_str: Samples = {}
    parse_str_cpu: Samples = {}
    clean: Samples = {}
    clean_cpu: Samples = {}
    batch = [data for name, data in pages if name != "concat"]
    batch = batch * max(1, CONCAT_BYTES // sum(map(len, batch)))
    batch_bytes = sum(map(len, batch))
    calls = {
        ("parse_many", 1): lambda b: tagloom.parse_many(b, threads=1),
        ("parse_many", 2): lambda b: tagloom.parse_many(b, threads=2),
        ("extract_text_many", 1): lambda b: tagloom.extract_text_many(b, threads=1),
        ("extract_text_many", 2): lambda b: tagloom.extract_text_many(b, threads=2),
        # SHA-256 is about ten times faster than a parse: ten passes make a call of
        # about the same length.
        (CONTROL, 1): lambda b: [control(b, 1) for _ in range(10)],
        (CONTROL, 2): lambda b: [control(b, 2) for _ in range(10)],
    }
    many: Dict[Tuple[str, int], List[float]] = {}
    many_cpu: Dict[Tuple[str, int], List[float]] = {}
    traffic = {engine: Traffic(PARSERS[engine]) for engine in ("tagloom", "lexbor")}
    load_before = os.getloadavg()
    for r in range(rounds):
        for name, data in pages:
            for engine in rotated(list(PARSERS), r):
                if engine == "html5lib" and name == "concat":
                    continue
                n = 1 if engine == "html5lib" else iterations_for(len(data))
                fn = traffic[engine] if name == "concat" and engine in traffic else PARSERS[engine]
                wall, cpu = sample(fn, data, n)
                parse.setdefault((name, engine), []).append(wall)
                parse_cpu.setdefault((name, engine), []).append(cpu)
            for engine in rotated(list(STR_PARSERS), r):
                wall, cpu = fresh_sample(PARSERS[engine], texts[name], iterations_for(len(data)))
                parse_str.setdefault((name, engine), []).append(wall)
                parse_str_cpu.setdefault((name, engine), []).append(cpu)
            for engine in rotated(list(SANITIZERS), r):
                wall, cpu = fresh_sample(SANITIZERS[engine], texts[name], iterations_for(len(data)))
                clean.setdefault((name, engine), []).append(wall)
                clean_cpu.setdefault((name, engine), []).append(cpu)
        for key in rotated(list(calls), r):
            wall, cpu = sample(calls[key], batch, 1)
            many.setdefault(key, []).append(batch_bytes / wall / 1e6)
            many_cpu.setdefault(key, []).append(cpu)
    steady = {call: steadiness(calls, call, batch) for call in ("parse_many", "extract_text_many", CONTROL)}
    load_after = os.getloadavg()

    names = [name for name, _ in pages if name != "concat"] + [PAGES, "concat"]
    size = {name: len(data) for name, data in pages}
    size[PAGES] = sum(len(d) for n, d in pages if n != "concat")
    kept = os.environ.get("MIMALLOC_PURGE_DELAY") == "-1" and "MALLOC_TRIM_THRESHOLD_" in os.environ
    heap = "kept (keep-heap.sh)" if kept else "the allocators' defaults"
    print(
        f"Heap: {heap}. Peers: {versions()}. Load average (1, 5, 15 min) before "
        f"{', '.join(f'{x:.1f}' for x in load_before)}, after {', '.join(f'{x:.1f}' for x in load_after)}.\n"
    )
    print(f"### Parse (MB/s, median of {rounds}; ratio = tagloom / peer, per round, median)\n")
    print(
        "| input | bytes | tagloom | lexbor | lxml | html5lib | vs lexbor | vs lexbor, CPU | vs lxml | vs html5lib |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        row = [name, str(size[name])] + [cell(parse, pages, name, e) for e in PARSERS]
        row += [ratio(parse, pages, name, "tagloom", "lexbor"), ratio(parse_cpu, pages, name, "tagloom", "lexbor")]
        row += [ratio(parse, pages, name, "tagloom", peer) for peer in ("lxml", "html5lib")]
        print("| " + " | ".join(row) + " |")
    print("\nConcat, each timed parse call (round 1, 2, ...): system time ms / page faults\n")
    print("| engine | calls |")
    print("|---|---|")
    for engine, record in traffic.items():
        print(f"| {engine} | " + ", ".join(f"{ms:.1f} / {faults}" for ms, faults in record.timed()) + " |")
    print(f"\n### Parse from `str` (MB/s of the page's bytes, median of {rounds}; a new string every call)\n")
    print("| input | tagloom | lexbor | vs lexbor | vs lexbor, CPU |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        t, n = cell(parse_str, pages, name, "tagloom"), cell(parse_str, pages, name, "lexbor")
        by_cpu = ratio(parse_str_cpu, pages, name, "tagloom", "lexbor")
        print(f"| {name} | {t} | {n} | {ratio(parse_str, pages, name, 'tagloom', 'lexbor')} | {by_cpu} |")
    print(f"\n### Sanitize (MB/s, median of {rounds}; a new string every call)\n")
    print("| input | tagloom | nh3 | tagloom / nh3 | tagloom / nh3, CPU |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        t, n = cell(clean, pages, name, "tagloom"), cell(clean, pages, name, "nh3")
        by_cpu = ratio(clean_cpu, pages, name, "tagloom", "nh3")
        print(f"| {name} | {t} | {n} | {ratio(clean, pages, name, 'tagloom', 'nh3')} | {by_cpu} |")
    print(f"\n### Batch calls over {len(batch)} pages ({batch_bytes / 1e6:.1f} MB), MB/s (results released in the timed region)\n")
    print("| call | 1 thread | 2 threads | 2 / 1 | CPU s, 1 thread | CPU s, 2 threads |")
    print("|---|---:|---:|---:|---:|---:|")
    for call in ("parse_many", "extract_text_many", CONTROL):
        one, two = many[(call, 1)], many[(call, 2)]
        per_round = statistics.median(b / a for a, b in zip(one, two))
        cpu1, cpu2 = (statistics.median(many_cpu[(call, t)]) for t in (1, 2))
        print(
            f"| {call} | {statistics.median(one):.1f} | {statistics.median(two):.1f} | {per_round:.2f}x "
            f"| {cpu1:.3f} | {cpu2:.3f} |"
        )
    print(f"\n### Batch calls, {STEADY_CALLS} calls of each (alternating 1 and 2 threads): min / median / max\n")
    print("| call | 2 / 1, wall | wall s, 1 thread | wall s, 2 threads | CPU s, 1 thread | CPU s, 2 threads |")
    print("|---|---|---|---|---|---|")
    for call, (ratios, walls, cpus) in steady.items():
        print(f"| {call} | {spread(ratios, 'x')} | {spread(walls[1])} | {spread(walls[2])} | {spread(cpus[1])} | {spread(cpus[2])} |")


if __name__ == "__main__":
    main()
