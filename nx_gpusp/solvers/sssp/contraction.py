"""The contraction hierarchy under PHAST (solvers/sssp/phast.py; Geisberger, Sanders,
Schultes and Delling, "Contraction Hierarchies", WEA 2008), cached on the CSRGraph, so
it is paid once per converted graph and amortised over its queries. Each round is a
fixed sequence of whole-array operations (sorts, binary searches, gathers, counts)
written once against ``xp``, with the two reductions CuPy lacks in a kernel table
(ops/contraction.py: scatter-min, segment-min): NumPy on the host, CuPy and
kernels/contraction.cu on a GPU, the same hierarchy on both:

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
from .gpu_build import builder

__all__ = ["Hierarchy", "contraction_hierarchy", "hierarchy_built", "CORE_SIZE",
           "MAX_CORE"]

CORE_SIZE = 2048  # vertices left whole at the top (their matrix: CORE_SIZE**2 distances)
MAX_CORE = 8192  # a core that would pass this (the graph does not contract) is refused
SHORTCUT_FACTOR = 4  # arcs of the hierarchy beyond this many per arc and vertex: stop
GROWTH_LIMIT = 1.25  # remaining arcs past this many times their fewest so far: stop
PAIR_LIMIT = 1 << 16  # a vertex with more in x out arc pairs is left to the core
WITNESS_FANOUT = 64  # two-arc witnesses are looked for from tails of at most this degree
FILTER_BITS = 5  # the witness search's arc filter: 2**5 bits per arc (~3% false hits),
FILTER_MAX_BITS = 24  # at most 2**24 (a byte each)


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


HUB = np.iinfo(np.int64).max  # the priority of a vertex left to the core
TIE_BITS = 32  # a priority: edge difference * 2**TIE_BITS + the vertex's seeded tie rank


def _counts(xp, x, k):
    """How many times each of 0..k-1 occurs in ``x`` (int64)."""
    if not len(x):
        return xp.zeros(k, dtype=np.int64)
    return xp.bincount(x, minlength=k).astype(np.int64, copy=False)


def _expand(ex, starts, counts):
    """(owner, index) of every position starts[i] + j, j < counts[i]: the arcs of CSR
    rows, the pairs of a vertex's arcs."""
    xp = ex.xp
    total = int(counts.sum())
    owner = ex.ops("contraction").repeat_index(counts, total)
    if not total:
        return owner, xp.zeros(0, dtype=np.int64)
    first = xp.cumsum(counts) - counts
    return owner, starts[owner] + (xp.arange(total) - first[owner])


def _dedup_sorted(ex, key, weights, k):
    """(tails, heads, weights) of the arcs of sorted ``key`` (tail * k + head), one per
    key, at its minimum weight."""
    xp = ex.xp
    if not len(key):
        return key, key, weights
    first = xp.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    starts = xp.flatnonzero(first)
    weights = ex.ops("contraction").segment_min(weights, starts)
    key = key[starts]
    return key // k, key % k, weights


def _dedup_min(ex, tails, heads, weights, k):
    """Arcs with one (tail, head) each, at its minimum weight, sorted by tail, head."""
    key = tails * k + heads
    order = ex.xp.argsort(key, kind="stable")
    return _dedup_sorted(ex, key[order], weights[order], k)


def _merge(ex, arcs, new, k):
    """The arcs (a, b, w) sorted by (tail, head) merged with the ``new`` ones (also
    sorted): positions by two binary searches instead of a sort, then one per (tail,
    head) at its minimum weight."""
    xp = ex.xp
    (a, b, w), (u, x, c) = arcs, new
    ka, kn = a * k + b, u * k + x
    m = len(ka) + len(kn)
    key, weight = xp.empty(m, dtype=np.int64), xp.empty(m, dtype=np.int64)
    at_old = xp.arange(len(ka)) + xp.searchsorted(kn, ka, side="left")
    at_new = xp.arange(len(kn)) + xp.searchsorted(ka, kn, side="right")
    key[at_old], weight[at_old] = ka, w
    key[at_new], weight[at_new] = kn, c
    return _dedup_sorted(ex, key, weight, k)


