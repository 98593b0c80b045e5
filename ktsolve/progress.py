"""A progress bar for long work: drawn on a terminal, silent when output is piped.

Methods report progress by calling ``progress(done, total)``, or
``progress(done, total, note)`` to show a short note beside the bar (the
frontier count shows its number of states); this module turns those
calls into a tqdm bar on standard error.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from .checks import check_flag

__all__ = ["terminal_progress"]


@contextmanager
def terminal_progress(desc: str, *, enabled: bool | None = None, stream=None):
    """Yield a ``progress(done, total, note=None)`` callable, or None when not on a terminal.

    Parameters
    ----------
    desc : str
        Label shown before the bar.
    enabled : bool, optional
        Force the bar on or off; by default it is on when ``stream`` is a terminal.
    stream : file, optional
        Where to draw; standard error by default.
    """
    stream = sys.stderr if stream is None else stream
    if enabled is not None:
        enabled = check_flag("enabled", enabled)
    if enabled is None:
        enabled = hasattr(stream, "isatty") and stream.isatty()
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    bar = None

    def progress(done, total, note=None):
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=desc, file=stream, leave=False, dynamic_ncols=True)
        if total != bar.total:
            bar.total = total
        if note is not None:
            bar.set_postfix_str(note, refresh=False)
        step = min(done, total) - bar.n
        if step > 0:
            bar.update(step)  # tqdm redraws at most every mininterval seconds

    try:
        yield progress
    finally:
        if bar is not None:
            bar.close()
