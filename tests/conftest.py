"""Shared fixtures: the oracles, random holed boards, and a CLI runner that explains failures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ktsolve import Board

ORACLES = Path(__file__).parent / "oracles"
SHARED_ORACLES = Path(__file__).resolve().parents[2] / "shared" / "oracles"


def load_oracle(name: str):
    with open(ORACLES / name, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="session")
def counts_oracle():
    return load_oracle("counts.json")


@pytest.fixture(scope="session")
def holed_oracle():
    return load_oracle("holed.json")


def random_board(rng: np.random.Generator, min_side=3, max_side=6, max_hole_frac=0.25) -> Board:
    """A random board with random holes (never all holes)."""
    rows = int(rng.integers(min_side, max_side + 1))
    cols = int(rng.integers(min_side, max_side + 1))
    k = int(rng.integers(0, int(rows * cols * max_hole_frac) + 1))
    flat = rng.choice(rows * cols, size=k, replace=False)
    return Board(rows, cols, [(int(f) // cols, int(f) % cols) for f in flat])


def invoke(args, code=0, input=None):
    """Run the CLI (through ``main``'s error handling) and assert the exit code.

    Returns the click Result; stdout and stderr are separate.
    """
    from ktsolve.cli import cli

    runner = CliRunner()
    res = runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=True)
    if res.exit_code != code:
        msg = f"exit {res.exit_code} != {code} for ktsolve {' '.join(map(str, args))}\n"
        msg += f"--- stdout\n{res.stdout}\n--- stderr\n{res.stderr}\n"
        if res.exc_info and not isinstance(res.exception, SystemExit):
            import traceback

            msg += "".join(traceback.format_exception(*res.exc_info))
        raise AssertionError(msg)
    return res
