"""Kernel sampling on a small generated decode run: every row simulated or
projected, projections with bounds that hold, more rounds for a tighter
target, and the options checked."""
from __future__ import annotations

import pytest

import accelsim
from accelsim.errors import ConfigError
from accelsim.sampling import estimate
from accelsim.sampling.profile import text_size
from sampling_helpers import write_tiny


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    g = write_tiny(tmp_path_factory.mktemp("tiny"))
    sim = accelsim.Simulator("QV100")
    full = sim.run(g.path, progress=False)
    sampled = sim.run(g.path, progress=False, sample=accelsim.KernelSampling(seed=1))
    return g, sim, full, sampled


def test_every_kernel_is_simulated_or_projected_with_its_representative(runs):
    g, _, full, s = runs
    k = s.kernels
    assert len(k) == g.kernels and set(k["status"]) == {"simulated", "projected"}
    simulated = k[k["status"] == "simulated"]
    assert (simulated["representative"] == simulated["id"]).all()
    projected = k[k["status"] == "projected"]
    assert len(projected) > 0 and len(simulated) < g.kernels
    reps = set(projected["representative"])
    assert reps <= set(simulated["id"])
    assert (projected["error_bound"] > 0).all() and (projected["cycles_bound"] > 0).all()
    info = s.extra["sampling"]
    assert info["simulated_kernels"] == len(simulated) < g.kernels
    assert 0 < info["simulated_instruction_fraction"] < 1


def test_projections_are_close_and_inside_their_bounds(runs):
    _, _, full, s = runs
    err = (s.kernels["cycles"] / full.kernels["cycles"] - 1).abs()
    projected = s.kernels["status"] == "projected"
    inside = (err[projected] <= s.kernels["error_bound"][projected]).mean()
    assert inside >= 0.9
    total = abs(s.total_cycles / full.total_cycles - 1)
    assert total < 0.05 and total <= 2 * s.extra["sampling"]["total_error_bound"]
    # Projected counts come from the representative, scaled by instructions.
    row = s.kernels[projected].iloc[0]
    assert row["warp_instructions"] == pytest.approx(full.kernels.loc[row.name, "warp_instructions"], rel=0.02)


def test_the_timeline_adds_up_and_statistics_hold_what_was_simulated(runs):
    _, _, full, s = runs
    k = s.kernels
    assert s.total_cycles == k["end_cycle"].max()
    assert (k["end_cycle"] - k["launch_cycle"] == k["cycles"]).all()
    assert (k["sm_elapsed_cycles"] == (k["end_cycle"] - k["first_cta_cycle"]).clip(lower=0)).all()
    assert (k["launch_latency_cycles"] == k["start_cycle"] - k["launch_cycle"]).all()
    insts = int(s.counters("sm.insts").sum())
    assert insts == int(k[k["status"] == "simulated"]["warp_instructions"].sum())
    assert s.streams is not None and len(s.tidy()) > 0


def test_a_target_error_runs_more_rounds(runs):
    g, sim, _, first = runs
    tight = sim.run(g.path, progress=False, sample=accelsim.KernelSampling(seed=1, target_error=1e-4,
                                                                          max_fraction=0.9))
    info = tight.extra["sampling"]
    assert len(info["rounds"]) > 1
    assert info["simulated_kernels"] > first.extra["sampling"]["simulated_kernels"]
    assert info["total_error_bound"] < first.extra["sampling"]["total_error_bound"]


def test_options_and_combinations_are_checked(runs):
    g, sim, _, _ = runs
    with pytest.raises(ConfigError, match="per_cluster"):
        accelsim.KernelSampling(per_cluster=0)
    with pytest.raises(ConfigError, match="target_error"):
        accelsim.KernelSampling(target_error=2)
    with pytest.raises(ConfigError, match="tolerance"):
        accelsim.IntraKernelSampling(tolerance=0)
    with pytest.raises(ConfigError, match="sample"):
        sim.run(g.path, sample="kernels")
    with pytest.raises(ConfigError, match="max_cycles"):
        sim.run(g.path, sample=accelsim.KernelSampling(), max_cycles=1000)
    with pytest.raises(ConfigError, match="kernels"):
        sim.run(g.path, sample=accelsim.KernelSampling(), kernels="1-3")


