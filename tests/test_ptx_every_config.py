"""Every bundled config runs every example kernel (python/accelsim/ptx/examples,
the cases of accelsim.studies.sass_compare) in all three record modes, with
the same results in each (the QV100 tests check them against NumPy); a Device
takes its SASS generation from the config and its registers from ptxas by
default."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import accelsim
from accelsim.config.files import list_configs
from accelsim.errors import AccelsimWarning
from accelsim.ptx import EXAMPLES, Device, Module
from accelsim.ptx.ptxas import find_ptxas
from accelsim.ptx.sass_guided import find_tool
from accelsim.studies import sass_compare

needs_ptxas = pytest.mark.skipif(find_ptxas() is None, reason="needs ptxas (pip install 'accelsim[ptx]')")
needs_sass_tools = pytest.mark.skipif(find_ptxas() is None or find_tool("nvdisasm") is None,
                                      reason="records='sass' needs ptxas and nvdisasm (pip install 'accelsim[ptx]')")


KERNELS = {"vectorAdd", "saxpy", "nested_divergent", "reduce_shared", "reduce_shfl", "histogram", "transpose_naive",
           "transpose_padded", "matmul_tiled", "dyn_shared_struct", "atax1", "atax2", "bicg1", "bicg2", "mvt1",
           "mvt2", "gemm", "mm2_1", "mm2_2", "stencil2d", "scan_blelloch", "bfs_level", "bfs_expand", "bfs_advance",
           "sincos_f64", "tex_read", "locked_count"}


def test_the_cases_launch_every_example_kernel():
    import re

    declared = {m for f in EXAMPLES.glob("*.ptx") for m in re.findall(r"\.entry\s+(\w+)", f.read_text())}
    assert declared == KERNELS


@pytest.fixture(scope="module")
def reference():
    """Outputs of every case on QV100, lowered records."""
    return sass_compare.run_every_case("QV100", "lowered")[0]


def _every_kernel(config: str, records: str, reference) -> None:
    outs, rows = sass_compare.run_every_case(config, records)
    assert {r["kernel"] for r in rows} == KERNELS, records
    assert all(r["warp_instructions"] > 0 and r["cycles"] > 0 for r in rows), records
    for i, (a, b) in enumerate(zip(outs, reference, strict=True)):
        np.testing.assert_array_equal(a, b, err_msg=f"output {i} differs from QV100 lowered ({records})")


def _opt_in(configs, default: tuple[str, ...], what: str) -> list:
    """The configs in ``default`` run in the default suite, the rest with
    ACCELSIM_RUN_SLOW=1 (each config costs a few seconds per record mode)."""
    slow = [pytest.mark.slow, pytest.mark.skipif(os.environ.get("ACCELSIM_RUN_SLOW") != "1",
                                                 reason=f"set ACCELSIM_RUN_SLOW=1: {what} on every config")]
    return [c if c in default else pytest.param(c, marks=slow) for c in configs]


# one config per ISA table family the lowering resolves against (sm_35, sm_50,
# sm_60, sm_90); the others share those rows
LOWERED_DEFAULT = ("KEPLER_TITAN", "MAXWELL_TITANX", "PASCAL_TITANX", "H100")


@needs_ptxas
@pytest.mark.parametrize("config", _opt_in(list_configs(), LOWERED_DEFAULT, "lowered and PTX records"))
def test_every_example_kernel_lowered_and_ptx(config, reference):
    for records in ("lowered", "ptx"):
        _every_kernel(config, records, reference)


# SASS-guided: ptxas + nvdisasm once per SASS generation; the default suite runs
# a GPU older than nvdisasm's oldest target (sm_75 SASS on sm_52's GPU)
SASS_DEFAULT = ("MAXWELL_TITANX",)


@needs_sass_tools
@pytest.mark.parametrize("config", _opt_in(list_configs(), SASS_DEFAULT, "SASS-guided mode"))
def test_every_example_kernel_sass_guided(config, reference):
    _every_kernel(config, "sass", reference)


def test_arch_comes_from_the_config():
    assert Device("MAXWELL_TITANX").arch == 52
    assert Device("H100").arch == 90
    assert Device("KEPLER_TITAN", arch=70).arch == 70


SELECTS = """
.version 7.0
.target sm_50
.address_size 64
.visible .entry sel(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .f32 %f<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  brev.b32 %r2, %r1;
  setp.lt.u32 %p1, %r1, 16;
  cvt.rn.f32.u32 %f1, %r2;
  selp.f32 %f2, %f1, 0f3F800000, %p1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd1, %r1, 4;
  add.s64 %rd2, %rd2, %rd1;
  st.global.f32 [%rd2], %f2;
  ret;
}
"""


@pytest.mark.parametrize("config, expect, absent", [("MAXWELL_TITANX", {"SEL", "BFE"}, {"FSEL", "BREV"}),
                                                    ("QV100", {"FSEL", "BREV"}, set())])
def test_each_generation_lowers_with_its_own_opcodes(config, expect, absent):
    """selp.f32 is FSEL and brev BREV from Volta on; Maxwell has SEL and BFE."""
    from accelsim import _core
    from accelsim.ptx.save import opcode_names
    from accelsim.trace._records import RAW_DTYPE

    dev = Device(config, regs_per_thread=32)
    out = dev.zeros(32, np.float32)
    Module(SELECTS).get_function("sel")[1, 32](out)
    src = _core.PtxBlocks(dev._tables, dev._pending[-1], dev.arch, 32, 1)
    _, raw, _, _ = src.next_block()
    names = opcode_names(dev.arch)
    used = {names[int(r["opcode"])] for r in np.frombuffer(raw, dtype=RAW_DTYPE)}
    assert expect <= used and not absent & used, used
    dev.synchronize()
    t = np.arange(32, dtype=np.uint32)
    rev = np.array([int(f"{v:032b}"[::-1], 2) for v in t], dtype=np.float32)
    np.testing.assert_array_equal(out.copy_to_host(), np.where(t < 16, rev, np.float32(1)))


@needs_ptxas
def test_registers_come_from_ptxas_by_default():
    dev = Device("QV100")
    mod = Module(EXAMPLES / "more.ptx")
    a = dev.zeros(16 * 16, np.float32)
    mod.get_function("gemm")[(1, 1), (16, 16)](np.int32(16), np.int32(16), np.int32(16), np.float32(1),
                                                np.float32(0), a, a, a)
    assert dev._pending[-1]["regs"] != 32 and "ptxas" in dev._pending[-1]
    fixed = Device("QV100", regs_per_thread=32)
    b = fixed.zeros(16 * 16, np.float32)  # a launch runs on its arrays' device
    mod.get_function("gemm")[(1, 1), (16, 16)](np.int32(16), np.int32(16), np.int32(16), np.float32(1),
                                                np.float32(0), b, b, b)
    assert fixed._pending[-1]["regs"] == 32


def test_without_ptxas_32_registers_and_a_warning(monkeypatch):
    import accelsim.ptx.ptxas as ptxas

    monkeypatch.setattr(ptxas, "find_ptxas", lambda: None)
    with pytest.warns(AccelsimWarning, match="no ptxas found.*32 registers"):
        dev = Device("QV100")
    assert dev.regs_per_thread == 32 and not dev._ptxas
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Device("QV100", regs_per_thread=40)  # a count given: nothing to warn about
    assert accelsim  # the package import installs the one-line warning format
