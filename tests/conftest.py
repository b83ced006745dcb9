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
