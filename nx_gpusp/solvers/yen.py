"""Yen's k shortest loopless paths (J. Y. Yen, Management Science 17(11), 1971), as
NetworkX's ``shortest_simple_paths`` runs it, with each round's spur searches on the
device as one batch.

The host keeps NetworkX's loop: the accepted paths (list A), the candidates (a heap of
(cost, counter, path) that keeps the first copy of a path, NetworkX's PathBuffer), and
the rounds, each taking the last accepted path P and searching, for every spur
position j, from P[j] to the target without the root P[:j] and without the first arcs
(P[j], Q[j + 1]) of the accepted paths Q that share the root P[:j + 1]. Those searches
are independent: kernels/yen.cu runs them as the rows of one batched frontier
Bellman-Ford (row j removes the vertices at positions up to j on P, one int32 per
vertex for the whole batch, and starts from the spur's allowed out-arcs), in batches
sized to free memory. A row's spur path is the walk back from the target along the
row's predecessors, each vertex's the least tail among the arcs tight in the round that
last lowered it: a deterministic choice among equally short spur paths, where NetworkX's
bidirectional searches may pick another.
"""

import heapq
import itertools

import numpy as np

from ..graph import distance_inf
from ..ops.yen import OFF_PATH
from .apsp import batch_size
from .apsp.batched import entry_bytes

__all__ = ["k_shortest_simple_paths", "spur_searches"]


def spur_searches(ex, graph, prefix, target, banned, *, batch=None):
    """For every spur position j of ``prefix`` (vertex indices of a simple path that does
    not hold ``target``): (length, path from prefix[j] to target as a list of indices) of
    a shortest path that avoids prefix[:j], leaves prefix[j] by an arc whose head is not
    in ``banned[j]`` and never comes back to it; None where there is none. Weights must
    not be negative."""
    n, count = graph.n, len(prefix)
    root_pos = np.full(n, OFF_PATH, dtype=np.int32)
    root_pos[np.asarray(prefix, dtype=np.int64)] = np.arange(count, dtype=np.int32)
    b = batch_size(ex, graph, count, entry_bytes(graph.distance_dtype()),
                   "spur search state", batch)
    device_root_pos = ex.asarray(root_pos)
    found = []
    for start in range(0, count, b):
        stop = min(count, start + b)
        found += _spur_batch(ex, graph, prefix, target, banned, root_pos, device_root_pos,
                             start, stop)
    return found


def _spur_batch(ex, graph, prefix, target, banned, root_pos, device_root_pos, start, stop):
    """spur_searches' rows start..stop-1, as one batch on the device."""
    xp, n, rows = ex.xp, graph.n, stop - start
    dtype = graph.distance_dtype()
    inf = distance_inf(dtype)
    ops, snapshot = ex.ops("yen"), ex.ops("apsp_batched")
    g = graph.on(ex)

    # each row's first arcs: its spur's out-arcs to kept heads outside banned[j]
    ids, first, tails = [], [], []
    for r, j in enumerate(range(start, stop)):
        u = prefix[j]
        lo, hi = int(graph.indptr[u]), int(graph.indptr[u + 1])
        heads = graph.indices[lo:hi]
        keep = root_pos[heads] > j
        if banned[j]:
            keep &= ~np.isin(heads, np.fromiter(banned[j], dtype=np.int64))
        ids.append(r * n + heads[keep].astype(np.int64))
        first.append(graph.weights[lo:hi][keep])
        tails.append(np.full(int(keep.sum()), u, dtype=np.int32))
    ids, first, tails = np.concatenate(ids), np.concatenate(first), np.concatenate(tails)
    size = len(ids)

    dist = xp.full(rows * n, inf, dtype=dtype)
    pred = xp.full(rows * n, -1, dtype=np.int32)
    lowered = xp.full(rows * n, -1, dtype=np.int32)
    frontier = xp.empty(max(rows * n, 1), dtype=np.int64)
    next_frontier = xp.empty_like(frontier)
    frontier_dist = xp.empty(max(rows * n, 1), dtype=dtype)
    next_dist = xp.empty_like(frontier_dist)
    next_size = xp.zeros(1, dtype=np.uint64)
    device_ids = ex.asarray(ids)
    dist[device_ids] = ex.asarray(first)
    pred[device_ids] = ex.asarray(tails)
    frontier[:size] = device_ids
    frontier_dist[:size] = ex.asarray(first)
    limit = ex.asarray(np.arange(start, stop, dtype=np.int32))
    at_target = dist.reshape(rows, n)[:, target]
    bound = at_target.copy()

    round_ = 0
    while size:
        round_ += 1
        if round_ > n + 1:  # unreachable with non-negative weights
            raise RuntimeError("gpusp: spur searches did not settle in n rounds")
        next_size[0] = 0
        ops.relax_spur_frontier(g, frontier, frontier_dist, size, device_root_pos, limit,
                                bound, dist, lowered, round_, pred, next_frontier, next_size)
        ops.record_spur_predecessors(g, frontier, frontier_dist, size, device_root_pos,
                                     limit, dist, lowered, round_, pred)
        size = int(next_size[0])
        snapshot.snapshot_batch_frontier(next_frontier, size, dist, next_dist)
        frontier, next_frontier = next_frontier, frontier
        frontier_dist, next_dist = next_dist, frontier_dist
        bound[...] = at_target

    length = xp.zeros(rows, dtype=np.int32)
    ops.walk_spur_paths(pred, n, rows, target, lowered, length)  # lowered: the walks' room
    counts = ex.to_host(length).tolist()
    lengths = ex.to_host(at_target).tolist()
    walks = ex.to_host(lowered.reshape(rows, n)[:, :max(counts, default=0)])
    return [(lengths[r], walks[r, :k][::-1].tolist()) if k else None
            for r, k in enumerate(counts)]


def arc_weight(graph, u, v):
    """The weight of the arc (u, v), as a Python number."""
    lo, hi = int(graph.indptr[u]), int(graph.indptr[u + 1])
    return graph.weights[lo + int(np.flatnonzero(graph.indices[lo:hi] == v)[0])].item()


def k_shortest_simple_paths(ex, graph, source, target, *, batch=None):
    """Generator of the simple paths from ``source`` to ``target`` (vertex indices;
    lists of indices), shortest first, in NetworkX's candidate order (see the module's
    notes); nothing where the target is not reachable. Weights must not be negative."""
    if source == target:
        yield [source]
        return
    found = spur_searches(ex, graph, [source], target, [()], batch=batch)[0]
    if found is None:
        return
    accepted = []  # list A
    candidates, queued, counter = [], set(), itertools.count()  # NetworkX's PathBuffer
    path = tuple(found[1])
    while True:
        yield list(path)
        accepted.append(path)
        prefix = path[:-1]
        banned = [set() for _ in prefix]
        for other in accepted:  # other[:j + 1] == path[:j + 1]: its arc out of path[j]
            for j in range(len(prefix)):
                if other[j] != path[j]:
                    break
                banned[j].add(other[j + 1])
        root_length = 0
        for j, spur in enumerate(spur_searches(ex, graph, prefix, target, banned,
                                               batch=batch)):
            if spur is not None:
                cost = root_length + spur[0]
                candidate = path[:j] + tuple(spur[1])
                if candidate not in queued:
                    heapq.heappush(candidates, (cost, next(counter), candidate))
                    queued.add(candidate)
            if j + 1 < len(prefix):
                root_length = root_length + arc_weight(graph, path[j], path[j + 1])
        if not candidates:
            return
        path = heapq.heappop(candidates)[2]
        queued.remove(path)
