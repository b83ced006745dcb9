"""Profiler readers: the real GTX 1080 exports load unmodified; bad input names its place."""
from __future__ import annotations

import pytest

from accelsim import ProfileError, read_profile
from accelsim.correlation import TIDY_COLUMNS, kernel_key
from accelsim.correlation.units import scale_of

PROFILER = "hw/gtx1080_vectoradd_profiler"


def value(frame, metric, launch=0):
    rows = frame[(frame["metric"] == metric) & (frame["launch"] == launch)]
    assert len(rows) == 1, (metric, launch, len(rows))
    return rows.iloc[0]["value"], rows.iloc[0]["unit"]


@pytest.fixture
def nsight(shared):
    return read_profile(shared / PROFILER / "nsight_vectoradd_100_32_metrics_all.csv")


def test_nsight_raw_launches_and_columns(nsight):
    assert list(nsight.columns) == TIDY_COLUMNS
    assert set(nsight["kernel"]) == {"vecAdd"}
    assert sorted(nsight["launch"].unique()) == [0, 1, 2]
    assert set(nsight["workload"]) == {"nsight_vectoradd_100_32_metrics_all"}
    # identifier columns are not metrics
    assert not nsight["metric"].isin(["ID", "Stream", "Kernel Name", "Process ID"]).any()


def test_nsight_raw_values(nsight):
    assert [value(nsight, "gpc__elapsed_cycles_max", i)[0] for i in range(3)] == [5774, 5761, 5801]
    assert value(nsight, "gpc__elapsed_cycles_max") == (5774.0, "cycle")
    # quoted numbers with thousands separators
    assert [value(nsight, "dram__read_bytes", i)[0] for i in range(3)] == [7552, 3264, 2176]
    assert value(nsight, "dram__bytes_per_sec")[0] == pytest.approx(2_917_647_058.82)
    assert value(nsight, "sm__elapsed_cycles_avg", 2)[0] == pytest.approx(5800.25)
    assert value(nsight, "gpu__time_duration") == (2720.0, "nsecond")
    assert value(nsight, "smsp__inst_executed_sum")[0] == 344
    assert value(nsight, "device__attribute_multiprocessor_count")[0] == 20
    assert value(nsight, "dram__read_sectors", 1) == (102.0, "sector")


def test_nsight_instanced_metrics_are_summed(nsight):
    # "32.00; 32.00; ...; 4.00; 0.00" per opcode sums to the kernel total
    assert value(nsight, "inst_executed")[0] == value(nsight, "smsp__inst_executed_sum")[0]
    assert value(nsight, "thread_inst_executed_true")[0] == 8 * 1024 + 924 + 14 * 100


def test_nsight_with_program_output_reads_the_same(shared, nsight):
    txt = read_profile(shared / PROFILER / "nsight_vectoradd_100_32_metrics_all.txt",
                       workload="nsight_vectoradd_100_32_metrics_all")
    assert txt.equals(nsight)


def test_nvprof_metrics_values(shared):
    frame = read_profile(shared / PROFILER / "nvprof_vectoradd_100_32_metrics_all.txt",
                         workload="vectoradd")
    assert set(frame["kernel"]) == {"_Z6vecAddIfEvPT_S1_S1_i"}
    assert set(frame["launch"]) == {0}
    assert value(frame, "elapsed_cycles_sm")[0] == 89855
    assert value(frame, "inst_executed")[0] == 344
    assert value(frame, "inst_issued")[0] == 408
    assert value(frame, "l2_read_transactions")[0] == 66
    assert value(frame, "dram_read_transactions")[0] == 223
    assert value(frame, "ipc")[0] == pytest.approx(0.427861)
    assert value(frame, "l2_read_throughput") == (pytest.approx(1.12205), "GB/s")
    assert value(frame, "global_hit_rate") == (0.0, "%")
    assert value(frame, "sysmem_utilization")[0] == 1  # "Low (1)"
    assert not frame["metric"].isin(["Device", "Correlation_ID"]).any()


def test_nvprof_gpu_trace_keeps_kernels_only(shared):
    frame = read_profile(shared / PROFILER / "nvprof_vectoradd_100_32_commands.txt")
    assert set(frame["kernel"]) == {"_Z6vecAddIfEvPT_S1_S1_i"}  # memcpy rows dropped
    assert value(frame, "Duration") == (pytest.approx(3.264), "us")
    assert value(frame, "Block X")[0] == 1024
    assert value(frame, "Registers Per Thread")[0] == 8
    assert "Size" not in set(frame["metric"])  # memcpy-only column, empty for kernels


