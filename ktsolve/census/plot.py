"""Pictures of a census: SVG written directly, PNG through matplotlib (``ktsolve[plot]``).

What is drawn depends on the family:

* one square per question (``remove`` of one square, ``starts``): a map of
  the board for each mode, every square coloured by the answer of the board
  without it (or of the tour from it): green a tour, a colour per proof
  argument, grey unknown, white not asked yet; a letter in each square says
  the same for black-and-white prints, the base board's holes are dark.
  Squares that are images of a question under the board's symmetries get
  its answer;
* two squares removed: for every knight distance and colour relation of the
  two removed squares, a bar split into the share of boards with a tour,
  without one, and unknown, with the number of boards under it;
* any other family: bars of the counts by settling argument.

A picture is a list of rectangles and texts laid out once
(:func:`scene`), then written as SVG or drawn with matplotlib, so both
formats show the same thing.
"""

from __future__ import annotations

import os
import stat
from html import escape

from ..errors import InvalidParameterError, UnsupportedError
from .family import orbit_members
from .summary import STATUSES, Summary, category

__all__ = ["plot", "scene", "svg_text", "colour_of", "letter_of", "PLOT_FORMATS"]

PLOT_FORMATS = (".svg", ".png")

_FOUND = "#3a9d5d"
_ARGUMENT_COLOURS = {
    "colour parity": "#d9544f",
    "degree": "#ee8a3c",
    "connectivity": "#a05cc0",
    "cut square": "#8c564b",
    "matching": "#4a7fd9",
    "forced moves": "#e377c2",
    "exhaustive search": "#23477f",
    "cpsat": "#1fa5b5",
    "theorem": "#c5a02b",
}
_OTHER_PROOF = "#9e5b74"
_UNKNOWN = "#bdbdbd"
_NOT_ASKED = "#ffffff"
_HOLE = "#3b3b3b"
_LETTERS = {"colour parity": "P", "degree": "D", "connectivity": "C", "cut square": "X", "matching": "M",
            "exhaustive search": "S", "cpsat": "Z", "theorem": "H",
            # the cut proofs: not T (a tour), so their own letters
            "toughness": "K", "two-square cut": "W", "region colours": "R", "forced moves": "F"}
_STATUS_COLOURS = {"found": _FOUND, "infeasible": "#d9544f", "unknown": _UNKNOWN}


def colour_of(status: str, cat: str) -> str:
    """Fill colour of a square whose answer is ``status`` settled by ``cat``."""
    if status == "found":
        return _FOUND
    if status == "infeasible":
        return _ARGUMENT_COLOURS.get(cat, _OTHER_PROOF)
    return _UNKNOWN


def letter_of(status: str, cat: str) -> str:
    """The letter written in a square: T a tour, ? unknown, else the proof's initial (P parity ...)."""
    if status == "found":
        return "T"
    if status == "infeasible":
        return _LETTERS.get(cat, (cat[:1] or "N").upper())
    return "?"


# ---------------------------------------------------------------------- layout
def _rect(x, y, w, h, fill, title=None, stroke="#666666"):
    return ("rect", x, y, w, h, fill, title, stroke)


def _text(x, y, s, size=12, anchor="start", fill="#222222", weight="normal"):
    return ("text", x, y, s, size, anchor, fill, weight)


def _square_of(summary: Summary, rec: dict):
    base = summary.base
    if summary.kind == "starts":
        return tuple(rec["start"]) if rec.get("start") else None
    own = set(base.holes)
    removed = [tuple(h) for h in rec["board"]["holes"] if tuple(h) not in own]
    return removed[0] if len(removed) == 1 else None


