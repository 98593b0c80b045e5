"""numba's cache on a read-only install: a temporary cache or none, one warning line, never a traceback (issue 31).

Installed where the package's folders cannot be written and with no
writable home, numba finds no place for its cache and refuses to define a
``cache=True`` kernel ("cannot cache function ... no locator available").
ktsolve then keeps its compiled kernels in a private folder under the
temporary directory, or runs them uncached when even that cannot be
written, and says so once.

The install is a read-only copy of the package; a test run as root drops
the capability that lets root write anywhere (``CAP_DAC_OVERRIDE``), so the
copy's permissions hold for it as they hold for any other user.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import ktsolve

PACKAGE = Path(ktsolve.__file__).resolve().parent

_PR_CAPBSET_DROP, _CAP_DAC_OVERRIDE = 24, 1


def _drop_root_override():
    """In the child before exec: root loses the power to write where permissions forbid it."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_CAPBSET_DROP, _CAP_DAC_OVERRIDE, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _read_only_tree(path: Path) -> None:
    for root, dirs, files in os.walk(path):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
        os.chmod(root, 0o555)


@pytest.fixture(scope="module")
def install(tmp_path_factory):
    """A read-only copy of the package, a home that cannot be written, and a temporary folder that can."""
    base = tmp_path_factory.mktemp("readonly")
    site = base / "site"
    shutil.copytree(PACKAGE, site / "ktsolve", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (base / "locked").mkdir()
    _read_only_tree(site)
    os.chmod(base / "locked", 0o555)
    probe = subprocess.run([sys.executable, "-c", f"open({str(site / 'probe')!r}, 'w')"],
                           preexec_fn=_drop_root_override, capture_output=True)
    if probe.returncode == 0:
        pytest.skip("this user can write into a read-only folder (root that cannot drop CAP_DAC_OVERRIDE)")
    yield base
    for root, dirs, _ in os.walk(base):
        os.chmod(root, stat.S_IRWXU)


def _run(install: Path, args: list[str], tmp: Path, *, code: str | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "KTSOLVE_"))}
    env.update(HOME=str(install / "locked" / "home"), XDG_CACHE_HOME=str(install / "locked" / "cache"),
               PYTHONPATH=str(install / "site"), PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(tmp))
    if not tmp.exists():
        tmp.mkdir()
    prog = code or "from ktsolve.cli import main; main()"
    return subprocess.run([sys.executable, "-c", prog, *args], env=env, cwd=str(tmp), capture_output=True,
                          text=True, preexec_fn=_drop_root_override, timeout=600)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("ktsolve: warning:")]


def test_the_copy_reproduces_the_read_only_install(install):
    """Without ktsolve's fallback numba refuses the kernels of this copy: the fixture is the issue's case."""
    res = _run(install, [str(install / "site" / "ktsolve" / "_splitmix.py")], install / "tmp-probe", code=(
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('probe_kernels', sys.argv[1])\n"
        "mod = importlib.util.module_from_spec(spec)\n"
        "try:\n"
        "    spec.loader.exec_module(mod)\n"
        "    print('defined')\n"
        "except RuntimeError as exc:\n"
        "    print('refused' if 'no locator available' in str(exc) else exc)\n"))
    assert res.stdout.strip() == "refused", res.stderr


def test_a_read_only_install_caches_in_a_temporary_folder_with_one_warning(install):
    """The issue's reproduction: a run and a second run, each one warning line, exit 0, the second compiles nothing."""
    tmp = install / "tmp-a"
    args = ["solve", "10x10", "-m", "backtrack", "--format", "json"]
    first = _run(install, args, tmp)
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    said = _warnings(first.stderr)
    assert len(said) == 1 and "temporary" in said[0] and str(tmp) in said[0], first.stderr
    assert json.loads(first.stdout)["stats"]["compile_s"] > 0
    second = _run(install, args, tmp)
    assert second.returncode == 0 and len(_warnings(second.stderr)) == 1, second.stderr
    assert "compile_s" not in json.loads(second.stdout)["stats"], "the temporary cache was not reused"
    folders = [p for p in tmp.iterdir() if p.name.startswith("ktsolve-numba-")]
    assert len(folders) == 1 and stat.S_IMODE(folders[0].stat().st_mode) == 0o700


@pytest.mark.slow
def test_warm_on_a_read_only_install_says_so_once(install):
    """``ktsolve warm`` compiles every shared kernel too (about a minute from an empty cache): slow."""
    res = _run(install, ["warm", "backtrack"], install / "tmp-b")
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert len(_warnings(res.stderr)) == 1
    assert res.stdout.startswith("backtrack: compiled in ")


def test_nothing_writable_at_all_runs_uncached(install):
    """No temporary folder either: the kernels compile in memory, every run, with one warning."""
    tmp = install / "locked"  # the temporary folder cannot be written (nor /tmp, where Python would go next)
    res = _run(install, ["solve", "10x10", "-m", "backtrack", "--seed", "1"], tmp, code=(
        "import os, tempfile; tempfile.tempdir = os.environ['TMPDIR']\n"
        "from ktsolve.cli import main; main()"))
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    said = _warnings(res.stderr)
    assert len(said) == 1 and "uncached" in said[0], res.stderr
    assert len(res.stdout.splitlines()) == 10


def test_an_unsafe_temporary_folder_is_not_used(install):
    """A shared folder another user could write (or a link) is never trusted with compiled code: uncached."""
    tmp = install / "tmp-c"
    tmp.mkdir()
    planted = tmp / f"ktsolve-numba-{os.getuid()}"
    planted.mkdir()
    os.chmod(planted, 0o777)
    res = _run(install, ["solve", "10x10", "-m", "backtrack", "--seed", "1"], tmp)
    assert res.returncode == 0, res.stderr
    said = _warnings(res.stderr)
    assert len(said) == 1 and "uncached" in said[0], res.stderr
    assert not any(planted.iterdir()), "compiled code was written to a folder others can write"


def test_a_writable_install_says_nothing():
    """The usual install (this test's own tree): no warning, no environment set."""
    res = subprocess.run([sys.executable, "-c", "import ktsolve, os; from ktsolve import jit; "
                          "print(jit.cache_note(), os.environ.get('NUMBA_CACHE_DIR'))"],
                         capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                               if not k.startswith("NUMBA_")})
    assert res.stdout.split() == ["None", "None"], res.stderr
