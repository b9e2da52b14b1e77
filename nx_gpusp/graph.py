"""The backend graph: CSR arcs on the host, with device copies and derived formats
(reverse CSR, dense matrix) built lazily and cached on the object.

Invariants: no parallel arcs (parallel arcs are merged by minimum weight, as
NetworkX's multigraph weight function does); an undirected graph stores both
directions; ``weights`` are int64 (exact integer weights) or float64.
"""

import contextlib
import copy
import functools
import threading

import numpy as np

__all__ = ["CSRGraph", "distance_inf", "float_distances", "mark_unreached", "source_indices",
           "row_pointers", "merge_parallel_arcs"]

INT_LIMIT = 1 << 62  # int64 path sums stay exact below this
FLOAT_EXACT = 1 << 53  # every integer up to this magnitude is a float64 exactly
INT32_MAX = (1 << 31) - 1  # int32 distances' "unreached"
LABEL_ARRAY_MIN = 256  # labels() gathers at least this many through node_array
MASK_ENTRIES = 1 << 30  # entries one boolean mask assignment covers at most (mark_unreached)


def row_pointers(rows, n):
    """CSR row pointers (int64, n + 1) of arcs whose rows are ``rows`` (ints in 0..n-1):
    row r's arcs are at ptr[r]:ptr[r + 1] once the arcs are sorted by row."""
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=ptr[1:])
    return ptr


def distance_inf(dtype):
    """The "unreached" distance of a distance dtype: +inf, or the integer maximum."""
    return _distance_inf(np.dtype(dtype))


@functools.lru_cache(maxsize=None)
def _distance_inf(dtype):
    return np.inf if dtype.kind == "f" else np.iinfo(dtype).max


def source_indices(sources, dtype=np.int64):
    """The distinct vertex indices of ``sources``, sorted, as ``dtype`` (what
    ``np.unique`` gives: np.unique imports numpy.ma when first called, 30-90 ms of a
    process's first search)."""
    arr = np.sort(np.asarray(sources, dtype=dtype).ravel())
    if len(arr) > 1:
        arr = arr[np.concatenate(([True], arr[1:] != arr[:-1]))]
    return arr


def float_distances(d):
    """float64 distances with inf for "unreached" (NumPy or CuPy arrays alike)."""
    if d.dtype.kind == "f":
        return d.astype(np.float64, copy=False)
    return mark_unreached(d.astype(np.float64), d, np.inf)


