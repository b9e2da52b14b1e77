"""NetworkX graph <-> CSRGraph.

``from_networkx`` reads ``G._adj`` once (a graph view's through :func:`adjacency`):
node order is ``G``'s, arcs keep adjacency order, multigraph parallel edges collapse to
their minimum weight (NetworkX's own multigraph weight function), a missing attribute
takes ``default``. Weights are checked
here, once, so every algorithm can trust them.

Weight functions (``weight=f(u, v, d)``) are evaluated by :func:`from_weight_function`
for one call at a time; :class:`EdgeDataGraph` is what NetworkX's dispatcher gets from
``convert_from_nx`` (and caches on G) when a call needs every edge attribute.
"""

import functools
import itertools
import numbers
from operator import itemgetter

import networkx as nx
import numpy as np

from .graph import CSRGraph, index_by_label, row_pointers
from .value_types import numpy_sums_differ

__all__ = ["from_networkx", "to_networkx", "validate_weights", "EdgeDataGraph",
           "HiddenEdgesGraph", "WeightFunctionGraph", "NoneWeight", "from_weight_function",
           "refuse_hidden_edges", "adjacency", "predecessors_in_node_order"]


def adjacency(G, adj=None):
    """``G._adj`` (or ``adj``, another of G's adjacency mappings), as dicts: a graph
    view's (``G.subgraph``, ``edge_subgraph``, ``restricted_view``, an undirected view
    of a digraph...) are filtered or joined mappings, not dicts, and a multigraph view's
    rows count neighbours whose every edge is filtered out (their ``len`` is not what
    they yield). A view's is copied into dicts in its own iteration order (what NetworkX
    iterates), the edge data shared; a graph's own dicts are returned as they are."""
    adj = G._adj if adj is None else adj
    if isinstance(adj, dict) and all(isinstance(row, dict)
                                     for row in itertools.islice(adj.values(), 1)):
        return adj
    if G.is_multigraph():
        return {u: {v: dict(keys.items()) for v, keys in nbrs.items()}
                for u, nbrs in adj.items()}
    return {u: dict(nbrs.items()) for u, nbrs in adj.items()}


def predecessors_in_node_order(G):
    """Whether every row of a directed graph's in-adjacency (``G._pred``: a NetworkX
    digraph's or an EdgeDataGraph's) lists its nodes in node order, as the reverse CSR
    (``CSRGraph.reverse``) holds them: NetworkX's ``G.predecessors`` iterates the row
    in the order its edges were added. Read by the C reader where it is built; kept in
    G's ``__networkx_cache__``, which NetworkX clears when G changes."""
    cache = getattr(G, "__networkx_cache__", None)
    key = "nx_gpusp_predecessors_in_node_order"
    if cache is not None and key in cache:
        return cache[key]
    succ = adjacency(G)
    pred = G._pred if isinstance(G, EdgeDataGraph) else adjacency(G, G._pred)
    nodes = list(succ)
    fast = read_rows_in_c(pred, nodes, None, G.is_multigraph(), True)
    if fast is not None:
        indptr, indices = fast[0], fast[1].astype(np.int64)
    else:
        indptr = row_pointers(np.repeat(np.arange(len(nodes)),
                                        np.fromiter(map(len, pred.values()), dtype=np.int64,
                                                    count=len(nodes))), len(nodes))
        indices = _head_indices(nodes, itertools.chain.from_iterable(pred.values()),
                                int(indptr[-1]), identity_labels(nodes))
    rising = np.diff(indices) > 0
    starts = indptr[1:-1]
    rising[starts[(starts > 0) & (starts < len(indices))] - 1] = True  # rows' boundaries
    ordered = bool(rising.all())
    if cache is not None:
        cache[key] = ordered
    return ordered


