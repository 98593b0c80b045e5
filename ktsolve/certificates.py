"""Certificate files: a proof that no tour exists, written by ``prove -o`` and checked by ``verify`` or in Python.

A certificate is one JSON object, versioned, that a person or a program
can check without trusting ktsolve's finders:

.. code-block:: json

    {"format": "ktsolve-certificate", "version": 1,
     "board": {"rows": 5, "cols": 5, "holes": 0, "holes_sha256": "...", "hole_squares": []},
     "question": {"closed": true, "start": null, "end": null},
     "answer": "no tour", "argument": "colour parity", "certified": true,
     "proof": "the board has 13 dark and 12 light squares; ...",
     "evidence": {"dark": 13, "light": 12}, "ktsolve": "0.1.0"}

``format`` comes first (``verify`` tells a certificate from a tour file by
its first bytes).  The board is named by its size, its number of holes and
``holes_sha256``, the SHA-256 of ``"ROWSxCOLS:"`` followed by the holes'
cell numbers ``row * cols + col`` in increasing order as 8-byte
little-endian integers; ``hole_squares`` lists them by name up to
:data:`HOLES_LISTED`.  ``evidence`` is what the argument's checker reads
(see :data:`ktsolve.proofs.CHECKERS`); a search's "no" holds its CNF's cuts
and a DRUP proof (:mod:`ktsolve.proofs.cnf_check`), compressed inside the
file.  The file may be gzipped as a whole (``-o cert.json.gz``).

:func:`verify_certificate` checks one: the board must be the one given, the
question the one asked (or, when none is given, the certificate's own),
and the evidence must pass its argument's checker.

Examples
--------
>>> from ktsolve import Board, TourSpec, prove
>>> res = prove("5x5", closed=True)
>>> cert = certificate_of(res)
>>> cert["format"], cert["argument"]
('ktsolve-certificate', 'colour parity')
>>> verify_certificate(Board(5, 5), TourSpec(closed=True), cert).valid
True
>>> verify_certificate(Board(5, 6), None, cert).line()
'invalid: the certificate is about another board (5x5 with 0 holes), not this one (5x6 with 0 holes)'
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping

import numpy as np

from ._reading import MAX_TEXT_BYTES, Source
from .board import Board
from .errors import CertificateFileError
from .result import Proof, SolveResult, Status
from .tour import TourSpec

__all__ = ["FORMAT", "VERSION", "HOLES_LISTED", "certificate_of", "certificate_json", "verify_certificate",
           "board_digest", "certificate_question", "read_certificate", "certificate_budget"]

#: The ``format`` member of every certificate.
FORMAT = "ktsolve-certificate"

#: The version this ktsolve writes and reads.
VERSION = 1

#: A certificate lists its board's holes by name up to this many (always their digest).
HOLES_LISTED = 10_000


def certificate_budget(cells: int) -> int:
    """Bytes a certificate file of a board of ``cells`` cells may hold: 64 MiB plus 256 per cell, at most 1 GiB.

    A certificate's bulk is its evidence: sets of squares (a few bytes a
    square each), a search's cuts, and its DRUP proof, compressed inside
    the file (the proof's own inflated size has a budget of its own,
    :data:`ktsolve.proofs.cnf_check.PROOF_BYTES_MAX`).
    """
    return min(MAX_TEXT_BYTES, (64 << 20) + 256 * int(cells))


def is_certificate(src: Source) -> bool:
    """Whether the content begins as a certificate does: a JSON object whose first member is its format.

    Only a file that may be JSON is read ahead (gzipped, or starting with
    ``{``, blanks or a byte-order mark), so a tour matrix keeps its fast reader.
    """
    first = src.head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1]
    if not src.gzipped and first not in (b"{", b""):
        return False
    head = src.peek(256).removeprefix(b"\xef\xbb\xbf").lstrip()
    return head.startswith(b"{") and re.match(rb'\{\s*"format"\s*:\s*"ktsolve-certificate"', head) is not None


def parse_certificate(src: Source, board: Board) -> dict:
    """The certificate object of a source already recognised as one, read within the certificate budget."""
    src.budget = certificate_budget(board.size)
    src._fail = CertificateFileError
    src.what = src.what.replace("tour file", "certificate file", 1)
    data = src.read(f"more than a certificate about the {board.rows}x{board.cols} board can hold")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CertificateFileError(f"cannot read {src.what}: not UTF-8 text") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CertificateFileError(f"{src.what} is not valid JSON ({exc.msg}: line {exc.lineno}, "
                                   f"column {exc.colno})") from None
    except RecursionError:
        raise CertificateFileError(f"{src.what}'s JSON is nested too deeply to be a certificate") from None
    except ValueError as exc:  # a number of thousands of digits
        raise CertificateFileError(f"{src.what}'s JSON has a number too long to read ({str(exc)[:80]})") \
            from None
    if not isinstance(obj, dict):
        raise CertificateFileError(f"{src.what} is not a JSON object")
    return obj


def read_certificate(board: Board, path) -> dict:
    """The certificate object of a certificate file (gzip allowed, ``-`` for standard input), not checked.

    Read once, within :func:`certificate_budget` bytes after inflation.
    Raises :class:`~ktsolve.errors.CertificateFileError` for a file that is
    not a certificate (see :func:`ktsolve.verify_certificate` to check one).
    """
    path = os.fspath(path)
    with Source(path, f"certificate file {_shown(path)}", certificate_budget(board.size),
                CertificateFileError) as src:
        src.path = path
        if not is_certificate(src):
            raise CertificateFileError(f"certificate file {_shown(path)} is not a ktsolve certificate (a JSON "
                                       'object whose first member is "format": "ktsolve-certificate")')
        return parse_certificate(src, board)


def _shown(path: str) -> str:
    from ._reading import shown

    return "standard input" if path == "-" else shown(path, 200)


def board_digest(board: Board) -> str:
    """The SHA-256 that names a board's holes (see the module docstring)."""
    holes = np.sort(np.asarray(board.hole_flat, dtype="<i8"))
    h = hashlib.sha256(f"{board.rows}x{board.cols}:".encode("ascii"))
    h.update(holes.tobytes())
    return h.hexdigest()


def jsonable(value):
    from .result import jsonable as plain

    return plain(value)


def certificate_of(result: SolveResult) -> dict:
    """The certificate object of an ``infeasible`` answer of :func:`ktsolve.prove` or :func:`ktsolve.solve`."""
    if result.status is not Status.INFEASIBLE or not isinstance(result.proof, Proof):
        raise ValueError("only an answer that no tour exists, with its proof, has a certificate")
    board, spec = result.board, result.spec or TourSpec()
    if board is None:
        raise ValueError("the answer does not name its board")
    proof = result.proof
    evidence = jsonable(dict(proof.evidence))
    search = proof.argument in ("exhaustive search", "cpsat")
    holes = board.holes
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("ktsolve")
    except PackageNotFoundError:  # pragma: no cover - a source tree without install
        ours = "0+unknown"
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": {
            "rows": board.rows,
            "cols": board.cols,
            "holes": len(holes),
            "holes_sha256": board_digest(board),
            "hole_squares": [board.name(r, c) for r, c in holes[:HOLES_LISTED]],
        },
        "question": {
            "closed": bool(spec.closed),
            "start": None if spec.start is None else board.name(*spec.start),
            "end": None if spec.end is None else board.name(*spec.end),
        },
        "answer": "no tour",
        "argument": proof.argument,
        "certified": bool(evidence.get("certified", True)) if search else True,
        "proof": str(proof),
        "evidence": evidence,
        "ktsolve": ours,
    }


