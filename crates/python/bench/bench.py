"""tagloom from Python against the Python peers, same run (not a test).

usage: python bench.py CORPUS_DIR [ROUNDS]

- parse: ``tagloom.parse`` vs selectolax's ``LexborHTMLParser``, ``lxml.html`` and
  ``html5lib`` (html5lib on the pages only, one parse each: it is far slower);
- sanitize: ``tagloom.sanitize`` vs ``nh3.clean`` (default policies; str in, str out);
- ``parse_many`` and ``extract_text_many`` on 2 threads vs 1 over the pages
  repeated to about 20 MB.

Inputs: every ``*.html`` of CORPUS_DIR and their 20 MB concat (read by
``inputs`` of ``crates/bench/scripts/selectolax_timer.py``, the peer bench's loader). Bytes go in (str for the
sanitizers, decoded outside the timed region). Each sample is the mean over
enough parses to cover about 2 MB; engines interleave within each round; the
table gives the median of ROUNDS samples as MB/s and each peer's ratio to tagloom.
Prints a Markdown table.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple

import html5lib
import lxml.html
import nh3
from selectolax.lexbor import LexborHTMLParser

import tagloom

# One loader for the corpus and its concat: the peer bench's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "scripts"))
from selectolax_timer import CONCAT_BYTES, SAMPLE_BYTES, inputs  # noqa: E402


def sample(fn: Callable[[object], object], data: object, size: int, once: bool = False) -> float:
    """Mean seconds per call over about SAMPLE_BYTES of input."""
    iterations = 1 if once else max(1, -(-SAMPLE_BYTES // size))
    total = 0.0
    for _ in range(iterations):
        start = time.perf_counter()
        result = fn(data)
        total += time.perf_counter() - start
        del result
    return total / iterations


PARSERS: Dict[str, Callable[[bytes], object]] = {
    "tagloom": tagloom.parse,
    "lexbor": LexborHTMLParser,
    "lxml": lxml.html.document_fromstring,
    "html5lib": html5lib.parse,
}
SANITIZERS: Dict[str, Callable[[str], object]] = {
    "tagloom": tagloom.sanitize,
    "nh3": nh3.clean,
}


def main() -> None:
    corpus = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pages = inputs(corpus)
    texts = {name: data.decode("utf-8", errors="replace") for name, data in pages}
    parse: Dict[Tuple[str, str], List[float]] = {}
    clean: Dict[Tuple[str, str], List[float]] = {}
    many: Dict[int, List[float]] = {1: [], 2: []}
    text_many: Dict[int, List[float]] = {1: [], 2: []}
    batch = [data for name, data in pages if name != "concat"]
    batch = batch * max(1, CONCAT_BYTES // sum(map(len, batch)))
    batch_bytes = sum(map(len, batch))
    for _ in range(rounds):
        for name, data in pages:
            for engine, fn in PARSERS.items():
                if engine == "html5lib" and name == "concat":
                    continue
                once = engine == "html5lib"
                parse.setdefault((name, engine), []).append(len(data) / sample(fn, data, len(data), once))
            for engine, fn in SANITIZERS.items():
                text = texts[name]
                clean.setdefault((name, engine), []).append(len(data) / sample(fn, text, len(data)))
        for threads in (1, 2):
            start = time.perf_counter()
            docs = tagloom.parse_many(batch, threads=threads)
            many[threads].append(batch_bytes / (time.perf_counter() - start))
            del docs
            start = time.perf_counter()
            extracted = tagloom.extract_text_many(batch, threads=threads)
            text_many[threads].append(batch_bytes / (time.perf_counter() - start))
            del extracted

    def mbs(samples: List[float]) -> float:
        return statistics.median(samples) / 1e6

    print(f"### Parse (MB/s, median of {rounds}; ratio = tagloom / peer)\n")
    print("| input | bytes | tagloom | lexbor | lxml | html5lib | vs lexbor | vs lxml | vs html5lib |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, data in pages:
        t = mbs(parse[(name, "tagloom")])
        row = [name, str(len(data)), f"{t:.1f}"]
        ratios = []
        for peer in ("lexbor", "lxml", "html5lib"):
            if (name, peer) in parse:
                p = mbs(parse[(name, peer)])
                row.append(f"{p:.1f}")
                ratios.append(f"{t / p:.2f}x")
            else:
                row.append("-")
                ratios.append("-")
        print("| " + " | ".join(row + ratios) + " |")
    print(f"\n### Sanitize (MB/s, median of {rounds})\n")
    print("| input | tagloom | nh3 | tagloom / nh3 |")
    print("|---|---:|---:|---:|")
    for name, _ in pages:
        t, n = mbs(clean[(name, "tagloom")]), mbs(clean[(name, "nh3")])
        print(f"| {name} | {t:.1f} | {n:.1f} | {t / n:.2f}x |")
    print(f"\n### Batch calls over {len(batch)} pages ({batch_bytes / 1e6:.1f} MB), MB/s\n")
    print("| call | 1 thread | 2 threads | 2 / 1 |")
    print("|---|---:|---:|---:|")
    for call, samples in (("parse_many (trees kept)", many), ("extract_text_many", text_many)):
        one, two = mbs(samples[1]), mbs(samples[2])
        print(f"| {call} | {one:.1f} | {two:.1f} | {two / one:.2f}x |")


if __name__ == "__main__":
    main()
