"""The real CUDA suites under the simulator's CUDA runtime: every program of
Rodinia 3.1, Parboil and PolyBench/GPU (``../shared/data/apps``, sources
only) built with nvcc 13 as it is (``-cudart shared``), run unmodified under
``accelsim.run_cuda`` with inputs generated at documented sizes, and checked
(its own check, or a reference computed from the same input).

``python -m accelsim.bench.cuda_apps [--size small|full] [--only NAME ...]
[--budget S] [--write-doc docs/cuda_apps.md]`` prints the table (built, ran,
correct, kernels, simulated cycles, wall time) and can write it into the doc
between its markers. ``small`` is what the default test suite runs; ``full``
the sizes the suites document (minutes to hours of simulation each).
PolyBench/GPU's sizes are fixed by its sources, so it runs at full size at
either. A program still running after ``--budget`` seconds is stopped and
its row gives its measured progress."""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from accelsim.bench import cuda_apps_inputs as inputs
from accelsim.bench import cuda_apps_parboil as parboil
from accelsim.bench import cuda_apps_rodinia as rodinia
from accelsim.bench import cuda_apps_seeded as seeded
from accelsim.bench import cuda_apps_suite_refs as suite_refs

__all__ = ["App", "APPS", "apps_folder", "build_app", "run_app", "main"]


@dataclass
class App:
    """One program: where it lives, what nvcc compiles, its arguments at
    each size (None: not run at that size), how its input is made
    (``prepare(folder, size) -> extra``) and checked (``check(folder,
    stdout, extra) -> bool``; None: the program has no check)."""

    suite: str
    name: str
    folder: str                          # under the apps root
    sources: list[str]
    args: dict[str, list[str] | None]    # size -> argv[1:]
    flags: list[str] = field(default_factory=list)
    prepare: Callable | None = None
    check: Callable | None = None
    note: str = ""
    workdir: str = ""                    # where it runs, under the input folder (paths fixed in its source)
    stops: dict[str, str] = field(default_factory=dict)  # a stop whose message holds the key: why (row note)
    max_warp_insts: int | None = None    # the runtime's per-warp loop guard, where one warp legitimately runs more
    covers: str = ""                     # what a passing check rests on or leaves out (its row note)
    host_sources: list[str] = field(default_factory=list)  # built by the host compiler alone, with host_flags
    host_flags: list[str] = field(default_factory=list)


def _bfs_prepare(folder: Path, size: str):
    return inputs.bfs_graph(folder, 2000 if size == "small" else 1 << 16)


def _nn_prepare(folder: Path, size: str):
    return inputs.nn_records(folder, 2 if size == "small" else 4, 500 if size == "small" else 10691)


def _parboil(name: str, stems: list[str], exts: dict[str, str], args=None, prepare=None, check=None,
             note: str = "its data sets are not in the copy (not generated yet)", stops=None, **more) -> App:
    srcs = [f"src/cuda/{s}{exts.get(s, '.cu')}" for s in stems] + ["../../common/src/parboil_cuda.c"]
    return App("parboil", name, f"parboil/benchmarks/{name}", srcs, args or {"small": None, "full": None},
               flags=["-I{root}/parboil/common/include", "-I{dir}/src/cuda"], prepare=prepare, check=check, note=note,
               stops=stops or {}, **more)


# m, k, n: regtileSgemm takes m a multiple of 128 and n a multiple of 16.
SGEMM = {"small": (128, 32, 48), "full": (128, 96, 160)}


def _sgemm_prepare(folder: Path, size: str):
    return inputs.parboil_sgemm_inputs(folder, *SGEMM[size])


def _sized(make: Callable, sizes: dict[str, tuple], used: int | None = None) -> Callable:
    """A prepare step: ``make(folder, *first used parameters of the size)``
    writes the inputs; the size's parameters go on to the check."""
    def prepare(folder: Path, size: str) -> tuple:
        make(folder, *sizes[size][:used])
        return sizes[size]
    return prepare


# srad_v2 stops at its own out-of-bounds read; the row says why a GPU runs it.
SRAD_V2_READ = ("the program's own out-of-bounds read: srad_cuda_1 loads J_cuda[index_n] in every block and only "
                "then replaces it for the top block row, so block row 0 reads the row above the image and discards "
                "it. A GPU faults only on unmapped pages and cudaMalloc carves buffers out of larger mapped regions, "
                "so on NVIDIA's GPU the read usually returns stale bytes; the simulator stops at any access outside "
                "every allocation")


