"""The contraction hierarchy under PHAST (solvers/sssp/phast.py; Geisberger, Sanders,
Schultes and Delling, "Contraction Hierarchies", WEA 2008), cached on the CSRGraph, so
it is paid once per converted graph and amortised over its queries. Each round is a
fixed sequence of whole-array steps (counts, sorts, scans, binary searches, gathers),
the kernel table ops/contraction.py: kernels/contraction.cu on a GPU (built ahead of
time: nothing is compiled at a first build), NumPy on the host, the same hierarchy on
both:

- contraction in rounds: each round contracts the vertices whose edge difference
  (in-degree x out-degree - in-degree - out-degree, ties broken by a seeded hash) is
  smaller than every neighbour's, an independent set, so one round is one level;
- contracting v joins each in-arc (u, v) to each out-arc (v, x) into a shortcut
  (u, x) of the summed weight, unless an arc (u, x) or a two-arc path through a
  vertex that stays is no longer (the witness check, batched over every candidate of
  the round: binary searches of the (tail, head) keys; a missing witness only adds a
  shortcut, never loses a distance); the arcs v holds when contracted are its arcs of
  the hierarchy: to higher levels;
- once at most ``core_size`` vertices remain, they stay whole as the core, with their
  all-pairs distances over the arcs left among them (blocked Floyd-Warshall on a GPU,
  Dijkstra from each on the host); so do the vertices left when the
  shortcuts outgrow the graph (the hierarchy past SHORTCUT_FACTOR arcs per arc and
  vertex, or the remaining arcs growing past GROWTH_LIMIT times their fewest) or only
  hubs (more than PAIR_LIMIT arc pairs) remain, and
  a graph whose core would pass MAX_CORE vertices (not road-like) is refused.
"""

from types import SimpleNamespace

import numpy as np

from ...graph import INT32_MAX, distance_inf
from ...ops.floyd_warshall import fw_step
from ...ops.phast_batched import sweep
from . import hierarchy_store as store

__all__ = ["Hierarchy", "contraction_hierarchy", "hierarchy_built", "CORE_SIZE",
           "MAX_CORE"]

CORE_SIZE = 2048  # vertices left whole at the top (their matrix: CORE_SIZE**2 distances)
MAX_CORE = 8192  # a core that would pass this (the graph does not contract) is refused
SHORTCUT_FACTOR = 4  # arcs of the hierarchy beyond this many per arc and vertex: stop
GROWTH_LIMIT = 1.25  # remaining arcs past this many times their fewest so far: stop
PAIR_LIMIT = 1 << 16  # a vertex with more in x out arc pairs is left to the core
WITNESS_FANOUT = 64  # two-arc witnesses are looked for from tails of at most this degree


