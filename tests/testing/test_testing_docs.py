"""The Python examples of docs/testing.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ktsolve.registry import reset_methods

DOC = Path(__file__).resolve().parents[2] / "docs" / "testing.md"


@pytest.fixture(autouse=True)
def clean_registry():
    reset_methods()
    yield
    reset_methods()


def test_the_python_examples_run_in_order():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 4
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - the documentation's own examples
    assert namespace["res"].found
    # the hypothesis example defines a test; run it as pytest would
    namespace["test_my_method"]()
