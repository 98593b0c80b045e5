"""Build hook: the wheel carries numba's cache of every ktsolve kernel, compiled at install (issue 31, item 2).

A kernel's first call in a fresh install compiles it (seconds per method,
tens for splice on a huge board).  So ``pip install .`` compiles them all
once, while it builds the wheel, into the build tree's ``__pycache__``
folders, which the wheel installs beside the sources; numba loads them
there at the first run, since its cache index is keyed by the source's
content, the numba version and the machine's CPU, all the same at install
and at run time.  A wheel built on another machine, or another numba,
finds its cache stale and compiles on the first run, as before.

This costs the install the time of ``ktsolve warm`` (about a minute; see
benchmarks/results/first_run.md).  ``KTSOLVE_WARM_AT_INSTALL=0`` skips it,
and so do editable installs (a developer's tree keeps its own cache).  The
hook never fails an install: a compile that cannot run (no numba in the
build environment, a read-only build folder) is one warning line.
"""

from __future__ import annotations

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

#: What the build runs: every kernel any command can call (ktsolve.jit.SHARED), then every method's.
_WARM = """
from ktsolve import jit
from ktsolve.registry import methods
for _, path in jit.SHARED:
    jit.warm_shared(path)
for info in methods().values():
    jit.warm_method(info.load())
"""


class BuildWithNumbaCache(build_py):
    """``build_py``, then numba's cache of every kernel compiled into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("KTSOLVE_WARM_AT_INSTALL", "1") == "0":
            return
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}  # the in-tree cache only
        # before the build environment's own path (pip's isolation puts numba there)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.abspath(self.build_lib), env.get("PYTHONPATH")) if p)
        self.announce("compiling ktsolve's numba kernels into the package (KTSOLVE_WARM_AT_INSTALL=0 skips it)",
                      level=2)
        try:
            # from the built package, not the source tree beside it (``python -c`` puts the folder it runs in
            # first on the path)
            done = subprocess.run([sys.executable, "-c", _WARM], env=env, cwd=os.path.abspath(self.build_lib),
                                  capture_output=True, text=True, timeout=3600)
        except (OSError, subprocess.SubprocessError) as exc:
            self.warn(f"ktsolve's numba kernels were not compiled at install ({exc}); they compile on first use")
            return
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            self.warn(f"ktsolve's numba kernels were not compiled at install ({last}); they compile on first use")


setup(cmdclass={"build_py": BuildWithNumbaCache})