class Hierarchy:
    """The host arrays of a contraction hierarchy: ``order`` (vertices by level, the
    core last; int32), ``level_ptr`` (level l's positions: level_ptr[l]:level_ptr[l+1];
    the core: level_ptr[-2]:n), the upward and downward in-arcs by position
    (``up``/``down``: ptr int64, tails int32, weights int64), ``core`` (int32) and its
    distance matrix ``matrix`` (int64, inf = no path); :meth:`by_position` gives the
    sweeps' device arrays.
    ``fingerprint``: the graph's it was built from (hierarchy_store.graph_fingerprint),
    ``core_size``: the core size asked for; :meth:`save` and :meth:`load` keep it in a
    file."""

    _NAMES = ("order", "level_ptr", "up_ptr", "up_tails", "up_weights", "down_ptr",
              "down_tails", "down_weights", "core", "matrix")

    def __init__(self, order, level_ptr, up, down, core, matrix, *, fingerprint=None,
                 core_size=None):
        self.order, self.level_ptr, self.up, self.down = order, level_ptr, up, down
        self.core, self.matrix = core, matrix
        self.levels = len(level_ptr) - 2
        self.fingerprint, self.core_size = fingerprint, core_size
        self._device = {}  # by_position's arrays per executor
        self._sweep_dtype = None

    def save(self, path):
        """Write the hierarchy to the file ``path`` (an ``np.savez`` archive, exactly that
        name) with its format version and its graph's fingerprint."""
        store.write_archive(path, dict(zip(self._NAMES, self.arrays())), self.fingerprint,
                            self.core_size)

    def arrays(self):
        """The host arrays, in the order of ``_NAMES``."""
        return (self.order, self.level_ptr, *self.up, *self.down, self.core, self.matrix)

    @classmethod
    def load(cls, path, graph=None):
        """The hierarchy saved at ``path``; given ``graph`` (a CSRGraph), ValueError
        unless it was built from a graph of the same nodes, arcs and weights."""
        fp = None if graph is None else store.graph_fingerprint(graph)
        arrays, fp, core_size = store.read_archive(path, fp)
        a = [arrays[name] for name in cls._NAMES]
        if graph is not None and len(a[0]) != graph.n:
            raise ValueError(f"{path}: a hierarchy of {len(a[0])} vertices, the graph has "
                             f"{graph.n}")
        return cls(a[0], a[1], tuple(a[2:5]), tuple(a[5:8]), a[8], a[9], fingerprint=fp,
                   core_size=core_size)

    def sweep_dtype(self):
        """int32 when every sum the sweeps form fits below int32's "unreached": a value
        is at most one climb (levels + 1 upward arcs), one core distance and one descent
        (levels + 1 downward arcs), each arc at most the hierarchy's heaviest; else
        int64. Found once per hierarchy (a scan of the core matrix costs milliseconds)."""
        if self._sweep_dtype is None:
            heaviest = max([int(w.max()) for w in (self.up[2], self.down[2]) if len(w)] + [0])
            finite = self.matrix[self.matrix != distance_inf(np.int64)]
            core = int(finite.max()) if finite.size else 0
            bound = (2 * self.levels + 2) * heaviest + core
            self._sweep_dtype = np.dtype(np.int32 if bound < INT32_MAX else np.int64)
        return self._sweep_dtype

    def by_position(self, ex):
        """The hierarchy as the sweeps read it, on ``ex``, cached: vertices numbered by
        position in the level order (``pos``: vertex -> position, int32, on the device
        and ``host_pos``), each sweep's in-arcs cut into segments
        (ops.phast_batched.sweep: tails as positions, weights in ``dtype``), the core's
        positions ``core_pos`` (the last k) and its ``matrix``, in ``dtype`` =
        :meth:`sweep_dtype`. ``workspaces`` (phast-batched's, per batch width) and
        ``query`` (single-source phast's) hold the solvers' working blocks and recorded
        sweeps for these arrays."""
        dev = self._device.get(ex.name)
        if dev is not None:
            return dev
        dtype, n = self.sweep_dtype(), len(self.order)
        pos = np.empty(n, dtype=np.int32)
        pos[self.order] = np.arange(n, dtype=np.int32)

        def arcs(ptr, tails, weights):
            return ptr, pos[tails].astype(np.int32), weights.astype(dtype)

        inf = distance_inf(np.int64)
        matrix = np.where(self.matrix == inf, distance_inf(dtype), self.matrix).astype(dtype)
        up, down = arcs(*self.up), arcs(*self.down)
        core_pos = np.arange(n - len(self.core), n, dtype=np.int32)
        arc_bytes = sum(a.nbytes for a in up + down)
        ex.require_bytes(pos.nbytes + matrix.nbytes + 2 * arc_bytes, "the PHAST hierarchy")
        dev = ex.publish(SimpleNamespace(
            dtype=dtype, host_pos=pos, pos=ex.asarray(pos),
            up=sweep(ex, self.level_ptr, *up), down=sweep(ex, self.level_ptr, *down),
            core_pos=ex.asarray(core_pos), matrix=ex.asarray(matrix), workspaces={},
            query=None))
        self._device[ex.name] = dev
        return dev


def _tie_ranks(n, seed):
    """Each vertex's rank in a seeded random order: the ties of equal edge differences."""
    ranks = np.empty(n, dtype=np.int64)
    ranks[np.argsort(np.random.default_rng(seed).random(n), kind="stable")] = np.arange(n)
    return ranks


