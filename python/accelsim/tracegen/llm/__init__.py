"""Generated LLM inference workloads: long, realistic multi-kernel traces.

``write_decode_workload(folder, DecodeSpec(...))`` writes a transformer
decode run (thousands of kernels, 10^8 warp instructions and more at the
default size) as Accel-Sim traces, xz-compressed and streamed; ``kernels``
holds the kernel builders (``llm.matmul.gemm``, ``llm.attention.attention``,
``llm.rows.layernorm`` ...) for single long kernels.
"""
from accelsim.tracegen.llm.workload import (DecodeSpec, GeneratedWorkload, decode_kernels,
                                            write_decode_workload, write_kernels)

__all__ = ["DecodeSpec", "GeneratedWorkload", "decode_kernels", "write_decode_workload", "write_kernels"]
