"""Shared test helpers: where the real data in ../shared lives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_data() -> Path | None:
    env = os.environ.get("ACCELSIM_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "data")
    for c in candidates:
        if c.is_dir():
            return c
    return None


@pytest.fixture
def shared():
    data = shared_data()
    if data is None:
        pytest.skip("../shared/data (real traces, configs, hardware data) is not present")
    return data


@pytest.fixture(autouse=True)
def _temp_files_stay_in_pytest_tmp(tmp_path, monkeypatch):
    """What the code under test (and the processes it starts: notebooks, the
    CLI) puts in the system temp folder lands in this test's tmp_path, which
    pytest cleans up, instead of piling up in /tmp."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
