"""batched-spmm: all-pairs SSSP as min-plus SpMM Bellman-Ford (the default all-pairs
method; our own, beyond the papers).

The B sources of a batch share one vertex-major n x B distance block: a round pulls,
for every vertex and chunk of sources, over the in-arcs whose tail changed in the
previous round (kernels/apsp_spmm.cu), so each arc is read once per 32 x 16 bytes of
sources, in coalesced vectors, with no atomics. Integer distances use int32 storage
when every path sum provably fits (as fw-dpx's lanes), which halves the traffic.
Rounds are checked on the host every ROUNDS_PER_CHECK launches.

Predecessors (positive weights) come from one pass after convergence: the first tight
in-arc from a strictly closer tail of every (vertex, source), which is a shortest-path
tree when every weight is positive (rows where float rounding left a vertex without
one get the tree of their distances, solvers.sssp.tree). With zero or negative weights
tight arcs can close cycles, so path requests on such graphs run batched-frontier,
whose snapshot rule keeps each tree acyclic; so does every request on float weights
with negative arcs (its rows' verdict on zero-length cycles that rounding makes
negative).
"""

from types import SimpleNamespace

import networkx as nx
import numpy as np

from ...graph import INT32_MAX, mark_unreached
from ...methods import method
from ...ops.apsp_spmm import chunk_width
from ..sssp import distance_inf
from ..sssp.tree import complete_trees
from . import BATCH_OPTION, SourceBatch, batch_size
from .batched import batched_frontier, rounding_cycles
from .floyd_warshall_dpx import path_bound
from .potentials import refuse_negative_cycles

__all__ = ["batched_spmm", "storage_dtype"]

ROUNDS_PER_CHECK = 4  # launches between host reads of the "changed" flags


def storage_dtype(graph):
    """int32 when integer weights keep every candidate (a path sum plus one arc, at most
    2 x (n-1) x max|w|) below int32's INF, else the distance dtype (int64 or float64)."""
    dtype = graph.distance_dtype()
    if dtype.kind == "i" and 2 * path_bound(graph) < INT32_MAX:
        return np.dtype(np.int32)
    return dtype


class SpmmBatch:
    """One batch of sources: the n x B block, its stamps, and the rounds."""

    def __init__(self, ex, graph, arcs, sources, dtype):
        xp = ex.xp
        self.ex, self.graph, self.arcs = ex, graph, arcs
        self.ops = ex.ops("apsp_spmm")
        self.sources = np.asarray(sources, dtype=np.int64)
        b, chunk = len(self.sources), chunk_width(dtype)
        width = -(-b // chunk) * chunk
        arrays = ex.ops("array_ops")
        self.dist = arrays.full((graph.n, width), distance_inf(dtype), dtype)
        self.stamp = arrays.full((graph.n, width // chunk), -1, np.int32)
        rows, cols = self.sources, np.arange(b, dtype=np.int64)
        arrays.put(self.dist, rows * width + cols, 0)
        arrays.put(self.stamp, rows * (width // chunk) + cols // chunk, 0)
        self.changed = xp.zeros(ROUNDS_PER_CHECK, dtype=np.int32)
        self.rounds = 0

    def run(self):
        while True:
            self.changed[:] = 0
            for slot in range(ROUNDS_PER_CHECK):
                self.rounds += 1
                self.ops.relax_batch_pull(self.arcs, self.dist, self.stamp, self.rounds,
                                          self.changed[slot:slot + 1])
            if not int(self.changed[-1]):  # a quiet round: every later one is quiet too
                return
            if self.rounds > self.graph.n + ROUNDS_PER_CHECK:  # unreachable after the refusal
                raise nx.NetworkXUnbounded("Negative cycle detected.")

    def result(self, want_pred):
        b = len(self.sources)
        dtype = self.graph.distance_dtype()
        block = self.dist[:, :b]
        dist = block.T.astype(dtype, order="C")
        if block.dtype != dtype:
            mark_unreached(dist, block.T, distance_inf(dtype))
        pred = None
        if want_pred:
            full = self.ex.xp.empty(self.dist.shape, dtype=np.int32)
            self.ops.tight_batch_predecessors(self.arcs, self.dist, full)
            pred = self.ex.xp.ascontiguousarray(full[:, :b].T)
            if dtype.kind == "f":
                complete_trees(self.ex, self.graph, dist, pred, self.sources)
        return SourceBatch(self.sources, dist, pred)


def _entry_bytes(graph, dtype, want_pred):
    """Device bytes per (source, vertex): the block, the B x n result, predecessors
    (the n x B pass and its B x n copy), and 1 for the stamps (4 bytes per chunk of at
    least 64 sources) and the padding of B to whole chunks."""
    return dtype.itemsize + graph.distance_dtype().itemsize + (8 if want_pred else 0) + 1


@method(name="batched-spmm", problem="all-pairs",
        summary="min-plus SpMM Bellman-Ford: a vertex-major n x B block of sources, each "
                "round pulling over in-arcs whose tail changed, coalesced and atomic-free",
        paper="CUDA SSSP paper's SpMV Bellman-Ford widened to a block of sources (our own)",
        negative_weights=True,
        options=BATCH_OPTION)
def batched_spmm(ex, graph, sources, *, cutoff=None, want_pred=True, batch=None):
    """Yields SourceBatch chunks. ``cutoff`` is applied by the caller (rows are masked
    where they exceed it), so the rounds ignore it."""
    if (want_pred and graph.m and graph.min_weight <= 0) or rounding_cycles(graph):
        # float weights with negative arcs: batched-frontier's verdict on rounding cycles
        yield from batched_frontier(ex, graph, sources, cutoff=cutoff, want_pred=want_pred,
                                    batch=batch)
        return
    refuse_negative_cycles(ex, graph)
    sources = np.asarray(sources, dtype=np.int64)
    dtype = storage_dtype(graph)
    rg = graph.reverse.on(ex)
    arcs = SimpleNamespace(indptr=rg.indptr, indices=rg.indices, n=rg.n,
                           weights=rg.weights.astype(dtype, copy=False))
    b = batch_size(ex, graph, len(sources), _entry_bytes(graph, dtype, want_pred),
                   "batched SpMM state", batch)
    for start in range(0, len(sources), b):
        run = SpmmBatch(ex, graph, arcs, sources[start:start + b], dtype)
        run.run()
        yield run.result(want_pred)
