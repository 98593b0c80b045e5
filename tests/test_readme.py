"""The README's Python examples run as written, and say what they show."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_the_from_python_example_runs_and_finds_a_tour():
    blocks = _python_blocks()
    assert blocks, "the README has no Python example"
    namespace: dict = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)  # noqa: S102 - the README's own example
    assert namespace["res"].status.value == "infeasible" and namespace["res"].proof
    assert namespace["found"].found and namespace["found"].tour is not None