def _source(relative: str) -> Path:
    """A file of the suites' sources (a reference reads a table from it)."""
    root = apps_folder()
    if root is None:
        raise FileNotFoundError("the CUDA suites (../shared/data/apps) are not present")
    return root / relative


# PolyBench/GPU's sizes are plain #defines of each source (no #ifndef, so a -D
# cannot change them): the program runs as it is, at its full size, whichever
# size the table is made at, under the table's wall budget.
POLYBENCH_NOTE = "full size (fixed by its source)"
# One warp of CORR's and COVAR's corr/covar kernels runs (M - j1) * N inner
# iterations (about 4 M at 2048 x 2048), past the runtime's default 2^24 warp
# instructions; the wall budget bounds these runs instead.
POLYBENCH_MAX_WARP_INSTS = 1 << 40


def _polybench(name: str, source: str) -> App:
    return App("polybench", name, f"polybench-gpu-1.0/CUDA/{name}", [source],
               {"small": [], "full": []}, flags=["-I{root}/polybench-gpu-1.0/common"],
               check=lambda folder, out, extra: inputs.polybench_check(folder, out), note=POLYBENCH_NOTE,
               covers=POLYBENCH_NOTE, max_warp_insts=POLYBENCH_MAX_WARP_INSTS)


R = "rodinia/3.1/cuda"
HOTSPOT = {"small": (64, 20), "full": (512, 60)}            # grid side, steps (pyramid height 2)
HOTSPOT3D = {"small": (128, 4, 10), "full": (512, 8, 100)}  # grid side, layers, steps
SRAD_V1 = {"small": (2, 0.5, 64, 64), "full": (100, 0.5, 502, 458)}  # steps, lambda, rows, columns
STENCIL = {"small": (128, 32, 16, 4), "full": (512, 512, 64, 100)}  # nx, ny, nz, steps
MRIQ = {"small": (512, 2048), "full": (3072, 32768)}                 # k-space samples, voxels
HISTO = {"small": (256, 64, 256, 192, 1), "full": (1024, 1024, 1024, 96, 20)}  # image, bins, iterations
TPACF = {"small": (256, 2), "full": (4096, 20)}                    # points a set, random sets
CUTCP = {"small": (200, 12.0), "full": (4000, 40.0)}               # atoms, box side (Angstroms)
MRI_GRIDDING = {"small": (2048, 16), "full": (65536, 64)}       # samples, reconstruction matrix side
LBM_STEPS = 100                                                     # full size only (fixed grid)
DWT2D = {"small": 64, "full": 1024}                                 # image side (3 levels, 5/3 forward)
HEARTWALL = {"small": 1, "full": 20}                                # video frames tracked
NW = {"small": 64, "full": 2048}                                    # sequence length (penalty 10)
PARTICLEFILTER = {"small": (32, 32, 4, 100), "full": (128, 128, 10, 1000)}  # x, y, frames, particles
STREAMCLUSTER = {"small": ["2", "4", "16", "256", "256", "100", "none", "output.txt", "1"],  # k1 k2 d n chunk
                 "full": ["10", "20", "256", "65536", "65536", "1000", "none", "output.txt", "1"]}
LAVAMD = {"small": 2, "full": 10}                                   # boxes a side (100 particles a box)
BTREE = {"small": (4096, 256, 128), "full": (1000000, 10000, 6000)}  # keys, finds, range searches

# What the rows of programs with no or a partial check say.
BACKPROP_NOTE = ("the program exposes nothing to check: it prints only its layer size and progress lines, writes no "
                 "file (bpnn_save is never called) and frees the trained weights unseen")
CLOCK_SEEDED = ("seeded from the clock: {what} checked against a replay of each second the run spanned (the "
                "cycles vary with the seed)")
HEARTWALL_COVERS = ("one frame (a second frame's tracking kernel ran over 600 s simulated here); checked: frame 0's "
                  "recorded wall points (built with -DOUTPUT), the only output of one frame")

# Parboil's makefiles build host C/C++ with the app's flags and no -O (sgemm:
# -ffast-math -g3); its io.cc reads its matrices only so, since
# readColMajorMatrixFile falls off its end, which the optimizer makes a trap.
SGEMM_HOST_FLAGS = ["-ffast-math", "-g3", "-I{root}/parboil/common/include"]
SGEMM_COVERS = "io.cc built as Parboil's makefile builds host code (g++ -ffast-math -g3, unoptimized)"


