"""Census: settle whole families of holed boards, on one machine or a Dask cluster.

People who study knight's tours on boards with holes ask about families of
boards: which single squares of a 7x7 board can be removed so that a closed
tour exists, how many of the ways to remove two squares from 8x8 leave an
open tour, from which squares an open tour starts.  :func:`census` (and
``ktsolve census`` on the command line) asks :func:`ktsolve.prove` every
question of such a family, so every answer carries its tour or its proof,
and writes the answers to a results file that survives crashes.

Pieces
------
:mod:`~ktsolve.census.family`
    The families (``remove``, ``starts``, ``list`` from a file, ``random``),
    their reduction by the board's symmetries, the seed of every question.
:mod:`~ktsolve.census.worker`
    Worker processes: warm once, answer questions, one JSON line each.
:mod:`~ktsolve.census.pool`
    The local pool: workers that are killed and replaced when they die or
    hang, and the batch sizes.
:mod:`~ktsolve.census.cluster`
    The same batches as tasks of a Dask cluster (``ktsolve[cluster]``).
:mod:`~ktsolve.census.store`
    The resumable JSON-lines results file.
:mod:`~ktsolve.census.schema`
    The one validator of its lines, used by resuming and by summaries.
:mod:`~ktsolve.census.summary` and :mod:`~ktsolve.census.plot`
    Tables and pictures (SVG; PNG with ``ktsolve[plot]``).

Choices where the issue was silent
----------------------------------
* **Symmetry.** ``remove`` and ``starts`` ask one question per orbit under the
  symmetries of the board (those that keep its own holes) and record the
  orbit's size, so summaries count questions and boards; ``symmetry=False``
  (``--no-symmetry``) asks every board.  The pictures colour every square,
  images of a question sharing its answer.
* **Identity of a census.** The family (kind, board, parameters, modes,
  symmetry; for a file, the digest of its questions) and the census seed.
  Workers, scheduler, batch size and time limit are not part of it: a census
  may be resumed on a cluster, or with a longer time limit, and every line
  records its own time limit.  A resumed census without a seed takes the
  header's.
* **Seeds.** Question ``i`` gets ``derive_seed(seed, "census question", i)``;
  random board ``i`` is drawn with ``derive_seed(seed, "census board", i)``.
* **Time limit.** 60 s per question by default, so that an overnight census
  always ends; a question still running at its limit plus a grace (5 s and
  half the limit) is killed with its worker and recorded ``unknown``.
* **Unknowns.** A worker that dies or hangs takes only its current question
  with it, recorded ``unknown`` with the reason; ``retry_unknown=True``
  (``--retry-unknown``) asks the unknowns again, for instance with a longer
  time limit, appending new lines (the last line of a question counts).
* **Ctrl-C and SIGTERM** stop the census at once: questions in progress
  are abandoned (never recorded) and asked on the next run; the file stays
  valid.  A second Ctrl-C raises :class:`KeyboardInterrupt` as usual.
* **One writer.** The results file is locked while a census writes it; a
  second census on the same file is refused, before any worker starts.
* **Only a regular file holds results.** A census reads its file back,
  locks it and appends to it, so ``output="-"`` (standard output), a
  device, a pipe or a socket is refused before any work, as is a
  ``FILE.tours`` that is not a folder and a picture whose path is the
  results file (:func:`~ktsolve.census.plot.check_plot_path`).  Every line
  read back is checked against one schema (:mod:`~ktsolve.census.schema`):
  resuming and summarising refuse a line that breaks it, naming the file,
  the line and the field.
* **Workers.** No more are started than there are questions to ask, CPUs
  this process may use, and room in the available memory
  (:func:`~ktsolve.census.pool.worker_cap`; the report's ``worker_cap``
  and the run line say which applied), and each dies with the census
  (``PR_SET_PDEATHSIG`` on Linux, and a watch of its parent).
* **Exit codes** of ``ktsolve census``: 0 every question settled, 3 some
  unknown or not yet asked, 130 interrupted, 2 bad input (nothing written).

The module itself can be called: ``ktsolve.census(...)`` is
:func:`ktsolve.census.census`, so ``import ktsolve.census.store`` and the
other submodules stay importable under their own names.

Examples
--------
>>> import os, tempfile
>>> out = os.path.join(tempfile.mkdtemp(), "census.jsonl")
>>> rep = census("3x4", starts=True, output=out, seed=3, workers=1)
>>> rep.family.boards_before, rep.family.boards_after, rep.answered_now
(12, 4, 4)
>>> sorted(r["start"] for r in rep.summary.records.values() if r["status"] == "found")
[[0, 0], [1, 0]]
"""

import inspect as _inspect
import sys as _sys
import types as _types

from ..errors import CensusError, CensusFileError
from .family import (
    Family,
    Task,
    list_family,
    orbit_count,
    orbit_members,
    orbit_representatives,
    random_family,
    remove_family,
    starts_family,
    symmetries,
)
from .plot import plot
from .run import CensusReport, census, make_family
from .store import read_results
from .summary import Summary, format_summary, summarize

__all__ = [
    "census",
    "CensusReport",
    "make_family",
    "Family",
    "Task",
    "remove_family",
    "starts_family",
    "list_family",
    "random_family",
    "symmetries",
    "orbit_count",
    "orbit_members",
    "orbit_representatives",
    "read_results",
    "summarize",
    "format_summary",
    "Summary",
    "plot",
    "CensusError",
    "CensusFileError",
]


class _CallableModule(_types.ModuleType):
    """This package, callable as :func:`census`."""

    def __call__(self, *args, **kwargs) -> CensusReport:
        return census(*args, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
__signature__ = _inspect.signature(census)
