"""The README's "From Python" example runs, and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT


def test_the_readme_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## From Python"):]
    section = section[: section.index("\n## ", 3)]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    expected = [
        line.split("# ", 1)[1]
        for line in code.splitlines()
        if line.startswith("print(") and "# " in line
    ]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().splitlines() == expected
    assert "pip install ./crates/python" in section
