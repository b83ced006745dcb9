"""Per-block counts of the loops ptxas unrolled again (accelsim.ptx.sass_unroll,
accelsim.studies.block_check.unrolled_loops; docs/ptx.md, "Basic blocks"):
ptxas's guards, run on the loop counter for each entry's trip count, give
every SASS block of the loop its executions; they equal the closed form
(main loop floor(n/k), chunk once when n mod k >= k/2, remainder the rest)
and, with them, the whole graph fits the emulator's counts."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_guided as sg
from accelsim.ptx import sass_unroll as su

HAVE_TOOLS = sg.find_tool("ptxas") is not None and sg.find_tool("nvdisasm") is not None
pytestmark = pytest.mark.skipif(not HAVE_TOOLS, reason="ptxas and nvdisasm not installed "
                                "(pip install 'accelsim[ptx]': nvidia-cuda-nvcc, nvidia-cuda-nvdisasm)")
UNROLLED = ["gemm", "atax1", "atax2", "bicg1", "bicg2", "mvt1", "mvt2", "mm2_1", "mm2_2"]


def _loops(kernel):
    from accelsim.studies import sass_compare

    module = next(m for m in sass_compare.modules().values() if kernel in m.kernel_names)
    smap = sg.sass_map(module.text, 70, module.name)
    blocks, mapping = smap.blocks[kernel], smap.block_map[kernel]
    out = []
    for home in sorted(sb.restructured(blocks, mapping)):
        factors = sb.unroll_factors(blocks, mapping, home, smap.ptx_blocks)
        if any(f > 1 for f in factors.values()):
            out.append((blocks, factors))
    return out


@pytest.mark.parametrize("kernel", UNROLLED)
def test_guards_give_floor_and_remainder_for_every_trip_count(kernel):
    """For 1..40 iterations the walk through ptxas's guards runs the main
    loop floor(n/4) times, the 2-copy chunk when n mod 4 >= 2 and the
    remainder loop n mod 2 times, and uses up exactly n iterations."""
    from accelsim.studies.block_check import closed_form

    (blocks, factors), = _loops(kernel)
    for n in range(1, 41):
        trips = Counter({n: 1})
        counts = su.region_counts(blocks, factors, trips)
        assert sum(factors[b] * c for b, c in counts.items()) == n
        assert {b: counts[b] for b, f in factors.items() if f} == closed_form(factors, blocks, trips), n
        by_factor = {factors[b]: counts[b] for b in counts if factors[b]}
        assert by_factor == {4: n // 4, 2: int(n % 4 >= 2), 1: n % 2}, (n, by_factor)


def test_a_wrong_guard_threshold_is_caught():
    """The main loop's entry guard moved from 'more than 3 left' to 'more than
    5 left': the walk no longer matches the closed form for n = 4 or 5."""
    from accelsim.studies.block_check import closed_form

    (blocks, factors), = _loops("atax1")
    guard = next(b for b in blocks if factors.get(b.name) == 0 and any(
        i.opcode.startswith("ISETP.GT") and i.operands.endswith("0xc, PT") for i in b.insts))
    insts = [replace(i, operands=i.operands.replace("0xc, PT", "0x14, PT")) if i.opcode.startswith("ISETP.GT")
             else i for i in guard.insts]
    broken = [replace(b, insts=insts) if b is guard else b for b in blocks]
    trips = Counter({5: 1})
    assert su.region_counts(broken, factors, trips) != su.region_counts(blocks, factors, trips)
    got = su.region_counts(broken, factors, trips)
    assert {b: got[b] for b, f in factors.items() if f} != closed_form(factors, blocks, trips)


def test_a_guard_on_another_register_is_reported_not_guessed():
    """nested_divergent's main-loop guard compares a copy of the counter
    (another register): the loop is reported as not read."""
    (blocks, factors), = _loops("nested_divergent")
    with pytest.raises(su.Unreadable, match="not of the counter"):
        su.region_counts(blocks, factors, Counter({7: 1}))


def test_example_kernels_fit_the_graph_inside_unrolled_loops():
    """With the walked counts every SASS block of the unrolled loops is held
    to ptxas's graph: no violations and nothing left loose, and each loop's
    body copies add up to the emulator's iterations."""
    from accelsim.studies import block_check

    rows = [r for case in ("gemm", "atax+bicg", "mvt", "2mm") for r in block_check.check_case(case)]
    assert {r["kernel"] for r in rows} == set(UNROLLED)
    for r in rows:
        assert r["violations"] == [] and r["in_restructured_loops"] == [], r["kernel"]
        (loop,) = r["unrolled_loops"]
        assert loop["unreadable"] == "" and loop["entries"] > 0
        counts, factors = loop["sass_counts"], loop["factors"]
        assert sum(factors[b] * c for b, c in counts.items()) == loop["iterations"]
        assert {b: counts[b] for b, f in factors.items() if f} == loop["closed_form"]
