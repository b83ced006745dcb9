"""Small workloads with hostile but syntactically valid addresses (the
coalescer reads them): the simulator must end them with a clean error or a finished run.
``python -m accelsim.devtools.hostile DIR`` writes one folder per case."""
from __future__ import annotations

import sys
from pathlib import Path

from accelsim.tracegen import Kernel
from accelsim.tracegen.writer import header_lines

# name -> the address fields of one LDG.E.SYS (width 4, full mask):
# mode 0 = 32 explicit addresses, mode 1 = base + stride.
CASES = {
    "ldg_top_of_range": "0 " + " ".join(f"0x{(0xfffffffffffffff0 + 4 * i) % 2**64:016x}"
                                         for i in range(32)),
    "ldg_base_stride_minus_one": "1 0x10 -1",
    "ldg_all_ones": "1 0xffffffffffffffff 0",
    "ldg_stride_wraps": "1 0xfffffffffffff000 4096",
}


def kernel_lines(address_fields: str, opcode: str = "LDG.E.SYS") -> list[str]:
    """A one-block, one-warp kernel whose only memory access uses these fields."""
    k = Kernel("hostile", grid=(1, 1, 1), block=(32, 1, 1), binary_version=70)
    body = ["", "#BEGIN_TB", "", "thread block = 0,0,0", "", "warp = 0", "insts = 2",
            f"0000 ffffffff 1 R1 {opcode} 1 R2 4 {address_fields} 0",
            "0010 ffffffff 0 EXIT 0 0 0", "", "#END_TB"]
    return header_lines(k, 5, False) + body


def write_case(folder: Path, address_fields: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kernel-1.traceg").write_text("\n".join(kernel_lines(address_fields)) + "\n")
    (folder / "kernelslist.g").write_text("kernel-1.traceg\n")
    return folder / "kernelslist.g"


def write_all(root) -> list[Path]:
    return [write_case(Path(root) / name, fields) for name, fields in CASES.items()]


if __name__ == "__main__":
    for path in write_all(sys.argv[1]):
        print(path)
