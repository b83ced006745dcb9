"""Bad inputs of the catalogue that reach accelsim's input checks beyond the
trace and config contents: selections that name nothing, paths that are not
regular files, nesting without end, names that do not exist, outputs onto the
wrong kind of path, tuning arguments, and sweep results damaged on disk.
Placeholders as in ``catalogue_cases``."""
from __future__ import annotations

from accelsim.devtools.catalogue_cases import Case, _kernel, _one_kernel

S = "inputs"  # the section column of the catalogue table
# A spec's workloads are relative to it: the case's own folder holds one (files are
# written as they are, without placeholders).
_SPEC = "workloads: {v: kernelslist.g}\nconfig: QV100\ngrid: {icnt_latency: [4, 8]}\n"
_PROFILE = ('{"schema": "accelsim.hw-profile/1", "device": {}, "measurements": '
            '{"l1_size": {"value": 32768, "unit": "B"}}}\n')
_GOOD_PROFILE = _PROFILE.replace('"l1_size": {"value": 32768, "unit": "B"}',
                                 '"l1_lat": {"value": 33.7, "unit": "cycles"}')
_TUNE = ("tune", "config", "--hw", "{d}/hw.json", "--spec", "TITANV", "-o", "{d}/out.yaml")
_DAMAGE = ("import pathlib\n"
           "out = '{d}/sweep'\n"
           "accelsim.sweep('{example}', 'QV100', {'icnt_latency': [4, 8]}, out=out, "
           "engine='serial', progress=False)\n"
           "run = sorted(pathlib.Path(out, 'runs').glob('*.parquet'))[0]\n"
           "data = bytearray(run.read_bytes()); data[len(data) // 3] ^= 0xFF\n"
           "run.write_bytes(bytes(data))\n")


def _selections() -> list[Case]:
    return [Case(S, f"`--kernels {spec!r}` (names no id)", cli=("run", "{example}", "--kernels", spec))
            for spec in (",,,", "", "+3", "1_000")] + [
        Case(S, "`Simulator().run(w, kernels=[])`",
             code="accelsim.Simulator('QV100').run('{example}', kernels=[])")]


def _not_files() -> list[Case]:
    fifo = "import os; os.mkfifo('{d}/pipe')\n"
    return [
        Case(S, "`config check /dev/zero`", cli=("config", "check", "/dev/zero")),
        Case(S, "`config check` on a folder", cli=("config", "check", "{d}")),
        Case(S, "`run --config /dev/zero`", cli=("run", "{example}", "--config", "/dev/zero")),
        Case(S, "a named pipe as a config (`load_config`)",
             code=fifo + "accelsim.load_config('{d}/pipe')"),
        Case(S, "`accelsim run /dev/zero`", cli=("run", "/dev/zero")),
        Case(S, "a named pipe as a trace (`open_trace`)", code=fifo + "accelsim.open_trace('{d}/pipe')"),
        Case(S, "kernelslist entry that links to /dev/zero",
             code="import os; os.symlink('/dev/zero', '{d}/kernel-1.traceg')\n"
                  "accelsim.open_trace('{d}/kernelslist.g')",
             files={"kernelslist.g": "kernel-1.traceg\n"}),
        Case(S, "`config import /dev/zero`", cli=("config", "import", "/dev/zero")),
        Case(S, "`correlate --hw /dev/zero`",
             cli=("correlate", "--hw", "/dev/zero", "--sim", "{result}", "--out", "{d}/r")),
        Case(S, "`tune config --hw /dev/zero`",
             cli=("tune", "config", "--hw", "/dev/zero", "--spec", "TITANV", "-o", "{d}/o.yaml")),
        Case(S, "`tune config --spec` a folder",
             cli=("tune", "config", "--hw", "{d}/hw.json", "--spec", "{d}", "-o", "{d}/o.yaml"),
             files={"hw.json": _GOOD_PROFILE}),
    ]


