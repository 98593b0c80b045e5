"""The schema of a census results file, checked line by line as the file is read.

A results file is JSON lines that a person may edit, copy half-way or
replace by mistake, so a line that is valid JSON is not yet a valid line.
:func:`check_header` and :func:`check_line` are the one validator of that
schema; :func:`ktsolve.census.store.read_results` calls them on every line
it reads, so resuming a census and summarising one (``--summary``) refuse
the same files with the same message, one line naming the file, the line
number and the field::

    'r.jsonl' line 5: index must be a whole number from 0 to 11, not 99999999

Only the fields that the census, the summary and the pictures read are
checked (their types and ranges); anything else a line carries is kept
as it is.
"""

from __future__ import annotations

import math

from ..board import MAX_SQUARES
from ..errors import CensusFileError

__all__ = ["check_header", "check_line", "STATUSES", "MODES", "MAX_ORBIT", "MAX_QUESTIONS"]

#: The answers a record may carry.
STATUSES = ("found", "infeasible", "unknown")
#: The modes a header's family may name.
MODES = ("open", "closed", "both")
#: A rectangle has at most 8 symmetries, so an orbit holds at most 8 boards.
MAX_ORBIT = 8
#: Most questions a header may announce (far above any family ktsolve enumerates).
MAX_QUESTIONS = 10**12
#: Longest value shown in a message.
_SHOWN = 40


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


def _int(obj: dict, key: str, lo: int, hi: int, *, name: str | None = None) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise CensusFileError(f"{name or key} must be a whole number from {lo:,} to {hi:,}, not {_shown(value)}")
    return value


def _real(obj: dict, key: str, *, optional: bool = False) -> None:
    value = obj.get(key)
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise CensusFileError(f"{key} must be a number of seconds (0 or more), not {_shown(value)}")


def _text(obj: dict, key: str) -> None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise CensusFileError(f"{key} must be text or null, not {_shown(value)}")


def _board(obj, name: str) -> tuple[int, int]:
    """Check a ``{"rows", "cols", "holes"}`` object; its size."""
    if not isinstance(obj, dict):
        raise CensusFileError(f"{name} must be an object with rows, cols and holes, not {_shown(obj)}")
    rows = _int(obj, "rows", 1, MAX_SQUARES, name=f"{name}.rows")
    cols = _int(obj, "cols", 1, MAX_SQUARES // rows, name=f"{name}.cols")
    holes = obj.get("holes", [])
    if not isinstance(holes, list):
        raise CensusFileError(f"{name}.holes must be a list of [row, col] pairs, not {_shown(holes)}")
    for h in holes:
        _square(h, rows, cols, f"{name}.holes")
    return rows, cols


def _square(value, rows: int, cols: int, name: str) -> None:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value))
    if not ok:
        raise CensusFileError(f"{name} must hold [row, col] pairs of whole numbers, not {_shown(value)}")
    if not (0 <= value[0] < rows and 0 <= value[1] < cols):
        raise CensusFileError(f"{name} holds square {_shown(value)}, off the {rows}x{cols} board")


def check_header(header: dict) -> None:
    """Raise :class:`~ktsolve.errors.CensusFileError` naming the first field of ``header`` that breaks the schema.

    The message names the field and the problem;
    :func:`~ktsolve.census.store.read_results` adds the file and the line.
    """
    identity = header.get("identity")
    if not isinstance(identity, dict):
        raise CensusFileError(f"identity must be an object naming the census, not {_shown(identity)}")
    family = identity.get("family")
    if not isinstance(family, dict):
        raise CensusFileError(f"identity.family must be an object, not {_shown(family)}")
    if not isinstance(family.get("kind", ""), str):
        raise CensusFileError(f"identity.family.kind must be text, not {_shown(family.get('kind'))}")
    if family.get("modes", "open") not in MODES:
        raise CensusFileError(f"identity.family.modes must be one of {', '.join(MODES)}, "
                          f"not {_shown(family.get('modes'))}")
    if "board" in family:
        _board(family["board"], "identity.family.board")
    if "remove" in family:
        _int(family, "remove", 0, MAX_SQUARES, name="identity.family.remove")
    _int(header, "questions", 0, MAX_QUESTIONS)
    if "seed" in header:
        _int(header, "seed", 0, 2**32 - 1)
    for key in ("boards_before", "boards_after"):
        if key in header:
            _int(header, key, 0, 10**30)
    if "symmetries" in header:
        _int(header, "symmetries", 1, MAX_ORBIT)
    _text(header, "description")


def check_line(rec, questions: int) -> str:
    """The kind of line ``rec`` is (``"record"``, ``"run"``, ``"run_end"``).

    Raises :class:`~ktsolve.errors.CensusFileError` naming the field when
    it is none of them, or breaks the schema.

    ``questions`` is the header's count, which bounds every index.
    """
    if not isinstance(rec, dict):
        raise CensusFileError(f"a line must be a JSON object, not {_shown(rec)}")
    if "index" in rec:
        _int(rec, "index", 0, max(0, questions - 1))
        if rec.get("status") not in STATUSES:
            raise CensusFileError(f"status must be one of {', '.join(STATUSES)}, not {_shown(rec.get('status'))}")
        rows, cols = _board(rec.get("board"), "board")
        if not isinstance(rec.get("closed", False), bool):
            raise CensusFileError(f"closed must be true or false, not {_shown(rec.get('closed'))}")
        for key in ("start", "end"):
            if rec.get(key) is not None:
                _square(rec[key], rows, cols, key)
        if "orbit" in rec:
            _int(rec, "orbit", 1, MAX_ORBIT)
        _real(rec, "seconds", optional=True)
        for key in ("settled_by", "method", "argument", "reason", "tour_file"):
            _text(rec, key)
        return "record"
    if "run" in rec:
        _int(rec, "run", 1, 10**9)
        return "run"
    if "run_end" in rec:
        _int(rec, "run_end", 1, 10**9)
        for key in ("wall_s", "question_s"):
            _real(rec, key, optional=True)
        return "run_end"
    raise CensusFileError("a line must be an answer (index), a run start (run) or a run end (run_end)")
