"""Bellman-Ford rounds on CSR (Bodra & Khairnar 2025): methods "bf-vertex" (one thread
per vertex), "bf-strided" (grid-stride loop) and "bf-flag" (strided, only the vertices
lowered in the previous round, early exit); also the round loop shared with "harish"
and the negative-cycle verdict shared by every Bellman-Ford-family method.

Negative cycles. These methods do not keep the frontier engine's invariants by
construction, so each states which of these sound rules it uses (NegativeCycleGuard):

- Round bound. A round of bf-*, harish, spmv-* and lbr relaxes every arc whose tail
  changed since it was last relaxed, so after round r the distances are at most r
  rounds of classic (Jacobi) Bellman-Ford. Without a negative cycle those are exact
  after n - 1 rounds, so a round r >= n that still lowers a distance proves one.
- Predecessor cycles. Relaxing from the previous round's distances (prev) and giving a
  vertex a predecessor only in a round that strictly lowers it, to a tail with
  prev[u] + w == dist[v], is exactly the frontier engine's snapshot rule, so every
  predecessor cycle is a negative cycle (proof in frontier.py) and, without one, the
  predecessors form a shortest-path tree (returned as pred). The round methods keep such
  a pred whenever predecessors are wanted or weights are negative, and run the existing
  pointer-jumping test after rounds 16, 32, 64, ...
- Rounding cycles (float weights with negative arcs): when the rounds converge, the
  snapshot predecessors are tested once more, or frontier_sssp is asked, so that every
  method gives frontier_sssp's verdict on zero-length cycles that rounding made
  negative (NetworkXUnbounded, as NetworkX's Bellman-Ford says; see frontier.py).
- Delegation. Asynchronous methods (bf-queue, lbr: a thread reads distances other
  threads lower during the same launch, and distance and predecessor cannot be written
  together) keep no pred; after 16 rounds with negative weights they ask frontier_sssp
  once, which raises NetworkXUnbounded or proves the run will terminate.

With non-negative weights every method terminates without any test; arcs whose
candidate exceeds ``cutoff`` are not relaxed (nothing beyond the cutoff can lead back
under it).
"""

import networkx as nx
import numpy as np

from ...methods import method
from . import SSSPResult, cutoff_value, check_negative_cycle, init_sources, source_indices
from .frontier import frontier_sssp

__all__ = ["NegativeCycleGuard", "refuse_cycles_before_overflow", "round_state", "source_flags",
           "jacobi_rounds", "bellman_ford_rounds", "bf_vertex_sssp", "bf_strided_sssp",
           "bf_flag_sssp"]

FIRST_CHECK = 16


class NegativeCycleGuard:
    """Raises NetworkXUnbounded when a method's rounds prove a reachable negative cycle.

    round_bound: the method's round r is at least r Jacobi Bellman-Ford rounds.
    pred: a predecessor array kept by the snapshot rule (else None: delegate).
    """

    def __init__(self, ex, graph, sources, *, round_bound, pred=None):
        self.ex, self.graph, self.sources = ex, graph, sources
        self.active = graph.has_negative_weights
        self.round_bound = round_bound
        self.pred = pred
        self.next_check = FIRST_CHECK
        self.delegated = False

    @property
    def rounding_cycles(self):
        """Float weights with negative arcs: a converged run may still have gone round a
        zero-length cycle that rounding made negative (see frontier.py)."""
        return self.active and self.graph.distance_dtype().kind == "f"

    def finish(self):
        """Call when the rounds have converged: the end-of-run verdict on rounding cycles,
        frontier_sssp's, from the snapshot predecessors or by asking frontier_sssp."""
        if not self.rounding_cycles:
            return
        if self.pred is not None:
            check_negative_cycle(self.ex, self.pred)
        elif not self.delegated:
            self.delegated = True
            frontier_sssp(self.ex, self.graph, self.sources, want_pred=False)

    def after_round(self, rounds):
        """Call after a round (1-based count) that lowered some distance."""
        if not self.active:
            return
        if self.round_bound and rounds >= self.graph.n:
            raise nx.NetworkXUnbounded("Negative cycle detected.")
        if rounds < self.next_check:
            return
        self.next_check *= 2
        if self.pred is not None:
            check_negative_cycle(self.ex, self.pred)
        elif not self.delegated:
            self.delegated = True
            frontier_sssp(self.ex, self.graph, self.sources, want_pred=False)


def refuse_cycles_before_overflow(ex, graph, sources):
    """Asynchronous methods (bf-queue, lbr, near-far) relax many times between two
    negative-cycle checks, and a negative cycle lowers integer sums by up to max|w| each
    time: with huge integer weights they would pass int64 before a check. Where that is
    possible (n x the path bound from 2**60 on), frontier_sssp decides first: its
    Jacobi rounds keep every sum within twice the path bound until its round bound."""
    if graph.has_negative_weights and graph.distance_dtype().kind == "i" \
            and graph.n * graph.path_bound >= 1 << 60:
        frontier_sssp(ex, graph, sources, want_pred=False)


