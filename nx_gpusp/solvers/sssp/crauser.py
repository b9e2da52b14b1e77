"""Crauser-based GPU Dijkstra (Ortega-Arranz et al. 2013) and Martin et al.'s variant.

Every iteration settles all unsettled vertices whose tentative distance is at most a
threshold Delta_i, which makes them the next frontier (Algorithm 1: relax, minimum,
update; loop while Delta != inf):

- general:  Delta_i = min over U of d(u) + W(u), W(u) = minimum out-weight of u (eq. 1).
  Correct because any path into v through an unsettled u costs at least d(u) + W(u).
- economic: Delta_i = min over U of d(u) + (global minimum weight) (eq. 2).
- martin:   Delta_i = min over U of d(u) (eq. 3): the frontier is the vertices at the
  minimum distance (d <= Delta_i is d == Delta_i here).

With float weights the same argument holds for the computed sums, because rounding is
monotone: no later candidate fl(d(u) + w) can fall below the threshold.
Relaxation is by successors (push), predecessors (pull, the reverse CSR) or over the
dense adjacency matrix (pull over its columns). Predecessors are left to the result
layer's tight-arc tree.
"""

import numpy as np

from ...methods import method
from ...ops.base import BLOCK
from . import SSSPResult, cutoff_value, distance_inf, init_sources, source_indices

__all__ = ["settle_loop", "check_block_size"]

BLOCK_SIZE_DOC = ("CUDA threads per block (multiple of 32, at most 1024); the APSP "
                  "paper found 96 best for relax, 256 is a safe default")


def check_block_size(block_size):
    if not (isinstance(block_size, (int, np.integer)) and 32 <= block_size <= 1024
            and block_size % 32 == 0):
        raise ValueError("gpusp: block_size must be a multiple of 32 in 32..1024, "
                         f"got {block_size!r}")
    return int(block_size)


def settle_loop(ex, graph, sources, *, threshold, relax, cutoff=None, block_size=BLOCK):
    """The Crauser/Martin outer loop; threshold in general|economic|martin, relax in
    push|pull|dense."""
    block = check_block_size(block_size)
    xp = ex.xp
    ops = ex.ops("crauser")
    n = graph.n
    dtype = graph.distance_dtype()
    inf = distance_inf(dtype)
    ex.require_bytes(n * (3 * dtype.itemsize + 2), "Crauser Dijkstra state")
    dist, _ = init_sources(ex, n, sources, dtype)
    cut = cutoff_value(cutoff, dtype)
    src = ex.asarray(np.asarray(sources, dtype=np.int64))
    unsettled = xp.ones(n, dtype=np.uint8)
    frontier = xp.zeros(n, dtype=np.uint8)
    unsettled[src] = 0
    frontier[src] = 1
    out_weight = graph.on_device(ex, "min_out_weight") if threshold == "general" else None
    base = graph.min_weight if threshold == "economic" else 0
    if relax == "dense":
        relax_fn, arcs = ops.relax_dense, graph.dense(ex)
    elif relax == "pull":
        relax_fn, arcs = ops.relax_pull, graph.reverse.on(ex)
    else:
        relax_fn, arcs = ops.relax, graph.on(ex)
    delta = xp.empty(1, dtype=dtype)
    iterations = 0
    while True:
        iterations += 1
        relax_fn(arcs, frontier, unsettled, dist, cut, block=block)
        ops.minimum(dist, unsettled, out_weight, delta, block=block)
        found = delta[0].item()
        if found == inf:
            break
        ops.update(frontier, unsettled, dist, found + base, block=block)
    return SSSPResult(dist=dist, pred=None, sources=source_indices(sources),
                      executor=ex, stats={"iterations": iterations})


PAPER = "Ortega-Arranz et al. 2013, Crauser-based GPU Dijkstra"
OPTIONS = {"block_size": (BLOCK, BLOCK_SIZE_DOC)}


def variant(name, threshold, relax, summary):
    """The settle_loop of one threshold and relaxation, registered as method ``name``."""
    def solver(ex, graph, sources, *, cutoff=None, want_pred=True, block_size=BLOCK):
        return settle_loop(ex, graph, sources, threshold=threshold, relax=relax,
                           cutoff=cutoff, block_size=block_size)
    solver.__name__ = f"{threshold}_{relax}_sssp"
    solver.__doc__ = f"Crauser-family SSSP: {threshold} threshold, {relax} relaxation."
    return method(name=name, problem="sssp", summary=summary, paper=PAPER,
                  options=OPTIONS)(solver)


crauser_sssp = variant(
    "crauser", "general", "push",
    "Crauser general variant: settle d <= min(d + min out-weight), successor relax")
crauser_economic_sssp = variant(
    "crauser-economic", "economic", "push",
    "Crauser economic variant: threshold min(d) + global min weight, successor relax")
martin_sssp = variant(
    "martin", "martin", "push",
    "Martin et al.: settle every vertex at the minimum distance, successor relax")
crauser_pull_sssp = variant(
    "crauser-pull", "general", "pull",
    "Crauser general variant, predecessor relax (reverse CSR)")
crauser_economic_pull_sssp = variant(
    "crauser-economic-pull", "economic", "pull",
    "Crauser economic variant, predecessor relax (reverse CSR)")
martin_pull_sssp = variant(
    "martin-pull", "martin", "pull",
    "Martin et al. predecessor variant (reverse CSR)")
crauser_dense_sssp = variant(
    "crauser-dense", "general", "dense",
    "Crauser general variant on the dense n x n adjacency matrix (predecessor scan)")
