"""The generated LLM decode workloads: exact counts, determinism, variation
between repeated kernels, and the acceptance size."""
from __future__ import annotations

import dataclasses
import filecmp
import lzma

import numpy as np
import pytest

import accelsim
from accelsim.tracegen.llm import DecodeSpec, decode_kernels, write_decode_workload
from accelsim.tracegen.llm.matmul import gemm
from accelsim.tracegen.templates import Op, Program
from sampling_helpers import TINY, write_tiny


def test_counts_match_what_the_reader_counts(tmp_path):
    g = write_tiny(tmp_path / "w", compression=None)
    kernels = accelsim.open_trace(g.path).kernels
    assert g.kernels == len(kernels) == TINY.steps * TINY.kernels_per_step
    assert np.array_equal(kernels["warp_instructions"].to_numpy(), np.array(g.warp_instructions))
    assert kernels["name"].tolist() == g.names


def test_xz_is_the_same_text_and_the_same_seed_the_same_files(tmp_path):
    plain = write_tiny(tmp_path / "plain", compression=None)
    xz = write_tiny(tmp_path / "xz")
    again = write_tiny(tmp_path / "again")
    assert xz.warp_instructions == plain.warp_instructions
    for i in (1, 5, plain.kernels):
        text = (tmp_path / "plain" / f"kernel-{i}.traceg").read_bytes()
        assert lzma.decompress((tmp_path / "xz" / f"kernel-{i}.traceg.xz").read_bytes()) == text
        assert filecmp.cmp(tmp_path / "xz" / f"kernel-{i}.traceg.xz", tmp_path / "again" / f"kernel-{i}.traceg.xz",
                           shallow=False)
    assert again.warp_instructions == xz.warp_instructions


def test_attention_grows_step_by_step_and_sequences_differ():
    spec = DecodeSpec(layers=1, hidden=256, heads=4, ffn=1024, vocab=1024, batch=4, steps=6, context=64,
                      max_len=512, replace_probability=0.0)
    attention = [k for k in decode_kernels(spec) if "attention" in k.name]
    sizes = [k.warp_instructions for k in attention]
    assert len(sizes) == 6 and sizes == sorted(sizes) and sizes[-1] > sizes[0]
    other = dataclasses.replace(spec, seed=1)
    assert [k.warp_instructions for k in decode_kernels(other) if "attention" in k.name] != sizes


def test_repeated_gemms_read_other_weights_in_every_layer():
    spec = DecodeSpec(layers=2, hidden=256, heads=4, ffn=1024, vocab=1024, batch=2, steps=1, context=32,
                      max_len=128)
    qkv = [k for k in decode_kernels(spec) if k.grid == (48, 1, 1)]
    assert len(qkv) == 2 and qkv[0].warp_instructions == qkv[1].warp_instructions
    assert next(qkv[0].blocks()) != next(qkv[1].blocks())  # same shape, other addresses


def test_default_spec_is_over_two_thousand_kernels_per_36_steps():
    spec = DecodeSpec()
    assert spec.steps * spec.kernels_per_step >= 2000


def test_templates_refuse_a_wrong_address_count():
    t = Program().code([Op("LDG.E.128.SYS", 4, (2,), stride=16), Op("EXIT")]).template()
    assert t.instructions == 2 and t.holes == 1
    with pytest.raises(ValueError, match="1 memory instructions, got 2"):
        t.text(0, [1, 2])
    with pytest.raises(ValueError, match="multiple of 16"):
        gemm(2, 256, 20, 0, 0, 0)


def test_a_parallel_write_gives_the_same_files(tmp_path):
    one = write_tiny(tmp_path / "one")
    three = write_decode_workload(tmp_path / "three", TINY, jobs=3)
    assert three.warp_instructions == one.warp_instructions and three.names == one.names
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert sorted(p.name for p in (tmp_path / "three").iterdir()) == names
    for p in (tmp_path / "one").iterdir():
        assert filecmp.cmp(p, tmp_path / "three" / p.name, shallow=False), p.name
