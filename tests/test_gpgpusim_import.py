"""Importing the reference simulator's -option configs."""
import pytest

import accelsim
from accelsim.config.gpgpusim_parse import read_options

NAMES = ["SM3_KEPLER_TITAN", "SM6_TITANX", "SM7_QV100", "SM7_TITANV", "SM75_RTX2060",
         "SM86_RTX3070"]


@pytest.mark.parametrize("name", NAMES)
def test_every_published_config_imports(shared, name):
    d = shared / "accelsim_configs" / name
    cfg = accelsim.import_gpgpusim_config(d / "gpgpusim.config", d / "trace.config")
    assert cfg.sm_count > 0 and cfg.exec_units
    # every option is accounted for: mapped, or reported with a reason
    for u in cfg.unmodelled:
        assert u.reason and u.line > 0 and u.reason != "not known to accelsim", u


@pytest.mark.parametrize("name", NAMES)
def test_every_published_config_simulates_on_the_detailed_model(shared, name, tmp_path):
    from accelsim.tracegen.examples import write_vecadd

    d = shared / "accelsim_configs" / name
    cfg = accelsim.import_gpgpusim_config(d / "gpgpusim.config", d / "trace.config")
    assert cfg.memory_model == "detailed"  # the file describes the whole memory system
    r = accelsim.Simulator(cfg).run(write_vecadd(tmp_path / "w", n=2048))
    assert r.completed and r.kernels.dram_reads.sum() + r.kernels.l2_read_hits.sum() > 0


def test_qv100_values(shared):
    d = shared / "accelsim_configs" / "SM7_QV100"
    cfg = accelsim.import_gpgpusim_config(d / "gpgpusim.config", d / "trace.config")
    assert cfg.sm_count == 80 and cfg.core_clock == 1132.0 and cfg.dram_clock == 850.0
    assert cfg.l2_size == 6 * 2**20 and cfg.l2_assoc == 24 and cfg.l2_mshrs == 192
    assert cfg.l1d_mshrs == 512 and cfg.l1d_assoc == 64 and cfg.l1d_streaming
    assert cfg.dram_tRAS == 28 and cfg.dram_tCL == 12 and cfg.dram_bank_groups == 4  # multi-line quoted
    assert cfg.address_mapping == "ipoly" and cfg.dram_type == "hbm2"
    assert cfg.shmem_carveouts == [k * 1024 for k in (0, 8, 16, 32, 64, 96)]
    units = {u["name"]: u for u in cfg.exec_units}
    assert units["sfu"]["latency"] == 20 and units["sfu"]["initiation"] == 8
    assert units["bra"]["classes"] == ["branch"] and units["tensor"]["classes"] == ["tensor"]
    reasons = {u.option: u.reason for u in cfg.unmodelled}
    assert "gpgpu_tex_cache:l1" in reasons
    # the PTX-mode latency classes (records="ptx") are imported, not unmodelled
    assert not any(o.startswith("ptx_opcode_") for o in reasons)
    assert (cfg.ptx_latency_int_div, cfg.ptx_initiation_int_div, cfg.ptx_latency_int_shfl) == (145, 8, 21)
    assert (cfg.ptx_latency_fp_div, cfg.ptx_latency_dp_div, cfg.ptx_initiation_dp_div) == (39, 330, 130)
    assert (cfg.ptx_latency_sfu, cfg.ptx_initiation_sfu, cfg.ptx_latency_tensor) == (100, 8, 64)


