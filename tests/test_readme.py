"""The README's and the docs' examples run as written, and say what they show (issue 31, item 8).

* every Python block of README.md runs, in order, in one namespace (the
  hypothesis example's test is called as pytest would call it);
* every ``ktsolve ...`` line of README.md's command blocks, and of
  docs/testing.md's, runs in a folder holding the files the examples name,
  with the exit code its comment promises; the few that take minutes or a
  cluster run on a smaller board (:data:`SMALLER`) or are named in
  :data:`NOT_RUN` with the reason;
* DESIGN.md's Python blocks are valid Python (the method signature is a
  signature a method can have).
"""

from __future__ import annotations

import ast
import json
import shlex
from pathlib import Path

import pytest
from conftest import invoke

from ktsolve.registry import reset_methods

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

#: Sizes replaced in commands that would take minutes as written (the command's options stay as they are).
SMALLER = {
    "1000x1000": "100x100", "2000x2000": "200x200", "10000x10000": "300x300", "2000x2001": "200x201",
    "--random 1000": "--random 3", "--remove 2 --both": "--remove 1 --both", "--cycles 100000": "--cycles 200",
    "12x12 --remove 3": "6x6 --remove 1", "8x8 --remove 2": "6x6 --remove 2", "7x7 --remove 1": "5x5 --remove 1",
    "--seeds 10": "--seeds 1", "--terms 40": "--terms 12", "8x8,10x10": "6x6", "--time-limit 300": "--time-limit 20",
}

#: Commands not run, with the reason.
NOT_RUN = {
    "--scheduler": "needs a Dask scheduler at the address given",
}

#: Exit codes other than 0 that a command's comment promises, by a piece of its text (a tuple: any of them).
EXIT = {"solve 3x6 --method backtrack": 1, "prove 4x100 --closed": 1, "prove 4x6 --closed": 1,
        "enumerate 8x8": (0, 3)}  # no seed: the colony keeps a tour in its budget, or says it kept none


def _blocks(path: Path, lang: str | None = None) -> list[str]:
    """The fenced blocks of a Markdown file (those of language ``lang`` only, when given), in order."""
    out, current, kind = [], None, ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, kind = [], line[3:].strip()
            else:
                if lang is None or kind == lang:
                    out.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return out


def _commands(path: Path) -> list[str]:
    out = []
    for block in _blocks(path):
        for line in block.splitlines():
            if line.startswith("ktsolve "):
                out.append(line.split(" #")[0].strip())
    return out


@pytest.fixture(autouse=True)
def clean_registry():
    reset_methods()
    yield
    reset_methods()


def test_the_python_examples_run_in_order():
    blocks = _blocks(README, "python")
    assert len(blocks) >= 2, "the README has lost its Python examples"
    namespace: dict = {}
    for block in blocks:
        # a name that is no file: hypothesis reads the source of a test by its file and line otherwise
        exec(compile(block, "<README.md>", "exec"), namespace)  # noqa: S102 - the README's own examples
    assert namespace["res"].status.value == "infeasible" and namespace["res"].proof
    assert namespace["found"].found and namespace["found"].tour is not None
    namespace["test_my_method_agrees_with_ktsolve"]()  # the hypothesis example, as pytest runs it


def test_the_design_signature_is_python():
    for block in _blocks(DOCS / "DESIGN.md", "python"):
        tree = ast.parse(block)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.kwonlyargs]
                assert names[-1] == "seed" and node.args.kwarg is None, "seed is the last keyword of a method"


def _prepare(folder: Path) -> None:
    """The files the examples name: a board file, a tour, a question file, a module of methods."""
    (folder / "board.txt").write_text("......\n......\n.#....\n......\n......\n")
    invoke(["solve", "8x8", "--seed", "1", "-o", folder / "tour.json"])
    (folder / "questions.jsonl").write_text(
        "\n".join(json.dumps(q) for q in ({"board": "5x5", "holes": "a1"}, {"board": "6x6", "closed": True})))
    walk = _blocks(DOCS / "testing.md", "python")[0]
    (folder / "my_methods.py").write_text(walk.split("res = ktsolve.solve")[0] + (
        "\nktsolve.register_method(ktsolve.MethodInfo('random_walk', 'heuristic', 'random walk', random_walk,"
        " closed=False))\n"))


def _cases():
    cases = []
    for path in (README, DOCS / "testing.md"):
        for cmd in _commands(path):
            cases.append(pytest.param(path.name, cmd, id=f"{path.name}: {cmd}"))
    return cases


def test_there_are_commands_to_run():
    assert len(_commands(README)) >= 20 and len(_commands(DOCS / "testing.md")) >= 3


@pytest.mark.parametrize("doc, cmd", _cases())
def test_every_command_example_runs(doc, cmd, tmp_path, monkeypatch):
    why = next((why for key, why in NOT_RUN.items() if key in cmd), None)
    if why:
        pytest.skip(why)
    if "pairs.png" in cmd or "--plots" in cmd:
        pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    _prepare(tmp_path)
    # the commands of one block follow each other: a census or a mask that a later line reads is made first
    earlier = [c for c in _commands(README if doc == "README.md" else DOCS / doc)]
    needs = {"r2.jsonl": "ktsolve census 8x8 --remove 2 --both -o r2.jsonl",
             "mask.npy": "ktsolve board random 2000x2000 --holes 1% --closed --seed 3 -o mask.npy"}
    for name, maker in needs.items():
        if name in cmd and not cmd.startswith(maker.split(" -o")[0]) and maker in earlier:
            _run(maker, 0)
    if "verify 4x6 no.json" in cmd:
        _run("ktsolve prove 4x6 --closed -o no.json", 1)
    if "photo.png" in cmd or "scan.jpg" in cmd:
        image = pytest.importorskip("PIL.Image")
        import numpy as np

        disk = np.hypot(*np.mgrid[-40:40, -40:40]) < 36
        picture = image.fromarray(np.where(disk, 220, 30).astype(np.uint8))
        picture.save(tmp_path / "photo.png")
        image.fromarray(np.where(disk, 30, 220).astype(np.uint8)).save(tmp_path / "scan.jpg")
    if "verify 10000x10000 tour.npy" in cmd:
        _run("ktsolve solve 10000x10000 --closed --format npy -o tour.npy", 0)
    if "verify mask.npy tour.npy" in cmd:
        _run("ktsolve solve mask.npy --closed --format npy -o tour.npy", 0)
    code = next((c for key, c in EXIT.items() if key in cmd), 0)
    _run(cmd, code)


def _run(cmd: str, code):
    for big, small in SMALLER.items():
        cmd = cmd.replace(big, small)
    if isinstance(code, tuple):
        from click.testing import CliRunner

        from ktsolve.cli import cli

        res = CliRunner().invoke(cli, shlex.split(cmd)[1:])
        assert res.exit_code in code, (cmd, res.exit_code, res.stderr)
        return res
    return invoke(shlex.split(cmd)[1:], code)
