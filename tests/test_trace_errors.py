"""A corpus of broken traces: each must raise TraceError naming the path,
the 1-based line and the field, never crash or hang. Variants are made from
a generated vecadd trace and (when ../shared is present) the real traces."""
from __future__ import annotations

import gzip
import lzma
import subprocess
import sys

import pytest

from accelsim import TraceError, open_trace
from accelsim.tracegen import kernel_text
from accelsim.tracegen.examples import vecadd_kernel


def read_all(path):
    """Everything a user can ask of a trace (headers, then every block)."""
    return open_trace(path).totals()


def base(version=5, **opts) -> list[str]:
    return list(kernel_text(vecadd_kernel(4096, 256), version=version, **opts))


def find(lines, text, nth=1) -> int:
    """0-based index of the nth line starting with `text`."""
    hits = [i for i, line in enumerate(lines) if line.startswith(text)]
    return hits[nth - 1]


def write(tmp_path, lines, name="kernel-1.traceg"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def expect(path, field, line=None, contains=None):
    with pytest.raises(TraceError) as info:
        read_all(path)
    err = info.value
    assert err.field == field, str(err)
    if line is not None:
        assert err.line == line, str(err)
    assert err.path is not None and str(path) in err.path, str(err)
    if contains:
        for word in contains:
            assert word in str(err), str(err)
    return err


# --- header ---------------------------------------------------------------

def _replace(lines, prefix, new, nth=1):
    i = find(lines, prefix, nth)
    lines[i] = new
    return i + 1


def _drop(lines, prefix, nth=1):
    i = find(lines, prefix, nth)
    del lines[i]
    return i + 1


def case_no_tracer_version(lines):
    _drop(lines, "-accelsim tracer version")
    return "accelsim tracer version", find(lines, "#traces format") + 1


def case_no_format_line(lines):
    _drop(lines, "#traces format")
    return "#traces format", find(lines, "#BEGIN_TB") + 1


def case_binary_version_99(lines):
    return "binary version", _replace(lines, "-binary version", "-binary version = 99")


def case_bad_grid_dim(lines):
    return "grid dim", _replace(lines, "-grid dim", "-grid dim = (16,1)")


def case_block_too_big(lines):
    return "block dim", _replace(lines, "-block dim", "-block dim = (2048,1,1)")


def case_grid_larger_than_blocks(lines):
    return "grid dim", _replace(lines, "-grid dim", "-grid dim = (17,1,1)")


def case_grid_smaller_than_blocks(lines):
    _replace(lines, "-grid dim", "-grid dim = (15,1,1)")
    return "grid dim", find(lines, "#BEGIN_TB", 16) + 1


def case_bad_tracer_version(lines):
    return "accelsim tracer version", _replace(lines, "-accelsim tracer version", "-accelsim tracer version = x")


# --- block structure --------------------------------------------------------

def case_insts_count_wrong(lines):
    return "insts", _replace(lines, "insts = 15", "insts = 14", nth=3)


def case_warp_out_of_range(lines):
    return "warp", _replace(lines, "warp = 7", "warp = 9")


def case_warp_missing(lines):
    i = find(lines, "warp = 7")  # drop warp 7 of block 0 (its 3 lines + 15 insts)
    del lines[i - 1:i + 17]
    return "warp", find(lines, "#END_TB") + 1


def case_missing_end_tb(lines):
    _drop(lines, "#END_TB")
    return "#END_TB", find(lines, "#BEGIN_TB", 2) + 1


def case_inst_outside_block(lines):
    i = find(lines, "#BEGIN_TB")
    lines.insert(i, "0000 ffffffff 0 NOP 0 0 0")
    return "#BEGIN_TB", i + 1


def case_inst_before_warp(lines):
    i = find(lines, "warp = 0")
    lines.insert(i, "0000 ffffffff 0 NOP 0 0 0")
    return "warp", i + 1


# --- EXIT coverage ----------------------------------------------------------

def case_warp_without_exit(lines):
    i = find(lines, "00e0 ffffffff 0 EXIT")
    del lines[i]
    _replace(lines, "insts = 15", "insts = 14")
    return "EXIT", i  # the warp's last line is now the STG just before


def case_exit_not_covering(lines):
    return "EXIT", _replace(lines, "00e0 ffffffff 0 EXIT", "00e0 0000ffff 0 EXIT 0 0 0")


# An EXIT repeating lanes that already exited, and fields after the immediate,
# are read with a warning (other tracers emit them): tests/test_trace_tolerance.py.


# --- instruction fields -----------------------------------------------------

def case_unknown_opcode(lines):
    return "opcode", _replace(lines, "00c0 ffffffff 1 R9 FADD", "00c0 ffffffff 1 R9 FOOBAR 2 R2 R5 0 0")


def case_bad_pc(lines):
    return "PC", _replace(lines, "00c0 ffffffff", "0x9g0 ffffffff 1 R9 FADD 2 R2 R5 0 0")


def case_bad_mask(lines):
    return "mask", _replace(lines, "00c0 ffffffff", "00c0 fffffffff 1 R9 FADD 2 R2 R5 0 0")


def case_ndst_2(lines):
    return "dest_num", _replace(lines, "00c0 ffffffff", "00c0 ffffffff 2 R9 R10 FADD 2 R2 R5 0 0")


def case_nsrc_5(lines):
    return "src_num", _replace(lines, "00c0 ffffffff", "00c0 ffffffff 1 R9 FADD 5 R2 R5 R1 R1 R1 0 0")


def case_bad_register(lines):
    return "reg_srcs", _replace(lines, "00c0 ffffffff", "00c0 ffffffff 1 R9 FADD 2 R2 Q5 0 0")


def case_bad_address_mode(lines):
    return "address mode", _replace(lines, "0090 ffffffff", "0090 ffffffff 1 R2 LDG.E.SYS 1 R2 4 7 0x10 4 0")


def case_garbage_address(lines):
    return "mem_addresses", _replace(lines, "0090 ffffffff", "0090 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0xZZ 4 0")


def case_missing_stride(lines):
    return "mem_addresses", _replace(lines, "0090 ffffffff", "0090 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x7f00")


def case_bad_immediate(lines):
    return "immediate", _replace(lines, "00c0 ffffffff", "00c0 ffffffff 1 R9 FADD 2 R2 R5 0 zz")


def case_truncated_mid_block(lines):
    i = find(lines, "00c0 ffffffff", 20)
    del lines[i + 1:]
    return "#END_TB", i + 1


def case_truncated_at_block_boundary(lines):
    del lines[find(lines, "#END_TB", 3) + 1:]
    return "grid dim", find(lines, "-grid dim") + 1


CASES = {name[5:]: fn for name, fn in dict(globals()).items() if name.startswith("case_")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_variant(tmp_path, name):
    lines = base()
    field, line = CASES[name](lines)
    err = expect(write(tmp_path, lines), field, line)
    if name == "unknown_opcode":
        assert "FOOBAR" in str(err) and "sm_70.isa" in str(err)


def test_truncated_mid_line(tmp_path):
    text = "\n".join(base()) + "\n"
    cut = text.index("0x7f4a3c100", text.index("#BEGIN_TB", 3000)) + 6  # inside an address
    path = tmp_path / "kernel-1.traceg"
    path.write_text(text[:cut])
    err = expect(path, "mem_addresses", text[:cut].count("\n") + 1)
    assert "stride" in str(err)


def test_old_layout_prefix_errors(tmp_path):
    lines = base(version="1.2")
    i = find(lines, "0 0 0 0 00c0")
    lines[i] = "0 0 0 x 00c0 ffffffff 1 R9 FADD 2 R2 R5 0"
    expect(write(tmp_path, lines), "warpid_tb", i + 1)
    lines[i] = "0 0 0 3 00c0 ffffffff 1 R9 FADD 2 R2 R5 0"  # follows "warp = 0"
    expect(write(tmp_path, lines), "warpid_tb", i + 1)


def test_empty_and_binary_garbage(tmp_path):
    expect(write(tmp_path, [], "empty.traceg"), "#traces format")
    path = tmp_path / "garbage.traceg"
    path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(TraceError):
        read_all(path)


# --- compression ------------------------------------------------------------

def _compressed(tmp_path, kind):
    data = ("\n".join(base()) + "\n").encode()
    packed = gzip.compress(data) if kind == "gz" else lzma.compress(data)
    return tmp_path / f"kernel-1.traceg.{kind}", packed


@pytest.mark.parametrize("kind", ["gz", "xz"])
def test_corrupt_compressed(tmp_path, kind):
    path, packed = _compressed(tmp_path, kind)
    middle = len(packed) // 2
    path.write_bytes(packed[:middle] + bytes(b ^ 0x5A for b in packed[middle:middle + 64]) +
                     packed[middle + 64:])
    expect(path, "gzip" if kind == "gz" else "xz")


@pytest.mark.parametrize("kind", ["gz", "xz"])
def test_truncated_compressed(tmp_path, kind):
    path, packed = _compressed(tmp_path, kind)
    path.write_bytes(packed[: len(packed) * 2 // 3])
    expect(path, "gzip" if kind == "gz" else "xz")


def test_xz_name_with_plain_content(tmp_path):
    path = write(tmp_path, base(), "kernel-1.traceg.xz")
    assert expect(path, "xz").line is None  # a whole-file problem: no line


# --- kernelslist.g ----------------------------------------------------------

def _listing(tmp_path, text):
    write(tmp_path, base())
    path = tmp_path / "kernelslist.g"
    path.write_text(text)
    return path


def test_missing_kernel_file(tmp_path):
    path = _listing(tmp_path, "MemcpyHtoD,0x10,4\nkernel-1.traceg\nkernel-2.traceg\n")
    expect(path, "kernel", 3, contains=["kernel-2.traceg"])


@pytest.mark.parametrize("bad", ["MemcpyHtoD,0xZZ,16", "MemcpyHtoD,0x10", "MemcpyHtoD,0x10,16,3",
                                 "MemcpyHtoD,0x10,-4"])
def test_bad_memcpy_line(tmp_path, bad):
    path = _listing(tmp_path, f"kernel-1.traceg\n{bad}\n")
    expect(path, "MemcpyHtoD", 2)


# --- variants of the real traces ---------------------------------------------

def _real_lines(shared, name):
    return (shared / "traces" / name).read_text().splitlines()


def test_real_bfs_variants(shared, tmp_path):
    lines = _real_lines(shared, "bfs_rodinia31_sm70/kernel-1.traceg")
    no_version = [x for x in lines if not x.startswith("-accelsim tracer version")]
    expect(write(tmp_path, no_version), "accelsim tracer version")
    bad_op = list(lines)
    i = find(bad_op, "0090 ffffffff 1 R0 LDG.E.U8.SYS")
    bad_op[i] = bad_op[i].replace("LDG.E.U8.SYS", "LDX.E.U8.SYS")
    expect(write(tmp_path, bad_op), "opcode", i + 1, contains=["LDX", "sm_70.isa"])
    cut = lines[: find(lines, "warp = 3", 2)]
    expect(write(tmp_path, cut), "#END_TB", len(cut))


def test_real_vecadd_old_layout_variants(shared, tmp_path):
    lines = _real_lines(shared, "vecadd_sm75_tracer12/kernel-1.traceg")
    bad_count = list(lines)
    line = _replace(bad_count, "insts = 15", "insts = 16", nth=5)
    expect(write(tmp_path, bad_count), "insts", line)
    bv = list(lines)
    expect(write(tmp_path, [x if not x.startswith("-binary") else "-binary version = 99" for x in bv]),
           "binary version", find(bv, "-binary version") + 1)


def test_corpus_never_crashes_a_process(tmp_path):
    """The whole generated corpus read in one child process: it must finish
    normally (no abort / segfault), every file giving a TraceError."""
    paths = []
    for name, fn in sorted(CASES.items()):
        lines = base()
        fn(lines)
        paths.append(str(write(tmp_path, lines, f"{name}.traceg")))
    script = ("import sys\nfrom accelsim import TraceError, open_trace\nbad = 0\n"
              "for p in sys.argv[1:]:\n    try:\n        open_trace(p).totals()\n"
              "    except TraceError:\n        bad += 1\nprint(bad)\n")
    out = subprocess.run([sys.executable, "-c", script, *paths], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(paths)
