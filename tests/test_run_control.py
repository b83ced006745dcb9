"""Run control as a user meets it: addresses at the top of the 64-bit range,
runs that never ended (non-sectored L1D, huge copies), the cycle budget,
Ctrl-C from the CLI and in-process, and progress reports."""
from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import accelsim
from accelsim import Interrupted, Simulator, TraceError
from accelsim.tracegen import write_workload
from accelsim.tracegen.examples import vecadd_kernel, write_vecadd
from accelsim.tracegen.model import Inst, Kernel, Memcpy, ThreadBlock

TB = 1 << 40  # the 1 TB copy of the issue


def cli(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True, text=True,
                          timeout=kw.pop("timeout", 120), **kw)


def _cpu_s() -> float:
    """CPU seconds used so far by this process and its finished children.
    Bounds that guard against runaway work are in CPU time: unlike wall time
    it does not grow when a loaded machine gives the run less of a core."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_load_kernel() -> Kernel:
    ldg = Inst("LDG.E", mask=1, dst=2, srcs=[2], addrs=[0x1000])
    return Kernel("one_load", (1, 1, 1), (32, 1, 1), [ThreadBlock(warps=[[ldg, Inst("EXIT")]])])


# ---- §0: addresses at the top of the 64-bit range ---------------------------------

@pytest.mark.parametrize("mode, old, new", [
    (0, " 0 0x0000000000001000 ", " 0 0xfffffffffffffff0 "),   # one LDG at the top
    (1, " 1 0x1000 0 ", " 1 0x10 -1 "),                          # base 0x10, stride -1
])
def test_wrapping_address_is_a_trace_error(tmp_path, mode, old, new):
    listing = write_workload(tmp_path, [one_load_kernel()], address_mode=mode)
    trace = tmp_path / "kernel-1.traceg"
    text = trace.read_text()
    if old not in text:  # the writer's spelling of the address field
        old = old.replace("0x0000000000001000", "0x1000")
    # mode 1 needs every lane active for stride -1 to wrap below 0
    text = text.replace(old, new)
    if mode == 1:
        text = text.replace("00000001 1 R2 LDG", "ffffffff 1 R2 LDG")
    trace.write_text(text)
    with pytest.raises(TraceError) as err:
        Simulator("QV100").run(listing)
    assert err.value.field == "mem_addresses"
    assert err.value.line and err.value.path.endswith("kernel-1.traceg")
    run = cli("run", str(listing), "--quiet")
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "mem_addresses" in lines[0] and "kernel-1.traceg" in lines[0], run.stderr


def test_copy_beyond_the_address_space_is_a_trace_error(tmp_path):
    listing = write_workload(tmp_path, [Memcpy(0xFFFFFFFFFFFFF000, 8192), vecadd_kernel(64, 32)])
    with pytest.raises(TraceError) as err:
        Simulator("QV100").run(listing)
    assert err.value.field == "MemcpyHtoD" and err.value.line == 1


# ---- §1: the cycle budget holds everywhere ------------------------------------------

def test_budget_stops_a_64mb_copy_and_nothing_wraps(tmp_path):
    listing = write_workload(tmp_path, [Memcpy(0x7F0000000000, 64 << 20), vecadd_kernel(256, 64),
                                        vecadd_kernel(256, 64)])
    t0 = _cpu_s()
    r = Simulator("QV100").run(listing, max_cycles=1000, progress=False)
    assert _cpu_s() - t0 < 10
    assert not r.completed and not r.interrupted
    assert r.total_cycles == 1000
    k = r.kernels
    assert list(k.status) == ["not_reached", "not_reached"]
    assert (k.cycles <= 1000).all() and (k.cycles >= 0).all()
    assert k.skipped.all()


def test_budget_cuts_a_kernel_and_lists_the_rest(tmp_path):
    second = vecadd_kernel(256, 64)
    second.id = 2
    listing = write_workload(tmp_path, [vecadd_kernel(65536, 256), second])
    r = Simulator("QV100").run(listing, max_cycles=6000, kernels=None, progress=False)
    assert r.total_cycles == 6000 and not r.completed
    k = r.kernels
    assert list(k.status) == ["cut_off", "not_reached"]
    assert k.cycles.max() <= 6000
    assert r.kernels.warp_instructions[0] > 0
    # Not selected is told apart from not reached.
    r2 = Simulator("QV100").run(listing, max_cycles=6000, kernels="2", progress=False)
    assert list(r2.kernels.status) == ["not_selected", "cut_off"] or \
        list(r2.kernels.status) == ["not_selected", "simulated"]


def test_terabyte_copy_stops_at_the_budget(tmp_path):
    listing = write_workload(tmp_path, [Memcpy(0x7F0000000000, TB), vecadd_kernel(64, 32)])
    t0 = _cpu_s()
    run = cli("run", str(listing), "--max-cycles", "100000", "--quiet", timeout=300)
    assert _cpu_s() - t0 < 30
    assert run.returncode == 0, run.stderr
    assert "stopped" in run.stdout and "not_reached" in run.stdout


# ---- §1: a run that never ended (non-sectored L1D) ----------------------------------

def test_non_sectored_l1d_ends_within_the_budget(tmp_path):
    """Spun forever at 100% CPU. Now it ends, either with a result or with a
    DeadlockError from the livelock watchdog (which, depends on the cache model)."""
    listing = write_vecadd(tmp_path / "va", n=4096)
    t0 = _cpu_s()
    proc = cli("run", str(listing), "--set", "l1d_sector=128 B", "--max-cycles", "3000000",
               "--quiet", timeout=600)
    assert _cpu_s() - t0 < 120
    assert proc.returncode in (0, 1), proc.stderr
    if proc.returncode == 1:
        assert "livelock" in proc.stderr or "deadlock" in proc.stderr, proc.stderr
        assert "sm[" in proc.stderr  # names what waits


# ---- §1: Ctrl-C ------------------------------------------------------------------------

# `accelsim run` as the console script runs it, with one addition: the run's
# progress poll writes "started" to a pipe once the run has simulated for
# ARGV[2] seconds of its own clock. Tests send Ctrl-C on that event, never after
# a fixed sleep (which on a loaded machine can land during the imports).
_CLI_REPORTING_START = """
import os, sys
import accelsim.sim
fd, after_s = int(sys.argv[1]), float(sys.argv[2])
plain_run = accelsim.sim.Simulator.run
def run(self, *args, **kwargs):
    told = []
    def hook(p):
        if not told and p.cycles > 0 and p.elapsed_s >= after_s:
            told.append(True)
            os.write(fd, b"started\\n")
    kwargs["on_progress"] = hook
    return plain_run(self, *args, **kwargs)
