"""The PTX-mode bad inputs of the reliability catalogue (docs/reliability.md):
PTX a user or a hostile one writes, Devices and launches they ask for, runs
that never end, host data that does not fit. Each runs as a few lines of
Python in a fresh process (``accelsim.devtools.catalogue --set ptx``).
Sections: "PTX §1" crashes, hangs and run control; "PTX §2" input that was
silently accepted; "PTX §3" internal tracebacks and misleading messages."""
from __future__ import annotations

from accelsim.devtools.catalogue_cases import Case

HEAD = ".version 8.0\n.target sm_75\n.address_size 64\n"


def _entry(body: str, params: str = ".param .u64 out", decls: str = "", head: str = HEAD) -> str:
    return (head + decls + f".visible .entry k({params})\n{{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n"
            f"\t.reg .b64 %rd<4>;\n{body}\tret;\n}}\n")


STORE = "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%rd1], %r1;\n"
ENDLESS = _entry("$L_loop:\n\tadd.u32 %r2, %r2, 1;\n\tbra $L_loop;\n")
BARRIER_SPIN = _entry("\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $L_loop;\n"
                      "\tbar.sync 0;\n\tret;\n$L_loop:\n\tadd.u32 %r2, %r2, 1;\n\tbra $L_loop;\n")
CALLPROTO = _entry("\tld.param.u64 %rd1, [out];\n\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n")

# Lines every snippet starts with; {d} is the case's folder.
_DEV = "import numpy as np\nfrom accelsim.ptx import Device, Module\n"


def _run(kernel_file: str = "k.ptx", launch: str = "[1, 32]", device: str = "Device('QV100')",
         sync: str = "print(dev.synchronize())") -> str:
    return (_DEV + f"dev = {device}\nout = dev.zeros(64, np.uint32)\n"
            f"Module('{{d}}/{kernel_file}').get_function('k'){launch}(out)\n{sync}")


def _ptx_case(section: str, title: str, ptx: str, expect: str = "error", forbid: str = "",
              timeout: float = 60, **run) -> Case:
    return Case(section, title, code=_run(**run), files={"k.ptx": ptx}, expect=expect, forbid=forbid,
                timeout=timeout)


def _cuda(section: str, title: str, src: str, kernel: str, forbid: str = "<PTX of", expect: str = "error") -> Case:
    code = (_DEV + "dev = Device('QV100')\nout = dev.zeros(64, np.int32)\n"
            "from pathlib import Path\n"
            f"mod = Module.from_cuda(Path('{{d}}/kernel.cu').read_text(), name='kernel.cu')\n"
            f"mod.get_function('{kernel}')[1, 32](out)\ndev.synchronize()")
    return Case(section, title, code=code, files={"kernel.cu": src}, forbid=forbid, timeout=90, expect=expect)


def cases() -> list[Case]:
    return _crashes_and_hangs() + _silent_accepts() + _messages()


