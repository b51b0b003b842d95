"""Acceptance 2: the Python tree equals the CLI's (`--format html5lib`) on every
html5lib tree-construction case and every bench page; `sanitize` and `l10n` give
the CLI's bytes."""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import tagloom
from conftest import bench_pages, l10n_samples, missing, run_cli, tree_cases

CASES = list(tree_cases())


def test_there_are_tree_cases():
    assert len(CASES) > 1500


def cli_dump(binary: Path, tmp: str, i: int, case) -> bytes:
    path = os.path.join(tmp, f"{i}.html")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(case.data)
    args = ["parse", path, "--format", "html5lib", "--encoding", "utf-8"]
    if case.fragment is not None:
        args += ["--fragment", case.fragment]
    if case.scripting is False:
        args += ["--scripting", "off"]
    return run_cli(binary, *args)


def py_dump(case) -> str:
    scripting = case.scripting is not False
    if case.fragment is not None:
        return tagloom.parse_fragment(case.data, case.fragment, scripting=scripting).dump()
    return tagloom.parse(case.data, scripting=scripting).dump()


def test_every_tree_construction_case(tagloom_bin):
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(4) as pool:
        expected = list(pool.map(lambda ic: cli_dump(tagloom_bin, tmp, *ic), enumerate(CASES)))
    different = [
        case.name for case, want in zip(CASES, expected) if py_dump(case).encode("utf-8") != want
    ]
    assert different == []
    # bytes in, with UTF-8 as the transport encoding, as the CLI's --encoding utf-8.
    documents = [(c, w) for c, w in zip(CASES, expected) if c.fragment is None]
    different = [
        case.name
        for case, want in documents
        if tagloom.parse(case.data.encode("utf-8"), encoding="utf-8", scripting=case.scripting is not False)
        .dump()
        .encode("utf-8")
        != want
    ]
    assert different == []


def pages():
    found = bench_pages()
    if not found:
        missing("the bench pages (../shared/bench-corpus)")
    return found


def test_every_bench_page(tagloom_bin):
    for page in pages():
        want = run_cli(tagloom_bin, "parse", str(page), "--format", "html5lib")
        got = tagloom.parse(page.read_bytes()).dump()
        assert got.encode("utf-8") == want, page.name
        # parse_many gives the same trees.
    docs = [p.read_bytes() for p in pages()]
    singles = [tagloom.parse(d).dump() for d in docs]
    assert [d.dump() for d in tagloom.parse_many(docs, threads=2)] == singles


POLICY = {"allow_comments": True, "url_schemes": ["https"]}


def sanitize_inputs():
    yield from ((p.name, p.read_bytes()) for p in pages())
    for case in CASES[::7]:
        yield case.name, case.data.encode("utf-8")


def test_sanitize_equals_the_cli(tagloom_bin):
    with tempfile.TemporaryDirectory() as tmp:
        policy_path = os.path.join(tmp, "policy.json")
        with open(policy_path, "w") as f:
            json.dump(POLICY, f)
        policy = tagloom.Policy(POLICY)
        names, docs, cli, cli_policy = [], [], [], []
        for i, (name, data) in enumerate(sanitize_inputs()):
            path = os.path.join(tmp, f"{i}.html")
            with open(path, "wb") as f:
                f.write(data)
            names.append(name)
            docs.append(data)
            cli.append(run_cli(tagloom_bin, "sanitize", path))
            cli_policy.append(run_cli(tagloom_bin, "sanitize", path, "--policy", policy_path))
        for name, data, want, want_policy in zip(names, docs, cli, cli_policy):
            assert tagloom.sanitize(data).encode("utf-8") == want, name
            assert tagloom.sanitize(data, policy).encode("utf-8") == want_policy, name
        assert [s.encode() for s in tagloom.sanitize_many(docs, threads=2)] == cli
        assert [s.encode() for s in tagloom.sanitize_many(docs, POLICY)] == cli_policy


def l10n_pages():
    found = l10n_samples() + bench_pages()
    if not found:
        missing("the l10n samples and bench pages (../shared)")
    return found


@pytest.mark.parametrize("fmt", ["xliff", "po"])
def test_l10n_equals_the_cli(tagloom_bin, fmt):
    ext = "po" if fmt == "po" else "xlf"
    with tempfile.TemporaryDirectory() as tmp:
        for page in l10n_pages():
            out = os.path.join(tmp, f"{page.name}.{ext}")
            run_cli(tagloom_bin, "l10n", "extract", str(page), "--source", "en", "--target", "fr", "-o", out)
            want = Path(out).read_bytes()
            assert tagloom.l10n.extract(page, target="fr", format=fmt) == want, page.name
            # bytes in, with the same file name recorded.
            assert tagloom.l10n.extract(page.read_bytes(), target="fr", format=fmt, name=page.name) == want
            merged = os.path.join(tmp, "merged-" + page.name)
            run_cli(tagloom_bin, "l10n", "merge", str(page), out, "-o", merged)
            assert tagloom.l10n.merge(page, Path(out)) == Path(merged).read_bytes(), page.name
            if fmt == "xliff":
                pseudo = os.path.join(tmp, "pseudo-" + page.name)
                run_cli(tagloom_bin, "l10n", "pseudo", str(page), "-o", pseudo)
                assert tagloom.l10n.pseudo(page) == Path(pseudo).read_bytes(), page.name