def certificate_json(result: SolveResult) -> str:
    """The certificate of an ``infeasible`` answer as the text of a file (``format`` first, one line)."""
    return json.dumps(certificate_of(result), separators=(",", ":")) + "\n"


def certificate_question(board: Board, data: Mapping) -> TourSpec:
    """The question a certificate object answers, its squares read on ``board``."""
    q = data.get("question")
    if not isinstance(q, Mapping) or not isinstance(q.get("closed"), bool):
        raise CertificateFileError("the certificate's question must be an object with 'closed' true or false")
    ends = []
    for role in ("start", "end"):
        name = q.get(role)
        if name is None:
            ends.append(None)
        elif isinstance(name, str):
            ends.append(board.parse_square(name, what=f"the certificate's {role}"))
        else:
            raise CertificateFileError(f"the certificate's {role} must be a square name or null")
    return TourSpec(closed=q["closed"], start=ends[0], end=ends[1])


def _board_line(rows, cols, holes, names=()) -> str:
    text = f"{rows}x{cols} with {holes} hole{'' if holes == 1 else 's'}"
    names = [str(x)[:8] for x in names[:8]] if isinstance(names, (list, tuple)) else []
    if names and isinstance(holes, int) and len(names) == holes:
        text += ": " + ", ".join(names)
    return text


def _a(what: str) -> str:
    return ("an " if what[:1] in "aeiou" else "a ") + what


def _same_question(a: TourSpec, b: TourSpec) -> bool:
    def key(s):
        return (bool(s.closed), None if s.start is None else tuple(int(x) for x in s.start),
                None if s.end is None else tuple(int(x) for x in s.end))

    return key(a) == key(b)


