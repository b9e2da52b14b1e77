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

Each is a :class:`collections.abc.MutableMapping`: ``len``, ``in``, ``get``, iteration,
``==`` with a dict in either direction, ``dict(m)`` and ``m.copy()`` give a plain dict,
pickling gives a plain dict; reads never build more than they return, and the first
write builds the dict and goes to it (copy on write). With ``nx.config.backends.gpusp.lazy_results = False``
every function returns plain dicts instead (:func:`materialize`).
"""

from collections import defaultdict
from collections.abc import Generator, Mapping, MutableMapping

import numpy as np

from .graph import distance_inf
from .value_types import (as_python_numbers, int_along_tree, ints_at, python_number,
                          tight_tree)

__all__ = ["HostSSSP", "DistanceMap", "PathMap", "MatrixRowMap", "PredecessorRowMap",
           "RowsMap", "LazyMapping", "materialize", "narrowest_distances", "to_host",
           "tree_depth", "distance_order"]

_REPR_ITEMS = 6  # entries a repr shows before "..."


class LazyMapping(MutableMapping):
    """Mapping from node labels to values held in arrays.

    Subclasses give the vertex order (:meth:`_order`), which vertices are keys
    (:meth:`_has`), one value (:meth:`_value`) and every value in order
    (:meth:`_values`). The plain dict is built once, on the first full read or the
    first write: writes (``m[k] = v``, ``del m[k]``, ``pop``, ``update``, ...) go to
    that dict, as they would go to NetworkX's own (NetworkX's code writes into results
    of the calls it makes, e.g. ``shortest_path`` with only a target).
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
        d = self._dict_cache
        return len(d) if d is not None else self._count()

    def _count(self):
        return len(self._order())

    def __setitem__(self, key, value):
        self._dict()[key] = value

    def __delitem__(self, key):
        del self._dict()[key]

    def clear(self):
        self._dict().clear()

    def __iter__(self):
        d = self._dict_cache
        return iter(d) if d is not None else iter(self._graph.labels(self._order()))

    def __reversed__(self):
        d = self._dict_cache
        return reversed(d) if d is not None else \
            iter(self._graph.labels(self._order()[::-1]))

    def popitem(self):
        """The last item, removed (a dict's order; MutableMapping's would take the
        first)."""
        return self._dict().popitem()

    def __ior__(self, other):
        """``m |= other`` updates m in place, as with a dict."""
        self._dict().update(other)
        return self

    def keys(self):
        # dict(m) reads keys() and then m[key] for each: building the dict here makes
        # those reads dict lookups (PathMap: every path at once, by tree depth), and
        # the dict's own view lists its keys in C (collections.abc.KeysView iterates
        # through a Python generator: NY's 264K keys, 7 ms more)
        return self._dict().keys()

    def items(self):
        return self._dict().items()

    def values(self):
        return self._dict().values()

    def _build(self):
        """A new plain dict of the items (labels and values as lists, zipped in C)."""
        order = self._order()
        return dict(zip(self._graph.labels(order), self._values(order)))

    def _dict(self):
        """The plain dict that reads and writes go to once it exists (built once)."""
        d = self._dict_cache
        if d is None:
            d = self._dict_cache = self._build()
            if len(d) >= SWAP_MIN_ITEMS and not isinstance(self, MatrixRowMap):
                self.__class__ = _reading_from(type(self), d)
        return d

    def copy(self):
        """A plain dict with the same items (built for the caller, not kept: what
        ``lazy_results=False`` returns costs what building NetworkX's dict costs)."""
        d = self._dict_cache
        return dict(d) if d is not None else self._build()

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
        d = self._dict_cache
        if d is not None:
            items = list(zip(d, d.values()))[:_REPR_ITEMS]
        else:
            order = self._order()[:_REPR_ITEMS]
            items = zip(self._graph.labels(order), self._values(order))
        shown = ", ".join(f"{k!r}: {v!r}" for k, v in items)
        more = f", ... ({n} items)" if n > _REPR_ITEMS else ""
        return f"{type(self).__name__}({{{shown}{more}}})"


SWAP_MIN_ITEMS = 1 << 16