def test_several_files_one_workload(shared):
    d = shared / PROFILER
    frame = read_profile({"vectoradd": [d / "nvprof_vectoradd_100_32_metrics_all.txt",
                                        d / "nvprof_vectoradd_100_32_commands.txt"]})
    assert set(frame["workload"]) == {"vectoradd"}
    assert {"Duration", "inst_executed"} <= set(frame["metric"])


HEADER = '"ID","Process ID","Kernel Name","gpc__cycles_elapsed.max","dram__bytes_read.sum"\n'
UNITS = '"","","","cycle","Kbyte"\n'


def write(tmp_path, text, name="p.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_bad_number_names_file_line_field(tmp_path):
    path = write(tmp_path, HEADER + UNITS + '"0","1","k","1,000.00","2.5"\n'
                 '"1","1","k","12x4","2.5"\n')
    with pytest.raises(ProfileError) as info:
        read_profile(path)
    assert (info.value.path, info.value.line, info.value.field) == (
        str(path), 4, "gpc__cycles_elapsed.max")
    assert "p.csv:4" in str(info.value) and "12x4" in str(info.value)


def test_ragged_row_names_line(tmp_path):
    path = write(tmp_path, "==PROF== Connected\n" + HEADER + UNITS + '"0","1","k","5"\n')
    with pytest.raises(ProfileError) as info:
        read_profile(path)
    assert info.value.line == 4 and "4 fields" in str(info.value)


def test_empty_kernel_name_names_field(tmp_path):
    path = write(tmp_path, HEADER + UNITS + '"0","1","","5","1"\n')
    with pytest.raises(ProfileError) as info:
        read_profile(path)
    assert (info.value.line, info.value.field) == (3, "Kernel Name")


def test_not_a_profile(tmp_path):
    path = write(tmp_path, "hello, world\nno table here\n")
    with pytest.raises(ProfileError, match="no profiler CSV header") as info:
        read_profile(path)
    assert info.value.path == str(path)


def test_missing_file_is_a_profile_error(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        read_profile(tmp_path / "absent.csv")


def test_nvprof_summary_is_refused_with_advice(tmp_path):
    path = write(tmp_path, '"Device","Kernel","Invocations","Metric Name","Metric Description",'
                           '"Min","Max","Avg"\n"GPU","k",1,"ipc","IPC",1,1,1\n')
    with pytest.raises(ProfileError, match="--print-gpu-trace") as info:
        read_profile(path)
    assert info.value.line == 1


def test_scaled_units_and_missing_cells(tmp_path):
    from accelsim.correlation.units import to_base_units
    path = write(tmp_path, HEADER + UNITS + '"0","1","k","n/a","1,500.5"\n')
    frame = to_base_units(read_profile(path))
    assert list(frame["metric"]) == ["dram__bytes_read.sum"]  # n/a cell: not collected
    assert frame.iloc[0]["value"] == pytest.approx(1_500_500) and frame.iloc[0]["unit"] == "byte"


@pytest.mark.parametrize("unit, factor, base", [
    ("usecond", 1e-6, "second"), ("us", 1e-6, "second"), ("Gbyte/second", 1e9, "byte/second"),
    ("MB/s", 2 ** 20, "byte/second"), ("%", 1, "%"), ("inst/cycle", 1, "inst/cycle"),
])
def test_unit_scales(unit, factor, base):
    assert scale_of(unit) == (pytest.approx(factor), base)


@pytest.mark.parametrize("name, key", [
    ("_Z6vecAddIfEvPT_S1_S1_i", "vecAdd"), ("vecAdd", "vecAdd"),
    ("void vecAdd<float>(float*, float*, float*, int)", "vecAdd"),
    ("_ZN7cutlass6KernelINS_4gemmEEEvNT_6ParamsE", "cutlass::Kernel"),
    ("ns::kern(int)", "ns::kern"),
])
def test_kernel_keys(name, key):
    assert kernel_key(name) == key


def test_nvprof_overflowed_counter_is_missing_not_an_error(tmp_path):
    path = write(tmp_path, '==1== Profiling result:\n'
                 '"Device","Context","Stream","Kernel","Correlation_ID","inst_executed","ipc"\n'
                 ',,,,,,\n'
                 '"GPU (0)","1","7","k",1,"<OVERFLOW>",0.5\n'
                 '"GPU (0)","1","7","k",2,344,0.4\n')
    frame = read_profile(path)
    assert list(frame[frame["metric"] == "inst_executed"]["launch"]) == [1]
    assert list(frame[frame["metric"] == "ipc"]["value"]) == [0.5, 0.4]
