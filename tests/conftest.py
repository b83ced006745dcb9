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


# Every skip for want of the real data says this in its reason.
NO_DATA = "../shared/data"


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    return longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def pytest_terminal_summary(terminalreporter):
    """A clone without ../shared/data skips the checks on real traces and
    hardware data: say so in one line at the end, with how many and where,
    instead of leaving it to a count of 's' among the dots."""
    from collections import Counter

    lacking = [r for r in terminalreporter.stats.get("skipped", [])
               if NO_DATA in _skip_reason(r)]
    if not lacking:
        return
    by_file = Counter(r.nodeid.split("::")[0] for r in lacking)
    where = ", ".join(f"{name} ({n})" for name, n in sorted(by_file.items()))
    terminalreporter.write_line(
        f"{len(lacking)} checks skipped for lack of {NO_DATA} (real traces, configs, hardware "
        f"data; clone beside it or set ACCELSIM_SHARED_DATA): {where}", yellow=True)
