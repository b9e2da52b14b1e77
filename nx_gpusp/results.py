"""What NetworkX returns, built from result arrays when it is read.

A search leaves two host arrays per source: distances (``distance_inf`` = unreached) and
an int32 predecessor tree (-1 at roots). NetworkX returns dicts; building them costs
O(n) Python objects per call (NY: 264K entries, 16x the kernel time), and a paths dict
O(n x depth). The mappings here answer the same questions from the arrays:

- :class:`DistanceMap`: ``{node: length}`` of the reached nodes, in non-decreasing
  distance order (NetworkX's Dijkstra order), values plain ``int``/``float``;
- :class:`PathMap`: ``{node: [source, ..., node]}``, each path walked up the predecessor
  tree when it is read (O(path length));
- :class:`MatrixRowMap` / :class:`PredecessorRowMap` / :class:`RowsMap`: Floyd-Warshall's
  ``dict`` of ``defaultdict`` rows over the host matrix.

Each is a read-only :class:`collections.abc.Mapping`: ``len``, ``in``, ``get``, iteration,
``==`` with a dict in either direction, ``dict(m)`` and ``m.copy()`` give a plain dict,
pickling gives a plain dict. With ``nx.config.backends.gpusp.lazy_results = False``
every function returns plain dicts instead (:func:`materialize`).
"""

from collections import defaultdict
from collections.abc import Generator, ItemsView, KeysView, Mapping, ValuesView

import numpy as np

from .graph import distance_inf

__all__ = ["HostSSSP", "DistanceMap", "PathMap", "MatrixRowMap", "PredecessorRowMap",
           "RowsMap", "LazyMapping", "materialize", "narrowest_distances", "rows_to_host", "to_host",
           "tree_depth", "distance_order", "lifting_tables"]

_REPR_ITEMS = 6  # entries a repr shows before "..."
LIFT_MIN_VERTICES = 4096  # smaller trees: paths are walked (short, and the tables cost more)


class LazyMapping(Mapping):
    """Read-only mapping from node labels to values held in arrays.

    Subclasses give the vertex order (:meth:`_order`), which vertices are keys
    (:meth:`_has`), one value (:meth:`_value`) and every value in order
    (:meth:`_values`). The plain dict is built once, on the first full read.
    """

    __slots__ = ("_graph", "_order_cache", "_dict_cache")

    def __init__(self, graph):
        self._graph = graph
        self._order_cache = None
        self._dict_cache = None

    # -- what a subclass defines ------------------------------------------------------
    def _ordered(self):
        """Vertex indices of the keys, in iteration order (an int64 array)."""
        raise NotImplementedError

    def _has(self, idx):
        raise NotImplementedError

    def _value(self, idx):
        raise NotImplementedError

    def _values(self, order):
        """Values of the vertices ``order``, as a list."""
        return [self._value(i) for i in order.tolist()]

    # -- Mapping ----------------------------------------------------------------------
    def _order(self):
        if self._order_cache is None:
            self._order_cache = self._ordered()
        return self._order_cache

    def _index(self, key):
        """Vertex index of ``key`` when it is a key of this mapping, else None (an
        unhashable key raises TypeError, as with a dict)."""
        hash(key)
        idx = self._graph.index_of(key)
        if idx is None or not self._has(idx):
            return None
        return idx

    def __getitem__(self, key):
        d = self._dict_cache
        if d is not None:
            try:
                return d[key]
            except KeyError:
                return self.__missing__(key)
        idx = self._index(key)
        if idx is None:
            return self.__missing__(key)
        return self._value(idx)

    def __missing__(self, key):
        raise KeyError(key)

    def __contains__(self, key):
        d = self._dict_cache
        if d is not None:
            return key in d
        return self._index(key) is not None

    def get(self, key, default=None):
        d = self._dict_cache
        if d is not None:
            return d.get(key, default)
        idx = self._index(key)
        return default if idx is None else self._value(idx)

    def __len__(self):
        return len(self._order())

    def __iter__(self):
        d = self._dict_cache
        return iter(d) if d is not None else iter(self._graph.labels(self._order()))

    def keys(self):
        # dict(m) reads keys() and then m[key] for each: building the dict here makes
        # those reads dict lookups (PathMap: every path at once, by tree depth)
        return KeysView(self._dict())

    def items(self):
        return ItemsView(self._dict())

    def values(self):
        return ValuesView(self._dict())

    def _dict(self):
        """The plain dict (built once: labels and values as lists, zipped in C)."""
        d = self._dict_cache
        if d is None:
            order = self._order()
            d = self._dict_cache = dict(zip(self._graph.labels(order), self._values(order)))
        return d

    def copy(self):
        """A plain dict with the same items."""
        return dict(self._dict())

    def __eq__(self, other):
        if isinstance(other, LazyMapping):
            return self._dict() == other._dict()
        if isinstance(other, dict):
            return self._dict() == other
        if isinstance(other, Mapping):
            return self._dict() == dict(other.items())
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __or__(self, other):
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.copy() | dict(other.items())

    def __ror__(self, other):
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(other.items()) | self._dict()

    def __reduce__(self):
        return (dict, (self._dict(),))

    def __repr__(self):
        n = len(self)
        order = self._order()[:_REPR_ITEMS]
        shown = ", ".join(f"{k!r}: {v!r}" for k, v in
                          zip(self._graph.labels(order), self._values(order)))
        more = f", ... ({n} items)" if n > _REPR_ITEMS else ""
        return f"{type(self).__name__}({{{shown}{more}}})"


