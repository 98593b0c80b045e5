"""Character devices for tests that write to devices, without risking the machine's own.

A writer that renames over its target (the fault of issue 14) deletes the
device node it is pointed at when it runs as root.  Tests therefore write to
private nodes made with ``mknod`` in their own folder when they can (as
root), and to ``/dev/null`` and ``/dev/full`` only when they cannot (as any
other user, who cannot replace them anyway).  :func:`guard_devices` checks
after each test that ``/dev/null`` and ``/dev/full`` are still the devices
they were, puts them back when it can, and fails the test that broke them.
"""

from __future__ import annotations

import os
import stat

import pytest

#: Name -> (major, minor) of the Linux devices the tests use.
DEVICES = {"null": (1, 3), "full": (1, 7)}


def char_device(name: str, folder) -> str:
    """A path to the ``name`` device ("null" or "full"): a private node in ``folder`` when possible."""
    path = os.path.join(str(folder), f"dev-{name}")
    if os.path.exists(path):
        return path
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(*DEVICES[name]))
        os.chmod(path, 0o666)
        with open(path, "wb"):  # a folder on a nodev mount holds nodes that cannot be opened
            pass
        return path
    except OSError:
        if os.path.exists(path):
            os.unlink(path)
        return f"/dev/{name}"


def _state():
    out = {}
    for name in DEVICES:
        try:
            st = os.lstat(f"/dev/{name}")
            out[name] = (stat.S_ISCHR(st.st_mode), st.st_rdev)
        except OSError:
            out[name] = None
    return out


def _restore(name: str) -> None:
    tmp = f"/dev/.{name}.ktsolve-restore"
    os.mknod(tmp, 0o666 | stat.S_IFCHR, os.makedev(*DEVICES[name]))
    os.chmod(tmp, 0o666)
    os.replace(tmp, f"/dev/{name}")


@pytest.fixture(autouse=True)
def guard_devices():
    """Fail (and repair, as root) a test after which /dev/null or /dev/full is no longer a device."""
    before = _state()
    yield
    after = _state()
    broken = [name for name in DEVICES if before[name] and before[name][0] and after[name] != before[name]]
    for name in broken:
        try:
            _restore(name)
        except OSError:
            pass
    if broken:
        pytest.fail(f"the test replaced {', '.join('/dev/' + n for n in broken)} (put back where possible)")
