"""Seed inputs for the fuzz targets: the real files of ../shared/data when
present (real traces, the reference simulator's configs, profiler exports),
else small inputs built in the repository, so the fuzzers run anywhere."""
from __future__ import annotations

import functools
import os
from pathlib import Path

from accelsim._paths import data_dir


def shared_data() -> Path | None:
    env = os.environ.get("ACCELSIM_SHARED_DATA")
    here = Path(__file__).resolve()
    candidates = [Path(env)] if env else []
    candidates += [p / "shared" / "data" for p in here.parents[3:6]]
    return next((c for c in candidates if c.is_dir()), None)


def _split_kernel(text: bytes) -> tuple[bytes, bytes]:
    """(header, body) of a kernel trace: the body starts at the first #BEGIN_TB."""
    at = text.find(b"#BEGIN_TB")
    return (text, b"") if at < 0 else (text[:at], text[at:])


@functools.lru_cache(maxsize=None)
def kernel_traces() -> tuple[tuple[bytes, bytes], ...]:
    """(header, body) pairs: generated kernels in every layout and address
    mode, plus the first thread block of real traces (header grid set to 1)."""
    from accelsim.tracegen import kernel_text
    from accelsim.tracegen.examples import vecadd_kernel

    out = []
    for version, mode in ((5, None), (5, 0), (4, 2), (3, 1), ("1.2", 2)):
        text = ("\n".join(kernel_text(vecadd_kernel(64, 32), version=version,
                                      address_mode=mode)) + "\n").encode()
        out.append(_split_kernel(text))
    shared = shared_data()
    if shared:
        for name in ("bfs_rodinia31_sm70/kernel-1.traceg", "vecadd_sm75_tracer12/kernel-1.traceg"):
            path = shared / "traces" / name
            if path.is_file():
                out.append(_first_block(path.read_bytes()[:400_000]))
    return tuple(out)


def _first_block(text: bytes) -> tuple[bytes, bytes]:
    header, body = _split_kernel(text)
    end = body.find(b"#END_TB")
    body = body[:end + len(b"#END_TB")] + b"\n" if end >= 0 else body
    lines = [b"-grid dim = (1,1,1)" if line.startswith(b"-grid dim") else line
             for line in header.split(b"\n")]
    return b"\n".join(lines), body


@functools.lru_cache(maxsize=None)
def kernelslists() -> tuple[bytes, ...]:
    out = [b"MemcpyHtoD,0x00007f2a5e000000,16384\nkernel-1.traceg\n"
           b"MemcpyHtoD,0x00007f2a5e004000,4096\nkernel-2.traceg\nkernel-1.traceg\n"]
    shared = shared_data()
    if shared:
        for name in ("bfs_rodinia31_sm70", "vecadd_sm75_tracer12"):
            path = shared / "traces" / name / "kernelslist.g"
            if path.is_file():
                out.append(path.read_bytes())
    return tuple(out)


@functools.lru_cache(maxsize=None)
def yaml_configs() -> tuple[bytes, ...]:
    return tuple(p.read_bytes() for p in sorted((data_dir() / "gpus").glob("*.yaml")))


_MINI_GPGPUSIM = b"""# a small GPGPU-Sim config
-gpgpu_n_clusters 80
-gpgpu_n_cores_per_cluster 1
-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0
-gpgpu_shader_core_pipeline 2048:32
-gpgpu_cache:dl1  S:4:128:64,L:T:m:L:L,A:512:8,16:0,32
-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32
-gpgpu_shmem_option 0,8,16,32,64,96
-gpgpu_n_mem 32
-gpgpu_n_sub_partition_per_mchannel 2
-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS
-gpgpu_dram_timing_opt "nbk=16:CCD=1:RRD=4:RCD=12:RAS=29:RP=12:RC=40:
                        CL=12:WL=2:CDLR=3:WR=11:nbkgrp=4:CCDL=2:RTPL=4"
"""


@functools.lru_cache(maxsize=None)
def gpgpusim_configs() -> tuple[tuple[bytes, bytes], ...]:
    """(gpgpusim.config, trace.config) pairs."""
    out = [(_MINI_GPGPUSIM, b"-trace_opcode_latency_initiation_int 4,2\n")]
    shared = shared_data()
    if shared:
        for folder in sorted((shared / "accelsim_configs").glob("*")):
            g, t = folder / "gpgpusim.config", folder / "trace.config"
            if g.is_file() and t.is_file():
                out.append((g.read_bytes(), t.read_bytes()))
    return tuple(out)


_MINI_NSIGHT = (b'"ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time",'
                b'"Context","Stream","smsp__inst_executed.sum","gpc__cycles_elapsed.max"\n'
                b'"","","","","","","","","inst","cycle"\n'
                b'"0","1","app","host","vecAdd(float*, float*, float*, int)","2020-Jan-01 00:00:00",'
                b'"1","7","1,234","5678"\n')
_MINI_NVPROF = (b'==1== Profiling result:\n"Device","Context","Stream","Kernel","Correlation_ID",'
                b'"inst_executed","elapsed_cycles_sm"\n,,,,,,\n'
                b'"GeForce GTX 1080 (0)","1","7","vecAdd(float*, float*, float*, int)","116",'
                b'"32","1234"\n')


@functools.lru_cache(maxsize=None)
def profiler_csvs(kind: str) -> tuple[bytes, ...]:
    out = [_MINI_NSIGHT if kind == "nsight" else _MINI_NVPROF]
    shared = shared_data()
    if shared:
        folder = shared / "hw" / "gtx1080_vectoradd_profiler"
        out += [path.read_bytes() for path in sorted(folder.glob(f"{kind}_*"))]
    return tuple(out)