def _map_scene(summary: Summary) -> tuple[list, float, float]:
    base = summary.base
    symmetry = bool(summary.header.get("identity", {}).get("family", {}).get("symmetry", False))
    cell = max(14, min(36, 480 // max(base.rows, base.cols)))
    gap, top, left = 36, 52, 30
    panel_w = base.cols * cell
    items = []
    legend: dict = {}
    width = left + len(summary.modes) * (panel_w + gap)
    items.append(_text(left, 22, summary.header.get("description", "census"), 15, weight="bold"))
    for p, mode in enumerate(summary.modes):
        x0 = left + p * (panel_w + gap)
        items.append(_text(x0, top - 10, f"{mode} tour", 13))
        for r in range(base.rows):
            items.append(_text(x0 - 4, top + r * cell + cell * 0.62, str(base.rows - r), 9, "end", "#555555"))
        for c in range(base.cols):
            items.append(_text(x0 + c * cell + cell / 2, top + base.rows * cell + 11, base.name(0, c).rstrip("0123456789"),
                               9, "middle", "#555555"))
        colours = {}
        for rec in summary.records.values():
            if ("closed" if rec.get("closed") else "open") != mode:
                continue
            sq = _square_of(summary, rec)
            if sq is None:
                continue
            cat = category(rec)
            members = orbit_members(base, [sq[0] * base.cols + sq[1]], symmetry=symmetry)
            for (flat,) in members:
                colours[divmod(flat, base.cols)] = (rec["status"], cat)
            entry = legend.setdefault((rec["status"], cat), {})
            got = entry.setdefault(mode, [0, 0])
            got[0] += 1
            got[1] += len(members)
        for r in range(base.rows):
            for c in range(base.cols):
                x, y = x0 + c * cell, top + r * cell
                name = base.name(r, c)
                if base.is_hole(r, c):
                    items.append(_rect(x, y, cell, cell, _HOLE, f"{name}: a hole of the board"))
                    continue
                got = colours.get((r, c))
                if got is None:
                    items.append(_rect(x, y, cell, cell, _NOT_ASKED, f"{name}: not asked yet"))
                    continue
                status, cat = got
                items.append(_rect(x, y, cell, cell, colour_of(status, cat), f"{name}: {status}, {cat}"))
                if cell >= 16:
                    items.append(_text(x + cell / 2, y + cell * 0.66, letter_of(status, cat), int(cell * 0.42),
                                       "middle", "#ffffff" if status != "unknown" else "#333333", "bold"))
    y = top + base.rows * cell + 34
    unit = "boards" if summary.kind == "remove" else "start squares"
    order = {s: i for i, s in enumerate(STATUSES)}
    longest = 0
    for (status, cat), per_mode in sorted(legend.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
        items.append(_rect(left, y - 12, 16, 16, colour_of(status, cat)))
        items.append(_text(left + 8, y + 1, letter_of(status, cat), 11, "middle",
                           "#ffffff" if status != "unknown" else "#333333", "bold"))
        parts = []
        for mode in summary.modes:
            q, b = per_mode.get(mode, (0, 0))
            if not q:
                continue
            count = (f"{b} {unit} ({q} question{'s' if q != 1 else ''})" if symmetry else f"{b} {unit}")
            parts.append(f"{mode} {count}" if len(summary.modes) > 1 else count)
        text = f"{status}: {cat}: {'; '.join(parts)}"
        longest = max(longest, len(text))
        items.append(_text(left + 24, y, text, 12))
        y += 22
    note = "white: not asked yet; dark: a hole of the board" + ("; symmetric squares share an answer"
                                                                 if symmetry else "")
    items.append(_text(left, y + 4, note, 11, fill="#555555"))
    width = max(width, left + 24 + 6.8 * longest, left + 6.2 * len(note))
    return items, max(width, 460), y + 20


def _bars_scene(summary: Summary) -> tuple[list, float, float]:
    """Bars of found / infeasible / unknown shares for each group (pairs) or counts by argument."""
    items = [_text(24, 22, summary.header.get("description", "census"), 15, weight="bold")]
    top, left = 60, 24
    bar_h, gap = 150, 60
    legend: set = set()
    if summary.pairs:
        groups = {m: sorted(summary.pairs.get(m, {}).items(),
                            key=lambda kv: (kv[0][0] if kv[0][0] is not None else 10**9, kv[0][1]))
                  for m in summary.modes}
        width_per = 46
        widest = max((len(g) for g in groups.values()), default=1)
        width = max(left + widest * width_per + 40, 700)
        y = top
        order = {s: i for i, s in enumerate(STATUSES)}
        for mode in summary.modes:
            items.append(_text(left, y - 12, f"{mode} tours: share of boards by the knight distance d "
                               "between the two removed squares", 13))
            for i, ((d, col), counts) in enumerate(groups[mode]):
                total = sum(counts.get(s, 0) for s in STATUSES) or 1
                x = left + i * width_per
                yy = y
                for key, n in sorted(counts.get("by", {}).items(),
                                     key=lambda kv: (order.get(kv[0].split(":")[0], 9), kv[0])):
                    status, cat = key.split(": ", 1)
                    legend.add((status, cat))
                    h = bar_h * n / total
                    items.append(_rect(x, yy, width_per - 8, h, colour_of(status, cat), f"d={d} {col}: {n} {key}"))
                    yy += h
                label = "-" if d is None else str(d)
                items.append(_text(x + (width_per - 8) / 2, y + bar_h + 14, f"d={label}", 10, "middle"))
                items.append(_text(x + (width_per - 8) / 2, y + bar_h + 26, col[:4], 10, "middle"))
                items.append(_text(x + (width_per - 8) / 2, y + bar_h + 38, f"{total:,}", 10, "middle", "#555555"))
            y += bar_h + gap + 10
        items.append(_text(left, y - 14, "under each bar: the colours of the two squares (same or opposite) "
                           "and its number of boards", 11, fill="#555555"))
        y += 10
    else:
        rows = [(m, key, v) for m in summary.modes for key, v in summary.table[m].items()]
        most = max((v[1] for _, _, v in rows), default=1) or 1
        width = 720
        unit = "boards, every symmetric copy counted" if summary.reduced else "questions"
        items.append(_text(left, top - 20, f"number of {unit}, by answer and by what settled it", 12,
                           fill="#555555"))
        y = top + 6
        for mode, (status, cat), (q, b) in rows:
            legend.add((status, cat))
            w = 380 * b / most
            items.append(_rect(left + 260, y - 12, max(w, 1), 16, colour_of(status, cat)))
            items.append(_text(left, y, f"{mode}: {status}, {cat}", 12))
            items.append(_text(left + 268 + w, y, f"{b:,}", 11, fill="#555555"))
            y += 24
    y += 4
    order = {s: i for i, s in enumerate(STATUSES)}
    for status, cat in sorted(legend, key=lambda k: (order.get(k[0], 9), k[1])):
        items.append(_rect(left, y - 12, 16, 16, colour_of(status, cat)))
        items.append(_text(left + 8, y + 1, letter_of(status, cat), 11, "middle",
                           "#ffffff" if status != "unknown" else "#333333", "bold"))
        items.append(_text(left + 24, y, f"{status}: {cat}", 12))
        y += 22
    return items, width, y + 10


def scene(summary: Summary) -> tuple[list, float, float]:
    """The picture of ``summary`` as primitives, with its width and height in pixels."""
    single = (summary.kind == "starts" or (summary.kind == "remove" and summary.remove == 1))
    if single and summary.base is not None:
        return _map_scene(summary)
    return _bars_scene(summary)


# ---------------------------------------------------------------------- back ends
def svg_text(items: list, width: float, height: float) -> str:
    """The primitives as an SVG document (no library needed)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>']
    for it in items:
        if it[0] == "rect":
            _, x, y, w, h, fill, title, stroke = it
            body = f"<title>{escape(title)}</title>" if title else ""
            out.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="0.5">{body}</rect>')
        else:
            _, x, y, s, size, anchor, fill, weight = it
            out.append(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
                       f'font-weight="{weight}">{escape(str(s))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _png(items: list, width: float, height: float, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError:
        raise UnsupportedError("PNG pictures need matplotlib: pip install 'ktsolve[plot]' (or write .svg)") from None
    dpi = 100
    fig = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    for it in items:
        if it[0] == "rect":
            _, x, y, w, h, fill, _, stroke = it
            ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=stroke, linewidth=0.4))
        else:
            _, x, y, s, size, anchor, fill, weight = it
            ha = {"start": "left", "middle": "center", "end": "right"}[anchor]
            ax.text(x, y, str(s), fontsize=size * 0.75, ha=ha, va="baseline", color=fill, fontweight=weight)
    from ..files import open_atomic

    with open_atomic(path) as fh:
        fig.savefig(fh, format="png", dpi=dpi)
    plt.close(fig)


def _same_file(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` name one file: the same inode when both exist, else the same real path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _holds_census(path: str) -> bool:
    """Whether ``path`` (links followed) is a census results file: its first bytes are a census header."""
    from .store import HEADER_KEY

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 64)
    finally:
        os.close(fd)
    return head.lstrip().startswith(b'{"' + HEADER_KEY.encode() + b'"')


def check_plot_path(path, *, results=None) -> str:
    """``path`` if its extension is one we can draw and it is not the census's results (checked before work).

    ``results`` is the results file the census writes or reads: a picture
    written there (the same name, or a link to it) would replace the
    results, so it is refused, as is any file that already holds census
    results.
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in PLOT_FORMATS:
        raise InvalidParameterError(f"a picture is written as .svg or .png, not {ext or 'a file without extension'!r}")
    if ext == ".png":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UnsupportedError("PNG pictures need matplotlib: pip install 'ktsolve[plot]' (or write .svg)") from None
    path = os.fspath(path)
    if results is not None and _same_file(path, os.fspath(results)):
        raise InvalidParameterError(f"the picture {path!r} is the results file {os.fspath(results)!r}; "
                                    "give the picture another name")
    if _holds_census(path):
        raise InvalidParameterError(f"{path!r} holds census results; give the picture another name")
    return path


def plot(summary: Summary, path) -> str:
    """Draw ``summary`` to ``path`` (``.svg`` or ``.png``); returns the path."""
    from ..files import write_atomic

    path = check_plot_path(path)
    items, width, height = scene(summary)
    if path.lower().endswith(".svg"):
        write_atomic(path, svg_text(items, width, height))
    else:
        _png(items, width, height, path)
    return path