def _infinity():
    return float("inf")


def _memory(arr):
    """A memoryview of a host array: indexing it gives Python ints/floats (no NumPy
    scalar), about 5x faster than ``arr[i].item()``."""
    return memoryview(np.ascontiguousarray(arr))


class _ReachedKeys(LazyMapping):
    """Keys: the reached vertices (finite distance), in non-decreasing distance order
    (stable in vertex order); ``order``, when given, is that order already (sorted on
    the device: a host sort of 10^6 distances costs tens of ms)."""

    __slots__ = ("_dist", "_inf", "_dist_view")

    def __init__(self, graph, dist, order=None):
        super().__init__(graph)
        self._dist = dist
        self._inf = distance_inf(dist.dtype)
        self._dist_view = _memory(dist)
        self._order_cache = order

    def _ordered(self):
        reached = np.flatnonzero(self._dist != self._inf)
        return reached[np.argsort(self._dist[reached], kind="stable")]

    def _has(self, idx):
        return self._dist_view[idx] != self._inf

    def __len__(self):
        if self._order_cache is not None:
            return len(self._order_cache)
        return int(np.count_nonzero(self._dist != self._inf))


class DistanceMap(_ReachedKeys):
    """``{node: distance}`` of the reached nodes, in non-decreasing distance order."""

    __slots__ = ()

    def _value(self, idx):
        return self._dist_view[idx]

    def _values(self, order):
        return self._dist[order].tolist()


WALK_DEPTH = 24  # paths with fewer predecessor steps are walked in Python


class PathMap(_ReachedKeys):
    """``{node: path}`` of the reached nodes; a path is the node labels from a root of
    the predecessor tree to the node (``reverse``: from the node to the root, for
    searches run on the reversed graph).

    ``lifting`` = (depth, tables): each vertex's number of predecessor steps and the
    binary-lifting tables (``tables[k][v]``: the ``2**k``-th ancestor, roots their own),
    from :func:`lifting_tables`. With them a path of L vertices is ``log2 L`` NumPy
    gathers (v, then its first ancestor, then the next two, four, ...) instead of L
    Python steps: NY's 368-step paths cost ~10 us instead of ~40.
    """

    __slots__ = ("_pred", "_pred_view", "_reverse", "_depth", "_tables")

    def __init__(self, graph, dist, pred, *, reverse=False, order=None, lifting=None):
        super().__init__(graph, dist, order)
        self._pred = pred
        self._pred_view = _memory(pred)
        self._reverse = reverse
        self._depth, self._tables = lifting if lifting is not None else (None, None)

    def _value(self, idx):
        depth = self._depth
        if depth is None or depth[idx] < WALK_DEPTH:
            out = self._walk(idx)
        else:
            out = self._lift(idx, int(depth[idx]) + 1)
        if not self._reverse:
            out.reverse()
        return self._graph.labels(out) if self._graph._nodes is not None else out

    def _walk(self, idx):
        pred = self._pred_view
        out = [idx]
        p = pred[idx]
        while p >= 0:
            out.append(p)
            p = pred[p]
        return out

    def _lift(self, idx, length):
        """The ``length`` vertices from ``idx`` up to its root, by doubling."""
        out = np.empty(length, dtype=self._tables.dtype)
        out[0] = idx
        filled, k = 1, 0
        while filled < length:
            take = min(filled, length - filled)
            np.take(self._tables[k], out[:take], out=out[filled:filled + take])
            filled += take
            k += 1
        return out.tolist()

    def _values(self, order):
        """Every path at once: vertices by tree depth, each path its parent's plus one
        label (list concatenation in C), so the cost is the output's size."""
        pred = self._pred
        depth = tree_depth(pred) if self._depth is None else self._depth
        by_depth = order[np.argsort(depth[order], kind="stable")]
        labels = self._graph.labels(by_depth)
        found = {}
        if self._reverse:
            for v, p, lab in zip(by_depth.tolist(), pred[by_depth].tolist(), labels):
                found[v] = [lab] if p < 0 else [lab] + found[p]
        else:
            for v, p, lab in zip(by_depth.tolist(), pred[by_depth].tolist(), labels):
                found[v] = [lab] if p < 0 else found[p] + [lab]
        return [found[v] for v in order.tolist()]


