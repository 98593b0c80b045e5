"""Benchmark any method, built-in or the user's, against prove's answers.

:func:`bench_methods` runs every method on every board and question with
several seeds, through :func:`ktsolve.solve` (so with the presolve proofs,
the validator and a time limit per run), and compares each answer with the
exact answer of :func:`ktsolve.testing.exact_answer` (prove, cached):

* **success rate**: runs that found a tour, out of the runs on boards where
  prove found one (a board prove refutes cannot be "missed");
* **time to first tour**: the median seconds of the successful runs (each
  method stops at its first tour; presolve included);
* **tours per attempt**: complete tours over attempts, summed over the runs
  of a method that reports them (``stats["attempts"]`` or
  ``stats["walks"]``; tours from ``stats["tours"]`` or
  ``stats["complete"]``, else the one tour found);
* **invalid**: runs whose tour the validator refused (the result is an
  honest ``unknown`` with ``stats["invalid_tour"]``);
* **bugs**: answers that contradict prove: a tour on a board prove refutes,
  or a proof of impossibility where prove found a tour.

Boards given as sizes (``"8x8"``) with ``holes`` get ``draws`` random holed
boards each from :func:`ktsolve.random_holed_board` (colours balanced, every
square with two neighbours, connected), seeded from ``seed``; every method
runs on the same boards with the same seeds, so the comparison is paired.
``ktsolve bench methods`` is the command line of this module.

Examples
--------
>>> rep = bench_methods(["warnsdorff"], ["5x5", "4x4"], seeds=2, seed=1)
>>> [(row[1], row[4], row[5]) for row in rep.table().rows]
[('5x5', 2, 2), ('4x4', 0, 0)]
>>> rep.bugs
0
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import Table

__all__ = ["Run", "MethodsReport", "bench_methods", "import_plugin", "check_plotting", "TOURS"]

#: The questions a bench asks: open tours, closed tours.
TOURS = ("open", "closed")


@dataclass(frozen=True)
class Run:
    """One method on one board, question and seed, beside prove's answer."""

    method: str
    board: str
    board_index: int
    tour: str
    seed: int
    status: str
    truth: str
    seconds: float
    attempts: int | None
    tours: int | None
    invalid: str | None
    bug: str | None
    error: str | None = None  # the exception a user's method raised (or what it returned wrongly)
    holes: tuple = ()  # the board's holes as (row, col) pairs

    def to_dict(self) -> dict:
        out = dict(self.__dict__)
        out["holes"] = [list(h) for h in self.holes]
        return out


