"""CUDA programs written for the simulator, in the shapes of the common
suites (tests/cuda_programs/*.cu): each is built with nvcc -cudart shared,
runs unmodified under accelsim.run_cuda and passes its own result check
(a program using PTX the emulator lacks stops naming it: see the
`unimplemented` program in test_cuda_runtime.py)."""
from __future__ import annotations

import pytest

from cuda_util import PROGRAMS, program

RUNS = sorted(p.stem for p in PROGRAMS.glob("*.cu"))


@pytest.mark.parametrize("name", RUNS)
def test_program_runs_and_passes_its_check(name):
    from accelsim.cuda import run_cuda

    r = run_cuda([program(name)], capture_output=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{name}: PASSED" in r.stdout
    assert r.status == "exited" and r.completed
    assert r.num_kernels >= 1
    assert set(r.kernels["status"]) == {"simulated"}
    assert (r.kernels["cycles"] > 0).all()
    assert r.total_cycles >= r.kernels["end_cycle"].max()
