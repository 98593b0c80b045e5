"""The tests use a copy of ../shared/oracles; it must not drift from the shared original."""

import filecmp

import pytest

from conftest import ORACLES, SHARED_ORACLES


@pytest.mark.skipif(not SHARED_ORACLES.is_dir(), reason="no ../shared/oracles beside this checkout")
def test_copy_matches_shared():
    names = sorted(p.name for p in SHARED_ORACLES.iterdir() if p.is_file())
    match, mismatch, errors = filecmp.cmpfiles(SHARED_ORACLES, ORACLES, names, shallow=False)
    assert not mismatch and not errors, f"tests/oracles differs from shared: {mismatch + errors}"