accelsim.sim.Simulator.run = run
from accelsim.cli import main
sys.exit(main(sys.argv[3:]))
"""


def _start_cli_run(args, after_s: float = 0.0, **popen):
    """`accelsim run ARGS` in a child; returns it once it has simulated for
    ``after_s`` seconds (its own clock)."""
    import select

    read_end, write_end = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", _CLI_REPORTING_START, str(write_end),
                             str(after_s), "run", *args], pass_fds=(write_end,), **popen)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 300)
        started = bool(ready) and os.read(read_end, 100) == b"started\n"
    finally:
        os.close(read_end)
    if not started:  # it ended (or hung) before simulating: show why
        proc.kill()
        raise AssertionError(f"the run never started: {proc.communicate()}")
    return proc


def _proc_cpu_s(pid: int) -> float:
    """CPU seconds process ``pid`` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu_s() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _sigint_child(args):
    """Starts `accelsim run ARGS`, sends SIGINT once it is simulating; returns
    exit status, stdout, stderr and the CPU seconds the child used from SIGINT
    to its exit. (CPU, not wall, time: on a loaded machine a child that stops
    at once can still wait seconds for a core to finish on; one that went on
    simulating would use CPU time.)"""
    before = _children_cpu_s()
    proc = _start_cli_run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.poll() is None, proc.communicate()
    # Read after sending: read before, a test process descheduled between the
    # two (a loaded machine) would charge the child's pre-signal work to it.
    proc.send_signal(signal.SIGINT)
    at_sigint = _proc_cpu_s(proc.pid)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err, _children_cpu_s() - before - at_sigint


