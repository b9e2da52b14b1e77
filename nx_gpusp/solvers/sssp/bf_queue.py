"""Work-queue Bellman-Ford (CUDA SSSP paper, sections on the queue and LLL/SLF): method
"bf-queue", options ``slf`` and ``lll``.

Only vertices whose distance changed are relaxed; they wait in a circular array of n
slots between head and tail (each vertex at most once: in_queue flags). The sequential
algorithm dequeues one vertex at a time; the GPU takes a batch off the queue's front
and relaxes it in one launch (one thread per batch vertex), and the heuristics are
adapted to batches:

- batch: the whole queue; with SLF, only its front part (the vertices SLF pushed to the
  front while the previous batch ran) when that part is not empty.
- LLL (Large Label Last): with mean = the mean label of the batch taken, vertices whose
  label exceeds the mean go back to the tail instead of being relaxed now (the smallest
  label always stays, so every batch relaxes something).
- SLF (Small Label First): a vertex entering the queue while a batch runs goes to the
  front when its new label is below the batch's mean label (the batch stands for the
  sequential queue's head), else to the back.

stats: rounds (= batches) and relaxations (arcs scanned, the paper's measure: SLF is
reported to save 15-20% of them, SLF + LLL about 50%).

Negative cycles: batches are not Jacobi rounds (LLL defers work), so the verdict is
delegated once to frontier_sssp after 16 batches (see bellman_ford.py); without a
negative cycle label-correcting always terminates. pred is None (threads lower
distances concurrently, so no predecessor can be kept with its distance).
"""

import numpy as np

from ...methods import method
from . import SSSPResult
from .bellman_ford import NegativeCycleGuard, refuse_cycles_before_overflow, round_state

__all__ = ["bf_queue_sssp"]


@method(name="bf-queue", problem="sssp",
        summary="work-queue Bellman-Ford: circular queue of changed vertices, relaxed in "
                "batches, optional SLF / LLL",
        paper="CUDA SSSP paper (zh), Bellman-Ford queue with LLL and SLF",
        negative_weights=True,
        options={"slf": (False, "Small Label First: new vertices below the batch's mean label "
                                "go to the queue's front, which is taken first"),
                 "lll": (False, "Large Label Last: batch vertices above the batch's mean label "
                                "go back to the tail")})
def bf_queue_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, slf=False, lll=False):
    xp = ex.xp
    ops = ex.ops("bf_queue")
    n = graph.n
    ex.require_bytes(n * (graph.distance_dtype().itemsize + 3 * 4), "Bellman-Ford queue")
    refuse_cycles_before_overflow(ex, graph, sources)
    g, dist, _pred, srcs, cut = round_state(ex, graph, sources, cutoff)
    queue = xp.zeros(max(n, 1), dtype=np.int32)
    in_queue = xp.zeros(n, dtype=np.int32)
    queue[: len(srcs)] = ex.asarray(srcs)
    in_queue[ex.asarray(srcs)] = 1
    counters = xp.asarray(np.array([0, len(srcs)], dtype=np.int64))
    relaxations = xp.zeros(1, dtype=np.uint64)
    guard = NegativeCycleGuard(ex, graph, srcs, round_bound=False)
    head, tail = 0, len(srcs)
    front_end = head  # [head, front_end): the part SLF pushed to the front
    rounds = 0
    while head != tail:
        rounds += 1
        end = front_end if slf and head < front_end else tail
        taken = queue[xp.arange(head, end) % n]
        labels = dist[taken]
        mean = float(labels.astype(np.float64).mean())
        head = end
        if lll:
            large = labels > max(mean, float(labels.min()))  # rounding never empties it
            deferred = taken[large]
            taken = taken[~large]
            queue[xp.arange(tail, tail + len(deferred)) % n] = deferred
            tail += len(deferred)
        in_queue[taken] = 0
        front_end = head
        counters[0], counters[1] = head, tail
        ops.relax_batch(g, taken, dist, in_queue, queue, counters, int(slf), mean, cut,
                        relaxations)
        head, tail = (int(c) for c in ex.to_host(counters))
        if head != tail:
            guard.after_round(rounds)
    guard.finish()
    return SSSPResult(dist=dist, pred=None, sources=srcs.astype(np.int64), executor=ex,
                      stats={"rounds": rounds, "relaxations": int(relaxations[0])})