def from_networkx(G, weight=None, default=1, *, graph_attrs=True):
    """Convert a NetworkX graph; ``weight=None`` gives an unweighted (all-ones) graph.

    A graph whose weights are all Python ints (within int64) or all Python floats is
    read by the C reader in one pass over the rows (:func:`read_rows_in_c`), where it
    is built. Otherwise heads and edge data are streamed from the rows
    (``itertools.chain``) into NumPy and a list; weights are read with
    ``operator.itemgetter`` (a C call per arc), and only when some arc lacks the
    attribute with ``dict.get`` and the default. An arc whose attribute is None is left
    out, as NetworkX's Dijkstra functions skip it: a :class:`HiddenEdgesGraph` then says
    which."""
    adj = adjacency(G)
    nodes = list(adj)
    float_arcs = fw_floats = hidden = None
    fast = read_rows_in_c(adj, nodes, weight, G.is_multigraph(), G.is_directed())
    if fast is not None:
        indptr, indices, weights, identity, edges, index = fast
    else:
        edges = index = None
        (indptr, indices, weights, identity, float_arcs, fw_floats, hidden,
         hidden_edge) = _read_rows(adj, nodes, weight, default, G.is_multigraph())
    if (adj is not G._adj or isinstance(G, EdgeDataGraph) and G._view) and \
            not G.is_directed() and weight is not None:
        # an undirected view of a digraph: each direction reads its own arc's data
        _require_symmetric(indptr, indices, weights, nodes, source="this undirected view "
                           "(of a directed graph, each direction with its own arc's data)")
    if edges is None and (G.is_multigraph() or hidden is not None):
        edges = G.number_of_edges()  # a Python pass over the degrees of a multigraph
    # still None: a simple graph that the Python passes read whole; CSRGraph counts it
    kind = CSRGraph if hidden is None else HiddenEdgesGraph
    graph = kind(indptr, indices, weights, nodes=None if identity else nodes,
                 directed=G.is_directed(), multigraph=G.is_multigraph(),
                 weighted=weight is not None, weight_attr=weight,
                 graph_attrs=G.graph if graph_attrs else None,
                 number_of_edges=edges, float_arcs=float_arcs,
                 floyd_warshall_floats=fw_floats, node_index=index)
    if hidden is not None:  # NetworkX's Dijkstra functions skip an edge weighing None
        graph.hidden_edge, graph.hidden_arcs = hidden_edge, int(hidden.sum())
    return graph


def _read_rows(adj, nodes, weight, default, multigraph):
    """from_networkx's Python passes over the rows: (indptr, indices, weights, identity,
    float_arcs, floyd_warshall_floats, hidden, hidden_edge); ``hidden`` (a mask of the
    arcs read) and ``hidden_edge`` None unless an arc weighs None."""
    n = len(nodes)
    identity = identity_labels(nodes)
    degrees = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degrees, out=indptr[1:])
    m = int(indptr[-1])
    indices = _head_indices(nodes, itertools.chain.from_iterable(adj.values()), m, identity)
    float_arcs = fw_floats = hidden = hidden_edge = None
    if weight is None:
        weights = np.ones(m, dtype=np.int64)
    else:
        values, fw_floats = _weight_values(adj, weight, default, multigraph)
        if fw_floats is not None:
            values = [default if v is _MISSING else v for v in values]
        try:
            weights, float_arcs = validate_weights(values, indptr, indices, nodes)
        except NoneWeight:  # met on the slow path only: nothing to pay where all are numbers
            hidden = np.fromiter((v is None for v in values), dtype=bool, count=m)
            tails = np.repeat(np.arange(n, dtype=np.int64), degrees)
            first = int(hidden.argmax())
            hidden_edge = (nodes[int(tails[first])], nodes[int(indices[first])])
            indptr = row_pointers(tails[~hidden], n)
            indices = indices[~hidden]
            values = [v for v in values if v is not None]
            if fw_floats is not None:
                fw_floats = fw_floats[~hidden]
            weights, float_arcs = validate_weights(values, indptr, indices, nodes)
    return indptr, indices, weights, identity, float_arcs, fw_floats, hidden, hidden_edge


# a missing weight attribute while reading (then the default; Floyd-Warshall's is 1.0)
_MISSING = object()

try:  # the C reader (nx_gpusp/_adjacency.c), built where the installing machine has a
    from . import _adjacency  # C compiler; else the Python passes of from_networkx
except ImportError:
    _adjacency = None


