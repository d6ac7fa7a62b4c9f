"""Idle cores, seen at one moment: whether a search may spread its work over several.

A query's embedding and its FAISS scan each finish sooner on two cores, when a core is
free; when every core is busy (other processes, a background embedding) a second thread
only waits for one, and an OpenMP thread that lost its core stalls its team. The kernel's
count of runnable tasks (``/proc/loadavg``, fourth field) says which case holds right now,
at the cost of reading one small file.
"""

from __future__ import annotations

import os

LOADAVG = "/proc/loadavg"  # its fourth field: tasks runnable right now / all tasks


def idle_cores() -> int:
    """Cores this process may use that are idle right now besides the caller's own (the
    runnable count includes the calling thread); 0 where the system does not say."""
    try:
        with open(LOADAVG, "rb") as handle:
            running = int(handle.read().split()[3].split(b"/")[0])
        cores = len(os.sched_getaffinity(0))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0
    return max(0, cores - max(1, running))
