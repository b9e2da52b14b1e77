"""Each CUDA kernel table against its NumPy twin on the same random inputs (GPU only).

Family-specific twin tests of the method modules live beside their method tests."""

import numpy as np
import pytest

from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph
from nx_gpusp.solvers.sssp import distance_inf

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")]


def _random_csr(seed, n=2000, m=12000, dtype=np.int64, negative=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if dtype == np.int64:
        w = rng.integers(0 if not negative else -3, 50, m)
    else:
        w = rng.uniform(0 if not negative else -1, 10, m)
    return CSRGraph.from_edge_arrays(n, src, dst, w)


@pytest.fixture(scope="module")
def executors():
    return Executor("cuda"), Executor("cpu")


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("seed", range(4))
def test_frontier_round_matches_twin(executors, dtype, seed):
    cu, cpu = executors
    graph = _random_csr(seed, dtype=dtype)
    rng = np.random.default_rng(100 + seed)
    n = graph.n
    dist0 = np.full(n, distance_inf(dtype), dtype=dtype)
    seeds = rng.choice(n, 300, replace=False).astype(np.int32)
    dist0[seeds] = rng.integers(0, 100, 300).astype(dtype)
    fdist = dist0[seeds].copy()
    lowered0 = np.full(n, -1, dtype=np.int32)
    out = {}
    for ex in (cu, cpu):
        g = graph.on(ex)
        dist, lowered = ex.asarray(dist0.copy()), ex.asarray(lowered0.copy())
        nxt, size = ex.asarray(np.zeros(n, np.int32)), ex.asarray(np.zeros(1, np.int32))
        pred = ex.asarray(np.full(n, -1, np.int32))
        ops = ex.ops("frontier")
        f, fd = ex.asarray(seeds), ex.asarray(fdist)
        ops.relax_frontier(g, f, fd, len(seeds), dist, lowered, 1, nxt, size,
                           distance_inf(dtype))
        ops.record_predecessors(g, f, fd, len(seeds), dist, lowered, 1, pred)
        k = int(ex.to_host(size)[0])
        out[ex.name] = (ex.to_host(dist), ex.to_host(lowered), np.sort(ex.to_host(nxt)[:k]),
                        ex.to_host(pred))
    (d1, l1, f1, p1), (d2, l2, f2, p2) = out["cuda"], out["cpu"]
    np.testing.assert_array_equal(d1, d2)
    np.testing.assert_array_equal(l1, l2)
    np.testing.assert_array_equal(f1, f2)
    # predecessors may differ on ties but both must achieve the new distance
    for p in (p1, p2):
        has = np.flatnonzero(p >= 0)
        assert set(has) == set(f1)
    np.testing.assert_array_equal(p1 >= 0, p2 >= 0)


@pytest.mark.parametrize("seed", range(4))
def test_predecessor_cycle_test_matches_twin(executors, seed):
    cu, cpu = executors
    rng = np.random.default_rng(seed)
    n = 5000
    pred = np.full(n, -1, dtype=np.int32)
    order = rng.permutation(n)
    for i in range(1, n):  # a random tree rooted at order[0]
        pred[order[i]] = order[rng.integers(0, i)]
    if seed % 2:  # close a cycle
        a, b = order[n // 2], order[n // 3]
        pred[order[0]] = a if pred[a] != order[0] else b
    got = [ex.ops("paths").has_predecessor_cycle(ex.asarray(pred)) for ex in (cu, cpu)]
    assert got[0] == got[1] == bool(seed % 2)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("n", [1, 31, 33, 100, 257])
def test_blocked_floyd_warshall_matches_twin(executors, dtype, n):
    cu, cpu = executors
    rng = np.random.default_rng(n)
    inf = distance_inf(dtype)
    d0 = np.where(rng.random((n, n)) < 0.1, rng.integers(1, 30, (n, n)), inf).astype(dtype)
    np.fill_diagonal(d0, 0)
    p0 = np.where(d0 != inf, np.arange(n, dtype=np.int32)[:, None], -1).astype(np.int32)
    np.fill_diagonal(p0, -1)
    res = {}
    for ex in (cu, cpu):
        d, p = ex.asarray(d0.copy()), ex.asarray(p0.copy())
        ex.ops("floyd_warshall").blocked_floyd_warshall(d, p)
        res[ex.name] = ex.to_host(d), ex.to_host(p)
    np.testing.assert_array_equal(res["cuda"][0], res["cpu"][0])
    # predecessors: both valid (d[i][j] == d[i][p] + w(p, j))
    for d, p in res.values():
        i, j = np.nonzero((p >= 0) & (d != inf))
        np.testing.assert_allclose(d[i, j], d[i, p[i, j]] + d0[p[i, j], j], rtol=1e-12)


def _order_case(seed, n, dtype, spread, unreached):
    """Distances with ``spread`` distinct-ish values (ties where it is small), a fraction
    ``unreached`` at DistTraits' inf; float cases hold both zeros and negatives."""
    rng = np.random.default_rng(seed)
    if dtype == np.float64:
        dist = rng.integers(-spread, spread, n) * rng.choice([1e-3, 0.5, 1e6], n)
        dist[rng.random(n) < 0.05] = -0.0
        dist[rng.random(n) < 0.05] = 0.0
    else:
        info = np.iinfo(dtype)
        dist = rng.integers(max(info.min + 1, -spread), min(info.max - 1, spread), n,
                            dtype=np.int64)
    dist = dist.astype(dtype)
    dist[rng.random(n) < unreached] = distance_inf(dtype)
    return dist


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int32])
@pytest.mark.parametrize("n", [1, 2, 4095, 4096, 4097, 70_000, 300_001])
@pytest.mark.parametrize("spread,unreached", [(3, 0.0), (1000, 0.3), (2**40, 0.01), (5, 1.0)])
def test_distance_order_matches_twin(executors, dtype, n, spread, unreached):
    """The radix sort's order (reached vertices by distance, ties by index) is the stable
    argsort's, over ties, wide ranges (several 8-bit passes, 64-bit keys), negative
    distances, both float zeros and unreached vertices."""
    cu, cpu = executors
    dist = _order_case(n + spread, n, dtype, spread, unreached)
    expected = cpu.ops("distance_order").distance_order(dist)
    got = cu.to_host(cu.ops("distance_order").distance_order(cu.asarray(dist)))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, expected)