def _particlefilter(version: str) -> App:
    """Rodinia's particle filter, naive (resampling on the GPU) or float
    (the whole filter on the GPU); seeded from the clock (cuda_apps_seeded)."""
    return App("rodinia", f"particlefilter_{version}", f"{R}/particlefilter", [f"ex_particle_CUDA_{version}_seq.cu"],
               {z: [a for f, v in zip(("-x", "-y", "-z", "-np"), PARTICLEFILTER[z]) for a in (f, str(v))]
                for z in PARTICLEFILTER},
               prepare=lambda folder, size: (PARTICLEFILTER[size], time.time()),
               check=lambda folder, out, extra: seeded.particlefilter_check(out, extra[0], extra[1],
                                                                            byte=version == "float"),
               covers=CLOCK_SEEDED.format(what="its estimates"))


APPS: list[App] = [
    App("rodinia", "bfs", f"{R}/bfs", ["bfs.cu"], {"small": ["{input}"], "full": ["{input}"]},
        prepare=_bfs_prepare, check=lambda folder, out, graph: inputs.bfs_check(folder, out, graph)),
    App("rodinia", "pathfinder", f"{R}/pathfinder", ["pathfinder.cu"],
        {"small": ["256", "8", "4"], "full": ["100000", "100", "20"]}, flags=["-DBENCH_PRINT"],
        check=lambda folder, out, extra: inputs.pathfinder_check(folder, out, *extra),
        prepare=lambda folder, size: (256, 8) if size == "small" else (100000, 100)),
    App("rodinia", "nn", f"{R}/nn", ["nn_cuda.cu"],
        {"small": ["{input}", "-r", "5", "-lat", "30", "-lng", "90"],
         "full": ["{input}", "-r", "5", "-lat", "30", "-lng", "90"]},
        prepare=_nn_prepare, check=lambda folder, out, extra: inputs.nn_check(folder, out, 5, 30.0, 90.0)),
    App("rodinia", "lud", f"{R}/lud", ["cuda/lud.cu", "cuda/lud_kernel.cu", "common/common.c"],
        {"small": ["-s", "64", "-v"], "full": ["-s", "256", "-v"]}, flags=["-I{dir}/common"],
        check=lambda folder, out, extra: inputs.lud_check(folder, out)),
    App("rodinia", "hotspot", f"{R}/hotspot", ["hotspot.cu"],
        {z: [str(HOTSPOT[z][0]), "2", str(HOTSPOT[z][1]), "temp.txt", "power.txt", "output.txt"] for z in HOTSPOT},
        prepare=_sized(rodinia.hotspot_inputs, HOTSPOT, 1),
        check=lambda folder, out, extra: rodinia.hotspot_check(folder, *extra)),
    App("rodinia", "nw", f"{R}/nw", ["needle.cu"], {z: [str(NW[z]), "10"] for z in NW}, flags=["-DTRACEBACK"],
        prepare=lambda folder, size: NW[size],
        check=lambda folder, out, n: rodinia.nw_check(folder, n, 10, _source(f"{R}/nw/needle.cu"))),
    App("rodinia", "srad_v2", f"{R}/srad/srad_v2", ["srad.cu"],
        {"small": ["64", "64", "0", "31", "0", "31", "0.5", "2"], "full": ["2048", "2048", "0", "127", "0", "127",
                                                                             "0.5", "2"]},
        stops={"out of bounds": SRAD_V2_READ}),
    App("rodinia", "backprop", f"{R}/backprop", ["backprop.c", "facetrain.c", "imagenet.c", "backprop_cuda.cu"],
        {"small": ["1024"], "full": ["65536"]}, note=BACKPROP_NOTE),
    App("rodinia", "gaussian", f"{R}/gaussian", ["gaussian.cu"], {"small": ["-s", "16"], "full": ["-s", "256"]}),
    _particlefilter("naive"),
    App("rodinia", "streamcluster", f"{R}/streamcluster", ["streamcluster_cuda_cpu.cpp", "streamcluster_cuda.cu"],
        dict(STREAMCLUSTER), prepare=lambda folder, size: STREAMCLUSTER[size],
        check=lambda folder, out, args: suite_refs.streamcluster_check(
            folder, _source(f"{R}/streamcluster/streamcluster_original.cpp"), args),
        covers="its centers equal, byte for byte, those of the suite's CPU original (streamcluster_original.cpp) "
               "run with the same arguments"),
    App("rodinia", "lavaMD", f"{R}/lavaMD", ["main.c", "kernel/kernel_gpu_cuda_wrapper.cu", "util/timer/timer.c",
                                             "util/num/num.c", "util/device/device.cu"],
        {z: ["-boxes1d", str(LAVAMD[z])] for z in LAVAMD}, flags=["-DOUTPUT"],
        prepare=lambda folder, size: (LAVAMD[size], time.time()),
        check=lambda folder, out, extra: seeded.lavamd_check(folder, *extra),
        covers=CLOCK_SEEDED.format(what="the forces it writes with -DOUTPUT")),
    App("rodinia", "hotspot3D", f"{R}/hotspot3D", ["3D.cu"],
        {z: [*map(str, HOTSPOT3D[z]), "power3d.txt", "temp3d.txt", "output.txt"] for z in HOTSPOT3D},
        prepare=_sized(rodinia.hotspot3d_inputs, HOTSPOT3D, 2),
        check=lambda folder, out, extra: rodinia.hotspot3d_check(out)),
    _particlefilter("float"),
    App("rodinia", "srad_v1", f"{R}/srad/srad_v1", ["main.cu"], {z: [*map(str, SRAD_V1[z])] for z in SRAD_V1},
        prepare=_sized(rodinia.srad_v1_image, SRAD_V1, 0),
        check=lambda folder, out, extra: rodinia.srad_v1_check(folder, *extra), workdir=rodinia.SRAD_WORKDIR),
    App("rodinia", "kmeans", f"{R}/kmeans", ["cluster.c", "getopt.c", "kmeans.c", "kmeans_clustering.c",
                                             "kmeans_cuda.cu", "rmse.c"], {"small": None, "full": None},
        note="needs a points file (not generated yet)"),
    App("rodinia", "b+tree", f"{R}/b+tree", ["main.c", "kernel/kernel_gpu_cuda_wrapper.cu",
                                             "kernel/kernel_gpu_cuda_wrapper_2.cu", "util/timer/timer.c",
                                             "util/num/num.c", "util/cuda/cuda.cu"],
        {z: ["file", "tree.txt", "command", "command.txt"] for z in BTREE},
        prepare=_sized(rodinia.btree_inputs, BTREE),
        check=lambda folder, out, extra: rodinia.btree_check(folder, *extra)),
    App("rodinia", "cfd", f"{R}/cfd", ["euler3d.cu"], {"small": None, "full": None}),
    App("rodinia", "dwt2d", f"{R}/dwt2d", ["main.cu", "dwt.cu", "components.cu", "dwt_cuda/fdwt53.cu",
                                           "dwt_cuda/fdwt97.cu", "dwt_cuda/rdwt53.cu", "dwt_cuda/rdwt97.cu",
                                           "dwt_cuda/common.cu"],
        {z: ["image.rgb", "-d", f"{DWT2D[z]}x{DWT2D[z]}", "-f", "-5", "-l", "3"] for z in DWT2D},
        flags=["-DOUTPUT"], prepare=_sized(rodinia.dwt2d_image, {z: (DWT2D[z],) for z in DWT2D}),
        check=lambda folder, out, extra: rodinia.dwt2d_check(folder, extra[0], 3)),
    App("rodinia", "myocyte", f"{R}/myocyte", ["main.cu"], {"small": None, "full": None},
        note="reads the cell model's measured initial state and parameters (../../data/myocyte/y.txt, params.txt: "
             "not in the copy); random values would not be a meaningful stiff ODE system"),
    App("rodinia", "heartwall", f"{R}/heartwall", ["main.cu", "AVI/avilib.c", "AVI/avimod.c"],
        {z: ["video.avi", str(HEARTWALL[z])] for z in HEARTWALL}, flags=["-I{dir}/AVI", "-DOUTPUT"],
        prepare=_sized(rodinia.heartwall_video, {z: (HEARTWALL[z],) for z in HEARTWALL}),
        check=lambda folder, out, extra: suite_refs.heartwall_check(folder, _source(f"{R}/heartwall/main.cu")),
        covers=HEARTWALL_COVERS),
    App("rodinia", "leukocyte", f"{R}/leukocyte/CUDA", ["detect_main.c", "avilib.c", "find_ellipse.c",
                                                          "find_ellipse_kernel.cu", "track_ellipse.c",
                                                          "track_ellipse_kernel.cu", "misc_math.c"],
        {"small": None, "full": None}, flags=["-I{dir}/../meschach_lib"], note="reads a video file (not in the copy)"),
    App("rodinia", "hybridsort", f"{R}/hybridsort", ["main.cu", "bucketsort.cu", "mergesort.cu"],
        {"small": ["r"], "full": ["r"]}),
    App("rodinia", "huffman", f"{R}/huffman", ["main_test_cu.cu", "cpuencode.cpp"], {"small": None, "full": None},
        note="needs an input file (not generated yet)"),
    App("rodinia", "mummergpu", f"{R}/mummergpu", ["src/mummergpu.cu", "src/mummergpu_gold.cpp",
                                                    "src/mummergpu_main.cpp", "src/suffix-tree.cpp",
                                                    "src/PoolMalloc.cpp"], {"small": None, "full": None},
        note="needs reference and query sequence files (not generated yet)"),
    _parboil("sgemm", ["main"], {},
             {"small": ["-i", "{input}", "-o", "C.txt"], "full": ["-i", "{input}", "-o", "C.txt"]},
             prepare=_sgemm_prepare, check=lambda folder, out, extra: inputs.parboil_sgemm_check(folder, extra),
             stops={"SIGABRT": "aborts (std::bad_cast) reading its input, before any CUDA call and with "
                                "NVIDIA's runtime too: io.cc's readColMajorMatrixFile ends without a return "
                                "(undefined behaviour when optimized)"}, note="",
             host_sources=["src/cuda/io.cc"], host_flags=SGEMM_HOST_FLAGS, covers=SGEMM_COVERS),
    _parboil("bfs", ["main"], {}),
    _parboil("cutcp", ["main", "readatom", "output", "excl", "cutcpu", "cutoff6overlap"],
             {"main": ".c", "readatom": ".c", "output": ".c", "excl": ".c", "cutcpu": ".c"},
             {z: ["-i", "input.pqr", "-o", "output.bin"] for z in CUTCP}, prepare=_sized(parboil.cutcp_input, CUTCP),
             check=lambda folder, out, extra: parboil.cutcp_check(folder), note=""),
    _parboil("histo", ["main", "histo_final", "histo_intermediates", "histo_main", "histo_prescan", "util"], {},
             {z: ["-i", "input.bin", "-o", "output.bmp", str(HISTO[z][4])] for z in HISTO},
             prepare=_sized(parboil.histo_input, HISTO, 4),
             check=lambda folder, out, extra: parboil.histo_check(folder), note=""),
    _parboil("lbm", ["main", "lbm"], {"main": ".cc"},
             {"small": None, "full": ["-i", "obstacles.txt", "-o", "output.bin", "--", str(LBM_STEPS)]},
             prepare=lambda folder, size: parboil.lbm_obstacles(folder, 12),
             note="its grid is fixed at compile time (120 x 120 x 150 cells): one time step ran over 600 s "
                  "simulated here, so it runs at full size only (generated obstacles; the program has no check)"),
    _parboil("mri-gridding", ["CPU_kernels", "CUDA_interface", "scanLargeArray", "sort", "main"],
             {"CPU_kernels": ".c"}, {z: ["-i", "input.txt", "-o", "output.bin"] for z in MRI_GRIDDING},
             prepare=_sized(parboil.mri_gridding_input, MRI_GRIDDING),
             check=lambda folder, out, extra: parboil.mri_gridding_check(folder), note=""),
    _parboil("mri-q", ["file", "main"], {"file": ".cc"}, {z: ["-i", "input.bin", "-o", "output.bin"] for z in MRIQ},
             prepare=_sized(parboil.mriq_input, MRIQ), check=lambda folder, out, extra: parboil.mriq_check(folder),
             note=""),
    _parboil("sad", ["file", "image", "sad4", "largerBlocks", "main"], {"file": ".c", "image": ".c"}),
    _parboil("spmv", ["main", "file", "gpu_info"], {"file": ".cc", "gpu_info": ".cc"}),
    _parboil("stencil", ["main", "file"], {"file": ".cc"},
             {z: ["-i", "input.bin", "-o", "output.bin", *map(str, STENCIL[z])] for z in STENCIL},
             prepare=_sized(parboil.stencil_input, STENCIL, 3),
             check=lambda folder, out, extra: parboil.stencil_check(folder, *extra), note=""),
    _parboil("tpacf", ["args", "model_io", "main"], {"args": ".cc", "model_io": ".cc"},
             {z: ["-i", "{input}", "-o", "output.txt", "--", "-n", str(TPACF[z][1]), "-p", str(TPACF[z][0])]
              for z in TPACF},
             prepare=lambda folder, size: parboil.tpacf_inputs(folder, *TPACF[size]),
             check=lambda folder, out, files: parboil.tpacf_check(folder, files), note=""),
    *[_polybench(n, s) for n, s in [
        ("2DCONV", "2DConvolution.cu"), ("2MM", "2mm.cu"), ("3DCONV", "3DConvolution.cu"), ("3MM", "3mm.cu"),
        ("ATAX", "atax.cu"), ("BICG", "bicg.cu"), ("CORR", "correlation.cu"), ("COVAR", "covariance.cu"),
        ("FDTD-2D", "fdtd2d.cu"), ("GEMM", "gemm.cu"), ("GESUMMV", "gesummv.cu"), ("GRAMSCHM", "gramschmidt.cu"),
        ("MVT", "mvt.cu"), ("SYR2K", "syr2k.cu"), ("SYRK", "syrk.cu")]],
]