def read_rows_in_c(adj, nodes, weight, multigraph=False, directed=True):
    """(indptr, indices, weights, identity, number of edges, label index) of a graph's
    adjacency dicts ``adj`` (node order ``nodes``; ``multigraph``: each arc's data a dict
    of its parallel edges' data, its weight their least, as NetworkX's multigraph
    weight), read by the C reader in one pass over the rows (the label index:
    index_by_label(nodes), None where the labels are 0..n-1, which the graph keeps as
    its node_index; ``indices`` int32); None where it is not built or does not take the
    graph (weights other than all Python ints that fit int64 or all Python floats, a
    missing attribute, rows that are not dicts), which the Python passes then read.
    Where the first and last labels are 0 and n-1 the reader presumes them all to be
    0..n-1 and checks them as it reads; where they are not, it reads again with the
    label index. Float weights are checked finite here as the Python passes check them
    (ValueError for NaN, NotImplementedError for an infinity)."""
    if _adjacency is None:
        return None
    n = len(nodes)
    presumed = n == 0 or (type(nodes[0]) is int and nodes[0] == 0
                          and type(nodes[-1]) is int and nodes[-1] == n - 1)
    index = None if presumed else index_by_label(nodes)
    indptr = np.empty(n + 1, dtype=np.int64)
    read = _adjacency.read_rows(adj, index, weight, indptr, multigraph)
    if read is not None and read[0] == -2:  # the labels are not 0..n-1 after all
        index = index_by_label(nodes)
        read = _adjacency.read_rows(adj, index, weight, indptr, multigraph)
    if read is None or read[0] < 0:
        return None
    kind, heads, values, edges, loop_edges = read
    indices = np.frombuffer(heads, dtype=np.int32)
    if kind == 2:
        weights = np.ones(len(indices), dtype=np.int64)
    elif kind == 1:
        weights = _finite(np.frombuffer(values, dtype=np.float64), indptr, indices, nodes)
    else:
        weights = np.frombuffer(values, dtype=np.int64)
    # NetworkX's count: an undirected edge is two arcs, a self-loop one
    edges = edges if directed else (edges + loop_edges) // 2
    return indptr, indices, weights, index is None, edges, index


def identity_labels(nodes):
    """Whether the node labels are exactly the ints 0..n-1 (no bools, no floats)."""
    return all(type(v) is int and v == i for i, v in enumerate(nodes))


def _head_indices(nodes, heads, m, identity):
    """int64 indices of the ``m`` head labels ``heads`` (an iterable)."""
    if identity:
        return np.fromiter(heads, dtype=np.int64, count=m)
    return np.fromiter(map(index_by_label(nodes).__getitem__, heads), dtype=np.int64,
                       count=m)


def _weight_values(adj, weight, default, multigraph):
    """(values, floyd_warshall_floats): the weight of each arc in CSR order as NetworkX's
    searches read it (a multigraph arc: its parallel edges' minimum, the first of equal
    ones, a parallel edge without the attribute at ``default``), _MISSING where the
    attribute is absent (from every parallel edge, for a multigraph arc); and, where
    some edge lacks the attribute or a multigraph's parallel edges mix ints and floats,
    which arcs NetworkX's Floyd-Warshall reads as floats (:func:`_floyd_warshall_float`),
    else None. ``operator.itemgetter`` reads them (a C call per arc) while every arc has
    the attribute; ``dict.get`` only after one lacks it."""
    def datas():
        return itertools.chain.from_iterable(map(dict.values, adj.values()))

    if multigraph:
        values = [min(d.get(weight, default) for d in keydict.values())
                  if any(weight in d for d in keydict.values()) else _MISSING
                  for keydict in datas()]
        kinds = {type(d.get(weight, 1.0)) for keydict in datas() for d in keydict.values()}
        if len(kinds) == 1:  # one number type: Floyd-Warshall reads every arc in it
            missing = values.count(_MISSING)  # then that type is float (1.0)
            return values, np.ones(len(values), dtype=bool) if missing else None
        return values, np.fromiter((_floyd_warshall_float(keydict, weight)
                                    for keydict in datas()), dtype=bool, count=len(values))
    try:
        return list(map(itemgetter(weight), datas())), None
    except KeyError:
        values = [d.get(weight, _MISSING) for d in datas()]
        return values, np.fromiter((v is _MISSING or isinstance(v, float) for v in values),
                                   dtype=bool, count=len(values))


