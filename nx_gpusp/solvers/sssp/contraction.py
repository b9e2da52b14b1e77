"""The contraction hierarchy under PHAST (solvers/sssp/phast.py; Geisberger, Sanders,
Schultes and Delling, "Contraction Hierarchies", WEA 2008), built on the host in NumPy
and cached on the CSRGraph, so it is paid once per converted graph and amortised over
its queries:

- contraction in rounds: each round contracts the vertices whose edge difference
  (in-degree x out-degree - in-degree - out-degree, ties broken by a seeded hash) is
  smaller than every neighbour's, an independent set, so one round is one level;
- contracting v joins each in-arc (u, v) to each out-arc (v, x) into a shortcut
  (u, x) of the summed weight, unless an arc (u, x) or a two-arc path through a
  vertex that stays is no longer (the witness check; a missing witness only adds a
  shortcut, never loses a distance); the arcs v holds when contracted are its arcs of
  the hierarchy: to higher levels;
- once at most ``core_size`` vertices remain, they stay whole as the core, with their
  all-pairs distances over the arcs left among them; so do the vertices left when the
  shortcuts outgrow the graph (the hierarchy past SHORTCUT_FACTOR arcs per arc and
  vertex, or the remaining arcs growing past GROWTH_LIMIT times their fewest) or only
  hubs (more than PAIR_LIMIT arc pairs) remain, and
  a graph whose core would pass MAX_CORE vertices (not road-like) is refused.
"""

import numpy as np

from ...graph import distance_inf, row_pointers
from ...ops.base import gather_arcs
from ...ops.floyd_warshall import fw_step
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
    distance matrix ``matrix`` (int64, inf = no path); device copies per executor.
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
        self._device = {}

    def save(self, path):
        """Write the hierarchy to the file ``path`` (an ``np.savez`` archive, exactly that
        name) with its format version and its graph's fingerprint."""
        arrays = (self.order, self.level_ptr, *self.up, *self.down, self.core, self.matrix)
        store.write_archive(path, dict(zip(self._NAMES, arrays)), self.fingerprint,
                            self.core_size)

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

    def on(self, ex):
        dev = self._device.get(ex.name)
        if dev is None:
            ex.require_bytes(sum(a.nbytes for a in self._arrays()), "the PHAST hierarchy")
            dev = self._device[ex.name] = ex.publish([ex.asarray(a) for a in self._arrays()])
        return dev

    def _arrays(self):
        return (self.order, *self.up, *self.down, self.core, self.matrix)


def _dedup_min(tails, heads, weights, n):
    """Arcs with one (tail, head) each, at its minimum weight, sorted by tail, head (a
    stable sort of the keys: mostly sorted runs, the arcs kept and the new shortcuts)."""
    key = tails * n + heads
    order = np.argsort(key, kind="stable")
    key, weights = key[order], weights[order]
    if not len(key):
        return key, key, weights
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(first)
    key = key[starts]
    return key // n, key % n, np.minimum.reduceat(weights, starts)


def _by_position(pos, tails, heads, weights, n):
    """(ptr over positions, tails int32, weights) of the arcs keyed by their head's
    position."""
    keys = pos[heads]
    order = np.argsort(keys, kind="stable")
    return row_pointers(keys, n), tails[order].astype(np.int32), weights[order].astype(np.int64)


def _arc_weights(ptr, heads, weights, t, h):
    """(found, weight) of the arcs (t, h) among arcs sorted by (tail, head), distinct,
    with row pointers ``ptr``: a binary search within each tail's row (a few steps
    over a short, cache-near row, not over every arc)."""
    if not len(heads):
        return np.zeros(len(t), dtype=bool), np.zeros(len(t), dtype=weights.dtype)
    lo, end = ptr[t], ptr[t + 1]
    hi = end.copy()
    last = len(heads) - 1
    for _ in range(int((end - lo).max(initial=0)).bit_length()):
        mid = (lo + hi) >> 1
        less = heads[np.minimum(mid, last)] < h
        open_ = lo < hi
        lo = np.where(open_ & less, mid + 1, lo)
        hi = np.where(open_ & ~less, mid, hi)
    at = np.minimum(lo, last)
    return (lo < end) & (heads[at] == h), weights[at]


