"""NetworkX's number types for equal values.

NetworkX adds weights as Python numbers along each path, from its sources at the int 0:
a distance is an int when every weight on its path is one, else a float. Floyd-Warshall
takes a missing weight attribute (and ``weight=None``) as 1.0 where the other functions
take 1, and starts every diagonal entry at the int 0. gpusp computes in int64 or
float64; these helpers say which results NetworkX holds as ints, so that a float64
distance can be returned as ``0`` or ``3`` and an int64 one as ``2.0`` where NetworkX's
would be.

The masks follow gpusp's own shortest paths; where an int path and a float path tie,
NetworkX may have found the other one. Of a multigraph's parallel edges, NetworkX's
searches read the least weight, the first of equal ones, and its Floyd-Warshall the
last of equal ones (a missing weight is 1.0 there): the arc's type is that edge's.

NumPy weights: np.int64 and np.float64 are summed as NetworkX sums them. Weights whose
sums NetworkX does in another NumPy type are declined (NotImplementedError, so
automatic dispatch runs NetworkX, and a call with backend="gpusp" raises it), as
float16, float32 and longdouble are (nx_gpusp.convert): integers narrower than 64 bits
(int8 to uint32, whose sums wrap: np.int8(100) + np.int8(100) is -56), NumPy bools
(np.True_ + np.True_ is np.True_), and np.uint64 beside a signed NumPy integer (the sum
is a float64) or a negative weight (OverflowError): :func:`numpy_sums_differ`.
"""

import math

import numpy as np

from .graph import source_indices

__all__ = ["int_arcs", "arc_keys", "arc_ids", "int_along_tree", "tight_tree", "int_along_rows", "ints_at",
           "as_python_numbers", "python_number", "numpy_sums_differ"]


def int_arcs(graph, *, floyd_warshall=False):
    """Per arc, whether NetworkX adds its weight as an int: a bool array, or one bool
    when every arc agrees."""
    if not graph.weighted:
        return not floyd_warshall
    ints = (~graph.float_arcs if graph.float_arcs is not None
            else graph.weights.dtype.kind != "f")
    if floyd_warshall and graph.floyd_warshall_floats is not None:
        ints = ~graph.floyd_warshall_floats
    if isinstance(ints, np.ndarray) and graph.m and (ints.all() or not ints.any()):
        ints = bool(ints[0])
    return ints


def arc_keys(xp, indptr, indices):
    """(sorted keys tail * n + head, the arc index of each) of the CSR arrays
    ``indptr``, ``indices`` of the array module ``xp`` (NumPy or CuPy): what
    :func:`arc_ids` searches."""
    n = len(indptr) - 1
    arc_tails = xp.searchsorted(indptr, xp.arange(len(indices)), side="right") - 1
    keys = arc_tails * n + indices.astype(np.int64)
    order = xp.argsort(keys)  # keys are unique: any sort
    return keys[order], order


def arc_ids(xp, indptr, indices, tails, heads, keys=None):
    """Arc index of each (tail, head) pair (every pair an arc; arcs are unique) in the
    CSR arrays ``indptr``, ``indices`` of ``xp``; ``keys``: their :func:`arc_keys`,
    where the caller looks up more than once."""
    sorted_keys, order = arc_keys(xp, indptr, indices) if keys is None else keys
    n = len(indptr) - 1
    return order[xp.searchsorted(sorted_keys, tails.astype(np.int64) * n + heads)]


def int_along_tree(graph, pred, sources):
    """Per vertex, whether NetworkX's distance is an int, along the predecessor tree
    ``pred`` (host int array, -1 at roots; None: only the sources are known): the
    sources are (the int 0), other vertices when every arc on their tree path is. None
    when the distance dtype already says (every arc an int)."""
    ints = int_arcs(graph)
    if ints is True:
        return None
    n = graph.n
    root = np.zeros(n, dtype=bool)
    root[np.asarray(sources, dtype=np.int64)] = True
    if ints is False or pred is None:
        return root
    has = pred >= 0
    ok = root.copy()  # a vertex the tree does not reach: its path is unknown, a float
    v = np.flatnonzero(has)
    ok[v] = ints[arc_ids(np, graph.indptr, graph.indices, pred[v], v)]
    anc = np.where(has, pred, np.arange(n))
    for _ in range(max(1, int(n).bit_length())):
        ok &= ok[anc]
        anc = anc[anc]
    return ok | root


