"""Brandes' betweenness, many sources a batch: path counts sigma forward in
non-decreasing distance, dependencies delta backward in reverse, summed over the
sources on the device (kernels/brandes.cu; U. Brandes, J. Math. Sociology 2001, and
"On Variants of Shortest-Path Betweenness Centrality", Social Networks 2008).

Hop counts (``weight=None``, or every weight 1): a batch of sources shares one
level-synchronous BFS over a vertex-major n x width block (a warp: 32 sources of one
vertex), a launch per level forward (distances and sigma together) and backward.
Weights: the batch's distances come from an all-pairs method (batched-spmm's min-plus
rounds, phast-batched on integer weights, ...), each row is sorted by distance on the
device (a counting sort a row, brandes_row_order), and a warp per source walks its row
in that order, forward then backward, up to 32 vertices a step: those before the first
with a tight arc to a vertex of the same step or later (each arc tested for tightness
with the comparison NetworkX's Dijkstra makes, dist[u] + w == dist[v]). That needs
weights whose sums never tie by rounding into a cycle: every weight positive and none
absorbed by a sum (w > path bound * 2**-53), :func:`declined_weights`. Per-arc sums
are added by a thread per arc over the batch's sources in order, and each vertex's
dependencies one source after another (ops.brandes.add_in_order): the same bits every
run, whatever the batches' sizes.

Mode LOAD: Newman's load (NetworkX's load_centrality): the same passes, each reached
vertex handing 1 plus the load it received in equal parts to its tight predecessors
(none when the source is one of them), delta the load received; ``cutoff`` bounds the
distances reached.

Only per-vertex (and per-arc) sums cross to the host: :class:`Dependencies`.
"""

import math
from dataclasses import dataclass

import numpy as np

from ...graph import distance_inf, mark_unreached
from ...methods import get_method
from ...ops.brandes import BRANDES, EDGE_SUBSET, LOAD, SUBSET, UNSEEN
from . import batch_size
from .measures import measure_method

__all__ = ["Dependencies", "dependencies", "declined_weights", "hop_counts",
           "BRANDES", "SUBSET", "EDGE_SUBSET", "LOAD"]

WARP = 32
LEVEL_BYTES = 4 + 8 + 8  # a (vertex, source) entry: level, sigma, delta (+4: npred)
ORDERED_BYTES = 8 + 8 + 4 + 8 + 8  # distance, an argsort's index, order, sigma, delta
FLOAT_DIGITS = 53


@dataclass
class Dependencies:
    """Sums over a set of sources, on the host: ``vertex[v]`` of delta_s(v) over the
    sources s != v; ``arcs[a]`` (or None) of arc a's shares; ``reached[v]`` the sources
    s != v reaching v; ``source_reached[k]`` the vertices source k reaches, itself
    included."""

    vertex: np.ndarray
    arcs: np.ndarray | None
    reached: np.ndarray
    source_reached: np.ndarray

    @classmethod
    def joined(cls, parts):
        """The sums of consecutive shares of the sources (``parts``, in source order)."""
        parts = list(parts)
        return cls(sum(p.vertex for p in parts),
                   None if parts[0].arcs is None else sum(p.arcs for p in parts),
                   sum(p.reached for p in parts),
                   np.concatenate([p.source_reached for p in parts]))


def hop_counts(graph):
    """Whether BFS levels answer: an unweighted graph, or every weight exactly 1."""
    return not graph.weighted or graph.m == 0 or (
        graph.min_weight == 1 and graph.max_weight == 1)


def declined_weights(graph):
    """Why gpusp leaves weighted betweenness on ``graph`` to NetworkX, or None: a weight
    <= 0 (NetworkX's path counts then follow its heap's order; a zero-weight cycle
    counts paths without end), or a float weight so small that adding it to a distance
    could leave the distance unchanged (a tie NetworkX counts by its order of visits)."""
    if hop_counts(graph):
        return None
    if graph.min_weight <= 0:
        return (f"weight {graph.min_weight} <= 0: NetworkX's path counts then depend on "
                "its search order")
    if graph.distance_dtype().kind == "f" and \
            float(graph.min_weight) * 2.0 ** FLOAT_DIGITS <= float(graph.path_bound):
        return (f"float weight {graph.min_weight} below the rounding of the longest "
                "distances: a sum could absorb it")
    return None