def apps_folder() -> Path | None:
    """``../shared/data/apps`` beside the repository (or $ACCELSIM_SHARED_DATA/apps)."""
    import os

    here = Path(__file__).resolve()
    candidates = [Path(os.environ["ACCELSIM_SHARED_DATA"]) / "apps"] if os.environ.get("ACCELSIM_SHARED_DATA") else []
    candidates += [p / "shared" / "data" / "apps" for p in here.parents]
    return next((c for c in candidates if c.is_dir()), None)


def _expand(items: list[str], root: Path, app: App, extra) -> list[str]:
    return [s.format(root=root, dir=root / app.folder, input=extra) for s in items]


# CUDA 13 removed cudaThreadSynchronize (deprecated since CUDA 4); programs
# still calling it build with this define when asked (--compat), nothing else.
COMPAT_FLAGS = ["-DcudaThreadSynchronize=cudaDeviceSynchronize"]


def _host_objects(app: App, root: Path, out: Path) -> list[Path]:
    """Compiles the program's ``host_sources`` with the host compiler and
    ``host_flags``, as its own makefile does (nvcc puts its -O3 after any
    -Xcompiler level, so these cannot go through nvcc)."""
    from accelsim.errors import AccelsimError

    objects = []
    for src in app.host_sources:
        cc = shutil.which("g++" if src.endswith((".cc", ".cpp")) else "gcc")
        obj = out / f"{app.name}-{Path(src).stem}.o"
        if cc is None:
            raise AccelsimError(f"error: no host compiler on PATH for {src}")
        proc = subprocess.run([cc, "-c", "-w", *_expand(app.host_flags, root, app, None), src, "-o", str(obj)],
                              capture_output=True, text=True, cwd=root / app.folder, timeout=600)
        if proc.returncode != 0:
            raise AccelsimError(f"{src}: error: {proc.stderr.strip()[-400:]}")
        objects.append(obj)
    return objects