def tight_tree(graph, dist, sources):
    """A host predecessor tree of the final distances (breadth-first over the tight
    arcs, dist[u] + w == dist[v], each vertex claimed once): the paths whose types
    decide, for results computed without predecessors."""
    n = graph.n
    pred = np.full(n, -1, dtype=np.int64)
    seen = np.zeros(n, dtype=bool)
    level = source_indices(sources)
    seen[level] = True
    arc_tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    while len(level):
        on = np.isin(arc_tails, level)
        tails, heads = arc_tails[on], graph.indices[on].astype(np.int64)
        with np.errstate(over="ignore"):  # float sums past the maximum: inf
            tight = ~seen[heads] & (dist[tails] + graph.weights[on] == dist[heads])
        heads, first = np.unique(heads[tight], return_index=True)
        pred[heads] = tails[tight][first]
        seen[heads] = True
        level = heads
    return pred


def int_along_rows(graph, p):
    """n x n: whether NetworkX's Floyd-Warshall distance d[i][j] is an int, along the
    predecessor matrix ``p`` (host; None where every arc agrees): the diagonal is. None
    when the distance dtype already says."""
    ints = int_arcs(graph, floyd_warshall=True)
    n = graph.n
    # the diagonal: NetworkX's int 0, unless a self-loop of weight 0.0 took its place
    # (min(0.0, 0) is 0.0)
    arc_tails = np.repeat(np.arange(n), np.diff(graph.indptr))
    loops = (arc_tails == graph.indices) & (graph.weights == 0)
    loops &= ~np.broadcast_to(ints, (graph.m,))
    eye = np.eye(n, dtype=bool)
    eye[arc_tails[loops], arc_tails[loops]] = False
    if ints is True and graph.weights.dtype.kind != "f":
        return None
    if not isinstance(ints, np.ndarray):
        return eye | (ints & ~np.eye(n, dtype=bool))
    arc = np.ones((n, n), dtype=bool)
    arc[arc_tails, graph.indices] = ints
    cols = np.arange(n)
    has = (p >= 0) & ~np.eye(n, dtype=bool)
    ok = np.where(has, arc[np.where(has, p, 0), cols[None, :]], True)
    anc = np.where(has, p, cols[None, :])
    for _ in range(max(1, int(n).bit_length())):
        ok &= np.take_along_axis(ok, anc, axis=1)
        anc = np.take_along_axis(anc, anc, axis=1)
    diagonal = np.eye(n, dtype=bool)
    return np.where(diagonal, eye, ok)


def ints_at(values, positions):
    """Make the whole numbers among ``values`` (floats from ``tolist``) at ``positions``
    ints, in place (only those positions are visited)."""
    for k in np.asarray(positions).tolist():
        if values[k].is_integer():
            values[k] = int(values[k])
    return values


def as_python_numbers(values, ints):
    """``values`` (a list from ``tolist``) with ints where ``ints`` (bools) says, floats
    elsewhere. A finite value the mask calls an int is rounded to the nearest: the sum
    of an int-only path, exact but for the rounding of Floyd-Warshall's reweighted sums
    (graph.reweighted_ints_exact bounds it below 1/2); inf and NaN stay floats."""
    return [python_number(v, i) for v, i in zip(values, ints)]


def python_number(v, is_int):
    """One value of :func:`as_python_numbers`."""
    return int(round(v)) if is_int and math.isfinite(v) else float(v)


# NumPy integer types NetworkX's sums keep (0 + np.int8(100) is np.int8(100)), where they
# wrap beyond a range gpusp's int64 sums never leave (np.int8(100) + np.int8(100) is -56)
NARROW_INTEGERS = (np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32)


def numpy_sums_differ(types, values):
    """The first of the weight ``types`` whose sums NetworkX does in NumPy's arithmetic,
    which gpusp's int64/float64 sums would not reproduce, or None: an integer type
    narrower than 64 bits (sums wrap), NumPy's bool (np.True_ + np.True_ is np.True_),
    np.uint64 beside a signed NumPy integer (their sum is a float64) or a negative
    weight (NumPy raises OverflowError). ``values``: the weights, read only for the
    last case."""
    for t in types:
        if issubclass(t, NARROW_INTEGERS + (np.bool_,)):
            return t
    if np.uint64 in types and (
            any(issubclass(t, np.signedinteger) for t in types)
            or any(v < 0 for v in values)):
        return np.uint64
    return None
