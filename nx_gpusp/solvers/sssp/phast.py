"""PHAST over a contraction hierarchy (method "phast"): a road graph preprocessed once,
then each query is two sweeps over its levels (Delling, Goldberg, Nowatzyk and
Werneck, "PHAST: Hardware-Accelerated Shortest Path Trees", IPDPS 2011; the hierarchy
of Geisberger, Sanders, Schultes and Delling, "Contraction Hierarchies", WEA 2008).

Preprocessing: the contraction hierarchy of contraction.py (built with the query's
executor, on the GPU or the host; cached on the CSRGraph, so it is paid once per
converted graph and amortised over its queries).

A query: dist = 0 at the sources; the upward sweep pulls each level's vertices from
their in-arcs from lower levels, level by level, and then the core's; the core's
matrix settles the core (min over i of dist[i] + D[i][j]); the downward sweep pulls
each level, from the top, from its in-arcs from higher levels and the core. A shortest
path of the hierarchy climbs, may cross the core, and descends, so both sweeps and the
matrix give every distance. On the device (kernels/phast.cu) the distances are kept by
position in the level order, in int32 where every sum fits (Hierarchy.sweep_dtype),
with the in-arcs cut into segments of one head, one thread a segment (the layout of
phast-batched with one column); the many small levels at the top of the hierarchy are
swept by one block with a barrier between levels, and the whole query is recorded once
as a CUDA graph: a query costs the host one graph launch. Integer weights only: a shortcut adds its arcs' weights
before the path's distance, which float addition would round differently from
NetworkX's left-to-right sums. Paths come from the tight-arc tree of the distances.

Once a graph holds the hierarchy of the default core size, method "auto" runs PHAST
for its calls without a cutoff (methods._auto_sssp): the preprocessing is paid, and a
query is two sweeps.
"""

import threading
from types import SimpleNamespace

import numpy as np

from ...graph import distance_inf
from ...methods import method, require_integer_weights
from . import SSSPResult, init_sources
from .contraction import (CORE_SIZE, MAX_CORE, Hierarchy, _hierarchy,
                          contraction_hierarchy, hierarchy_built)

__all__ = ["phast_sssp", "Hierarchy", "contraction_hierarchy", "hierarchy_built"]


def _check_core_size(core_size):
    if isinstance(core_size, bool) or not isinstance(core_size, (int, np.integer)) \
            or not 0 <= core_size <= MAX_CORE:
        raise ValueError(f"phast: core_size must be an integer in 0..{MAX_CORE}, got "
                         f"{core_size!r}")
    return int(core_size)


@method(name="phast", problem="sssp",
        summary="PHAST: a contraction hierarchy built once per graph (rounds of "
                "independent vertices, a core left whole with its distance matrix), "
                "then per query an upward and a downward sweep over its levels",
        paper="Delling et al. 2011 (PHAST) over Geisberger et al. 2008 (contraction "
              "hierarchies)",
        tree_from_distances=True,
        integer_weights_only=True,
        prepared=hierarchy_built,
        options={"core_size": (CORE_SIZE, "vertices left uncontracted at the top, their "
                                          "all-pairs distances kept as a matrix (0: "
                                          "contract every vertex)")})
def phast_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, core_size=CORE_SIZE):
    require_integer_weights(graph, "phast")  # before any preprocessing
    core_size = _check_core_size(core_size)
    h = _hierarchy(graph, core_size, ex=ex)
    dev = h.by_position(ex)
    sources = np.asarray(sources, dtype=np.int64)
    src = np.concatenate([[len(sources)], dev.host_pos[sources]]).astype(np.int32)
    dist = ex.xp.empty(graph.n, dtype=np.int64)
    q = _query(ex, dev, len(sources))
    with q.lock:  # one working copy: queries from other streams or threads take turns
        ex.after(q.last)  # on the device, after the last query with it
        if ex.is_cuda:
            q.src[:len(src)].set(src)
        else:
            q.src[:len(src)] = src
        q.run()
        ex.ops("phast_batched").rows(dev.pos, q.dist.reshape(-1, 1), 1, dist.reshape(1, -1))
        q.last = ex.mark()
    return SSSPResult(dist=dist, pred=None, sources=sources, executor=ex,
                      stats={"levels": h.levels, "core": len(h.core)})


def _query(ex, dev, count):
    """The working copy of a query of ``count`` sources, kept with the hierarchy's
    device arrays ``dev`` for later queries: ``src`` (the count, then the sources'
    positions), ``dist`` by position, the core's ``scratch``, and ``run()``, the query
    (on CUDA a CUDA graph of every launch, recorded once and again only for a query of
    more sources than ``src`` holds)."""
    q = dev.query
    if q is None or len(q.src) <= count:
        xp = ex.xp
        lock = q.lock if q is not None else threading.Lock()
        with lock:
            q = SimpleNamespace(src=xp.zeros(max(64, 2 * count + 1), dtype=np.int32),
                                dist=xp.empty(len(dev.host_pos), dtype=dev.dtype),
                                scratch=xp.empty(max(len(dev.matrix), 1), dtype=dev.dtype),
                                lock=lock, last=None if q is None else q.last)
            q.run = ex.ops("phast").recorded_query(q.src, dev.up, dev.down, dev.core_pos,
                                                   dev.matrix, q.scratch, q.dist)
            dev.query = q
    return q