def test_ctrl_c_stops_a_terabyte_copy_from_the_cli(tmp_path):
    listing = write_workload(tmp_path, [Memcpy(0x7F0000000000, TB), vecadd_kernel(64, 32)])
    rc, out, err, took = _sigint_child([str(listing), "--quiet"])
    assert rc == 130, err
    assert took < 1.0, took
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted at cycle" in lines[0], err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def long_run(tmp_path_factory) -> Path:
    """A workload of minutes that is almost all inside kernels of seconds each:
    one 262144-thread vecadd trace (5 MB) listed 100 times."""
    folder = tmp_path_factory.mktemp("long")
    write_workload(folder, [vecadd_kernel(262144, 256)])
    (folder / "kernelslist.g").write_text("kernel-1.traceg\n" * 100)
    return folder / "kernelslist.g"


def test_ctrl_c_stops_a_kernel_from_the_cli(long_run):
    rc, out, err, took = _sigint_child([str(long_run), "--quiet"])
    assert rc == 130, err
    assert took < 1.0, took
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted at cycle" in lines[0], err


def test_keyboard_interrupt_inside_a_kernel(long_run):
    stop_it = _Interrupter(lambda p: p.warp_instructions > 0 and p.kernels_done == 0, "interrupt_main")
    with pytest.raises(Interrupted) as stop:
        Simulator("QV100").run(long_run, progress=False, on_progress=stop_it.hook, threads=1)
    assert stop_it.cpu_since_sent() < 1.0
    r = stop.value.result
    status = list(r.kernels.status)
    # Almost always inside a kernel; on a loaded machine the signal can land in
    # the instant Python spends between two kernels, which cuts none off.
    cut_off = status.count("cut_off")
    assert cut_off <= 1
    assert status.count("not_reached") == 100 - cut_off - status.count("simulated")
    if cut_off:
        cut = r.kernels[r.kernels.status == "cut_off"].iloc[0]
        assert 0 < cut.cycles <= r.total_cycles and cut.warp_instructions > 0


def test_notebook_interrupt_stops_a_run(long_run):
    """The notebook's Interrupt button (SIGINT to the kernel): the cell ends
    within a second with accelsim.Interrupted, the partial result kept."""
    manager = pytest.importorskip("jupyter_client.manager")
    km, kc = manager.start_new_kernel(kernel_name="python3")
    try:
        # The cell says when it is simulating (its first progress poll inside a
        # kernel); the test interrupts on that message, not after a fixed sleep.
        code = ("import accelsim, os, time\n"
                "told = []\n"
                "def started(p):\n"
                "    if not told and p.warp_instructions > 0:\n"
                "        told.append(True)\n"
                "        print('SIMULATING', os.getpid(), flush=True)\n"
                "try:\n"
                f"    accelsim.Simulator('QV100').run({str(long_run)!r}, on_progress=started,\n"
                "                                    threads=1)\n"
                "except accelsim.Interrupted as stop:\n"
                "    stopped_at = time.process_time()\n"
                "    partial = stop.result\n"
                "    raise\n")
        msg_id = kc.execute(code)
        while True:
            msg = kc.get_iopub_msg(timeout=300)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            text = msg["content"].get("text", "")
            if "SIMULATING" in text:
                kernel_pid = int(text.split()[1])
                break
            assert msg["msg_type"] != "error", msg["content"]
        km.interrupt_kernel()
        sent = _proc_cpu_s(kernel_pid)  # the kernel's CPU time, read after (see _sigint_child)
        while True:
            reply = kc.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "Interrupted", reply["content"]
        seen: list[str] = []
        check = kc.execute_interactive(
            "print(partial.interrupted, list(partial.kernels.status).count('cut_off'), stopped_at)",
            timeout=30, output_hook=lambda m: seen.append(m["content"].get("text", "")))
        assert check["content"]["status"] == "ok"
        interrupted, cut, stopped_at = "".join(seen).split()
        # Inside a kernel but for the instant between two of them (as in-process).
        assert interrupted == "True" and cut in ("0", "1")
        # The run stopped within a CPU second (the reply's traceback comes after);
        # /proc counts in clock ticks, hence the tick of slack.
        assert float(stopped_at) - sent < 1.0 + 1.0 / os.sysconf("SC_CLK_TCK")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


