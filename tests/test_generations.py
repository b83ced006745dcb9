"""Every bundled GPU config, Kepler to Hopper: it loads, passes `config check`
(derived peaks within the card's published figures, every opcode of its ISA
table on a unit it has), and runs the bundled example and the real BFS trace
with sane kernel statistics."""
import subprocess
import sys

import pytest

import accelsim
from accelsim.config.check import card_for, check_config
from accelsim.tracegen.examples import write_vecadd

CONFIGS = accelsim.list_configs()
GENERATIONS = {35: "Kepler", 52: "Maxwell", 61: "Pascal", 70: "Volta", 75: "Turing", 80: "Ampere",
               86: "Ampere", 89: "Ada", 90: "Hopper"}


def test_every_generation_has_a_bundled_config():
    versions = {accelsim.load_config(n).sm_version for n in CONFIGS}
    assert set(GENERATIONS) <= versions


@pytest.mark.parametrize("name", CONFIGS)
def test_bundled_config_passes_the_check(name):
    report = check_config(name)
    assert report.card == name, "every bundled config has published figures"
    assert report.ok, report.problems
    assert not report.unmapped_opcodes
    rows = {r.quantity: r for r in report.rows}
    for quantity in ("FP32 FMA", "FP64 FMA", "DRAM bandwidth", "L2 size"):
        assert rows[quantity].status == "ok", (quantity, rows[quantity])


@pytest.mark.parametrize("name", CONFIGS)
def test_every_bundled_value_cites_a_source(name):
    from accelsim._paths import data_dir

    for line in (data_dir() / "gpus" / f"{name}.yaml").read_text().splitlines():
        body = line.split("#")[0].strip()
        if body and not line.startswith((" ", "-", "exec_units:")) and not body.startswith(
                ("name:", "description:", "base:")):
            assert "#" in line and "[" in line.split("#", 1)[1] or "model" in line, line


def test_dram_bandwidth_above_the_cards_peak_is_reported(shared):
    """The reference QV100 config's HBM (870 GB/s) checked as a TITAN V (652.8 GB/s)."""
    d = shared / "accelsim_configs" / "SM7_QV100"
    cfg = accelsim.import_gpgpusim_config(d / "gpgpusim.config", d / "trace.config")
    assert card_for(cfg.name)[0] == "QV100"  # reference names map to their card
    report = check_config(cfg, card="TITANV")
    assert not report.ok
    assert any("DRAM bandwidth" in p and "above" in p for p in report.problems)
    assert check_config(cfg).ok  # as the card it models, it is within the peak


def test_a_unit_class_missing_from_the_config_is_reported():
    cfg = accelsim.load_config("A100")
    units = [u for u in cfg.exec_units if "tensor" not in u["classes"]]
    report = check_config(cfg.with_overrides({"exec_units": units}))
    assert "HMMA" in report.unmapped_opcodes and "LDSM" not in report.unmapped_opcodes
    assert any("tensor" in p for p in report.problems)


def test_cli_check_exit_status(shared):
    ok = subprocess.run([sys.executable, "-m", "accelsim", "config", "check", "H100"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "tensor (FP16, dense)" in ok.stdout and "check passed" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "accelsim", "config", "check",
                          str(shared / "accelsim_configs" / "SM7_QV100"), "--card", "TITANV"],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "above the card's physical peak" in bad.stdout


def _peak_ipc(cfg) -> float:
    return cfg.sm_count * cfg.schedulers_per_sm * cfg.issue_width


@pytest.fixture(scope="module")
def vecadd(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("gen") / "w", n=8192, block=256)


@pytest.mark.parametrize("name", CONFIGS)
def test_bundled_config_runs_the_example_and_bfs(name, vecadd, shared):
    cfg = accelsim.load_config(name)
    runs = [accelsim.Simulator(cfg).run(vecadd)]
    bfs = shared / "traces" / "bfs_rodinia31_sm70" / "kernelslist.g"
    runs.append(accelsim.Simulator(cfg).run(bfs))
    for r in runs:
        k = r.kernels
        assert r.completed and len(k) > 0
        assert (k.cycles > 0).all() and (k.warp_instructions > 0).all()
        assert (k.ipc > 0).all() and (k.ipc < _peak_ipc(cfg)).all()
    assert len(runs[1].kernels) == 16 and runs[1].kernels.warp_instructions.sum() == 154_839


@pytest.mark.parametrize("name, version, cached, uncached", [
    ("KEPLER_TITAN", 35, "LDG.E", "LD.E"),          # Kepler: LDG is the read-only path
    ("PASCAL_TITANX", 61, "LDG.E.CI", "LDG.E"),     # Pascal: the .CI (non-coherent) hint
])
def test_read_only_path_is_cached_when_global_loads_skip_l1(name, version, cached, uncached,
                                                           tmp_path):
    from accelsim.tracegen import Inst, Kernel, ThreadBlock, write_workload

    cfg = accelsim.load_config(name)
    assert not cfg.l1d_enabled  # as the reference configs: ordinary global loads bypass L1
    hits = {}
    for opcode in (cached, uncached):
        addrs = [0x7F4A_0000_0000 + 4 * lane for lane in range(32)]
        warp = [Inst(opcode, dst=2, srcs=(4,), addrs=addrs, mem_width=4),
                Inst("IADD", dst=3, srcs=(2, 2)),
                Inst(opcode, dst=5, srcs=(3,), addrs=addrs, mem_width=4),
                Inst("IADD", dst=6, srcs=(5, 5)), Inst("EXIT")]
        kernel = Kernel("ro", (1, 1, 1), (32, 1, 1), [ThreadBlock((0, 0, 0), [warp])],
                        binary_version=version)
        r = accelsim.Simulator(cfg).run(write_workload(tmp_path / opcode, [kernel]))
        hits[opcode] = int(r.kernels.l1d_hits.iloc[0])
    assert hits[cached] > 0 and hits[uncached] == 0
