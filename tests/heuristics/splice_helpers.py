"""Splice's steps called as the tests call them: each with a clock that never runs out."""

from __future__ import annotations

from ktsolve.driver import Deadline
from ktsolve.factor import restore as _restore
from ktsolve.heuristics.splice import build, pieces
from ktsolve.heuristics.splice.window import WINDOW_TIME


def build_links(board):
    """Steps 1 and 2 (:func:`ktsolve.heuristics.splice.build.build_links`)."""
    return build.build_links(board, Deadline(None))


def restore_factor(links, alive, rows, cols, **kw):
    """Step 3 (:func:`ktsolve.factor.restore.restore_factor`)."""
    return _restore.restore_factor(links, alive, rows, cols, deadline=Deadline(None), **kw)


def merge_pieces(links, alive, rows, cols, **kw):
    """Step 4 (:func:`ktsolve.heuristics.splice.pieces.merge_pieces`)."""
    return pieces.merge_pieces(links, alive, rows, cols, deadline=Deadline(None), **kw)


def job(links, alive, rows, cols, **kw):
    """What the repairs work on (:class:`ktsolve.heuristics.splice.pieces.Job`)."""
    return pieces.Job(links, alive, rows, cols, Deadline(None), **kw)


def window_clock():
    """A window's clock when the call has no time limit."""
    return Deadline(WINDOW_TIME)
