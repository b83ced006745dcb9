"""PTX mode under the trace runs' contract (docs/run_control.md): a Device's
runs (synchronize, synchronous copies, save_trace) honour a cycle budget,
on_progress, a progress bar and Ctrl-C, and so does emulation itself: a block
that loops for ever stops at the budget or within a second of Ctrl-C, not
after max_warp_insts warp instructions. Interrupts are sent once the run has
reported progress (a real sign that it is simulating), never after a fixed
sleep."""
from __future__ import annotations

import _thread
import time

import numpy as np
import pytest

import accelsim
from accelsim import Interrupted, PtxError, RunStopped
from accelsim.ptx import Device, Module

HEAD = ".version 8.0\n.target sm_75\n.address_size 64\n"

# Warp 0 waits at a barrier that warp 1, looping for ever, never reaches: the
# emulator runs warp 1 on toward that barrier, outside any simulated cycle.
BARRIER_SPIN = HEAD + """
.visible .entry spin(.param .u64 out)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<4>;
\tmov.u32 %r1, %tid.x;
\tsetp.ge.u32 %p1, %r1, 32;
\t@%p1 bra $L_loop;
\tbar.sync 0;
\tret;
$L_loop:
\tadd.u32 %r2, %r2, 1;
\tbra $L_loop;
}
"""

# Every warp loops for ever, reading no memory.
ENDLESS = HEAD + """
.visible .entry endless(.param .u64 out)
{
\t.reg .b32 %r<4>;
$L_loop:
\tadd.u32 %r2, %r2, 1;
\tbra $L_loop;
}
"""

# A finite kernel: each thread adds 1 to its element n times.
COUNT = HEAD + """
.visible .entry count(.param .u64 out, .param .u32 n)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<6>;
\t.reg .b64 %rd<4>;
\tld.param.u64 %rd1, [out];
\tld.param.u32 %r1, [n];
\tcvta.to.global.u64 %rd1, %rd1;
\tmov.u32 %r2, %tid.x;
\tmul.wide.u32 %rd2, %r2, 4;
\tadd.u64 %rd3, %rd1, %rd2;
\tmov.u32 %r3, 0;
$L_loop:
\tadd.u32 %r3, %r3, 1;
\tsetp.lt.u32 %p1, %r3, %r1;
\t@%p1 bra $L_loop;
\tst.global.u32 [%rd3], %r3;
\tret;
}
"""

NO_LIMIT = 1 << 50  # max_warp_insts: only the budget or Ctrl-C can end a spin


def _queue(dev: Device, src: str, name: str, grid, block) -> accelsim.ptx.DeviceArray:
    out = dev.zeros(1024, np.uint32)
    Module(src, name=f"{name}.ptx").get_function(name)[grid, block](out)
    return out


class _InterruptWhenRunning:
    """on_progress that sends this process Ctrl-C once the run has reported
    progress ``after`` times (so the core is simulating, or emulating), and
    remembers when, in CPU time: the stop-within-a-second checks must not
    fail because a loaded machine gave the run less of a core."""

    def __init__(self, after: int = 2):
        self.after, self.calls, self.fired = after, 0, 0.0

    def __call__(self, p: accelsim.Progress) -> bool:
        self.calls += 1
        if self.calls == self.after:
            self.fired = time.process_time()
            _thread.interrupt_main()
        return False


@pytest.mark.parametrize("chunk", [128, 0])
def test_ctrl_c_stops_an_endless_emulation_within_a_second(chunk):
    dev = Device("QV100", max_warp_insts=NO_LIMIT, record_chunk=chunk)
    _queue(dev, BARRIER_SPIN, "spin", 1, 64)
    hook = _InterruptWhenRunning()
    with pytest.raises(Interrupted) as stop:
        dev.synchronize(on_progress=hook, progress=False)
    assert hook.fired and time.process_time() - hook.fired < 1.0
    r = stop.value.result
    assert isinstance(stop.value, KeyboardInterrupt)
    assert r.interrupted and not r.completed
    assert list(r.kernels.status) == ["cut_off"]
    assert dev.results[-1] is r


def test_budget_stops_an_endless_emulation():
    """The warp run on toward the barrier is emulated only as far as the
    budget could time, so the run ends at the budget, quickly."""
    dev = Device("QV100", max_warp_insts=NO_LIMIT)
    _queue(dev, BARRIER_SPIN, "spin", 1, 64)
    t0 = time.process_time()  # CPU time: a loaded machine does not make it grow
    r = dev.synchronize(max_cycles=20000, progress=False)
    assert time.process_time() - t0 < 20
    assert not r.completed and not r.interrupted
    assert r.total_cycles == 20000
    assert list(r.kernels.status) == ["cut_off"] and r.kernels.warp_instructions[0] > 0


def test_device_budget_applies_to_every_run_and_synchronize_overrides_it():
    dev = Device("QV100", max_warp_insts=NO_LIMIT, max_cycles=5000)
    _queue(dev, ENDLESS, "endless", 2, 64)
    r = dev.synchronize(progress=False)
    assert (r.completed, r.total_cycles, list(r.kernels.status)) == (False, 5000, ["cut_off"])
    _queue(dev, ENDLESS, "endless", 2, 64)
    r = dev.synchronize(max_cycles=8000, progress=False)
    assert r.total_cycles == 8000
    out = dev.zeros(64, np.uint32)
    Module(COUNT, name="count.ptx").get_function("count")[1, 64](out, np.uint32(3))
    r = dev.synchronize(max_cycles=None)  # no budget for this run
    assert r.completed and (out.copy_to_host() == 3).all()


