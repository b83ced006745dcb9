"""GPGPU-Sim's own defaults for the options the importer maps.

A ``gpgpusim.config`` states only what differs from GPGPU-Sim's built-in
defaults (the values its ``option_parser_register`` calls give, in
``gpu-sim.cc`` / ``shader.cc`` of GPGPU-Sim 4.x). An option absent from the
files therefore means GPGPU-Sim's default, not accelsim's: e.g. an absent
``-gpgpu_kernel_launch_latency`` is 0 there, where accelsim's own default is
the QV100's 5000. The importer applies these and lists them in
``Config.defaults_applied``.

GPGPU-Sim writes its default cache strings without the ``S:``/``N:`` prefix
(the older format, which means a non-sectored cache); they are written here
with ``N:`` so the one cache parser reads them.
"""
from __future__ import annotations

#: option -> GPGPU-Sim's default value text.
DEFAULTS = {
    "gpgpu_kernel_launch_latency": "0",
    "gpgpu_TB_launch_latency": "0",
    "gpgpu_max_concurrent_kernel": "8",
    "gpgpu_concurrent_kernel_sm": "0",
    "gpgpu_perf_sim_memcpy": "1",
    "gpgpu_n_clusters": "10",
    "gpgpu_n_cores_per_cluster": "3",
    "gpgpu_clock_domains": "500.0:2000.0:2000.0:2000.0",
    "gpgpu_shader_core_pipeline": "1024:32",
    "gpgpu_shader_cta": "8",
    "gpgpu_shader_registers": "8192",
    "gpgpu_num_sched_per_core": "1",
    "gpgpu_sub_core_model": "0",
    "gpgpu_max_insn_issue_per_warp": "2",
    "gpgpu_dual_issue_diff_exec_units": "1",
    "gpgpu_scheduler": "gto",
    "gpgpu_inst_fetch_throughput": "1",
    "gpgpu_num_reg_banks": "8",
    "gpgpu_reg_file_port_throughput": "1",
    "gpgpu_coalesce_arch": "13",
    "gpgpu_shmem_num_banks": "16",
    "gpgpu_smem_latency": "3",
    "gpgpu_shmem_size": "16384",
    "gpgpu_adaptive_cache_config": "0",
    "gpgpu_l1_banks": "1",
    "gpgpu_l1_latency": "1",
    "gpgpu_perfect_inst_const_cache": "0",
    "gpgpu_cache:dl2": "N:64:128:8,L:B:m:N,A:16:4,4",
    "gpgpu_const_cache:l1": "N:64:64:2,L:R:f:N,A:2:32,4",
    "gpgpu_n_mem": "8",
    "gpgpu_n_sub_partition_per_mchannel": "1",
    "gpgpu_l2_rop_latency": "85",
    "dram_latency": "30",
    "gpgpu_dram_scheduler": "1",
    "gpgpu_dram_partition_queues": "8:8:8:8",
    "gpgpu_dram_buswidth": "4",
    "gpgpu_dram_burst_length": "4",
    "dram_data_command_freq_ratio": "2",
    "dram_dual_bus_interface": "0",
    "dram_bnk_indexing_policy": "0",
    "gpgpu_memory_partition_indexing": "0",
    "icnt_flit_size": "32",
}

#: Options another name of which sets the same value (Accel-Sim's trace
#: configs write -smem_latency): the default applies only when neither is given.
ALIASES = {"gpgpu_smem_latency": ("smem_latency",)}

#: Defaults GPGPU-Sim has but accelsim cannot take as they are (kept as
#: accelsim's own default and said so), option -> reason.
NOT_APPLIED = {
    "gpgpu_registers_per_block": "GPGPU-Sim reports it to the application as a device "
                                 "property and does not limit occupancy by it; accelsim's "
                                 "registers_per_cta is a hard limit, so its default stays",
    "gpgpu_shmem_per_block": "a device property in GPGPU-Sim (as above); shmem_per_cta keeps "
                             "accelsim's default",
    "gpgpu_cache:dl1": "GPGPU-Sim's default is no L1D ('none'); accelsim keeps its L1D unless "
                       "the config says -gpgpu_cache:dl1 or -gpgpu_gmem_skip_L1D",
    "gpgpu_cache:il1": "GPGPU-Sim's default 256 B instruction line exceeds accelsim's 128 B",
    "gpgpu_frfcfs_dram_sched_queue_size": "GPGPU-Sim's default 0 means unbounded",
    "gpgpu_dram_return_queue_size": "GPGPU-Sim's default 0 means unbounded",
    "gpgpu_operand_collector_num_units_gen": "GPGPU-Sim's default 0 means specialised "
                                             "collectors only; accelsim has one generic pool",
}