def dependencies(ex, graph, sources, *, mode=BRANDES, targets=None, arcs=False,
                 npred=None, cutoff=None, method=None, options=None):
    """:class:`Dependencies` of ``sources`` (host vertex indices, repeats counted
    again). ``mode``: BRANDES, SUBSET, EDGE_SUBSET or LOAD; ``targets``: host bool
    n-mask of the subset modes' targets; ``arcs``: also sum per arc; ``cutoff`` (LOAD):
    a number, only vertices at distance <= cutoff are reached (None: all; a source
    always reaches itself); ``method``/``options``: the all-pairs method of weighted
    distances (None: auto)."""
    sources = np.asarray(sources, dtype=np.int64)
    n, m = graph.n, graph.m
    out = Dependencies(np.zeros(n), np.zeros(m) if arcs else None,
                       np.zeros(n, dtype=np.int64), np.zeros(len(sources), dtype=np.int64))
    if n == 0 or len(sources) == 0:
        return out
    if cutoff is not None and (math.isnan(cutoff) or cutoff == math.inf):
        cutoff = None
    state = _Sums(ex, graph, mode, targets, arcs,
                  None if cutoff is None else max(cutoff, 0))
    if hop_counts(graph):
        _levels(ex, graph, sources, state, out)
    else:
        _ordered(ex, graph, sources, state, out, method, options or {})
    out.vertex = ex.to_host(state.vertex)
    if arcs:
        out.arcs = ex.to_host(state.arcs)
    out.reached = ex.to_host(state.reached)
    return out


class _Sums:
    """The device accumulators and the arguments every batch shares (``cutoff``: LOAD's
    distance limit, None or a number >= 0)."""

    def __init__(self, ex, graph, mode, targets, arcs, cutoff):
        xp = ex.xp
        self.mode = mode
        self.cutoff = cutoff
        self.target = None if targets is None else ex.asarray(
            np.asarray(targets, dtype=np.uint8))
        self.track_npred = mode in (EDGE_SUBSET, LOAD)
        self.gate_source = mode == LOAD
        self.vertex = xp.zeros(graph.n)
        self.reached = xp.zeros(graph.n, dtype=np.int64)
        self.arcs = xp.zeros(graph.m) if arcs else None