@dataclass(frozen=True)
class MethodsReport:
    """Every run of :func:`bench_methods`, and its summary table."""

    runs: tuple[Run, ...]
    settings: dict
    skipped: tuple[str, ...] = ()
    interrupted: bool = False
    groups: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    boards: tuple[dict, ...] = ()  # every board asked: label, draw (from 1), size and holes

    @property
    def bugs(self) -> int:
        """Runs whose answer contradicts prove, whose tour the validator refused, or whose method failed."""
        return sum(1 for r in self.runs if r.bug or r.invalid or r.error)

    def summary(self) -> list[dict]:
        """One entry per method, board and question: the figures of the table."""
        out = []
        for method, board, tour in self.groups:
            runs = [r for r in self.runs if (r.method, r.board, r.tour) == (method, board, tour)]
            exists = [r for r in runs if r.truth == "found"]
            found = [r for r in runs if r.status == "found"]
            counted = [r for r in runs if r.attempts]
            attempts = sum(r.attempts for r in counted)
            out.append({
                "method": method,
                "board": board,
                "tour": tour,
                "runs": len(runs),
                "tour_exists": len(exists),
                "found": len(found),
                "success_rate": len([r for r in exists if r.status == "found"]) / len(exists) if exists else None,
                "median_s_to_first": statistics.median(r.seconds for r in found) if found else None,
                "tours_per_attempt": sum(r.tours or 0 for r in counted) / attempts if attempts else None,
                "refuted": sum(1 for r in runs if r.truth == "infeasible"),
                "unsettled": sum(1 for r in runs if r.truth == "unknown"),
                "errors": sum(1 for r in runs if r.error),
                "invalid": sum(1 for r in runs if r.invalid),
                "bugs": sum(1 for r in runs if r.bug),
            })
        return out

    def table(self) -> Table:
        """The summary as a :class:`~ktsolve.bench.Table`."""
        cols = ["method", "board", "tour", "runs", "tour exists", "found", "success", "median s", "tours/attempt",
                "errors", "invalid", "bugs"]
        rows = []
        for g in self.summary():
            rate = g["success_rate"]
            rows.append([g["method"], g["board"], g["tour"], g["runs"], g["tour_exists"], g["found"],
                         None if rate is None else f"{rate:.0%}", g["median_s_to_first"], g["tours_per_attempt"],
                         g["errors"], g["invalid"], g["bugs"]])
        s = self.settings
        notes = [
            f"{s['seeds']} seeds per board and question from seed {s['seed']}; {s['time_limit']:g} s per run "
            f"(presolve included); ground truth: ktsolve.prove, {s['prove_time_limit']:g} s, seed 0",
            "success: found / runs where prove found a tour; median s: successful runs only; "
            "tours/attempt: tours over attempts (walks, decodes, leaves) of the runs that report them",
            "errors: runs whose method raised, or returned what is neither a tour, a result nor None; "
            "invalid: tours the validator refused; bugs: answers that contradict prove",
        ]
        if s.get("holes"):
            notes.append(f"holes: {s['holes']} per board, {s['draws']} boards per size (random_holed_board, "
                         "each drawn from the seed, its size and its draw number)")
        for b in self.boards:
            if b["holes"]:
                notes.append(f"{b['board']} #{b['draw']}: holes {_square_names(b)}")
        unsettled = sum(1 for r in self.runs if r.truth == "unknown")
        if unsettled:
            notes.append(f"{unsettled} runs on questions prove did not settle in {s['prove_time_limit']:g} s: "
                         "left out of the success rate")
        notes.extend(self.skipped)
        for r in self.runs:
            if r.bug:
                notes.append(f"BUG: {r.method} on {r.board} #{r.board_index + 1} ({r.tour}, seed {r.seed}): {r.bug}")
        errors: dict = {}
        for r in self.runs:
            if r.error:
                errors.setdefault((r.method, r.error), []).append(r)
        for (method, error), runs in errors.items():
            first = runs[0]
            notes.append(f"ERROR: {method} failed in {len(runs)} run{'s' if len(runs) > 1 else ''} (first on "
                         f"{first.board} #{first.board_index + 1}, {first.tour}, seed {first.seed}): {error}")
        if self.interrupted:
            notes.append("interrupted: the table covers the runs finished before Ctrl-C")
        return Table("Methods against prove's answers", cols, rows, notes)

    def to_dict(self) -> dict:
        return {"settings": dict(self.settings), "boards": [dict(b) for b in self.boards],
                "summary": self.summary(), "runs": [r.to_dict() for r in self.runs],
                "skipped": list(self.skipped), "interrupted": self.interrupted, "bugs": self.bugs}

    def plot(self, folder) -> list[str]:
        """Save ``bench_methods.png`` (success rate and median time per board) in ``folder``; the paths."""
        check_plotting()
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np

        os.makedirs(folder, exist_ok=True)
        summary = self.summary()
        methods = list(dict.fromkeys(g["method"] for g in summary))
        cases = list(dict.fromkeys((g["board"], g["tour"]) for g in summary))
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(7, 1.6 * len(cases) + 4), 4))
        width = 0.8 / max(1, len(methods))
        x = np.arange(len(cases))
        for k, m in enumerate(methods):
            by_case = {(g["board"], g["tour"]): g for g in summary if g["method"] == m}
            rate = [by_case.get(c, {}).get("success_rate") for c in cases]
            secs = [by_case.get(c, {}).get("median_s_to_first") for c in cases]
            ax1.bar(x + k * width, [np.nan if v is None else 100 * v for v in rate], width, label=m)
            ax2.bar(x + k * width, [np.nan if v is None else v for v in secs], width, label=m)
        labels = [f"{b}\n{t}" for b, t in cases]
        for ax in (ax1, ax2):
            ax.set_xticks(x + width * (len(methods) - 1) / 2)
            ax.set_xticklabels(labels, fontsize=8)
        ax1.set_ylabel("success rate (%)")
        ax1.set_ylim(0, 105)
        ax2.set_ylabel("median seconds to first tour")
        if any(g["median_s_to_first"] for g in summary):
            ax2.set_yscale("log")
        handles, names = ax1.get_legend_handles_labels()
        fig.legend(handles, names, loc="lower center", ncol=min(len(methods), 6), fontsize=8, frameon=False)
        fig.suptitle(f"{self.settings['seeds']} seeds per board, {self.settings['time_limit']:g} s per run")
        fig.tight_layout(rect=(0, 0.07, 1, 1))
        path = os.path.join(folder, "bench_methods.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return [path]


def check_plotting() -> None:
    """Raise :class:`~ktsolve.errors.UnsupportedError` unless matplotlib can be imported."""
    if importlib.util.find_spec("matplotlib") is None:
        from ..errors import UnsupportedError

        raise UnsupportedError("plots need matplotlib: pip install 'ktsolve[plot]'")


def import_plugin(target: str):
    """Import a module by name, or a ``.py`` file by path (one that calls :func:`ktsolve.register_method`).

    Raises :class:`~ktsolve.errors.UnsupportedError` with one line naming the
    problem when the module cannot be found or fails to import.
    """
    from ..errors import UnsupportedError

    try:
        if target.endswith(".py") or os.sep in target or "/" in target:
            if not os.path.isfile(target):
                raise UnsupportedError(f"no such file {target!r}")
            name = "ktsolve_plugin_" + os.path.splitext(os.path.basename(target))[0]
            spec = importlib.util.spec_from_file_location(name, target)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            return module
        return importlib.import_module(target)
    except UnsupportedError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of the user's module is reported in one line
        raise UnsupportedError(f"cannot import {target!r}: {type(exc).__name__}: {exc}") from None


def _method_name(method) -> str:
    if isinstance(method, str):
        return method
    name = getattr(method, "__name__", "")
    return name if name.isidentifier() else "user_method"


def _square_names(entry: dict) -> str:
    from ..board import Board

    board = Board(entry["rows"], entry["cols"])
    return ", ".join(board.name(r, c) for r, c in entry["holes"])


def _one_line(text, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _load_method(name: str, info):
    """Import a method's function now, so a path that cannot be imported is one error naming the method."""
    from ..errors import UnsupportedError
    from ..registry import load_target

    try:
        func = load_target(info.func)
    except Exception as exc:  # noqa: BLE001 - whatever the user's path does wrong, one line naming it
        raise UnsupportedError(f"method {name!r}: cannot import {info.func!r}: {type(exc).__name__}: "
                               f"{_one_line(exc, 120)}") from None
    if not callable(func):
        raise UnsupportedError(f"method {name!r}: {info.func!r} is not a function")


def _boards(boards, holes, draws: int, closed: bool, seed: int):
    """(label, [Board, ...]) for every board argument: sizes get ``draws`` holed boards when ``holes``.

    Draw ``d`` of a size ``RxC`` is seeded by ``derive_seed(seed, "bench
    board RxC", d)``: the boards of a size depend on the seed, the size and
    the draw only, never on the other sizes listed, so a bench can be
    repeated board by board.
    """
    from ..board import Board
    from ..generate import random_holed_board
    from ..request import as_board
    from ..seeds import derive_seed

    out = []
    for spec in boards:
        if isinstance(spec, Board):
            label = f"{spec.rows}x{spec.cols}" + (f" - {spec.n_holes} holes" if spec.n_holes else "")
            out.append((label, [spec]))
            continue
        board = as_board(spec)
        if not holes:
            out.append((board.spec(), [board]))
            continue
        stream = f"bench board {board.rows}x{board.cols}"
        drawn = [random_holed_board(board.rows, board.cols, holes, closed=closed, seed=derive_seed(seed, stream, d))
                 for d in range(draws)]
        out.append((f"{board.spec()} - {drawn[0].n_holes} holes", drawn))
    return out


def _attempts(stats) -> int | None:
    for key in ("attempts", "walks"):
        if isinstance(stats.get(key), (int,)) and not isinstance(stats.get(key), bool):
            return int(stats[key])
    return None


def _tours(stats, found: bool) -> int:
    for key in ("tours", "complete"):
        if isinstance(stats.get(key), int) and not isinstance(stats.get(key), bool):
            return int(stats[key])
    return 1 if found else 0


def bench_methods(
    methods: Sequence,
    boards: Sequence,
    *,
    holes: int | float = 0,
    draws: int | None = None,
    tours: Sequence[str] = ("open",),
    seeds: int = 5,
    seed: int = 1,
    time_limit: float = 5.0,
    prove_time_limit: float = 60.0,
    params: dict | None = None,
    progress: Callable | None = None,
) -> MethodsReport:
    """Run ``methods`` on ``boards`` for each question and seed; compare with prove.

    Parameters
    ----------
    methods : sequence of str or callable
        Registered method names (built-in or :func:`ktsolve.register_method`),
        or functions with the method signature.
    boards : sequence of str or Board
        Sizes such as ``"8x8"`` or boards.
    holes : int or float
        Holes of the boards drawn for each size (a count, or a share of the
        cells); 0 keeps the sizes full.
    draws : int, optional
        Holed boards per size (default 3 when ``holes``, else 1).
    tours : sequence of {"open", "closed"}
        The questions.
    seeds : int
        Runs per method, board and question; their seeds derive from
        ``seed`` and are the same for every method.
    seed : int
        Seed of the board draws and of the run seeds.
    time_limit : float
        Seconds per run.
    prove_time_limit : float
        Seconds for prove's answer on each board and question (cached).
    params : dict, optional
        ``params[method_name]`` are the method parameters of that method.
    progress : callable, optional
        ``progress(done, total)`` after each proof and each run.

    Returns
    -------
    MethodsReport
        The runs, ``.table()``, ``.summary()``, ``.to_dict()`` and ``.plot(folder)``.
    """
    from ..checks import check_int, check_seed, check_time_limit
    from ..errors import InvalidParameterError, KtsolveError, UnsupportedError
    from ..registry import method_info
    from ..request import check_supported, make_spec
    from ..result import Status
    from ..seeds import derive_seeds
    from ..solve import user_method, solve
    from ..testing import exact_answer

    if not methods:
        raise InvalidParameterError("give at least one method")
    if not boards:
        raise InvalidParameterError("give at least one board")
    for t in tours:
        if t not in TOURS:
            raise InvalidParameterError(f"tours must be among {', '.join(TOURS)}, not {t!r}")
    seeds = check_int("seeds", seeds, 1, 1_000_000)
    seed = check_seed(seed)
    time_limit = check_time_limit(time_limit)
    prove_time_limit = check_time_limit(prove_time_limit)
    draws = check_int("draws", 3 if draws is None and holes else 1 if draws is None else draws, 1, 10_000)
    params = dict(params or {})
    infos = [(_method_name(m), method_info(m) if isinstance(m, str) else user_method(m)) for m in methods]
    for name, info in infos:
        _load_method(name, info)
    closed_draw = "closed" in tours
    board_sets = _boards(boards, holes, draws, closed_draw, seed)
    run_seeds = [int(s) for s in derive_seeds(seed, "bench methods", 0, seeds)]

    jobs, groups, skipped = [], [], []
    for label, bs in board_sets:
        for tour in tours:
            for name, info in infos:
                spec = make_spec(bs[0], closed=tour == "closed")
                try:
                    check_supported(info, bs[0], spec)
                except UnsupportedError as exc:
                    skipped.append(f"skipped {name} on {label} ({tour}): {exc}")
                    continue
                groups.append((name, label, tour))
                for i, b in enumerate(bs):
                    jobs.extend((name, label, i, b, tour, s) for s in run_seeds)
    questions = list(dict.fromkeys((id(b), tour) for _, _, _, b, tour, _ in jobs))
    total = len(questions) + len(jobs)
    done = 0
    truths = {}
    by_id = {id(b): b for _, _, _, b, _, _ in jobs}
    for bid, tour in questions:
        ans = exact_answer(by_id[bid], closed=tour == "closed", time_limit=prove_time_limit)
        truths[(bid, tour)] = ans.status.value
        done += 1
        if progress is not None:
            progress(done, total)
    runs, interrupted = [], False
    methods_by_name = dict(zip((n for n, _ in infos), methods, strict=True))
    for name, label, i, b, tour, s in jobs:
        truth = truths[(id(b), tour)]
        try:
            res = solve(b, methods_by_name[name], closed=tour == "closed", seed=s, time_limit=time_limit,
                        **params.get(name, {}))
        except KtsolveError as exc:  # bad input (a parameter, a question): the bench cannot go on
            raise type(exc)(f"method {name!r} on {label}: {exc}") from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a user's method that fails (or calls sys.exit)
            # is a failed run, recorded; KeyboardInterrupt still ends the bench
            runs.append(Run(name, label, i, tour, s, "unknown", truth, 0.0, None, None, None, None,
                            _one_line(f"{type(exc).__name__}: {exc}"), b.holes))
            done += 1
            if progress is not None:
                progress(done, total)
            continue
        bug = None
        if res.status is Status.FOUND and truth == "infeasible":
            bug = "found a valid tour where prove proved none exists (a bug of prove)"
        elif res.status is Status.INFEASIBLE and truth == "found":
            bug = f"said no tour exists ({res.proof}), but prove found one"
        stats = res.stats
        runs.append(Run(name, label, i, tour, s, res.status.value, truth, float(res.elapsed),
                        _attempts(stats), _tours(stats, res.found), stats.get("invalid_tour"), bug, None, b.holes))
        done += 1
        if progress is not None:
            progress(done, total)
        if stats.get("interrupted"):
            interrupted = True
            break
    settings = {"methods": [n for n, _ in infos], "boards": [label for label, _ in board_sets], "holes": holes,
                "draws": draws, "tours": list(tours), "seeds": seeds, "seed": seed, "time_limit": time_limit,
                "prove_time_limit": prove_time_limit}
    drawn = tuple({"board": label, "draw": d + 1, "rows": b.rows, "cols": b.cols,
                   "holes": [list(h) for h in b.holes]} for label, bs in board_sets for d, b in enumerate(bs))
    return MethodsReport(tuple(runs), settings, tuple(skipped), interrupted, tuple(groups), drawn)
