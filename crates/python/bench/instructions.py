"""Instructions per call of ``tagloom.parse`` and selectolax's ``LexborHTMLParser``
(callgrind): the load-independent ratio behind BENCHMARKS.md "From Python" (not a test).

usage: python instructions.py CORPUS_DIR OUT_DIR [INPUT...]
       (INPUT: a page name such as ``espn-article``, or ``concat``; default: the pages)

Run it with the bench venv's python after ``run.sh`` installed the wheel, with
valgrind on the PATH. For every engine and input it runs the engine under
``valgrind --tool=callgrind`` in two processes, one making 1 call and one making 3
(each after one untimed warm-up call; every call's result is released at once, as
in the timed benches), and reports half the difference: one call's instructions
with the interpreter's start-up, the imports and the file reads cancelled out.
``PYTHONHASHSEED=0`` keeps the two processes alike. The callgrind files stay in
OUT_DIR for ``callgrind_annotate`` (a 20 MB concat takes minutes under callgrind).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Callable, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "scripts"))
from selectolax_timer import engines, inputs  # noqa: E402

ENGINES = ("lexbor", "tagloom")


def engine(name: str) -> Callable[[bytes], object]:
    if name == "tagloom":
        import tagloom

        return tagloom.parse
    return engines()[name]


def worker(corpus: str, name: str, input_name: str, calls: int) -> None:
    """One process: the warm-up call, then `calls` more, each result released."""
    data = dict(inputs(corpus))[input_name]
    fn = engine(name)
    for _ in range(calls + 1):
        result = fn(data)
        del result


def collected(out_dir: str, corpus: str, name: str, input_name: str, calls: int) -> int:
    out = os.path.join(out_dir, f"{name}.{input_name}.{calls}.callgrind")
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         os.path.abspath(__file__), "--worker", corpus, name, input_name, str(calls)],
        env=env, capture_output=True, text=True, check=True,
    )
    match = re.search(r"Collected : (\d+)", proc.stderr)
    if match is None:
        sys.exit(f"no instruction count from callgrind for {name} {input_name}:\n{proc.stderr}")
    return int(match.group(1))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        corpus, name, input_name, calls = sys.argv[2:6]
        worker(corpus, name, input_name, int(calls))
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    corpus, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    sizes = {name: len(data) for name, data in inputs(corpus)}
    chosen: List[str] = sys.argv[3:] or [name for name in sizes if name != "concat"]
    per_call: Dict[str, Dict[str, int]] = {}
    for input_name in chosen:
        for name in ENGINES:
            one = collected(out_dir, corpus, name, input_name, 1)
            three = collected(out_dir, corpus, name, input_name, 3)
            per_call.setdefault(input_name, {})[name] = (three - one) // 2
    print("| input | bytes | lexbor instructions | per byte | tagloom.parse instructions | per byte | tagloom / lexbor (speed) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for input_name in chosen:
        size, counts = sizes[input_name], per_call[input_name]
        lex, tag = counts["lexbor"], counts["tagloom"]
        print(
            f"| {input_name} | {size} | {lex / 1e6:.1f} M | {lex / size:.1f} | {tag / 1e6:.1f} M | "
            f"{tag / size:.1f} | {lex / tag:.2f}x |"
        )
    if len(chosen) > 1:
        lex = sum(per_call[i]["lexbor"] for i in chosen)
        tag = sum(per_call[i]["tagloom"] for i in chosen)
        total = sum(sizes[i] for i in chosen)
        print(f"| all of the above | {total} | {lex / 1e6:.1f} M | {lex / total:.1f} | {tag / 1e6:.1f} M | "
              f"{tag / total:.1f} | {lex / tag:.2f}x |")


if __name__ == "__main__":
    main()