def mark_unreached(out, d, value):
    """``out[d == distance_inf(d.dtype)] = value`` for ``out`` and ``d`` of one shape
    (NumPy or CuPy), in slices of rows of at most MASK_ENTRIES entries: CuPy's boolean
    mask assignment overflows past 2**31 - 1 entries (a B x n block of many sources on
    a large device). Returns ``out``."""
    inf = distance_inf(d.dtype)
    if out.ndim < 2 or out.size <= MASK_ENTRIES:
        out[d == inf] = value
        return out
    step = max(1, MASK_ENTRIES // max(1, out.size // len(out)))
    for start in range(0, len(out), step):
        part = out[start:start + step]
        part[d[start:start + step] == inf] = value
    return out


def index_by_label(nodes):
    """{label: its position in ``nodes``}."""
    return dict(zip(nodes, range(len(nodes))))


class CSRGraph:
    """A NetworkX-dispatchable graph for the ``gpusp`` backend."""

    __networkx_backend__ = "gpusp"

    def __init__(self, indptr, indices, weights, *, nodes=None, directed=True,
                 multigraph=False, weighted=True, weight_attr=None, graph_attrs=None,
                 number_of_edges=None, float_arcs=None, floyd_warshall_floats=None,
                 node_index=None):
        self.indptr = np.ascontiguousarray(indptr, dtype=np.int64)
        self.indices = np.ascontiguousarray(indices, dtype=np.int32)
        self.weights = np.ascontiguousarray(weights)
        if self.weights.dtype not in (np.int64, np.float64):
            raise TypeError(f"CSRGraph weights must be int64 or float64, got {self.weights.dtype}")
        self.n = len(self.indptr) - 1
        self._nodes = nodes  # None: labels are 0..n-1
        if node_index is not None:  # index_by_label(nodes), where the caller built it
            self.node_index = node_index
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        self.weighted = bool(weighted)
        self.weight_attr = weight_attr
        self.graph = dict(graph_attrs or {})
        # NetworkX's edge count where the CSR cannot tell it (a multigraph's parallel
        # edges are merged into one arc); None: counted from the arcs
        self._number_of_edges = number_of_edges
        # NetworkX's number types (nx_gpusp.value_types): which arcs it adds as floats
        # where ints and floats mix, and which its Floyd-Warshall reads as floats where
        # that differs (a missing weight is 1.0 there; None: as float_arcs says)
        self.float_arcs = float_arcs
        self.floyd_warshall_floats = floyd_warshall_floats
        self._device = {}
        self.__networkx_cache__ = {}

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_edge_arrays(cls, n, src, dst, weights=None, *, directed=True, nodes=None, **kw):
        """CSR from arc (or, undirected, edge) arrays; parallel arcs keep the minimum."""
        src = np.asarray(src, dtype=np.int64)
        dst = np.asarray(dst, dtype=np.int64)
        weighted = weights is not None
        w = np.ones(len(src), dtype=np.int64) if weights is None else np.asarray(weights)
        if w.dtype.kind in "biu":
            w = w.astype(np.int64)
        elif w.dtype.kind == "f":
            w = w.astype(np.float64)
        else:
            raise TypeError(f"weights must be numeric, got dtype {w.dtype}")
        if len(src) and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
            raise ValueError("arc endpoint outside 0..n-1")
        if not directed:
            loop = src == dst
            src, dst, w = (np.concatenate([src, dst[~loop]]), np.concatenate([dst, src[~loop]]),
                           np.concatenate([w, w[~loop]]))
        src, dst, w = merge_parallel_arcs(n, src, dst, w)
        return cls(row_pointers(src, n), dst, w, nodes=nodes, directed=directed,
                   weighted=weighted, **kw)

    # -- NetworkX-like surface --------------------------------------------------------
    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def __len__(self):
        return self.n

    def number_of_nodes(self):
        return self.n

    @property
    def m(self):
        """Number of stored arcs (an undirected edge counts twice, a self-loop once)."""
        return len(self.indices)

    @property
    def nodes(self):
        """Node labels in index order."""
        return range(self.n) if self._nodes is None else self._nodes

    @functools.cached_property
    def node_index(self):
        """Mapping label -> index (None when labels are 0..n-1)."""
        if self._nodes is None:
            return None
        return index_by_label(self._nodes)

    def index_of(self, label):
        """Index of ``label``, or None when it is not a node.

        Found as a dict finds it, so as NetworkX does: on a graph labelled 0..n-1, any
        label equal to one of those ints with the same hash (1.0, True, numpy integers,
        Fraction(1)) is that node."""
        try:
            if self.node_index is not None:
                return self.node_index.get(label)
            h = hash(label)
        except TypeError:  # unhashable
            return None
        if 0 <= h < self.n and label == h:
            return h
        return None

    def indices_of_nodes(self, nodes):
        """int64 indices of ``nodes`` (a sized iterable of this graph's own labels, in
        its order): :meth:`index_of` without a Python call per node."""
        if self.node_index is None:
            return np.fromiter(nodes, dtype=np.int64, count=len(nodes))
        return np.fromiter(map(self.node_index.__getitem__, nodes), dtype=np.int64,
                           count=len(nodes))

    def __contains__(self, label):
        return self.index_of(label) is not None

    def number_of_edges(self):
        """NetworkX's ``G.number_of_edges()``: parallel edges of a multigraph count
        (as recorded at conversion), an undirected edge once, a self-loop once."""
        if self._number_of_edges is not None:
            return self._number_of_edges
        if self.directed:
            return self.m
        return (self.m + self.number_of_self_loops) // 2

    @functools.cached_property
    def number_of_self_loops(self):
        tails = np.repeat(np.arange(self.n), np.diff(self.indptr))
        return int(np.count_nonzero(tails == self.indices))

    def nbunch_indices(self, nbunch=None):
        """Indices of ``G.nbunch_iter(nbunch)``, in its order and with its errors:
        None is every node; a node is itself; an iterable keeps its members that are
        nodes (duplicates too) and silently drops the others."""
        if nbunch is None:
            return np.arange(self.n, dtype=np.int64)
        idx = self.index_of(nbunch)
        if idx is not None:
            return np.array([idx], dtype=np.int64)
        import networkx as nx

        try:
            members = iter(nbunch)
        except TypeError:
            raise nx.NetworkXError(f"Node {nbunch} is not in the graph.") from None
        out = []
        for v in members:
            try:
                hash(v)
            except TypeError:
                raise nx.NetworkXError(
                    f"Node {v} in sequence nbunch is not a valid node.") from None
            idx = self.index_of(v)
            if idx is not None:
                out.append(idx)
        return np.array(out, dtype=np.int64)

    def labels(self, idx):
        """Labels of an index array, as a list (the label objects themselves)."""
        idx = np.asarray(idx)
        if self._nodes is None:
            return idx.tolist()
        if idx.size < LABEL_ARRAY_MIN:
            nodes = self._nodes
            return [nodes[i] for i in idx.tolist()]
        return self.node_array[idx].tolist()  # gathered in C: ~1.4x the list comprehension

    @functools.cached_property
    def node_array(self):
        """The labels as a 1-D object array (tuples stay whole), for gathering many."""
        return np.fromiter(self._nodes, dtype=object, count=len(self._nodes))

    # -- derived properties (cached) ---------------------------------------------------
    @functools.cached_property
    def min_weight(self):
        return self.weights.min().item() if self.m else 0

    @functools.cached_property
    def max_weight(self):
        return self.weights.max().item() if self.m else 0

    @functools.cached_property
    def mean_abs_weight(self):
        if not self.m:
            return 0.0
        with np.errstate(over="ignore"):  # inf for weights near the float maximum
            return float(np.abs(self.weights).mean())

    @property
    def has_negative_weights(self):
        return self.m > 0 and self.min_weight < 0

    @property
    def integer_weights_at_least_one(self):
        """Integer weights, every one at least 1 (False without arcs): the last arc of a
        shortest path into any vertex but a source then comes from a strictly closer
        tail (a float weight can vanish in a sum; a zero weight joins equally distant
        vertices)."""
        return self.weights.dtype.kind == "i" and self.min_weight >= 1

    @functools.cached_property
    def negative_self_loops(self):
        """Vertices with a negative self-loop (int64 indices)."""
        tails = np.repeat(np.arange(self.n), np.diff(self.indptr))
        return tails[(tails == self.indices) & (self.weights < 0)]

    @property
    def has_negative_self_loop(self):
        return len(self.negative_self_loops) > 0

    def reachable(self, sources):
        """Boolean mask of the vertices reachable from ``sources`` (host breadth-first
        search from a virtual source joined to them)."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import breadth_first_order

        src = source_indices(sources)
        n = self.n
        indptr = np.append(self.indptr, self.m + len(src))
        indices = np.concatenate([self.indices.astype(np.int64), src])
        mat = csr_matrix((np.ones(len(indices), dtype=np.int8), indices, indptr),
                         shape=(n + 1, n + 1))
        order = breadth_first_order(mat, n, directed=True, return_predecessors=False)
        seen = np.zeros(n, dtype=bool)
        seen[order[order < n]] = True
        return seen

    def has_out_arcs(self, sources):
        """Whether any of ``sources`` (vertex indices) has an out-arc: where none has,
        a search from them reaches nothing else (read off the host row pointers)."""
        src = np.asarray(sources, dtype=np.int64)
        return bool((self.indptr[src + 1] > self.indptr[src]).any())

    @functools.cached_property
    def min_out_weight(self):
        """W(v) = minimum outgoing arc weight of each vertex, exact in the distance dtype
        (the distance "inf" where v has no arcs): the Crauser threshold."""
        dtype = self.distance_dtype()
        w = np.full(self.n, distance_inf(dtype), dtype=dtype)
        starts = self.indptr[:-1]
        nonempty = starts < self.indptr[1:]
        if self.m:
            w[nonempty] = np.minimum.reduceat(self.weights, starts[nonempty])
        return w

    @functools.cached_property
    def connected(self):
        """Every vertex reaches every other: strongly connected when directed,
        connected when undirected (False for the null graph)."""
        if self.n == 0:
            return False
        from scipy.sparse import csr_array
        from scipy.sparse.csgraph import connected_components

        arcs = csr_array((np.ones(self.m, dtype=np.int8), self.indices, self.indptr),
                         shape=(self.n, self.n))
        count, _ = connected_components(arcs, directed=self.directed, connection="strong")
        return count == 1

    @functools.cached_property
    def out_degree(self):
        return np.diff(self.indptr)

    @functools.cached_property
    def max_out_degree(self):
        """The longest row's arcs (0 for a graph without vertices)."""
        return int(self.out_degree.max()) if self.n else 0

    @functools.cached_property
    def in_degree(self):
        """Arcs entering each vertex (int64; the out-degrees when undirected)."""
        if not self.directed:
            return self.out_degree
        return np.bincount(self.indices, minlength=self.n).astype(np.int64)

    def distance_dtype(self):
        """int64 for integer weights, float64 otherwise."""
        return self.weights.dtype

    @functools.cached_property
    def int32_distances(self):
        """Whether every distance and candidate of a search fits int32 below its maximum
        (which stands for unreached): integer weights with n * max w < 2**31 - 2 (for
        the non-negative weights of the searches that narrow to int32)."""
        if self.distance_dtype().kind != "i":
            return False
        return self.n * max(int(self.max_weight), 0) < INT32_MAX - 1  # Python ints

    @functools.cached_property
    def path_bound(self):
        """B = max(n - 1, 1) * max|w| (a Python number; 0 without arcs): no simple path is
        longer than B or shorter than -B, no arc weight (self-loops included) exceeds B
        in magnitude, and a candidate (a simple-path sum plus one arc) stays within 2B.
        Every narrower distance type is chosen against this bound."""
        if self.m == 0:
            return 0
        return max(self.n - 1, 1) * max(abs(self.min_weight), abs(self.max_weight))

    def float_sums_finite(self):
        """True when no path sum can overflow float64 to inf (always for integers)."""
        if self.weights.dtype.kind != "f":
            return True
        return self.path_bound * (1 + 2.0 ** -16) < np.finfo(np.float64).max

    def path_sums_exact(self):
        """True when every candidate distance fits the distance type exactly: int64 below
        2**62; where ints mix with floats (float64 distances), the sums of the ints below
        2**53, as NetworkX adds them exactly."""
        if self.weights.dtype == np.int64:
            return self.path_bound < INT_LIMIT
        if self.float_arcs is not None and not self.float_arcs.all():
            ints = np.abs(self.weights[~self.float_arcs]).max()
            return max(self.n - 1, 1) * ints < FLOAT_EXACT
        return True

    def reweighted_ints_exact(self):
        """True unless ints mix with floats and Johnson's reweighting (float weights with
        negative arcs: nx_gpusp.solvers.apsp.floyd_warshall.sweep_weights) could move an
        int-only distance by half a unit. The potentials stay within N = the sum of the
        negative weights, the reweighted sums within B + 2N (B: path_bound), and each
        of the n + 2 roundings of a distance errs by at most (B + 4N) * 2**-52; below
        1/2 in all, rounding gives NetworkX's exact int back."""
        if self.float_arcs is None or self.float_arcs.all() or not self.has_negative_weights:
            return True
        with np.errstate(over="ignore"):  # inf past the float maximum: declined
            negative = float(-self.weights[self.weights < 0].sum())
        return (self.n + 2) * (self.path_bound + 4 * negative) * 2.0 ** -52 < 0.5

    @functools.cached_property
    def reverse(self):
        """The transpose graph (arcs reversed), sharing labels."""
        if not self.directed:
            return self
        tails = np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))
        order = np.lexsort((tails, self.indices))
        indptr = row_pointers(self.indices, self.n)
        g = CSRGraph(indptr, tails[order], self.weights[order], nodes=self._nodes,
                     directed=True, multigraph=self.multigraph, weighted=self.weighted,
                     weight_attr=self.weight_attr, number_of_edges=self._number_of_edges,
                     float_arcs=None if self.float_arcs is None else self.float_arcs[order],
                     floyd_warshall_floats=None if self.floyd_warshall_floats is None
                     else self.floyd_warshall_floats[order])
        g.__dict__["reverse"] = self
        return g

    def induced(self, keep):
        """The subgraph induced by the vertices where the bool n-vector ``keep`` is True
        (renumbered in index order, labels and number types kept)."""
        keep = np.asarray(keep, dtype=bool)
        new = np.cumsum(keep) - 1
        tails = np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))
        arcs = keep[tails] & keep[self.indices]
        nodes = None
        if self._nodes is not None or not keep.all():
            nodes = [self.nodes[i] for i in np.flatnonzero(keep).tolist()]
        return CSRGraph(row_pointers(new[tails[arcs]], int(keep.sum())),
                        new[self.indices[arcs]], self.weights[arcs], nodes=nodes,
                        directed=self.directed, multigraph=self.multigraph,
                        weighted=self.weighted, weight_attr=self.weight_attr,
                        float_arcs=None if self.float_arcs is None else self.float_arcs[arcs],
                        floyd_warshall_floats=None if self.floyd_warshall_floats is None
                        else self.floyd_warshall_floats[arcs])

    @functools.cached_property
    def unit_weights(self):
        """The same arcs with every weight 1 (NetworkX's ``weight=None``)."""
        if not self.weighted:
            return self
        g = CSRGraph(self.indptr, self.indices, np.ones(self.m, dtype=np.int64),
                     nodes=self._nodes, directed=self.directed, multigraph=self.multigraph,
                     weighted=False, number_of_edges=self._number_of_edges)
        return g

    # -- pickling ---------------------------------------------------------------------
    # what an unpickled graph rebuilds when it is asked for: the device copies (they
    # belong to one process's device), the graphs derived from this one (each as large
    # as the graph) and the label index
    _NOT_PICKLED = ("_device", "__networkx_cache__", "reverse", "unit_weights", "node_index",
                    "node_array")

    def __getstate__(self):
        """The host arrays, labels and flags, with the cached scalars (sent to Dask
        workers; nothing on a device crosses)."""
        state = {k: v for k, v in self.__dict__.items() if k not in self._NOT_PICKLED}
        state["_device"] = {}
        state["__networkx_cache__"] = {}
        return state

    # -- device copies ---------------------------------------------------------------
    def on(self, ex):
        """CSR arrays on the executor's device (cached): indptr, indices, and weights
        when first read (breadth-first search never reads them)."""
        dev = self._device.get(ex.name)
        if dev is None:
            nbytes = self.indptr.nbytes + self.indices.nbytes
            ex.require_bytes(nbytes, f"the CSR graph ({self.n} nodes, {self.m} arcs)")
            dev = DeviceCSR(self, ex)
            self._device[ex.name] = dev
        return dev

    def on_as(self, ex, dtype):
        """The device arrays with the weights as ``dtype`` (``weights_as``: exact only
        where the caller proved they fit), for kernels whose distances and weights are
        that type: ``on(ex)`` itself where the weights are, else a shallow copy of it
        (one a type, kept with it)."""
        dev = self.on(ex)
        weights = self.weights_as(ex, dtype)
        if weights is dev.weights:
            return dev
        view = dev.cast_views.get(weights.dtype)
        if view is None:
            view = copy.copy(dev)
            view.__dict__["weights"] = weights
            dev.cast_views[weights.dtype] = view
        return view

    def on_device(self, ex, name):
        """A cached per-vertex property (e.g. "min_out_weight") uploaded once per device."""
        dev = self.on(ex)
        arr = getattr(dev, name, None)
        if arr is None:
            arr = ex.publish(ex.asarray(getattr(self, name)))
            setattr(dev, name, arr)
        return arr

    def weights_as(self, ex, dtype, *, if_fits=False):
        """The device weights cast to ``dtype`` (cached per device); exact only where
        the caller proved every weight fits. ``if_fits``: None, not MemoryError, when
        the copy is not there and would not fit in half the free memory (for callers
        that can do without it)."""
        dev = self.on(ex)
        dtype = np.dtype(dtype)
        if dtype == dev.weights.dtype:
            return dev.weights
        arr = dev.cast_weights.get(dtype)
        if arr is None:
            if if_fits and 2 * self.m * dtype.itemsize > ex.free_bytes():
                return None
            ex.require_bytes(self.m * dtype.itemsize, f"the {dtype} weights")
            arr = dev.cast_weights[dtype] = ex.publish(
                ex.ops("array_ops").astype(dev.weights, dtype))
        return arr

    def dense(self, ex, dtype=None, *, inf=None, size=None):
        """Dense weight matrix on the device: +inf (or ``inf``) off the arcs; ``size``
        (>= n) pads it to size x size with ``inf`` rows and columns.

        Built from the device CSR (a thread a row), so only the cached CSR crosses the
        bus, never m tail indices. The diagonal keeps
        self-loop weights (callers decide how to treat it).
        """
        dtype = np.dtype(dtype or self.distance_dtype())
        size = self.n if size is None else size
        ex.require_bytes(size * size * dtype.itemsize,
                         f"the dense {size}x{size} {dtype} matrix")
        if inf is None:
            inf = distance_inf(dtype)
        ops = ex.ops("array_ops")
        mat = ops.full((size, size), inf, dtype)
        if self.m:
            ops.dense_from_csr(self.on(ex), mat)
        return mat

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return f"<CSRGraph {kind}, {self.n} nodes, {self.m} arcs, {self.weights.dtype}>"


