"""Drawing helpers shared by the sections of ``ktsolve bench papers``.

Every function draws one figure with matplotlib's non-interactive ``Agg``
backend, saves it as ``DIR/NAME.png`` and returns the path.  matplotlib is
imported on the first call only (the ``plot`` extra); the command line
checks for it with :func:`ktsolve.bench.require_plots` before any section
runs.

* :func:`curves`: lines against a common x axis, with the published
  figures as dotted horizontal lines (production rate against cycles,
  against rho, against F);
* :func:`grouped_bars`: bars by group and series, with optional reference
  marks (path lengths of ABC, one Warnsdorff walk and the optimum; times on
  a logarithmic axis);
* :func:`trail_picture`: a weight on every (square, move) pair drawn on the
  board, each move as a stroke from its square half-way to its destination
  (pheromone pictures, as in Hingston & Kendall's figures).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

__all__ = ["pyplot", "save", "curves", "grouped_bars", "trail_picture"]


def pyplot():
    """matplotlib's pyplot on the ``Agg`` backend (raises ImportError without matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, folder: str, name: str) -> str:
    """Save ``fig`` as ``folder/name.png`` and close it; returns the path."""
    path = os.path.join(folder, f"{name}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    pyplot().close(fig)
    return path


def curves(folder: str, name: str, lines: Sequence[tuple], *, xlabel: str, ylabel: str, title: str,
           published: Sequence[tuple[str, float]] = (), logx: bool = False, logy: bool = False) -> str:
    """Lines ``(label, xs, ys)`` or ``(label, xs, ys, style)``; ``published``: ``(label, y)`` dotted lines."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for line in lines:
        label, xs, ys = line[:3]
        style = line[3] if len(line) > 3 else "-"
        ax.plot(xs, ys, style, label=label)
    for k, (label, y) in enumerate(published):
        ax.axhline(y, color=f"C{k + len(lines)}", lw=0.9, ls=":", label=label)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return save(fig, folder, name)


def grouped_bars(folder: str, name: str, groups: Sequence[str], series: dict[str, Sequence[float]], *,
                 ylabel: str, title: str, marks: dict[str, Sequence[float]] | None = None,
                 logy: bool = False) -> str:
    """One cluster of bars per group, one bar per series; ``marks``: short horizontal ticks per group."""
    import numpy as np

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(groups))
    width = 0.8 / max(len(series), 1)
    for k, (label, values) in enumerate(series.items()):
        ax.bar(x - 0.4 + width * (k + 0.5), values, width, label=label)
    for k, (label, values) in enumerate((marks or {}).items()):
        ax.hlines(values, x - 0.45, x + 0.45, colors="k", linestyles=["-", "--", ":"][k % 3], label=label)
    ax.set_xticks(x)
    ax.set_xticklabels(groups)
    if logy:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return save(fig, folder, name)


def trail_picture(folder: str, name: str, graph, weights, *, title: str, color: str = "tab:red") -> str:
    """Draw ``weights[square, move]`` (shape of ``graph.table``) on the board, scaled to the largest."""
    import numpy as np

    plt = pyplot()
    w_all = np.asarray(weights, dtype=float)
    table = np.asarray(graph.table)
    coords = graph.coords
    board = graph.board
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    legal = table >= 0
    top = float(w_all[legal].max()) if legal.any() else 0.0
    if top > 0:
        for s, j in zip(*np.nonzero(legal)):
            w = w_all[s, j] / top
            if w < 1e-3:
                continue
            (r0, c0), (r1, c1) = coords[s], coords[table[s, j]]
            ax.plot([c0, (c0 + c1) / 2], [r0, (r0 + r1) / 2], color=color, lw=4 * w, alpha=0.3 + 0.7 * w)
    for r, c in board.holes:
        ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, color="0.3"))
    ax.set_xticks(range(board.cols))
    ax.set_yticks(range(board.rows))
    ax.set_xlim(-0.5, board.cols - 0.5)
    ax.set_ylim(board.rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_title(title)
    return save(fig, folder, name)