class MatrixRowMap(LazyMapping):
    """One row of Floyd-Warshall's distances: every node is a key (node order), the
    unreachable ones at ``inf``; a non-node reads as ``inf`` too, as NetworkX's
    ``defaultdict(lambda: inf)`` rows do (without inserting it)."""

    __slots__ = ("_row", "_row_view", "_inf")

    def __init__(self, graph, row):
        super().__init__(graph)
        self._row = row
        self._row_view = _memory(row)
        self._inf = distance_inf(row.dtype)

    def _ordered(self):
        return np.arange(self._graph.n)

    def _has(self, idx):
        return True

    def __len__(self):
        return self._graph.n

    def _value(self, idx):
        x = self._row_view[idx]
        return float("inf") if x == self._inf else x

    def _values(self, order):
        if self._row.dtype.kind == "f":
            return self._row[order].tolist()
        inf = self._inf
        return [float("inf") if x == inf else x for x in self._row[order].tolist()]

    def __missing__(self, key):
        return float("inf")

    def copy(self):
        """A ``defaultdict`` with ``inf`` for missing keys, as NetworkX's rows."""
        return defaultdict(_infinity, self._dict())


class PredecessorRowMap(LazyMapping):
    """One row of Floyd-Warshall's predecessors: ``{v: predecessor of v on a shortest
    path from the row's node}`` for the v that have one (node order)."""

    __slots__ = ("_row", "_row_view")

    def __init__(self, graph, row):
        super().__init__(graph)
        self._row = row
        self._row_view = _memory(row)

    def _ordered(self):
        return np.flatnonzero(self._row >= 0)

    def _has(self, idx):
        return self._row_view[idx] >= 0

    def _value(self, idx):
        p = self._row_view[idx]
        nodes = self._graph._nodes
        return p if nodes is None else nodes[p]

    def _values(self, order):
        return self._graph.labels(self._row[order])


class RowsMap(LazyMapping):
    """``{node: row mapping}`` over a host matrix, rows made when read. ``keep``: a
    boolean mask of the vertices that are keys (all when None)."""

    __slots__ = ("_matrix", "_row_type", "_keep", "_rows")

    def __init__(self, graph, matrix, row_type, keep=None):
        super().__init__(graph)
        self._matrix = matrix
        self._row_type = row_type
        self._keep = keep
        self._rows = {}

    def _ordered(self):
        return np.arange(self._graph.n) if self._keep is None else np.flatnonzero(self._keep)

    def _has(self, idx):
        return self._keep is None or bool(self._keep[idx])

    def _value(self, idx):
        row = self._rows.get(idx)
        if row is None:
            row = self._rows[idx] = self._row_type(self._graph, self._matrix[idx])
        return row

    def __repr__(self):
        return f"{type(self).__name__}(<{len(self)} rows of {self._row_type.__name__}>)"


def materialize(obj):
    """Plain Python containers for a result: lazy mappings become dicts (recursively),
    tuples and lists are rebuilt, generators yield materialized items."""
    if isinstance(obj, LazyMapping):
        return {k: materialize(v) for k, v in obj.items()} if isinstance(obj, RowsMap) \
            else obj.copy()
    if isinstance(obj, tuple):
        return tuple(materialize(x) for x in obj)
    if isinstance(obj, dict):  # e.g. johnson's {source: PathMap}
        return {k: materialize(v) for k, v in obj.items()}
    if isinstance(obj, Generator):
        return (materialize(x) for x in obj)
    return obj


