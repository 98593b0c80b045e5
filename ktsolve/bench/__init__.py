"""Reproductions of the seed papers' tables, printed beside the published figures.

Each module of this package defines ``SECTION = Section(...)``: a name, a
title, and ``run(quick, seed, progress, plots)`` that returns
:class:`Table` objects.  ``ktsolve bench papers`` runs every section (or the
one named with ``--section``) and prints the tables.  ``quick=True`` (the
default of the command) runs a reduced budget that finishes in seconds and
says so in the table notes; ``--full`` runs the papers' budgets.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["Table", "Section", "sections", "format_table"]


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
