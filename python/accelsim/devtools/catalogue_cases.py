"""The bad inputs of the reliability catalogue (docs/reliability.md), as the
user meets them: a CLI command or a few lines of Python, with the files they
need. Placeholders in arguments and code: {d} (this case's folder),
{example} (a small generated workload), {bfs} (the real BFS trace, when
../shared is present), {result} (a saved simulation result), {hostile}
(folders of accelsim.devtools.hostile)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    section: str          # the group of faults the case belongs to (§0 hostile addresses, ...), or "more"
    title: str            # the bad input, in words
    cli: tuple = ()       # accelsim arguments ...
    code: str = ""        # ... or Python (accelsim imported)
    files: dict = field(default_factory=dict)  # name in {d} -> text or bytes
    expect: str = "error"  # error | warn (error or a warning) | ends (any clean end)
    forbid: str = ""      # regex that must not appear in the output
    sigint_after: float | None = None  # send Ctrl-C after this many seconds
    timeout: float = 30.0
    needs: str = ""       # "bfs": skipped without ../shared


def _kernel(body_line: str = "0000 ffffffff 1 R1 LDG.E.SYS 1 R2 4 1 0x7f0000000000 4 0",
            header_edit=None, blocks: int = 1, binary_version: int = 70) -> str:
    from accelsim.tracegen import Kernel
    from accelsim.tracegen.writer import header_lines

    header = header_lines(Kernel("k", grid=(blocks, 1, 1), block=(32, 1, 1),
                                 binary_version=binary_version), 5, False)
    if header_edit:
        header = header_edit(header)
    body = []
    for b in range(blocks):
        body += ["", "#BEGIN_TB", "", f"thread block = {b},0,0", "", "warp = 0", "insts = 2",
                 body_line, "0010 ffffffff 0 EXIT 0 0 0", "", "#END_TB"]
    return "\n".join(header + body) + "\n"


def _without(prefix):
    return lambda lines: [ln for ln in lines if not ln.startswith(prefix)]


def _one_kernel(text: str | bytes, listing: str = "kernel-1.traceg\n") -> dict:
    return {"kernel-1.traceg": text, "kernelslist.g": listing}


RUN = ("run", "{d}/kernelslist.g", "--config", "QV100")
_GOOD_G = ("-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 1\n"
           "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n")
_NVPROF_HEAD = ('"Device","Context","Stream","Kernel","Correlation_ID","inst_executed"\n'
                ',,,,,\n')
_NSIGHT_HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time",'
                '"Context","Stream","smsp__inst_executed.sum"\n"","","","","","","","","inst"\n')


def cases() -> list[Case]:
    c: list[Case] = []
    add = c.append
    # ---- §0 memory safety: hostile addresses reach the coalescer -----------------------
    for name in ("ldg_top_of_range", "ldg_base_stride_minus_one", "ldg_all_ones",
                 "ldg_stride_wraps"):
        add(Case("§0", f"trace with {name.replace('_', ' ')} (`accelsim run --max-cycles 100000`)",
                 cli=("run", "{hostile}/" + name, "--max-cycles", "100000"), expect="ends"))
    add(Case("§0", "`trace-info` on an LDG at 0xfffffffffffffff0",
             cli=("trace-info", "{hostile}/ldg_top_of_range"), expect="ends"))
    # ---- §1 runs that never end ------------------------------------------------------
    add(Case("§1", "`--set \"l1d_sector=128 B\"` (non-sectored L1D) with `--max-cycles 200000`",
             cli=("run", "{example}", "--set", "l1d_sector=128 B", "--max-cycles", "200000"),
             expect="ends", timeout=40))
    add(Case("§1", "`--set \"l1d_sector=128 B\"` (non-sectored L1D), no budget: watchdog",
             cli=("run", "{example}", "--set", "l1d_sector=128 B"), expect="ends", timeout=60))
    add(Case("§1", "GPGPU-Sim config with an 'N' (non-sectored) L1D, imported and run",
             code=("cfg = accelsim.import_gpgpusim_config('{d}/gpgpusim.config')\n"
                   "print(accelsim.Simulator(cfg).run('{example}', max_cycles=200000))"),
             files={"gpgpusim.config": _GOOD_G.replace("S:4:128:64", "N:4:128:64")},
             expect="ends", timeout=60))
    add(Case("§1", "kernelslist `MemcpyHtoD,0x...,1099511627776` (1 TB), `--max-cycles 1000`",
             cli=RUN + ("--max-cycles", "1000"),
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,1099511627776\n"
                                          "kernel-1.traceg\n"), expect="ends"))
    add(Case("§1", "64 MB copy then a kernel, `--max-cycles 1000`: no wrapped cycle count",
             cli=RUN + ("--max-cycles", "1000", "--json"),
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,67108864\nkernel-1.traceg\n"),
             expect="ends", forbid=r"18446744073"))
    add(Case("§1", "Ctrl-C 6 s into a 1 TB copy (CLI): stops within a second, no traceback",
             cli=RUN, files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,1099511627776\n"
                                                   "kernel-1.traceg\n"),
             expect="ends", sigint_after=6.0, timeout=20))
    add(Case("§1", "Ctrl-C 6 s into a 1 TB copy (Python API): KeyboardInterrupt",
             code="accelsim.Simulator('QV100').run('{d}/kernelslist.g')",
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,1099511627776\n"
                                          "kernel-1.traceg\n"),
             expect="ends", sigint_after=6.0, timeout=20))
    # ---- §3 arguments crossing into C++ ------------------------------------------------
    for value in ("-1", "x", "18446744073709551616"):
        add(Case("§3", f"`accelsim run --max-cycles {value}`",
                 cli=("run", "{example}", "--max-cycles", value)))
    for value in ("-1", "'x'", "2**64", "1.5"):
        add(Case("§3", f"`Simulator().run(w, max_cycles={value})`",
                 code=f"accelsim.Simulator('QV100').run('{{example}}', max_cycles={value})"))
    for values in ("{'sm_count': 'x'}", "{'sm_count': 2**64}", "{'l1d_size': -1}",
                   "{'sm_count': None}", "{'l1d_sizee': 4096}", "{'scheduler': 7}"):
        add(Case("§3", f"dict config `Simulator({values})`",
                 code=f"accelsim.Simulator({values}).run('{{example}}')"))
    add(Case("§3", "`with_overrides({'l1d_sizee': 1})` (unknown key)",
             code="accelsim.load_config('QV100').with_overrides({'l1d_sizee': 1})"))
    add(Case("§3", "`with_overrides({'sm_count': '12 parsecs'})`",
             code="accelsim.load_config('QV100').with_overrides({'sm_count': '12 parsecs'})"))
    add(Case("§3", "`--set l1d_sizee=4096` (unknown key)",
             cli=("run", "{example}", "--set", "l1d_sizee=4096")))
    add(Case("§3", "`--set sm_count` (no '=')", cli=("run", "{example}", "--set", "sm_count")))
    add(Case("§3", "`--set sm_count=0` (below the range)",
             cli=("run", "{example}", "--set", "sm_count=0")))
    # ---- §3 config files ---------------------------------------------------------------
    add(Case("§3", "empty YAML config file", cli=("run", "{example}", "--config", "{d}/empty.yaml"),
             files={"empty.yaml": ""}, expect="warn"))
    add(Case("§3", "YAML config with an unknown key",
             cli=("config", "show", "{d}/gpu.yaml"), files={"gpu.yaml": "base: QV100\nl1d_sizee: 4 KiB\n"}))
    add(Case("§3", "binary file as a YAML config", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": bytes(range(256)) * 4}))
    add(Case("more", "YAML config that is a list", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "- sm_count: 4\n"}))
    add(Case("more", "YAML syntax error", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "sm_count: [4\nl1d_size: 1\n"}))
    add(Case("more", "YAML `base:` that names itself", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: gpu.yaml\n"}))
    add(Case("more", "YAML `base:` that does not exist", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: NOPE100\n"}))
    add(Case("more", "YAML value with an unknown unit", cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: QV100\nl1d_size: 32 parsecs\n"}))
    add(Case("§3", "YAML L1D too small for one set (zero-sized sets)",
             cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: QV100\nl1d_size: 128 B\n"}))
    add(Case("§3", "YAML L2 size not a whole number of sets per slice",
             cli=("config", "show", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: QV100\nl2_size: 1000 KiB\n"}))
    add(Case("more", "`--config NOPE100` (no such config)", cli=("run", "{example}", "--config", "NOPE100")))
    # ---- §3 GPGPU-Sim import -------------------------------------------------------------
    add(Case("§3", "empty gpgpusim.config", cli=("config", "import", "{d}/gpgpusim.config"),
             files={"gpgpusim.config": ""}))
    for mapping in ("dramid@-8", "dramid@4294967304"):
        add(Case("§3", f"`-gpgpu_mem_addr_mapping {mapping};...`",
                 cli=("config", "import", "{d}/gpgpusim.config"),
                 files={"gpgpusim.config": _GOOD_G + f"-gpgpu_mem_addr_mapping {mapping};"
                        "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS\n"},
                 timeout=60))
    add(Case("§3", "`-gpgpu_shmem_option` with a 2^64 entry",
             cli=("config", "import", "{d}/gpgpusim.config"),
             files={"gpgpusim.config": _GOOD_G + "-gpgpu_shmem_option 0,8,18446744073709551616\n"}))
    for title, text in [
        ("unterminated quote", '-gpgpu_dram_timing_opt "nbk=16:CCD=1\n'),
        ("value before any option", b"80\n-gpgpu_n_clusters 4\n"),
        ("trailing garbage after a cache spec", "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 zzz\n"),
        ("option with no value", "-gpgpu_n_clusters\n"),
        ("unknown DRAM timing field", '-gpgpu_dram_timing_opt "nbk=16:XYZ=1"\n'),
        ("non-numeric cluster count", "-gpgpu_n_clusters many\n"),
        ("cache spec of garbage", "-gpgpu_cache:dl1 X:1\n"),
        ("cache spec with a negative set count", "-gpgpu_cache:dl1 S:-4:128:64,L:T:m:L:L,A:512:8,16:0,32\n"),
        ("clock domains with a missing field", "-gpgpu_clock_domains 1132.0:1132.0\n"),
        ("binary file", bytes(range(256)) * 4),
    ]:
        add(Case("more", f"gpgpusim.config: {title}", cli=("config", "import", "{d}/gpgpusim.config"),
                 files={"gpgpusim.config": (_GOOD_G + text) if isinstance(text, str) else text}))
    # ---- §3 kernelslist ------------------------------------------------------------------
    add(Case("§3", "kernelslist of garbage", cli=RUN,
             files=_one_kernel(_kernel(), "hello world\nthis is not a trace\n")))
    add(Case("§3", "`/dev/null` as the kernelslist", cli=("run", "/dev/null")))
    add(Case("§3", "empty kernelslist (`trace-info`)", cli=("trace-info", "{d}/kernelslist.g"),
             files={"kernelslist.g": ""}, expect="warn"))
    add(Case("§3", "empty kernelslist (`run`)", cli=RUN, files={"kernelslist.g": ""}))
    add(Case("§3", "`Memcpyhtod` typo in a kernelslist", cli=RUN,
             files=_one_kernel(_kernel(), "Memcpyhtod,0x7f0000000000,4096\nkernel-1.traceg\n"),
             expect="warn"))
    add(Case("more", "MemcpyHtoD without a size", cli=RUN,
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000\nkernel-1.traceg\n")))
    add(Case("more", "MemcpyHtoD with a negative size", cli=RUN,
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,-4096\nkernel-1.traceg\n")))
    add(Case("more", "MemcpyHtoD with a 2^64 size", cli=RUN,
             files=_one_kernel(_kernel(), "MemcpyHtoD,0x7f0000000000,18446744073709551616\n"
                                          "kernel-1.traceg\n")))
    add(Case("more", "kernelslist naming a missing kernel file", cli=RUN,
             files=_one_kernel(_kernel(), "kernel-1.traceg\nkernel-7.traceg\n")))
    add(Case("§3", "a directory named like a kernel file", cli=RUN,
             files={"kernelslist.g": "kernel-1.traceg\n", "kernel-1.traceg/README": "a folder\n"}))
    add(Case("more", "`accelsim run` on a folder without kernelslist.g", cli=("run", "{d}"),
             files={"notes.txt": "nothing here\n"}))
    add(Case("more", "`accelsim run` on a path that does not exist", cli=("run", "{d}/nope.g")))
    # ---- §3 kernel selection and output paths ---------------------------------------------
    add(Case("§3", "`--kernels 99` (no such kernel)", cli=("run", "{example}", "--kernels", "99")))
    add(Case("§3", "`--kernels 1-99999999999` (a huge range is not expanded)",
             cli=("run", "{example}", "--kernels", "1-99999999999"), expect="ends",
             forbid="MemoryError"))
    add(Case("more", "`--kernels a-b`", cli=("run", "{example}", "--kernels", "a-b")))
    add(Case("more", "`--kernels 5-3` (reversed range)", cli=("run", "{example}", "--kernels", "5-3")))
    add(Case("§3", "`--save` pointing at an existing file",
             cli=("run", "{example}", "--save", "{d}/taken"), files={"taken": "x"}))
    add(Case("§3", "`accelsim example --out` pointing at an existing file",
             cli=("example", "--out", "{d}/taken"), files={"taken": "x"}))
    # ---- kernel trace files ----------------------------------------------------------------
    add(Case("more", "trace header without `-grid dim`", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel(header_edit=_without("-grid dim")))))
    add(Case("more", "trace header with `-block dim = (0,1,1)`", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel().replace("-block dim = (32,1,1)", "-block dim = (0,1,1)"))))
    add(Case("more", "trace header with a 2^32 grid", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel().replace("-grid dim = (1,1,1)", "-grid dim = (4294967296,1,1)"))))
    add(Case("more", "instruction with a non-hex active mask", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel("0000 fffzffff 1 R1 LDG.E.SYS 1 R2 4 1 0x7f0000000000 4 0"))))
    add(Case("more", "instruction with an unknown opcode", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel("0000 ffffffff 1 R1 FROBNICATE 1 R2 0 0"))))
    add(Case("more", "instruction with register R999", cli=RUN,
             files=_one_kernel(_kernel("0000 ffffffff 1 R999 IADD3 1 R2 0 0"))))
    add(Case("more", "instruction with 40 source registers", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel("0000 ffffffff 1 R1 IADD3 40 " + " ".join(["R2"] * 40) + " 0 0"))))
    add(Case("more", "memory instruction with address mode 7", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel("0000 ffffffff 1 R1 LDG.E.SYS 1 R2 4 7 0x10 4 0"))))
    add(Case("more", "memory instruction with 3 of 32 addresses", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel("0000 ffffffff 1 R1 LDG.E.SYS 1 R2 4 0 0x10 0x20 0x30 0"))))
    add(Case("more", "trace cut off inside a thread block", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel().split("0010 ffffffff")[0])))
    add(Case("more", "grid of 2 blocks, trace holds 1", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(_kernel().replace("-grid dim = (1,1,1)", "-grid dim = (2,1,1)"))))
    add(Case("more", "random bytes as a kernel trace", cli=("trace-info", "{d}/kernelslist.g"),
             files=_one_kernel(bytes(range(256)) * 8)))
    add(Case("more", "corrupt .gz kernel trace", cli=("trace-info", "{d}/kernelslist.g"),
             files={"kernel-1.traceg.gz": b"\x1f\x8b\x08\x00garbage" * 20,
                    "kernelslist.g": "kernel-1.traceg.gz\n"}))
    add(Case("§3", "sm_80 trace run on the QV100 (sm_70) config", cli=RUN,
             files=_one_kernel(_kernel(binary_version=80)), expect="warn"))
    # ---- §3 profiler CSVs and correlate ------------------------------------------------------
    add(Case("§3", "nvprof CSV with a negative count",
             cli=("correlate", "--hw", "{d}/hw.csv", "--sim", "{result}", "--out", "{d}/report"),
             files={"hw.csv": _NVPROF_HEAD + '"GPU (0)","1","7","vecAdd(float*, float*, float*, int)","1","-5"\n'},
             expect="warn", timeout=60))
    add(Case("§3", "nvprof CSV with only a header",
             cli=("correlate", "--hw", "{d}/hw.csv", "--sim", "{result}", "--out", "{d}/report"),
             files={"hw.csv": _NVPROF_HEAD}, timeout=60))
    add(Case("§3", "`correlate --num-sms -4`",
             cli=("correlate", "--hw", "{d}/hw.csv", "--sim", "{result}", "--out", "{d}/report",
                  "--num-sms", "-4"),
             files={"hw.csv": _NSIGHT_HEAD
                    + '"0","1","a","h","vecAdd(float*, float*, float*, int)","t","1","7","32"\n'},
             timeout=60))
    for title, text in [
        ("nvprof summary output (no --print-gpu-trace)",
         '"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"\n'
         '"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"\n'),
        ("Nsight CSV row with a missing field", _NSIGHT_HEAD + '"0","1","a","h","k","t","1"\n'),
        ("Nsight CSV with a non-numeric metric", _NSIGHT_HEAD + '"0","1","a","h","k(int)","t","1","7","lots"\n'),
        ("empty profiler file", ""),
        ("binary profiler file", bytes(range(256)) * 4),
    ]:
        add(Case("more", title, code="print(accelsim.read_profile('{d}/hw.csv'))",
                 files={"hw.csv": text}))
    return c
