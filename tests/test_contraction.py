"""The contraction hierarchy of method "phast" (solvers/sssp/contraction.py) on road-like
graphs: PHAST's distances against SciPy's Dijkstra, the hierarchy's invariants, and its
files (Hierarchy.save/load, nx_gpusp.phast, the hierarchy_cache folder), also across
processes."""

import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra

import nx_gpusp
import nx_gpusp.executor
import nx_gpusp.phast
from nx_gpusp import datasets
from nx_gpusp.convert import from_networkx
from nx_gpusp.executor import get_executor
from nx_gpusp.graph import CSRGraph, distance_inf
from nx_gpusp.ops.contraction import arc_weights
from nx_gpusp.solvers.sssp import contraction
from nx_gpusp.solvers.sssp import hierarchy_store as store
from nx_gpusp.solvers.sssp.phast import phast_sssp


def _integer_arcs(graph, seed, low=0, high=10):
    """``graph``'s arcs, both directions of each edge, with seeded integer weights
    low..high drawn per arc (a direction may weigh more than the other)."""
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    w = np.random.default_rng(seed).integers(low, high + 1, len(tails))
    return CSRGraph.from_edge_arrays(graph.n, tails, graph.indices, w, directed=True)


ROAD_LIKE = {
    "grid-30x40": lambda: _integer_arcs(datasets.road_grid(30, 40, seed=1), 1),
    "grid-60x60, zero weights": lambda: _integer_arcs(datasets.road_grid(60, 60, seed=2), 2),
    "geometric-3000": lambda: _integer_arcs(datasets.random_geometric_road(3000, seed=3), 3,
                                            low=1, high=100),
    "geometric-5000, k=2": lambda: _integer_arcs(
        datasets.random_geometric_road(5000, seed=4, k=2), 4, low=1, high=1000),
}


def _scipy_distances(graph, sources):
    """SciPy's Dijkstra from ``sources`` as int64 rows, inf = distance_inf."""
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    # zero weights kept as arcs: an explicit tiny weight, subtracted after rounding
    arcs = csr_array((graph.weights + 1e-9, (tails, graph.indices)), shape=(graph.n,) * 2)
    d = dijkstra(arcs, indices=sources)
    out = np.full(d.shape, distance_inf(np.int64), dtype=np.int64)
    out[np.isfinite(d)] = np.floor(d[np.isfinite(d)] + 1e-6).astype(np.int64)
    return out


def _phast_distances(graph, sources, core_size=contraction.CORE_SIZE):
    ex = get_executor("cpu")
    contraction._hierarchy(graph, core_size)
    return np.stack([ex.to_host(phast_sssp(ex, graph, np.array([s]),
                                           core_size=core_size).dist) for s in sources])


def _levels(h):
    level = np.empty(len(h.order), dtype=np.int64)
    for lv in range(h.levels + 1):
        level[h.order[h.level_ptr[lv]:h.level_ptr[lv + 1]]] = lv
    return level


