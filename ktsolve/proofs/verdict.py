"""What a checker says of a proof: valid, invalid (with the reason) or not checkable; and the one table of checkers.

Every proof ktsolve writes (:class:`~ktsolve.result.Proof`) names its
argument (``proof.argument``) and carries its evidence.  :data:`CHECKERS`
(in :mod:`ktsolve.proofs.registry`, beside the proof steps that write
the arguments) is the one table from an argument to the function that re-checks it, each
in a module of its own that shares no code with the finder of that
argument (it rebuilds the question from the board and the tour asked, and
reads the evidence only for the squares and steps it names).
:func:`check_proof` looks the argument up and returns a :class:`Verdict`:

* ``valid``: the evidence proves that no tour of the question exists;
* ``invalid``: it does not, and ``reason`` says why in one sentence;
* ``not checkable``: nothing here can tell (an argument no checker knows,
  a search's "no" that carries no certificate, a board beyond a checker's
  size, a missing optional checker), and ``reason`` says which.

A checker returns None (valid), a string (invalid, the reason) or a
:class:`Verdict` (for "not checkable"); an exception it raises on malformed
evidence (``ValueError``, ``KeyError``, ``TypeError``, ...) makes the proof
invalid.  Each table entry is a ``"module:function"`` path, imported on
first use like the methods of :mod:`ktsolve.registry`.

Examples
--------
>>> from ktsolve import Board, TourSpec
>>> from ktsolve.proofs import colour_proof
>>> b = Board(5, 5)
>>> check_proof(b, TourSpec(closed=True), colour_proof(b, TourSpec(closed=True)))
Verdict(outcome='valid', reason='', checker='colour parity')
>>> check_proof(b, TourSpec(), colour_proof(b, TourSpec(closed=True))).outcome
'invalid'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..tour import TourSpec
from .registry import CHECKERS

__all__ = ["Verdict", "VALID", "INVALID", "NOT_CHECKABLE", "check_proof", "checker_of", "not_checkable"]

VALID = "valid"
INVALID = "invalid"
NOT_CHECKABLE = "not checkable"


@dataclass(frozen=True)
class Verdict:
    """A checker's answer about one proof.

    Attributes
    ----------
    outcome : str
        ``"valid"``, ``"invalid"`` or ``"not checkable"``.
    reason : str
        Why it is invalid or not checkable (empty when valid).
    checker : str
        The argument whose checker spoke (and, for a search's certificate,
        the proof checker that ran).

    A verdict has no truth value (``if verdict:`` raises ``TypeError``):
    three outcomes do not fold into two, so ask :attr:`valid`.

    Examples
    --------
    >>> v = Verdict("not checkable", "no checker knows the argument 'magic'")
    >>> v.valid, v.invalid, v.checkable
    (False, False, False)
    >>> v.line()
    "not checkable: no checker knows the argument 'magic'"
    """

    outcome: str
    reason: str = ""
    checker: str = ""

    def __post_init__(self):
        if self.outcome not in (VALID, INVALID, NOT_CHECKABLE):
            raise ValueError(f"a verdict is valid, invalid or not checkable, not {self.outcome!r}")

    @property
    def valid(self) -> bool:
        """True when the evidence proves that no tour exists."""
        return self.outcome == VALID

    @property
    def invalid(self) -> bool:
        return self.outcome == INVALID

    @property
    def checkable(self) -> bool:
        return self.outcome != NOT_CHECKABLE

    def __bool__(self):
        raise TypeError("a Verdict has three outcomes: ask .valid, .invalid or .checkable")

    def line(self) -> str:
        """One line for people: ``valid``, ``invalid: REASON`` or ``not checkable: REASON``."""
        return self.outcome if not self.reason else f"{self.outcome}: {self.reason}"


def not_checkable(reason: str) -> Verdict:
    """The verdict a checker returns when it cannot tell (its caller fills in ``checker``)."""
    return Verdict(NOT_CHECKABLE, reason)


def checker_of(argument: str):
    """The checker of ``argument`` (imported on first use), or None when the table has none."""
    path = CHECKERS.get(argument)
    if path is None:
        return None
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def check_proof(where, spec: TourSpec, proof) -> Verdict:
    """Re-check ``proof`` against the question (``where``: a Board, or a KnightGraph for its board).

    Returns a :class:`Verdict`: valid, invalid with the reason, or not
    checkable with the reason; never one value for two of them.
    """
    board = getattr(where, "board", where)
    argument = getattr(proof, "argument", None)
    evidence = getattr(proof, "evidence", None)
    if not isinstance(argument, str) or not argument:
        return Verdict(NOT_CHECKABLE, "the proof names no argument")
    checker = checker_of(argument)
    if checker is None:
        return Verdict(NOT_CHECKABLE, f"no checker knows the argument {argument!r}", argument)
    if not isinstance(evidence, dict):
        try:
            evidence = dict(evidence or {})
        except (TypeError, ValueError):
            return Verdict(INVALID, "the evidence is not a mapping", argument)
    try:
        said = checker(board, spec, evidence)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        return Verdict(INVALID, f"the {argument} evidence is malformed: {_short(exc)}", argument)
    if said is None:
        return Verdict(VALID, "", argument)
    if isinstance(said, Verdict):
        return Verdict(said.outcome, said.reason, said.checker or argument)
    return Verdict(INVALID, str(said), argument)


def _short(exc: BaseException, limit: int = 200) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