def _reading_from(cls, d):
    """A subclass of ``cls`` for one materialised mapping whose reads are ``d``'s own C
    methods. ``dict(m)`` calls ``m.keys()`` and then ``m[key]`` for every key; with a
    Python ``__getitem__`` that costs ~0.3 us a key (NY: 80 ms), with ``d.__getitem__``
    as a static method of the class about half. Only for large mappings: each gets its
    own class."""
    return type(cls.__name__, (cls,), {
        "__slots__": (), "__getitem__": staticmethod(d.__getitem__),
        "__contains__": staticmethod(d.__contains__), "get": staticmethod(d.get),
        "__iter__": staticmethod(d.__iter__), "__len__": staticmethod(d.__len__)})


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

    def _count(self):
        if self._order_cache is not None:
            return len(self._order_cache)
        return int(np.count_nonzero(self._dist != self._inf))


class DistanceMap(_ReachedKeys):
    """``{node: distance}`` of the reached nodes, in non-decreasing distance order.
    ``ints``: for float distances, a function returning which vertices' distances
    NetworkX holds as ints (nx_gpusp.value_types; called when first needed)."""

    __slots__ = ("_ints_of", "_int_mask")

    def __init__(self, graph, dist, order=None, *, ints=None):
        super().__init__(graph, dist, order)
        self._ints_of = ints
        self._int_mask = None

    def _ints(self):
        if self._ints_of is None:
            return None
        if self._int_mask is None:
            self._int_mask = self._ints_of()
        return self._int_mask

    def _value(self, idx):
        x = self._dist_view[idx]
        if self._ints_of is not None and x.is_integer():
            ints = self._ints()
            if ints is not None and ints[idx]:
                return int(x)
        return x

    def _values(self, order):
        values = self._dist[order].tolist()
        ints = self._ints()
        if ints is not None:
            ints_at(values, np.flatnonzero(ints[order]))
        return values


CHECKPOINT = 32  # a walked path leaves its prefix at every 32nd vertex for later walks
CACHE_PER_VERTEX = 8  # checkpoint prefixes kept: at most this many labels per vertex


