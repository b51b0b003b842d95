"""Instructions per call of tagloom's Python calls and their peers (callgrind), and
what the binding costs on top of the Rust call: the load-independent figures behind
BENCHMARKS.md "From Python" (not a test).

usage: python instructions.py CORPUS_DIR OUT_DIR [--call CALL] [INPUT...]
       CALL: ``parse`` (default: ``tagloom.parse(bytes)`` vs selectolax's
       ``LexborHTMLParser(bytes)``), ``parse-str`` (the same calls on a ``str``) or
       ``sanitize`` (``tagloom.sanitize(str)`` vs ``nh3.clean(str)``);
       INPUT: a page name such as ``espn-article``, or ``concat``; default: the pages.

Run it with the bench venv's python after ``run.sh`` installed the wheel, with
valgrind on the PATH. For every engine and input it runs the engine under
``valgrind --tool=callgrind`` in two processes, one making 1 call and one making 3
(each after one untimed warm-up call; every call's result is released at once, as
in the timed benches), and reports half the difference: one call's instructions
with the interpreter's start-up, the imports and the file reads cancelled out.
``PYTHONHASHSEED=0`` keeps the two processes alike. A ``str`` input is a new
string for every call (made before the calls, as many in both processes), as a
user's freshly decoded text is: nobody has asked it for its UTF-8 yet, so each
engine pays for that encoding (CPython keeps a string's UTF-8 once made through
``PyUnicode_AsUTF8AndSize``, and a string passed again could hand a call an earlier
one's work).

For tagloom the table splits the call: "Rust" is the inclusive count of the Rust
function the binding calls (``tagloom_python::parse::parse``, ``Sanitizer::sanitize``),
"binding" all the rest of the call as Python sees it (argument handling, reading
the input, the GIL, building the result and releasing it). The callgrind files
stay in OUT_DIR for ``callgrind_annotate`` (a 20 MB concat takes minutes).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Callable, Dict, List, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "scripts"))
from selectolax_timer import engines, inputs  # noqa: E402

# Per call kind: (peer, whether the input is a str, tagloom's Rust function as
# callgrind_annotate names it).
CALLS: Dict[str, Tuple[str, bool, str]] = {
    "parse": ("lexbor", False, "_tagloom::parse::parse"),
    "parse-str": ("lexbor", True, "_tagloom::parse::parse"),
    "sanitize": ("nh3", True, "tagloom_transform::sanitize::Sanitizer::sanitize"),
}
# Calls a worker makes at most (warm-up included): the str copies made up front.
MOST_CALLS = 4


def engine(call: str, name: str) -> Callable[[object], object]:
    if name == "tagloom":
        import tagloom

        return tagloom.sanitize if call == "sanitize" else tagloom.parse
    if name == "nh3":
        import nh3

        return nh3.clean
    return engines()[name]


def fresh(text: str) -> str:
    """A new string equal to `text` whose UTF-8 CPython has not made yet."""
    return text.encode("utf-8").decode("utf-8")


def worker(corpus: str, call: str, name: str, input_name: str, calls: int) -> None:
    """One process: the warm-up call, then `calls` more, each result released."""
    data = dict(inputs(corpus))[input_name]
    fn = engine(call, name)
    if CALLS[call][1]:
        text = data.decode("utf-8", errors="replace")
        args: List[object] = [fresh(text) for _ in range(MOST_CALLS)]
        del text
    else:
        args = [data] * MOST_CALLS
    for _ in range(calls + 1):
        result = fn(args.pop())
        del result


def collected(out_dir: str, corpus: str, call: str, name: str, input_name: str, calls: int) -> str:
    """Runs one worker under callgrind; the path of its output."""
    out = os.path.join(out_dir, f"{call}.{name}.{input_name}.{calls}.callgrind")
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=no", f"--callgrind-out-file={out}", sys.executable,
         os.path.abspath(__file__), "--worker", corpus, call, name, input_name, str(calls)],
        env=env, capture_output=True, text=True, check=True,
    )
    if re.search(r"Collected : (\d+)", proc.stderr) is None:
        sys.exit(f"no instruction count from callgrind for {name} {input_name}:\n{proc.stderr}")
    return out


def total(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    sys.exit(f"no totals in {path}")


def inclusive(path: str, function: str) -> int:
    """The inclusive count of `function` (its compiled copy in the extension)."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+[^:\s]+:(.*) \[", line)
        if m and m.group(2) == function:
            return int(m.group(1).replace(",", ""))
    return 0


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        corpus, call, name, input_name, calls = sys.argv[2:7]
        worker(corpus, call, name, input_name, int(calls))
        return
    args = sys.argv[1:]
    call = "parse"
    if "--call" in args:
        i = args.index("--call")
        call = args[i + 1]
        del args[i: i + 2]
    if len(args) < 2 or call not in CALLS:
        sys.exit(__doc__)
    corpus, out_dir = args[0], args[1]
    peer, _, rust_fn = CALLS[call]
    os.makedirs(out_dir, exist_ok=True)
    sizes = {name: len(data) for name, data in inputs(corpus)}
    chosen: List[str] = args[2:] or [name for name in sizes if name != "concat"]
    counts: Dict[str, Dict[str, int]] = {}
    for input_name in chosen:
        row = counts.setdefault(input_name, {})
        for name in (peer, "tagloom"):
            one = collected(out_dir, corpus, call, name, input_name, 1)
            three = collected(out_dir, corpus, call, name, input_name, 3)
            row[name] = (total(three) - total(one)) // 2
            if name == "tagloom":
                row["rust"] = (inclusive(three, rust_fn) - inclusive(one, rust_fn)) // 2
    print(f"Call `{call}`: tagloom vs {peer}; instructions per call (M); binding = tagloom - Rust.\n")
    print(f"| input | bytes | {peer} | per byte | tagloom | per byte | of which Rust | binding | "
          f"binding % of Rust | tagloom / {peer} (speed) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = [(i, sizes[i], counts[i]) for i in chosen]
    if len(chosen) > 1:
        summed = {k: sum(counts[i][k] for i in chosen) for k in (peer, "tagloom", "rust")}
        rows.append(("all of the above", sum(sizes[i] for i in chosen), summed))
    for input_name, size, c in rows:
        binding = c["tagloom"] - c["rust"]
        print(
            f"| {input_name} | {size} | {c[peer] / 1e6:.2f} | {c[peer] / size:.1f} | {c['tagloom'] / 1e6:.2f} | "
            f"{c['tagloom'] / size:.1f} | {c['rust'] / 1e6:.2f} | {binding / 1e6:.3f} | "
            f"{100 * binding / max(c['rust'], 1):.2f} % | {c[peer] / c['tagloom']:.2f}x |"
        )


if __name__ == "__main__":
    main()
