"""The baseline Floyd-Warshall variants of Bodra & Khairnar 2025: per-edge (n launches
of a 2-D grid), per-edge with shared memory, per-vertex (one thread per row) and tiled
(blocked, three phases per k-block, no shared memory)."""

from ...methods import method
from ...ops.floyd_warshall_bodra import TILE
from .floyd_warshall import run_floyd_warshall

__all__ = ["fw_per_edge", "fw_per_edge_shared", "fw_per_vertex", "fw_tiled"]


def _per_step(kernel, name, summary):
    """The per-k sweep of kernel ``kernel`` (n launches), registered as method ``name``."""
    def solve(ex, graph, *, keep_negative_diagonal, predecessors):
        launch = getattr(ex.ops("floyd_warshall_bodra"), kernel)

        def sweep(d, p):
            h = None if p is None else ex.ops("floyd_warshall").arc_counts(d)
            for k in range(graph.n):
                launch(d, p, h, k)

        return run_floyd_warshall(ex, graph, sweep, keep_negative_diagonal=keep_negative_diagonal,
                                  predecessors=predecessors)

    solve.__name__ = kernel
    return _bodra_method(name, summary)(solve)


def _bodra_method(name, summary):
    return method(name=name, problem="floyd-warshall", summary=summary,
                  paper=f"Bodra & Khairnar 2025, {name[3:]}", negative_weights=True)


fw_per_edge = _per_step("fw_per_edge", "fw-per-edge",
                        "one thread per (i, j), a 2-D grid launched once per k")
fw_per_edge_shared = _per_step(
    "fw_per_edge_shared", "fw-per-edge-shared",
    "per-edge, with each row's d[i][k] (and row k) broadcast through shared memory")
fw_per_vertex = _per_step("fw_per_vertex", "fw-per-vertex",
                          "one thread per row i looping over j, launched once per k")


@_bodra_method("fw-tiled",
               "blocked Floyd-Warshall, 32x32 tiles, three phases per k-block, global memory only")
def fw_tiled(ex, graph, *, keep_negative_diagonal, predecessors):
    ops = ex.ops("floyd_warshall_bodra")

    def sweep(d, p):
        h = None if p is None else ex.ops("floyd_warshall").arc_counts(d)
        for kb in range((graph.n + TILE - 1) // TILE):
            for phase in (1, 2, 3):
                ops.fw_tiled_phase(phase, d, p, h, kb)

    return run_floyd_warshall(ex, graph, sweep, keep_negative_diagonal=keep_negative_diagonal,
                              predecessors=predecessors)