def _floyd_warshall_float(keydict, weight):
    """Whether NetworkX's Floyd-Warshall reads the arc of the parallel edges ``keydict``
    as a float: it keeps ``min(w, kept)`` edge after edge (a missing weight is 1.0), so
    of equal weights the last one's type stays."""
    kept = None
    for d in keydict.values():
        w = d.get(weight, 1.0)
        if kept is None or not kept < w:
            kept = w
    return isinstance(kept, float)


def _arc_label(pos, indptr, indices, nodes):
    u = int(np.searchsorted(indptr, pos, side="right") - 1)
    v = int(indices[pos])
    return (nodes[u], nodes[v])


FLOAT_EXACT = 1 << 53  # every integer of magnitude up to 2**53 is a float64 exactly
INT64_MAX = int(np.iinfo(np.int64).max)


def validate_weights(values, indptr, indices, nodes):
    """(weights, float_arcs): weights as int64/float64 holding every value exactly, and,
    where ints and floats mix, which arcs NetworkX adds as floats (else None); or the
    error NetworkX users should see.

    TypeError: non-numeric (str, None, complex, ...). ValueError: NaN.
    NotImplementedError (NetworkX then falls back to its own implementation under
    automatic dispatch): a weight that int64/float64 cannot hold exactly or whose
    arithmetic NetworkX does differently (integers beyond int64, or mixed with floats
    beyond 2**53; Fraction, Decimal; numpy float32/float16/longdouble, which NetworkX
    sums in their own precision; the NumPy integers and bools whose sums NetworkX's
    arithmetic wraps or changes, nx_gpusp.value_types.numpy_sums_differ), and infinite
    weights.
    """
    m = len(values)
    if m == 0:
        return np.zeros(0, dtype=np.int64), None
    types = set(map(type, values))
    numpy_type = numpy_sums_differ(types, values)
    if numpy_type is not None:
        _refuse(values, numpy_type, indptr, indices, nodes)
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(values, dtype=object)
    kind = arr.dtype.kind
    if kind in "bi":  # every value an integer that fits int64 (numpy picked int64)
        return arr.astype(np.int64), None
    if kind == "u" and arr.max() <= INT64_MAX:
        return arr.astype(np.int64), None
    if kind == "f" and arr.dtype == np.float64 and types == {float}:
        return _finite(arr, indptr, indices, nodes), None
    return _exact_weights(values, types, indptr, indices, nodes)


def _finite(arr, indptr, indices, nodes):
    bad = np.flatnonzero(~np.isfinite(arr))
    if len(bad):
        pos = int(bad[0])
        edge = _arc_label(pos, indptr, indices, nodes)
        if np.isnan(arr[pos]):
            raise ValueError(f"edge {edge} has a NaN weight; shortest paths are undefined")
        raise NotImplementedError(f"gpusp: edge {edge} has an infinite weight")
    return arr


def _exact_weights(values, types, indptr, indices, nodes):
    """The slow path: every value classified by its type, each refusal naming its edge."""
    integral = floating = False
    for t in types:
        if issubclass(t, (bool, np.bool_, numbers.Integral)):
            integral = True
        elif issubclass(t, float):  # float and numpy float64
            floating = True
        else:
            _refuse(values, t, indptr, indices, nodes)
    if not floating:  # integers of any size
        ints = [int(val) for val in values]
        big = [pos for pos, val in enumerate(ints) if not -INT64_MAX - 1 <= val <= INT64_MAX]
        if big:
            edge = _arc_label(big[0], indptr, indices, nodes)
            raise NotImplementedError(
                f"gpusp: edge {edge} weight {values[big[0]]!r} does not fit int64 (NetworkX's "
                "exact integer arithmetic handles it)")
        return np.array(ints, dtype=np.int64), None
    arr = np.array([float(val) for val in values], dtype=np.float64)
    float_arcs = None
    if integral:  # ints mixed with floats must be floats exactly
        for pos in np.flatnonzero(np.abs(arr) >= FLOAT_EXACT).tolist():
            val = values[pos]
            if not isinstance(val, float) and int(val) != float(arr[pos]):  # exact
                edge = _arc_label(pos, indptr, indices, nodes)
                raise NotImplementedError(
                    f"gpusp: edge {edge} weight {val!r} is an integer that float64 (the "
                    "type of this graph's float weights) cannot hold exactly")
        # NetworkX adds these as Python ints and floats: which arcs are floats
        float_arcs = np.fromiter((isinstance(val, float) for val in values), dtype=bool,
                                 count=len(values))
    return _finite(arr, indptr, indices, nodes), float_arcs


