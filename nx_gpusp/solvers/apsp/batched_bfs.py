"""batched-bfs: all-pairs hop distances by multi-source BFS with a bit per source (Then
et al., "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2015).

A batch of B sources shares one level-synchronous traversal: every vertex holds
ceil(B / 64) words of seen / frontier / next bits (kernels/ms_bfs.cu), so one level's
launch advances the searches of all B sources, and an arc is read once per level for
64 sources. A level runs top-down (frontier entries OR their bits into their heads)
or bottom-up (entries with unseen sources OR in their in-neighbours' frontier bits), as
Beamer et al. choose: bottom-up when the frontier entries' out-arcs exceed the
in-arcs of the entries still missing sources divided by ``alpha``. The distance of a
(source, vertex) pair is written once, when its bit is set. B comes from free device
memory (a multiple of 64 from 64 sources on).

Unweighted only: a graph with an arc weight other than 1 is refused with ValueError
(the weighted all-pairs methods answer it).
"""

import numpy as np

from ...methods import method
from ..sssp import distance_inf
from ..sssp.bfs import depth_limit, require_unit_weights
from . import SourceBatch, batch_size

__all__ = ["batched_bfs", "MultiSourceBFS", "entry_bytes"]

ALPHA = 4  # bottom-up once frontier out-arcs > missing in-arcs / ALPHA (not tuned)
DIRECTIONS = ("auto", "top-down", "bottom-up")


def entry_bytes(want_pred):
    """Device bytes per (source, vertex): the int64 distance, the int32 parent, and the
    three bitsets' bit (rounded up to a byte)."""
    return 8 + (4 if want_pred else 0) + 1


class MultiSourceBFS:
    """The state of one batch (at least one source); ``run`` returns its SourceBatch."""

    def __init__(self, ex, graph, sources, *, cutoff, want_pred, alpha, direction):
        from ...ops.ms_bfs import last_word_mask

        xp, arrays = ex.xp, ex.ops("array_ops")
        n, b = graph.n, len(sources)
        self.ex, self.graph, self.ops = ex, graph, ex.ops("ms_bfs")
        self.g = graph.on(ex)
        self.in_degree = graph.on_device(ex, "in_degree")
        self.alpha, self.direction = alpha, direction
        self.words = words = max(1, -(-b // 64))
        self.last_mask = last_word_mask(b)
        self.sources = np.asarray(sources, dtype=np.int64)
        self.frontier, self.seen, self.next = (xp.zeros(n * words, dtype=np.uint64)
                                               for _ in range(3))
        self.dist = arrays.full((b, n), distance_inf(np.int64), np.int64)
        self.pred = arrays.full((b, n), -1, np.int32) if want_pred else None
        self.counts = xp.zeros(3, dtype=np.uint64)
        self.stop = depth_limit(cutoff)
        self.stats = {"levels": 0, "top_down_levels": 0, "bottom_up_levels": 0}
        rows = np.arange(b)
        arrays.put(self.dist, rows * n + self.sources, 0)
        # source j is bit j % 64 of word j // 64 at its vertex (a vertex may be the
        # source of several rows: their bits are OR-ed)
        entry = self.sources * words + rows // 64
        bit = np.left_shift(np.uint64(1), (rows % 64).astype(np.uint64))
        order = np.argsort(entry, kind="stable")
        entry, bit = entry[order], bit[order]
        starts = np.flatnonzero(np.r_[True, entry[1:] != entry[:-1]])
        arrays.put(self.next, entry[starts], np.bitwise_or.reduceat(bit, starts))
        self.level = 0
        self.advance()

    def advance(self):
        """next becomes the frontier; the host reads the level's counts."""
        self.ex.fill_bytes(self.counts, 0)
        self.ops.advance(self.g, self.in_degree, self.words, self.last_mask, self.frontier,
                         self.seen, self.next, self.counts)
        self.active, self.arcs, self.missing = (int(x) for x in
                                                self.ex.to_host(self.counts).tolist())

    def bottom_up(self):
        if self.direction != "auto":
            return self.direction == "bottom-up"
        return self.arcs * self.alpha > self.missing

    def run(self):
        while self.active and (self.stop is None or self.level < self.stop):
            if self.bottom_up():
                rg = self.graph.reverse.on(self.ex)
                self.ops.bottom_up(rg, self.words, self.last_mask, self.frontier, self.seen,
                                   self.next, self.dist, self.pred, self.level)
                self.stats["bottom_up_levels"] += 1
            else:
                self.ops.top_down(self.g, self.words, self.frontier, self.seen, self.next,
                                  self.dist, self.pred, self.level)
                self.stats["top_down_levels"] += 1
            self.level += 1
            self.advance()
        self.stats["levels"] = self.level
        return SourceBatch(self.sources, self.dist, self.pred)


@method(name="batched-bfs", problem="all-pairs",
        summary="unweighted only: multi-source BFS, a bit per source (64 sources a word), "
                "top-down or bottom-up per level; B from free device memory",
        paper="Then et al., VLDB 2015, The More the Merrier (MS-BFS); Beamer et al. 2012 "
              "direction choice",
        unit_weights_only=True,
        options={"batch": (None, "sources per batch (default: as many as free memory holds, "
                                 "a multiple of 64)"),
                 "alpha": (ALPHA, "bottom-up when frontier out-arcs > missing in-arcs / alpha"),
                 "direction": ("auto", "'auto', or always 'top-down' / 'bottom-up'")})
def batched_bfs(ex, graph, sources, *, cutoff=None, want_pred=True, batch=None,
                alpha=ALPHA, direction="auto"):
    require_unit_weights(graph, "batched-bfs")
    if direction not in DIRECTIONS:
        raise ValueError(f"gpusp batched-bfs: direction must be one of {DIRECTIONS}, got "
                         f"{direction!r}")
    if not alpha > 0:
        raise ValueError(f"gpusp batched-bfs: alpha must be > 0, got {alpha}")
    sources = np.asarray(sources, dtype=np.int64)
    b = batch_size(ex, graph, len(sources), entry_bytes(want_pred), "batched BFS state",
                   batch)
    if batch is None and 64 < b < len(sources):
        b -= b % 64  # whole words, unless one batch holds every source
    for start in range(0, len(sources), b):
        yield MultiSourceBFS(ex, graph, sources[start:start + b], cutoff=cutoff,
                             want_pred=want_pred, alpha=alpha, direction=direction).run()