def test_budget_lists_cut_off_and_not_reached_kernels():
    dev = Device("QV100")
    out = dev.zeros(64, np.uint32)
    k = Module(COUNT, name="count.ptx").get_function("count")
    for _ in range(3):
        k[4, 64](out, np.uint32(2000))
    r = dev.synchronize(max_cycles=3000, progress=False)
    assert not r.completed
    assert list(r.kernels.status) == ["cut_off", "not_reached", "not_reached"]
    assert list(r.kernels.skipped) == [False, True, True]
    # the queue was consumed; the next run starts on a fresh GPU and completes
    k[1, 64](out, np.uint32(5))
    r = dev.synchronize()
    assert r.completed and (out.copy_to_host() == 5).all()


def test_synchronous_copy_after_a_cut_run_raises_run_stopped():
    dev = Device("QV100", max_warp_insts=NO_LIMIT, max_cycles=4000)
    out = _queue(dev, ENDLESS, "endless", 1, 32)
    with pytest.raises(RunStopped, match="cycle budget") as e:
        out.copy_to_host()
    assert e.value.result is dev.results[-1] and not e.value.result.completed


def test_ctrl_c_in_a_synchronous_copy_raises_interrupted():
    dev = Device("QV100", max_warp_insts=NO_LIMIT, on_progress=_InterruptWhenRunning())
    out = _queue(dev, ENDLESS, "endless", 1, 32)
    with pytest.raises(Interrupted) as stop:
        out.copy_to_host()
    assert stop.value.result.interrupted


def test_on_progress_true_stops_and_sees_the_ptx_run():
    dev = Device("QV100", max_warp_insts=NO_LIMIT)
    _queue(dev, ENDLESS, "endless", 2, 64)
    seen: list[accelsim.Progress] = []
    r = dev.synchronize(on_progress=lambda p: seen.append(p) or len(seen) >= 4, progress=False)
    assert r.interrupted and not r.completed and list(r.kernels.status) == ["cut_off"]
    assert seen[-1].kernels_total == 1 and seen[-1].warp_instructions > 0
    assert [p.cycles for p in seen] == sorted(p.cycles for p in seen)


def test_progress_bar_for_a_long_ptx_run(capsys):
    dev = Device("QV100", max_warp_insts=NO_LIMIT)
    _queue(dev, ENDLESS, "endless", 2, 64)
    dev.synchronize(progress=True, on_progress=lambda p: p.elapsed_s > 2.6)
    err = capsys.readouterr().err
    assert "PTX run" in err and "cycle" in err


def test_save_trace_of_an_endless_kernel_stops_on_ctrl_c(tmp_path):
    """Ctrl-C inside a block's emulation (it never ends by itself): the
    kernels written whole stay listed and replay."""
    dev = Device("QV100", max_warp_insts=NO_LIMIT)
    out = dev.zeros(64, np.uint32)
    Module(COUNT, name="count.ptx").get_function("count")[1, 64](out, np.uint32(3))
    _queue(dev, BARRIER_SPIN, "spin", 1, 64)
    hook = _InterruptWhenRunning(after=3)  # the first report comes after kernel 1's block
    with pytest.raises(Interrupted) as stop:
        dev.save_trace(tmp_path / "trace", on_progress=hook, progress=False)
    assert hook.calls == 3
    assert hook.fired and time.process_time() - hook.fired < 1.0
    klist = stop.value.result
    assert klist.read_text() == "kernel-1.traceg\n"
    assert not (tmp_path / "trace" / "kernel-2.traceg").exists()
    assert accelsim.Simulator("QV100").run(klist, progress=False).completed


def test_save_trace_stopped_by_on_progress(tmp_path):
    dev = Device("QV100", max_warp_insts=NO_LIMIT)
    out = dev.zeros(64, np.uint32)
    k = Module(COUNT, name="count.ptx").get_function("count")
    for _ in range(40):
        k[64, 64](out, np.uint32(200))
    with pytest.raises(RunStopped, match="on_progress stopped it after") as stop:
        dev.save_trace(tmp_path / "trace", on_progress=lambda p: p.warp_instructions > 0, progress=False)
    assert stop.value.result.name == "kernelslist.g"


def test_endless_loop_without_a_budget_is_an_error_saying_why():
    dev = Device("QV100", max_warp_insts=4000)
    _queue(dev, ENDLESS, "endless", 1, 32)
    with pytest.raises(PtxError, match="an endless loop: the loop at PTX lines 9-10 reads no memory") as e:
        dev.synchronize()
    assert "not emulated yet" not in str(e.value)
    dev = Device("QV100", max_warp_insts=4000)
    _queue(dev, BARRIER_SPIN, "spin", 1, 64)
    with pytest.raises(PtxError, match=r"barrier deadlock\? warp\(s\) 0 of the block wait at the barrier at PTX "
                                       r"line 12") as e:
        dev.synchronize()
    assert "not emulated yet" not in str(e.value)


def test_run_settings_are_checked():
    with pytest.raises(accelsim.ConfigError, match="max_cycles"):
        Device("QV100", max_cycles=-1)
    with pytest.raises(accelsim.ConfigError, match="max_warp_insts"):
        Device("QV100", max_warp_insts=-1)
    with pytest.raises(PtxError, match="on_progress must be a callable"):
        Device("QV100", on_progress=3)
    dev = Device("QV100")
    _queue(dev, COUNT.replace("count(.param .u64 out, .param .u32 n)", "count(.param .u64 out)")
           .replace("ld.param.u32 %r1, [n];", "mov.u32 %r1, 2;"), "count", 1, 32)
    with pytest.raises(accelsim.ConfigError, match="max_cycles"):
        dev.synchronize(max_cycles="soon")