def round_state(ex, graph, sources, cutoff):
    """(g on device, dist, pred, unique int32 sources, distance cutoff) of a run."""
    dtype = graph.distance_dtype()
    dist, pred = init_sources(ex, graph.n, sources, dtype)
    cut = cutoff_value(cutoff, dtype)
    return graph.on(ex), dist, pred, source_indices(sources, np.int32), cut


def source_flags(ex, n, sources):
    """uint8 vertex flags on the device, set at the sources."""
    flag = ex.xp.zeros(n, dtype=np.uint8)
    flag[ex.asarray(np.asarray(sources, dtype=np.int64))] = 1
    return flag


def jacobi_rounds(ex, graph, sources, round_, *, cutoff, want_pred, early_exit=True):
    """Rounds of ``round_(prev, scratch, pred or None, cutoff, changed) -> (prev, scratch)``
    (relax from prev; predecessors by the snapshot rule when pred is given; set changed[0]
    when a distance is lowered) until a round lowers nothing, with the round bound and
    pointer-jumping verdicts. Without early_exit only rounds >= n are looked at."""
    _g, prev, pred, srcs, cut = round_state(ex, graph, sources, cutoff)
    scratch = prev.copy()
    changed = ex.xp.zeros(1, dtype=np.int32)
    track_pred = want_pred or graph.has_negative_weights
    guard = NegativeCycleGuard(ex, graph, srcs, round_bound=True,
                               pred=pred if track_pred else None)
    rounds = 0
    while True:
        rounds += 1
        changed[0] = 0
        prev, scratch = round_(prev, scratch, pred if track_pred else None, cut, changed)
        # the paper's vertex/strided kernels run n - 1 rounds without looking; round n
        # is Bellman-Ford's negative-cycle round
        if early_exit or rounds >= graph.n:
            if not int(changed[0]):
                break
            guard.after_round(rounds)
    guard.finish()
    return SSSPResult(dist=prev, pred=pred if want_pred else None,
                      sources=srcs.astype(np.int64), executor=ex, stats={"rounds": rounds})


def bellman_ford_rounds(ex, graph, sources, ops, *, cutoff, want_pred, use_flags,
                        early_exit, blocks=0):
    """Rounds of relax (prev -> dist), record_predecessors, update (dist -> prev, flags,
    changed) on the kernel table ``ops`` (bellman_ford's or harish's)."""
    n = graph.n
    ex.require_bytes(n * (2 * graph.distance_dtype().itemsize + 4 + 1),
                     "Bellman-Ford round state")
    g = graph.on(ex)
    flag = source_flags(ex, n, sources)

    def round_(prev, dist, pred, cut, changed):
        ops.relax(g, prev, dist, flag, use_flags, cut, blocks)
        if pred is not None:
            ops.record_predecessors(g, prev, dist, flag, use_flags, pred, blocks)
        ops.update(prev, dist, flag, changed, blocks)
        return prev, dist

    return jacobi_rounds(ex, graph, sources, round_, cutoff=cutoff, want_pred=want_pred,
                         early_exit=early_exit)


PAPER = "Bodra & Khairnar 2025, Bellman-Ford on CSR"
EARLY_EXIT = (False, "stop after a round that lowers nothing (the paper runs n - 1 rounds)")
BLOCKS = (0, "grid size of the grid-stride kernels (0: 4 blocks per multiprocessor)")


@method(name="bf-vertex", problem="sssp",
        summary="Bellman-Ford, one thread per vertex, previous/current distance arrays",
        paper=PAPER, negative_weights=True, options={"early_exit": EARLY_EXIT},
        iterations_per_vertex=True)
def bf_vertex_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, early_exit=False):
    return bellman_ford_rounds(ex, graph, sources, ex.ops("bellman_ford"), cutoff=cutoff,
                               want_pred=want_pred, use_flags=False, early_exit=early_exit)


@method(name="bf-strided", problem="sssp",
        summary="Bellman-Ford, grid-stride loop over vertices",
        paper=PAPER, negative_weights=True,
        options={"early_exit": EARLY_EXIT, "blocks": BLOCKS}, iterations_per_vertex=True)
def bf_strided_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, early_exit=False,
                    blocks=0):
    ops = ex.ops("bellman_ford")
    return bellman_ford_rounds(ex, graph, sources, ops, cutoff=cutoff, want_pred=want_pred,
                               use_flags=False, early_exit=early_exit,
                               blocks=blocks or ops.default_blocks())


@method(name="bf-flag", problem="sssp",
        summary="Bellman-Ford, grid-stride, only vertices lowered in the previous round, "
                "early exit",
        paper=PAPER, negative_weights=True, options={"blocks": BLOCKS})
def bf_flag_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, blocks=0):
    ops = ex.ops("bellman_ford")
    return bellman_ford_rounds(ex, graph, sources, ops, cutoff=cutoff, want_pred=want_pred,
                               use_flags=True, early_exit=True,
                               blocks=blocks or ops.default_blocks())
