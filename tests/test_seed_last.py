"""``seed`` is the last parameter of every public signature that has one (before ``**kwargs``), as in networkx.

The public callables are those exported by ``ktsolve`` (the callable module
``ktsolve.census`` included), by the modules of ``ktsolve.models`` and
``ktsolve.heuristics`` (their ``__all__``), by ``ktsolve.testing``, and the
function and enumeration function of every registered method.  Result
records (dataclasses such as ``SolveResult``) are left out: their ``seed``
is a recorded value, not an argument that seeds anything.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import pytest

from ktsolve.registry import methods


def _exports(modname: str):
    mod = importlib.import_module(modname)
    for name in getattr(mod, "__all__", ()):
        yield f"{modname}.{name}", getattr(mod, name)


def _submodules(package: str):
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            yield f"{package}.{info.name}"


def _public_callables() -> dict:
    found = {}
    modules = ["ktsolve", "ktsolve.testing", *_submodules("ktsolve.models"), *_submodules("ktsolve.heuristics")]
    for modname in modules:
        for name, obj in _exports(modname):
            if inspect.ismodule(obj):  # ktsolve.census, a callable module: its function
                obj = getattr(obj, obj.__name__.rsplit(".", 1)[-1], None)
                if obj is None:
                    continue
            if not callable(obj) or (inspect.isclass(obj) and dataclasses.is_dataclass(obj)):
                continue
            found[name] = obj
    for name, info in methods().items():
        found[f"method {name}"] = info.load()
        if info.can_enumerate:
            found[f"method {name} (enumerate)"] = info.load_enumerate()
    return found


CALLABLES = _public_callables()


def _parameters(func) -> list[str]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):  # a builtin without a signature
        return []
    return [p.name for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]


def test_the_inspection_sees_the_entry_points():
    names = set(CALLABLES)
    for expected in ("ktsolve.solve", "ktsolve.prove", "ktsolve.longest", "ktsolve.enumerate_tours",
                     "ktsolve.random_holed_board", "ktsolve.census", "method iaco (enumerate)",
                     "ktsolve.heuristics.ga.ga_rate"):
        assert expected in names
    assert sum("seed" in _parameters(f) for f in CALLABLES.values()) >= 25


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_seed_is_the_last_parameter(name):
    params = _parameters(CALLABLES[name])
    if "seed" in params:
        assert params[-1] == "seed", f"{name}{inspect.signature(CALLABLES[name])}"
