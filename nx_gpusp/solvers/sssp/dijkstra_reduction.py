"""Classic Dijkstra with ExtractMin as a parallel reduction (method "dijkstra-reduction";
CUDA SSSP paper, papers/README.md section 2).

One vertex is settled per iteration, so the loop runs once per reachable vertex; the
host checks for "nothing left" only every CHECK_EVERY iterations (the kernels of an
iteration with nothing left do nothing). Each vertex's predecessor is the settled vertex
that last strictly lowered it, settled before it: a valid shortest-path tree, zero-weight
arcs included.
"""

import numpy as np

from ...methods import method
from ...ops.base import BLOCK
from ...ops.dijkstra_reduction import partial_count
from . import SSSPResult, cutoff_value, init_sources, source_indices
from .crauser import check_block_size

__all__ = ["dijkstra_reduction_sssp"]

CHECK_EVERY = 32


@method(name="dijkstra-reduction", problem="sssp",
        summary="classic Dijkstra, one vertex per iteration, ExtractMin as a parallel reduction",
        paper="CUDA SSSP paper (Chinese), section 3.2 Reduction",
        options={"block_size": (BLOCK, "CUDA threads per block of the reduction and relax "
                                        "kernels (multiple of 32; the paper tuned 128..1024)")},
        iterations_per_vertex=True)
def dijkstra_reduction_sssp(ex, graph, sources, *, cutoff=None, want_pred=True,
                            block_size=BLOCK):
    block = check_block_size(block_size)
    xp = ex.xp
    ops = ex.ops("dijkstra_reduction")
    n = graph.n
    dtype = graph.distance_dtype()
    ex.require_bytes(n * (dtype.itemsize + 5), "Dijkstra (reduction) state")
    dist, pred = init_sources(ex, n, sources, dtype)
    cut = cutoff_value(cutoff, dtype)
    g = graph.on(ex)
    max_degree = int(graph.out_degree.max()) if n else 0
    unsettled = xp.ones(n, dtype=np.uint8)
    blocks = partial_count(n, block)
    partial_dist = xp.empty(blocks, dtype=dtype)
    partial_vertex = xp.empty(blocks, dtype=np.int32)
    best = xp.zeros(1, dtype=np.int32)
    iterations = 0
    while iterations <= n:
        for _ in range(CHECK_EVERY):
            ops.extract_min(dist, unsettled, partial_dist, partial_vertex, best, block=block)
            ops.relax_extracted(g, best, unsettled, dist, pred, cut, max_degree, block=block)
        iterations += CHECK_EVERY
        if int(best[0]) < 0:
            break
    return SSSPResult(dist=dist, pred=pred if want_pred else None,
                      sources=source_indices(sources), executor=ex,
                      stats={"iterations": iterations})
