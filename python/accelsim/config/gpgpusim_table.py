"""Which GPGPU-Sim option becomes which accelsim parameter, and why the
others are not modelled."""
from __future__ import annotations

from accelsim.config.gpgpusim_cache import parse_cache
from accelsim.config.gpgpusim_parse import Option


def _int(opt: Option) -> int:
    return opt.int()


def _bool(opt: Option) -> bool:
    return opt.int() != 0


def _first_int(opt: Option) -> int:
    return opt.int(opt.value.split(":")[0].split(",")[0])


def _kib(opt: Option) -> int:
    return opt.int() * 1024


# option -> (parameter, converter)
DIRECT = {
    "gpgpu_kernel_launch_latency": ("kernel_launch_latency", _int),
    "gpgpu_TB_launch_latency": ("cta_launch_latency", _int),
    "gpgpu_max_concurrent_kernel": ("max_concurrent_kernels", _int),
    "gpgpu_concurrent_kernel_sm": ("concurrent_kernels_per_sm", _bool),
    "gpgpu_perf_sim_memcpy": ("memcpy_timing", _bool),
    "gpgpu_shader_cta": ("max_ctas_per_sm", _int),
    "gpgpu_shader_registers": ("registers_per_sm", _int),
    "gpgpu_registers_per_block": ("registers_per_cta", _int),
    "gpgpu_num_sched_per_core": ("schedulers_per_sm", _int),
    "gpgpu_sub_core_model": ("sub_core_model", _bool),
    "gpgpu_max_insn_issue_per_warp": ("issue_width", _int),
    "gpgpu_dual_issue_diff_exec_units": ("dual_issue_diff_units", _bool),
    "gpgpu_inst_fetch_throughput": ("inst_fetch_width", _int),
    "gpgpu_num_reg_banks": ("register_banks", _int),
    "gpgpu_reg_file_port_throughput": ("register_port_throughput", _int),
    "gpgpu_operand_collector_num_units_gen": ("operand_collector_units", _int),
    "gpgpu_shmem_num_banks": ("shmem_banks", _int),
    "gpgpu_smem_latency": ("shmem_latency", _int),
    "smem_latency": ("shmem_latency", _int),
    "gpgpu_shmem_size": ("shmem_size", _int),
    "gpgpu_shmem_per_block": ("shmem_per_cta", _int),
    "gpgpu_unified_l1d_size": ("unified_l1_shmem_size", _kib),
    "gpgpu_adaptive_cache_config": ("adaptive_l1_shmem", _bool),
    "gpgpu_l1_banks": ("l1d_banks", _int),
    "gpgpu_l1_latency": ("l1d_hit_latency", _int),
    "gpgpu_perfect_inst_const_cache": ("perfect_inst_const_cache", _bool),
    "gpgpu_n_mem": ("memory_partitions", _int),
    "gpgpu_n_sub_partition_per_mchannel": ("l2_slices_per_partition", _int),
    "gpgpu_l2_rop_latency": ("l2_rop_latency", _int),
    "dram_latency": ("dram_fixed_latency", _int),  # the detailed model's L2 <-> DRAM pipe latency
    "gpgpu_frfcfs_dram_sched_queue_size": ("dram_queue", _int),
    "gpgpu_dram_return_queue_size": ("dram_return_queue", _int),
    "gpgpu_dram_buswidth": ("dram_bus_width", _int),
    "gpgpu_dram_burst_length": ("dram_burst_length", _int),
    "dram_data_command_freq_ratio": ("dram_data_command_ratio", _int),
    "dram_dual_bus_interface": ("dram_dual_bus", _bool),
    "dram_bnk_indexing_policy": ("dram_xor_bank_indexing", _bool),
    "gpgpu_dram_partition_queues": ("partition_queue_entries", _first_int),
    "icnt_flit_size": ("icnt_flit_size", _int),
    "icnt_in_buffer_limit": ("icnt_in_buffer", _int),
    "icnt_out_buffer_limit": ("icnt_out_buffer", _int),
}

