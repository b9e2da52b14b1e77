"""Shaping device results into what NetworkX returns.

Distances leave the device once, as NumPy arrays; dicts are built with ``tolist`` so
values are Python ints/floats (never NumPy scalars), keyed by node label, in
non-decreasing distance order (NetworkX's Dijkstra order).
"""

import numpy as np

from .graph import distance_inf
from .value_types import int_along_tree, ints_at, tight_tree

__all__ = ["HostSSSP", "to_host"]


class HostSSSP:
    """Host copy of an SSSPResult with the reached vertices in distance order."""

    def __init__(self, graph, dist, pred, sources):
        self.graph = graph
        self.dist = dist
        self.pred = pred
        self.sources = sources
        reached = np.flatnonzero(dist != distance_inf(dist.dtype))
        self.order = reached[np.argsort(dist[reached], kind="stable")]
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

    def lengths(self):
        """{label: distance} in non-decreasing distance order."""
        g = self.graph
        values = self.dist[self.order].tolist()
        ints = self._ints()
        if ints is not None:
            ints_at(values, np.flatnonzero(ints[self.order]))
        return dict(zip(g.labels(self.order), values))

    def length(self, idx):
        value = [self.dist[idx].item()]
        ints = self._ints()
        if ints is not None and ints[idx]:
            ints_at(value, [0])
        return value[0]

    def path(self, idx):
        """Labels from a source to ``idx`` along the predecessor tree."""
        pred = self.pred
        out = [idx]
        while pred[out[-1]] >= 0:
            out.append(int(pred[out[-1]]))
        return self.graph.labels(out[::-1])

    def paths(self):
        """{label: [labels...]} for every reached vertex, in distance order."""
        g = self.graph
        pred = self.pred
        by_depth = self.order[np.argsort(tree_depth(pred)[self.order], kind="stable")]
        labels = g.labels(by_depth)
        found = {}
        for v, p, lab in zip(by_depth.tolist(), pred[by_depth].tolist(), labels):
            found[v] = [lab] if p < 0 else found[p] + [lab]
        return dict(zip(g.labels(self.order), (found[v] for v in self.order.tolist())))


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


def to_host(graph, result, *, cutoff=None):
    ex = result.executor
    dist = ex.to_host(result.dist)
    if cutoff is not None:
        dist = dist.copy()
        dist[dist > cutoff] = distance_inf(dist.dtype)
    pred = None if result.pred is None else ex.to_host(result.pred)
    return HostSSSP(graph, dist, pred, result.sources)