def _crashes_and_hangs() -> list[Case]:
    s = "PTX §1"
    c = [
        _ptx_case(s, "`.param .pred` kernel parameter (was SIGFPE)",
                  HEAD + ".visible .entry k(.param .pred p) { ret; }"),
        _ptx_case(s, "`.local .pred` variable (was SIGFPE)", _entry("\t.local .pred q;\n")),
        _ptx_case(s, "`.shared .pred` variable (was SIGFPE)", _entry("\t.shared .pred q;\n")),
        _ptx_case(s, "`atom.global.add` without a type (was SIGFPE when launched)",
                  _entry("\tld.param.u64 %rd1, [out];\n\tatom.global.add %r1, [%rd1], 1;\n")),
        _ptx_case(s, "endless loop, `Device(max_cycles=20000)`", ENDLESS, expect="ends",
                  device="Device('QV100', max_warp_insts=1 << 50, max_cycles=20000)"),
        _ptx_case(s, "warp spinning while its block waits at a barrier, `synchronize(max_cycles=20000)`",
                  BARRIER_SPIN, expect="ends", launch="[1, 64]", device="Device('QV100', max_warp_insts=1 << 50)",
                  sync="print(dev.synchronize(max_cycles=20000))"),
        _ptx_case(s, "endless loop, no budget: `max_warp_insts` (2^24) ends it", ENDLESS, timeout=120),
        Case(s, "Ctrl-C 8 s into an endless loop (`synchronize`)", code=_run(
            device="Device('QV100', max_warp_insts=1 << 50)"), files={"k.ptx": ENDLESS}, expect="ends",
            sigint_after=8.0, timeout=30),
        Case(s, "Ctrl-C 8 s into a warp emulated on toward a barrier it never reaches (no budget)",
             code=_run(launch="[1, 64]", device="Device('QV100', max_warp_insts=1 << 50)"),
             files={"k.ptx": BARRIER_SPIN}, expect="ends", sigint_after=8.0, timeout=30),
        Case(s, "Ctrl-C 8 s into `save_trace` of an endless kernel", code=_run(
            launch="[1, 64]", device="Device('QV100', max_warp_insts=1 << 50)",
            sync="dev.save_trace('{d}/trace')"), files={"k.ptx": BARRIER_SPIN}, expect="ends", sigint_after=8.0,
            timeout=30),
        _ptx_case(s, "grid (2^31-1, 65535, 65535) of finite blocks, `max_cycles=100000`", _entry(STORE),
                  expect="ends", launch="[(2**31 - 1, 65535, 65535), 32]",
                  sync="r = dev.synchronize(max_cycles=100000); print(r, list(r.kernels.status))"),
        Case(s, "`dev.zeros(2**38)` (256 GiB) on QV100 (32 GiB)",
             code=_DEV + "Device('QV100').zeros(2**38, np.uint8)"),
        Case(s, "allocations beyond 6 GiB on RTX2060", code=_DEV + "dev = Device('RTX2060')\n"
             "keep = [dev.zeros(2**30, np.uint8) for _ in range(7)]"),
        Case(s, "`Device(memory_bytes=2**40).zeros(2**38)`: lazy pages, little host memory", expect="ends",
             code=_DEV + "import resource\na = Device('QV100', memory_bytes=2**40).zeros(2**38, np.uint8)\n"
                         "print(a, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, 'MB')"),
        _ptx_case(s, "`copy_to_host()` after the Device's budget cut the run", ENDLESS,
                  device="Device('QV100', max_warp_insts=1 << 50, max_cycles=5000)", sync="out.copy_to_host()"),
        _ptx_case(s, "`on_progress` returning True stops an endless run", ENDLESS, expect="ends",
                  device="Device('QV100', max_warp_insts=1 << 50)",
                  sync="print(dev.synchronize(on_progress=lambda p: p.cycles > 1000))"),
        Case(s, "`Device(max_cycles=-5)`", code=_DEV + "Device('QV100', max_cycles=-5)"),
    ]
    return c


def _silent_accepts() -> list[Case]:
    s = "PTX §2"
    return [
        _ptx_case(s, "`mov.u64 %rd1, 2^80` (was stored as all ones)",
                  _entry("\tmov.u64 %rd1, 1208925819614629174706176;\n")),
        _ptx_case(s, "`.shared .b8 s[4294967296]` (wrapped to 0 bytes)", _entry("\t.shared .b8 s[4294967296];\n")),
        _ptx_case(s, "64 KiB of static `.shared`", _entry("\t.shared .align 4 .b8 s[65536];\n")),
        _ptx_case(s, "1 MB of `.const`", _entry(STORE, decls=".const .b8 c[1048576];\n")),
        _ptx_case(s, "40 KB of kernel parameters", _entry("", params=".param .align 4 .b8 big[40960]")),
        _ptx_case(s, "`.global .pred`", _entry(STORE, decls=".global .pred g;\n")),
        _ptx_case(s, "`.version 1.0` with `.target sm_90a`",
                  _entry(STORE, head=".version 1.0\n.target sm_90a\n.address_size 64\n")),
        _ptx_case(s, "`.version 6.6` (no such PTX ISA version)",
                  _entry(STORE, head=".version 6.6\n.target sm_75\n.address_size 64\n")),
        _ptx_case(s, "`.target sm_99`", _entry(STORE, head=".version 8.0\n.target sm_99\n.address_size 64\n")),
        _ptx_case(s, "1 GiB of `.local` per thread", _entry("\t.local .b8 big[1073741824];\n")),
        _ptx_case(s, "float constant `1e999`", _entry("\t.reg .f64 %fd<2>;\n\tmov.f64 %fd1, 1e999;\n")),
        _ptx_case(s, "`trap` in thread 5 (was an unknown opcode)",
                  _entry("\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 5;\n\t@%p1 trap;\n")),
        Case(s, "`to_device(np.array(['x']))`", code=_DEV + "Device('QV100').to_device(np.array(['x']))"),
        Case(s, "`to_device` of an object array",
             code=_DEV + "Device('QV100').to_device(np.array([object(), 1], dtype=object))"),
        Case(s, "float64 1e300 into a float32 device array (would be inf)",
             code=_DEV + "Device('QV100').zeros(2, np.float32).copy_from_host(np.array([1e300, 1.0]))"),
        Case(s, "`[3.5, 1]` into an int32 device array (would truncate)",
             code=_DEV + "Device('QV100').zeros(2, np.int32).copy_from_host([3.5, 1])"),
        Case(s, "`np.asarray(device_array)` (built an object array)",
             code=_DEV + "print(np.asarray(Device('QV100').zeros(4, np.float32)))"),
        _ptx_case(s, "block (1, 1, 65): z beyond CUDA's 64", _entry(STORE), launch="[1, (1, 1, 65)]"),
        _ptx_case(s, "70,000 bytes of dynamic shared memory on QV100 (64 KiB per block)", _entry(STORE),
                  launch="[1, 32, 0, 70000]"),
    ]


