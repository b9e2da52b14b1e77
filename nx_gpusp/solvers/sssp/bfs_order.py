"""NetworkX's visiting order of a breadth-first search, from the search's levels.

NetworkX's queue (``generic_bfs_edges``, ``bfs_layers``) takes the vertices of level
L in order and, for each, its neighbours in adjacency order, keeping a neighbour the
first time it is met. So a vertex v of level L + 1 is discovered by the earliest
vertex of level L (in level L's order) with an arc to v, and level L + 1 is ordered by
(that parent's position, the arc's position in the parent's row).

Given the levels (any "bfs" method), one pass per level finds that order with array
operations (``xp``: CuPy on a GPU, NumPy on the twin): the out-arcs of level L's
vertices are listed in level order and row order (a segmented expansion of the CSR
rows), those reaching level L + 1 are kept, and each head keeps its first occurrence
(one sort of ``head * arcs + position``). A level costs a few launches and one read
of its size on the host; the whole pass reads each arc of the searched levels once.
"""

import numpy as np

__all__ = ["visit_order"]


def first_occurrences(xp, heads):
    """Positions of the first occurrence of each distinct value of ``heads`` (an int64
    array), in increasing order."""
    k = len(heads)
    key = heads * k + xp.arange(k, dtype=np.int64)
    o = xp.argsort(key)
    hs = heads[o]
    start = xp.ones(k, dtype=bool)
    start[1:] = hs[1:] != hs[:-1]
    return xp.sort(o[start])


def visit_order(ex, graph, levels, first):
    """(order, parent, sizes): the vertices reached by a search whose int32 ``levels``
    (``UNSEEN``: unreached) start at the vertices ``first`` (int64, in the order the
    queue holds them), in NetworkX's queue order, with the parent that discovered each
    one (-1 for the first level) as device int64 arrays, and the host list of the
    levels' sizes."""
    xp = ex.xp
    g = graph.on(ex)
    indptr, indices = g.indptr, g.indices
    cur = xp.asarray(first, dtype=np.int64)
    orders, parents, sizes = [cur], [xp.full(len(cur), -1, dtype=np.int64)], [len(cur)]
    level = 0
    while len(cur):
        starts = indptr[cur]
        degree = indptr[cur + 1] - starts
        ends = xp.cumsum(degree)
        total = int(ends[-1])
        if total == 0:
            break
        slot = xp.arange(total, dtype=np.int64)
        owner = xp.searchsorted(ends, slot, side="right")
        arcs = starts[owner] + (slot - (ends - degree)[owner])
        heads = indices[arcs].astype(np.int64)
        keep = levels[heads] == level + 1
        heads, owner = heads[keep], owner[keep]
        if len(heads) == 0:
            break
        firsts = first_occurrences(xp, heads)
        parent = cur[owner[firsts]]
        cur = heads[firsts]
        orders.append(cur)
        parents.append(parent)
        sizes.append(len(cur))
        level += 1
    return xp.concatenate(orders), xp.concatenate(parents), sizes

