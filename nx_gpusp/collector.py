"""Python's cyclic garbage collector, paused while the first call imports.

A first call imports NumPy, this backend and CuPy: tens of thousands of new objects
(modules, functions, classes), enough to start a full collection, which walks every
object the program holds. With a graph in memory that pass is long (a freshly unpickled
NY graph, 264K nodes: ~0.3 s on the H100's host, ~0.2 s of CPython 3.11 on another).
:func:`collector_paused` lets those imports run without collecting; the collector, if
it was on, resumes after them with its counts as they were (the objects made meanwhile
are examined by its next young-generation pass, and a full pass comes when its usual
thresholds say so, not because of an import). Only the main thread pauses it: a
background thread (the warm-up's) leaves the collector to the program, which may be
switching it itself meanwhile.
"""

import contextlib
import gc
import threading

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused():
    """Pause the cyclic collector for the ``with`` block (nothing if it is off, or
    outside the main thread)."""
    if not gc.isenabled() or threading.current_thread() is not threading.main_thread():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
