"""Numba's on-disk cache cannot go stale: a jitted function depends only on its own file.

Numba (``cache=True``) reuses a compiled function while the source file that
defines it is unchanged (its index stores that file's time stamp and size).
It does not look at other files: a jitted function that calls a jitted
function of another file, or reads a global value imported from another
file (compiled in as a constant), keeps the old code or value after that
other file is edited.  This test inspects every jitted function of ktsolve
and fails on either kind of reference, so every such dependency stays
inside one file, where an edit invalidates the cache of all of them.

The check reads the global names each function's bytecode loads (nested
code objects included) and resolves them in the function's globals:

* a numba dispatcher must be defined in the same source file, or in one of
  the pinned shared files (the generator ``ktsolve._splitmix`` and the grid
  helpers ``ktsolve._grid_kernels``), whose sources are pinned below so
  that an edit to them fails here instead of leaving stale caches;
* a module may be a library (numpy, math), but not a ktsolve module (a
  ``K.walk`` call through a module alias is a call into another file);
* any other value must be assigned at the top level of the same file, or be
  a value of a pinned shared file (the grid helpers' move table and slot
  values).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import pkgutil
import types
from functools import lru_cache

import pytest
from numba.core.dispatcher import Dispatcher

import ktsolve
from ktsolve import _grid_kernels, _splitmix

#: sha256 of ``ktsolve/_splitmix.py``.  Every kernel that calls it has the
#: generator compiled in, and numba's cache of those kernels does not notice
#: an edit to this file.  Changing the generator changes every seeded answer:
#: when that is meant, update the known answers in ``tests/naive_splitmix.py``,
#: this hash, and delete the ``__pycache__`` folders (or touch every kernel file).
SPLITMIX_SHA256 = "fd381f98c2d17b5f82f76c1d22338fffb88b78b9507801efdff43bc0fc907d30"
#: sha256 of ``ktsolve/_grid_kernels.py``, the knight's moves and the link helpers of every grid kernel
#: (the restoration, the 2-factor search, splice's exchanges, the local proofs, the random boards, the
#: cleaning), and the move-table check of the genetic algorithm's and the rotations' kernels: inlined into their
#: callers, its tables compiled in.  When an edit is meant, run those kernels' tests against their
#: naive references, update this hash, and delete the ``__pycache__`` folders (or touch every kernel file).
GRID_SHA256 = "a37828db047ed1abb1e42b1da2d5a43514e3151c906963e97097f3524c7e95e2"

#: The kernel modules other kernel files may call, each with its pinned source hash.
PINNED = {_splitmix: SPLITMIX_SHA256, _grid_kernels: GRID_SHA256}
SHARED = {inspect.getsourcefile(mod): mod for mod in PINNED}


def _modules():
    names = ["ktsolve"]
    for info in pkgutil.walk_packages(ktsolve.__path__, "ktsolve."):
        names.append(info.name)
    out = []
    for name in names:
        try:
            out.append(importlib.import_module(name))
        except ImportError:  # an optional dependency is missing: its kernels cannot run either
            continue
    return out


def _jitted():
    found = {}
    for mod in _modules():
        for obj in vars(mod).values():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == mod.__name__:
                found[f"{mod.__name__}.{obj.py_func.__name__}"] = obj
    return found


JITTED = _jitted()


@lru_cache(maxsize=None)
def _top_level_names(path: str) -> frozenset:
    """Names a file binds at its top level by assignment or definition (not by import)."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
    return frozenset(names)


def _global_names(code: types.CodeType) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def foreign_references(func) -> list[str]:
    """What a jitted function reads from outside its own file (empty when its cache is safe)."""
    py = func.py_func
    own = inspect.getsourcefile(py)
    bad = []
    for name in sorted(_global_names(py.__code__)):
        if name not in py.__globals__:
            continue  # an attribute name, or a builtin
        obj = py.__globals__[name]
        if isinstance(obj, Dispatcher):
            if inspect.getsourcefile(obj.py_func) not in (own, *SHARED):
                bad.append(f"calls {name} of {inspect.getsourcefile(obj.py_func)}")
        elif isinstance(obj, types.ModuleType):
            if obj.__name__.split(".")[0] == "ktsolve" and getattr(obj, "__file__", None) != own:
                bad.append(f"uses module {obj.__name__}")
        elif callable(obj) and getattr(obj, "__module__", "") and not obj.__module__.startswith("ktsolve"):
            continue  # a library function numba compiles (np.empty, math.log, ...)
        elif name not in _top_level_names(own) and not _pinned_value(name, obj):
            bad.append(f"reads {name}, which is not defined in its own file")
    return bad


def _pinned_value(name: str, obj) -> bool:
    """Whether ``obj`` is the value a pinned shared file binds to ``name`` at its top level."""
    return any(name in _top_level_names(path) and getattr(mod, name, None) is obj for path, mod in SHARED.items())


@pytest.mark.parametrize("module", list(PINNED), ids=lambda mod: mod.__name__)
def test_the_pinned_shared_files_are_unchanged(module):
    with open(inspect.getsourcefile(module), "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    assert digest == PINNED[module], (
        f"{module.__name__} changed: kernels that call it keep stale numba caches; "
        "see PINNED in this file"
    )


def test_the_grid_move_table_is_the_graphs():
    from ktsolve.graph import KNIGHT_MOVES

    assert [tuple(m) for m in KNIGHT_MOVES.tolist()] == list(_grid_kernels.MOVES)
    assert _grid_kernels.DR.tolist() == KNIGHT_MOVES[:, 0].tolist()
    assert _grid_kernels.DC.tolist() == KNIGHT_MOVES[:, 1].tolist()
    assert all(_grid_kernels.MOVES[j ^ 4] == (-dr, -dc) for j, (dr, dc) in enumerate(_grid_kernels.MOVES))


def test_there_are_kernels_to_check():
    assert any(name.startswith("ktsolve.heuristics._colony_kernels.") for name in JITTED)
    assert len(JITTED) > 20


@pytest.mark.parametrize("name", sorted(JITTED))
def test_jitted_function_depends_only_on_its_file(name):
    assert foreign_references(JITTED[name]) == []


def test_the_check_catches_a_call_into_another_file(tmp_path, monkeypatch):
    """A kernel that calls a kernel of another file is caught; the same call within one file is not."""
    (tmp_path / "ktsolve_probe_a.py").write_text(
        "from numba import njit\n\n@njit(cache=False)\ndef inner(x):\n    return x + 1\n"
    )
    (tmp_path / "ktsolve_probe_b.py").write_text(
        "from numba import njit\nfrom ktsolve_probe_a import inner\nLIMIT = 3\n\n"
        "@njit(cache=False)\ndef outer(x):\n    return inner(x) + LIMIT\n\n"
        "@njit(cache=False)\ndef local(x):\n    return outer(x)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    probe_b = importlib.import_module("ktsolve_probe_b")
    assert foreign_references(probe_b.outer) == [f"calls inner of {tmp_path / 'ktsolve_probe_a.py'}"]
    assert foreign_references(probe_b.local) == []


def test_the_check_catches_an_imported_constant(tmp_path, monkeypatch):
    (tmp_path / "ktsolve_probe_c.py").write_text("STEP = 2\n")
    (tmp_path / "ktsolve_probe_d.py").write_text(
        "from numba import njit\nfrom ktsolve_probe_c import STEP\n\n"
        "@njit(cache=False)\ndef f(x):\n    return x + STEP\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    probe_d = importlib.import_module("ktsolve_probe_d")
    assert foreign_references(probe_d.f) == ["reads STEP, which is not defined in its own file"]
