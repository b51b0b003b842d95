"""Shared fixtures: the `tagloom` binary the results are compared with, the
html5lib-tests tree-construction cases, the bench pages.

Inputs that live outside the repository (`../shared`: the bench pages, the l10n
samples) skip with a reason in pytest's summary when absent, and fail instead when
`CI=true` or `TAGLOOM_REQUIRE_SHARED=1` (as the Rust tests do). The binary is
`$TAGLOOM_BIN`, else `target/{release,python-ci,debug}/tagloom` (`.ci/python.sh`
builds it); missing, it skips or fails the same way.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Iterator, List, NamedTuple, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
TREE_TESTS = ROOT / "crates/html/tests/data/html5lib/tree-construction"


def required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("TAGLOOM_REQUIRE_SHARED") == "1"


def missing(what: str) -> None:
    """Skips (visibly, with `-rs`) or, under CI, fails."""
    if required():
        pytest.fail(f"{what} missing, and CI=true or TAGLOOM_REQUIRE_SHARED=1")
    pytest.skip(f"SKIPPED: {what} missing")


def shared_dir() -> Optional[Path]:
    env = os.environ.get("TAGLOOM_SHARED")
    candidates = [Path(env)] if env else [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    return next((c for c in candidates if (c / "bench-corpus").is_dir()), None)


def bench_pages() -> List[Path]:
    shared = shared_dir()
    if shared is None:
        return []
    return sorted((shared / "bench-corpus").glob("*.html"))


def l10n_samples() -> List[Path]:
    shared = shared_dir()
    if shared is None:
        return []
    exts = {".html", ".htm", ".xhtml", ".phtml", ".shtml"}
    return sorted(p for p in (shared / "l10n-samples").iterdir() if p.suffix in exts)


@pytest.fixture(scope="session")
def tagloom_bin() -> Path:
    env = os.environ.get("TAGLOOM_BIN")
    candidates = [Path(env)] if env else [ROOT / "target" / p / "tagloom" for p in ("release", "python-ci", "debug")]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    missing("the tagloom binary (cargo build -p tagloom-cli, or set TAGLOOM_BIN)")
    raise AssertionError("unreachable")


def run_cli(binary: Path, *args: str) -> bytes:
    """The CLI's standard output; its status must be 0."""
    done = subprocess.run([str(binary), *args], capture_output=True, check=False)
    assert done.returncode == 0, (args, done.stderr.decode(errors="replace"))
    return done.stdout


class TreeCase(NamedTuple):
    name: str
    data: str
    fragment: Optional[str]
    scripting: Optional[bool]


def tree_cases() -> Iterator[TreeCase]:
    """Every case of the html5lib tree-construction `.dat` files: its `#data`, its
    `#document-fragment` context and `#script-on`/`#script-off` flag."""
    for path in sorted(TREE_TESTS.glob("*.dat")):
        lines = path.read_text(encoding="utf-8").split("\n")
        i, n = 0, 0
        while i < len(lines):
            if lines[i] != "#data":
                i += 1
                continue
            i += 1
            data: List[str] = []
            while i < len(lines) and not lines[i].startswith("#"):
                data.append(lines[i])
                i += 1
            fragment, scripting = None, None
            while i < len(lines) and lines[i] != "#data":
                if lines[i] == "#document-fragment" and i + 1 < len(lines):
                    fragment = lines[i + 1]
                elif lines[i] == "#script-off":
                    scripting = False
                elif lines[i] == "#script-on":
                    scripting = True
                i += 1
            yield TreeCase(f"{path.stem}-{n}", "\n".join(data), fragment, scripting)
            n += 1
