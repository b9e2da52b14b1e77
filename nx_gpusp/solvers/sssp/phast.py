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
matrix give every distance. Integer weights only: a shortcut adds its arcs' weights
before the path's distance, which float addition would round differently from
NetworkX's left-to-right sums. Paths come from the tight-arc tree of the distances.

Once a graph holds the hierarchy of the default core size, method "auto" runs PHAST
for its calls without a cutoff (methods._auto_sssp): the preprocessing is paid, and a
query is two sweeps.
"""

import numpy as np

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
    h = _hierarchy(graph, core_size)
    ops = ex.ops("phast")
    order, up_ptr, up_tails, up_w, down_ptr, down_tails, down_w, core, matrix = h.on(ex)
    dist, _ = init_sources(ex, graph.n, sources, np.int64)
    ops.sweeps(h.level_ptr, order, (up_ptr, up_tails, up_w), (down_ptr, down_tails, down_w),
               core, matrix, ex.xp.empty(len(h.core), dtype=np.int64), dist)
    return SSSPResult(dist=dist, pred=None, sources=np.asarray(sources, dtype=np.int64),
                      executor=ex, stats={"levels": h.levels, "core": len(h.core)})
