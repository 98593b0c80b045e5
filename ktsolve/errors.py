"""The exceptions ktsolve raises for bad input, documented in one place.

"No tour exists" is never an exception: it is the ``infeasible`` status of a
:class:`~ktsolve.result.SolveResult`.  Exceptions are for input that cannot be
answered at all, and each message is one sentence naming the offending value,
for example ``hole j3 is outside the 8x8 board``.  The hierarchy mirrors
networkx's ``NetworkXError`` family so callers can catch the root, and every
class is also a :class:`ValueError`, since each one reports a bad argument:

=========================  ==================================================
``KtsolveError``           root of every error ktsolve raises on purpose
``InvalidBoardError``      a board size, board file or hole list that is no board
``InvalidSquareError``     a square name that is malformed, off the board or a hole
``InvalidTourError``       a tour that breaks a rule (the first fault is named)
``UnsupportedError``       an unknown method, or a method asked for what it
                           cannot do (a closed tour of an open-only method)
``InvalidParameterError``  a value out of its range or of the wrong type: a
                           seed, a time limit, a flag, a method parameter
                           (a subclass of ``UnsupportedError``)
``OutputPathError``        an output path that cannot be written: a
                           directory, a folder that does not exist, a file
                           or folder without write permission, a socket
``TourFileError``          a tour file that cannot be read as tours at all:
                           not JSON, npy, a matrix or a square list, or
                           unreadable (a subclass of ``InvalidTourError``)
``CertificateFileError``   a certificate file that cannot be read as one: not
                           JSON, another format or version, too large, a
                           bomb (a subclass of ``TourFileError``: ``verify``
                           reads both kinds of file)
``CensusError``            a census that cannot run: workers that do not
                           start, a Dask scheduler that cannot be reached
``CensusFileError``        a census results file that cannot be used: not a
                           census file, another census's, in use, damaged
=========================  ==================================================

Every class above is a :class:`ValueError`.  An output file that fails while
it is written (a full disk, a reader that closed its end of a pipe) is an
:class:`OSError`, as Python reports it, with the user's path as its
``filename``.

Messages never use command-line words (``--closed``): the command line adds
its own.

Signals, not errors: a few exceptions carry control flow inside one piece
of work and never reach a caller, so they live beside the code that raises
and catches them, and none is a ``KtsolveError``:

===========================================  ===================================
``ktsolve.driver.Stopped``                   the time limit ran out or Ctrl-C
                                             was pressed; the method answers
                                             ``unknown``
``ktsolve.proofs.matching._Stop``            the matching proof reached its
                                             conclusion
``ktsolve.models.csp._OutOfTime``,           unwinds python-constraint's
``ktsolve.models.csp._Interrupted``          search at the deadline or Ctrl-C
===========================================  ===================================

Warnings, not errors (each a ``UserWarning``): ``ktsolve.testing.UnsettledWarning``
says that :func:`~ktsolve.testing.assert_agrees` could not check a claim
because ``prove`` found no answer within its time limit;
``ktsolve.testing.oracle.CacheWarning`` that the oracle's disk cache is
damaged, someone else's or locked, and was ignored or skipped (the answer
is computed); ``ktsolve.board.BoardFileWarning`` that a board file reads,
but perhaps not as its author meant (conventions mixed, or Rosetta Code's
``x`` for squares read as holes).
"""

__all__ = [
    "KtsolveError",
    "InvalidBoardError",
    "InvalidSquareError",
    "InvalidTourError",
    "UnsupportedError",
    "InvalidParameterError",
    "OutputPathError",
    "TourFileError",
    "CertificateFileError",
    "CensusError",
    "CensusFileError",
]


class KtsolveError(ValueError):
    """Root of every error ktsolve raises on purpose."""


class InvalidBoardError(KtsolveError):
    """A board size, board file or hole list that does not describe a board."""


class InvalidSquareError(InvalidBoardError):
    """A square name that is malformed, off the board, or on a hole."""


class InvalidTourError(KtsolveError):
    """A tour that breaks a rule; the message names the first fault."""


class UnsupportedError(KtsolveError):
    """An unknown method, or a method asked for something it cannot do."""


class InvalidParameterError(UnsupportedError):
    """A seed, time limit, flag or method parameter of the wrong type or out of range."""


class OutputPathError(KtsolveError):
    """An output path that cannot be written; raised before any work starts."""


class TourFileError(InvalidTourError):
    """A tour file that cannot be read as a tour at all (as opposed to an invalid tour)."""


class CertificateFileError(TourFileError):
    """A certificate file that cannot be read as a certificate at all (as opposed to one that does not check)."""


class CensusError(KtsolveError):
    """A census that cannot run: workers that do not start, a scheduler that cannot be reached."""


class CensusFileError(KtsolveError):
    """A results file that cannot be used: not a census file, another census's, in use, damaged."""
