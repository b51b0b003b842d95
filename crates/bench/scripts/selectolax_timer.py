"""In-process timer of lexbor (selectolax's LexborHTMLParser) for the peer bench.

usage: selectolax_timer.py CORPUS_DIR run ROUNDS | rss ENGINE

`run` prints the sample lines of `examples/peers.rs` (engine, input, chunk, bytes,
seconds): time.perf_counter around the parser constructor and the tree's release
(the Rust samples drop each tree inside their timed loop too), bytes input, the
interpreter's start-up and the file reads outside the timed region. Small pages
repeat until about 2 MB went through (mean per parse, as the Rust side does).
selectolax has no chunked parse (its old Modest backend is gone in 1.0), so only `whole` samples are written.
`rss ENGINE` parses the 20 MB concat once (ENGINE `lexbor` or
`baseline`) for /usr/bin/time -v.
"""

import os
import sys
import time

from selectolax.lexbor import LexborHTMLParser

CONCAT_BYTES = 20_000_000
SAMPLE_BYTES = 2_000_000
ENGINES = {"lexbor": LexborHTMLParser}


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


def run(corpus, rounds):
    pages = inputs(corpus)
    for _ in range(rounds):
        for name, data in pages:
            iterations = max(1, -(-SAMPLE_BYTES // len(data)))
            for engine, parser in ENGINES.items():
                total = 0.0
                for _ in range(iterations):
                    # The tree is freed inside the timed region, as the Rust
                    # engines' trees are (their samples drop each tree per parse).
                    start = time.perf_counter()
                    tree = parser(data)
                    del tree
                    total += time.perf_counter() - start
                print(f"{engine}\t{name}\twhole\t{len(data)}\t{total / iterations:.9f}")
    sys.stdout.flush()


def rss(corpus, engine):
    concat = inputs(corpus)[-1][1]
    if engine != "baseline":
        tree = ENGINES[engine](concat)
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
