"""Random test graphs and result checkers shared by the test modules."""

import math
import random
from collections.abc import Mapping

import networkx as nx
import numpy as np

__all__ = ["networkx_function", "run_on_both", "assert_same_arrays", "random_graph", "graph_cases", "assert_valid_path", "assert_lengths_equal",
           "assert_paths_valid", "path_length", "plain", "outcome", "assert_same_value",
           "assert_identical", "random_level_pulls"]


def networkx_function(name):
    """NetworkX's function by the name it dispatches under: ``nx.<name>``, else the
    dispatchable registered under it (load_centrality dispatches as
    newman_betweenness_centrality, which networkx does not export)."""
    from networkx.utils.backends import _registered_algorithms

    return getattr(nx, name, None) or _registered_algorithms[name]


def plain(value):
    """A result with its generators, lists, lazy mappings and arrays made plain
    containers, so that gpusp's and NetworkX's compare with ``==``."""
    from nx_gpusp.results import materialize

    if hasattr(value, "__next__") or isinstance(value, list):
        return [plain(x) for x in value]
    if isinstance(value, tuple):
        return tuple(plain(x) for x in value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    value = materialize(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def outcome(call):
    """("ok", plain value) or ("raised", exception type) of ``call()``."""
    try:
        return ("ok", plain(call()))
    except Exception as exc:  # noqa: BLE001  (the exception type is what is compared)
        return ("raised", type(exc))


def random_graph(seed, *, directed=True, multigraph=False, n=None, p=None, weights="int",
                 negative=False, zero_fraction=0.0, labels="int", disconnected=False):
    """A seeded random graph.

    weights: "int" (1..20), "float" (uniform 0.1..10), "mixed" (ints and floats),
    "none" (no weight attribute: NetworkX's default 1). negative: weights shifted by a
    random potential (w + h(u) - h(v)), so negative arcs but no negative cycles
    (directed only). zero_fraction: share of arcs given weight 0. labels: "int",
    "str" (strings), "tuple" (tuples). disconnected: a second, unreachable component.
    """
    rng = random.Random(seed)
    n = n or rng.randint(1, 40)
    p = p if p is not None else rng.uniform(0.05, 0.4)
    cls = {(True, False): nx.DiGraph, (False, False): nx.Graph,
           (True, True): nx.MultiDiGraph, (False, True): nx.MultiGraph}[(directed, multigraph)]
    G = cls()
    G.add_nodes_from(range(n))
    h = [rng.randint(-15, 15) for _ in range(n)]
    for u in range(n):
        for v in range(n):
            if (u != v or rng.random() < 0.05) and rng.random() < p:
                if not directed and v < u:
                    continue
                for _ in range(rng.randint(1, 3) if multigraph else 1):
                    G.add_edge(u, v, **_weight(rng, weights, zero_fraction))
    if disconnected:
        base = n
        for u in range(base, base + 5):
            G.add_edge(u, u + 1 if u + 1 < base + 5 else base, **_weight(rng, weights, 0))
    if negative:
        for u, v, d in G.edges(data=True):
            if "weight" in d and u != v:
                d["weight"] = d["weight"] + h[u % n] - h[v % n]
    if labels == "str":
        G = nx.relabel_nodes(G, {v: f"n{v}" for v in G})
    elif labels == "tuple":
        G = nx.relabel_nodes(G, {v: (v % 3, str(v)) for v in G})
    return G


def _weight(rng, kind, zero_fraction):
    if rng.random() < zero_fraction:
        return {"weight": 0}
    if kind == "int":
        return {"weight": rng.randint(1, 20)}
    if kind == "float":
        return {"weight": rng.uniform(0.1, 10.0)}
    if kind == "mixed":
        return {"weight": rng.choice([rng.randint(1, 20), rng.uniform(0.1, 10.0)])}
    return {}


def graph_cases(count, seed=0, **fixed):
    """``count`` varied random graphs (directed/undirected, multi, weights, zeros, labels,
    disconnected), each as (id, graph)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kw = dict(directed=rng.random() < 0.6, multigraph=rng.random() < 0.25,
                  weights=rng.choice(["int", "int", "float", "mixed", "none"]),
                  zero_fraction=rng.choice([0.0, 0.0, 0.3]),
                  labels=rng.choice(["int", "int", "str", "tuple"]),
                  disconnected=rng.random() < 0.3)
        kw.update(fixed)
        out.append((f"g{i}-" + "-".join(f"{k}={v}" for k, v in sorted(kw.items())),
                    random_graph(seed * 100003 + i, **kw)))
    return out


def _arc_weight(G, u, v, weight):
    data = G[u][v]
    if G.is_multigraph():
        return min(d.get(weight, 1) for d in data.values())
    return data.get(weight, 1)


def path_length(G, path, weight="weight"):
    return sum(_arc_weight(G, u, v, weight) for u, v in zip(path, path[1:]))


def assert_valid_path(G, path, source, target, expected_length, weight="weight"):
    assert path[0] == source and path[-1] == target, (path, source, target)
    for u, v in zip(path, path[1:]):
        assert G.has_edge(u, v), f"{(u, v)} is not an edge of the graph (path {path})"
    got = path_length(G, path, weight)
    assert _close(got, expected_length), (path, got, expected_length)


def _close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def assert_lengths_equal(got, expected):
    """Same keys; equal values (floats to 1e-9: NetworkX itself sums in path order, as
    we do, so differences would only come from a different but equally short path)."""
    assert set(got) == set(expected), (set(got) ^ set(expected))
    for k, v in expected.items():
        assert _close(got[k], v), (k, got[k], v)


def assert_paths_valid(G, paths, lengths, source, weight="weight"):
    """Every path starts at ``source``, uses real arcs and has the expected length."""
    assert set(paths) == set(lengths)
    for target, path in paths.items():
        assert_valid_path(G, path, source, target, lengths[target], weight)


def run_on_both(executors, fn, *arrays):
    """fn(ex, *device copies of arrays) on CUDA and on the twin: the arrays after, per device."""
    out = []
    for ex in executors:
        dev = [ex.asarray(a.copy()) for a in arrays]
        fn(ex, *dev)
        out.append([ex.to_host(a) for a in dev])
    return out


def assert_same_arrays(cuda_arrays, twin_arrays):
    for a, b in zip(cuda_arrays, twin_arrays):
        np.testing.assert_array_equal(a, b)


def assert_same_value(got, expected, strict_types=True, ordered=True):
    """``got`` equals NetworkX's ``expected``: dicts with the same keys (in the same
    order, unless ``ordered`` is off), tuples item by item, lists exactly; numbers of
    the same type (unless ``strict_types`` is off) and floats to 1e-12 relative (the
    measures sum reciprocal distances, and the device sums them in another order)."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (got, expected)
        for a, b in zip(got, expected):
            assert_same_value(a, b, strict_types, ordered)
    elif isinstance(expected, dict):
        assert isinstance(got, dict), got
        if ordered:
            assert list(got) == list(expected), "keys or their order differ"
        else:
            assert set(got) == set(expected), "keys differ"
        for k in expected:
            assert_same_value(got[k], expected[k], strict_types, ordered)
    elif isinstance(expected, list):
        assert got == expected
    elif isinstance(expected, nx.Graph):  # bfs_tree, ego_graph: the same graph and data
        assert type(got) is type(expected), (got, expected)
        assert nx.utils.graphs_equal(got, expected)
        if ordered:
            assert list(got.nodes) == list(expected.nodes), "node order differs"
    else:
        if strict_types:
            assert type(got) is type(expected), (got, expected)
        assert not isinstance(got, np.generic), f"NumPy scalar {got!r}"
        numbers = (int, float)
        if isinstance(expected, numbers) and isinstance(got, numbers) and math.isfinite(expected):
            assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12), (got, expected)
        elif isinstance(expected, float) and math.isnan(expected):  # closeness_vitality
            assert isinstance(got, float) and math.isnan(got), (got, expected)
        else:  # infinities, and what is not a number (None, a label)
            assert got == expected, (got, expected)


