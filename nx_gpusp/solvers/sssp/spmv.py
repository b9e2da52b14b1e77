"""Bellman-Ford as repeated min-plus sparse matrix-vector products (CUDA SSSP paper):
methods "spmv-csr" and "spmv-ell". A round is next = min(prev, A^T (min,+) prev), where
row v of A^T holds the in-arcs of v, so both formats are built from graph.reverse; ELL
pads every row to the maximum in-degree and stores the slots column-major for coalesced
loads. The ELL arrays are refused (MemoryError) when the padding does not fit on the
device.

Each row records its argmin tail when it is strictly lowered, which is the snapshot
predecessor rule of bellman_ford.py: predecessor cycles are negative cycles (pointer-
jumping test from round 16 on) and, without one, pred is a shortest-path tree. The
round bound (a round is one Jacobi round) ends any run by round n.
"""

import weakref
from types import SimpleNamespace

import numpy as np

from ...methods import method
from ...ops.spmv import ell_layout
from .bellman_ford import jacobi_rounds

__all__ = ["spmv_csr_sssp", "spmv_ell_sssp", "ell_on"]

PAPER = "CUDA SSSP paper (zh), SpMV Bellman-Ford"
_ELL = weakref.WeakKeyDictionary()  # CSRGraph -> {device name: ELL arrays}


def ell_on(ex, graph):
    """The ELL layout of graph.reverse on the executor's device (cached per graph)."""
    per_device = _ELL.setdefault(graph, {})
    ell = per_device.get(ex.name)
    if ell is None:
        rev = graph.reverse
        width = int(rev.out_degree.max()) if graph.n and graph.m else 0
        slot_bytes = 4 + rev.weights.dtype.itemsize
        ex.require_bytes(width * graph.n * slot_bytes,
                         f"ELL with {width} slots per row (max in-degree) for {graph.n} "
                         f"rows, {graph.m} arcs")
        cols, vals, width = ell_layout(rev.indptr, rev.indices, rev.weights)
        ell = ex.publish(SimpleNamespace(cols=ex.asarray(cols), weights=ex.asarray(vals),
                                         width=width))
        per_device[ex.name] = ell
    return ell


def _minplus_rounds(ex, graph, sources, product, *, cutoff, want_pred):
    ex.require_bytes(graph.n * (2 * graph.distance_dtype().itemsize + 4), "SpMV rounds")

    unused_pred = ex.xp.empty(1, dtype=np.int32)

    def round_(prev, nxt, pred, cut, changed):
        product(prev, nxt, unused_pred if pred is None else pred, int(pred is not None), cut,
                changed)
        return nxt, prev

    return jacobi_rounds(ex, graph, sources, round_, cutoff=cutoff, want_pred=want_pred)


@method(name="spmv-csr", problem="sssp",
        summary="Bellman-Ford as min-plus SpMV over the reverse CSR (one thread per row)",
        paper=PAPER, negative_weights=True)
def spmv_csr_sssp(ex, graph, sources, *, cutoff=None, want_pred=True):
    ops = ex.ops("spmv")
    rg = graph.reverse.on(ex)
    return _minplus_rounds(ex, graph, sources, lambda *a: ops.csr_minplus(rg, *a),
                           cutoff=cutoff, want_pred=want_pred)


@method(name="spmv-ell", problem="sssp",
        summary="Bellman-Ford as min-plus SpMV in ELL format (padded rows, column-major)",
        paper=PAPER, negative_weights=True)
def spmv_ell_sssp(ex, graph, sources, *, cutoff=None, want_pred=True):
    ops = ex.ops("spmv")
    ell = ell_on(ex, graph)
    return _minplus_rounds(ex, graph, sources, lambda *a: ops.ell_minplus(ell, *a),
                           cutoff=cutoff, want_pred=want_pred)
