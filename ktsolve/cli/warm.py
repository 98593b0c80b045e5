"""``ktsolve warm [METHOD]...``: compile the methods' numba kernels ahead of their first run.

numba and the method modules are imported when the command runs, never to
list the commands (:mod:`ktsolve.jit`).
"""

from __future__ import annotations

import click

from ..exit_codes import ExitCode
from .answers import interruptible, say_interrupted
from .args import CONTEXT

__all__ = ["warm_command"]

#: What ``ktsolve warm`` says of a method, by the state :func:`ktsolve.jit.warm_method` reports.
_WARM_LINES = {
    "compiled": "compiled in {compiled:.2f} s",
    "loaded": "ready (loaded from numba's cache in {seconds:.2f} s)",
    "no kernels": "ready (it runs no numba kernel)",
    # only a user's method (register_method) can get here: every built-in method with kernels has a warm()
    "no warm": "a method without warm(): its kernels compile on its first run",
}


@click.command("warm", context_settings={"help_option_names": CONTEXT["help_option_names"]})
@click.argument("names", nargs=-1, metavar="[METHOD]...")
def warm_command(names):
    """Compile the numba kernels of METHOD (every method by default) ahead of their first run.

    numba compiles a method's kernels the first time it runs and keeps them
    in its cache; this does it now, so that the first real run starts at
    once.  The kernels every run may reach come first (the proofs, the
    validator of long tours, the drawing of random boards), then one line
    per method says what was done.
    """
    from ..jit import SHARED, warm_method, warm_shared
    from ..registry import methods

    reg = methods()
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise click.BadParameter(f"no method {unknown[0]!r}; choose from {', '.join(reg)}", param_hint="METHOD")
    for label, path in SHARED:
        report = interruptible(lambda: warm_shared(path))  # noqa: B023 - called at once
        if report is None:
            return say_interrupted()
        state, compiled, seconds = report
        click.echo(f"{label}: " + _WARM_LINES[state].format(compiled=compiled, seconds=seconds))
    for name in names or list(reg):
        report = interruptible(lambda: warm_method(reg[name].load()))  # noqa: B023 - called at once
        if report is None:
            return say_interrupted()
        state, compiled, seconds = report
        click.echo(f"{name}: " + _WARM_LINES[state].format(compiled=compiled, seconds=seconds))
    return ExitCode.OK
