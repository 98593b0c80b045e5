"""The seed rule and the driver's promises, over every registered method.

* Same seed, same answer: status, tour, path and proof text (wall-clock
  stats such as the steps' seconds and rates are not compared).
* A seeded method gives different answers for different seeds, at least
  sometimes; a method that draws no random number gives the same answer
  for every seed and records no seed.
* ``seed=None`` draws a fresh seed that the result records, and passing
  that seed again repeats the run, through :func:`ktsolve.solve` and when the
  method is called directly.
* Every method's docstring carries :data:`ktsolve.seeds.SEED_DOC` word for word
  (:data:`~ktsolve.seeds.UNSEEDED_SEED_DOC` for a method that draws no random number).

The cases run over :func:`ktsolve.registry.methods`, so a method registered
later is checked too.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, solve
from ktsolve.registry import method_info, methods
from ktsolve.seeds import SEED_DOC, UNSEEDED_SEED_DOC
from ktsolve.tour import TourSpec

#: Parameters that make a seeded method's answer depend on its seed on a small board.
SEED_SENSITIVE = {"warnsdorff": {"rule": "random"}}


def _question(name: str) -> tuple[Board, TourSpec]:
    info = method_info(name)
    return Board(6, 6), TourSpec(closed=not info.open)


def _answer(res) -> tuple:
    def squares(x):
        return None if x is None else np.asarray(getattr(x, "squares", x)).tolist()

    return (res.status.value, squares(res.tour), squares(res.path), None if res.proof is None else str(res.proof))


def _via_solve(name: str, seed):
    board, spec = _question(name)
    return solve(board, name, closed=spec.closed, start=spec.start, end=spec.end, seed=seed,
                 **SEED_SENSITIVE.get(name, {}))


def _direct(name: str, seed):
    board, spec = _question(name)
    return method_info(name).load()(KnightGraph(board), spec, seed=seed, **SEED_SENSITIVE.get(name, {}))


@pytest.mark.parametrize("name", methods())
def test_same_seed_same_answer(name):
    for run in (_via_solve, _direct):
        a, b = run(name, 12345), run(name, 12345)
        assert _answer(a) == _answer(b)
        if method_info(name).seeded:
            assert a.seed == b.seed == 12345


@pytest.mark.parametrize("name", methods())
def test_different_seeds_differ_for_seeded_methods(name):
    answers = {repr(_answer(_via_solve(name, seed))) for seed in range(1, 7)}
    if method_info(name).seeded:
        assert len(answers) > 1, "six seeds gave the same answer"
    else:
        assert len(answers) == 1, "a method that draws no random number depends on its seed"


@pytest.mark.parametrize("name", methods())
def test_seed_none_records_a_seed_that_repeats_the_run(name):
    seeded = method_info(name).seeded
    for run in (_via_solve, _direct):
        first = run(name, None)
        if not seeded:
            assert first.seed is None
            assert _answer(run(name, None)) == _answer(first)
            continue
        assert isinstance(first.seed, int) and 0 <= first.seed < 2**32, run.__name__
        again = run(name, first.seed)
        assert again.seed == first.seed
        assert _answer(again) == _answer(first)


@pytest.mark.parametrize("name", methods())
def test_the_docstring_carries_the_seed_paragraph(name):
    doc = inspect.getdoc(method_info(name).load()) or ""
    if method_info(name).seeded:
        assert SEED_DOC in doc and UNSEEDED_SEED_DOC not in doc
    else:
        assert UNSEEDED_SEED_DOC in doc and SEED_DOC not in doc


@pytest.mark.parametrize("name", methods())
def test_an_interrupted_run_is_an_honest_unknown(name, monkeypatch):
    """Ctrl-C at the first look the method takes at its clock: ``unknown``, ``stats["interrupted"]``."""
    import ktsolve.driver as driver

    monkeypatch.setattr(driver, "interrupted", lambda: True)
    real_guard = driver.interrupt_guard

    def pressed(on_interrupt=None):
        class Pressed:
            def __enter__(self):
                self.inner = real_guard(on_interrupt)
                flag = self.inner.__enter__()
                flag.set = True
                if on_interrupt is not None:
                    on_interrupt()
                return flag

            def __exit__(self, *exc):
                return self.inner.__exit__(*exc)

        return Pressed()

    monkeypatch.setattr(driver, "interrupt_guard", pressed)
    for module in _modules_of(name):
        if hasattr(module, "interrupt_guard"):
            monkeypatch.setattr(module, "interrupt_guard", pressed)
    res = _direct(name, 7)
    assert res.status.value == "unknown" and res.tour is None
    assert res.stats.get("interrupted") is True and "interrupted" in res.stats["reason"]


def _modules_of(name: str):
    import sys

    func = method_info(name).load()
    yield sys.modules[func.__module__]