def check_invariants(graph, h):
    """Levels partition the vertices (the core last); a level holds no arc of the graph
    between two of its vertices; up arcs come from lower levels, down arcs from higher
    ones, none shorter than the graph's distance between their ends; the core's matrix
    holds the graph's distances between core vertices (contraction keeps them)."""
    n = graph.n
    assert sorted(h.order.tolist()) == list(range(n))
    assert h.level_ptr[0] == 0 and h.level_ptr[-1] == n
    assert np.all(np.diff(h.level_ptr) >= 0)
    np.testing.assert_array_equal(h.core, h.order[h.level_ptr[-2]:])
    level = _levels(h)
    tails = np.repeat(np.arange(n), np.diff(graph.indptr))
    same = (level[tails] == level[graph.indices]) & (tails != graph.indices)
    assert not np.any(same & (level[tails] < h.levels)), "a level is not independent"
    ends = {}
    for (ptr, arc_tails, w), upward in ((h.up, True), (h.down, False)):
        heads = h.order[np.repeat(np.arange(n), np.diff(ptr))]
        assert np.all(level[arc_tails] < level[heads]) if upward else \
            np.all(level[arc_tails] > level[heads])
        for t, hd, wt in zip(arc_tails.tolist(), heads.tolist(), w.tolist()):
            ends.setdefault(t, []).append((hd, wt))
    sample = sorted(ends)[:: max(1, len(ends) // 40)]
    d = _scipy_distances(graph, np.array(sample, dtype=np.int64))
    for row, t in enumerate(sample):
        for hd, wt in ends[t]:
            assert wt >= d[row, hd], "an arc of the hierarchy shorter than a distance"
    assert h.matrix.shape == (len(h.core), len(h.core))
    if len(h.core):
        np.testing.assert_array_equal(h.matrix, _scipy_distances(graph, h.core)[:, h.core])


@pytest.mark.parametrize("name", sorted(ROAD_LIKE))
@pytest.mark.parametrize("core_size", [0, 64, contraction.CORE_SIZE])
def test_phast_equals_scipy_on_road_like_graphs(name, core_size):
    graph = ROAD_LIKE[name]()
    sources = np.random.default_rng(7).choice(graph.n, 6, replace=False)
    np.testing.assert_array_equal(_phast_distances(graph, sources, core_size),
                                  _scipy_distances(graph, sources))
    if core_size == 64:
        h = contraction._hierarchy(graph, core_size)
        check_invariants(graph, h)
        assert h.levels > 5 and len(h.core) <= 64


def test_phast_equals_scipy_on_a_real_road_network(real):
    """rome99 (3,353 nodes, real metres), from several sources, with the invariants."""
    graph = real("rome99", as_csr=True)
    sources = np.random.default_rng(11).choice(graph.n, 8, replace=False)
    np.testing.assert_array_equal(_phast_distances(graph, sources, 200),
                                  _scipy_distances(graph, sources))
    check_invariants(graph, contraction._hierarchy(graph, 200))


def test_witness_lookup_finds_each_arc():
    """_arc_weights against a dict of the arcs, for present and absent pairs."""
    graph = ROAD_LIKE["geometric-3000"]()
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    weights = dict(zip(zip(tails.tolist(), graph.indices.tolist()), graph.weights.tolist()))
    rng = np.random.default_rng(5)
    t = np.concatenate([tails[::7], rng.integers(0, graph.n, 500)])
    h = np.concatenate([graph.indices[::7], rng.integers(0, graph.n, 500)]).astype(np.int64)
    order = np.lexsort((graph.indices, tails))  # by (tail, head), as the rounds keep them
    key = tails[order] * graph.n + graph.indices[order]
    found, w = arc_weights(key, graph.weights[order], t, h, graph.n)
    expected = [weights.get(pair) for pair in zip(t.tolist(), h.tolist())]
    assert found.tolist() == [e is not None for e in expected]
    assert w[found].tolist() == [e for e in expected if e is not None]


# -- files --------------------------------------------------------------------------
def _weighted_grid(rows=12, cols=15, seed=0):
    G = nx.grid_2d_graph(rows, cols).to_directed()
    rng = np.random.default_rng(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(0, 10))
    return G


@pytest.fixture
def no_loaded(monkeypatch):
    """The hierarchies loaded in this process (load_hierarchy) forgotten after the test."""
    monkeypatch.setattr(store, "_LOADED", {})


def test_save_and_load_round_trip(tmp_path, no_loaded):
    graph = ROAD_LIKE["grid-30x40"]()
    h = contraction.contraction_hierarchy(graph, core_size=32)
    path = tmp_path / "grid.hierarchy"  # written under exactly this name
    h.save(path)
    back = contraction.Hierarchy.load(path, graph)
    for a, b in zip(h.arrays(), back.arrays()):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    assert (back.levels, back.core_size, back.fingerprint) == (h.levels, 32, h.fingerprint)
    copy = ROAD_LIKE["grid-30x40"]()  # the same content, another object
    assert "_phast_hierarchies" not in copy.__dict__
    copy.__dict__["_phast_hierarchies"] = {32: back}
    sources = [0, 17, 600]
    np.testing.assert_array_equal(_phast_distances(copy, sources, 32),
                                  _scipy_distances(graph, np.array(sources)))


def test_a_hierarchy_of_another_graph_is_refused(tmp_path, no_loaded):
    G = _weighted_grid()
    path = tmp_path / "g.npz"
    nx_gpusp.phast.save_hierarchy(G, path, core_size=8)
    for change in ("weight", "edge", "node"):
        H = G.copy()
        u, v = next(iter(H.edges))
        if change == "weight":
            H[u][v]["weight"] += 1
        elif change == "edge":
            H.remove_edge(u, v)
        else:
            H.add_node("extra")
        with pytest.raises(ValueError, match="built for another graph.*save_hierarchy"):
            nx_gpusp.phast.load_hierarchy(H, path)
    with pytest.raises(ValueError, match="built for another graph"):
        nx_gpusp.phast.load_hierarchy(G, path, weight=None)  # other weights: unweighted


def test_bad_files_and_arguments_are_refused(tmp_path, monkeypatch, no_loaded):
    G = _weighted_grid(5, 5)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not an archive")
    with pytest.raises(ValueError, match="not a PHAST hierarchy file"):
        nx_gpusp.phast.load_hierarchy(G, junk)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.arange(3))
    with pytest.raises(ValueError, match="not a PHAST hierarchy file"):
        nx_gpusp.phast.load_hierarchy(G, other)
    with pytest.raises(FileNotFoundError):
        nx_gpusp.phast.load_hierarchy(G, tmp_path / "missing.npz")
    path = tmp_path / "g.npz"
    monkeypatch.setattr(store, "FORMAT_VERSION", store.FORMAT_VERSION + 1)
    nx_gpusp.phast.save_hierarchy(G, path, core_size=4)
    monkeypatch.undo()
    with pytest.raises(ValueError, match="format"):
        nx_gpusp.phast.load_hierarchy(G, path)
    F = G.copy()
    nx.set_edge_attributes(F, 1.5, "weight")
    with pytest.raises(ValueError, match="needs integer weights"):
        nx_gpusp.phast.save_hierarchy(F, tmp_path / "f.npz")
    with pytest.raises(ValueError, match="core_size"):
        nx_gpusp.phast.save_hierarchy(G, tmp_path / "f.npz", core_size=-1)
    with pytest.raises(TypeError, match="NetworkX graph"):
        nx_gpusp.phast.save_hierarchy({1: 2}, tmp_path / "f.npz")


def test_a_loaded_hierarchy_serves_every_call_on_the_graph(tmp_path, monkeypatch, device,
                                                           no_loaded):
    """load_hierarchy: method="phast" builds nothing, method="auto" runs phast, and the
    answers are NetworkX's."""
    G = _weighted_grid()
    path = tmp_path / "g.npz"
    nx_gpusp.phast.save_hierarchy(G, path)
    H = nx.DiGraph(G)  # the same content, converted afresh
    nx_gpusp.phast.load_hierarchy(H, path)

    def refuse(*args, **kwargs):
        raise AssertionError("the hierarchy was built again")

    monkeypatch.setattr(contraction, "contraction_hierarchy", refuse)
    graph = from_networkx(H, "weight")
    assert contraction.hierarchy_built(graph)
    s = (3, 4)
    expected = nx.single_source_dijkstra_path_length(H, s)
    for method in ("phast", "auto"):
        got = nx.single_source_dijkstra_path_length(H, s, backend="gpusp", method=method)
        assert dict(got) == expected


def test_cache_folder_option(monkeypatch):
    cfg = nx.config.backends.gpusp
    with pytest.raises(TypeError, match="hierarchy_cache must be a folder"):
        cfg.hierarchy_cache = 3
    with cfg(hierarchy_cache=Path("/nonexistent/x")):
        assert cfg.hierarchy_cache == "/nonexistent/x"
    with cfg(hierarchy_cache=""):
        assert cfg.hierarchy_cache is None
    assert cfg.hierarchy_cache is None


def test_an_unwritable_or_broken_cache_is_reported_and_passed_by(tmp_path, no_loaded):
    G = _weighted_grid(8, 8)
    s = (0, 0)
    expected = nx.single_source_dijkstra_path_length(G, s)
    blocker = tmp_path / "file"
    blocker.write_text("")
    cfg = nx.config.backends.gpusp
    with cfg(hierarchy_cache=str(blocker / "sub"), device="cpu"):
        with pytest.warns(RuntimeWarning, match="could not keep the PHAST hierarchy"):
            got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp",
                                                        method="phast")
    assert dict(got) == expected
    with cfg(hierarchy_cache=str(tmp_path), device="cpu"):
        graph = from_networkx(G, "weight")
        contraction._hierarchy(graph, 16)
        (path,) = tmp_path.glob("phast-*-core16-*.npz")
        path.write_bytes(b"broken")
        again = from_networkx(G, "weight")
        with pytest.warns(RuntimeWarning, match="ignoring the PHAST hierarchy"):
            h = contraction._hierarchy(again, 16)
        assert contraction.Hierarchy.load(path, again).levels == h.levels  # rewritten


