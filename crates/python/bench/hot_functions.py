"""Writes ``crates/python/hot-functions.txt``: the extension's functions that
``tagloom.parse`` runs, hottest first, as the linker names them (not a test).

usage: python hot_functions.py CORPUS_DIR OUT_DIR [OUTPUT]

Why: a fat-LTO build lays the parse's few dozen hot functions out across about
1 MiB of the module's text, in an order that moves with any change anywhere in the
crate graph, and where they fall decides how many of them evict each other from
the 32 KiB instruction cache (callgrind/cachegrind: 220 000 to 420 000 I1 misses
over the 7 bench pages for three builds of the same code, lexbor 50 000).
``build.rs`` hands this list to the linker (lld's ``--symbol-ordering-file``), which
puts those functions first, next to each other, in this order.

How: the bench venv's python with the release wheel installed (``run.sh`` or
``maturin develop --release``), valgrind on the PATH. For every bench page it runs
``tagloom.parse`` under callgrind as ``instructions.py`` does (1 and 3 calls after a
warm-up; the difference is what the calls ran), sums each function's own
instructions over the pages, keeps the functions of the extension module that run
99.5 % of its instructions and writes their symbol names (``nm``; Rust's names carry a hash of the crate's
metadata, stable across checkouts, not across dependency or compiler changes: a
name the linker does not find is skipped, so a stale list costs the ordering, not
the build). Regenerate after a compiler or dependency update.
"""

from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
from typing import Counter, Dict, List

from instructions import collected, inputs

SHARE = 0.995
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hot-functions.txt")


def own_counts(path: str, module: str) -> Counter[str]:
    """Each function's own instructions in `path`, for the functions of `module`."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True,
                         check=True).stdout
    counts: Counter[str] = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+[^:\s]+:(.*) \[(.*)\]\s*$", line)
        if m and os.path.basename(m.group(3)) == module:
            counts[m.group(2)] += int(m.group(1).replace(",", ""))
    return counts


def symbols(library: str) -> Dict[str, List[str]]:
    """Demangled name → the symbol names of the code in `library`."""
    raw = subprocess.run(["nm", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    readable = subprocess.run(["nm", "-C", "--defined-only", library], capture_output=True, text=True,
                              check=True).stdout
    names: Dict[str, List[str]] = collections.defaultdict(list)
    for mangled, demangled in zip(raw.splitlines(), readable.splitlines()):
        m, d = mangled.split(" ", 2), demangled.split(" ", 2)
        if len(m) == 3 and len(d) == 3 and m[1] in "tT":
            names[d[2]].append(m[2])
    return names


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    corpus, out_dir = sys.argv[1], sys.argv[2]
    output = sys.argv[3] if len(sys.argv) > 3 else OUTPUT
    import tagloom._tagloom as extension

    library = extension.__file__
    module = os.path.basename(library)
    os.makedirs(out_dir, exist_ok=True)
    total: Counter[str] = collections.Counter()
    for name, _ in inputs(corpus):
        if name == "concat":
            continue
        one = own_counts(collected(out_dir, corpus, "parse", "tagloom", name, 1), module)
        three = own_counts(collected(out_dir, corpus, "parse", "tagloom", name, 3), module)
        for function, count in three.items():
            if count > one.get(function, 0):
                total[function] += count - one.get(function, 0)
    names = symbols(library)
    module_total = sum(count for function, count in total.items() if function in names)
    lines: List[str] = []
    listed = 0
    # The functions that run 99.5 % of the module's instructions (a few dozen, about
    # 90 KB): a longer list of lukewarm ones measured no better (more I1 misses).
    for function, count in total.most_common():
        if listed >= SHARE * module_total:
            break
        if function in names:
            lines.extend(names[function])
            listed += count
    with open(output, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{len(lines)} symbols, {100 * listed / max(sum(total.values()), 1):.1f} % of the calls' instructions "
          f"in the module -> {output}")


if __name__ == "__main__":
    main()