class HostSSSP:
    """Host arrays of one single- or multi-source search: ``dist`` (``distance_inf`` =
    unreached, ``cutoff`` already applied), ``pred`` (int32 tree or None); ``order``
    (the reached vertices by distance) and ``lifting`` (:func:`lifting_tables`) when
    the device computed them."""

    def __init__(self, graph, dist, pred, sources, *, order=None, lifting=None):
        self.graph = graph
        self.dist = dist
        self.pred = pred
        self.sources = sources
        self.order = order
        self.lifting = lifting

    def reached(self, idx):
        return idx is not None and self.dist[idx] != distance_inf(self.dist.dtype)

    def length(self, idx):
        return self.dist[idx].item()

    def lengths(self):
        """{label: distance} of the reached nodes, in non-decreasing distance order."""
        return DistanceMap(self.graph, self.dist, self.order)

    def path(self, idx):
        """Labels from a source to ``idx`` along the predecessor tree."""
        return self.paths()[self.graph.labels([idx])[0]]

    def paths(self, *, reverse=False):
        """{label: [labels...]} of the reached nodes, in distance order (``reverse``:
        each path from the node back to its root)."""
        return PathMap(self.graph, self.dist, self.pred, reverse=reverse, order=self.order,
                       lifting=self.lifting)


def tree_depth(pred):
    """Number of predecessor steps from each vertex to its root (pointer doubling)."""
    n = len(pred)
    has = pred >= 0
    anc = np.where(has, pred, np.arange(n))
    depth = has.astype(np.int64)
    for _ in range(max(1, int(n).bit_length())):
        depth = depth + depth[anc]
        anc = anc[anc]
    return depth


def narrowest_distances(xp, dist):
    """``dist`` (integer distances, ``distance_inf`` = unreached) in the narrowest signed
    integer type that holds every finite value below its own maximum, which then stands
    for unreached: the rows an all-pairs call copies to the host shrink 2-8x (unit-weight
    graphs: int8). Float distances are returned as they are."""
    if dist.dtype.kind != "i" or dist.size == 0:
        return dist
    inf = distance_inf(dist.dtype)
    finite = xp.where(dist == inf, 0, dist)
    low, high = (int(x) for x in (finite.min(), finite.max()))
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high < info.max:
            if dtype == dist.dtype:
                return dist
            out = dist.astype(dtype)
            out[dist == inf] = info.max
            return out
    return dist


def rows_to_host(ex, dist, pred, cutoff=None):
    """Host copies of a batch of rows (B x n): distances beyond ``cutoff`` marked
    unreached and narrowed (:func:`narrowest_distances`) on the device first."""
    if cutoff is not None:
        dist = ex.xp.where(dist > cutoff, distance_inf(dist.dtype), dist)
    dist = ex.to_host(narrowest_distances(ex.xp, dist))
    return dist, None if pred is None else ex.to_host(pred)


def distance_order(xp, dist):
    """The reached vertices (finite ``dist``) in non-decreasing distance order, ties in
    vertex order (int32 where n allows)."""
    reached = xp.flatnonzero(dist != distance_inf(dist.dtype))
    order = reached[xp.argsort(dist[reached], kind="stable")]
    return order.astype(np.int32) if len(dist) < 2**31 else order


def lifting_tables(xp, pred):
    """(depth, tables) of a predecessor forest (int32, -1 at roots): each vertex's number
    of steps to its root, and ``tables[k][v]`` = the ``2**k``-th ancestor of v (roots
    are their own), for k below the bit length of the largest depth."""
    n = len(pred)
    index = xp.arange(n, dtype=np.int32)
    anc = xp.where(pred >= 0, pred, index).astype(np.int32)
    depth = (pred >= 0).astype(np.int32)
    hop = anc
    for _ in range(max(1, int(n).bit_length())):  # pointer jumping: depth of each vertex
        depth = depth + depth[hop]
        hop = hop[hop]
    levels = max(1, int(depth.max()).bit_length()) if n else 1
    tables = xp.empty((levels, n), dtype=np.int32)
    tables[0] = anc
    for k in range(1, levels):
        tables[k] = tables[k - 1][tables[k - 1]]
    return depth, tables


def to_host(graph, result, *, cutoff=None):
    """The host copy of an SSSPResult, distances beyond ``cutoff`` marked unreached on
    the device before the copy. On a GPU the distance order and, with predecessors, the
    lifting tables of the paths are computed there too (they cost tens of ms on the
    host); the twin leaves them to the mappings."""
    ex = result.executor
    dist = result.dist
    if cutoff is not None:
        dist = ex.xp.where(dist > cutoff, distance_inf(dist.dtype), dist)
    order = lifting = pred = None
    if ex.is_cuda:
        order = ex.to_host(distance_order(ex.xp, dist))
        if result.pred is not None and graph.n >= LIFT_MIN_VERTICES:
            lifting = tuple(ex.to_host(a) for a in lifting_tables(ex.xp, result.pred))
    if result.pred is not None:
        pred = ex.to_host(result.pred)
    return HostSSSP(graph, ex.to_host(dist), pred, result.sources, order=order,
                    lifting=lifting)
