"""Names of the record fields' values (unit classes, memory spaces, flag
bits), kept apart from the NumPy layouts in ``_records`` so that reading
headers and counts (``accelsim trace-info``) does not import NumPy."""

UNIT_CLASSES = ("alu", "sp", "int", "dp", "sfu", "tensor", "branch", "mem", "exit", "barrier",
                "nop", "tex")
MEM_SPACES = ("none", "global", "local", "shared", "const", "tex", "generic")

FLAG_LOAD, FLAG_STORE, FLAG_ATOMIC, FLAG_BYPASS_L1, FLAG_HAS_ADDRS, FLAG_PRED_OFF = (
    1, 2, 4, 8, 16, 32)
FLAG_READ_ONLY = 64  # read-only / texture data path (LDG .CI/.NC/.CONSTANT, Kepler LDG)
