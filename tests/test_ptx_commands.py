"""The typed seam between accelsim.ptx.Device and the C++ run: launches and
copies are classes built from named, typed keyword arguments (a misspelt,
missing or positional argument is an error, not a silently ignored key), each
value converted once; Device reads what it needs from Simulator's public
API, not its private fields."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim import _core
from accelsim.ptx import Device, Module

STORE = """
.version 7.0
.target sm_70
.address_size 64
.visible .entry store(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
"""


def _launch(dev: Device, **changes):
    mod = Module(STORE)
    out = dev.zeros(32, np.uint32)
    args = dict(module=mod._core, kernel="store", grid=(1, 1, 1), block=(32, 1, 1), memory=dev._mem,
                params=np.uint64(out.ptr).tobytes(), sm_count=dev.sm_count)
    args.update(changes)
    return _core.PtxLaunch(**args), out


def test_a_launch_runs_from_its_typed_command_and_reads_back():
    dev = Device("QV100")
    launch, out = _launch(dev, stream=0)
    assert (launch.kernel, launch.grid, launch.block, launch.stream) == ("store", (1, 1, 1), (32, 1, 1), 0)
    assert launch.records == _core.RecordMode.lowered and launch.sass_source is None
    host = np.zeros(32, np.uint32)
    copy = _core.PtxCopy(address=out.ptr, bytes=host.nbytes, to_host=True, memory=dev._mem, host=host)
    run = _core.start_ptx(dev._tables, [launch, copy], dev.arch, dev.sim.session())
    while run.step():
        pass
    res = run.result()
    assert res["completed"] and res["kernels"]["name"] == ["store"]
    assert host.tolist() == list(range(32))


def test_misspelt_missing_or_positional_arguments_are_errors():
    dev = Device("QV100")
    with pytest.raises(TypeError):
        _launch(dev, strem=1)  # misspelt: not ignored
    with pytest.raises(TypeError):
        _core.PtxLaunch(kernel="store", grid=(1, 1, 1), block=(1, 1, 1), memory=dev._mem)  # no module
    with pytest.raises(TypeError):
        _core.PtxCopy(0x1000, 16)  # keywords only
    with pytest.raises(TypeError):
        _core.PtxCopy(address=0x1000, bytes=16, to_hots=True)
    with pytest.raises(TypeError):
        _launch(dev, grid=(1, 1))  # a grid is three numbers
    with pytest.raises(TypeError):
        _launch(dev, records="ptx")  # a RecordMode, converted once by Device


def test_copy_arguments_are_checked_once_where_they_are_made():
    with pytest.raises(ValueError, match="not `bytes` long"):
        _core.PtxCopy(address=0x1000, bytes=16, data=b"\0" * 8)
    with pytest.raises(ValueError, match="device-to-host"):
        _core.PtxCopy(address=0x1000, bytes=16, host=np.zeros(4, np.uint32))
    with pytest.raises(ValueError, match="fewer than"):
        _core.PtxCopy(address=0x1000, bytes=64, to_host=True, host=np.zeros(4, np.uint32))


def test_start_ptx_takes_commands_only():
    dev = Device("QV100")
    with pytest.raises(TypeError, match="PtxLaunch or PtxCopy, not dict"):
        _core.start_ptx(dev._tables, [{"address": 0, "copy_bytes": 4}], dev.arch, dev.sim.session())


def test_simulator_exposes_what_a_device_needs():
    sim = accelsim.Simulator("QV100")
    cfg = accelsim.load_config("QV100")
    assert sim.sm_count == cfg.sm_count and sim.param("dram_capacity") == cfg.dram_capacity
    assert sim.opcode_units == dict(cfg.opcode_units or {})
    assert accelsim.Simulator().sm_count > 0  # defaults included
    with pytest.raises(accelsim.ConfigError, match="unknown config key"):
        sim.param("no_such_key")
    session = sim.session()
    assert session.now == 0 and session.resets == 0


def test_the_ptx_front_end_reads_no_private_field_of_the_simulator():
    # Device's simulator is `self.sim`; nothing in accelsim/ptx reads `<x>.sim._<name>`.
    root = Path(accelsim.__file__).parent / "ptx"
    found = []
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                    and isinstance(node.value, ast.Attribute) and node.value.attr == "sim":
                found.append(f"{path.name}:{node.lineno} .sim.{node.attr}")
    assert not found, found
