"""NetworkX graph <-> CSRGraph.

``from_networkx`` reads ``G._adj`` once: node order is ``G``'s, arcs keep adjacency
order, multigraph parallel edges collapse to their minimum weight (NetworkX's own
multigraph weight function), a missing attribute takes ``default``. Weights are checked
here, once, so every algorithm can trust them.
"""

import decimal
import itertools
import numbers

import networkx as nx
import numpy as np

from .graph import CSRGraph

__all__ = ["from_networkx", "to_networkx", "validate_weights"]


def from_networkx(G, weight=None, default=1, *, graph_attrs=True):
    """Convert a NetworkX graph; ``weight=None`` gives an unweighted (all-ones) graph."""
    adj = G._adj
    nodes = list(adj)
    n = len(nodes)
    identity = all(type(v) is int and v == i for i, v in enumerate(nodes))
    degrees = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degrees, out=indptr[1:])
    m = int(indptr[-1])
    heads = itertools.chain.from_iterable(adj.values())
    if identity:
        indices = np.fromiter(heads, dtype=np.int64, count=m)
    else:
        index = {v: i for i, v in enumerate(nodes)}
        indices = np.fromiter(map(index.__getitem__, heads), dtype=np.int64, count=m)
    float_arcs = defaulted_arcs = None
    if weight is None:
        weights = np.ones(m, dtype=np.int64)
    else:
        datas = itertools.chain.from_iterable(nbrs.values() for nbrs in adj.values())
        if G.is_multigraph():
            values = [min((d.get(weight, default) for d in keydict.values()), default=_MISSING)
                      if any(weight in d for d in keydict.values()) else _MISSING
                      for keydict in datas]
        else:
            values = [d.get(weight, _MISSING) for d in datas]
        if values.count(_MISSING):  # C-speed identity count; a second pass only here
            defaulted_arcs = np.fromiter((v is _MISSING for v in values), dtype=bool, count=m)
            values = [default if v is _MISSING else v for v in values]
        weights, float_arcs = validate_weights(values, indptr, indices, nodes)
    return CSRGraph(indptr, indices, weights, nodes=None if identity else nodes,
                    directed=G.is_directed(), multigraph=G.is_multigraph(),
                    weighted=weight is not None, weight_attr=weight,
                    graph_attrs=G.graph if graph_attrs else None, float_arcs=float_arcs,
                    defaulted_arcs=defaulted_arcs)


# a missing weight attribute while reading (then the default; Floyd-Warshall's is 1.0)
_MISSING = object()


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
    sums in their own precision), and infinite weights.
    """
    m = len(values)
    if m == 0:
        return np.zeros(0, dtype=np.int64), None
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(values, dtype=object)
    kind = arr.dtype.kind
    if kind in "bi":  # every value an integer that fits int64 (numpy picked int64)
        return arr.astype(np.int64), None
    if kind == "u" and arr.max() <= INT64_MAX:
        return arr.astype(np.int64), None
    types = set(map(type, values))
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


def _refuse(values, t, indptr, indices, nodes):
    """Raise the error for the first weight of type ``t``."""
    pos = next(i for i, val in enumerate(values) if type(val) is t)
    val = values[pos]
    edge = _arc_label(pos, indptr, indices, nodes)
    if issubclass(t, np.floating):
        raise NotImplementedError(
            f"gpusp: edge {edge} weight {val!r} is a numpy {t.__name__}; NetworkX sums such "
            "weights in their own precision, gpusp in float64")
    if issubclass(t, (numbers.Real, decimal.Decimal)):
        raise NotImplementedError(
            f"gpusp: edge {edge} weight {val!r} is a {t.__name__}; exact arithmetic on it "
            "is not supported")
    raise TypeError(f"edge {edge} has non-numeric weight {val!r} ({t.__name__})")


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