def verify_certificate(board, spec: TourSpec | None, certificate, *, checker: str = "auto"):
    """Check a certificate that no tour exists: a :class:`~ktsolve.proofs.Verdict` (valid, invalid, not checkable).

    Parameters
    ----------
    board : Board or str
        The board the certificate must be about (``"8x8"`` or a Board).
    spec : TourSpec or None
        The question it must answer; None takes the certificate's own
        (and the verdict's reason is about that question).
    certificate : mapping, path, SolveResult or Proof
        A certificate object (:func:`certificate_of`), a certificate file
        (read within its byte budget, gzip allowed), an ``infeasible``
        answer, or a bare :class:`~ktsolve.result.Proof` (``spec`` needed).
    checker : {"auto", "drup", "dratify"}
        The DRUP checker of a search's certificate
        (:func:`ktsolve.proofs.cnf_check.check_search`).

    Raises
    ------
    CertificateFileError
        For a file or object that is no certificate at all (another format
        or version, not JSON, too large, damaged), which is bad input, not
        a verdict.

    Examples
    --------
    >>> from ktsolve import prove
    >>> cert = certificate_of(prove("4x6", closed=True))
    >>> verify_certificate("4x6", None, cert).line()
    'valid'
    >>> cert["evidence"]["steps"][0]["levels"] = {"-1": ["a4"]}
    >>> verify_certificate("4x6", None, cert).line()
    "invalid: the matching proof does not check: level '-1' is not a whole number from 1 up"
    """
    from .checks import check_choice
    from .proofs.verdict import INVALID, Verdict
    from .request import as_board

    board = as_board(board)
    checker = check_choice("checker", checker, ("auto", "drup", "dratify"))
    if isinstance(certificate, (str, os.PathLike)):
        certificate = read_certificate(board, certificate)
    if isinstance(certificate, SolveResult):
        if certificate.board is not None and certificate.board != board:
            return Verdict(INVALID, "the answer is about another board")
        certificate = certificate_of(certificate.replace(board=board)) if certificate.status is Status.INFEASIBLE \
            else certificate
    if isinstance(certificate, SolveResult):
        raise CertificateFileError(f"an answer '{certificate.status.value}' is not a proof that no tour exists")
    if isinstance(certificate, Proof):
        if spec is None:
            raise CertificateFileError("a bare proof names no question: give the question asked")
        return _check(board, spec, certificate, checker)
    if not isinstance(certificate, Mapping):
        raise CertificateFileError(f"a certificate is a JSON object, not {type(certificate).__name__}")
    if certificate.get("format") != FORMAT:
        raise CertificateFileError(f"not a ktsolve certificate (its format is {str(certificate.get('format'))[:40]!r})")
    version = certificate.get("version")
    if version != VERSION:
        raise CertificateFileError(f"certificate version {str(version)[:20]} is not one this ktsolve reads "
                                   f"(version {VERSION})")
    b = certificate.get("board")
    if not isinstance(b, Mapping):
        raise CertificateFileError("the certificate's board must be an object")
    rows, cols, holes, digest = b.get("rows"), b.get("cols"), b.get("holes"), b.get("holes_sha256")
    if (rows, cols, holes) != (board.rows, board.cols, board.n_holes) or digest != board_digest(board):
        mine = [board.name(r, c) for r, c in board.holes[:8]]
        return Verdict(INVALID, f"the certificate is about another board "
                                f"({_board_line(rows, cols, holes, b.get('hole_squares'))}), not this one "
                                f"({_board_line(board.rows, board.cols, board.n_holes, mine)})")
    try:
        question = certificate_question(board, certificate)
    except CertificateFileError:
        raise
    except ValueError as exc:
        return Verdict(INVALID, str(exc))
    if spec is not None and not _same_question(question, spec):
        return Verdict(INVALID, f"the certificate is about {_a(question.describe(board))}, and the question asks "
                                f"for {_a(spec.describe(board))}")
    argument, evidence = certificate.get("argument"), certificate.get("evidence")
    if not isinstance(argument, str) or not isinstance(evidence, Mapping):
        return Verdict(INVALID, "the certificate needs an argument (a string) and its evidence (an object)")
    text = certificate.get("proof")
    proof = Proof(text if isinstance(text, str) else "", argument=argument, evidence=dict(evidence))
    return _check(board, question, proof, checker)


def _check(board: Board, spec: TourSpec, proof: Proof, checker: str):
    from .proofs.verdict import Verdict, check_proof

    if checker != "auto" and proof.argument in ("exhaustive search", "cpsat"):
        from .proofs.cnf_check import check_search

        try:
            said = check_search(board, spec, dict(proof.evidence), checker=checker)
        except (ValueError, KeyError, TypeError) as exc:
            return Verdict("invalid", f"the {proof.argument} evidence is malformed: {exc}", proof.argument)
        if said is None:
            return Verdict("valid", "", proof.argument)
        if isinstance(said, Verdict):
            return said
        return Verdict("invalid", said, proof.argument)
    return check_proof(board, spec, proof)