def contraction_hierarchy(graph, core_size=CORE_SIZE, seed=0, ex=None):
    """The Hierarchy of ``graph`` (integer, non-negative weights), built with the
    executor ``ex`` (kernels/contraction.cu on a GPU; NumPy by default) into host
    arrays.

    The vertices that remain are renumbered 0..k-1 after each round (in their order, so
    the arcs stay sorted by (tail, head)): a round costs the arcs and vertices left,
    not the graph's. The same graph and seed give the same hierarchy on either
    executor (every step is exact integer work, every sort stable)."""
    if ex is None:
        from ...executor import get_executor

        ex = get_executor("cpu")
    ops = ex.ops("contraction")
    n = graph.n
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    heads = graph.indices.astype(np.int64)
    keep = tails != heads  # self-loops never shorten a path of non-negative weights
    a, b, w = ops.arcs(ex.asarray(tails[keep]), ex.asarray(heads[keep]),
                       ex.asarray(graph.weights.astype(np.int64)[keep]), n)
    del tails, heads, keep
    tie = ex.asarray(_tie_ranks(n, seed))
    ids = ex.asarray(np.arange(n, dtype=np.int64))  # the graph's vertex of each remaining
    level = ex.ops("array_ops").full(n, -1, np.int64)
    kept = [[], [], []]  # the arcs of the hierarchy (the graph's vertex numbers)
    budget = SHORTCUT_FACTOR * (len(a) + n)
    fewest, held = len(a), 0  # held: the arcs of the hierarchy so far
    rounds = 0
    while len(ids) > core_size:
        k = len(ids)
        chosen, din, dout, count, work = ops.independent_set(a, b, tie, PAIR_LIMIT)
        if not count or work > budget:
            break  # hubs only, or a round of more shortcuts than the graph holds arcs
        (ta, tb, tw), rest = ops.split(ops.touching(chosen, a, b), (a, b, w))
        for part, arr in zip(kept, (ops.take(ids, ta), ops.take(ids, tb), tw)):
            part.append(arr)
        held += len(ta)
        ops.set_levels(level, ids, chosen, rounds)
        u, x, c = ops.shortcuts(chosen, a, b, w, din, dout, k)  # from the round's arcs
        a, b, w = rest
        u, x, c = ops.select(ops.witnessed(u, x, c, a, b, w, k, WITNESS_FANOUT), (u, x, c),
                             keep=False)
        a, b, w = ops.merge((a, b, w), (u, x, c), k)
        a, b = ops.renumber(chosen, (a, b))
        ids, tie = ops.select(chosen, (ids, tie), keep=False)
        rounds += 1
        fewest = min(fewest, len(a))
        if held + len(a) > budget or len(a) > GROWTH_LIMIT * fewest:
            break  # shortcuts outgrow the graph (not road-like): the rest is the core
    if len(ids) > MAX_CORE:
        raise ValueError(
            f"gpusp method 'phast': this graph does not contract ({len(ids)} "
            f"vertices would stay in the core, at most {MAX_CORE}); PHAST is for road-like "
            "graphs, use method='near-far'")
    ex.ops("array_ops").put(level, ids, rounds)  # the core
    order, level_ptr, pos = ops.level_order(level, rounds)
    ka, kb, kw = (ops.concatenate(part) for part in kept)
    upward, downward = ops.split(ops.upward(level, ka, kb), (ka, kb, kw))
    up, down = ops.by_position(pos, *upward, n), ops.by_position(pos, *downward, n)
    core = order[int(level_ptr[rounds]):]
    matrix = _core_distances(ex, len(ids), a, b, w)

    def host(arr):  # the core's matrix on the host is a host array already
        return arr if isinstance(arr, np.ndarray) else ex.to_host(arr)

    return Hierarchy(host(order), level_ptr, tuple(map(host, up)), tuple(map(host, down)),
                     host(core), host(matrix), fingerprint=store.graph_fingerprint(graph),
                     core_size=core_size)


