"""Run the analyser on a roomy, fresh segment of CPython's frame stack.

CPython (3.11 to 3.13) keeps Python frames in chunks of 16 KB and frees a chunk as soon
as the first frame in it returns (`push_chunk`/`_PyThreadState_PopFrame`). When a
function called in a hot loop happens to start a chunk, EVERY call maps a fresh chunk and
unmaps it again (mmap + munmap + page faults, about 8 us a call). Which function lands on
a chunk's edge depends on how deep the caller already is, so the same input's cost
depended on the call path: the 10,000-character 'wrappers nested' input took 33 ms from
one stack depth and 81-132 ms a few frames deeper (29,795 mmap/munmap pairs in five runs,
one per classified argument); `python -m bench.safety` sat at such a depth, the "history
effect" of session 10. A server thread's depth changes with every request path.

`reserved(fn, ...)` calls `fn` from a frame that declares a large value stack (set with
`CodeType.replace`; the slots are never written, so never faulted in). That frame cannot
fit in the current chunk, so it opens a chunk of its own (1 MB of address space) and
everything `fn` calls runs in the half-megabyte after it, far from any chunk edge, at the
same offset whatever the caller's depth. Inside a reservation, `reserved` simply calls
`fn`: one reservation covers a whole document's fences (the server) or a bench loop, and
an `assess` called outside any reservation opens one for itself (one mmap per call).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_STATE = threading.local()

# CPython gives a frame of `n` slots a chunk of 16 KB doubled until it holds `n + 1000`
# slots of 8 bytes: 65,000 slots (520 KB, never touched) get a 1 MB chunk, leaving about
# 528 KB for the frames called from it (a thousand frames of the deepest recursion the
# interpreter allows take well under that).
RESERVED_SLOTS = 65_000


def inside() -> bool:
    """Whether this thread is running inside a reservation."""
    return bool(getattr(_STATE, "on", False))


def reserved(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)`, run on a fresh 1 MB stack chunk unless this thread already is."""
    if getattr(_STATE, "on", False):
        return fn(*args, **kwargs)
    return _open(fn, *args, **kwargs)


def _open(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    _STATE.on = True
    try:
        return fn(*args, **kwargs)
    finally:
        _STATE.on = False


_open.__code__ = _open.__code__.replace(co_stacksize=_open.__code__.co_stacksize + RESERVED_SLOTS)
