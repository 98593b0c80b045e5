"""The house's walls (issue 21): the command line's imports, the one table of exit codes, the one of errors.

Each rule is checked over the source of the whole package, and each
checker is first shown a small case it must refuse, so that a rule that
can no longer fail is noticed.
"""

from __future__ import annotations

import ast
import re
import importlib
import inspect
import pkgutil
from pathlib import Path

import networkx as nx
import pytest

import ktsolve

PACKAGE = Path(ktsolve.__file__).resolve().parent


# ---------------------------------------------------------------------- the import graph
def _module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module under ``root`` (the folder of ``package``) by its dotted name."""
    out = {}
    for path in root.rglob("*.py"):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _runtime_nodes(tree, skip=lambda func: False):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (they never run) and in skipped functions."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and skip(node.name):
            continue
        test = node.test if isinstance(node, ast.If) else None
        if test is not None and (getattr(test, "id", None) or getattr(test, "attr", None)) == "TYPE_CHECKING":
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child, skip)])
            continue
        yield node
        yield from _runtime_nodes(node, skip)


def _target(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The dotted module an ``ImportFrom`` in module ``name`` (at ``path``) reads from."""
    if not node.level:
        return node.module or ""
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def _reexported(package: str, modules: dict[str, Path]) -> dict[str, str]:
    """The names a package's ``__init__`` takes from other modules at its top, by the module that holds them."""
    path, out = modules[package], {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            target = _target(package, path, node)
            for alias in node.names:
                if target != package:
                    out[alias.asname or alias.name] = _holder(target, alias.name, modules)
    return out


def _holder(target: str, name: str, modules: dict[str, Path]) -> str:
    """The module that ``from target import name`` really reads: the submodule ``target.name``, the module a
    package's ``__init__`` re-exports ``name`` from, or ``target`` itself."""
    if f"{target}.{name}" in modules:
        return f"{target}.{name}"
    if target in modules and modules[target].name == "__init__.py":
        return _reexported(target, modules).get(name, target)
    return target


def _imported(name: str, path: Path, modules: dict[str, Path], skip=lambda func: False) -> set[str]:
    """The package's modules that ``name``'s source imports, at the top or inside a function (but ``skip``'s).

    Module by module: ``from . import sub`` reads ``sub``, and a name a package's ``__init__`` re-exports
    is read from the module that holds it, so a submodule that takes a sibling's name through its
    package is no cycle with the ``__init__`` that re-exports it.
    """
    out = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8")), skip):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            target = _target(name, path, node)
            out |= {held for a in node.names if (held := _holder(target, a.name, modules)) in modules}
    out.discard(name)
    return out


def import_graph(root: Path, package: str, skip=lambda func: False) -> nx.DiGraph:
    """Every import among ``package``'s modules, an arrow from the importer to the module it reads."""
    modules = _module_names(root, package)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, other) for other in _imported(name, path, modules, skip))
    return graph


def import_cycles_through(root: Path, package: str, prefix: str, skip=lambda func: False) -> list[list[str]]:
    """The import cycles among ``package``'s modules that pass through a module named ``prefix...``.

    Imports inside a function whose name ``skip`` accepts are left out.
    """
    graph = import_graph(root, package, skip)
    cycles = []
    for part in nx.strongly_connected_components(graph):
        looped = len(part) > 1 or any(graph.has_edge(n, n) for n in part)
        if looped and any(n == prefix or n.startswith(prefix + ".") for n in part):
            cycles.append(sorted(part))
    return cycles


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "cli").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "cli" / "__init__.py").write_text("from .app import main\n")
    (pkg / "cli" / "app.py").write_text("from ..run import go\n")
    (pkg / "run.py").write_text("def go():\n    from .cli import app\n")
    assert import_cycles_through(pkg, "pkg", "pkg.cli") == [["pkg.cli.app", "pkg.run"]]  # module by module
    # an import for type checkers only never runs
    (pkg / "run.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .cli import app\n")
    assert import_cycles_through(pkg, "pkg", "pkg.cli") == []