def _by_position(xp, pos, tails, heads, weights, n):
    """(ptr over positions, tails int32, weights) of the arcs keyed by their head's
    position (a stable sort: in the order they were kept)."""
    keys = pos[heads]
    order = xp.argsort(keys, kind="stable")
    ptr = xp.searchsorted(keys[order], xp.arange(n + 1))
    return ptr, tails[order].astype(np.int32), weights[order].astype(np.int64)


def _arc_weights(xp, key, weights, t, h, k):
    """(found, weight) of the arcs (t, h) among the arcs of sorted, distinct ``key``
    (tail * k + head): a binary search of the keys."""
    if not len(key):
        return xp.zeros(len(t), dtype=bool), xp.zeros(len(t), dtype=weights.dtype)
    q = t * k + h
    at = xp.minimum(xp.searchsorted(key, q), len(key) - 1)
    return key[at] == q, weights[at]


def _key_hash(key, bits):
    """Multiplicative hashing of int64 keys to ``bits`` bits."""
    return ((key.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits)
            ).astype(np.int64)


def _witnessed(ex, u, x, c, tails, heads, weights, k):
    """Which candidate shortcuts (u, x, c) an arc (u, x) or a path u -> y -> x of the
    arcs (tails, heads, weights) makes unneeded (length <= c); the arcs are distinct and
    sorted by (tail, head), as _dedup_min leaves them."""
    xp = ex.xp
    if not len(u) or not len(tails):
        return xp.zeros(len(u), dtype=bool)
    key = tails * k + heads
    found, direct = _arc_weights(xp, key, weights, u, x, k)
    done = found & (direct <= c)
    ptr = xp.searchsorted(tails, xp.arange(k + 1))
    # a hub's paths are not searched (a shortcut more)
    searched = xp.flatnonzero(~done & (ptr[u + 1] - ptr[u] <= WITNESS_FANOUT))
    owner, arc = _expand(ex, ptr[u[searched]], ptr[u[searched] + 1] - ptr[u[searched]])
    owner = searched[owner]
    # y -> x can close a witness only where w(u, y) + (x's lightest in-arc) <= c
    lightest = xp.full(k, np.iinfo(np.int64).max // 2, dtype=np.int64)
    ex.ops("contraction").scatter_min(lightest, heads, weights)
    near = weights[arc] + lightest[x[owner]] <= c[owner]
    owner, arc = owner[near], arc[near]
    # most (y, x) are no arc: a bit per hashed key rules them out before the search
    bits = min(max(16, len(key).bit_length() + FILTER_BITS), FILTER_MAX_BITS)
    present = xp.zeros(1 << bits, dtype=bool)
    present[_key_hash(key, bits)] = True
    maybe = xp.flatnonzero(present[_key_hash(heads[arc] * k + x[owner], bits)])
    owner, arc = owner[maybe], arc[maybe]
    found, second = _arc_weights(xp, key, weights, heads[arc], x[owner], k)
    hit = found & (weights[arc] + second <= c[owner])
    done[owner[hit]] = True
    return done


def _tie_ranks(n, seed):
    """Each vertex's rank in a seeded random order: the ties of equal edge differences."""
    ranks = np.empty(n, dtype=np.int64)
    ranks[np.argsort(np.random.default_rng(seed).random(n), kind="stable")] = np.arange(n)
    return ranks


def contraction_hierarchy(graph, core_size=CORE_SIZE, seed=0, ex=None):
    """The Hierarchy of ``graph`` (integer, non-negative weights), built with the
    executor ``ex`` (CuPy and kernels/contraction.cu on a GPU; NumPy by default) into
    host arrays.

    The vertices that remain are renumbered 0..k-1 after each round (in their order, so
    the arcs stay sorted by (tail, head)): a round costs the arcs and vertices left,
    not the graph's. The same graph and seed give the same hierarchy on either
    executor (every step is exact integer work, every sort stable)."""
    if ex is None:
        from ...executor import get_executor

        ex = get_executor("cpu")
    xp, ops = ex.xp, ex.ops("contraction")
    n = graph.n
    tails = ex.asarray(np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr)))
    heads = ex.asarray(graph.indices.astype(np.int64))
    keep = tails != heads  # self-loops never shorten a path of non-negative weights
    a, b, w = _dedup_min(ex, tails[keep], heads[keep],
                         ex.asarray(graph.weights.astype(np.int64))[keep], n)
    del tails, heads, keep
    tie = ex.asarray(_tie_ranks(n, seed))
    ids = xp.arange(n, dtype=np.int64)  # the graph's vertex of each remaining one
    level = xp.full(n, -1, dtype=np.int64)
    kept = [[], [], []]  # the arcs of the hierarchy (the graph's vertex numbers)
    budget = SHORTCUT_FACTOR * (len(a) + n)
    fewest, held = len(a), 0  # held: the arcs of the hierarchy so far
    rounds = 0
    while len(ids) > core_size:
        k = len(ids)
        din, dout = _counts(xp, b, k), _counts(xp, a, k)
        pairs = din * dout
        priority = xp.where(pairs <= PAIR_LIMIT,
                            ((pairs - din - dout) << TIE_BITS) + tie, HUB)
        lowest = xp.full(k, HUB, dtype=np.int64)
        ops.scatter_min(lowest, a, priority[b])
        ops.scatter_min(lowest, b, priority[a])
        chosen = priority < lowest
        count, work = (int(v) for v in ex.to_host(xp.stack(
            [chosen.sum(), xp.where(chosen, pairs, 0).sum()])))
        if not count or work > budget:
            break  # hubs only, or a round of more shortcuts than the graph holds arcs
        touch = chosen[a] | chosen[b]
        for part, arr in zip(kept, (ids[a[touch]], ids[b[touch]], w[touch])):
            part.append(arr)
        held += int(touch.sum())
        level[ids[chosen]] = rounds
        u, x, c = _shortcuts(ex, chosen, a, b, w, k)
        a, b, w = a[~touch], b[~touch], w[~touch]
        drop = ~_witnessed(ex, u, x, c, a, b, w, k)
        a, b, w = _merge(ex, (a, b, w), (u[drop], x[drop], c[drop]), k)
        stay = ~chosen
        renumber = xp.cumsum(stay) - 1
        a, b, ids, tie = renumber[a], renumber[b], ids[stay], tie[stay]
        rounds += 1
        fewest = min(fewest, len(a))
        if held + len(a) > budget or len(a) > GROWTH_LIMIT * fewest:
            break  # shortcuts outgrow the graph (not road-like): the rest is the core
    if len(ids) > MAX_CORE:
        raise ValueError(
            f"gpusp method 'phast': this graph does not contract ({len(ids)} "
            f"vertices would stay in the core, at most {MAX_CORE}); PHAST is for road-like "
            "graphs, use method='near-far'")
    level[ids] = rounds  # the core
    order = xp.argsort(level, kind="stable")
    level_ptr = ex.to_host(xp.searchsorted(level[order], xp.arange(rounds + 2)))
    level_ptr[-1] = n
    pos = xp.empty(n, dtype=np.int64)
    pos[order] = xp.arange(n)
    ka, kb, kw = (xp.concatenate(part) if part else xp.zeros(0, np.int64) for part in kept)
    upward = level[ka] < level[kb]
    up = _by_position(xp, pos, ka[upward], kb[upward], kw[upward], n)
    down = _by_position(xp, pos, ka[~upward], kb[~upward], kw[~upward], n)
    core = order[int(level_ptr[rounds]):].astype(np.int32)
    matrix = _core_distances(ex, len(ids), a, b, w)
    def host(arr):  # some parts are host arrays already (the core's matrix, offsets)
        return arr if isinstance(arr, np.ndarray) else ex.to_host(arr)

    return Hierarchy(host(order.astype(np.int32)), level_ptr.astype(np.int64),
                     tuple(map(host, up)), tuple(map(host, down)), host(core),
                     host(matrix), fingerprint=store.graph_fingerprint(graph),
                     core_size=core_size)