def test_distance_order_extremes(executors):
    """The widest int64 range (the span needs every bit) and an empty array."""
    cu, cpu = executors
    info = np.iinfo(np.int64)
    dist = np.array([info.max - 1, info.min, 0, info.max, -1, info.min, info.max - 1],
                    dtype=np.int64)
    got = cu.to_host(cu.ops("distance_order").distance_order(cu.asarray(dist)))
    assert got.tolist() == [1, 5, 4, 2, 0, 6]
    assert cpu.ops("distance_order").distance_order(dist).tolist() == got.tolist()
    empty = cu.ops("distance_order").distance_order(cu.asarray(np.zeros(0, np.int64)))
    assert empty.size == 0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_atomic_min_is_the_minimum(dtype):
    """common.cuh's floating-point atomic_min (an integer atomic on the bits): many
    threads lowering few addresses with mixed signs, zeros of both signs and infinities
    leave each address at the least value, and each thread gets back a value that was
    stored there, never below what it left."""
    import cupy as cp

    from nx_gpusp.executor import kernel_source, nvrtc_options

    T = "double" if dtype == np.float64 else "float"
    code = kernel_source("common.cuh") + f"""
    extern "C" __global__ void lower({T}* slots, const {T}* vals, const int* where,
                                     {T}* old, int k) {{
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < k) old[i] = atomic_min(&slots[where[i]], vals[i]);
    }}"""
    fn = cp.RawModule(code=code, options=nvrtc_options()).get_function("lower")
    rng = np.random.default_rng(5)
    k, slots = 200_000, 64
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1e-300, -1e-300], dtype=dtype)
    vals = np.where(rng.random(k) < 0.05, rng.choice(special, k),
                    rng.normal(0, 1e3, k)).astype(dtype)
    where = rng.integers(0, slots, k).astype(np.int32)
    start = np.where(rng.random(slots) < 0.5, np.inf, rng.normal(0, 1e3, slots)).astype(dtype)
    d_slots, d_old = cp.asarray(start), cp.empty(k, dtype=dtype)
    fn(((k + 255) // 256,), (256,), (d_slots, cp.asarray(vals), cp.asarray(where), d_old,
                                     np.int32(k)))
    got, old = d_slots.get(), d_old.get()
    expected = start.copy()
    np.minimum.at(expected, where, vals)
    np.testing.assert_array_equal(got, expected)  # -0 and +0 compare equal
    assert (old >= got[where]).all()  # what each thread saw was stored, never below the end
    seen = set(zip(where.tolist(), old.tolist()))
    stored = set(zip(where.tolist(), vals.tolist())) | set(enumerate(start.tolist()))
    assert seen <= stored
