"""Reproductions of the seed papers' tables, printed beside the published figures.

Each module of this package defines ``SECTION = Section(...)``: a name, a
title, and ``run(quick, seed, progress, plots)`` that returns
:class:`Table` objects.  ``ktsolve bench papers`` runs every section (or the
one named with ``--section``) and prints the tables.  ``quick=True`` (the
default of the command) runs a reduced budget that finishes in seconds and
says so in the table notes; ``--full`` runs the papers' budgets.

One section per seed paper:

=============  ==============================================================
``bees``       the Prolog paper: Banharnsakun's bee colony against one
               Warnsdorff walk, and the declarative longest-path search
``colonies``   Hingston & Kendall's ant colony and Jiang, Bai & Dong's
               improved colony
``dfs``        the Java report's depth-first searches on the closed 6x6 tour
``neural``     the Takefuji-Lee network of the blog post
=============  ==============================================================

Sections use the public API only (:func:`ktsolve.solve`,
:func:`ktsolve.longest`, :func:`ktsolve.enumerate_tours`, the registry), never
a method module, so they measure what a user gets.  A figure a section
cannot match is printed beside the published one, and the table's notes
give the reason; a figure the seed does not give is said to be missing in
words, never left as a bare dash.

Plots (``--plots DIR``) need matplotlib, the ``plot`` extra:
:func:`require_plots` refuses the folder before any section runs, and
:mod:`ktsolve.bench.plots` holds the drawing helpers every section shares.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import UnsupportedError

__all__ = ["Table", "Section", "Stages", "sections", "format_table", "require_plots", "NOT_GIVEN"]

#: The cell of a published column where the seed gives no figure (the notes say why).
NOT_GIVEN = "not given"


@dataclass(frozen=True)
class Table:
    """A printed table: a title, column names, rows, and notes under it (budget, machine, sources)."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence]
    notes: Sequence[str] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {"title": self.title, "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "notes": list(self.notes)}


@dataclass(frozen=True)
class Section:
    """One paper's experiments.

    ``run(quick: bool, seed: int, progress, plots: str | None) -> list[Table]``;
    ``progress`` is None or ``progress(done, total)``; ``plots`` is None or a
    folder where the section may save figures (matplotlib, imported lazily).
    """

    name: str
    title: str
    run: Callable[..., list[Table]]


class Stages:
    """Counts a section's finished stages for its ``progress(done, total)`` callback (None: silent).

    Examples
    --------
    >>> seen = []
    >>> stages = Stages(2, lambda done, total: seen.append((done, total)))
    >>> stages.tick(); stages.tick()
    >>> seen
    [(1, 2), (2, 2)]
    """

    def __init__(self, total: int, progress=None):
        self.done, self.total, self.progress = 0, total, progress

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


def require_plots(folder: str | None) -> str | None:
    """Check, before any work, that plots can be drawn into ``folder``; create it last.

    Raises :class:`~ktsolve.errors.UnsupportedError` when matplotlib (the
    ``plot`` extra) is not installed or ``folder`` names something that is
    not a folder; nothing is created then.  Returns the folder (None when
    no plots are asked for).

    Examples
    --------
    >>> require_plots(None) is None
    True
    """
    if folder is None:
        return None
    if not folder:
        raise UnsupportedError("the plots folder name is empty")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UnsupportedError(
            "plots need matplotlib, which is not installed: pip install 'ktsolve[plot]'"
        ) from None
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UnsupportedError(f"plots folder '{folder}' exists and is not a folder")
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        raise UnsupportedError(f"plots folder '{folder}': directory '{parent}' does not exist")
    os.makedirs(folder, exist_ok=True)
    return folder


def sections() -> dict[str, Section]:
    """Every section found in this package, by name."""
    found: dict[str, Section] = {}
    for mod in pkgutil.iter_modules(__path__):
        if mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        sec = getattr(module, "SECTION", None)
        if sec is not None:
            found[sec.name] = sec
    return dict(sorted(found.items()))


def _cell(value) -> str:
    if isinstance(value, float):
        if value == 0:
            return "0"
        if abs(value) >= 1000 or abs(value) < 0.001:
            return f"{value:.3g}"
        return f"{value:.4g}"
    return "-" if value is None else str(value)


def format_table(table: Table) -> str:
    """Plain-text rendering with aligned columns.

    Examples
    --------
    >>> print(format_table(Table("T", ["a", "bb"], [[1, 0.5], ["x", None]], ["note"])))
    T
    a  bb
    -  ---
    1  0.5
    x  -
      note
    """
    cells = [[_cell(v) for v in row] for row in table.rows]
    head = [str(c) for c in table.columns]
    widths = [max(len(r[i]) for r in [head, *cells]) for i in range(len(head))]
    lines = [table.title, "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * max(w, 1) for w in widths).rstrip())
    lines.extend("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells)
    lines.extend(f"  {n}" for n in table.notes)
    return "\n".join(lines)
