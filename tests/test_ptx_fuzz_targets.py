"""The PTX fuzz targets check what they claim: the reference interpreter of
generated kernels is right on hand-computed cases, agrees with the emulator
on generated kernels, and catches an emulator that computes something else;
the parser target's seeds are valid PTX."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from accelsim.devtools.fuzz import ptx_grammar as g
from accelsim.devtools.fuzz import ptx_targets
from accelsim.devtools.fuzz.targets import TARGETS, input_for
from accelsim.devtools.fuzz.worker import run_input
from accelsim.errors import PtxError
from accelsim.ptx import Module


def _thread(out: np.ndarray, t: int) -> np.ndarray:
    return out.reshape(-1, g.SLOTS)[t]


def test_reference_on_hand_computed_values():
    a, b = 0x80000000, 0xFFFFFFFF  # INT_MIN and -1
    body = (("op", "div.s32", 3, (1, 2)), ("op", "rem.s32", 4, (1, 2)), ("op", "shr.s32", 5, (1, 6)),
            ("op", "add.u32", 6, (1, 1)), ("op", "clz.b32", 7, (0,)),
            ("if", "lt.u32", 0, 3, (("op", "not.b32", 0, (0,)),)),
            ("loop", 2, (("op", "add.u32", 1, (1, 2)),)))
    k = g.Kernel(body=body, blocks=1, threads=32, args=(a, b, int(np.float32(2.0).view(np.uint32))))
    t5 = _thread(g.reference(k), 5)
    assert t5[3] == 0x80000000           # INT_MIN / -1 wraps
    assert t5[4] == 0                    # its remainder
    assert t5[5] == 0xFFFFFFFF           # shr.s32 by 640 (clamped to 31) of a negative value
    assert t5[6] == 0                    # 0x80000000 + 0x80000000 wraps
    assert t5[7] == 29                   # clz(5)
    assert t5[0] == 5 ^ 0xFFFFFFFF       # 5 < INT_MIN as u32: the if-body ran
    assert t5[1] == (a + 7 * b) & 0xFFFFFFFF  # -1 & 7 = 7 trips of a += -1
    assert t5[g.NR + 2] == np.float32(10.0).view(np.uint32)  # %f2 = tid * f


def test_generated_kernels_match_the_emulator(tmp_path):
    target = TARGETS["ptx_emulator"]
    for i in range(120):
        assert run_input(target, input_for("ptx_emulator", 11, i), tmp_path) is None, i


def test_an_emulator_computing_something_else_is_caught(tmp_path, monkeypatch):
    k = g.Kernel(body=(("op", "add.u32", 3, (1, 0)),), blocks=1, threads=32, args=(7, 0, 0))
    monkeypatch.setattr(g, "ptx_text", lambda kernel, real=g.ptx_text: real(kernel).replace(
        "add.u32 %r3, %r1, %r0;", "sub.u32 %r3, %r1, %r0;"))
    found = run_input(TARGETS["ptx_emulator"], (k, False), tmp_path)
    assert found and found["type"] == "AssertionError" and "%r3" in found["message"]


def test_parser_seeds_are_valid_ptx():
    kernels = [s for s in ptx_targets.ptx_seeds() if b".entry" in s]  # (.func chunks alone have none)
    valid = 0
    for text in kernels:
        try:
            Module(text.decode(), name="seed.ptx")
            valid += 1
        except PtxError as e:  # a kernel cut from its module without the .funcs it calls
            assert "undeclared function" in str(e)
    assert valid >= 20 and valid >= 0.8 * len(kernels)


@pytest.mark.parametrize("index", range(3))
def test_damaged_ptx_replays_from_its_id(index, tmp_path: Path):
    first = input_for("ptx_parse", 4, index)
    assert first == input_for("ptx_parse", 4, index)
    assert run_input(TARGETS["ptx_parse"], first, tmp_path) is None


def test_fat_binary_seeds_hold_the_ptx_they_were_built_from(tmp_path):
    from accelsim import _core
    from accelsim.devtools.fuzz import fatbin_target

    seeds = fatbin_target.fatbin_seeds()
    assert len(seeds) >= 4
    for i, data in enumerate(seeds):
        (tmp_path / "p").write_bytes(data)
        texts = _core.fatbin_ptx(str(tmp_path / "p"), 75)
        assert [a for a, _ in texts][:2] == [75, 70 if len(texts) == 3 else 86], i
        assert all(t.startswith("//") or t.lstrip().startswith((".version", "//")) for _, t in texts), i


@pytest.mark.parametrize("index", [330, 523, 4459])
def test_fat_binary_damage_the_fuzzer_found_is_a_clean_error(tmp_path, index):
    """A PTX entry that is not UTF-8 (was UnicodeDecodeError), a container header
    longer than the section (was SIGSEGV), a compressed entry claiming 4 GiB
    (was MemoryError from bad_alloc): each is an AccelsimError naming the file."""
    from accelsim.errors import AccelsimError

    target = TARGETS["cuda_fatbin"]
    assert run_input(target, input_for("cuda_fatbin", 1, index), tmp_path) is None
    with pytest.raises(AccelsimError, match="program"):
        target.run(input_for("cuda_fatbin", 1, index), tmp_path)