class NoneWeight(TypeError):
    """An arc weighing None (a hidden edge): NetworkX's Dijkstra functions skip it, its
    other functions raise TypeError where they meet it."""


def _refuse(values, t, indptr, indices, nodes):
    """Raise the error for the first weight of type ``t``."""
    pos = next(i for i, val in enumerate(values) if type(val) is t)
    val = values[pos]
    edge = _arc_label(pos, indptr, indices, nodes)
    if issubclass(t, (np.integer, np.bool_)):
        raise NotImplementedError(
            f"gpusp: edge {edge} weight {val!r} is a numpy {t.__name__}; NetworkX adds "
            "such weights in NumPy's arithmetic (sums of int8 to uint32 wrap in their "
            "type, bools add as a logical or, uint64 beside a signed NumPy integer or a "
            "negative weight gives a float or OverflowError), gpusp in int64; convert the "
            "weights to Python ints or np.int64 to run on gpusp")
    if issubclass(t, np.floating):
        raise NotImplementedError(
            f"gpusp: edge {edge} weight {val!r} is a numpy {t.__name__}; NetworkX sums such "
            "weights in their own precision, gpusp in float64")
    import decimal  # here only: an import a first call need not pay

    if issubclass(t, (numbers.Real, decimal.Decimal)):
        raise NotImplementedError(
            f"gpusp: edge {edge} weight {val!r} is a {t.__name__}; exact arithmetic on it "
            "is not supported")
    error = NoneWeight if val is None else TypeError
    raise error(f"edge {edge} has non-numeric weight {val!r} ({t.__name__})")


def to_networkx(graph: CSRGraph):
    """A NetworkX (Di)Graph with the same nodes, arcs and weights."""
    G = nx.DiGraph() if graph.directed else nx.Graph()
    G.graph.update(graph.graph)
    labels = list(graph.nodes)
    G.add_nodes_from(labels)
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    attr = graph.weight_attr or "weight"
    if graph.weighted:
        G.add_weighted_edges_from(
            zip(graph.labels(tails), graph.labels(graph.indices), graph.weights.tolist()),
            weight=attr)
    else:
        G.add_edges_from(zip(graph.labels(tails), graph.labels(graph.indices)))
    return G


