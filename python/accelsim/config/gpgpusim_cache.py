"""The positional cache mini-language of GPGPU-Sim configs, e.g.
``S:4:128:64,L:T:m:L:L,A:512:8,16:0,32`` = sectored, 4 sets, 128 B lines,
64 ways; LRU, write-through, allocate on miss, lazy-fetch-on-read write
allocation, linear set index; 512 MSHRs merging 8; miss queue 16."""
from __future__ import annotations

from dataclasses import dataclass

from accelsim.config.gpgpusim_parse import Option

REPLACEMENT = {"L": "lru", "F": "fifo"}
WRITE_POLICY = {"T": "write_through", "B": "write_back", "R": "write_through",
                "E": "write_through", "L": "write_through"}
WRITE_ALLOCATE = {"N": "no_allocate", "W": "allocate", "F": "fetch_on_write",
                  "L": "lazy_fetch_on_read"}
SET_INDEX = {"L": "linear", "P": "ipoly", "H": "xor", "X": "xor"}


@dataclass(frozen=True)
class CacheSpec:
    sectored: bool
    sets: int
    line: int
    assoc: int
    replacement: str
    write_policy: str
    allocation: str
    write_allocate: str
    set_index: str
    mshr_entries: int
    mshr_merge: int
    miss_queue: int

    @property
    def size(self) -> int:
        return self.sets * self.line * self.assoc


def parse_cache(opt: Option) -> CacheSpec:
    if len(opt.value.split()) > 1:  # GPGPU-Sim's sscanf would ignore what follows; we say so
        raise opt.error(f"a cache spec is one word; unexpected {opt.value.split(None, 1)[1]!r} after it")
    parts = opt.value.split(",")
    geometry = parts[0].split(":")
    if len(geometry) == 3 and geometry[0][:1].isdigit():
        geometry = ["N", *geometry]  # the older format without a prefix: not sectored
    if len(geometry) != 4 or geometry[0] not in ("S", "N"):
        raise opt.error("geometry must be <S|N>:<sets>:<line>:<assoc>")
    policy = parts[1].split(":") if len(parts) > 1 else []
    if len(policy) < 4:
        raise opt.error("policy must be <repl>:<write>:<alloc>:<write-alloc>[:<index>]")
    mshr = parts[2].split(":") if len(parts) > 2 else ["A", "32", "8"]
    if len(mshr) != 3:
        raise opt.error("MSHR must be <type>:<entries>:<max merge>")
    queue = parts[3].split(":") if len(parts) > 3 else ["8"]
    return CacheSpec(
        sectored=geometry[0] == "S",
        sets=opt.int(geometry[1]), line=opt.int(geometry[2]), assoc=opt.int(geometry[3]),
        replacement=_pick(opt, REPLACEMENT, policy[0], "replacement"),
        write_policy=_pick(opt, WRITE_POLICY, policy[1], "write policy"),
        allocation=policy[2],
        write_allocate=_pick(opt, WRITE_ALLOCATE, policy[3], "write-allocate policy"),
        set_index=_pick(opt, SET_INDEX, policy[4] if len(policy) > 4 else "L", "set index"),
        mshr_entries=opt.int(mshr[1]), mshr_merge=opt.int(mshr[2]),
        miss_queue=opt.int(queue[0]),
    )


def _pick(opt: Option, table: dict, letter: str, what: str) -> str:
    if letter not in table:
        raise opt.error(f"unknown {what} letter {letter!r} (known: {', '.join(table)})")
    return table[letter]
