#!/usr/bin/env python3
"""Hostile-shape suite: does every command stay linear on hostile input?

Generates each shape at n, 2n, 4n, 8n bytes, runs every command on it through the
`tagloom` binary, measures wall time and peak RSS (``os.wait4``'s ``ru_maxrss``) and
prints, per shape and command, the figures at each size and the ratio per doubling.
A ratio above 2.3x (on a measurement big enough to mean something) is flagged.

It reports; it never asserts on time. Exit status: 0 when it ran (whatever it
measured), 2 on bad usage. Python 3 standard library only.

    cargo build --release -p tagloom-cli
    python3 tools/hostile/run.py                      # every default shape, n = 1 MiB
    python3 tools/hostile/run.py --base-n 32k --timeout 20 --shapes nul-text,div-x
    python3 tools/hostile/run.py --list               # the shapes and what they are

See tools/hostile/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Callable

FLAG_RATIO = 2.3
# Below these floors a ratio is noise (process start-up, the allocator's first
# arenas), so it is shown but never flagged.
TIME_FLOOR_S = 0.1
RSS_FLOOR_KIB = 16 * 1024
# A child forked from this script starts with the script's own resident pages, and
# the kernel keeps that high-water mark across exec: ru_maxrss never reads below it.
# Measured once (`tagloom --version`) and printed; RSS_FLOOR_KIB is raised above it.
DOUBLINGS = 3  # n, 2n, 4n, 8n

COMMANDS = ("parse", "tokens", "extract", "merge")


# --------------------------------------------------------------------------- shapes


def fill(size: int, unit: bytes, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """prefix + unit repeated + suffix, about `size` bytes (at least one unit)."""
    count = max(1, (size - len(prefix) - len(suffix)) // len(unit))
    return prefix + unit * count + suffix


def numbered(size: int, template: str, prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    """Units made distinct by a counter (`template` holds one `{i}`)."""
    parts = [prefix]
    total = len(prefix) + len(suffix)
    i = 0
    while total < size or i == 0:
        unit = template.format(i=i).encode()
        parts.append(unit)
        total += len(unit)
        i += 1
    parts.append(suffix)
    return b"".join(parts)


LOREM = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod. "


@dataclass
class Shape:
    name: str
    make: Callable[[int], bytes]
    about: str
    # Not run unless named with --shapes (quadratic by the spec itself).
    default: bool = True


def _shapes() -> list[Shape]:
    s: list[Shape] = []

    def add(name: str, about: str, make: Callable[[int], bytes], default: bool = True) -> None:
        s.append(Shape(name, make, about, default))

    # Baselines: what linear looks like at the same byte sizes.
    add("text", "plain text, no markup (baseline)", lambda n: fill(n, LOREM))
    add("paragraphs", "<p>lorem…</p> blocks (baseline)", lambda n: fill(n, b"<p>" + LOREM + b"</p>\n"))

    # Nesting the l10n reader keeps open (issue 8, item 2).
    add("div-unclosed", "<div> x n, never closed", lambda n: fill(n, b"<div>"))
    add("div-x", "<div>x x n, never closed", lambda n: fill(n, b"<div>x"))
    add("table-nested", "<table><tr><td> x n", lambda n: fill(n, b"<table><tr><td>"))
    add("table-foster", "foster-parented text in nested tables: <table>x<tr><td> x n",
        lambda n: fill(n, b"<table>x<tr><td>"))
    add("select-optgroup", "<select><optgroup><option>x x n (the tree builder closes selects)",
        lambda n: fill(n, b"<select><optgroup><option>x"))
    add("template-nested", "<template>x x n", lambda n: fill(n, b"<template>x"))
    add("li-unclosed", "<ul><li>x x n (nested lists)", lambda n: fill(n, b"<ul><li>x"))
    add("span-deep", "one <p> with <span>x x n inside (deep inline codes)",
        lambda n: fill(n, b"<span>x", prefix=b"<p>"))
    add("a-nested", "<a href=#>x x n (the tree builder closes each a)", lambda n: fill(n, b"<a href=#>x"))

    # NUL runs in every tokenizer state that scans runs (issue 8, item 3).
    add("nul-text", "NUL run in text", lambda n: fill(n, b"\0", prefix=b"<p>"))
    add("nul-comment", "NUL run in a comment", lambda n: fill(n, b"\0", prefix=b"<!--", suffix=b"-->"))
    add("nul-attr", "NUL run in a quoted attribute value",
        lambda n: fill(n, b"\0", prefix=b'<p title="', suffix=b'">x'))
    add("nul-attr-unquoted", "NUL run in an unquoted attribute value",
        lambda n: fill(n, b"\0", prefix=b"<p title=", suffix=b">x"))
    add("nul-tagname", "NUL run in a tag name", lambda n: fill(n, b"\0", prefix=b"<p", suffix=b">x"))
    add("nul-script", "NUL run in script data", lambda n: fill(n, b"\0", prefix=b"<script>"))
    add("nul-style", "NUL run in RAWTEXT (style)", lambda n: fill(n, b"\0", prefix=b"<style>"))
    add("nul-textarea", "NUL run in RCDATA (textarea)", lambda n: fill(n, b"\0", prefix=b"<textarea>"))
    add("nul-title", "NUL run in RCDATA (title)", lambda n: fill(n, b"\0", prefix=b"<title>"))
    add("nul-plaintext", "NUL run in PLAINTEXT", lambda n: fill(n, b"\0", prefix=b"<plaintext>"))
    add("nul-svg", "NUL run in foreign content text", lambda n: fill(n, b"\0", prefix=b"<svg><text>"))
    add("nul-cdata", "NUL run in a CDATA section (foreign content)",
        lambda n: fill(n, b"\0", prefix=b"<svg><![CDATA[", suffix=b"]]>"))

    # Shapes known to make html5ever (or naive parsers) quadratic.
    add("attrs-many", "one tag with n distinct attributes",
        lambda n: numbered(n, " a{i}=1", prefix=b"<p", suffix=b">x"))
    add("attrs-dup", "one tag with the same attribute n times",
        lambda n: fill(n, b" a=1", prefix=b"<p", suffix=b">x"))
    add("b-p", "adoption agency: <b><p>x x n", lambda n: fill(n, b"<b><p>x"))
    add("a-p", "adoption agency: <a><p>x x n", lambda n: fill(n, b"<a><p>x"))
    add("b-p-close", "adoption agency: <b><p>x</b> x n (misnested end tags)",
        lambda n: fill(n, b"<b><p>x</b>"))
    add("table-fostered-nodes", "<table> then <div>x</div> x n (each foster-parented)",
        lambda n: fill(n, b"<div>x</div>", prefix=b"<table>"))
    add("table-foster-text", "<table> then one long foster-parented text",
        lambda n: fill(n, b"x ", prefix=b"<table>"))
    add("p-close", "</p> x n (each creates an empty p)", lambda n: fill(n, b"</p>"))
    add("attr-huge", "one huge attribute value", lambda n: fill(n, b"a", prefix=b'<p title="', suffix=b'">x'))
    add("comment-huge", "one huge comment", lambda n: fill(n, b"a", prefix=b"<!--", suffix=b"-->"))
    add("comments-many", "<!--c--> x n before one block (notes)",
        lambda n: fill(n, b"<!--c-->", suffix=b"<p>x</p>"))
    add("afe-noah", "<b> x n (Noah's Ark keeps 3 identical entries)", lambda n: fill(n, b"<b>"))
    add("afe-distinct", "<b id=i> x n (distinct formatting elements, all open)",
        lambda n: numbered(n, "<b id={i}>"))
    add("afe-reconstruct", "<p><b id=i>x</p> x n: every text reconstructs all b (DOM is n^2 by the spec)",
        lambda n: numbered(n, "<p><b id={i}>x</p>"), default=False)
    add("svg-deep", "<svg> then <g> x n (deep foreign content)", lambda n: fill(n, b"<g>", prefix=b"<svg>"))
    add("math-deep", "<math> then <mi> x n", lambda n: fill(n, b"<mi>", prefix=b"<math>"))
    add("frameset", "<frameset> x n", lambda n: fill(n, b"<frameset>"))
    add("amp-run", "& x n in text", lambda n: fill(n, b"&", prefix=b"<p>"))
    add("amp-entities", "&amp; x n in text", lambda n: fill(n, b"&amp;", prefix=b"<p>"))
    add("amp-attr", "&amp; x n in an attribute value",
        lambda n: fill(n, b"&amp;", prefix=b'<p title="', suffix=b'">x'))
    add("amp-longname", "& then a long would-be entity name", lambda n: fill(n, b"a", prefix=b"<p>&", suffix=b";"))
    add("numeric-refs", "&#x41; x n", lambda n: fill(n, b"&#x41;", prefix=b"<p>"))
    add("crlf", "CR LF x n in text", lambda n: fill(n, b"\r\n", prefix=b"<p>"))
    add("cr", "CR x n in text", lambda n: fill(n, b"\r", prefix=b"<p>"))
    add("crlf-pre", "CR LF x n in <pre>", lambda n: fill(n, b"\r\n", prefix=b"<pre>"))
    add("tagname-long", "one huge tag name", lambda n: fill(n, b"a", prefix=b"<", suffix=b">x"))
    add("endtag-long", "one huge end tag name", lambda n: fill(n, b"a", prefix=b"<p>x</", suffix=b">"))
    add("attrname-long", "one huge attribute name", lambda n: fill(n, b"a", prefix=b"<p ", suffix=b">x"))
    add("doctype-huge", "<!DOCTYPE with huge public and system identifiers",
        lambda n: b'<!DOCTYPE html PUBLIC "' + b"a" * (n // 2) + b'" "' + b"b" * (n // 2) + b'"><p>x')
    add("lt-run", "< x n in text (each a would-be tag)", lambda n: fill(n, b"<", prefix=b"<p>"))
    add("script-escape", "<!--<script> runs in script data (double-escape states)",
        lambda n: fill(n, b"<!--<script>", prefix=b"<script>"))
    add("codes-many", "one <p> with <b>x</b> x n (n inline codes in one block)",
        lambda n: fill(n, b"<b>x</b> ", prefix=b"<p>", suffix=b"</p>"))
    add("br-many", "one <p> with <br> x n (placeholders)", lambda n: fill(n, b"x<br>", prefix=b"<p>", suffix=b"</p>"))
    add("alts-many", "<img alt=x> x n (translatable attributes)", lambda n: fill(n, b"<img alt=x>"))
    add("ws-run", "one <p> of whitespace runs (collapsed)", lambda n: fill(n, b" \t\n", prefix=b"<p>x", suffix=b"y</p>"))
    return s


SHAPES = {shape.name: shape for shape in _shapes()}


# --------------------------------------------------------------------------- running


@dataclass
class Run:
    shape: str
    command: str
    size: int  # the nominal size (n, 2n, ...)
    bytes: int  # the generated input's actual size
    status: str  # "ok", "exit N", "timeout", "signal NAME", "skipped"
    seconds: float | None = None
    max_rss_kib: int | None = None
    output_bytes: int | None = None
    stderr: str = ""


def _limits(mem_mb: int, fsize_mb: int) -> Callable[[], None]:
    def apply() -> None:
        os.setsid()  # its own process group: a timeout kills it and its children
        if mem_mb > 0:
            cap = mem_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        if fsize_mb > 0:
            cap = fsize_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))

    return apply


def run_one(argv: list[str], stdout_path: str, timeout: float, mem_mb: int, fsize_mb: int) -> tuple[str, float, int, str]:
    """Runs argv; returns (status, wall seconds, max RSS KiB, stderr tail)."""
    with open(stdout_path, "wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                preexec_fn=_limits(mem_mb, fsize_mb))
        deadline = start + timeout
        timed_out = False
        delay = 0.002
        while True:
            pid, wstatus, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.perf_counter() > deadline:
                timed_out = True
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                pid, wstatus, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        seconds = time.perf_counter() - start
        proc.returncode = 0  # reaped by wait4; keep Popen from waiting again
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace").strip()
    if timed_out:
        status = "timeout"
    elif os.WIFSIGNALED(wstatus):
        status = "signal " + signal.Signals(os.WTERMSIG(wstatus)).name
    else:
        code = os.WEXITSTATUS(wstatus)
        status = "ok" if code == 0 else f"exit {code}"
    return status, seconds, usage.ru_maxrss, tail


def argv_for(command: str, binary: str, page: str, xlf: str, out_html: str) -> list[str]:
    if command == "parse":
        return [binary, "parse", page, "--format", "none"]
    if command == "tokens":
        return [binary, "tokens", page]
    if command == "extract":
        return [binary, "l10n", "extract", page, "--source", "en", "--target", "fr", "-o", xlf]
    if command == "merge":
        return [binary, "l10n", "merge", page, xlf, "-o", out_html]
    raise ValueError(command)


def run_shape(shape: Shape, commands: list[str], args: argparse.Namespace, work: str) -> list[Run]:
    runs: list[Run] = []
    given_up: dict[str, str] = {}  # command -> why the larger sizes are skipped
    for k in range(DOUBLINGS + 1):
        size = args.base_n << k
        data = shape.make(size)
        page = os.path.join(work, f"{shape.name}.html")
        xlf = os.path.join(work, f"{shape.name}.xlf")
        out_html = os.path.join(work, f"{shape.name}.out.html")
        stdout_path = os.devnull  # `tokens` output can be 50x the input: not kept
        with open(page, "wb") as f:
            f.write(data)
        extract_ok = False
        for command in commands:
            run = Run(shape.name, command, size, len(data), "skipped")
            if command in given_up:
                run.stderr = given_up[command]
            elif command == "merge" and not extract_ok:
                run.stderr = "no XLIFF (extract did not succeed at this size)"
                given_up.setdefault(command, run.stderr)
            else:
                argv = argv_for(command, args.bin, page, xlf, out_html)
                status, seconds, rss, tail = "", float("inf"), 0, ""
                for _ in range(args.repeat):  # the fastest of the repeats
                    st, sec, r, t = run_one(argv, stdout_path, args.timeout, args.mem_limit_mb,
                                            args.max_output_mb)
                    if sec < seconds:
                        status, seconds, rss, tail = st, sec, r, t
                    if st != "ok":
                        break
                run.status, run.seconds, run.max_rss_kib, run.stderr = status, seconds, rss, tail
                produced = {"extract": xlf, "merge": out_html}.get(command)
                if produced and os.path.exists(produced):
                    run.output_bytes = os.path.getsize(produced)
                if command == "extract":
                    extract_ok = status == "ok"
                # merge exits 1 when some translations were not applied: still a run.
                finished = status == "ok" or (command == "merge" and status == "exit 1")
                if not finished and status != "exit 2":
                    given_up[command] = f"{status} at {human(size)}"
            runs.append(run)
            if args.verbose:
                print(f"  {shape.name:22} {command:8} {human(size):>6} {run.status:10} "
                      f"{fmt_s(run.seconds):>8} {fmt_mb(run.max_rss_kib):>8}", file=sys.stderr, flush=True)
        for path in (page, xlf, out_html):
            if os.path.exists(path):
                os.remove(path)
    return runs


# --------------------------------------------------------------------------- report


def human(n: int) -> str:
    for unit, scale in (("M", 1 << 20), ("k", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale}{unit}"
    return str(n)


def parse_size(text: str) -> int:
    text = text.strip().lower()
    scale = 1
    if text and text[-1] in "km":
        scale = 1 << (10 if text[-1] == "k" else 20)
        text = text[:-1]
    value = int(text) * scale
    if value <= 0:
        raise argparse.ArgumentTypeError("a size must be positive")
    return value


def fmt_s(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}" if v < 10 else f"{v:.1f}"


def fmt_mb(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.1f}"


def ratios(values: list[float | None], floor: float) -> tuple[list[str], str, bool]:
    """The ratio per doubling between consecutive sizes, and their geometric mean
    over the whole measured range (first to last size measured): the figure that is
    flagged, when above FLAG_RATIO and the largest value is above the noise floor.
    A single step is noisy on a loaded machine; the mean over three doublings is not
    fooled by one slow run."""
    steps = []
    for a, b in zip(values, values[1:]):
        steps.append("-" if a is None or b is None or a <= 0 else f"{b / a:.1f}")
    known = [(i, v) for i, v in enumerate(values) if v is not None and v > 0]
    if len(known) < 2:
        return steps, "-", False
    (i0, v0), (i1, v1) = known[0], known[-1]
    mean = (v1 / v0) ** (1 / (i1 - i0))
    bad = mean > FLAG_RATIO and v1 >= floor
    return steps, f"{mean:.2f}{'!' if bad else ''}", bad


def cell(run: Run, value: str) -> str:
    if run.status in ("ok",) or (run.command == "merge" and run.status == "exit 1"):
        return value
    if run.status == "timeout":
        return ">" + fmt_s(run.seconds) + "T"
    if run.status == "skipped":
        return "skip"
    return run.status.replace("signal ", "").replace("exit ", "x")


def report(runs: list[Run], shapes: list[str], commands: list[str]) -> list[str]:
    """Prints the table; returns the (shape, command) pairs flagged."""
    flagged: list[str] = []
    by_key: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        by_key.setdefault((run.shape, run.command), []).append(run)
    w = 9
    head = (f"{'shape':22} {'command':8} | {'time (s) at n, 2n, 4n, 8n':^{4 * w}} | {'x per doubling':^17} "
            f"{'mean':>6} | {'max RSS (MB) at n..8n':^{4 * w}} | {'x per doubling':^17} {'mean':>6} | flag")
    print(head)
    print("-" * len(head))
    for shape in shapes:
        for command in commands:
            rs = sorted(by_key.get((shape, command), []), key=lambda r: r.size)
            if not rs:
                continue
            good = [r.status == "ok" or (command == "merge" and r.status == "exit 1") for r in rs]
            times = [r.seconds if g else None for r, g in zip(rs, good)]
            mems = [float(r.max_rss_kib) if g and r.max_rss_kib is not None else None for r, g in zip(rs, good)]
            t_r, t_mean, t_bad = ratios(times, TIME_FLOOR_S)
            m_r, m_mean, m_bad = ratios(mems, RSS_FLOOR_KIB)
            # A run that timed out or was killed (memory or file cap) is flagged too.
            died = any(r.status == "timeout" or r.status.startswith("signal") for r in rs)
            t_cells = " ".join(f"{cell(r, fmt_s(r.seconds)):>{w - 1}}" for r in rs)
            m_cells = " ".join(f"{cell(r, fmt_mb(r.max_rss_kib)):>{w - 1}}" for r in rs)
            flags = []
            if t_bad:
                flags.append("TIME")
            if m_bad:
                flags.append("MEM")
            if died:
                flags.append("DIED")
            if any(r.status == "exit 2" for r in rs):
                flags.append("ERR")
            if flags:
                flagged.append(f"{shape}/{command}: {','.join(flags)}")
            print(f"{shape:22} {command:8} | {t_cells:<{4 * w}} | {' '.join(f'{x:>5}' for x in t_r):<17} "
                  f"{t_mean:>6} | {m_cells:<{4 * w}} | {' '.join(f'{x:>5}' for x in m_r):<17} {m_mean:>6} | "
                  f"{' '.join(flags)}")
    return flagged


def why(stderr: str) -> str:
    """The telling line of a failed run's stderr (a panic or allocation message
    rather than the backtrace hint that ends it)."""
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    for key in ("memory allocation", "panicked", "error"):
        for line in lines:
            if key in line:
                return line[:200]
    return lines[-1][:200] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/tagloom", help="the tagloom binary (default: %(default)s)")
    parser.add_argument("--shapes", help="comma-separated shape names (default: every default shape; see --list)")
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help="comma-separated, from %s (default: all)" % ", ".join(COMMANDS))
    parser.add_argument("--base-n", type=parse_size, default=parse_size("1m"),
                        help="n: the smallest input size in bytes, k/m suffixes allowed (default: 1m); "
                             "each shape repeats its unit up to n, 2n, 4n, 8n")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds per run; a run that takes longer is killed, reported, and the "
                             "larger sizes of that command are skipped (default: %(default)s)")
    parser.add_argument("--mem-limit-mb", type=int, default=4096,
                        help="address-space cap per run (RLIMIT_AS), 0 for none (default: %(default)s)")
    parser.add_argument("--max-output-mb", type=int, default=2048,
                        help="file-size cap per run (RLIMIT_FSIZE), 0 for none (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each command this many times and keep the fastest (default: %(default)s)")
    parser.add_argument("--json", metavar="OUT", help="also write every run as JSON to OUT")
    parser.add_argument("--workdir", help="where inputs and outputs go (default: a new temp dir, removed after)")
    parser.add_argument("--list", action="store_true", help="list the shapes and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each run as it finishes (stderr)")
    args = parser.parse_args()

    if args.list:
        for shape in SHAPES.values():
            print(f"{shape.name:22} {shape.about}{'' if shape.default else '  [not run by default]'}")
        return 0
    if args.shapes:
        names = [x.strip() for x in args.shapes.split(",") if x.strip()]
        unknown = [x for x in names if x not in SHAPES]
        if unknown:
            parser.error(f"unknown shape(s): {', '.join(unknown)} (see --list)")
    else:
        names = [s.name for s in SHAPES.values() if s.default]
    commands = [x.strip() for x in args.commands.split(",") if x.strip()]
    bad = [c for c in commands if c not in COMMANDS]
    if bad:
        parser.error(f"unknown command(s): {', '.join(bad)}")
    if "merge" in commands and "extract" not in commands:
        commands.insert(commands.index("merge"), "extract")  # merge needs its XLIFF
    if not (os.path.isfile(args.bin) and os.access(args.bin, os.X_OK)):
        parser.error(f"{args.bin}: not an executable (build it: cargo build --release -p tagloom-cli)")
    args.bin = os.path.abspath(args.bin)

    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    global RSS_FLOOR_KIB
    status, _, floor_kib, tail = run_one([args.bin, "--version"], os.devnull, args.timeout, 0, 0)
    if status != "ok":
        parser.error(f"{args.bin} --version: {status}: {tail}")
    RSS_FLOOR_KIB = max(RSS_FLOOR_KIB, 2 * floor_kib)
    work = args.workdir or tempfile.mkdtemp(prefix="tagloom-hostile-")
    os.makedirs(work, exist_ok=True)
    print(f"# tagloom hostile shapes: {args.bin}, n = {human(args.base_n)} bytes, sizes n..8n, "
          f"timeout {args.timeout:g} s, memory cap {args.mem_limit_mb} MB", flush=True)
    print(f"# max RSS of `tagloom --version` (the floor inherited from this script): "
          f"{fmt_mb(floor_kib)} MB", flush=True)
    runs: list[Run] = []
    try:
        for name in names:
            runs.extend(run_shape(SHAPES[name], commands, args, work))
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"bin": args.bin, "base_n": args.base_n, "timeout": args.timeout,
                           "flag_ratio": FLAG_RATIO, "rss_floor_kib": floor_kib,
                           "runs": [asdict(r) for r in runs]}, f, indent=1)
    print()
    flagged = report(runs, names, commands)
    print()
    print(f"# mean = geometric mean of the ratio per doubling from the first to the last size measured;")
    print(f"# flagged with ! when > {FLAG_RATIO}x (and the largest figure is above {TIME_FLOOR_S} s / "
          f"{RSS_FLOOR_KIB // 1024} MB); T = timed out, skip = not run after a failure at a smaller size,")
    print("# x2 = exit status 2 (an error), KILL/ABRT/XFSZ = killed by a signal (memory or file cap).")
    if flagged:
        print(f"# {len(flagged)} flagged:")
        for line in flagged:
            print(f"#   {line}")
    else:
        print("# nothing flagged")
    errors = [r for r in runs if r.status not in ("ok", "skipped", "timeout")
              and not (r.command == "merge" and r.status == "exit 1")]
    for r in errors[:20]:
        print(f"# {r.shape}/{r.command} at {human(r.size)}: {r.status}: {why(r.stderr)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