_CUDA_OK = r"""extern "C" __global__ void oob(int* a) {
    a[threadIdx.x * 4096] = 1;
}
extern "C" __global__ void printing(int* a) {
    printf("hello %d\n", a[0]);
}
extern "C" __global__ void allocating(int* a) {
    int* b = (int*)malloc(16);
    b[0] = 1;
    a[0] = b[0];
    free(b);
}
"""
# The same kernels and a function-pointer table (which the emulator refuses).
_CUDA_SRC = _CUDA_OK + r"""__device__ int twice(int x) { return 2 * x; }
typedef int (*op_t)(int);
__device__ op_t ops[1] = {twice};
extern "C" __global__ void pointer(int* a) { a[threadIdx.x] = ops[0](a[threadIdx.x]); }
"""


def _messages() -> list[Case]:
    s = "PTX §3"
    src = "extern \"C\" __global__ void k(int* a) { a[threadIdx.x] = 1; }"
    return [
        Case(s, "`Module.from_cuda(src, arch='sm75')` (was IndexError)",
             code=_DEV + f"Module.from_cuda({src!r}, arch='sm75')"),
        Case(s, "`Module.from_cuda(bytes)` that is not UTF-8 (was TypeError)",
             code=_DEV + "Module.from_cuda(b'\\xff\\xfe' + " + repr(src.encode()) + ")"),
        Case(s, "`Module.from_cuda(bytes)` of valid source compiles", expect="ends", timeout=90,
             code=_DEV + f"print(Module.from_cuda({src.encode()!r}))"),
        Case(s, "`save_trace` onto an existing file (was FileExistsError)", files={"taken": "mine"},
             code=_DEV + "Device('QV100').save_trace('{d}/taken')"),
        Case(s, "`Device(max_warp_insts=-1)` (was a pybind11 cast error)",
             code=_DEV + "Device('QV100', max_warp_insts=-1)"),
        Case(s, "`copy_from_host(['x'])` (was a NumPy ValueError)",
             code=_DEV + "Device('QV100').zeros(1, np.float32).copy_from_host(['x'])"),
        Case(s, "`dev.zeros(-5)` (was a TypeError)", code=_DEV + "Device('QV100').zeros(-5)"),
        Case(s, "`dev.zeros(3, 'U4')`", code=_DEV + "Device('QV100').zeros(3, 'U4')"),
        Case(s, "`Module(42)`", code=_DEV + "Module(42)"),
        Case(s, "`Module('x.ptx')` of a missing file", code=_DEV + "Module('x.ptx')"),
        Case(s, "`Module('kernel.txt')` of a missing file (was parsed as PTX)",
             code=_DEV + "Module('kernel.txt')", forbid="unexpected token"),
        _ptx_case(s, "indirect call (`.callprototype`; was 'expected an instruction', then refused): runs", CALLPROTO,
                  expect="ends", forbid="expected an instruction"),
        _ptx_case(s, "endless loop: no 'block not emulated yet' hint", ENDLESS,
                  device="Device('QV100', max_warp_insts=100000)", forbid="not emulated yet"),
        _ptx_case(s, "barrier deadlock: named as such, no 'block not emulated yet' hint", BARRIER_SPIN,
                  launch="[1, 64]", device="Device('QV100', max_warp_insts=100000)", forbid="not emulated yet"),
        _cuda(s, "out-of-bounds store after `from_cuda`: the .cu line, not the PTX line", _CUDA_OK, "oob"),
        _cuda(s, "`printf` after `from_cuda`", _CUDA_OK, "printing"),
        _cuda(s, "device `malloc` after `from_cuda`", _CUDA_OK, "allocating"),
        _cuda(s, "function pointer table after `from_cuda` (was refused): runs", _CUDA_SRC, "pointer",
              forbid="address initialisers", expect="ends"),
    ]
