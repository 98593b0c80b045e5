"""The example suite of the docs (a researcher's random walk checked against ktsolve) runs and passes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "test_random_walk.py"


def test_the_example_suite_passes_under_pytest():
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE)],
        capture_output=True, text=True, timeout=600, cwd=EXAMPLE.parent,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "5 passed" in out.stdout, out.stdout
