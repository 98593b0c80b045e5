"""Results: one frozen record for every method, and what a method can do.

:class:`SolveResult` carries the status (``found``, ``infeasible``,
``unknown``), the tour, the proof of impossibility, the method, the seed
actually used, the time spent and method statistics.  The result alone knows
its exit code.  :class:`Proof` is the certificate of an ``infeasible``
answer: a string a person can read and check, with the name of the argument
and its evidence attached.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .exit_codes import ExitCode
from .tour import Tour, TourSpec

__all__ = ["Status", "Proof", "SolveResult", "Enumeration"]


class Status(str, enum.Enum):
    """Answer of a solve: a tour was found, none exists, or the budget ran out.

    Examples
    --------
    >>> Status("infeasible").exit_code, str(Status.FOUND)
    (1, 'found')
    """

    FOUND = "found"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """0 found, 1 proved impossible, 3 unknown (2 is kept for bad input); see :mod:`ktsolve.exit_codes`."""
        return int(_EXIT_CODES[self])

    def __str__(self) -> str:
        return self.value


#: The exit code of each answer, from the one table of :mod:`ktsolve.exit_codes`.
_EXIT_CODES = {Status.FOUND: ExitCode.FOUND, Status.INFEASIBLE: ExitCode.INFEASIBLE, Status.UNKNOWN: ExitCode.UNKNOWN}


class Proof(str):
    """A certificate of impossibility: readable text, plus the argument's name and evidence.

    ``Proof`` is a ``str`` (the text), so ``result.proof`` prints as a
    sentence; ``argument`` names the kind of argument (``"colour parity"``,
    ``"degree"``, ``"forced moves"``, ``"connectivity"``, ``"cut square"``, ``"matching"``,
    ``"toughness"``, ``"two-square cut"``, ``"region colours"``,
    ``"cpsat"``, ``"exhaustive search"`` ...) and ``evidence`` holds
    JSON-ready data a program can re-check.

    Examples
    --------
    >>> p = Proof("31 light and 33 dark squares", argument="colour parity", evidence={"light": 31})
    >>> p, p.argument
    ('31 light and 33 dark squares', 'colour parity')
    """

    argument: str
    evidence: Mapping[str, Any]

    def __new__(cls, text: str, argument: str = "", evidence: Mapping[str, Any] | None = None):
        obj = super().__new__(cls, text)
        obj.argument = argument
        obj.evidence = dict(evidence or {})
        return obj

    def __reduce__(self):
        return (Proof, (str(self), self.argument, self.evidence))


@dataclass(frozen=True)
class SolveResult:
    """The answer of any method.

    Attributes
    ----------
    status : Status
    tour : Tour or None
        A validated tour when ``status`` is ``found``, else None.
    proof : Proof or None
        Why no tour exists, when ``status`` is ``infeasible``.
    method : str
        The method that produced the answer.
    seed : int or None
        The seed actually used (None for deterministic methods).
    elapsed : float
        Seconds, graph building included.
    stats : mapping
        Method statistics (attempts, nodes, tours found, production rate ...);
        ``stats["reason"]`` says why an answer is ``unknown``.
    board, spec : the question that was asked (filled in by :func:`ktsolve.solve`).
    path : Tour or None
        Best partial path, for methods that report one (longest paths).

    Examples
    --------
    >>> from ktsolve import solve
    >>> res = solve("6x6", method="warnsdorff", start="a1", seed=3)
    >>> res.found, res.exit_code, res.seed, len(res.tour)
    (True, 0, 3, 36)
    >>> res.to_dict()["tour"][:2]
    [[5, 0], [4, 2]]
    """

    status: Status
    tour: Tour | None = None
    proof: Proof | None = None
    method: str = ""
    seed: int | None = None
    elapsed: float = 0.0
    stats: Mapping[str, Any] = field(default_factory=dict)
    board: Board | None = None
    spec: TourSpec | None = None
    path: Tour | None = None

    @property
    def found(self) -> bool:
        return self.status is Status.FOUND

    @property
    def exit_code(self) -> int:
        return self.status.exit_code

    def replace(self, **changes) -> "SolveResult":
        return dataclasses.replace(self, **changes)

    def summary(self) -> str:
        """One line for people, such as ``found closed tour from a1 of 64 squares with cpsat in 0.03 s``."""
        what = self.spec.describe(self.board) if self.spec is not None else "tour"
        if self.status is Status.FOUND:
            n = len(self.tour)
            head = f"found {what} of {n} square{'' if n == 1 else 's'}"
        elif self.status is Status.INFEASIBLE:
            head = f"no {what} exists"
        else:
            article = "an" if what[:1] in "aeiou" else "a"
            head = f"unknown whether {article} {what} exists"
        tail = f" with {self.method}" if self.method else ""
        tail += f" in {self.elapsed:.3g} s"
        if self.seed is not None:
            tail += f" (seed {self.seed})"
        return head + tail

    def to_dict(self, with_squares: bool = True) -> dict[str, Any]:
        """The JSON object of the command line (see DESIGN.md).

        ``with_squares=False`` leaves out ``tour`` and ``path`` (their keys
        stay, as None), for writers that encode them on their own.
        """
        out: dict[str, Any] = {
            "status": self.status.value,
            **_question_json(self.board, self.spec),
            "tour": None if self.tour is None or not with_squares else self.tour.coords.tolist(),
            "method": self.method,
            "seed": self.seed,
            "elapsed_s": round(float(self.elapsed), 6),
            "proof": None if self.proof is None else str(self.proof),
            "stats": jsonable(dict(self.stats)),
        }
        if isinstance(self.proof, Proof):
            out["certificate"] = {"argument": self.proof.argument, "evidence": jsonable(self.proof.evidence)}
        if self.path is not None:
            out["path"] = self.path.coords.tolist() if with_squares else None
        return out

    def _repr_html_(self) -> str:
        """Summary, picture and proof (its squares highlighted) for notebooks (see :func:`ktsolve.render.result_html`)."""
        from .render import result_html  # render imports this module; it loads with the first picture

        return result_html(self)


@dataclass(frozen=True)
class Enumeration:
    """Every distinct complete tour a stochastic method met in a run, and its counts.

    A tour is its sequence of squares from its first square, so a closed
    tour listed from another square, or walked backwards, is another tour.

    Attributes
    ----------
    tours : (k, N) int32 array
        The distinct tours (square numbers), in the order they were first met.
    stats : mapping
        ``walks``, ``complete``, ``distinct``, ``closed``, ``production_rate``
        (complete tours per walk) and method-specific counts; ``stopped``
        says whether the cycle budget was used up or the time limit ended the run.
    method, seed, elapsed, board, spec : as in :class:`SolveResult`
    closed : bool
        Whether every tour in ``tours`` is closed (only closed tours were kept).
    pheromone : ndarray or None
        The pheromone at the end of the run (methods that have one).
    history : tuple of tuples
        ``(cycles, walks, complete, distinct)`` after each chunk of cycles.

    Examples
    --------
    >>> from ktsolve import enumerate_tours
    >>> res = enumerate_tours("5x5", "aco", cycles=30, start="a1", seed=2)
    >>> res.tours.shape[1], res.stats["distinct"] == len(res.tours)
    (25, True)
    """

    tours: Any
    stats: Mapping[str, Any] = field(default_factory=dict)
    method: str = ""
    seed: int | None = None
    elapsed: float = 0.0
    board: Board | None = None
    spec: TourSpec | None = None
    closed: bool = False
    pheromone: Any = None
    history: tuple = ()

    def replace(self, **changes) -> "Enumeration":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``ktsolve enumerate`` prints (without the tours)."""
        return {
            **_question_json(self.board, self.spec),
            "method": self.method,
            "seed": self.seed,
            "elapsed_s": round(float(self.elapsed), 6),
            "stats": jsonable(dict(self.stats)),
        }


def _question_json(board, spec) -> dict[str, Any]:
    """The board and the question of an answer, as the JSON objects of :meth:`SolveResult.to_dict` and
    :meth:`Enumeration.to_dict` hold them."""
    spec = spec or TourSpec()

    def rc(pair):
        return None if pair is None else [int(pair[0]), int(pair[1])]

    return {
        "board": None
        if board is None
        else {"rows": board.rows, "cols": board.cols, "holes": [list(h) for h in board.holes]},
        "closed": bool(spec.closed),
        "start": rc(spec.start),
        "end": rc(spec.end),
    }


def jsonable(value):
    """Plain JSON types from numpy scalars, arrays and tuples."""
    import numpy as np

    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, enum.Enum):
        return value.value
    return value
