"""phast-batched: all-pairs rows by PHAST over a batch of sources (Delling, Goldberg,
Nowatzyk and Werneck, "PHAST: Hardware-Accelerated Shortest Path Trees", IPDPS 2011,
the GPU variant: one sweep of the hierarchy computes many trees).

The contraction hierarchy is method "phast"'s (nx_gpusp.solvers.sssp.phast: built once
per converted graph, cached on it, shared with single-source phast). A batch of B
sources (B at most MAX_BATCH, fewer where device memory holds fewer) keeps its
distances position-major, the batch side by side per vertex (dist[p * width + b], p the
vertex's position in the level order, width = B padded to 32): the upward sweep of every
source of the batch, level by level; the core step, min over core i of d[i] + D[i][j]
for the whole batch (a min-plus product tiled as a GEMM); then ONE downward sweep for
the whole batch, where a warp per vertex reads each in-arc once and its lanes apply it
to every source (kernels/phast_batched.cu). The levels are launched back to back on one
stream, with no host round trip between them or between batches; by default
(``cuda_graph``) every launch of the sweeps is recorded once as a CUDA graph, so a batch
costs the host one graph launch however many levels the hierarchy has. The batch's
working block (and that graph) is kept with the hierarchy's device copy for later
calls. Each batch ends with its rows, B x n int64 by vertex (a tiled transpose). The sweeps store int32 where every sum
they form provably fits (``Hierarchy.sweep_dtype``), halving the traffic.

Integer, non-negative weights only (as "phast"). Predecessors, where asked for, are the
tight-arc trees of the original graph (solvers.sssp.tree), row by row. A ``cutoff`` is
applied by the caller (rows are masked beyond it).

``method="auto"`` (methods._auto_all_pairs) runs this method for many-source work (the
all-pairs generators, the all-pairs measures, nx_gpusp.distance_matrix) on graphs of
integer non-negative weights that already hold the hierarchy, or where building it pays
for itself at the number of sources asked for. The cost model (``build_pays_off``):
building costs about BUILD_S_PER_ARC seconds per arc (on an H200, NY's 0.73M arcs
0.38 s and FLA's 2.7M 0.45 s as a process's first build, kernels loaded in it; on a
host, road networks of 0.8-3.9M arcs took 3.4-25 s);
a source costs about SPMM_S_PER_SOURCE_ARC seconds per arc with batched-spmm (NY
1.16 ms, FLA 9.6 ms a source on an H200) and about PHAST_S_PER_SOURCE_ARC with this
method, so the build pays once sources x (SPMM - PHAST) > BUILD, about 200 sources on a
GPU (2,000 on the host) whatever the size. Only road-like
graphs are tried (at least AUTO_MIN_N vertices, at most ROAD_ARCS_PER_VERTEX arcs a
vertex); one that does not contract is remembered and left to batched-spmm.
"""

import functools
import threading
from types import SimpleNamespace

import numpy as np

from ...methods import method, require_integer_weights
from ..sssp import phast as sssp_phast
from ..sssp.contraction import build_executor
from ..sssp.tree import shortest_path_tree
from . import SourceBatch, batch_size

__all__ = ["phast_batched", "build_pays_off", "shared_hierarchies",
           "MAX_BATCH"]

MAX_BATCH = 256  # sources a batch by default (a warp's lanes cover 256 columns)
BUILD_S_PER_ARC = {False: 5e-6, True: 5e-7}  # contraction, seconds per arc of the graph:
# on the host (False), on a GPU (True)
SPMM_S_PER_SOURCE_ARC = 2.5e-9  # batched-spmm on road networks, seconds per source and arc
PHAST_S_PER_SOURCE_ARC = 2e-11  # this method's target (NY 0.01 ms a source)
AUTO_MIN_N = 16384  # below this, a source of batched-spmm is cheap and the core dominates
ROAD_ARCS_PER_VERTEX = 6  # above this many arcs a vertex the graph is not road-like
_REFUSED = "_phast_batched_refused"  # graph.__dict__ key: the build refused this graph

def _workspace(ex, dev, width, dtype, cuda_graph):
    """(ws, run): the working block of a batch (``ws.dist``, n x width, position-major),
    the core's scratch, and ``run()``, the sweeps over them: kept with the hierarchy's device copy (the last
    width asked for), so that later calls reuse the recorded sweeps (``cuda_graph``: a
    CUDA graph of every level's launches, recorded once; else the launches queued from
    the host each time)."""
    ws = dev.workspaces.get(width)
    if ws is None:
        dev.workspaces.clear()  # one width kept: free the other's block first
        xp = ex.xp
        ws = SimpleNamespace(dist=xp.empty((len(dev.host_pos), width), dtype=dtype),
                             scratch=xp.empty((len(dev.matrix), width), dtype=dtype),
                             runs={}, lock=threading.Lock(), last=None)
        dev.workspaces[width] = ws
    run = ws.runs.get(cuda_graph)
    if run is None:
        ops = ex.ops("phast_batched")
        args = (dev.up, dev.down, dev.matrix, ws.scratch, ws.dist)
        run = ws.runs[cuda_graph] = ops.recorded_sweeps(*args) if cuda_graph else \
            functools.partial(ops.sweeps, *args)
    return ws, run