def build_app(app: App, root: Path, out: Path, nvcc=None, compat: bool = False) -> tuple[Path | None, str]:
    """Builds the program as it is (``compat``: with COMPAT_FLAGS too):
    (executable, "") or (None, nvcc's first error)."""
    from accelsim.cuda.nvcc import compile_cuda_sources

    exe = out / app.name
    extra = COMPAT_FLAGS if compat else []
    try:
        objects = _host_objects(app, root, out)
        compile_cuda_sources([root / app.folder / s for s in app.sources] + objects, exe,
                             flags=["-O3", "-w", *extra, *_expand(app.flags, root, app, None)], nvcc=nvcc,
                             cwd=root / app.folder)
    except Exception as e:  # nvcc's message is the row's explanation
        lines = [ln for ln in str(e).splitlines() if "error" in ln] or str(e).splitlines()[-1:]
        return None, re.sub(r"^.*?/(?=[^/]*:)|^.*?/(?=[^/]*\()", "", lines[0].strip())[:160]
    return exe, ""


def build_app_or_compat(app: App, root: Path, out: Path, nvcc=None) -> tuple[Path | None, str, bool]:
    """Builds the program as it is, or, when that fails only for the removed
    cudaThreadSynchronize, again with COMPAT_FLAGS: (executable or None, why,
    whether COMPAT_FLAGS were used)."""
    exe, why = build_app(app, root, out, nvcc)
    if exe is None and "cudaThreadSynchronize" in why:
        exe, why = build_app(app, root, out, nvcc, compat=True)
        return exe, why, exe is not None
    return exe, why, False