class DeviceCSR:
    """A CSRGraph's arrays on one device: ``indptr``, ``indices``, ``n``, ``m``, and
    ``weights`` uploaded on first use; derived arrays are cached as attributes."""

    def __init__(self, graph, ex):
        self._graph, self._ex = graph, ex
        self.indptr = ex.asarray(graph.indptr)
        self.indices = ex.publish(ex.asarray(graph.indices))
        self.n, self.m = graph.n, graph.m
        self.cast_weights = {}  # dtype: the weights as that type (CSRGraph.weights_as)
        self.cast_views = {}  # dtype: the arrays with those weights (CSRGraph.on_as)
        self.transposed = {}  # dtype: in_arcs' (in_ptr, in_tails, in_weights of that type)
        self._scratch, self._scratch_lock = {}, threading.Lock()

    @contextlib.contextmanager
    def scratch(self, key, make):
        """A solver's working arrays for one run, kept with the graph for its next runs
        (context manager; ``make()`` builds a set the first time ``key`` is asked for,
        or while every kept set is lent to another run). Allocating them cost a large
        graph's run more host time than launching its kernels. The arrays hold whatever
        the last run left; a run on another stream or thread waits, on the device, for
        the last run's work with them (``Executor.after``)."""
        with self._scratch_lock:
            kept = self._scratch.setdefault(key, [])
            arrays, last = kept.pop() if kept else (None, None)
        if arrays is None:
            arrays = make()
        self._ex.after(last)
        try:
            yield arrays
        finally:
            last = self._ex.mark()
            with self._scratch_lock:
                kept.append((arrays, last))

    @functools.cached_property
    def weights(self):
        graph, ex = self._graph, self._ex
        ex.require_bytes(graph.weights.nbytes, f"the weights of {graph.m} arcs")
        return ex.publish(ex.asarray(graph.weights))

    def tile_rows(self, tile):
        """int32 row of the first arc of each tile of ``tile`` arcs (the last row starting
        at or before it), then n - 1: where an arc-parallel kernel's tile finds its rows
        without a search (cached per tile size; m / tile entries)."""
        key = f"tile_rows_{tile}"
        rows = self.__dict__.get(key)
        if rows is None:
            indptr = self._graph.indptr
            first = np.searchsorted(indptr, np.arange(0, self.m, tile), side="right") - 1
            rows = np.append(first, self.n - 1).astype(np.int32)
            rows = self.__dict__[key] = self._ex.publish(self._ex.asarray(rows))
        return rows

    @functools.cached_property
    def max_in_degree(self):
        """The most arcs entering one vertex (0 for a graph without vertices): counted on
        the device, an undirected graph's most arcs leaving one."""
        if not self.n:
            return 0
        if not self._graph.directed:
            return self._graph.max_out_degree
        return self._ex.ops("tree").max_in_degree(self)

    def in_arcs(self, dtype):
        """The transpose CSR, (in_ptr int64[n+1], in_tails int32[m], in_weights[m] as
        ``dtype``: exact only where the caller proved the weights fit), rows by head,
        each row's arcs in tail order; an undirected graph's own arrays. Built on the
        device by the tree kernels when first asked for and cached per dtype; None where
        it would not fit in half the free memory, or where the graph has 2**31 arcs or
        more (callers then read the out-arcs)."""
        graph, ex = self._graph, self._ex
        weights = graph.weights_as(ex, dtype, if_fits=True)
        if weights is None:
            return None
        if not graph.directed:
            return self.indptr, self.indices, weights
        dtype = np.dtype(dtype)
        cached = self.transposed.get(dtype)
        if cached is not None:
            return cached
        # the sort's keys and values (two of each), the arcs' tails and what is kept
        need = self.m * (28 + dtype.itemsize) + 8 * self.n
        if self.m >= 2**31 or 2 * need > ex.free_bytes():
            return None
        in_ptr, in_tails, in_weights = ex.ops("tree").in_arcs(self, weights)
        if self.transposed:  # another type's rows and tails, kept: the same arrays
            in_ptr, in_tails, _ = next(iter(self.transposed.values()))
        arcs = self.transposed[dtype] = ex.publish((in_ptr, in_tails, in_weights))
        return arcs


def merge_parallel_arcs(n, src, dst, w):
    """Arcs sorted by (tail, head), parallel arcs merged to their minimum weight.

    One sort of a packed key: (tail * n + head) * span + weight for small non-negative
    integer weights, else an argsort of tail * n + head and a segmented minimum
    (a three-key lexsort is ~25x slower at 10**7 arcs).
    """
    if len(src) == 0:
        return src, dst, w
    key = src * n + dst
    span = int(w.max()) + 1 if w.dtype.kind == "i" and w.min() >= 0 else 0
    if span and n * n * span < 1 << 62:
        key, w = np.divmod(np.sort(key * span + w), span)
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        key, w = key[first], w[first]
    else:
        order = np.argsort(key, kind="stable")
        key, w = key[order], w[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        key, w = key[starts], np.minimum.reduceat(w, starts)
    tails, heads = np.divmod(key, n)
    return tails, heads, w.astype(np.int64 if w.dtype.kind == "i" else np.float64)
