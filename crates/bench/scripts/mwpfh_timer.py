"""In-process timer of mwparserfromhell for the wikitext bench (issue 11).

usage: mwpfh_timer.py CORPUS_DIR ROUNDS

Prints the sample lines of `crates/wikitext/examples/wiki_speed.rs`
(engine, round, pages, bytes, seconds): time.perf_counter around
`mwparserfromhell.parse(text)` of each article only (the files are read
before timing; bytes are the UTF-8 sizes, as the Rust side counts). Exits with
an error if the C tokenizer is not active (the pure-Python one is ~10x slower).
"""

import os
import sys
import time

import mwparserfromhell


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, rounds = sys.argv[1], int(sys.argv[2])
    if not mwparserfromhell.parser.use_c:
        sys.exit("mwpfh_timer: mwparserfromhell's C tokenizer is not active")
    texts = []
    with open(os.path.join(corpus, "index.tsv"), encoding="utf-8") as index:
        for line in index:
            name = line.split("\t")[0]
            with open(os.path.join(corpus, "articles", name), encoding="utf-8") as f:
                texts.append(f.read())
    size = sum(len(t.encode("utf-8")) for t in texts)
    for r in range(rounds):
        total = 0.0
        for text in texts:
            start = time.perf_counter()
            code = mwparserfromhell.parse(text)
            total += time.perf_counter() - start
            del code
        print(f"mwparserfromhell\t{r}\t{len(texts)}\t{size}\t{total:.6f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