def assert_tight_tree(G, dist, pred, sources, reached):
    """pred: tight arcs only, exactly the reached non-sources have one, no cycle."""
    heads = np.flatnonzero(pred >= 0)
    assert all(dist[u] + G[u][v]["weight"] == dist[v]
               for u, v in zip(pred[heads].tolist(), heads.tolist()))
    assert set(heads.tolist()) | set(sources) == reached
    assert not set(heads.tolist()) & set(sources)
    n = len(pred)
    anc = np.where(pred >= 0, pred, np.arange(n))
    for _ in range(int(n).bit_length() + 1):
        anc = anc[anc]
    assert (pred[anc] < 0).all(), "a predecessor cycle"


def assert_identical(got, expected, where="result"):
    """``got`` is NetworkX's ``expected`` exactly: mappings with the same keys, numbers
    equal (no tolerance) and of the same type (int, float), arrays of the same dtype
    and values."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype, (where, got)
        np.testing.assert_array_equal(got, expected, err_msg=where)
    elif isinstance(expected, Mapping):
        assert isinstance(got, Mapping) and set(got) == set(expected), (where, got, expected)
        for k in expected:
            assert_identical(got[k], expected[k], f"{where}[{k!r}]")
    elif isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), (where, got)
        for k, (a, b) in enumerate(zip(got, expected)):
            assert_identical(a, b, f"{where}[{k}]")
    else:
        assert type(got) is type(expected) and (got == expected or got != got and
                                                expected != expected), (where, got, expected)


def random_level_pulls(rng, bounds, degree):
    """Random in-arcs by position, as a contraction hierarchy's sweeps read them: position
    i has degree[i] in-arcs, each tail drawn from the positions outside i's level
    (``bounds``: each level's (begin, end) positions). Returns (ptr int64, tails int32,
    weights int64 in 0..99)."""
    n = len(degree)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=ptr[1:])
    tails = np.empty(int(ptr[-1]), dtype=np.int32)
    positions = np.arange(n, dtype=np.int32)
    for begin, end in bounds:
        others = np.concatenate([positions[:begin], positions[end:]])
        lo, hi = ptr[begin], ptr[end]
        tails[lo:hi] = others[rng.integers(0, len(others), hi - lo)]
    return ptr, tails, rng.integers(0, 100, int(ptr[-1]))
