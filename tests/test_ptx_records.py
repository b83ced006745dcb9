"""PTX mode's record choice (Device(records=...)): "ptx" records one
instruction per executed PTX instruction, classed and timed as GPGPU-Sim's
PTX mode does (config ptx_latency_* / ptx_initiation_*); a config's
opcode_units overrides reach PTX-mode records."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import _core
from accelsim.errors import ConfigError, PtxError
from accelsim.ptx import Device, Module
from accelsim.ptx.save import _opcode_names
from accelsim.studies.ptx_vs_sass import DIV_CHAIN
from accelsim.trace._records import RAW_DTYPE

EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"


# One instruction of each class (GPGPU-Sim's set_opcode_and_latency).
CLASSES = """
.version 7.0
.target sm_70
.address_size 64
.visible .entry classes(.param .u64 out)
{
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 3;
  mul.lo.s32 %r3, %r2, %r1;
  mad.lo.s32 %r3, %r3, %r1, %r2;
  mul24.lo.s32 %r4, %r1, %r2;
  div.u32 %r5, %r3, %r2;
  max.s32 %r5, %r5, %r4;
  shfl.sync.bfly.b32 %r5, %r5, 1, 31, -1;
  cvt.rn.f32.s32 %f1, %r5;
  add.f32 %f1, %f1, 0f3F800000;
  fma.rn.f32 %f2, %f1, %f1, %f1;
  sqrt.rn.f32 %f3, %f2;
  cvt.f64.f32 %fd1, %f3;
  mul.f64 %fd2, %fd1, %fd1;
  div.rn.f64 %fd3, %fd2, %fd1;
  cvta.to.global.u64 %rd2, %rd1;
  st.global.f64 [%rd2], %fd3;
  ret;
}
"""

UNIT = {"int": 2, "sp": 1, "dp": 3, "sfu": 4, "mem": 7, "exit": 8}
LAT = {"unit": 0, "alu": 1, "int_add": 2, "int_max": 3, "int_mul": 4, "int_mad": 5, "int_div": 6,
       "int_shfl": 7, "int_mul24": 8, "fp_add": 10, "fp_mad": 13, "dp_mul": 17, "dp_div": 19, "sfu": 20}


def _first_warp(dev: Device, version: int = 70) -> list[tuple[str, int, int]]:
    """(opcode, unit, latency class) of warp 0's records in the first block of
    the device's last queued launch, as the timing model would receive them."""
    launch = dev._pending[-1]
    src = _core.PtxBlocks(dev._tables, launch, version, 32, 1)
    _, raw, warp_begin, _ = src.next_block()
    recs = np.frombuffer(raw, dtype=RAW_DTYPE)[warp_begin[0]:warp_begin[1]]
    names = _opcode_names(version)
    return [(names[int(r["opcode"])], int(r["unit"]), int(r["lat_class"])) for r in recs]


def test_records_choice_is_checked():
    with pytest.raises(PtxError, match="records must be one of"):
        Device("QV100", records="sassy")


def test_each_ptx_instruction_gets_gpgpusim_class():
    dev = Device("QV100", records="ptx")
    out = dev.zeros(1, np.float64)
    Module(CLASSES).get_function("classes")[1, 32](out)
    got = _first_warp(dev)
    want = [  # (unit, class) per PTX instruction, in program order
        ("mem", "unit"),      # ld.param: the constant bank, as GPGPU-Sim executes it
        ("int", "alu"),       # mov %tid
        ("int", "int_add"), ("int", "int_mul"), ("int", "int_mad"), ("int", "int_mul24"),
        ("sfu", "int_div"),   # integer division runs on the SFU
        ("int", "int_max"), ("int", "int_shfl"),
        ("int", "alu"),       # cvt
        ("sp", "fp_add"), ("sp", "fp_mad"), ("sfu", "sfu"),
        ("int", "alu"), ("dp", "dp_mul"), ("sfu", "dp_div"),
        ("int", "alu"),       # cvta
        ("mem", "unit"), ("exit", "unit"),
    ]
    assert [(u, c) for _, u, c in got] == [(UNIT[u], LAT[c]) for u, c in want]
    assert got[0][0] == "LDC" and got[-2][0] == "STG" and got[-1][0] == "EXIT"
    assert got[10][0] == "FADD"  # named after the lowering's SASS opcode