# -- weight functions: weight=f(u, v, d) ------------------------------------------------
class EdgeDataGraph:
    """What ``convert_from_nx`` returns when a call needs every edge attribute (NetworkX's
    dispatcher asks for that when ``weight`` is a function): G's adjacency itself, no
    copy, converted for each call's weight by :meth:`csr`.

    NetworkX keeps this object in ``G.__networkx_cache__`` (dropped when G changes
    through its methods) and hands it to later calls that need any edge attribute, so
    attribute weights are converted once here and kept. A weight function's values are
    computed on every call and never kept: the function may answer differently next
    time. It refers to G's adjacency and graph dicts, not to G, so G's cache holds no
    reference back to G.
    """

    __networkx_backend__ = "gpusp"

    def __init__(self, G):
        self._adj = adjacency(G)
        self._pred = adjacency(G, G._pred) if G.is_directed() else self._adj
        self._view = self._adj is not G._adj  # a copy of a view's rows
        self.graph = G.graph
        self._node = G._node  # node data, for functions that return a subgraph of G
        self._graph_class = G.__class__
        self._directed = G.is_directed()
        self._multigraph = G.is_multigraph()
        self._converted = {}  # attribute name (None: unweighted) -> CSRGraph
        self.__networkx_cache__ = {}

    def reversed(self):
        """The edge data of NetworkX's reversed view of G (``G.reverse(copy=False)``:
        the arc (v, u), with the data of G's edge (u, v), for each edge), converted
        afresh: a weight function is then called as weight(v, u, d)."""
        view = object.__new__(EdgeDataGraph)
        view.__dict__.update(self.__dict__, _adj=self._pred, _pred=self._adj, _converted={},
                             __networkx_cache__={})
        return view

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def networkx(self):
        """A NetworkX graph of G's class over these node, adjacency and graph dicts (no
        copy): what functions that return part of G (``ego_graph``) take
        ``subgraph(...).copy()`` of, as NetworkX does."""
        G = self._graph_class.__new__(self._graph_class)
        G.graph, G._node, G._adj = self.graph, self._node, self._adj
        if self._directed:
            G._succ, G._pred = self._adj, self._pred
        G.__networkx_cache__ = {}
        return G

    def __len__(self):
        return len(self._adj)

    def number_of_nodes(self):
        return len(self._adj)

    def __iter__(self):
        return iter(self._adj)

    def __contains__(self, node):
        try:
            return node in self._adj
        except TypeError:
            return False

    def number_of_edges(self):
        """G.number_of_edges(): parallel edges counted, an undirected edge once."""
        adj = self._adj
        if self._multigraph:
            total = sum(len(keys) for nbrs in adj.values() for keys in nbrs.values())
            loops = sum(len(nbrs[u]) for u, nbrs in adj.items() if u in nbrs)
        else:
            total = sum(map(len, adj.values()))
            loops = sum(1 for u, nbrs in adj.items() if u in nbrs)
        return total if self._directed else (total + loops) // 2

    def csr(self, weight):
        """The CSRGraph of ``weight``: a function's values (computed now, not kept), or
        an attribute's (None: unweighted), converted on first use and kept."""
        if callable(weight):
            return from_weight_function(self, weight)
        graph = self._converted.get(weight)
        if graph is None:
            graph = self._converted[weight] = from_networkx(self, weight)
        return graph

    def __repr__(self):
        kind = "directed" if self._directed else "undirected"
        return f"<EdgeDataGraph {kind}, {len(self._adj)} nodes>"


class HiddenEdgesGraph(CSRGraph):
    """A CSRGraph without G's hidden edges, those weighing None (an attribute valued None,
    or a weight function's None), which NetworkX's Dijkstra functions skip.

    ``hidden_edge``: the first hidden arc, as labels, else None; ``hidden_arcs``: how
    many. Whether G is connected is then ambiguous (NetworkX decides it on every edge in
    some functions, e.g. average_shortest_path_length and wiener_index, and on the
    visible ones in others), so ``connected`` refuses with NotImplementedError and
    NetworkX runs those calls; so do the functions that meet every edge as a number
    (Bellman-Ford, Floyd-Warshall: :func:`refuse_hidden_edges`), and the unweighted ones
    (their arcs are G's, hidden or not: see ``BackendInterface.convert_from_nx``).
    """

    hidden_edge = None
    hidden_arcs = 0

    @functools.cached_property
    def connected(self):
        if self.hidden_arcs:
            raise NotImplementedError(
                f"gpusp: edge {self.hidden_edge} weighs None (a hidden edge); NetworkX "
                "decides connectivity on all of G's edges in some functions and on the "
                "visible ones in others, so the call is left to NetworkX")
        return CSRGraph.connected.func(self)

    @functools.cached_property
    def reverse(self):
        """The transpose graph, which hides the same edges (reversed)."""
        g = CSRGraph.reverse.func(self)
        if g is not self and self.hidden_edge is not None:
            g.__class__ = HiddenEdgesGraph
            g.hidden_edge, g.hidden_arcs = self.hidden_edge[::-1], self.hidden_arcs
        return g

    @property
    def unit_weights(self):
        raise NotImplementedError(
            f"gpusp: this graph leaves out edge {self.hidden_edge} (it weighs None); an "
            "unweighted search needs every edge of G")