def _why_stopped(app: App, r, exe: Path) -> str:
    """The row's note for a run that did not end normally (without the
    temporary build folder in the program's path)."""
    last = (r.stderr or "").strip().splitlines()[-1:]
    return _explained(app, r.error or f"exit status {r.returncode}: {last[0] if last else ''}", exe)


def _explained(app: App, message: str, exe: Path) -> str:
    """A stop's message without the temporary build folder, after the
    program's known reason for it when it has one."""
    why = message.replace(f"{exe.parent}/", "")
    known = next((v for k, v in app.stops.items() if k in why), None)
    return f"{known} ({why[:240]})" if known else why[:200]


def _verdict(app: App, r, folder: Path, extra) -> dict:
    """correct and note of a run that ended normally."""
    if app.check is None:
        return {"why": app.note or "the program has no check"}
    try:
        ok = bool(app.check(folder, r.stdout or "", extra))
    except suite_refs.ReferenceUnavailable as e:
        return {"why": f"no reference here: {e}"[:200]}
    except (OSError, ValueError) as e:  # an output file missing or malformed is a wrong result
        return {"correct": False, "why": f"its output cannot be read: {e}"[:200]}
    return {"correct": ok, "why": app.covers if ok else "result differs from the reference"}


def _progress(r, budget: float) -> dict:
    """The row of a run stopped at the wall budget: what it measured up to
    the stop (kernels finished, the simulated clock, the simulation rate)."""
    k = r.kernels
    done = int((k["status"] == "simulated").sum()) if len(k) else 0
    cut = len(k) - done
    insts = int(k["warp_instructions"].sum()) if len(k) else 0
    sim_s = r.extra["runtime_wall"]["simulation_s"]
    where = f", 1 cut off in {k['name'].iloc[-1].split('(')[0]}" if cut else " (stopped outside a kernel)"
    rate = f" at {insts / sim_s:,.0f} per second of simulation" if sim_s > 0 else ""
    kernels = "1 kernel" if done == 1 else f"{done} kernels"
    return {"kernels": done, "cycles": r.total_cycles,
            "why": f"did not finish in the {budget:g} s wall budget: {kernels} done{where}, by simulated cycle "
                   f"{r.total_cycles:,}; {insts:,} warp instructions simulated{rate}"}


