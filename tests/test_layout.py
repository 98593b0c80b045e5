"""The shape of the code: small modules, a lean start-up, one registry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ktsolve"

#: A module past this many lines is a sign that it may hold more than one idea: the suite says so (a warning),
#: and the module is split where its ideas part, if they do, never at a line count (issue 30).
SIGN_LINES = 700
#: No module grows past this many lines.
MAX_LINES = 1000


def _sizes() -> dict[str, int]:
    return {p.relative_to(PACKAGE).as_posix(): sum(1 for _ in p.open(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}


def test_no_module_above_the_line_limit():
    sizes = _sizes()
    big = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not big, f"modules above {MAX_LINES} lines: {big}"
    long = {name: n for name, n in sizes.items() if n > SIGN_LINES}
    if long:
        import warnings

        warnings.warn(f"modules above {SIGN_LINES} lines (do they hold one idea each?): {long}", stacklevel=1)


SNIPPET = r"""
import json, sys
from ktsolve.cli import main
try:
    main({argv!r})
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "numba": "numba" in sys.modules, "ortools": "ortools" in sys.modules}}))
"""


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["methods"], ["methods", "--format", "json"],
                                  ["solve", "--help"]])
def test_listing_commands_import_neither_numba_nor_ortools(argv):
    out = subprocess.run([sys.executable, "-c", SNIPPET.format(argv=argv)], capture_output=True, text=True,
                         check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"code": 0, "numba": False, "ortools": False}, out.stderr


def test_ortools_is_imported_only_when_cpsat_runs():
    code = ("import sys; from ktsolve import solve; "
            "r = solve('6x6', method='warnsdorff', start='a1', seed=1); assert r.found; "
            "print('ortools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


PROGRAM = "import sys; from ktsolve.cli import console_main; sys.argv = ['ktsolve', *{argv!r}]; console_main()"


@pytest.mark.parametrize("argv, code, out, err", [
    (["solve", "5x5", "--start", "a1"], 0, "25", "found"),
    (["solve", "3x3"], 1, "no tour", "no open tour"),
    (["solve", "9x9x9"], 2, "", "ktsolve: error:"),
])
def test_the_program_ends_with_the_commands_code_and_flushed_output(argv, code, out, err):
    # console_main ends the process with os._exit: nothing printed may be lost
    res = subprocess.run([sys.executable, "-c", PROGRAM.format(argv=argv)], capture_output=True, text=True)
    assert res.returncode == code
    assert out in res.stdout and res.stderr.startswith("ktsolve:") and err in res.stderr
    if code == 2:
        assert res.stdout == "" and len(res.stderr.strip().splitlines()) == 1


def test_public_functions_and_classes_carry_examples():
    """Every public function and class of ktsolve (the exceptions aside) shows a doctest example."""
    import inspect

    import ktsolve

    missing = []
    for name in ktsolve.__all__:
        obj = getattr(ktsolve, name)
        if name.startswith("__") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if inspect.isclass(obj) and issubclass(obj, Exception):
            continue  # the error table of ktsolve.errors documents them together
        if ">>>" not in (inspect.getdoc(obj) or ""):
            missing.append(name)
    assert not missing, f"no Examples in: {missing}"


def test_every_method_shows_an_example():
    import inspect

    from ktsolve.registry import BUILTIN

    missing = [name for name, info in BUILTIN.items() if ">>>" not in (inspect.getdoc(info.load()) or "")]
    assert not missing


def _own_kernels(module) -> list[str]:
    """Names of the numba-jitted functions ``module`` defines itself (not the ones it imports)."""
    from numba.core.dispatcher import Dispatcher

    return sorted(name for name, obj in vars(module).items()
                  if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__)


def test_kernels_live_only_in_underscore_modules():
    """No module whose name does not start with ``_`` defines a numba kernel.

    Kernels live in underscore kernel modules (``heuristics/_rotation_kernels.py``
    beside ``heuristics/rotation.py``); the public module keeps the wrapper and
    the docs, and may import kernels from its kernel module.
    """
    import importlib
    import pkgutil

    import ktsolve

    # the check sees the kernels a module defines, and not the ones it imports
    assert "_run" in _own_kernels(importlib.import_module("ktsolve.heuristics._rotation_kernels"))
    rotation = importlib.import_module("ktsolve.heuristics.rotation")
    assert callable(rotation._run) and _own_kernels(rotation) == []

    names = ["ktsolve"] + [info.name for info in pkgutil.walk_packages(ktsolve.__path__, "ktsolve.")]
    public = [name for name in names if not name.rpartition(".")[2].startswith("_")]
    defining = {}
    for name in public:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional dependency is missing
            continue
        if _own_kernels(module):
            defining[name] = _own_kernels(module)
    assert len(public) > 30
    assert not defining, f"numba kernels outside underscore modules: {defining}"


def test_every_kernel_releases_the_interpreter():
    """Every kernel is compiled with nogil=True (those inlined into their callers aside): the proofs run in a
    lane beside the constructions (ktsolve.race), and a kernel that holds the interpreter stops the other lane
    for its whole call."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    import ktsolve

    holding = []
    for info in pkgutil.walk_packages(ktsolve.__path__, "ktsolve."):
        if not info.name.rsplit(".", 1)[-1].endswith("kernels") and "_splitmix" not in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__:
                options = obj.targetoptions
                if options.get("inline", "never") == "never" and not options.get("nogil"):
                    holding.append(f"{info.name}.{name}")
    assert not holding, holding
