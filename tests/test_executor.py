"""The executor's host copies, byte fills and stream marks, and the device graph's kept
working arrays (DeviceCSR.scratch), on the CPU and the GPU."""

import threading

import numpy as np
import pytest

from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=[
    pytest.mark.gpu, pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")])])
def ex(request):
    return Executor(request.param)


def test_to_host_async_copies_the_array_as_queued(ex):
    """The copy holds the array as the work queued before it left it, not what is queued
    after; ``out`` (page-locked) receives it."""
    a = ex.asarray(np.arange(16, dtype=np.int32))
    first = ex.to_host_async(a)
    a += 100  # queued after the first copy
    out = ex.pinned_empty(16, np.int32)
    second = ex.to_host_async(a, out=out)
    a += 100
    np.testing.assert_array_equal(first(), np.arange(16))
    got = second()
    np.testing.assert_array_equal(got, np.arange(16) + 100)
    if ex.is_cuda:
        assert np.shares_memory(got, out)


def test_fill_bytes(ex):
    """Every byte set: int32 0xFF bytes read -1, 0 bytes 0, uint64 0xFF the maximum."""
    a = ex.xp.arange(10, dtype=np.int32)
    assert ex.fill_bytes(a, 0xFF) is a
    np.testing.assert_array_equal(ex.to_host(a), np.full(10, -1))
    np.testing.assert_array_equal(ex.to_host(ex.fill_bytes(a, 0)), np.zeros(10))
    b = ex.fill_bytes(ex.xp.empty((3, 4), dtype=np.uint64), 0xFF)
    assert (ex.to_host(b) == np.iinfo(np.uint64).max).all()


def test_mark_and_after(ex):
    """A mark of the current stream; after() on it is a no-op on the same stream and
    thread, and orders another stream's work behind it."""
    mark = ex.mark()
    ex.after(mark)
    if not ex.is_cuda:
        assert mark is None
        return
    cp = ex.xp
    a = cp.zeros(1 << 20, dtype=np.int64)
    a += 1
    mark = ex.mark()
    with cp.cuda.Stream(non_blocking=True) as other:
        ex.after(mark)
        total = int(a.sum())  # on the other stream, behind the increment
        other.synchronize()
    assert total == 1 << 20


def test_scratch_lends_each_kept_set_to_one_run_at_a_time(ex):
    """A set is made on first use, lent to one run at a time (a nested run gets a second
    set), kept after the run, after a run that raised too; keys do not share sets."""
    graph = CSRGraph.from_edge_arrays(4, np.array([0, 1]), np.array([1, 2]),
                                      np.array([1, 1]), directed=True)
    dev = graph.on(ex)
    made = []

    def make():
        made.append(ex.xp.zeros(3))
        return made[-1]

    with dev.scratch("k", make) as a:
        with dev.scratch("k", make) as b:
            assert a is not b
    with pytest.raises(RuntimeError):
        with dev.scratch("k", make) as c:
            raise RuntimeError
    with dev.scratch("k", make) as d, dev.scratch("k", make) as e:
        assert {id(c), id(d), id(e)} <= {id(a), id(b)} and d is not e
    with dev.scratch("other", make) as f:
        assert f is not a and f is not b
    with graph.on_as(ex, np.float64).scratch("k", make) as g:  # a typed view's are the graph's
        assert g is a or g is b
    assert len(made) == 3


def test_scratch_is_shared_by_threads(ex):
    """Threads take the kept sets in turn: no set is lent twice at once."""
    graph = CSRGraph.from_edge_arrays(2, np.array([0]), np.array([1]), np.array([1]),
                                      directed=True)
    dev = graph.on(ex)
    lent, clashes = set(), []
    lock = threading.Lock()

    def run():
        for _ in range(200):
            with dev.scratch("k", lambda: object()) as s:
                with lock:
                    if id(s) in lent:
                        clashes.append(s)
                    lent.add(id(s))
                with lock:
                    lent.discard(id(s))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not clashes
