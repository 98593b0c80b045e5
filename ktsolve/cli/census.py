"""``ktsolve census``: settle a whole family of questions with prove, resumably.

:mod:`ktsolve.census` is imported when the command runs, never to list the
commands: it brings the worker pool and, with ``--scheduler``, Dask.
"""

from __future__ import annotations

import os

import click

from ..exit_codes import ExitCode
from ..progress import terminal_progress
from .args import BOARD_CONTEXT, load_board, writable_output

__all__ = ["census_command"]


def _hole_count(text: str | None):
    """--holes of --random: a whole number of holes, or a share of the cells."""
    if text is None:
        raise click.UsageError("--random N needs --holes K, the number of holes of each board")
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a number of holes", param_hint="--holes") from None


@click.command("census", context_settings=BOARD_CONTEXT)
@click.argument("board", metavar="[BOARD]", required=False)
@click.option("--holes", metavar="SQS|K", help="Holes of BOARD (a1,h8 or 7,0;0,7); with --random, the number "
              "of holes of each board (or a share of the cells, like 0.05).")
@click.option("--remove", type=click.IntRange(1), metavar="K", help="Every way to remove K squares of BOARD, "
              "up to the board's symmetries.")
@click.option("--starts", is_flag=True, help="Every start square of BOARD, up to its symmetries.")
@click.option("--from", "from_file", metavar="FILE", help="Questions from a JSON-lines file: one object per line "
              "with board (\"8x8\" or rows, cols, holes), and optionally holes, closed, start, end.")
@click.option("--random", "n_random", type=click.IntRange(1), metavar="N", help="N distinct random boards of "
              "BOARD's size with --holes K holes each (drawn from --seed).")
@click.option("--open", "mode", flag_value="open", default=True, help="Ask for open tours.")
@click.option("--closed", "mode", flag_value="closed", help="Ask for closed tours.")
@click.option("--both", "mode", flag_value="both", help="Ask for open and for closed tours.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), help="Census seed (a fresh one is drawn and recorded "
              "if omitted; a resumed census keeps its own).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=60.0, metavar="S",
              help="Seconds per question; unknown after that.")
@click.option("--workers", type=click.IntRange(1), metavar="N", help="Worker processes (default: the CPUs).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on the Dask cluster of this scheduler "
              "(pip install 'ktsolve[cluster]').")
@click.option("--no-symmetry", is_flag=True, help="Ask about every board, not one per symmetry class.")
@click.option("--retry-unknown", is_flag=True, help="Ask again the questions recorded as unknown.")
@click.option("--batch", type=click.IntRange(1), metavar="N", help="Questions per batch (default: from their cost).")
# not the shared output_option: its help promises '-' and pipes, and a census refuses them (its results are
# read back, locked and appended to, which standard output, a device or a pipe cannot do)
@click.option("-o", "--output", metavar="FILE", callback=writable_output,
              help="Results file, JSON lines; the same command with the same file resumes it. A regular file: "
              "'-' (standard output), devices and pipes are refused, since the results are read back, locked "
              "and appended to.")
@click.option("--summary", "summary_file", metavar="FILE", help="Print the summary of a results file "
              "(and draw it with --plot) instead of running a census.")
@click.option("--plot", metavar="OUT.svg|OUT.png", callback=writable_output,
              help="Draw the census: a map of the board for one-square families (PNG needs matplotlib).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Summary format.")
def census_command(board, holes, remove, starts, from_file, n_random, mode, seed, time_limit, workers, scheduler,
                   no_symmetry, retry_unknown, batch, output, summary_file, plot, fmt):
    """Settle a whole family of boards with prove: every answer with its tour or proof.

    Families: BOARD --remove K, BOARD --starts, --from FILE, BOARD --random N
    --holes K.  Answers go to -o FILE as JSON lines, flushed one by one;
    running the same command again resumes.  Prints the counts by answer and
    by argument.  Exit 0 when every question is settled, 3 when some are
    unknown, 130 when interrupted (the file stays valid), 2 on bad input.
    """
    from ..census import census as run_census
    from ..census import format_summary, read_results, summarize
    from ..census import plot as draw
    from ..census.plot import check_plot_path
    from ..census.summary import summary_json

    if plot:
        check_plot_path(plot, results=summary_file or output)  # a picture never replaces the results
    if summary_file is not None:
        extra = [n for n, v in (("BOARD", board), ("--remove", remove), ("--starts", starts),
                                ("--from", from_file), ("--random", n_random), ("-o", output)) if v]
        if extra:
            raise click.UsageError(f"--summary FILE reads a finished census; drop {', '.join(extra)}")
        if not os.path.exists(summary_file):  # a device or a pipe is refused by read_results, without blocking
            raise click.BadParameter(f"'{summary_file}' does not exist", param_hint="--summary")
        existing = read_results(summary_file)
        if existing is None:
            raise click.BadParameter(f"'{summary_file}' is empty", param_hint="--summary")
        summary = summarize(existing)
    else:
        chosen = [n for n, v in (("--remove", remove), ("--starts", starts), ("--from", from_file),
                                 ("--random", n_random)) if v]
        if len(chosen) != 1:
            raise click.UsageError("give one family: BOARD --remove K, BOARD --starts, --from FILE or "
                                   f"BOARD --random N --holes K{' (not ' + ' and '.join(chosen) + ')' if chosen else ''}")
        if not output:
            raise click.UsageError("give -o FILE for the results (JSON lines; the same command resumes them)")
        if from_file is not None:
            if board is not None or holes is not None:
                raise click.UsageError("--from FILE names its own boards: give no BOARD or --holes")
            b, count = None, None
        elif board is None:
            raise click.UsageError(f"{chosen[0]} needs a BOARD (a size like 8x8, or a board file)")
        elif n_random is not None:
            b, count = load_board(board, None), _hole_count(holes)
        else:
            b, count = load_board(board, holes), None
        closed = {"open": False, "closed": True, "both": "both"}[mode]
        with terminal_progress("ktsolve census") as progress:
            rep = run_census(b, remove=remove, starts=starts, from_file=from_file, random=n_random, holes=count,
                             closed=closed, output=output, seed=seed, time_limit=time_limit, workers=workers,
                             scheduler=scheduler, symmetry=not no_symmetry, retry_unknown=retry_unknown,
                             batch=batch, progress=progress,
                             log=lambda line: click.echo(f"ktsolve: {line}", err=True))
        summary = rep.summary
        if rep.interrupted:
            click.echo(f"ktsolve: interrupted after {rep.answered_now:,} answer{'s' if rep.answered_now != 1 else ''}; "
                       "run the same command again "
                       "to resume", err=True)
        elif rep.answered_now:
            rate = rep.answered_now / rep.wall_s if rep.wall_s > 0 else 0.0
            plural = "s" if rep.answered_now != 1 else ""
            click.echo(f"ktsolve: {rep.answered_now:,} question{plural} answered in {rep.wall_s:.3g} s "
                       f"({rate:,.1f} per second on {rep.workers} worker{'s' if rep.workers > 1 else ''}, "
                       f"busy {100 * rep.busy:.0f}% of the time); results in {output}", err=True)
        else:
            click.echo(f"ktsolve: every question is already answered in {output}", err=True)
    click.echo(summary_json(summary) if fmt == "json" else format_summary(summary), nl=False)
    if plot:
        draw(summary, plot)
        click.echo(f"ktsolve: picture written to {plot}", err=True)
    if summary_file is not None:
        return ExitCode.OK
    return rep.exit_code