class _Interrupter:
    """Once the run's progress meets ``condition`` (``hook`` is its on_progress),
    a helper thread sends this process a KeyboardInterrupt, as Ctrl-C would
    arrive: from outside the run loop."""

    def __init__(self, condition, how: str):
        self.condition, self.how = condition, how
        self.reached = threading.Event()
        self.sent_cpu_s = -1.0
        self.thread = threading.Thread(target=self._fire, daemon=True)
        self.thread.start()

    def _fire(self):
        if not self.reached.wait(300):
            return
        if self.how == "interrupt_main":
            _thread.interrupt_main()
        else:
            os.kill(os.getpid(), signal.SIGINT)
        self.sent_cpu_s = time.process_time()  # CPU time, read after: see _sigint_child

    def hook(self, progress):
        if self.condition(progress):
            self.reached.set()

    def cpu_since_sent(self) -> float:
        """CPU seconds this process used since the interrupt (the run can end
        before the thread reads the clock: wait for it)."""
        self.thread.join(30)
        assert self.sent_cpu_s >= 0, "never interrupted"
        return time.process_time() - self.sent_cpu_s


@pytest.mark.parametrize("how", ["interrupt_main", "os.kill"])
def test_keyboard_interrupt_in_process_leaves_a_partial_result(tmp_path, how):
    listing = write_workload(tmp_path, [vecadd_kernel(256, 64), Memcpy(0x7F0000000000, TB),
                                        vecadd_kernel(256, 64)])
    stop_it = _Interrupter(lambda p: p.copying and p.kernels_done == 1, how)  # in the copy
    with pytest.raises(Interrupted) as stop:
        Simulator("QV100").run(listing, progress=False, on_progress=stop_it.hook, threads=1)
    assert stop_it.cpu_since_sent() < 1.0
    assert isinstance(stop.value, KeyboardInterrupt)
    r = stop.value.result
    assert r.interrupted and not r.completed
    assert list(r.kernels.status) == ["simulated", "not_reached"]
    assert r.kernels.warp_instructions[0] > 0
    assert r.total_cycles > 0


# ---- §2: progress ---------------------------------------------------------------------

def test_on_progress_reports_from_the_same_poll(tmp_path):
    listing = write_workload(tmp_path, [vecadd_kernel(256, 64), Memcpy(0x7F0000000000, TB)])
    seen: list[accelsim.Progress] = []

    def stop_after_a_while(p):
        seen.append(p)
        return len(seen) >= 8  # True stops the run (not an interrupt)

    r = Simulator("QV100").run(listing, on_progress=stop_after_a_while, progress=False)
    assert len(seen) >= 8
    last = seen[-1]
    assert isinstance(last, accelsim.Progress)
    assert last.kernels_total == 1 and last.kernels_done == 1
    assert last.copying and last.cycles > 0 and last.warp_instructions > 0
    assert last.warp_instructions_per_s > 0
    assert [p.cycles for p in seen] == sorted(p.cycles for p in seen)
    assert not r.completed and r.interrupted


def test_progress_bar_only_when_asked_and_long(tmp_path, capsys, monkeypatch):
    import accelsim.progress

    listing = write_workload(tmp_path, [vecadd_kernel(256, 64), Memcpy(0x7F0000000000, TB)])
    # "short" is relative to the bar's delay, which a loaded machine must not
    # reach during this small run: stretch the delay for it, not the run
    with monkeypatch.context() as m:
        m.setattr(accelsim.progress, "BAR_DELAY_S", 3600.0)
        Simulator("QV100").run(listing, max_cycles=200000, progress=True)  # short: no bar
    assert capsys.readouterr().err == ""
    seen = []
    r = Simulator("QV100").run(listing, progress=True,
                               on_progress=lambda p: seen.append(p) or p.elapsed_s > 2.6)
    err = capsys.readouterr().err
    assert "simulating" in err and "kernel" in err and "cycle" in err
    assert r.interrupted
    # piped (as here) with automatic choice: no bar
    from accelsim.progress import want_bar
    assert want_bar(None) is False


