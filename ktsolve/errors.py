"""The exceptions ktsolve raises for bad input.

"No tour exists" is never an exception: it is the ``infeasible`` status of a
:class:`~ktsolve.result.SolveResult`.  Exceptions are for input that cannot be
answered at all, and each message is one sentence naming the offending value,
for example ``hole j3 is outside the 8x8 board``.  The hierarchy mirrors
networkx's ``NetworkXError`` family so callers can catch the root.
"""

__all__ = [
    "KtsolveError",
    "InvalidBoardError",
    "InvalidSquareError",
    "InvalidTourError",
    "UnsupportedError",
]


class KtsolveError(Exception):
    """Root of every error ktsolve raises on purpose."""


class InvalidBoardError(KtsolveError, ValueError):
    """A board size, board file or hole list that does not describe a board."""


class InvalidSquareError(InvalidBoardError):
    """A square name that is malformed, off the board, or on a hole."""


class InvalidTourError(KtsolveError, ValueError):
    """A tour that breaks a rule; the message names the first fault."""


class UnsupportedError(KtsolveError):
    """A method asked for something it cannot do, or a method that does not exist."""