def _entry_bytes(dtype, want_pred):
    """Device bytes per (source, vertex): the position-major block, the int64 rows, and
    with paths the int32 trees (and a row's tree work)."""
    return np.dtype(dtype).itemsize + 8 + (12 if want_pred else 0)


def road_like(graph):
    """Whether ``method="auto"`` may try the hierarchy on ``graph``: integer,
    non-negative weights, at least AUTO_MIN_N vertices, at most ROAD_ARCS_PER_VERTEX arcs a
    vertex, and no earlier build refused it."""
    return (graph.distance_dtype().kind == "i" and not graph.has_negative_weights
            and graph.n >= AUTO_MIN_N and graph.m <= ROAD_ARCS_PER_VERTEX * graph.n
            and not graph.__dict__.get(_REFUSED, False))


def build_pays_off(graph, sources):
    """``method="auto"``'s cost model (see the module's notes): True when the graph holds
    the hierarchy now, having built it because ``sources`` sources repay the build; False
    (nothing built) where they do not, or the graph is not road-like, or it does not
    contract (remembered on the graph)."""
    if sources is None or not road_like(graph):
        return False
    ex = build_executor()
    saved = sources * (SPMM_S_PER_SOURCE_ARC - PHAST_S_PER_SOURCE_ARC)
    if saved <= BUILD_S_PER_ARC[ex.is_cuda]:
        return False
    try:
        sssp_phast._hierarchy(graph, sssp_phast.CORE_SIZE, ex=ex)
    except ValueError:  # does not contract: not a road network after all
        graph.__dict__[_REFUSED] = True
        return False
    return True


def shared_hierarchies(graph):
    """What a copy of ``graph`` (a Dask worker's: nx_gpusp.distributed) takes along of its
    contraction hierarchies, as attributes: host arrays only, so that a worker does not
    contract the graph again."""
    held = graph.__dict__.get("_phast_hierarchies")
    if not held:
        return {}
    return {"_phast_hierarchies": {
        size: sssp_phast.Hierarchy(h.order, h.level_ptr, h.up, h.down, h.core, h.matrix)
        for size, h in held.items()}}


def _trees(ex, graph, rows, sources):
    """int32 B x n shortest-path trees of the rows (tight arcs of the original graph)."""
    pred = ex.xp.empty(rows.shape, dtype=np.int32)
    for k, s in enumerate(sources.tolist()):
        pred[k] = shortest_path_tree(ex, graph, rows[k], [s])
    return pred


@method(name="phast-batched", problem="all-pairs",
        summary="PHAST for a batch of up to 256 sources: the contraction hierarchy of "
                "'phast', the batch's distances side by side per vertex, upward sweeps, "
                "the core as a min-plus product, one downward sweep for the whole batch",
        paper="Delling et al. 2011 (PHAST, its GPU variant: many trees per sweep)",
        integer_weights_only=True,
        prepared=sssp_phast.hierarchy_built,
        prepare_for=build_pays_off,
        options={"core_size": (sssp_phast.CORE_SIZE, "vertices left uncontracted at the "
                               "top (as method 'phast'; its hierarchy is shared)"),
                 "cuda_graph": (True, "record the sweeps' launches once as a CUDA graph "
                                      "and launch it per batch (False: every level "
                                      "launched from the host)"),
                 "batch": (None, f"sources per batch (default: as many as free memory "
                                 f"holds, at most {MAX_BATCH})")})
def phast_batched(ex, graph, sources, *, cutoff=None, want_pred=True,
                  core_size=sssp_phast.CORE_SIZE, batch=None, cuda_graph=True):
    """Yields SourceBatch chunks (int64 rows; int32 trees where ``want_pred``)."""
    require_integer_weights(graph, "phast-batched")
    if graph.has_negative_weights:
        raise ValueError("gpusp method 'phast-batched' does not accept negative weights; "
                         "use a Bellman-Ford method (e.g. method='batched-spmm')")
    core_size = sssp_phast._check_core_size(core_size)
    sources = np.asarray(sources, dtype=np.int64)
    if not len(sources):
        return
    h = sssp_phast._hierarchy(graph, core_size, ex=ex)
    dev = h.by_position(ex)
    dtype = dev.dtype
    if batch is None:
        b = min(MAX_BATCH, batch_size(ex, graph, len(sources), _entry_bytes(dtype, want_pred),
                                      "batched PHAST state"))
    else:
        b = batch_size(ex, graph, len(sources), 0, "batched PHAST state", batch)
    ws, run = _workspace(ex, dev, -(-b // 32) * 32, dtype, cuda_graph)
    xp, ops, n = ex.xp, ex.ops("phast_batched"), graph.n
    for start in range(0, len(sources), b):
        chunk = sources[start:start + b]
        rows = xp.empty((len(chunk), n), dtype=np.int64)
        with ws.lock:  # the batch's work is queued whole before another may use ws
            ex.after(ws.last)  # ... and runs after the last batch's with it, on any stream
            ops.init(ex.asarray(dev.host_pos[chunk]), ws.dist)
            run()
            ops.rows(dev.pos, ws.dist, len(chunk), rows)
            ws.last = ex.mark()
        yield SourceBatch(chunk, rows, _trees(ex, graph, rows, chunk) if want_pred else None)
