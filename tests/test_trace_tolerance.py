"""Real traces from other tracer versions and forks: extra trailing fields on
instruction lines and EXITs repeating already-exited lanes are read, with one
warning per kernel file that names the kernel and the first offending line."""
import re

import pytest

import accelsim
from accelsim.sim import TraceFormatWarning
from accelsim.tracegen.examples import write_vecadd


def _kernel_file(listing):
    return next(listing.parent.glob("kernel-1.trace*"))


def _is_inst(line: str) -> bool:
    return bool(re.match(r"^[0-9a-f]{4,} [0-9a-f]{8} ", line))


def _with_extra_field(listing, field="0x1f"):
    path = _kernel_file(listing)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(f"{ln} {field}" if _is_inst(ln) else ln for ln in lines) + "\n")
    first = next(i for i, ln in enumerate(lines) if _is_inst(ln)) + 1
    return sum(_is_inst(ln) for ln in lines), first


def _with_repeated_exit(listing):
    """Warp 0 of the first block gets a second, identical EXIT at its end."""
    path = _kernel_file(listing)
    lines = path.read_text().splitlines()
    start = lines.index("warp = 0")
    count_at = start + 1
    n = int(lines[count_at].split("=")[1])
    body = lines[count_at + 1:count_at + 1 + n]
    last_exit = max(i for i, ln in enumerate(body) if " EXIT " in ln)
    body.append(body[last_exit])
    lines[count_at] = f"insts = {n + 1}"
    lines[count_at + 1:count_at + 1 + n] = body
    path.write_text("\n".join(lines) + "\n")


def test_extra_trailing_fields_are_read_with_one_warning_per_file(tmp_path):
    clean = accelsim.Simulator("QV100").run(write_vecadd(tmp_path / "a", n=2048))
    listing = write_vecadd(tmp_path / "b", n=2048)
    n, first = _with_extra_field(listing)
    with pytest.warns(TraceFormatWarning) as caught:
        r = accelsim.Simulator("QV100").run(listing)
    assert len([w for w in caught if issubclass(w.category, TraceFormatWarning)]) == 1
    text = r.trace_warnings[1]
    assert f"{n} instruction lines" in text and "'0x1f'" in text and f"line {first}:" in text
    assert "kernel 1" in str(caught[0].message)
    assert r.kernels.cycles.tolist() == clean.kernels.cycles.tolist()  # the same program


def test_exit_repeating_exited_lanes_is_accepted_with_a_warning(tmp_path):
    listing = write_vecadd(tmp_path / "c", n=2048)
    _with_repeated_exit(listing)
    with pytest.warns(TraceFormatWarning, match="EXITs repeat lanes"):
        r = accelsim.Simulator("QV100").run(listing)
    assert r.completed and r.trace_warnings.keys() == {1}


def test_a_clean_trace_warns_nothing(tmp_path, recwarn):
    r = accelsim.Simulator("QV100").run(write_vecadd(tmp_path / "d", n=1024))
    assert r.trace_warnings == {}
    assert not [w for w in recwarn if issubclass(w.category, TraceFormatWarning)]


def test_a_bad_field_inside_the_line_is_still_an_error(tmp_path):
    listing = write_vecadd(tmp_path / "e", n=1024)
    path = _kernel_file(listing)
    text = path.read_text().replace("1 R6 S2R 0 0 0", "1 R6 S2R x 0 0", 1)
    path.write_text(text)
    with pytest.raises(accelsim.TraceError, match="src_num"):
        accelsim.Simulator("QV100").run(listing)