def test_pooled_spread_and_bounds():
    fits, pooled = estimate.fit({0: [(100.0, 1000.0), (100.0, 1100.0)], 1: [(50.0, 500.0)]})
    assert pooled == pytest.approx(0.0674, abs=1e-3)
    assert fits[1].own_spread is None and fits[1].spread == pytest.approx(pooled)
    one = fits[0].bound(100.0)
    assert one == pytest.approx(estimate.t95(fits[0].dof) * fits[0].spread * 1050 * (1.5 ** 0.5), rel=1e-6)
    assert estimate.total_bound([(fits[0], [100.0] * 4)]) > one  # four projections err more than one


def test_text_size_reads_xz_and_gzip_indexes(tmp_path):
    import gzip
    import lzma

    data = b"0123456789abcdef" * 100_000
    (tmp_path / "a.xz").write_bytes(lzma.compress(data, preset=0) + lzma.compress(data[:1000]))
    (tmp_path / "a.gz").write_bytes(gzip.compress(data))
    (tmp_path / "a.txt").write_bytes(data)
    assert text_size(tmp_path / "a.xz") == len(data) + 1000
    assert text_size(tmp_path / "a.gz") == len(data)
    assert text_size(tmp_path / "a.txt") == len(data)
    (tmp_path / "bad.xz").write_bytes(b"\xfd7zXZ\x00garbage")
    assert text_size(tmp_path / "bad.xz") is None


def _profile(order, lines, footprint=1000, name="k", insts=100):
    from accelsim.sampling.profile import KernelProfile

    scan = {"warp_instructions": insts, "thread_instructions": 32 * insts, "blocks": 1, "complete": True,
            "by_unit": {"alu": insts}, "by_space": {}, "global_bytes": footprint, "global_lines": footprint // 128,
            "line_sample": lines, "header_bytes": 0, "block_bytes": 1}
    return KernelProfile(order, order, order + 1, name, (1, 1, 1), (32, 1, 1), 0, 16, 0, scan)


def test_reuse_tells_first_touches_from_data_the_caches_still_hold():
    from accelsim.sampling.clusters import make_clusters
    from accelsim.sampling.profile import mark_reuse

    # k0 and k2 read the same lines; k1 passes 10 KB of other data between
    # them: within a reach of 20 KB k2 finds them, within 5 KB it does not.
    ps = [_profile(0, [1, 2, 3, 4]), _profile(1, [9], footprint=10_000, name="other"), _profile(2, [1, 2, 3, 4])]
    mark_reuse(ps, 20_000)
    assert ps[0].reuse == 0.0 and ps[2].reuse == 1.0
    clusters = make_clusters(ps, 0.1)
    assert len(clusters) == 3  # k0 (first touch) and k2 (warm) are kept apart
    mark_reuse(ps, 5_000)
    assert ps[2].reuse == 0.0
    assert len(make_clusters(ps, 0.1)) == 2


def test_a_warm_up_kernel_much_larger_than_its_launch_is_replayed_not_simulated():
    from accelsim.sampling.rounds import warm_plan

    # Mean size 2,260: k0 (10,000) is larger than k1 and than twice the mean,
    # so it is replayed before k1; k3 (1,000) is larger than k4 but of
    # ordinary size: simulated. Replay reaches back 2.5 KB (1 KB a kernel).
    ps = [_profile(n, [n], insts=i) for n, i in enumerate([10_000, 100, 100, 1000, 100])]
    plan = warm_plan([ps[1], ps[4]], ps, warmup=1, replay_bytes=2500)
    assert plan.detailed == {1: [], 4: [3]}
    assert plan.replay == {1: [0], 4: [0, 2]}  # k1 is simulated anyway


def test_a_cluster_that_would_dominate_the_first_round_starts_with_one_member():
    from accelsim.sampling.clusters import Cluster
    from accelsim.sampling.kernel_sampling import _first_counts

    big = Cluster(0, ("big",), [_profile(n, [n], insts=1000) for n in range(4)])
    small = [Cluster(h, (str(h),), [_profile(10 * h + n, [n], insts=100) for n in range(4)]) for h in (1, 2, 3)]
    assert _first_counts([big, *small], 3) == {0: 1, 1: 3, 2: 3, 3: 3}  # 3,000 of 3,900 would be big's
    many = [Cluster(h, (str(h),), small[0].members) for h in range(1, 31)]
    assert set(_first_counts([big, *many], 3).values()) == {3}  # 3,000 of 12,000: not dominant