def _core_distances(ex, k, ia, ib, w):
    """The all-pairs distances (int64, inf = no path) of the core's k vertices over the
    arcs (ia, ib, w) left among them (numbered 0..k-1 in the core's order): blocked
    Floyd-Warshall on a GPU; on the host, Floyd-Warshall up to 256 vertices, else SciPy's
    Dijkstra from each (the arcs distinct and sorted by (tail, head), as the rounds
    leave them)."""
    inf = distance_inf(np.int64)
    if ex.is_cuda and k:
        ops, arrays = ex.ops("contraction"), ex.ops("array_ops")
        flat = arrays.full(k * k, inf, np.int64)
        ops.scatter_min(flat, ops.keys(ia, ib, k), w)
        matrix = arrays.set_diagonal(flat.reshape(k, k), k, 0)
        ex.ops("floyd_warshall").blocked_floyd_warshall(matrix)
        return matrix
    ia, ib, w = ex.to_host(ia), ex.to_host(ib), ex.to_host(w)
    matrix = np.full((k, k), inf, dtype=np.int64)
    if k == 0:
        return matrix
    if k <= 256 or not len(ia):  # exact in int64 (Floyd-Warshall, k steps of k x k)
        np.fill_diagonal(matrix, 0)
        np.minimum.at(matrix, (ia, ib), w)
        for m in range(k):
            fw_step(matrix, None, None, m)
        return matrix
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import dijkstra

    if int(w.max()) * k >= 1 << 53:  # float64 would round: refuse rather than guess
        raise ValueError("gpusp method 'phast': the core's distances pass 2**53 (exact "
                         "float64); use method='near-far'")
    # an arc longer than a two-arc path is on no shortest path (each arc of that path is
    # lighter, so kept or itself so replaced): about a third fewer arcs to scan
    longer = ex.ops("contraction").witnessed(ia, ib, w - 1, ia, ib, w, k, WITNESS_FANOUT)
    ia, ib, w = ia[~longer], ib[~longer], w[~longer]
    arcs = csr_array((w.astype(np.float64) + 0.0, (ia, ib)), shape=(k, k))
    arcs.sum_duplicates()
    d = dijkstra(arcs, directed=True)
    matrix[np.isfinite(d)] = d[np.isfinite(d)].astype(np.int64)
    return matrix


def _hierarchy(graph, core_size, build=True, ex=None):
    """``graph``'s hierarchy of ``core_size``: the one it holds, else one loaded in this
    process for its content (nx_gpusp.phast.load_hierarchy), else the one in the
    ``hierarchy_cache`` folder, else (``build``) built now with the queries' executor
    ``ex`` (default: the configured device's) and then kept in that folder; None where
    none exists and ``build`` is False."""
    held = graph.__dict__.setdefault("_phast_hierarchies", {})
    h = held.get(core_size)
    if h is None:
        h = store.recall(graph, core_size)
        path = store.cache_file(graph, core_size)
        if h is None and path is not None:
            h = store.read_cache(path, graph, Hierarchy.load)
        if h is None and build:
            h = contraction_hierarchy(graph, core_size, ex=ex or build_executor())
            if path is not None:
                store.write_cache(path, h)
        if h is not None:
            held[core_size] = h
    return h


def build_executor():
    """The queries' executor where the caller names none: the configured device's
    (nx.config.backends.gpusp.device; algorithms.common.configured_executor, which the
    solvers do not import), which builds the hierarchy."""
    from ...config import get_config
    from ...executor import get_executor

    return get_executor(get_config().device)


def hierarchy_built(graph):
    """Whether ``graph`` holds the hierarchy of the default core size, or one is loaded
    or kept in the ``hierarchy_cache`` folder for its content (method "auto" then runs
    PHAST: methods.Method.prepared)."""
    if CORE_SIZE in graph.__dict__.get("_phast_hierarchies", {}):
        return True
    if graph.distance_dtype().kind != "i":
        return False  # phast refuses it: no hierarchy to look for
    return _hierarchy(graph, CORE_SIZE, build=False) is not None
