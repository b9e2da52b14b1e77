"""batched-frontier: all-pairs SSSP as a sources x vertices frontier (the default).

B sources run the frontier Bellman-Ford rounds of nx_gpusp.solvers.sssp.frontier side
by side: the state is B x n and one launch relaxes the frontier entries of every
source, so a round costs one launch however many sources are in flight. B is chosen
from free device memory. The snapshot rule gives each row a valid shortest-path tree
(zero-weight cycles included). Negative cycles are refused before the first round
(Johnson's potentials), so the rounds of every source end within n; with float weights
each row's predecessors are then tested for zero-length cycles that rounding made
negative from that source (single-source Bellman-Ford's verdict, see FrontierBatch.finish).
"""

import networkx as nx
import numpy as np

from ...methods import method
from ...ops.base import BLOCK
from ..sssp import cutoff_value, distance_inf
from . import BATCH_OPTION, SourceBatch, batch_size
from .potentials import refuse_negative_cycles

__all__ = ["FrontierBatch", "batched_frontier", "entry_bytes", "rounding_cycles",
           "refuse_cyclic_rows"]


def entry_bytes(dtype):
    """Device bytes per (source, vertex) entry: dist, lowered, pred, and the two frontier
    id and snapshot arrays (an entry is in a frontier at most once per round)."""
    return np.dtype(dtype).itemsize * 3 + 4 + 4 + 2 * 8


class FrontierBatch:
    """The B x n state of a batched frontier run; ``launch_round`` queues one round's
    kernels, ``end_round`` waits for its frontier size (True while work remains)."""

    def __init__(self, ex, graph, sources, *, cutoff, want_pred, block=BLOCK):
        xp = ex.xp
        self.ex, self.graph, self.block = ex, graph, block
        # predecessors are kept for the rounding-cycle verdict too (see finish)
        self.want_pred = want_pred or rounding_cycles(graph)
        self.return_pred = want_pred
        self.ops = ex.ops("apsp_batched")
        self.g = graph.on(ex)
        n, b = graph.n, len(sources)
        dtype = graph.distance_dtype()
        self.cut = cutoff_value(cutoff, dtype)
        self.sources = np.asarray(sources, dtype=np.int64)
        arrays = ex.ops("array_ops")
        self.dist = arrays.full((b, n), distance_inf(dtype), dtype)
        self.pred = arrays.full((b, n), -1, np.int32) if self.want_pred else None
        self.lowered = arrays.full(b * n, -1, np.int32)
        self.frontier = xp.empty(b * n, dtype=np.int64)
        self.next_frontier = xp.empty(b * n, dtype=np.int64)
        self.frontier_dist = xp.zeros(b * n, dtype=dtype)
        self.next_dist = xp.empty(b * n, dtype=dtype)
        self.next_size = xp.zeros(1, dtype=np.uint64)
        start = ex.asarray(np.arange(b, dtype=np.int64) * n + self.sources)
        arrays.put(self.dist, start, 0)
        self.frontier[:b] = start
        self.size = b
        self.rounds = 0

    def launch_round(self):
        self.rounds += 1
        if self.rounds > self.graph.n + 1:  # unreachable after refuse_negative_cycles
            raise nx.NetworkXUnbounded("Negative cycle detected.")
        ops, dist = self.ops, self.dist.reshape(-1)
        self.next_size[0] = 0
        ops.relax_batch_frontier(self.g, self.frontier, self.frontier_dist, self.size, dist,
                                 self.lowered, self.rounds, self.next_frontier,
                                 self.next_size, self.cut, block=self.block)
        if self.want_pred:
            ops.record_batch_predecessors(self.g, self.frontier, self.frontier_dist, self.size,
                                          dist, self.lowered, self.rounds,
                                          self.pred.reshape(-1), block=self.block)

    def end_round(self):
        self.size = int(self.next_size[0])
        self.ops.snapshot_batch_frontier(self.next_frontier, self.size, self.dist.reshape(-1),
                                         self.next_dist, block=self.block)
        self.frontier, self.next_frontier = self.next_frontier, self.frontier
        self.frontier_dist, self.next_dist = self.next_dist, self.frontier_dist
        return self.size > 0

    def finish(self):
        """The batch's result once no frontier is left: float weights with negative arcs
        get each row's verdict on zero-length cycles that rounding made negative, as
        the single-source methods do (nx_gpusp.solvers.sssp.frontier)."""
        if rounding_cycles(self.graph):
            refuse_cyclic_rows(self.ex, self.pred)
        return SourceBatch(self.sources, self.dist, self.pred if self.return_pred else None)

    def run(self):
        while self.size:
            self.launch_round()
            self.end_round()
        return self.finish()


def rounding_cycles(graph):
    """Float weights with negative arcs: zero-length cycles can round negative."""
    return graph.has_negative_weights and graph.distance_dtype().kind == "f"


def refuse_cyclic_rows(ex, pred):
    """NetworkXUnbounded when a row of the B x n predecessor block has a cycle (rows
    offset into one forest, in chunks whose indices fit int32)."""
    b, n = pred.shape
    if not b or not n:
        return
    rows = max(1, (1 << 30) // n)
    paths = ex.ops("paths")
    for start in range(0, b, rows):
        block = pred[start:start + rows]
        offset = ex.xp.arange(block.shape[0], dtype=np.int32)[:, None] * np.int32(n)
        forest = ex.xp.where(block >= 0, block + offset, -1).astype(np.int32).ravel()
        if paths.has_predecessor_cycle(forest):
            raise nx.NetworkXUnbounded("Negative cycle detected.")


@method(name="batched-frontier", problem="all-pairs",
        summary="B sources x n vertices frontier Bellman-Ford: one launch relaxes every "
                "source's frontier; B from free device memory",
        paper="APSP concurrent-kernels paper (many sources in flight), as one batched grid",
        negative_weights=True,
        options=BATCH_OPTION)
def batched_frontier(ex, graph, sources, *, cutoff=None, want_pred=True, batch=None):
    refuse_negative_cycles(ex, graph)
    sources = np.asarray(sources, dtype=np.int64)
    b = batch_size(ex, graph, len(sources), entry_bytes(graph.distance_dtype()),
                   "batched frontier state", batch)
    for start in range(0, len(sources), b):
        yield FrontierBatch(ex, graph, sources[start:start + b], cutoff=cutoff,
                            want_pred=want_pred).run()