class WeightFunctionGraph(HiddenEdgesGraph):
    """A CSRGraph of one weight function's values, built for one call."""


def from_weight_function(G, weight):
    """The CSRGraph of ``weight(u, v, d)``, called once for every arc (u, v) of G in
    adjacency order with ``d = G[u][v]`` as NetworkX passes it (a multigraph's
    ``{key: attributes}`` dict; an undirected edge is called in each direction, as
    NetworkX's searches call it). An arc whose value is None is left out (NetworkX's
    hidden edge); the values are checked as attribute weights are
    (:func:`validate_weights`). An undirected graph whose two directions of an edge get
    different values (or one hidden) raises NotImplementedError: NetworkX uses each
    direction's own value, which an undirected CSRGraph cannot hold."""
    adj = adjacency(G)
    nodes = list(adj)
    n = len(nodes)
    heads, values = [], []
    for u, nbrs in adj.items():
        heads.extend(nbrs)
        values.extend([weight(u, v, d) for v, d in nbrs.items()])
    degrees = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    hidden_edge, hidden_arcs = None, values.count(None)
    if hidden_arcs:
        tails = np.repeat(np.arange(n, dtype=np.int64), degrees)
        hidden = np.fromiter((x is None for x in values), dtype=bool, count=len(values))
        first = int(np.flatnonzero(hidden)[0])
        hidden_edge = (nodes[int(tails[first])], heads[first])
        indptr = row_pointers(tails[~hidden], n)
        heads = [h for h, x in zip(heads, values) if x is not None]
        values = [x for x in values if x is not None]
    else:
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degrees, out=indptr[1:])
    identity = identity_labels(nodes)
    indices = _head_indices(nodes, heads, len(heads), identity)
    weights, float_arcs = validate_weights(values, indptr, indices, nodes)
    if not G.is_directed():
        _require_symmetric(indptr, indices, weights, nodes)
    graph = WeightFunctionGraph(
        indptr, indices, weights, nodes=None if identity else nodes,
        directed=G.is_directed(), multigraph=G.is_multigraph(), weighted=True,
        weight_attr="weight", graph_attrs=G.graph, number_of_edges=G.number_of_edges(),
        float_arcs=float_arcs)
    graph.hidden_edge, graph.hidden_arcs = hidden_edge, hidden_arcs
    return graph


def _require_symmetric(indptr, indices, weights, nodes, source="the weight function"):
    """NotImplementedError naming an edge whose two arcs differ (weight, or one absent),
    which ``source`` gave them."""
    n = len(indptr) - 1
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    forward = np.lexsort((indices, tails))  # arcs by (tail, head)
    backward = np.lexsort((tails, indices))  # by (head, tail): the reverse arcs, aligned
    differs = ((tails[forward] != indices[backward]) | (indices[forward] != tails[backward])
               | (weights[forward] != weights[backward]))
    if differs.any():
        u, v = _arc_label(int(forward[np.argmax(differs)]), indptr, indices, nodes)
        raise NotImplementedError(
            f"gpusp: {source} gives the undirected edge ({u!r}, {v!r}) a "
            "different value in each direction (or hides one of them); NetworkX uses each "
            "direction's own value, which gpusp's undirected graphs cannot hold, so the "
            "call is left to NetworkX")


def refuse_hidden_edges(graph):
    """NotImplementedError when an edge of ``graph`` weighs None (a weight function's
    value or the attribute's): NetworkX's Bellman-Ford and Floyd-Warshall functions need
    a number for every edge (they raise TypeError where they meet None, or give NaN),
    so NetworkX runs the call."""
    edge = getattr(graph, "hidden_edge", None)
    if edge is not None:
        raise NotImplementedError(
            f"gpusp: edge {edge} weighs None; NetworkX's Bellman-Ford and Floyd-Warshall "
            "functions need a number for every edge (they raise TypeError where they "
            "meet one, or give NaN), so the call is left to NetworkX")