def test_ptx_opcode_lists(tmp_path):
    """GPGPU-Sim's -ptx_opcode_* comma lists fill the ptx_latency_* /
    ptx_initiation_* parameters in order; a short list keeps the defaults of
    the rest (reported), a long one or a zero is an error naming the option."""
    f = tmp_path / "g.config"
    f.write_text("-ptx_opcode_latency_int 7,8,9,10,200\n-ptx_opcode_initiation_fp 3,3,3,3,9\n"
                 "-ptx_opcode_latency_tesnor 32\n")
    cfg = accelsim.import_gpgpusim_config(f)
    assert (cfg.ptx_latency_int_add, cfg.ptx_latency_int_max, cfg.ptx_latency_int_div) == (7, 8, 200)
    assert cfg.ptx_latency_int_shfl == 21 and cfg.ptx_initiation_fp_div == 9 and cfg.ptx_latency_tensor == 32
    reasons = {u.option: u.reason for u in cfg.unmodelled}
    assert "ptx_latency_int_shfl" in reasons["ptx_opcode_latency_int"]
    f.write_text("-ptx_opcode_latency_fp 1,2,3,4,5,6\n")
    with pytest.raises(accelsim.ConfigError, match="ptx_opcode_latency_fp"):
        accelsim.import_gpgpusim_config(f)
    f.write_text("-ptx_opcode_latency_sfu 0\n")
    with pytest.raises(accelsim.ConfigError, match="ptx_latency_sfu"):
        accelsim.import_gpgpusim_config(f)


def test_kepler_coalescer_and_units(shared):
    d = shared / "accelsim_configs" / "SM3_KEPLER_TITAN"
    cfg = accelsim.import_gpgpusim_config(d / "gpgpusim.config", d / "trace.config")
    assert cfg.coalescer_threads == 32 and cfg.coalescer_segment == 128
    assert cfg.dram_type == "gddr5"


def test_option_file_syntax(tmp_path):
    f = tmp_path / "g.config"
    f.write_text('# comment\n-gpgpu_n_clusters 10  # trailing\n-gpgpu_n_cores_per_cluster 2\n'
                 '-gpgpu_dram_timing_opt "nbk=8:CCD=2:\n   RRD=5"\n-gpgpu_n_clusters 12\n'
                 '-gpgpu_scheduler two_level_active:6:0:1\n-made_up_option 3\n')
    opts = read_options(f)
    assert [o.line for o in opts if o.name == "gpgpu_dram_timing_opt"] == [4]
    cfg = accelsim.import_gpgpusim_config(f)
    assert cfg.sm_count == 24  # the later -gpgpu_n_clusters wins
    assert cfg.dram_banks == 8 and cfg.dram_tRRD == 5
    assert cfg.scheduler == "two_level" and cfg.two_level_active_warps == 6
    unknown = [u for u in cfg.unmodelled if u.option == "made_up_option"]
    assert unknown and unknown[0].line == 8


def test_option_tokens_quotes_comments_and_lines(tmp_path):
    """A token may mix plain and quoted parts; quotes span lines and drop their
    whitespace; '#' ends a token outside quotes and is kept inside them; Unicode
    spaces separate tokens; line numbers count every newline, quoted or not."""
    f = tmp_path / "g.config"
    f.write_text('-a x"1 :\n 2"y#note\n-b "p#q"\u20033\n\n-c "\n\n"z\n-d 4')
    opts = {o.name: (o.value, o.line) for o in read_options(f)}
    assert opts == {"a": ("x1:2y", 1), "b": ("p#q 3", 3), "c": ("z", 5), "d": ("4", 8)}


@pytest.mark.parametrize("text,needle", [
    ('-gpgpu_clock_domains 1:2:3\n', "core"),
    ('-gpgpu_n_clusters many\n', "integer"),
    ('-gpgpu_cache:dl1 Q:4:128:64,L:T:m:L:L\n', "geometry"),
    ('-gpgpu_dram_timing_opt "nbk=16:XYZ=3"\n', "XYZ"),
    ('-gpgpu_dram_timing_opt "nbk=16\n', "unterminated"),
    ('-gpgpu_n_clusters\n', "no value"),
    ('stray 1\n', "before any"),
])
def test_bad_option_files(tmp_path, text, needle):
    f = tmp_path / "bad.config"
    f.write_text(text)
    with pytest.raises(accelsim.ConfigError, match=needle) as err:
        accelsim.import_gpgpusim_config(f)
    assert str(f) in str(err.value)
