"""This process's memory as the kernel reports it, for the bench children
(kept free of imports: a child measures its RSS before a run)."""
from __future__ import annotations


def status_mb(key: str) -> float:
    """``VmRSS``, ``VmHWM``, ... of this process in MB. VmHWM is this
    process's own peak (ru_maxrss would include the parent's memory from
    before exec on Linux); without /proc, ru_maxrss is the fallback."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