class PathMap(_ReachedKeys):
    """``{node: path}`` of the reached nodes; a path is the node labels from a root of
    the predecessor tree to the node (``reverse``: from the node to the root, for
    searches run on the reversed graph).

    A path is walked up the predecessor array when it is read. Paths of one tree share
    their upper parts, so each walk leaves the path's prefix (a list) at every
    CHECKPOINT-th vertex it passes, and later walks stop at the first checkpoint they
    meet and copy its prefix (a C-level list copy): 1,000 random paths of NY's tree
    (368 steps on average) take 37 Python steps each instead of 368, FLA's (1,156)
    57. The prefixes kept are bounded by CACHE_PER_VERTEX labels per vertex.
    """

    __slots__ = ("_pred", "_pred_view", "_reverse", "_prefix", "_budget")

    def __init__(self, graph, dist, pred, *, reverse=False, order=None):
        super().__init__(graph, dist, order)
        self._pred = pred
        self._pred_view = _memory(pred)
        self._reverse = reverse
        self._prefix = {}  # vertex -> its path (labels; reverse: from it to the root)
        self._budget = CACHE_PER_VERTEX * max(len(pred), 1)

    def _value(self, idx):
        pred, prefix = self._pred_view, self._prefix
        walked = []  # idx, its predecessor, ... up to a checkpoint or the root
        p = idx
        while p >= 0 and p not in prefix:
            walked.append(p)
            p = pred[p]
        rest = prefix[p] if p >= 0 else []
        nodes = self._graph._nodes
        if self._reverse:
            path = (walked if nodes is None else [nodes[v] for v in walked]) + rest
        else:
            path = rest + (walked[::-1] if nodes is None else [nodes[v] for v in reversed(walked)])
        self._keep_checkpoints(walked, path, len(rest))
        return path

    def _keep_checkpoints(self, walked, path, known):
        """Store the path of every CHECKPOINT-th walked vertex (counted from the top)."""
        budget = self._budget
        if budget <= 0:
            return
        prefix, top, length = self._prefix, len(walked) - 1, len(path)
        for i in range(CHECKPOINT - 1, len(walked), CHECKPOINT):
            v = walked[top - i]
            if self._reverse:
                kept = path[length - known - i - 1:]
            else:
                kept = path[:known + i + 1]
            prefix[v] = kept
            budget -= len(kept)
        self._budget = budget

    def _values(self, order):
        """Every path at once: vertices by tree depth, each path its parent's plus one
        label (list concatenation in C), so the cost is the output's size."""
        pred = self._pred
        by_depth = order[np.argsort(tree_depth(pred)[order], kind="stable")]
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
    ``defaultdict(lambda: inf)`` rows do (without inserting it). ``ints``: which entries
    NetworkX holds as ints (nx_gpusp.value_types.int_along_rows), the others floats;
    None: the row's dtype says."""

    __slots__ = ("_row", "_row_view", "_inf", "_ints")

    def __init__(self, graph, row, ints=None):
        super().__init__(graph)
        self._row = row
        self._row_view = _memory(row)
        self._inf = distance_inf(row.dtype)
        self._ints = ints

    def _ordered(self):
        return np.arange(self._graph.n)

    def _has(self, idx):
        return True

    def _count(self):
        return self._graph.n

    def _value(self, idx):
        x = self._row_view[idx]
        if x == self._inf:
            return float("inf")
        if self._ints is None:
            return x
        return python_number(x, self._ints[idx])

    def _values(self, order):
        values = self._row[order].tolist()
        if self._row.dtype.kind != "f":
            inf = self._inf
            values = [float("inf") if x == inf else x for x in values]
        if self._ints is not None:
            values = as_python_numbers(values, self._ints[order].tolist())
        return values

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
    boolean mask of the vertices that are keys (all when None); ``extra``: a matrix
    whose row goes to each row mapping too (MatrixRowMap's ``ints``)."""

    __slots__ = ("_matrix", "_row_type", "_keep", "_rows", "_extra")

    def __init__(self, graph, matrix, row_type, keep=None, extra=None):
        super().__init__(graph)
        self._matrix = matrix
        self._row_type = row_type
        self._keep = keep
        self._extra = extra
        self._rows = {}

    def _ordered(self):
        return np.arange(self._graph.n) if self._keep is None else np.flatnonzero(self._keep)

    def _has(self, idx):
        return self._keep is None or bool(self._keep[idx])

    def _value(self, idx):
        row = self._rows.get(idx)
        if row is None:
            extra = () if self._extra is None else (self._extra[idx],)
            row = self._rows[idx] = self._row_type(self._graph, self._matrix[idx], *extra)
        return row

    def __repr__(self):
        return f"{type(self).__name__}(<{len(self)} rows of {self._row_type.__name__}>)"


def materialize(obj):
    """Plain Python containers for a result: lazy mappings become dicts (recursively),
    tuples and dicts are rebuilt with materialized items, generators yield materialized
    items; anything else is returned as it is."""
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
    (the reached vertices by distance) when the device sorted them."""

    def __init__(self, graph, dist, pred, sources, *, order=None):
        self.graph = graph
        self.dist = dist
        self.pred = pred
        self.sources = sources
        self.order = order
        self._int_values = None

    def _ints(self):
        """Which float64 distances NetworkX holds as ints (nx_gpusp.value_types): the
        sources (NetworkX's int 0) and, where ints and floats mix, the vertices whose
        tree path has only int weights."""
        if self.dist.dtype.kind != "f":
            return None
        if self._int_values is None:
            g = self.graph
            pred = self.pred
            if pred is None and g.float_arcs is not None:
                pred = tight_tree(g, self.dist, self.sources)
            self._int_values = int_along_tree(g, pred, self.sources)
        return self._int_values

    def reached(self, idx):
        return idx is not None and self.dist[idx] != distance_inf(self.dist.dtype)

    def length(self, idx):
        value = [self.dist[idx].item()]
        ints = self._ints()
        if ints is not None and ints[idx]:
            ints_at(value, [0])
        return value[0]

    def lengths(self, order=None):
        """{label: distance} of the reached nodes, in non-decreasing distance order
        (``order``: these vertex indices, in this order, instead)."""
        ints = self._ints if self.dist.dtype.kind == "f" else None
        return DistanceMap(self.graph, self.dist, self.order if order is None else order,
                           ints=ints)

    def path(self, idx):
        """Labels from a source to ``idx`` along the predecessor tree."""
        return self.paths()[self.graph.labels([idx])[0]]

    def paths(self, *, reverse=False):
        """{label: [labels...]} of the reached nodes, in distance order (``reverse``:
        each path from the node back to its root)."""
        return PathMap(self.graph, self.dist, self.pred, reverse=reverse, order=self.order)


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


def narrowest_distances(ex, dist):
    """``dist`` (a contiguous matrix of integer distances, ``distance_inf`` = unreached)
    in the narrowest signed integer type that holds every finite value below its own
    maximum, which then stands for unreached: the rows an all-pairs call copies to the
    host shrink 2-8x (unit-weight graphs: int8). Float distances are returned as they
    are."""
    if dist.dtype.kind != "i" or dist.size == 0:
        return dist
    ops = ex.ops("array_ops")
    low, high = ops.finite_range(dist)
    low, high = min(low, 0), max(high, 0)  # no finite entry: any type holds none
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high < info.max:
            if dtype == dist.dtype:
                return dist
            rows = dist.reshape(-1, dist.shape[-1]) if dist.ndim != 1 else dist[None]
            out = ops.convert_block(rows, *rows.shape, dtype,
                                    bound=distance_inf(dist.dtype) - 1, over=info.max)
            return out.reshape(dist.shape)
    return dist


def distance_order(ex, dist):
    """The reached vertices (finite ``dist``) in non-decreasing distance order, ties in
    vertex order, as int32 (the ``distance_order`` kernel table: a radix sort on the
    device, NumPy's stable argsort on the host)."""
    return ex.ops("distance_order").distance_order(dist)


def to_host(graph, result):
    """The host copy of an SSSPResult (its cutoff already applied:
    solvers.sssp.mask_beyond_cutoff). On a GPU the distance order is sorted there too (a
    host sort of NY's distances costs more than the whole call); the twin leaves it to
    the mappings."""
    ex = result.executor
    dist = result.dist
    order = ex.to_host(distance_order(ex, dist)) if ex.is_cuda else None
    pred = None if result.pred is None else ex.to_host(result.pred)
    host = HostSSSP(graph, ex.to_host(dist), pred, result.sources, order=order)
    result.stats  # noqa: B018 -- the counts left on the device: a bound they reached raises
    return host


# -- predecessor lists, trees and all shortest paths (tight-arc DAG) --------------------
def sources_first(dist, sources, order=None):
    """The reached vertices of ``dist`` with ``sources`` first (in the given order) and
    the others in non-decreasing distance order (``order``: that order already, e.g.
    sorted on the device): the key order of NetworkX's pred and dist dicts, which start
    at the source even where another vertex is as close or closer."""
    if order is None:
        reached = np.flatnonzero(dist != distance_inf(dist.dtype))
        order = reached[np.argsort(dist[reached], kind="stable")]
    srcs = np.asarray(sources, dtype=np.int64)
    srcs = srcs[dist[srcs] != distance_inf(dist.dtype)]
    _, first = np.unique(srcs, return_index=True)
    srcs = srcs[np.sort(first)]
    return np.concatenate([srcs, order[~np.isin(order, srcs)]]).astype(np.int64)


class TightArcs:
    """The tight-arc DAG of one search, on the host: row v of (``indptr``, ``tails``)
    lists every u with an arc (u, v), u reached and dist[u] + w(u, v) == dist[v]
    (zero-weight cycles make it cyclic), in the order of the lists NetworkX builds
    (nx_gpusp.solvers.sssp.tight_arcs). ``sources``: the search's sources (indices)."""

    __slots__ = ("graph", "dist", "indptr", "tails", "sources", "_source_set", "_indptr_view",
                 "_tails_view")

    def __init__(self, graph, dist, indptr, tails, sources):
        self.graph = graph
        self.dist = dist
        self.indptr = indptr
        self.tails = tails
        self.sources = np.asarray(sources, dtype=np.int64)
        self._source_set = frozenset(self.sources.tolist())
        self._indptr_view = _memory(indptr)
        self._tails_view = _memory(tails)

    def reached(self, idx):
        return idx is not None and self.dist[idx] != distance_inf(self.dist.dtype)

    def row(self, idx):
        """Tails of the tight in-arcs of ``idx`` (an int array)."""
        return self.tails[self.indptr[idx]:self.indptr[idx + 1]]

    def paths_to(self, target):
        """Every simple path from a source to ``target`` along tight arcs, as label lists,
        in the order (and with the repeats) of NetworkX's
        ``_build_paths_from_predecessors``: depth first from the target through each
        predecessor list in its order, a path yielded each time the walk stands on a
        source (again after each of a source's own predecessors, which zero-weight
        cycles through a source give it), never through a vertex already on the path."""
        indptr, tails, sources = self._indptr_view, self._tails_view, self._source_set
        nodes = self.graph._nodes
        stack, next_arc, on_path = [target], [indptr[target]], {target}
        while stack:
            v = stack[-1]
            if v in sources:
                path = stack[::-1]
                yield path if nodes is None else [nodes[x] for x in path]
            i = next_arc[-1]
            if i < indptr[v + 1]:
                next_arc[-1] = i + 1
                u = tails[i]
                if u not in on_path:
                    on_path.add(u)
                    stack.append(u)
                    next_arc.append(indptr[u])
            else:
                on_path.discard(v)
                stack.pop()
                next_arc.pop()


class _ArcKeys(LazyMapping):
    """Keys: the reached vertices of a TightArcs' search, in a given order."""

    __slots__ = ("_arcs", "_inf")

    def __init__(self, arcs, order):
        super().__init__(arcs.graph)
        self._arcs = arcs
        self._inf = distance_inf(arcs.dist.dtype)
        self._order_cache = order

    def _ordered(self):
        return self._order_cache

    def _has(self, idx):
        return self._arcs.dist[idx] != self._inf

    def _count(self):
        return len(self._order_cache)


class PredecessorListMap(_ArcKeys):
    """``{node: [predecessors]}`` (NetworkX's ``*_predecessor_and_distance`` pred): for
    each reached node every tail of a tight in-arc, read from the tight-arc DAG when the
    node is read (the source's list is empty unless zero-weight cycles lead back to it)."""

    __slots__ = ()

    def _value(self, idx):
        return self._graph.labels(self._arcs.row(idx))

    def _values(self, order):
        arcs = self._arcs
        labels = self._graph.labels(arcs.tails)
        return [labels[a:b] for a, b in zip(arcs.indptr[order].tolist(),
                                            arcs.indptr[order + 1].tolist())]


class TreePredecessorMap(LazyMapping):
    """``{node: predecessor}`` of a shortest-path tree (goldberg_radzik's pred): each
    reached node's parent label, None at the roots (the sources)."""

    __slots__ = ("_dist", "_pred", "_pred_view", "_inf")

    def __init__(self, graph, dist, pred, order):
        super().__init__(graph)
        self._dist = dist
        self._pred = pred
        self._pred_view = _memory(pred)
        self._inf = distance_inf(dist.dtype)
        self._order_cache = order

    def _ordered(self):
        return self._order_cache

    def _has(self, idx):
        return self._dist[idx] != self._inf

    def _count(self):
        return len(self._order_cache)

    def _value(self, idx):
        p = self._pred_view[idx]
        if p < 0:
            return None
        nodes = self._graph._nodes
        return p if nodes is None else nodes[p]

    def _values(self, order):
        parents = self._pred[order]
        labels = self._graph.labels(np.maximum(parents, 0))
        return [None if p < 0 else lab for p, lab in zip(parents.tolist(), labels)]


class AllShortestPathsMap(_ArcKeys):
    """``{target: [every shortest path from the source to target]}`` (one row of
    all_pairs_all_shortest_paths), each target's paths enumerated from the tight-arc
    DAG when it is read (TightArcs.paths_to)."""

    __slots__ = ()

    def _value(self, idx):
        return list(self._arcs.paths_to(idx))


__all__ += ["sources_first", "TightArcs", "PredecessorListMap", "TreePredecessorMap",
            "AllShortestPathsMap"]
