"""``ktsolve prove BOARD``: settle the question, with a tour or a proof that none exists."""

from __future__ import annotations

import click

from ..progress import terminal_progress
from ..result import Status
from ..solve import prove as prove_board
from ..output import is_stdout
from .answers import (
    check_output,
    deliver,
    emit,
    interruptible,
    nothing_written,
    numbers_option,
    report,
    say_interrupted,
)
from .args import (
    BOARD_CONTEXT,
    SEED,
    TIME_LIMIT,
    BoardCommand,
    board_options,
    format_option,
    load_question,
    output_format,
    output_option,
    user_clock,
)

__all__ = ["prove_command"]

FORMATS = ("text", "json", "svg", "html", "npy")


@click.command("prove", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--seed", type=SEED, help="Seed of the heuristic attempt and of CP-SAT.")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before answering unknown.")
@format_option(FORMATS, "Output format; for a \"no\" written to a file, json is the versioned certificate that "
               "verify checks (npy holds a tour only: a proof is written as text, json or a picture).")
@numbers_option
@output_option("Write the answer here instead of stdout: a tour, or a proof (a certificate in json, gzipped "
               "when the name ends in .gz); nothing when it is unknown.")
def prove_command(board, holes, closed, start, end, seed, time_limit, fmt, numbers, output):
    """Settle whether BOARD has the tour asked for: a tour, or a proof that none exists.

    Runs the quick proofs, the matching proof, a short heuristic attempt and
    then CP-SAT, and says on stderr which step settled it.  With -o
    FILE.json a "no" is written as a versioned certificate file, which
    `ktsolve verify BOARD FILE` checks (exit 0 when it proves that no tour
    exists).
    """
    fmt = output_format(fmt, output, FORMATS)
    b, start, end = load_question(board, holes, start, end)
    check_output(b, fmt, output, numbers, proofs=True)
    with terminal_progress("ktsolve prove") as progress:
        res = interruptible(lambda: prove_board(b, closed=closed, start=start, end=end, time_limit=user_clock(time_limit),
                                                seed=seed, progress=progress))
    if res is None:
        return say_interrupted()
    if res.status is Status.INFEASIBLE and fmt == "json" and not is_stdout(output):
        from ..certificates import certificate_json

        emit(certificate_json(res), output)
        why = None
    else:
        why = deliver(res, fmt, output, definite=(Status.FOUND, Status.INFEASIBLE), numbers=numbers)
    report(res)
    if res.status is Status.INFEASIBLE and res.proof.evidence.get("certified") is False:
        click.echo(f"ktsolve: no (not certified): {res.proof.evidence.get('not_certified', 'no certificate')}",
                   err=True)
    settled = res.stats.get("settled_by", "none")
    if settled != "none":
        click.echo(f"ktsolve: settled by {settled}", err=True)
    else:
        reason = res.stats.get("reason")
        click.echo(f"ktsolve: no step settled it{': ' + reason if reason else ''}", err=True)
    if why:
        nothing_written(output, why)
    return res.exit_code