# The default wall budget per program of the table command: every program
# that finishes in it reports its result; the others report their progress.
DEFAULT_BUDGET_S = 300.0
# How long past its wall budget a program may take to stop and write its
# result before it is killed (with no result).
STOP_GRACE_S = 120.0


def run_app(app: App, exe: Path, root: Path, size: str, config: str, budget: float) -> dict:
    """Runs the built program at ``size`` for at most ``budget`` seconds of
    wall time; the table row (a program stopped at the budget: what it
    measured so far)."""
    from accelsim.cuda import run_cuda

    row = {"suite": app.suite, "program": app.name, "built": True, "ran": False, "correct": None,
           "kernels": None, "cycles": None, "wall_s": None, "why": ""}
    args = app.args.get(size)
    if args is None:
        row["why"] = app.note or f"no {size} inputs"
        return row
    with tempfile.TemporaryDirectory(prefix=f"accelsim-{app.name}-") as tmp:
        folder = Path(tmp)
        extra = app.prepare(folder, size) if app.prepare else None
        start = time.perf_counter()
        try:
            r = run_cuda([str(exe), *_expand(args, root, app, extra)], config, capture_output=True,
                         cwd=folder / app.workdir, wall_limit=budget, timeout=budget + STOP_GRACE_S,
                         max_warp_insts=app.max_warp_insts)
        except Exception as e:  # a stop of the launcher (timeout, ...) is the row's explanation
            row["why"] = _explained(app, str(e).splitlines()[0], exe)
            row["wall_s"] = time.perf_counter() - start
            return row
        row.update(wall_s=r.wall_time_s, kernels=r.num_kernels, cycles=r.total_cycles,
                   ran=r.returncode == 0 and r.status == "exited")
        if r.status == "wall_limit":
            row.update(_progress(r, budget))
        else:
            row.update(_verdict(app, r, folder, extra) if row["ran"] else {"why": _why_stopped(app, r, exe)})
    return row


def run_suites(size: str = "small", only: list[str] | None = None, config: str = "QV100",
               budget: float = DEFAULT_BUDGET_S, progress=None, compat: bool = False) -> list[dict]:
    """Builds and runs the selected programs, each for at most ``budget``
    seconds of wall time; one row each. ``compat``: a program that does not
    build as it is is built again with COMPAT_FLAGS (the row says so)."""
    from accelsim.cuda.nvcc import find_nvcc

    root = apps_folder()
    if root is None:
        raise FileNotFoundError("the CUDA suites (../shared/data/apps) are not present")
    nvcc = find_nvcc()
    rows = []
    with tempfile.TemporaryDirectory(prefix="accelsim-apps-") as tmp:
        for app in APPS:
            if only and app.name not in only:
                continue
            if compat:
                exe, why, used_compat = build_app_or_compat(app, root, Path(tmp), nvcc)
            else:
                (exe, why), used_compat = build_app(app, root, Path(tmp), nvcc), False
            row = run_app(app, exe, root, size, config, budget) if exe else {
                "suite": app.suite, "program": app.name, "built": False, "ran": False, "correct": None,
                "kernels": None, "cycles": None, "wall_s": None, "why": why}
            if used_compat:
                row["program"] = f"{app.name} (compat)"
            rows.append(row)
            if progress:
                progress(row)
    return rows