def test_progress_inside_a_kernel_counts_its_ctas(long_run):
    """Each kernel of long_run takes seconds: polls inside the first one see
    its CTAs finish (1024 in all), in order, before the kernel ends."""
    seen: list[accelsim.Progress] = []

    def until_some_ctas_done(p):
        seen.append(p)
        return p.ctas_done > 0 or p.kernels_done > 0
    r = Simulator("QV100").run(long_run, progress=False, on_progress=until_some_ctas_done)
    assert r.interrupted
    inside = [p for p in seen if p.kernels_done == 0 and p.ctas_total]
    assert inside and all(p.ctas_total == 1024 for p in inside)
    assert 0 < inside[-1].ctas_done < 1024
    done = [p.ctas_done for p in inside]
    assert done == sorted(done)


def test_single_kernel_bar_shows_ctas_and_several_kernels_show_them_beside(capsys):
    from accelsim.progress import BAR_DELAY_S, ProgressReporter

    def poll(reporter, **raw):
        reporter.start -= BAR_DELAY_S + 1  # as if the run had lasted long enough for a bar
        reporter({"cycles": 5000, "warp_instructions": 100, "copying": False, **raw})
        reporter.close()
        return capsys.readouterr().err

    one = poll(ProgressReporter(bar=True), kernels_done=0, kernels_total=1, ctas_done=300,
               ctas_total=1024)
    assert "300/1024" in one and "CTA" in one, one
    several = poll(ProgressReporter(bar=True), kernels_done=2, kernels_total=5, ctas_done=30,
                   ctas_total=80)
    assert "2/5" in several and "kernel" in several and "CTAs 30/80" in several, several


def test_terabyte_copy_on_the_simple_memory_model_is_quick(tmp_path):
    """The simple model times copies at zero cycles but warmed L2 line by line:
    a 1 TB copy was 8 G lookups. Now it warms only what can stay in L2."""
    listing = write_workload(tmp_path, [Memcpy(0x7F0000000000, TB), vecadd_kernel(256, 64)])
    cfg = accelsim.load_config("QV100").with_overrides({"memory_model": "simple"})
    t0 = _cpu_s()
    r = Simulator(cfg).run(listing, progress=False)
    assert _cpu_s() - t0 < 20
    assert r.completed and list(r.kernels.status) == ["simulated"]


def _run_on_a_terminal(args, after_s: float) -> str:
    """`accelsim run ARGS` with stderr on a 40x120 pseudo-terminal, stopped by
    SIGINT once it has simulated for `after_s` seconds (its own clock);
    returns what reached the terminal."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = _start_cli_run(args, after_s, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    proc.send_signal(signal.SIGINT)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=30)
    os.close(leader)
    return b"".join(chunks).decode(errors="replace")


def test_cli_progress_bar_on_a_terminal_only(long_run):
    from accelsim.progress import BAR_DELAY_S

    shown_after = BAR_DELAY_S + 1.0  # the bar has been drawn by then, if it is drawn at all
    shown = _run_on_a_terminal([str(long_run)], shown_after)
    assert "simulating" in shown and "kernel" in shown and "warp inst/s" in shown, shown
    assert "interrupted at cycle" in shown
    quiet = _run_on_a_terminal([str(long_run), "--quiet"], shown_after)
    assert "simulating" not in quiet and "interrupted at cycle" in quiet, quiet
    piped = _start_cli_run([str(long_run)], shown_after, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    piped.send_signal(signal.SIGINT)
    err = piped.communicate(timeout=30)[1]
    assert "simulating" not in err and "interrupted at cycle" in err, err
