"""Randomly damaged traces (fixed seed): the reader either accepts them or
raises TraceError with a path and a field; never anything else."""
from __future__ import annotations

import gzip
import lzma
import random

import pytest

from accelsim import TraceError, open_trace
from accelsim.tracegen import kernel_text
from accelsim.tracegen.examples import vecadd_kernel

INSERTS = [b" ", b"\n", b"0", b"-1", b"ffffffffffffffffff", b"#END_TB\n", b"warp = 3\n", b"R999",
           b"\xff\xfe"]


def damage(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op, pos = rng.randrange(4), rng.randrange(max(1, len(data)))
        if op == 0:
            data[pos:pos + 1] = bytes([rng.randrange(256)])
        elif op == 1:
            del data[pos:pos + rng.randint(1, 200)]
        elif op == 2:
            data[pos:pos] = rng.choice(INSERTS)
        else:
            del data[pos:]
    return bytes(data)


@pytest.mark.parametrize("seed", range(3))
def test_damaged_traces(tmp_path, seed):
    rng = random.Random(seed)
    bases = [("\n".join(kernel_text(vecadd_kernel(300, 96), version=v, address_mode=m)) + "\n").encode()
             for v, m in ((5, None), (3, 0), ("1.2", 2))]
    for i in range(60):
        blob = damage(rng, rng.choice(bases))
        kind = rng.choice(["", ".gz", ".xz"])
        if kind:
            blob = (gzip.compress if kind == ".gz" else lzma.compress)(blob)
            if rng.random() < 0.5:
                blob = damage(rng, blob)
        path = tmp_path / f"k{i}.traceg{kind}"
        path.write_bytes(blob)
        try:
            trace = open_trace(path)
            trace.totals()
            next(iter(trace)).block(0)
        except TraceError as err:
            assert err.path and err.field, str(err)