_SECOND_PROCESS = """
import sys
import networkx as nx
import numpy as np
from nx_gpusp.convert import from_networkx
from nx_gpusp.solvers.sssp import contraction

G = nx.grid_2d_graph(14, 14).to_directed()
rng = np.random.default_rng(0)
for u, v in G.edges:
    G[u][v]["weight"] = int(rng.integers(0, 10))
if sys.argv[1] == "second":
    def refuse(*args, **kwargs):
        raise AssertionError("built again in the second process")
    contraction.contraction_hierarchy = refuse
    assert contraction.hierarchy_built(from_networkx(G, "weight"))
for method in ("phast", "auto"):
    got = nx.single_source_dijkstra_path_length(G, (2, 3), backend="gpusp", method=method)
    assert dict(got) == nx.single_source_dijkstra_path_length(G, (2, 3)), method
print("ok", sys.argv[1])
"""


def test_the_cache_folder_serves_a_second_process(tmp_path):
    """NX_GPUSP_HIERARCHY_CACHE: the first process builds the hierarchy and writes it,
    a second one finds it (method "phast" builds nothing, "auto" runs phast)."""
    root = Path(nx_gpusp.__file__).resolve().parents[1]
    env = {**os.environ, "NX_GPUSP_HIERARCHY_CACHE": str(tmp_path / "cache"),
           "NX_GPUSP_DEVICE": "cpu", "PYTHONPATH": str(root)}
    script = tmp_path / "calls.py"
    script.write_text(_SECOND_PROCESS)
    for which in ("first", "second"):
        out = subprocess.run([sys.executable, str(script), which], env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert f"ok {which}" in out.stdout
        assert len(list((tmp_path / "cache").glob("phast-*.npz"))) == 1


# -- random graphs, real road networks ----------------------------------------------
def _random_road(seed):
    """A seeded road-like graph of a random kind: a grid or a geometric graph (one or
    both directions of each edge), integer weights from 0 (some zero) up to 1, 10 or
    10**6, with a few self-loops and parallel arcs."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 2500))
    if rng.random() < 0.5:
        rows = int(rng.integers(5, 40))
        base = datasets.road_grid(rows, max(2, n // rows), seed=seed)
    else:
        base = datasets.random_geometric_road(n, seed=seed, k=int(rng.integers(1, 4)))
    tails = np.repeat(np.arange(base.n), np.diff(base.indptr)).astype(np.int64)
    heads = base.indices.astype(np.int64)
    if rng.random() < 0.3:  # one-way streets: drop some directions
        keep = rng.random(len(tails)) < 0.8
        tails, heads = tails[keep], heads[keep]
    extra = rng.integers(0, base.n, (2, base.n // 50))
    tails = np.concatenate([tails, extra[0], extra[0]])  # self-loops
    heads = np.concatenate([heads, extra[1], extra[0]])
    high = int(rng.choice([1, 10, 10**6]))
    w = rng.integers(0, high + 1, len(tails))
    return CSRGraph.from_edge_arrays(base.n, tails, heads, w, directed=True)


@pytest.mark.parametrize("seed", range(12))
def test_phast_equals_scipy_on_random_road_graphs(seed):
    graph = _random_road(seed)
    core_size = [0, 16, 300][seed % 3]
    sources = np.random.default_rng(seed).choice(graph.n, 5, replace=False)
    np.testing.assert_array_equal(_phast_distances(graph, sources, core_size),
                                  _scipy_distances(graph, sources))
    check_invariants(graph, contraction._hierarchy(graph, core_size))


@pytest.mark.parametrize("name", ["NY-synthetic", "COL"])
def test_phast_equals_scipy_on_large_road_networks(real, name):
    """Road networks of 264k and 436k vertices, the default core, from a few sources."""
    graph = real(name, as_csr=True, **({"weights": (1, 10)} if name == "COL" else {}))
    sources = np.random.default_rng(3).choice(graph.n, 3, replace=False)
    np.testing.assert_array_equal(_phast_distances(graph, sources),
                                  _scipy_distances(graph, sources))
    h = contraction._hierarchy(graph, contraction.CORE_SIZE)
    assert h.levels > 10 and len(h.core) <= contraction.CORE_SIZE


def test_merge_keeps_the_lightest_of_each_arc():
    """merge of two sorted arc lists equals sorting their union and keeping the
    minimum weight per (tail, head)."""
    ops = get_executor("cpu").ops("contraction")
    rng = np.random.default_rng(4)
    k = 50
    arcs = []
    for size in (400, 300):
        t, h = rng.integers(0, k, size), rng.integers(0, k, size)
        arcs.append(ops.arcs(t, h, rng.integers(0, 9, size), k))
    a, b, w = ops.merge(arcs[0], arcs[1], k)
    best = {}
    for t, h, wt in zip(*(np.concatenate(x) for x in zip(*arcs))):
        best[t, h] = min(best.get((t, h), wt), wt)
    assert list(zip(a.tolist(), b.tolist())) == sorted(best)
    assert w.tolist() == [best[key] for key in sorted(best)]


# -- the GPU build against the host one ---------------------------------------------
def needs_gpu(test):
    return pytest.mark.gpu(pytest.mark.skipif(not nx_gpusp.executor.cuda_available(),
                                              reason="no CUDA GPU (CuPy) here")(test))


def _round_steps(ex, case):
    """Every step of ops.contraction on one random case (host arrays in ``case``), as
    host arrays and ints: one contraction round and the assembly's steps."""
    ops, d = ex.ops("contraction"), ex.asarray
    k = case["k"]
    a, b, w = ops.arcs(d(case["tails"]), d(case["heads"]), d(case["weights"]), k)
    chosen, din, dout, count, work = ops.independent_set(a, b, d(case["tie"]), 40)
    touch = ops.touching(chosen, a, b)
    touched, rest = ops.split(touch, (a, b, w))
    u, x, c = ops.shortcuts(chosen, a, b, w, din, dout, k)
    done = ops.witnessed(u, x, c, *rest, k, 6)
    new = ops.select(done, (u, x, c), keep=False)
    merged = ops.merge(rest, new, k)
    renumbered = ops.renumber(chosen, merged[:2])
    ids = d(np.arange(k, dtype=np.int64) * 2)
    level = ex.ops("array_ops").full(2 * k, -1, np.int64)
    ops.set_levels(level, ids, chosen, 7)
    levels = d(case["levels"])
    order, level_ptr, pos = ops.level_order(levels, 4)
    up = ops.upward(levels, a, b)
    by_position = ops.by_position(pos, a, b, w, k)
    target = d(case["target"].copy())
    ops.scatter_min(target, d(case["index"]), d(case["values"]))
    arrays = [a, b, w, chosen, din, dout, touch, *touched, *rest, u, x, c, done, *new,
              *merged, *renumbered, level, order, pos, up, *by_position, target,
              ops.offsets(a, k + 1), ops.keys(a, b, k), ops.take(w, d(case["picks"])),
              ops.take(w, d(case["picks"].astype(np.int32))),
              ops.concatenate([a, w, b]), ops.concatenate([])]
    return [ex.to_host(arr) for arr in arrays] + [count, work, level_ptr]


def _random_round_case(seed):
    rng = np.random.default_rng(seed)
    k, m = int(rng.integers(1, 3000)), int(rng.integers(0, 30000))
    return dict(
        k=k, tails=rng.integers(0, k, m), heads=rng.integers(0, k, m),
        weights=rng.integers(0, 50, m), tie=rng.permutation(k).astype(np.int64),
        levels=rng.integers(0, 5, k), target=rng.integers(-10**12, 10**12, k),
        index=rng.integers(0, k, 2 * m), values=rng.integers(-10**12, 10**12, 2 * m),
        picks=rng.integers(0, max(1, m // 2), 1000) if m else np.zeros(0, np.int64))


@needs_gpu
@pytest.mark.parametrize("seed", range(6))
def test_contraction_kernels_match_twin(seed):
    """Every step of a round on CUDA equals the NumPy twin's, on random arcs (parallel
    arcs, self-loops, hubs past the pair limit, tails past the witness fan-out)."""
    case = _random_round_case(seed)
    cuda, host = (_round_steps(get_executor(dev), case) for dev in ("cuda", "cpu"))
    assert len(cuda) == len(host)
    for i, (got, want) in enumerate(zip(cuda, host)):
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype, i
        np.testing.assert_array_equal(got, want, err_msg=f"step {i}")


@needs_gpu
def test_contraction_scans_past_one_block_of_tiles():
    """select and renumber over 5M entries (more tiles than one block of the scan's
    second pass takes) equal NumPy's."""
    rng = np.random.default_rng(3)
    mask = rng.random(5_000_000) < 0.4
    values = rng.integers(0, 1 << 40, mask.size)
    ex = get_executor("cuda")
    kept, rest = ex.ops("contraction").split(ex.asarray(mask), (ex.asarray(values),))
    np.testing.assert_array_equal(ex.to_host(kept[0]), values[mask])
    np.testing.assert_array_equal(ex.to_host(rest[0]), values[~mask])
    verts = np.flatnonzero(~mask)
    (number,) = ex.ops("contraction").renumber(ex.asarray(mask), (ex.asarray(verts),))
    np.testing.assert_array_equal(ex.to_host(number), np.arange(len(verts)))


@needs_gpu
@pytest.mark.parametrize("name", ["grid-60x60, zero weights", "geometric-5000, k=2"])
@pytest.mark.parametrize("core_size", [0, 64, contraction.CORE_SIZE])
def test_gpu_build_equals_host_build(name, core_size):
    graph = ROAD_LIKE[name]()
    cuda, host = (contraction.contraction_hierarchy(graph, core_size, ex=get_executor(d))
                  for d in ("cuda", "cpu"))
    for a, b in zip(cuda.arrays(), host.arrays()):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@needs_gpu
def test_gpu_build_of_a_real_road_network(real):
    graph = real("NY-synthetic", as_csr=True)
    cuda, host = (contraction.contraction_hierarchy(graph, ex=get_executor(d))
                  for d in ("cuda", "cpu"))
    for a, b in zip(cuda.arrays(), host.arrays()):
        np.testing.assert_array_equal(a, b)


@needs_gpu
def test_gpu_build_compiles_nothing(tmp_path):
    """A fresh process with an empty CuPy cache builds a hierarchy on the GPU without
    compiling a kernel of CuPy's (CUPY_CACHE_SAVE_CUDA_SOURCE keeps the source of any
    it compiles) and equal to the host's."""
    from nx_gpusp import prebuilt

    if prebuilt.read_manifest() is None:
        pytest.skip("no prebuilt kernels here (python -m nx_gpusp.kernel_build)")
    code = """if True:
        import numpy as np
        from nx_gpusp.datasets import integer_geometric_road
        from nx_gpusp.executor import get_executor
        from nx_gpusp.solvers.sssp.contraction import contraction_hierarchy
        graph = integer_geometric_road(6000)
        cuda, host = (contraction_hierarchy(graph, core_size=64, ex=get_executor(d))
                      for d in ("cuda", "cpu"))
        assert all(np.array_equal(x, y) for x, y in zip(cuda.arrays(), host.arrays()))
        print("levels", cuda.levels)
    """
    env = dict(os.environ, CUPY_CACHE_DIR=str(tmp_path), CUPY_CACHE_SAVE_CUDA_SOURCE="1")
    env.pop("CUPY_CACHE_IN_MEMORY", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "levels" in done.stdout
    compiled = sorted(p.name for p in tmp_path.rglob("*.cu"))
    assert not compiled, f"CuPy compiled {compiled}"
