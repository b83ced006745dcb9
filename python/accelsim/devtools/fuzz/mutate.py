"""Structured mutation of text inputs: a few edits per input at the level of
lines, tokens and bytes, biased toward the values parsers get wrong (signs,
width limits, unit strings, non-UTF-8 bytes). Deterministic given the RNG."""
from __future__ import annotations

import random
import re

# Values that sit on a boundary of some integer width, a float corner, or a
# unit-parsing corner; substituted for whole tokens.
INTERESTING = [
    "0", "-0", "1", "-1", "2", "-8", "31", "32", "33", "127", "128", "255", "256", "4095",
    "65535", "65536", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
    "4294967304", "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "99999999999999999999999", "0x0", "0xffffffffffffffff",
    "0xfffffffffffffff0", "0x10000000000000000", "0x", "0xg", "1e308", "1e999", "-1e999",
    "nan", "inf", "-inf", "1.5", ".", "", " ", "''", '""', "~", "null", "true", "no",
    "128 B", "-4 KiB", "1 TB", "0 cycles", "5 GHz", "1e3 MHz", "12 parsecs", "%", "x" * 300,
    "\x00", "\xff", "é", "\u202e", "N", "S", "L", "R999", "P7", "UR3", "-", ",", ":", "=", "#",
]
RAW_BYTES = [b"\x00", b"\xff\xfe", b"\xc3\x28", b"\r", b"\r\n", b"\t", b"\x1b[0m", b"\"", b"'",
             b"#", b"\n\n", b"{", b"[", b"!!python/object:os.system", b"&a", b"*a", b"? "]
_TOKEN = re.compile(rb"[^\s,:=()\"']+")


def _line_edit(rng: random.Random, lines: list[bytes]) -> None:
    if not lines:
        lines.append(rng.choice(RAW_BYTES))
        return
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        del lines[i:]
    elif op == 4:
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    else:
        lines.insert(i, b"")


def _token_edit(rng: random.Random, lines: list[bytes]) -> None:
    if not lines:
        return
    i = rng.randrange(len(lines))
    tokens = list(_TOKEN.finditer(lines[i]))
    if not tokens:
        lines[i] += rng.choice(INTERESTING).encode("utf-8", "surrogateescape")
        return
    m = rng.choice(tokens)
    op = rng.randrange(4)
    if op == 0:
        new = rng.choice(INTERESTING).encode("utf-8", "surrogateescape")
    elif op == 1:  # same token elsewhere: a valid value in the wrong field
        new = rng.choice(tokens).group()
    elif op == 2:
        new = b""
    else:  # a neighbouring number
        try:
            new = str(int(m.group(), 0) + rng.choice([-1, 1, 2**32, -2**32, 2**64])).encode()
        except ValueError:
            new = m.group() * 2
    lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]


def _byte_edit(rng: random.Random, data: bytearray) -> None:
    pos = rng.randrange(len(data) + 1)
    op = rng.randrange(3)
    if op == 0 and data:
        data[min(pos, len(data) - 1)] = rng.randrange(256)
    elif op == 1:
        data[pos:pos] = rng.choice(RAW_BYTES)
    else:
        del data[pos:pos + rng.randint(1, 64)]


def mutate(rng: random.Random, data: bytes, max_edits: int = 4,
           keep: int = 0) -> bytes:
    """``data`` with 1..max_edits edits. ``keep``: leading lines left intact
    (e.g. a trace header when the target is the instruction lines)."""
    lines = data.split(b"\n")
    head, lines = lines[:keep], lines[keep:]
    for _ in range(rng.randint(1, max_edits)):
        kind = rng.random()
        if kind < 0.55:
            _token_edit(rng, lines)
        elif kind < 0.85:
            _line_edit(rng, lines)
        else:
            flat = bytearray(b"\n".join(lines))
            _byte_edit(rng, flat)
            lines = bytes(flat).split(b"\n")
    return b"\n".join(head + lines)


# Addresses at the edges of the 64-bit space and of the 57-bit virtual space
# GPUs use, for the simulating targets (the coalescer).
HOSTILE_ADDRESSES = ["0xfffffffffffffff0", "0xffffffffffffffff", "0x0", "0x10",
                     "0x1ffffffffffffff", "0x200000000000000", "0x7ffffffffffffff0",
                     "0xfffffffffffff000"]
HOSTILE_STRIDES = ["-1", "-4096", "4294967296", "9223372036854775807", "-9223372036854775808"]
_HEX = re.compile(rb"\b0x[0-9a-fA-F]{6,}\b")


def mutate_addresses(rng: random.Random, data: bytes) -> bytes:
    """Replaces one trace address (and sometimes the stride after it) with a
    hostile one."""
    found = list(_HEX.finditer(data))
    if not found:
        return data
    m = rng.choice(found)
    new = rng.choice(HOSTILE_ADDRESSES).encode()
    rest = data[m.end():]
    if rng.random() < 0.5:  # base+stride lines: "<base> <stride> <imm>"
        parts = rest.split(b" ", 2)
        if len(parts) == 3 and parts[1].lstrip(b"-").isdigit():
            rest = b" ".join([parts[0], rng.choice(HOSTILE_STRIDES).encode(), parts[2]])
    return data[:m.start()] + new + rest