def test_lowered_mode_is_unchanged_default():
    dev = Device("QV100")
    out = dev.zeros(1, np.float64)
    Module(CLASSES).get_function("classes")[1, 32](out)
    got = _first_warp(dev)
    assert all(c == 0 for _, _, c in got)
    assert len(got) > 19 and "LDC" not in [n for n, _, _ in got]  # ld.param records nothing


def _chain_cycles(records: str, **cfg) -> tuple[int, int, float]:
    config = accelsim.load_config("QV100").with_overrides(cfg) if cfg else "QV100"
    dev = Device(config, records=records)
    out = dev.zeros(1, np.float32)
    Module(DIV_CHAIN).get_function("chain")[1, 32](out, np.int32(40))
    res = dev.synchronize()
    return int(res.kernels["warp_instructions"].sum()), int(res.total_cycles), float(out.copy_to_host()[0])


def test_ptx_latency_reaches_the_sm():
    n_ptx, base, value = _chain_cycles("ptx")
    assert value == 2.0 ** 40
    # 2 ld.param + 2 mov + 40 x 4 loop + cvta + st + ret: one record per PTX instruction
    assert n_ptx == 2 + 2 + 40 * 4 + 3
    _, slow, _ = _chain_cycles("ptx", ptx_latency_fp_div=139)
    # each of the 40 dependent divisions waits 100 cycles more
    assert slow - base == pytest.approx(40 * 100, rel=0.05)
    n_low, low, _ = _chain_cycles("lowered", ptx_latency_fp_div=139)
    _, low_base, _ = _chain_cycles("lowered")
    assert low == low_base and n_low != n_ptx  # lowered records ignore the PTX classes


def test_ptx_latency_keys_are_validated():
    with pytest.raises(ConfigError, match="ptx_latency_sfu"):
        accelsim.load_config("QV100").with_overrides({"ptx_latency_sfu": 0})
    q = accelsim.load_config("QV100")
    assert (q.ptx_latency_fp_div, q.ptx_initiation_dp_div, q.ptx_latency_int_shfl) == (39, 130, 21)


@pytest.mark.parametrize("records", ["lowered", "ptx"])
def test_kernels_compute_the_same_in_both_modes(records):
    more = Module(EXAMPLES / "more.ptx")
    dev = Device("QV100", records=records)
    x = np.linspace(-3, 3, 1024)
    dx, ds, dc = dev.to_device(x), dev.zeros(1024, np.float64), dev.zeros(1024, np.float64)
    more.get_function("sincos_f64")[4, 256](dx, ds, dc, np.int32(1024))
    assert np.allclose(ds.copy_to_host(), np.sin(x), rtol=0, atol=1e-15)
    assert dev.synchronize().completed


@pytest.mark.parametrize("records", ["lowered", "ptx"])
def test_opcode_units_override_reaches_ptx_records(records):
    """A config's opcode_units moves an opcode to another unit class in PTX
    mode as in trace replay: here STG (a memory store) is sent to the sfu."""
    cfg = accelsim.load_config("QV100").with_overrides({"opcode_units": {"STG": "sfu"}})
    dev = Device(cfg, records=records)
    out = dev.zeros(1, np.float64)
    Module(CLASSES).get_function("classes")[1, 32](out)
    stores = [u for n, u, _ in _first_warp(dev) if n == "STG"]
    assert stores == [UNIT["sfu"]]
    plain = Device("QV100", records=records)
    plain.zeros(1, np.float64)
    Module(CLASSES).get_function("classes")[1, 32](plain.zeros(1, np.float64))
    assert [u for n, u, _ in _first_warp(plain) if n == "STG"] == [UNIT["mem"]]