def _shortcuts(ex, chosen, a, b, w, k):
    """Every in-arc (u, v) joined with every out-arc (v, x) of each chosen v, u != x,
    at their summed weight, one per (u, x) (the smallest), sorted by (u, x)."""
    xp = ex.xp
    into = xp.flatnonzero(chosen[b])
    into = into[xp.argsort(b[into], kind="stable")]  # by head, then tail
    out = xp.flatnonzero(chosen[a])  # by tail already: the arcs are sorted by (tail, head)
    verts = xp.flatnonzero(chosen)
    cin = _counts(xp, b[into], k)[verts]
    cout = _counts(xp, a[out], k)[verts]
    pairs = cin * cout
    owner, within = _expand(ex, xp.zeros(len(verts), dtype=np.int64), pairs)
    if not len(owner):
        empty = xp.zeros(0, dtype=np.int64)
        return empty, empty, empty
    first_in = xp.cumsum(cin) - cin
    first_out = xp.cumsum(cout) - cout
    i = into[first_in[owner] + within // cout[owner]]
    o = out[first_out[owner] + within % cout[owner]]
    u, x, c = a[i], b[o], w[i] + w[o]
    keep = u != x
    return _dedup_min(ex, u[keep], x[keep], c[keep], k)


def _core_distances(ex, k, ia, ib, w):
    """The all-pairs distances (int64, inf = no path) of the core's k vertices over the
    arcs (ia, ib, w) left among them (numbered 0..k-1 in the core's order): blocked
    Floyd-Warshall on a GPU; on the host, Floyd-Warshall up to 256 vertices, else SciPy's
    Dijkstra from each (the arcs distinct and sorted by (tail, head), as the rounds
    leave them)."""
    inf = distance_inf(np.int64)
    if ex.is_cuda and k:
        xp = ex.xp
        flat = xp.full(k * k, inf, dtype=np.int64)
        ex.ops("contraction").scatter_min(flat, ia * k + ib, w)
        matrix = flat.reshape(k, k)
        xp.fill_diagonal(matrix, 0)
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
    longer = _witnessed(ex, ia, ib, w - 1, ia, ib, w, k)
    ia, ib, w = ia[~longer], ib[~longer], w[~longer]
    arcs = csr_array((w.astype(np.float64) + 0.0, (ia, ib)), shape=(k, k))
    arcs.sum_duplicates()
    d = dijkstra(arcs, directed=True)
    matrix[np.isfinite(d)] = d[np.isfinite(d)].astype(np.int64)
    return matrix


def _hierarchy(graph, core_size, build=True, ex=None):
    """``graph``'s hierarchy of ``core_size``: the one it holds, else one loaded in this
    process for its content (nx_gpusp.phast.load_hierarchy), else the one in the
    ``hierarchy_cache`` folder, else (``build``) built now for queries on the executor
    ``ex`` (default: the configured device's; gpu_build.builder says whether the GPU or
    the host builds) and then kept in that folder; None where none exists and
    ``build`` is False."""
    held = graph.__dict__.setdefault("_phast_hierarchies", {})
    h = held.get(core_size)
    if h is None:
        h = store.recall(graph, core_size)
        path = store.cache_file(graph, core_size)
        if h is None and path is not None:
            h = store.read_cache(path, graph, Hierarchy.load)
        if h is None and build:
            h = contraction_hierarchy(graph, core_size, ex=builder(ex or build_executor()))
            if path is not None:
                store.write_cache(path, h)
        if h is not None:
            held[core_size] = h
    return h


def build_executor():
    """The queries' executor where the caller names none: the configured device's
    (nx.config.backends.gpusp.device; algorithms.common.configured_executor, which the
    solvers do not import); gpu_build.builder then says where the hierarchy is built."""
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
