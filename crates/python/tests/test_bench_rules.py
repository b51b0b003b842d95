"""The timing rules of the Python-side benches (`crates/bench/scripts/selectolax_timer.py`,
used by `crates/python/bench/bench.py`): what a sample times, and the engine order.

The benches themselves are not tests (they need the peers and time); these check
the rules they share, without selectolax.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "scripts"))
import selectolax_timer as rules  # noqa: E402


class Recorder:
    """A fake engine and clock that log, in order, every call, release and clock read."""

    def __init__(self) -> None:
        self.events: List[str] = []
        self.now = 0.0

    def engine(self, data: bytes) -> object:
        self.events.append("gc on" if gc.isenabled() else "gc off")
        self.events.append("call")
        recorder = self

        class Tree:
            def __del__(self) -> None:
                recorder.events.append("release")

        return Tree()

    def clock(self) -> float:
        self.events.append("clock")
        self.now += 1.0
        return self.now


def test_a_sample_times_each_call_with_its_release_after_an_untimed_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = Recorder()
    monkeypatch.setattr(rules.time, "perf_counter", rec.clock)
    monkeypatch.setattr(rules.time, "process_time", lambda: 0.0)
    gc.enable()
    wall, cpu = rules.sample(rec.engine, b"<p>x", 2)
    timed = ["clock", "gc off", "call", "release", "clock"]
    assert rec.events == ["gc off", "call", "release"] + timed + timed
    # Each clock read advances by 1: a call's region spans one step.
    assert (wall, cpu) == (1.0, 0.0)
    assert gc.isenabled(), "the collector is on again after a sample"


def test_a_sample_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        rules.sample(lambda data: None, b"", 1)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_rotation_puts_every_engine_first_once_per_cycle() -> None:
    names = ["tagloom", "lexbor", "lxml", "html5lib"]
    orders = [rules.rotated(names, r) for r in range(len(names))]
    assert [order[0] for order in orders] == names
    assert all(sorted(order) == sorted(names) for order in orders)
    assert rules.rotated(names, len(names)) == names


def test_small_pages_repeat_to_the_sample_size() -> None:
    assert rules.iterations_for(rules.SAMPLE_BYTES) == 1
    assert rules.iterations_for(rules.SAMPLE_BYTES + 1) == 1
    assert rules.iterations_for(rules.SAMPLE_BYTES // 4) == 4
    assert rules.iterations_for(rules.SAMPLE_BYTES // 4 - 1) == 5
    assert rules.iterations_for(100_000) * 100_000 >= rules.SAMPLE_BYTES
