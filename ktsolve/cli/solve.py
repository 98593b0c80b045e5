"""``ktsolve solve BOARD``: find a knight's tour with a method of the registry, or ``auto``."""

from __future__ import annotations

import click

from ..progress import terminal_progress
from ..solve import solve as solve_board
from .answers import check_output, deliver, interruptible, nothing_written, numbers_option, report, say_interrupted
from .args import (
    BOARD_CONTEXT,
    SEED,
    TIME_LIMIT,
    BoardCommand,
    MethodChoice,
    board_options,
    format_option,
    load_question,
    output_format,
    output_option,
    parse_params,
    user_clock,
)

__all__ = ["solve_command"]

FORMATS = ("text", "json", "svg", "html", "npy")


def _check_params(method: str, kw: dict, board) -> None:
    """The method's table checks ``-p`` before any work; a refusal points at ``ktsolve methods NAME``."""
    from ..errors import InvalidParameterError
    from ..registry import method_info
    from ..request import check_params

    try:
        check_params(method_info(method), kw, n=board.n_squares)
    except InvalidParameterError as exc:
        raise click.BadParameter(f"{exc}; 'ktsolve methods {method}' lists them", param_hint="--param") from None


@click.command("solve", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--method", "-m", type=MethodChoice(), default="auto", help="Method to use.")
@click.option("--seed", type=SEED, help="Seed (a fresh one is drawn and reported if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before answering unknown.")
@format_option(
    FORMATS,
    "Output format. text: Euler's matrix of step numbers (streamed row by row); json: one object "
    "(tours of at most 1,000,000 squares); svg: a picture; html: a page with the picture, the summary and "
    "the stats; npy: a numpy .npy int32 array of square "
    "numbers in visiting order, the squares that are not holes numbered row by row from the top-left "
    "square (needs -o FILE or a redirected stdout; nothing is written when no tour is found).",
)
@numbers_option
@output_option("Write the tour here instead of stdout; only a tour is written (nothing when none is found).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE",
              help="Method parameter (repeatable); 'ktsolve methods NAME' lists a method's parameters with their "
              "defaults and ranges.")
def solve_command(board, holes, closed, start, end, method, seed, time_limit, fmt, numbers, output, params):
    """Find a knight's tour of BOARD (a size like 8x8, or a board file)."""
    fmt = output_format(fmt, output, FORMATS)
    b, start, end = load_question(board, holes, start, end)
    kw = parse_params(params, solve_board)
    if kw and method != "auto":
        _check_params(method, kw, b)
    check_output(b, fmt, output, numbers)
    with terminal_progress(f"ktsolve {method}") as progress:
        res = interruptible(lambda: solve_board(
            b, method, closed=closed, start=start, end=end, seed=seed, time_limit=user_clock(time_limit), progress=progress, **kw
        ))
    if res is None:
        return say_interrupted()
    why = deliver(res, fmt, output, numbers=numbers)
    report(res)
    if why:
        nothing_written(output, why)
    return res.exit_code