def test_the_import_graph_reads_modules_not_packages(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    # the package's __init__ re-exports its submodules' names: no arrow back from them to it
    (pkg / "sub" / "__init__.py").write_text("from .a import f\nfrom .b import g\n")
    (pkg / "sub" / "a.py").write_text("def f():\n    from . import g\n")  # g is read from b
    (pkg / "sub" / "b.py").write_text("def g():\n    from . import a\n")  # the submodule a
    graph = import_graph(pkg, "pkg")
    assert set(graph.edges) == {("pkg.sub", "pkg.sub.a"), ("pkg.sub", "pkg.sub.b"), ("pkg.sub.a", "pkg.sub.b"),
                                ("pkg.sub.b", "pkg.sub.a")}
    assert import_cycles(pkg, "pkg") == [["pkg.sub.a", "pkg.sub.b"]]  # the circle inside functions is seen
    (pkg / "sub" / "b.py").write_text("import pkg.sub.a\n")
    assert import_cycles(pkg, "pkg") == [["pkg.sub.a", "pkg.sub.b"]]
    (pkg / "sub" / "b.py").write_text("def g():\n    pass\n")
    assert import_cycles(pkg, "pkg") == []


def import_cycles(root: Path, package: str, skip=lambda func: False) -> list[list[str]]:
    """Every circle of imports among ``package``'s modules (a strongly connected part of two or more)."""
    return sorted(sorted(part) for part in nx.strongly_connected_components(import_graph(root, package, skip))
                  if len(part) > 1)


def test_no_import_circle_anywhere():
    """Every import counts, inside functions too: no two modules of ktsolve reach each other, but through
    the notebook pictures.

    The notebook pictures (``_repr_svg_``, ``_repr_html_``) of ``board``, ``tour`` and ``result`` import
    ``render`` when first drawn (see the test below): ``render`` draws those data classes and stands above
    them, and a notebook asks the object itself for its picture.
    """
    graph = import_graph(PACKAGE, "ktsolve", skip=_is_notebook_hook)
    circles = sorted(sorted(part) for part in nx.strongly_connected_components(graph) if len(part) > 1)
    assert circles == []


def _is_kernel_file(module: str) -> bool:
    """A numba kernel file (``_rotation_kernels``, the pinned ``_grid_kernels`` and ``_splitmix``): its wrapper
    imports its underscore kernels by name."""
    last = module.rpartition(".")[2]
    return last.startswith("_") and (last.endswith("_kernels") or last == "_splitmix")


def private_imports(root: Path, package: str) -> list[str]:
    """Every underscore name one module of ``package`` takes from another, inside functions too:
    ``from .tour import _names``, ``from . import tour`` then ``tour._names``; names from kernel files aside.

    A name another module imports is public in its module (no underscore; kept out of ``__all__`` when it
    is the package's own business), or the import goes.
    """
    modules = _module_names(root, package)
    found = []
    for name, path in sorted(modules.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {}  # local names of imported modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _target(name, path, node)
                for alias in node.names:
                    if f"{target}.{alias.name}" in modules:
                        bound[alias.asname or alias.name] = f"{target}.{alias.name}"
                        continue
                    holder = _holder(target, alias.name, modules)
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private and holder in modules and holder != name and not _is_kernel_file(holder):
                        found.append(f"{name}:{node.lineno} imports {holder}.{alias.name}")
            elif isinstance(node, ast.Import):
                bound.update({a.asname: a.name for a in node.names if a.asname and a.name in modules})
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
                holder, attr = bound[node.value.id], node.attr
                if attr.startswith("_") and not attr.startswith("__") and holder != name and not _is_kernel_file(holder):
                    found.append(f"{name}:{node.lineno} reads {holder}.{attr}")
    return found


def test_the_private_import_finder_sees_every_form(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .a import _f\n")
    (pkg / "a.py").write_text("def _f():\n    pass\n")
    (pkg / "_b_kernels.py").write_text("def _k():\n    pass\n")
    (pkg / "c.py").write_text("from . import _b_kernels, a\nfrom ._b_kernels import _k\n"
                              "def g():\n    from .a import _f\n    return a._f, _b_kernels._k\n")
    (pkg / "d.py").write_text("from . import _f\n")  # through the package's re-export
    assert private_imports(pkg, "pkg") == ["pkg:1 imports pkg.a._f", "pkg.c:4 imports pkg.a._f",
                                           "pkg.c:5 reads pkg.a._f", "pkg.d:1 imports pkg.a._f"]


def test_no_module_takes_another_ones_private_names():
    assert private_imports(PACKAGE, "ktsolve") == []


def test_the_command_line_is_a_package_of_one_module_per_command():
    names = _module_names(PACKAGE, "ktsolve")
    cli = {n for n in names if n.startswith("ktsolve.cli.")}
    commands = {"solve", "prove", "verify", "methods", "longest", "enumerate", "bench", "census", "warm"}
    assert {f"ktsolve.cli.{c}" for c in commands} <= cli
    assert "ktsolve.cli_run" not in names
    assert len((PACKAGE / "cli" / "__init__.py").read_text(encoding="utf-8").splitlines()) <= 30  # stays thin


def test_no_import_cycle_passes_through_the_command_line():
    assert import_cycles_through(PACKAGE, "ktsolve", "ktsolve.cli") == []


def test_every_command_has_its_module():
    from ktsolve.cli import cli

    def leaves(group, prefix=()):
        for name, cmd in group.commands.items():
            if hasattr(cmd, "commands"):
                yield from leaves(cmd, (*prefix, name))
            else:
                yield (*prefix, name), cmd

    found = dict(leaves(cli))
    assert set(found) >= {("solve",), ("prove",), ("verify",), ("methods",), ("longest",), ("enumerate",),
                          ("bench", "papers"), ("bench", "methods"), ("census",), ("warm",)}
    for path, cmd in found.items():
        assert cmd.callback.__module__ == f"ktsolve.cli.{path[0]}", path


# ---------------------------------------------------------------------- exit codes
_EXIT_CALLS = {"exit", "_exit", "quit", "Exit", "SystemExit"}


def _literal_code(node) -> bool:
    """``node`` spells an exit code as a number: 2, ``0 if ok else 1``, ``{FOUND: 0, ...}[status]``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _literal_code(node.operand)
    if isinstance(node, ast.IfExp):
        return _literal_code(node.body) or _literal_code(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(_literal_code(v) for v in node.values)
    if isinstance(node, ast.Dict):
        return any(_literal_code(v) for v in node.values)
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Dict) and _literal_code(node.value)
    return False


def _target_names(node) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    out = []
    for t in targets:
        for sub in ast.walk(t):
            if isinstance(sub, ast.Name):
                out.append(sub.id)
            elif isinstance(sub, ast.Attribute):
                out.append(sub.attr)
    return out


def _is_code_name(name: str) -> bool:
    return "exit" in name.lower() or name in ("code", "rc", "returncode", "status_code")


def exit_code_literals(source: str, *, command_line: bool) -> list[str]:
    """Places in ``source`` that spell an exit code as a number instead of naming an ``ExitCode``.

    ``command_line``: the source is a module of :mod:`ktsolve.cli`, where a
    command's return value is its exit code, so no function returns a bare
    whole number.
    """
    found = []

    def visit(node, func: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            func = node.name
        if isinstance(node, ast.Call):
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if callee in _EXIT_CALLS and node.args and _literal_code(node.args[0]):
                found.append(f"line {node.lineno}: {callee}() of a number")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for name in _target_names(node):
                if name.upper().startswith("EXIT_"):
                    found.append(f"line {node.lineno}: {name} defined outside ktsolve.exit_codes")
                elif _is_code_name(name) and node.value is not None and _literal_code(node.value):
                    found.append(f"line {node.lineno}: {name} = a number")
        elif isinstance(node, ast.Return) and node.value is not None and _literal_code(node.value):
            if command_line or (func and "exit" in func.lower()):
                found.append(f"line {node.lineno}: {func}() returns a number")
        for child in ast.iter_child_nodes(node):
            visit(child, func)

    visit(ast.parse(source), None)
    return found


def test_the_exit_code_checker_sees_every_way_of_spelling_a_number():
    bad = (
        "import sys, os\n"
        "EXIT_BAD_INPUT = 2\n"
        "sys.exit(3)\n"
        "os._exit(0 if ok else 1)\n"
        "def run():\n"
        "    code = 130\n"
        "    self.exit_code = 141\n"
        "    return 0\n"
        "class R:\n"
        "    def exit_code(self):\n"
        "        return {FOUND: 0, UNKNOWN: 3}[self]\n"
    )
    assert len(exit_code_literals(bad, command_line=False)) == 6
    assert len(exit_code_literals(bad, command_line=True)) == 7  # the bare `return 0` of a command too
    good = (
        "from .exit_codes import ExitCode\n"
        "def exit_code(self):\n"
        "    if self.summary.status['unknown'][0]:\n"
        "        return int(ExitCode.UNKNOWN)\n"
        "    return int(_EXIT[self])\n"
        "def size():\n"
        "    return 0\n"
        "sys.exit(int(code))\n"
    )
    assert exit_code_literals(good, command_line=False) == []


def test_exit_codes_are_numbers_only_in_their_table():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "exit_codes.py":
            continue
        hits = exit_code_literals(path.read_text(encoding="utf-8"), command_line=rel.startswith("cli/"))
        if hits:
            found[rel] = hits
    assert not found, found


def test_the_table_of_exit_codes_names_every_code():
    from ktsolve.exit_codes import ExitCode

    doc = importlib.import_module("ktsolve.exit_codes").__doc__
    for member in ExitCode:
        assert f"{int(member):<5}  ``{member.name}``" in doc
    assert [int(m) for m in ExitCode] == [0, 1, 2, 3, 70, 130, 141]


@pytest.mark.parametrize("argv, code", [(["solve", "3x3"], "INFEASIBLE"), (["solve", "9x9x9"], "BAD_INPUT"),
                                        (["solve", "8x8", "-m", "backtrack", "-p", "max_nodes=10"], "UNKNOWN"),
                                        (["methods"], "OK")])
def test_the_commands_exit_with_the_tables_codes(argv, code):
    from click.testing import CliRunner

    from ktsolve.cli import cli
    from ktsolve.exit_codes import ExitCode

    assert CliRunner().invoke(cli, argv).exit_code == ExitCode[code]


# ---------------------------------------------------------------------- errors
def _exception_classes() -> dict[str, type]:
    """Every exception class defined in a module of ktsolve, by ``module.Name``."""
    out = {}
    names = ["ktsolve", *(info.name for info in pkgutil.walk_packages(ktsolve.__path__, "ktsolve."))]
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional dependency (dask, matplotlib) is missing
            continue
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name and issubclass(cls, BaseException):
                out[f"{name}.{cls_name}"] = cls
    return out


def test_every_error_class_lives_in_errors_and_is_in_its_table():
    from ktsolve import errors

    classes = _exception_classes()
    assert "ktsolve.errors.TourFileError" in classes and "ktsolve.driver.Stopped" in classes
    for qualified, cls in classes.items():
        module, _, name = qualified.rpartition(".")
        if module == "ktsolve.errors":
            assert f"``{name}``" in errors.__doc__, f"{name} is missing from the table of ktsolve.errors"
            assert issubclass(cls, errors.KtsolveError) and name in errors.__all__, name
        else:
            # a signal that carries control flow inside one piece of work, or a warning: listed, never an error
            assert f"``{qualified}``" in errors.__doc__, f"{qualified} is neither in ktsolve.errors nor listed there"
            assert not issubclass(cls, (errors.KtsolveError, ValueError, OSError)), qualified


def test_the_moved_errors_keep_their_family():
    from ktsolve import errors
    from ktsolve.census import CensusError, CensusFileError

    assert issubclass(errors.TourFileError, errors.InvalidTourError)
    assert CensusError is errors.CensusError and CensusFileError is errors.CensusFileError
    import ktsolve.census.store
    import ktsolve.files

    assert "TourFileError" not in ktsolve.files.__all__ and "CensusFileError" not in ktsolve.census.store.__all__


# ---------------------------------------------------------------------- the pictures
def _is_notebook_hook(name: str) -> bool:
    return name.startswith("_repr_") and name.endswith("_")


def test_render_is_reached_from_the_data_classes_only_through_their_notebook_hooks():
    # render draws boards, tours and results and asks the graph for its parts: it stands above them, and
    # their pictures for notebooks (_repr_svg_, _repr_html_) are the one door back, opened on the first picture
    assert import_cycles_through(PACKAGE, "ktsolve", "ktsolve.render")  # the door exists ...
    assert import_cycles_through(PACKAGE, "ktsolve", "ktsolve.render", skip=_is_notebook_hook) == []  # ... alone
    modules = _module_names(PACKAGE, "ktsolve")
    for name in ("ktsolve.board", "ktsolve.tour", "ktsolve.result"):
        everywhere = _imported(name, modules[name], modules)
        outside_hooks = _imported(name, modules[name], modules, skip=_is_notebook_hook)
        assert "ktsolve.render" in everywhere and "ktsolve.render" not in outside_hooks, name


def test_the_data_classes_load_without_render():
    import subprocess
    import sys

    code = ("import sys; from ktsolve import Board, Tour, SolveResult, solve; solve('5x5', method='warnsdorff'); "
            "print('ktsolve.render' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_the_pictures_of_board_tour_and_result():
    from ktsolve import Board, solve

    res = solve("5x5", method="warnsdorff", start="a1", seed=1)
    assert Board(3, 3)._repr_svg_().startswith("<svg") and res.tour._repr_svg_().startswith("<svg")
    assert "<svg" in res._repr_html_()
    unknown = solve("8x8", method="backtrack", max_nodes=10)
    assert unknown.status.value == "unknown" and unknown.stats["reason"] in unknown._repr_html_()


# ---------------------------------------------------------------------- the program's end
_ENDING = """
import sys
import ktsolve.cli.app as app
def ending():
    print("answer")
    raise SystemExit({code!r})
app.main = ending
app.console_main()
"""


@pytest.mark.parametrize("code, status, err", [(None, 0, ""), (3, 3, ""), (141, 141, ""), ("a message", 1, "a message")])
def test_the_program_ends_with_the_code_it_was_given(code, status, err):
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", _ENDING.format(code=code)], capture_output=True, text=True)
    assert (res.returncode, res.stdout, res.stderr.strip()) == (status, "answer\n", err)


# ---------------------------------------------------------------------- rules written once
#: A line that only names what a module imports or what a function takes: blocks of those repeat by nature.
_DECLARATION = re.compile(r"^(from \S+ import .*|import \S+.*|\w+,|\)|\*,|\*\*\w+,|\w+(: [^=]+)?( = .+)?,|\) -> .+:)$")


def repeated_blocks(root: Path, size: int = 6) -> list[tuple[str, str]]:
    """Every pair of places in ``root``'s Python files where ``size`` lines stand again, the same to the
    letter (indentation aside), beyond blank lines, imports and parameter lists."""
    seen: dict[tuple[str, ...], str] = {}
    pairs = []
    for path in sorted(root.rglob("*.py")):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        for i in range(len(lines) - size + 1):
            window = tuple(lines[i:i + size])
            words = [line for line in window if line and not _DECLARATION.match(line)]
            if sum(len(line) > 3 for line in words) < size - 1:
                continue
            place = f"{path.relative_to(root)}:{i + 1}"
            if window in seen:
                pairs.append((seen[window], place))
            else:
                seen[window] = place
    return pairs


def test_no_block_of_six_lines_is_written_twice():
    """A rule, a docstring paragraph or a kernel loop is written once in ``ktsolve/``: six lines that stand
    again word for word are a helper, a shared constant (``seeds.seed_doc``, ``_colony_entry.WARM_DOC``) or
    a pinned shared kernel (``_grid_kernels``) waiting to be made."""
    assert repeated_blocks(PACKAGE) == []


def test_the_repeated_block_finder_finds_one(tmp_path):
    body = "\n".join(f"    total += weight[{k}] * count[{k}]" for k in range(6))
    (tmp_path / "a.py").write_text(f"def f(weight, count):\n    total = 0\n{body}\n    return total\n")
    (tmp_path / "b.py").write_text(f"def g(weight, count):\n    total = 1\n{body}\n    return -total\n")
    assert repeated_blocks(tmp_path) == [("a.py:3", "b.py:3")]


# ---------------------------------------------------------------------- the methods' floor
#: The floors above the methods: what plans, races, registers, parses or counts methods. No method module
#: (nor a module of a method's package) imports them.
_ABOVE_THE_METHODS = ("ktsolve.solve", "ktsolve.plans", "ktsolve.portfolio", "ktsolve.race", "ktsolve.registry",
                      "ktsolve.request", "ktsolve.cli", "ktsolve.census", "ktsolve.testing", "ktsolve.bench",
                      "ktsolve.render")

#: The methods one method calls, each for a reason its parameters or its steps name.
METHOD_CALLS_METHOD = {
    ("ktsolve.heuristics.abc", "ktsolve.models.backtrack"): "seed_with='exact': first food sources",
    ("ktsolve.heuristics.splice", "ktsolve.heuristics.divide"): "the full board's tour splice starts from",
    ("ktsolve.heuristics.splice.build", "ktsolve.heuristics.divide"): "the same, in splice's set-up",
    ("ktsolve.heuristics.splice.colony_window", "ktsolve.heuristics.aco"): "window_method='aco'",
    ("ktsolve.heuristics.splice.colony_window", "ktsolve.heuristics.iaco"): "window_method='iaco'",
}


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_methods_stand_below_the_plans_and_call_other_methods_only_where_listed():
    from ktsolve.registry import method_info, methods

    graph = import_graph(PACKAGE, "ktsolve")
    homes = {method_info(name).func.split(":")[0] for name in methods()}
    upward, across = [], set()
    for home in homes:
        for module in (n for n in graph.nodes if _within(n, (home,))):
            for target in graph.successors(module):
                if _within(target, _ABOVE_THE_METHODS):
                    upward.append((module, target))
                if _within(target, homes - {home}):
                    across.add((module, target))
    assert upward == []
    assert across == set(METHOD_CALLS_METHOD)