def _witnessed(u, x, c, tails, heads, weights, n):
    """Which candidate shortcuts (u, x, c) an arc (u, x) or a path u -> y -> x of the
    arcs (tails, heads, weights) makes unneeded (length <= c); the arcs are distinct and
    sorted by (tail, head), as _dedup_min leaves them."""
    if not len(u) or not len(tails):
        return np.zeros(len(u), dtype=bool)
    ptr = row_pointers(tails, n)
    found, direct = _arc_weights(ptr, heads, weights, u, x)
    done = found & (direct <= c)
    # a hub's paths are not searched (a shortcut more)
    searched = np.flatnonzero(~done & (ptr[u + 1] - ptr[u] <= WITNESS_FANOUT))
    owner, arc = gather_arcs(ptr, u[searched])
    owner = searched[owner]
    # y -> x can close a witness only where w(u, y) + (x's lightest in-arc) <= c
    lightest = np.full(n, np.iinfo(np.int64).max // 2, dtype=np.int64)
    np.minimum.at(lightest, heads, weights)
    near = weights[arc] + lightest[x[owner]] <= c[owner]
    owner, arc = owner[near], arc[near]
    found, second = _arc_weights(ptr, heads, weights, heads[arc], x[owner])
    hit = found & (weights[arc] + second <= c[owner])
    done[owner[hit]] = True
    return done


def contraction_hierarchy(graph, core_size=CORE_SIZE, seed=0):
    """The Hierarchy of ``graph`` (integer, non-negative weights).

    The vertices that remain are renumbered 0..k-1 after each round (in their order, so
    the arcs stay sorted by (tail, head)): a round costs the arcs and vertices left,
    not the graph's."""
    n = graph.n
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    heads = graph.indices.astype(np.int64)
    keep = tails != heads  # self-loops never shorten a path of non-negative weights
    a, b, w = _dedup_min(tails[keep], heads[keep], graph.weights[keep].astype(np.int64), n)
    tie = np.random.default_rng(seed).random(n)
    ids = np.arange(n, dtype=np.int64)  # the graph's vertex of each remaining one
    level = np.full(n, -1, dtype=np.int64)
    kept = [[], [], []]  # the arcs of the hierarchy (the graph's vertex numbers)
    budget = SHORTCUT_FACTOR * (len(a) + n)
    fewest = len(a)
    rounds = 0
    while len(ids) > core_size:
        k = len(ids)
        din, dout = np.bincount(b, minlength=k), np.bincount(a, minlength=k)
        pairs = din * dout
        priority = np.where(pairs <= PAIR_LIMIT, pairs - din - dout + tie, np.inf)
        lowest = np.full(k, np.inf)
        np.minimum.at(lowest, a, priority[b])
        np.minimum.at(lowest, b, priority[a])
        chosen = priority < lowest
        if not chosen.any() or int(pairs[chosen].sum()) > budget:
            break  # hubs only, or a round of more shortcuts than the graph holds arcs
        touch = chosen[a] | chosen[b]
        for part, arr in zip(kept, (ids[a[touch]], ids[b[touch]], w[touch])):
            part.append(arr)
        level[ids[chosen]] = rounds
        u, x, c = _shortcuts(chosen, a, b, w, k)
        a, b, w = a[~touch], b[~touch], w[~touch]
        drop = _witnessed(u, x, c, a, b, w, k)
        a, b, w = _dedup_min(np.concatenate([a, u[~drop]]), np.concatenate([b, x[~drop]]),
                             np.concatenate([w, c[~drop]]), k)
        stay = ~chosen
        renumber = np.cumsum(stay) - 1
        a, b, ids, tie = renumber[a], renumber[b], ids[stay], tie[stay]
        rounds += 1
        fewest = min(fewest, len(a))
        if sum(map(len, kept[0])) + len(a) > budget or len(a) > GROWTH_LIMIT * fewest:
            break  # shortcuts outgrow the graph (not road-like): the rest is the core
    if len(ids) > MAX_CORE:
        raise ValueError(
            f"gpusp method 'phast': this graph does not contract ({len(ids)} "
            f"vertices would stay in the core, at most {MAX_CORE}); PHAST is for road-like "
            "graphs, use method='near-far'")
    level[ids] = rounds  # the core
    order = np.argsort(level, kind="stable").astype(np.int32)
    level_ptr = np.searchsorted(level[order], np.arange(rounds + 1)).astype(np.int64)
    level_ptr = np.append(level_ptr, n)
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    ka, kb, kw = (np.concatenate(part) if part else np.zeros(0, np.int64) for part in kept)
    upward = level[ka] < level[kb]
    up = _by_position(pos, ka[upward], kb[upward], kw[upward], n)
    down = _by_position(pos, ka[~upward], kb[~upward], kw[~upward], n)
    core = order[level_ptr[rounds]:].astype(np.int32)
    matrix = _core_distances(len(ids), a, b, w)
    return Hierarchy(order, level_ptr, up, down, core, matrix,
                     fingerprint=store.graph_fingerprint(graph), core_size=core_size)


def _shortcuts(chosen, a, b, w, n):
    """Every in-arc (u, v) joined with every out-arc (v, x) of each chosen v, u != x,
    at their summed weight, one per (u, x) (the smallest)."""
    into = np.flatnonzero(chosen[b])
    into = into[np.argsort(b[into], kind="stable")]
    out = np.flatnonzero(chosen[a])  # by tail already: the arcs are sorted by (tail, head)
    verts = np.flatnonzero(chosen)
    cin = np.bincount(b[into], minlength=n)[verts]
    cout = np.bincount(a[out], minlength=n)[verts]
    pairs = cin * cout
    total = int(pairs.sum())
    if not total:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    owner = np.repeat(np.arange(len(verts)), pairs)
    within = np.arange(total) - np.repeat(np.cumsum(pairs) - pairs, pairs)
    first_in = np.cumsum(cin) - cin
    first_out = np.cumsum(cout) - cout
    i = into[first_in[owner] + within // cout[owner]]
    o = out[first_out[owner] + within % cout[owner]]
    u, x, c = a[i], b[o], w[i] + w[o]
    keep = u != x
    return _dedup_min(u[keep], x[keep], c[keep], n)


def _core_distances(k, ia, ib, w):
    """The all-pairs distances (int64, inf = no path) of the core's k vertices over the
    arcs (ia, ib, w) left among them (numbered 0..k-1 in the core's order)."""
    inf = distance_inf(np.int64)
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
    arcs = csr_array((w.astype(np.float64) + 0.0, (ia, ib)), shape=(k, k))
    arcs.sum_duplicates()
    d = dijkstra(arcs, directed=True)
    matrix[np.isfinite(d)] = d[np.isfinite(d)].astype(np.int64)
    return matrix


def _hierarchy(graph, core_size, build=True):
    """``graph``'s hierarchy of ``core_size``: the one it holds, else one loaded in this
    process for its content (nx_gpusp.phast.load_hierarchy), else the one in the
    ``hierarchy_cache`` folder, else (``build``) built now, and then kept in that
    folder; None where none exists and ``build`` is False."""
    held = graph.__dict__.setdefault("_phast_hierarchies", {})
    h = held.get(core_size)
    if h is None:
        h = store.recall(graph, core_size)
        path = store.cache_file(graph, core_size)
        if h is None and path is not None:
            h = store.read_cache(path, graph, Hierarchy.load)
        if h is None and build:
            h = contraction_hierarchy(graph, core_size)
            if path is not None:
                store.write_cache(path, h)
        if h is not None:
            held[core_size] = h
    return h


def hierarchy_built(graph):
    """Whether ``graph`` holds the hierarchy of the default core size, or one is loaded
    or kept in the ``hierarchy_cache`` folder for its content (method "auto" then runs
    PHAST: methods.Method.prepared)."""
    if CORE_SIZE in graph.__dict__.get("_phast_hierarchies", {}):
        return True
    if graph.distance_dtype().kind != "i":
        return False  # phast refuses it: no hierarchy to look for
    return _hierarchy(graph, CORE_SIZE, build=False) is not None
