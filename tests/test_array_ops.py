"""The array_ops kernel table: its NumPy twin against plain NumPy, and (GPU) the CUDA
kernels against the twin on the same random inputs."""

import numpy as np
import pytest

from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph, distance_inf
from nx_gpusp.ops.array_ops import MATRIX_TYPES, VALUE_TYPES


def _values(rng, dtype, size):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        out = rng.uniform(-100, 100, size).astype(dtype)
        out[rng.random(size) < 0.1] = np.inf
        return out
    info = np.iinfo(dtype)
    out = rng.integers(max(info.min, -100), min(info.max, 100), size).astype(dtype)
    out[rng.random(size) < 0.1] = info.max
    return out


def _graph(seed, weights):
    rng = np.random.default_rng(seed)
    n, m = 70, 400
    w = rng.integers(1, 90, m) if weights == "int" else rng.uniform(0, 9, m)
    return CSRGraph.from_edge_arrays(n, rng.integers(0, n, m), rng.integers(0, n, m), w)


def _cases(ex, seed):
    """(name, host result) of every operation of ex's table on seeded random inputs."""
    ops, rng = ex.ops("array_ops"), np.random.default_rng(seed)
    host = ex.to_host
    out = []
    for dtype in VALUE_TYPES:
        src = _values(rng, dtype, (9, 13))  # values in [-100, 100) and the sentinel
        small = ex.asarray(rng.integers(-100, 100, (9, 13)).astype(dtype))
        dev, square = ex.asarray(src), ex.asarray(src[:, :9].copy())
        for to in VALUE_TYPES:
            out.append((f"astype {dtype}->{to}", host(ops.astype(small, to))))
            # entries up to the bound fit every type; those above become ``over``
            over = np.iinfo(to).max if np.dtype(to).kind == "i" else np.inf
            out.append((f"convert {dtype}->{to}",
                        host(ops.convert_block(dev, 7, 11, to, bound=50, over=over))))
            out.append((f"convert perm {dtype}->{to}",
                        host(ops.convert_block(square, 9, 9, to, bound=50, over=over,
                                               perm=rng.permutation(9)))))
        full = ops.full((5, 6), src.flat[3], dtype)
        out.append((f"full {dtype}", np.array(host(full))))  # the twin's is full itself
        out.append((f"fill -1 {dtype}", host(ops.fill(full, -1))))
        idx = rng.choice(30, 12, replace=False)
        out.append((f"put scalar {dtype}", host(ops.put(ops.full(30, 0, dtype), idx, 7))))
        out.append((f"put values {dtype}",
                    host(ops.put(ops.full(30, 0, dtype), ex.asarray(idx.astype(np.int64)),
                                 ex.asarray(src.ravel()[:12])))))
    for dtype in MATRIX_TYPES:
        mat = _values(rng, dtype, (8, 10))
        out.append((f"diagonal {dtype}", host(ops.diagonal(ex.asarray(mat), 8))))
        for lower in (False, True):  # a copy each: the twin's asarray is mat itself
            out.append((f"set_diagonal {dtype} {lower}",
                        host(ops.set_diagonal(ex.asarray(mat.copy()), 6, 0, lower_only=lower))))
        for weights in ("int", "float"):
            g = _graph(seed, weights)
            if g.weights.dtype.kind == "f" and np.dtype(dtype).kind == "i":
                continue
            mat = ops.full((g.n, g.n + 3), -5, dtype)
            out.append((f"dense {weights} {dtype}", host(ops.dense_from_csr(g.on(ex), mat))))
    for dtype in (np.int32, np.int64):
        arr = _values(rng, dtype, 5000)
        out.append((f"range {dtype}", np.array(ops.finite_range(ex.asarray(arr)))))
        none = np.full(40, distance_inf(dtype), dtype=dtype)
        out.append((f"range none {dtype}", np.array(ops.finite_range(ex.asarray(none)))))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_twin_matches_numpy(seed):
    """The twin's results are what plain NumPy indexing and casting give."""
    ex = Executor("cpu")
    assert _cases(ex, seed)  # the GPU comparison's inputs run on the twin
    ops, rng = ex.ops("array_ops"), np.random.default_rng(seed)
    src = _values(rng, np.int64, (6, 8))
    got = ops.convert_block(src, 5, 7, np.float64, bound=50, over=np.inf)
    want = src[:5, :7].astype(np.float64)
    want[src[:5, :7] > 50] = np.inf
    assert np.array_equal(got, want)
    perm = rng.permutation(6)
    square = src[:, :6]
    got = ops.convert_block(square, 6, 6, np.int64, bound=np.iinfo(np.int64).max - 1,
                            over=-1)
    assert np.array_equal(got, np.where(square == np.iinfo(np.int64).max, -1, square))
    got = ops.convert_block(square, 6, 6, np.int64, bound=10**9, over=0, perm=perm)
    picked = square[np.ix_(perm, perm)]
    assert np.array_equal(got, np.where(picked > 10**9, 0, picked))
    g = _graph(seed, "int")
    mat = ops.dense_from_csr(g.on(ex), ops.full((g.n, g.n), -1, np.int64))
    for u in range(g.n):
        row = slice(g.indptr[u], g.indptr[u + 1])
        assert np.array_equal(mat[u, g.indices[row]], g.weights[row])
    assert (mat >= 0).sum() == g.m
    arr = ops.put(ops.full(10, 3, np.int16), np.array([1, 4]), 9)
    assert arr.tolist() == [3, 9, 3, 3, 9, 3, 3, 3, 3, 3] and arr.dtype == np.int16
    d = np.arange(16, dtype=np.int32).reshape(4, 4) - 8
    assert ops.diagonal(d, 3).tolist() == [-8, -3, 2]
    assert np.diagonal(ops.set_diagonal(d.copy(), 4, 0, lower_only=True)).tolist() == [-8, -3, 0, 0]
    assert ops.finite_range(np.array([5, -2, np.iinfo(np.int64).max, 7])) == (-2, 7)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("seed", range(3))
def test_cuda_matches_twin(seed):
    cuda, cpu = _cases(Executor("cuda"), seed), _cases(Executor("cpu"), seed)
    assert [name for name, _ in cuda] == [name for name, _ in cpu]
    for (name, got), (_, want) in zip(cuda, cpu):
        assert got.dtype == want.dtype, name
        assert np.array_equal(got, want), name