TIMING_KEYS = {
    "nbk": "dram_banks", "CCD": "dram_tCCD", "RRD": "dram_tRRD", "RCD": "dram_tRCD",
    "RAS": "dram_tRAS", "RP": "dram_tRP", "RC": "dram_tRC", "CL": "dram_tCL", "WL": "dram_tWL",
    "CDLR": "dram_tCDLR", "WR": "dram_tWR", "nbkgrp": "dram_bank_groups", "CCDL": "dram_tCCDL",
    "RTPL": "dram_tRTPL",
}


# -- options that need more than one value or context; each returns the reason
#    for whatever part it could not map (None when fully mapped).
def _sm_count(opt, options, entries):
    per_cluster = options.get("gpgpu_n_cores_per_cluster")
    entries["sm_count"] = opt.int() * (per_cluster.int() if per_cluster else 1)


def _cores_per_cluster(opt, options, entries):
    if "gpgpu_n_clusters" not in options:
        entries["sm_count"] = opt.int()


def _clocks(opt, options, entries):
    parts = opt.value.split(":")
    if len(parts) != 4:
        raise opt.error("expected <core>:<interconnect>:<L2>:<DRAM> in MHz")
    for key, text in zip(("core_clock", "icnt_clock", "l2_clock", "dram_clock"), parts):
        entries[key] = opt.float(text)


def _pipeline(opt, options, entries):
    parts = opt.value.split(":")
    entries["max_threads_per_sm"] = opt.int(parts[0])
    if len(parts) > 1 and opt.int(parts[1]) != 32:
        return "warp size other than 32 is not modelled"


def _scheduler(opt, options, entries):
    kind = opt.value.split(":")[0]
    if kind in ("lrr", "gto"):
        entries["scheduler"] = kind
    elif kind.startswith("two_level"):
        entries["scheduler"] = "two_level"
        fields = opt.value.split(":")
        if len(fields) > 1:
            entries["two_level_active_warps"] = opt.int(fields[1])
    else:
        return f"scheduler {kind!r} not modelled; kept {entries.get('scheduler', 'lrr')}"


def _coalescer(opt, options, entries):
    # Pascal and later coalesce per 8-thread sub-warp into 32 B sectors;
    # earlier parts coalesce the whole warp into 128 B lines.
    modern = opt.int() >= 60
    entries["coalescer_threads"] = 8 if modern else 32
    entries["coalescer_segment"] = 32 if modern else 128


def _shmem_option(opt, options, entries):
    entries["shmem_carveouts"] = [f"{v} KiB" for v in opt.ints()]


def _skip_l1(opt, options, entries):
    entries["l1d_enabled"] = opt.int() == 0


def _dl1(opt, options, entries):
    spec = parse_cache(opt)
    entries.update(l1d_size=spec.size, l1d_line=spec.line,
                   l1d_sector=32 if spec.sectored else spec.line, l1d_assoc=spec.assoc,
                   l1d_replacement=spec.replacement, l1d_write_policy=spec.write_policy,
                   l1d_write_allocate=spec.write_allocate, l1d_mshrs=spec.mshr_entries,
                   l1d_mshr_merge=spec.mshr_merge, l1d_miss_queue=spec.miss_queue,
                   # 's' marks a streaming cache; so do the very many MSHRs of the
                   # Volta-class configs, which exist to let misses fly without lines.
                   l1d_streaming=spec.allocation == "s" or spec.mshr_entries >= 256)
    if spec.set_index != "linear":
        return f"L1D set index {spec.set_index} not modelled (linear used)"


def _dl2(opt, options, entries):
    spec = parse_cache(opt)
    entries.update(l2_line=spec.line, l2_sector=32 if spec.sectored else spec.line,
                   l2_assoc=spec.assoc, l2_replacement=spec.replacement,
                   l2_write_validate=spec.write_allocate == "lazy_fetch_on_read",
                   l2_set_index=spec.set_index, l2_mshrs=spec.mshr_entries,
                   l2_mshr_merge=spec.mshr_merge, l2_miss_queue=spec.miss_queue)
    if spec.write_policy != "write_back":
        return "L2 is always write-back in accelsim"


def _il1(opt, options, entries):
    spec = parse_cache(opt)
    entries.update(l1i_size=spec.size, l1i_line=spec.line, l1i_assoc=spec.assoc)


def _const(opt, options, entries):
    spec = parse_cache(opt)
    entries.update(l1c_size=spec.size, l1c_line=spec.line, l1c_assoc=spec.assoc)


