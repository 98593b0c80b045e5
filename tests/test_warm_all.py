"""``ktsolve warm`` reaches every kernel any command can call (issue 31, item 2).

From an empty numba cache, ``ktsolve warm`` runs once; then every command
runs on every kind of board (small and full, holed above the proofs' Python
limit, holed above splice's threshold, full and huge for divide, holed and
huge above the local proofs' threshold, a file of random board, tours of
65,536 squares and more to verify, the colonies' enumerations, the longest
path) in one process that listens to numba: not one ktsolve kernel may
compile there.  Minutes of compiling from an empty cache: a slow test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

_LISTEN = r'''
import json, sys
from numba.core import event

compiled = []


class Listen(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        if d.py_func.__module__.startswith("ktsolve"):
            compiled.append(f"{d.py_func.__module__}.{d.py_func.__qualname__}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listen())
from ktsolve.cli import main

out = {}
for args in json.loads(sys.argv[1]):
    compiled.clear()
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code
    out[" ".join(args)] = {"code": code, "compiled": sorted(set(compiled))}
# the control: a kernel of ktsolve's that no cache holds compiles here, and the listener sees it
import numba

control = numba.njit(lambda x: x + 1)
control.py_func.__module__ = "ktsolve.control"
control(1)
out["control"] = {"code": 0, "compiled": sorted(set(compiled))}
print(json.dumps(out))
'''


def _commands(tmp) -> list[list[str]]:
    from ktsolve.registry import methods

    cmds = []
    for name, info in methods().items():
        closed = [] if info.open else ["--closed"]
        cmds.append(["solve", "8x8", "-m", name, "--seed", "1", "--time-limit", "3", *closed])
        if info.max_squares is None or info.max_squares >= 676:  # 26x26: the proofs run their kernels
            holes = ["--holes", "b2,c5"] if info.holes else []
            cmds.append(["solve", "26x26", "-m", name, "--seed", "1", "--time-limit", "3", *holes, *closed])
    cmds += [
        ["solve", "6x6", "-m", "aco", "--seed", "1", "--time-limit", "2", "-p", "local_search=rotation",
         "-p", "seed_with=warnsdorff"],
        ["solve", "6x6", "-m", "iaco", "--seed", "1", "--time-limit", "2", "-p", "local_search=rotation",
         "-p", "seed_with=exact"],
        ["solve", "6x6", "-m", "abc", "--seed", "1", "--time-limit", "2", "-p", "local_search=rotation",
         "-p", "seed_with=warnsdorff"],
        ["solve", "8x8", "--closed", "-m", "neural", "--seed", "1", "-p", "repair=true", "--time-limit", "2"],
        ["prove", "30x30", "--closed", "--holes", "a1,b3,c5,h8", "--seed", "1", "--time-limit", "20"],
        ["prove", "60x60", "--holes", "a1,b3,c5,h8,j9,k2", "--seed", "1", "--time-limit", "20"],
        ["solve", "120x120", "--closed", "--holes", "a1,b3,c5,d9,j9,k2", "--seed", "1", "-o", f"{tmp}/a.npy"],
        ["solve", "300x300", "--closed", "--seed", "1", "-o", f"{tmp}/b.npy"],
        ["verify", "300x300", f"{tmp}/b.npy", "--closed"],
        ["board", "random", "400x400", "--holes", "1%", "--closed", "--seed", "2", "-o", f"{tmp}/m.npy"],
        ["solve", f"{tmp}/m.npy", "--closed", "--seed", "1", "-o", f"{tmp}/c.npy"],
        ["verify", f"{tmp}/m.npy", f"{tmp}/c.npy", "--closed"],
        ["board", "random", "2300x2300", "--holes", "0.2%", "--seed", "3", "-o", f"{tmp}/h.npy"],
        ["solve", f"{tmp}/h.npy", "--seed", "1", "--time-limit", "120", "-o", f"{tmp}/d.npy"],
        ["solve", "200x200", "--holes", "b1,c2", "--seed", "1", "--time-limit", "30"],
        ["enumerate", "6x6", "-m", "aco", "--cycles", "20", "--seed", "1", "-o", f"{tmp}/e.txt"],
        ["enumerate", "6x6", "-m", "iaco", "--cycles", "20", "--seed", "1", "-o", f"{tmp}/f.txt"],
        ["enumerate", "6x6", "-m", "dfs", "-p", "nodes=100000", "--seed", "1", "-o", f"{tmp}/g.txt"],
        ["longest", "5x5", "--start", "a1"],
        ["count", "6x6", "--closed"],
        ["count", "4xN", "--terms", "12"],
        ["board", "maze", "300x300", "--corridor", "6", "--wall", "2", "--seed", "1", "-o", f"{tmp}/z.npy"],
        ["board", "rings", "300x300", "--width", "6", "--gap", "2", "--closed", "-o", f"{tmp}/r.npy"],
        ["board", "cheese", "300x300", "--share", "20%", "--radii", "5-40", "--seed", "1", "-o", f"{tmp}/k.npy"],
    ]
    return cmds


def test_after_warm_no_command_on_any_board_compiles(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    warm = subprocess.run([sys.executable, "-c", "from ktsolve.cli import main; main()", "warm"], env=env,
                          capture_output=True, text=True, timeout=3600)
    assert warm.returncode == 0, warm.stderr
    cmds = _commands(tmp_path)
    run = subprocess.run([sys.executable, "-c", _LISTEN, json.dumps(cmds)], env=env, capture_output=True,
                         text=True, timeout=3600, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out.pop("control")["compiled"] == ["ktsolve.control.<lambda>"], "the listener hears no compile"
    bad = {cmd: r for cmd, r in out.items() if r["code"] not in (0, 1, 3) or r["compiled"]}
    assert not bad, json.dumps(bad, indent=1)


def test_the_wheel_carries_every_kernel_compiled_unless_told_not_to(tmp_path):
    """setup.py compiles every kernel into the wheel (numba's cache beside the sources), and skips it when told."""
    import shutil
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    src = tmp_path / "src"
    shutil.copytree(root, src, ignore=shutil.ignore_patterns(".venv", "__pycache__", "*.nbi", "*.nbc", ".git",
                                                             "*.egg-info", "build", "results", "pictures"))
    wheels = {}
    for flag in ("1", "0"):
        out = tmp_path / f"wheel{flag}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env["KTSOLVE_WARM_AT_INSTALL"] = flag
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                               "-w", str(out), str(src)], env=env, capture_output=True, text=True, timeout=3600)
        assert done.returncode == 0, done.stderr[-2000:]
        (wheel,) = out.glob("*.whl")
        wheels[flag] = zipfile.ZipFile(wheel).namelist()
        shutil.rmtree(src / "build", ignore_errors=True)
    cached = [n for n in wheels["1"] if n.endswith(".nbi")]
    folders = {n.split("/__pycache__/")[0] for n in cached}
    assert {"ktsolve", "ktsolve/heuristics", "ktsolve/models", "ktsolve/proofs", "ktsolve/factor"} <= folders
    assert not [n for n in wheels["0"] if n.endswith((".nbi", ".nbc"))]