def _cell(v, fmt: str = "{}") -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return fmt.format(v)


def table(rows: list[dict]) -> str:
    """The Markdown table of docs/cuda_apps.md."""
    out = ["| suite | program | built | ran | correct | kernels | simulated cycles | wall (s) | why not / note |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ran = r["ran"] if r["built"] else None
        out.append(f"| {r['suite']} | {r['program']} | {_cell(r['built'])} | {_cell(ran)} | {_cell(r['correct'])} "
                   f"| {_cell(r['kernels'])} | {_cell(r['cycles'], '{:,}')} | {_cell(r['wall_s'], '{:.1f}')} "
                   f"| {r['why'].replace('|', '/')} |")
    return "\n".join(out)


MARK_BEGIN, MARK_END = "<!-- cuda-apps table: begin -->", "<!-- cuda-apps table: end -->"


def write_doc(doc: Path, text: str, merge: bool = False) -> None:
    """Writes the table (and its footnote) between the doc's markers.
    ``merge``: the table holds some programs only; their rows replace the
    doc's rows of the same programs and the footnote is added below the
    doc's, so the other rows and what they were measured with stay."""
    s = doc.read_text()
    if MARK_BEGIN not in s or MARK_END not in s:
        raise ValueError(f"{doc}: no {MARK_BEGIN} ... {MARK_END} markers")
    a, b = s.index(MARK_BEGIN) + len(MARK_BEGIN), s.index(MARK_END)
    if merge:
        text = _merged(s[a:b].strip(), text)
    doc.write_text(s[:a] + "\n" + text + "\n" + s[b:])


def _row_key(line: str) -> tuple[str, str] | None:
    """(suite, program without "(compat)") of a table row; None for other lines."""
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if not line.startswith("| ") or len(cells) < 2 or cells[0] in ("suite", "---"):
        return None
    return cells[0], cells[1].removesuffix(" (compat)")


def _merged(old: str, new: str) -> str:
    """The doc's table with ``new``'s rows in place of its rows of the same
    programs (new programs at the end of the rows), and ``new``'s footnote
    after the doc's."""
    fresh = {k: ln for ln in new.splitlines() if (k := _row_key(ln))}
    lines = [fresh.pop(k) if (k := _row_key(ln)) in fresh else ln for ln in old.splitlines()]
    last_row = max(i for i, ln in enumerate(lines) if ln.startswith("|"))
    lines[last_row + 1:last_row + 1] = list(fresh.values())
    notes = [ln for ln in new.splitlines() if ln.strip() and not ln.startswith("|")]
    return "\n".join(lines + notes)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m accelsim.bench.cuda_apps", description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=["small", "full"], default="small")
    p.add_argument("--only", action="append", default=None, metavar="NAME",
                   help="this program only (repeat it, or give a comma-separated list)")
    p.add_argument("--config", default="QV100")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, metavar="S",
                   help="wall seconds per program; a program still running is stopped and its row gives what it "
                        f"measured so far (default {DEFAULT_BUDGET_S:g})")
    p.add_argument("--write-doc", default=None, metavar="MD",
                   help="write the table into this doc (markers); with --only, replace those programs' rows")
    p.add_argument("--compat", action="store_true",
                   help="build programs calling cudaThreadSynchronize (removed in CUDA 13) with "
                        "-DcudaThreadSynchronize=cudaDeviceSynchronize")
    a = p.parse_args(argv)
    if a.only:
        a.only = [n for item in a.only for n in item.split(",") if n]
        unknown = sorted(set(a.only) - {app.name for app in APPS})
        if unknown:
            p.error(f"--only: no program named {', '.join(unknown)} (known: {', '.join(app.name for app in APPS)})")
    rows = run_suites(a.size, a.only, a.config, a.budget, compat=a.compat,
                      progress=lambda r: print(f"{r['suite']:10s} {r['program']:22s} built={r['built']} "
                                               f"ran={r['ran']} correct={r['correct']} {r['why']}", file=sys.stderr))
    what = f"{', '.join(a.only)}: " if a.only else ""
    text = table(rows) + (f"\n\n({what}size {a.size}, config {a.config}, wall budget {a.budget:g} s per program"
                          f"{'; (compat): built with ' + COMPAT_FLAGS[0] if a.compat else ''})")
    print(text)
    if a.write_doc:
        write_doc(Path(a.write_doc), text, merge=bool(a.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())