def _partition_indexing(opt, options, entries):
    mapping = {0: "linear", 1: "xor", 2: "ipoly"}
    value = opt.int()
    if value in mapping:
        entries["address_mapping"] = mapping[value]
        return None
    return "partition indexing 3 (PAE), 4 (random) and 5 (custom) not modelled; kept the default"


# dramid@N: the partition index starts at address bit N. Bits past 40 would
# put a terabyte in one partition: no GPU does that.
_MAX_DRAMID_BIT = 40


def _addr_mapping(opt, options, entries):
    head = opt.value.split(";")[0]
    if head.startswith("dramid@"):
        bit = opt.int(head[len("dramid@"):])
        if not 0 <= bit <= _MAX_DRAMID_BIT:
            raise opt.error(f"dramid@{bit}: the partition bit must be in [0, {_MAX_DRAMID_BIT}]")
        entries["l2_interleave"] = 1 << bit
    return ("only the partition interleave (dramid@N) is taken; row/bank/column bit "
            "positions come from accelsim's address mapping")


def _capability(opt, options, entries):
    major, minor = options.get("gpgpu_compute_capability_major"), options.get(
        "gpgpu_compute_capability_minor")
    if major is not None:
        entries["sm_version"] = 10 * major.int() + (minor.int() if minor else 0)


def _scheduler_dram(opt, options, entries):
    entries["dram_scheduler"] = "frfcfs" if opt.int() == 1 else "fcfs"


def _write_queue(opt, options, entries):
    enabled = options.get("dram_seperate_write_queue_enable")
    if enabled is not None and enabled.int() == 0:
        return "separate write queue disabled by -dram_seperate_write_queue_enable 0"
    size, high, low = (opt.ints(":") + [0, 0, 0])[:3]
    entries.update(dram_write_queue=size, dram_write_drain_high=high, dram_write_drain_low=low)


def _write_queue_enable(opt, options, entries):
    if opt.int() == 0:
        entries["dram_write_queue"] = 0


# -ptx_opcode_latency_<group> / -ptx_opcode_initiation_<group>: comma lists in
# GPGPU-Sim's order (int: add, max, mul, mad, div, shfl; fp/dp: the first five;
# sfu and tensor: one value), read into the ptx_latency_* / ptx_initiation_*
# parameters records="ptx" uses. GPGPU-Sim spells the tensor latency "tesnor".
_PTX_CLASS_OPS = {"int": ("add", "max", "mul", "mad", "div", "shfl"),
                  "fp": ("add", "max", "mul", "mad", "div"), "dp": ("add", "max", "mul", "mad", "div")}


def _ptx_opcode(what: str, group: str):
    def handler(opt, options, entries):
        values = opt.ints()
        if group in ("sfu", "tensor"):
            keys = [f"ptx_{what}_{group}"]
        else:
            keys = [f"ptx_{what}_{group}_{op}" for op in _PTX_CLASS_OPS[group]]
        if not 1 <= len(values) <= len(keys):
            raise opt.error(f"expected 1 to {len(keys)} comma-separated cycle counts, got {len(values)}")
        entries.update(zip(keys, values))
        if len(values) < len(keys):  # GPGPU-Sim leaves the rest unset; we keep our defaults
            return "no value for " + ", ".join(keys[len(values):]) + "; kept the defaults"
        return None
    return handler


SPECIAL = {
    **{f"ptx_opcode_{what}_{'tesnor' if g == 'tensor' and what == 'latency' else g}": _ptx_opcode(what, g)
       for what in ("latency", "initiation") for g in ("int", "fp", "dp", "sfu", "tensor")},
    "gpgpu_n_clusters": _sm_count,
    "gpgpu_n_cores_per_cluster": _cores_per_cluster,
    "gpgpu_clock_domains": _clocks,
    "gpgpu_shader_core_pipeline": _pipeline,
    "gpgpu_scheduler": _scheduler,
    "gpgpu_coalesce_arch": _coalescer,
    "gpgpu_shmem_option": _shmem_option,
    "gpgpu_gmem_skip_L1D": _skip_l1,
    "gpgpu_cache:dl1": _dl1,
    "gpgpu_cache:dl2": _dl2,
    "gpgpu_cache:il1": _il1,
    "gpgpu_const_cache:l1": _const,
    "gpgpu_memory_partition_indexing": _partition_indexing,
    "gpgpu_mem_addr_mapping": _addr_mapping,
    "gpgpu_dram_scheduler": _scheduler_dram,
    "gpgpu_compute_capability_major": _capability,
    "gpgpu_compute_capability_minor": _capability,
    "dram_write_queue_size": _write_queue,
    "dram_seperate_write_queue_enable": _write_queue_enable,
}