def _nesting() -> list[Case]:
    return [
        Case(S, "5,000-deep YAML list in `config check`", cli=("config", "check", "{d}/deep.yaml"),
             files={"deep.yaml": "sm_count: " + "[" * 5000 + "]" * 5000 + "\n"}),
        Case(S, "5,000-deep YAML mapping in `config show`", cli=("config", "show", "{d}/deep.yaml"),
             files={"deep.yaml": "sm_count: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n"}),
        Case(S, "1,000,000 unclosed '[' in a YAML config (libyaml's C composer)",
             cli=("config", "check", "{d}/deep.yaml"), files={"deep.yaml": "a: " + "[" * 1_000_000}),
        Case(S, "2,000-deep indented YAML sweep spec", cli=("sweep", "{d}/spec.yaml"),
             files={"spec.yaml": "".join("  " * i + f"k{i}:\n" for i in range(2000))}),
        Case(S, "YAML alias inside the list it names (`exec_units: &a [*a]`)",
             cli=("config", "check", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: QV100\nexec_units: &a [*a]\n"}),
        Case(S, "YAML aliases of aliases standing for 10^9 values ('billion laughs')",
             cli=("config", "check", "{d}/gpu.yaml"),
             files={"gpu.yaml": "base: QV100\ndescription: [&a0 [1,1,1,1,1,1,1,1,1,1], "
                    + ", ".join(f"&a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9))
                    + "]\nsm_count: *a8\n"}),
        Case(S, "5,000-deep YAML metric map (`correlate --map`)",
             cli=("correlate", "--hw", "{d}/hw.csv", "--sim", "{result}", "--out", "{d}/r",
                  "--map", "{d}/deep.yaml"),
             files={"deep.yaml": "counters: " + "[" * 5000 + "]" * 5000 + "\n", "hw.csv": ""}),
    ]


def _names_and_outputs() -> list[Case]:
    return [
        Case(S, "`accelsim bench --case nosuch`", cli=("bench", "--case", "nosuch")),
        Case(S, "`accelsim bench --sweep --engine nosuch`", cli=("bench", "--sweep", "--engine", "nosuch")),
        Case(S, "`sweep --out` onto an existing file", cli=("sweep", "{d}/spec.yaml", "--out", "{d}/taken"),
             files={"spec.yaml": _SPEC, "taken": "", **_one_kernel(_kernel())}),
        Case(S, "`sweep --csv` onto a folder", cli=("sweep", "{d}/spec.yaml", "--csv", "{d}"),
             files={"spec.yaml": _SPEC, **_one_kernel(_kernel())}),
        Case(S, "`accelsim.sweep(out=)` an existing file",
             code="accelsim.sweep('{example}', 'QV100', {'icnt_latency': [4]}, out='{d}/taken')",
             files={"taken": ""}),
        Case(S, "`config import -o` a folder", cli=("config", "import", "{d}/g.config", "-o", "{d}"),
             files={"g.config": "-gpgpu_n_clusters 4\n"}),
        Case(S, "`microbench --keep-traces` an existing file",
             cli=("microbench", "l1_lat", "--keep-traces", "{d}/taken"), files={"taken": ""}),
    ]


def _tuning() -> list[Case]:
    return [
        Case(S, "`tune config --workers 0`", cli=_TUNE + ("--workers", "0"), files={"hw.json": _GOOD_PROFILE}),
        Case(S, "`tune config --max-cycles 0`", cli=_TUNE + ("--max-cycles", "0"),
             files={"hw.json": _GOOD_PROFILE}),
        Case(S, "`tune config --search ';;'` (names no parameter)", cli=_TUNE + ("--search", ";;"),
             files={"hw.json": _GOOD_PROFILE}),
        Case(S, "`tune config --search scheduler=nope`", cli=_TUNE + ("--search", "scheduler=nope"),
             files={"hw.json": _GOOD_PROFILE}),
        Case(S, "`tune config -o` a folder",
             cli=("tune", "config", "--hw", "{d}/hw.json", "--spec", "TITANV", "-o", "{d}"),
             files={"hw.json": _GOOD_PROFILE}),
        Case(S, "tuning profile with none of the measurements the tuner uses", cli=_TUNE,
             files={"hw.json": _PROFILE}),
    ]


def _damaged_runs() -> list[Case]:
    return [
        Case(S, "sweep resumed over a run file with a flipped byte (recomputed, with a warning)",
             code=_DAMAGE + "t = accelsim.sweep('{example}', 'QV100', {'icnt_latency': [4, 8]}, "
                            "out=out, engine='serial', progress=False)\n"
                            "print(t.attrs['recomputed_unverified'], 'recomputed')",
             expect="warn", timeout=60),
        Case(S, "`load_sweep` over a run file with a flipped byte (left out, with a warning)",
             code=_DAMAGE + "t = accelsim.sweep.load_sweep(out)\nprint(t.attrs['missing_runs'])",
             expect="warn", timeout=60),
    ]


def cases() -> list[Case]:
    return _selections() + _not_files() + _nesting() + _names_and_outputs() + _tuning() \
        + _damaged_runs()