def _levels(ex, graph, sources, state, out):
    xp, ops, n = ex.xp, ex.ops("brandes"), graph.n
    g = graph.on(ex)
    entry = LEVEL_BYTES + (4 if state.track_npred else 0)
    b = batch_size(ex, graph, len(sources), entry, "betweenness state")
    if b > WARP:
        b -= b % WARP
    more = xp.zeros(1, dtype=np.int32)
    for start in range(0, len(sources), b):
        chunk = sources[start:start + b]
        count = len(chunk)
        width = -(-count // WARP) * WARP
        cols = ex.asarray(np.arange(count, dtype=np.int64))
        at = ex.asarray(chunk) * width + cols
        dist = xp.full(n * width, UNSEEN, dtype=np.int32)
        sigma = xp.zeros(n * width)
        npred = xp.zeros(n * width, dtype=np.int32) if state.track_npred else None
        dist[at] = 0
        sigma[at] = 1.0
        level = 0
        while state.cutoff is None or level + 1 <= state.cutoff:
            more[:] = 0
            ops.levels_forward(g, width, level, dist, sigma, npred, more,
                               gate_source=state.gate_source)
            if not int(ex.to_host(more)[0]):
                break
            level += 1
        delta = xp.zeros(n * width)
        for lv in range(level, -1, -1):
            ops.levels_backward(g, width, lv, dist, sigma, delta, state.mode, state.target,
                                npred)
        if state.arcs is not None:
            ops.levels_arcs(g, width, count, dist, sigma, delta, state.mode, state.target,
                            npred, state.arcs)
        del sigma, npred
        delta[at] = 0.0  # a source's own dependency is no betweenness
        ops.add_in_order(delta, count, n, 1, width, state.vertex)
        del delta
        seen = (dist != UNSEEN).reshape(n, width)
        state.reached += seen.sum(axis=1)
        out.source_reached[start:start + count] = ex.to_host(seen.sum(axis=0))[:count]
    state.reached -= ex.asarray(np.bincount(sources, minlength=n))


def _ordered(ex, graph, sources, state, out, method, options):
    xp, ops, n = ex.xp, ex.ops("brandes"), graph.n
    dtype = graph.distance_dtype()
    inf = distance_inf(dtype)
    m = measure_method(graph, method, sources=len(sources))
    opts = m.check_options(options)
    entry = ORDERED_BYTES + (4 if state.track_npred else 0)
    if "batch" in m.options and opts.get("batch") is None:
        opts["batch"] = batch_size(ex, graph, len(sources), entry + dtype.itemsize,
                                   "betweenness state")
    g, rg = graph.on(ex), graph.reverse.on(ex)
    weights, rweights = graph.weights_as(ex, dtype), graph.reverse.weights_as(ex, dtype)
    done = 0
    for batch in get_method("all-pairs", m.name).solver(ex, graph, sources, cutoff=None,
                                                       want_pred=False, **opts):
        count = len(batch.sources)
        dist = _as_distances(xp, batch.dist[:count, :n], dtype)
        del batch
        if state.cutoff is not None:
            dist = dist.copy()  # the method's rows may be kept (a cache)
            dist[dist > _distance_bound(state.cutoff, dtype)] = inf
        flat = dist.reshape(-1)
        order = xp.empty(count * n, dtype=np.int32)
        reached = xp.empty(count, dtype=np.int64)
        ops.row_order(count, n, flat, order, reached)
        dev_sources = ex.asarray(sources[done:done + count])
        sigma = xp.zeros(count * n)
        npred = xp.zeros(count * n, dtype=np.int32) if state.track_npred else None
        ops.ordered_forward(rg, rweights, count, dev_sources, flat, order, reached, sigma,
                            npred, gate_source=state.gate_source)
        delta = xp.zeros(count * n)
        ops.ordered_backward(g, weights, count, flat, order, reached, sigma, delta,
                             state.mode, state.target, npred)
        del order
        if state.arcs is not None:
            ops.ordered_arcs(g, weights, count, flat, sigma, delta, state.mode,
                             state.target, npred, state.arcs)
        del sigma, npred
        delta[xp.arange(count) * n + dev_sources] = 0.0
        ops.add_in_order(delta, count, n, n, 1, state.vertex)
        del delta
        state.reached += (dist != inf).sum(axis=0)
        out.source_reached[done:done + count] = ex.to_host(reached)
        done += count
    state.reached -= ex.asarray(np.bincount(sources, minlength=n))


def _distance_bound(cutoff, dtype):
    """``cutoff`` (a number >= 0, finite) as a ``dtype`` bound b with distance d > b
    exactly where d > cutoff (NetworkX's test, with Python's exact comparison)."""
    if dtype.kind in "iu":
        return min(math.floor(cutoff), int(np.iinfo(dtype).max))
    bound = float(cutoff)
    if bound > cutoff:  # an int rounded up: the next float below is the bound
        bound = math.nextafter(bound, 0.0)
    return bound


def _as_distances(xp, d, dtype):
    """Distances ``d`` (maybe a narrower storage type) as contiguous ``dtype``, with
    that type's "unreached"."""
    if d.dtype == dtype:
        return xp.ascontiguousarray(d)
    return mark_unreached(d.astype(dtype), d, distance_inf(dtype))