_RUNTIME = "CUDA runtime / functional-simulation option; no timing effect in trace mode"
_STATS = "statistics or output option; accelsim always collects its counters"

IGNORED = {
    **{k: _RUNTIME for k in (
        "gpgpu_ptx_instruction_classification", "gpgpu_ptx_sim_mode",
        "gpgpu_ptx_force_max_capability", "gpgpu_stack_size_limit", "gpgpu_heap_size_limit",
        "gpgpu_runtime_sync_depth_limit", "gpgpu_runtime_pending_launch_count_limit",
        "gpgpu_ptx_convert_to_ptxplus", "gpgpu_ptx_save_converted_ptxplus",
        "gpgpu_ignore_resources_limitation")},
    **{k: _STATS for k in (
        "gpgpu_memlatency_stat", "gpgpu_runtime_stat", "enable_ptx_file_line_stats",
        "visualizer_enabled", "power_simulation_enabled")},
    "gpgpu_clock_gated_lanes": "power-model option",
    "gpgpu_simd_model": "only the SIMT model (1) exists in accelsim",
    "gpgpu_pipeline_widths": "pipeline register widths are not modelled; issue is limited by "
                             "schedulers and unit initiation intervals",
    "gpgpu_occupancy_sm_number": "occupancy follows the resource limits of this config",
    "gpgpu_tensor_core_avail": "tensor units are declared in exec_units",
    "gpgpu_enable_specialized_operand_collector": "operand collectors are modelled as one "
                                                  "generic pool",
    "gpgpu_operand_collector_num_in_ports_gen": "collector ports are not modelled",
    "gpgpu_operand_collector_num_out_ports_gen": "collector ports are not modelled",
    "gpgpu_shmem_limited_broadcast": "shared memory always broadcasts same-word accesses",
    "gpgpu_shmem_warp_parts": "shared memory conflicts are computed per whole warp",
    "gpgpu_l1_cache_write_ratio": "the adaptive split does not reserve a write share",
    "gpgpu_flush_l1_cache": "L1D is invalidated at every kernel boundary",
    "gpgpu_n_cluster_ejection_buffer_size": "cluster ejection buffers are not modelled",
    "gpgpu_shmem_sizeDefault": "the carve-out is chosen per kernel from shmem_carveouts",
    "gpgpu_shmem_size_PrefShared": "Fermi/Kepler cache preference not modelled",
    "gpgpu_shmem_size_PrefL1": "Fermi/Kepler cache preference not modelled",
    "gpgpu_cache:dl1PrefShared": "Fermi/Kepler cache preference not modelled",
    "gpgpu_cache:dl1PrefL1": "Fermi/Kepler cache preference not modelled",
    "gpgpu_cache:dl2_texture_only": "L2 caches all global traffic",
    "gpgpu_tex_cache:l1": "texture cache not modelled: TEX instructions use a fixed-latency unit",
    "gpgpu_n_mem_per_ctrlr": "one DRAM channel per memory controller",
    "gpgpu_mem_address_mask": "addresses are used whole (64-bit)",
    "dram_bnkgrp_indexing_policy": "bank groups are indexed by the low bank bits",
    "network_mode": "accelsim's interconnect is always a crossbar",
    "icnt_subnets": "request and reply networks are always separate",
    "icnt_arbiter_algo": "crossbar arbitration is round robin",
    "inter_config_file": "interconnect parameters come from this config",
}
for _name in ("sp", "sfu", "mem", "dp"):
    for _what in ("units", "in_ports", "out_ports"):
        IGNORED[f"gpgpu_operand_collector_num_{_what}_{_name}"] = (
            "operand collectors are modelled as one generic pool")
