"""Near-far SSSP with adaptive delta (method "near-far", the default): nx-gpusp's own.

Rounds are those of the frontier engine (snapshot relaxation, predecessors only on a
strict decrease: predecessor cycles are negative cycles) restricted to the "near"
entries, those whose snapshot is below the frontier minimum + delta; the others wait
in the frontier while they stay current. On road networks plain frontier
Bellman-Ford relaxes every arc ~20 times (NY: 15.9M arc relaxations for 0.73M arcs);
near-far relaxes each about once, and rounds stay close to the hop depth of the
shortest-path tree. Small frontiers (<= ``block_cap`` entries) run many rounds inside
one launch of a small team, synchronised by barriers only: on Hopper a thread-block
cluster of 8 blocks (8 multiprocessors issue the round's scattered loads and atomics;
the barrier is the hardware cluster barrier), else one block; large ones run one
multi-block round per launch. Delta adapts (x2 / /2) towards a number of near entries
per round: one per thread for the multi-block rounds; for the team, a quarter of its
threads (at least one block's).

Inline sub-rounds (option ``inline``, lengths only: team rounds that keep no
predecessors). A team round's rounds stay close to the tree's hop depth (NY: ~700),
each paying the team's two cluster barriers, snapshot and carry (~10 us). Inline, a
vertex lowered below the round's threshold goes to its block's shared-memory queue
instead of the next frontier, and the block relaxes the queue in the same round, sub-
round after sub-round separated by block barriers only, until it is empty: Delta-
stepping's inner loop over a bucket, block by block. NY: 24 rounds and ~860 sub-rounds
instead of 699 rounds; 4.3 ms instead of 6.8 on the H100. A queue that overflows (a
wave wider than one block should relax, as on R-MAT or random graphs) goes to the
frontier, so the multi-block and dense rounds take it. Predecessor-tracking rounds
run without: predecessors written inline could be overwritten out of order (keyed
rounds keep them, below).
On graphs with rows longer than HEAVY_ARCS (skewed degrees, as R-MAT's) only rows of at
most INLINE_ARCS (16) arcs are relaxed inline; longer ones go to the next frontier,
which the whole team takes, or which hands the run over to the dense rounds: a wave
through R-MAT's mid-degree vertices otherwise ran on one block's sub-rounds while the
team's other blocks waited (H100, lengths, median of 10 sources, round-robin in one
process: R-MAT 20 2.26 -> 2.01 ms, R-MAT 19 seed 3 1.82 -> 1.41, R-MAT 18 seed 7 1.39 ->
0.93; limits of 4, 8 and 32 arcs within 5% of 16; no inline at all was faster still
on R-MAT but 13% slower on a road grid with one 3,000-arc hub).

Negative weights: correct (any processing order converges), NetworkXUnbounded when a
frontier distance falls below -(n-1)*max|w| (impossible without a negative cycle) or
the predecessor graph has a cycle, checked between launches at doubling intervals.
With deferred entries a round bound of n does not hold, so those two tests decide.
With float weights, zero-length cycles that rounding makes negative are judged by
frontier_sssp once the run ends (see frontier.py), so every method agrees.

Dense hand-over. When the frontier grows past n / ``dense_fraction`` entries or its
entries' out-arcs past m / ``dense_fraction`` (low-diameter graphs such as the
7-random-predecessor ones; R-MAT's waves after a hub, a few thousand entries holding
millions of arcs, which the team's eight multiprocessors walked round after round:
R-MAT 20 from the median source 4.1 -> 2.7 ms on the H100), a queue of scattered
entries costs more per round than a flag scan over all vertices, whose CSR reads are in
vertex order. A frontier whose out-arcs pass both TEAM_ARCS (32) a team thread and
m / 256 is handed over too: the team's eight multiprocessors took long rounds over such
a wave while the rest of the GPU idled (H100, median of 24 runs, 12 sources twice,
round-robin in one process: random-pred 4M 2.24 -> 2.11 ms, R-MAT 20 2.15 -> 2.04,
R-MAT 19 seed 3 1.72 -> 1.56; NY, FLA, COL and a 6M-vertex road graph within 1%, their
frontiers never that wide). Near-far then flags its frontier's vertices and finishes
with dense rounds (``dense_rounds``): asynchronous rounds, flags alternating between
two arrays (Safari & Ebnenasir's LBR with k = 1), on int32 distances whenever
n * max w fits, all in one cooperative launch whose rounds are separated by grid
barriers (a launch a round cost the host ~27 us each, more than a late round's GPU
time, and the host looked at the changed flags every few rounds: the GPU waited on
it). Near-far's rule carries over: a round relaxes only the flagged vertices below a
threshold, from their current distances; the others stay flagged. The threshold is
read off a histogram of the distances the previous round left pending, so that about
``dense_target`` vertices relax a round (random-pred 4M: 5.5M relaxations for 4.2M
vertices instead of 11.7M without a threshold). In every round that relaxes (team,
inline sub-rounds, grid, dense; not the predecessor passes, which need each arc's tail)
the arcs of a warp's rows of up to 32 arcs are dealt out over its lanes: coalesced
loads, and as many dependent load-and-atomic steps as the warp's arcs need, not its
longest row's (H100, round-robin medians: random-pred 4M's dense phase 1.9 -> 1.3 ms;
NY 4.54 -> 3.99 ms and FLA 12.17 -> 11.26 ms from the team's rounds). Rows longer than
32 arcs are expanded by a whole warp, and rows longer than HEAVY_ARCS (1,024) are split
into chunks that the grid shares after a second barrier a round (R-MAT's hubs were each
round's tail: one warp on 64K arcs); the team rounds likewise split them over the
team's warps after each round's visit. On graphs without rows that long, a dense
round's warp takes up to 8 x 32 flags at a time, their distances in flight together, and
relaxes the taken vertices 32 rows at a time (visit_flagged_arcs in near_far.cu): one
chain of dependent loads and atomics a span instead of one per 32 vertices (H100,
lengths as a NetworkX call runs them, median of 33 calls round-robin in one process,
against 32 vertices at a time: random-pred 4M 1.81 -> 1.59 ms, with float weights 2.72
-> 2.28, with weights up to 1,000 (int64 distances) 3.39 -> 2.93, 1M 0.97 -> 0.95;
skewed graphs keep the 32-vertex walk, see the kernel's notes). Only with non-negative
weights (any order then converges to the same distances). Predecessors of a handed-over run
come from its keys (keyed rounds, below) or from the tight-arc tree of the final
distances (solvers.sssp.tree), whose pass reads the dense phase's int32 distances.

Long rows wait. A dense round walks a row longer than HEAVY_ARCS only if its vertex's
distance is within ``_settle`` of the least pending one: the least arc weight (no
pending vertex can lower it again: the IN criterion of Crauser, Mehlhorn, Meyer and
Sanders, MFCS 1998) + the mean weight / SETTLE_FRACTION; the others stay pending. On
R-MAT a wave reached the hubs inside one round's threshold and the next rounds lowered
them again: rounds 1-3 each walked 13-17M of R-MAT 20's 31.4M arcs in hub rows (H100,
median of 24 runs: R-MAT 20 1.93 -> 1.77 ms, R-MAT 22 5.90 -> 5.16; the least weight alone
gained more on R-MAT but cost flatter Kronecker graphs up to 18%; table in
the git history of docs/benchmarks.md).

int32 runs. Where the dense rounds may run (non-negative weights) and every distance
fits int32 (integer weights, n * max w < 2**31 - 2), the whole run is on int32
distances and weights: the team's and grid rounds too, so the hand-over narrows
nothing and the result is not widened back (two passes over n distances: 0.04 and
0.05 ms on random-pred 4M); its ``dist`` is int32, unreached the int32 maximum.

Keyed rounds (paths at the price of lengths). In an int32 run whose weights are all at
least 1 (_keyable), a run that wants predecessors keeps the lengths-only rounds (inline
sub-rounds included) and every lowering of dist[v] to d from tail u also lowers a 64-bit
key[v] to (d << 32 | u) (record_keys in near_far.cu: an atomicMin nothing waits for).
The least key is the lowering to v's final distance, whose tail relaxed from its own
final distance, so the keys' tails (nf_key_preds) are a tree of tight arcs from strictly
closer vertices, whatever order the rounds ran in. The tight-arc tree instead costs a
pass gathering a distance for every arc; keys cost an atomic for every lowering, a
small multiple of n, and 8 bytes a vertex that compete with the distances for L2. So
answers.sssp_on_device takes keyed paths (keyed_predecessors) only on graphs of at
least KEYED_DEGREE arcs a vertex. H100, paths as a NetworkX call gets them, keyed /
tree, median of 33 calls (11 sources x 3) round-robin in one process: random-pred 1M
with 4, 7, 12, 16, 24 predecessors 1.030, 0.977, 0.994, 0.921, 0.885; R-MAT 20 with
edge factors 4, 8, 16 0.956, 0.993, 0.940; Kronecker 20 0.959; R-MAT 21 directed 0.978;
R-MAT 22 0.934; random-pred 4M 1.134 (its keys and distances, 48 MB, crowd L2); NY
1.094. Called directly with want_pred, the solver keys any _keyable run: cheaper than
the predecessor-tracking rounds, which give up inline sub-rounds.

The host's own work. Between two launches the GPU waits for whatever the host does
after reading the control block, and on random-pred 1M a run's kernels take ~0.7 ms:
timed on the H100 (a CUDA event recorded beside each host step), the hand-over alone
(allocating and zeroing the flags, the dense control's arrays, a second read for
tctl) left the GPU idle ~0.3 ms. So ctl and tctl are one block read in one copy, the
dense phase's buffers and control block (a device copy of a template) are made while
the first launch runs, and a handed-over run returns without waiting for its rounds
(its statistics are read when asked; the tree's launches queue behind the rounds).
The hand-over's verdict is the device's: after each launch nf_hand_over sets
ctl[CTL_HANDED] and flags the frontier (the rule above), and after a team launch the
host queues the copy of the control block and then the dense rounds, which start only
if the verdict says so (`go`), from tctl's minimum and delta read on the device. The
host reads its copy while they run: no round trip between the team and the dense
rounds (after a grid round, which the host follows with the next round, the rounds are
launched once the verdict is read). A run's working arrays other than its distances,
predecessors and keys (stamps, frontier buffers, control block, long-row queues, flags,
a page-locked copy of the control block) are kept with the device graph for its next
run (DeviceCSR.scratch) instead of a dozen allocations a run. On R-MAT 20 the host took
~0.26 ms to launch a run's dense rounds, of which the GPU spent ~0.07 ms in its team
round and idled the rest. H100, lengths as a NetworkX call gets them, median of 33
calls (11 sources x 3) round-robin in one process against the code before: R-MAT 20
1.814 -> 1.618 ms, random-pred 1M 0.725 -> 0.634, 4M 1.537 -> 1.428, Kronecker 19
2.289 -> 2.068, NY 3.284 -> 3.155 (table in the git history of
docs/benchmarks.md).
"""

import functools
from types import SimpleNamespace

import networkx as nx
import numpy as np

from ...methods import method
from ...ops.near_far import (ARC_CAP_NONE, BLOCK_THREADS, CLUSTER, CTL_HANDED, CTL_PARITY,
                             CTL_ROUND, CTL_SIZE, CTL_SLOTS, CTL_SUB, CTL_TOTAL_NEAR, HEAVY_ARCS,
                             INLINE_QUEUE, INT32_MAX, split_control)
from . import SSSPResult, cutoff_value, check_negative_cycle, distance_inf, source_indices
from .bellman_ford import refuse_cycles_before_overflow
from .frontier import frontier_sssp

__all__ = ["near_far_sssp", "dense_rounds", "keyed_predecessors"]

GRID_TARGET = 1 << 17  # near entries per multi-block round that delta aims at
DENSE_FRACTION = 16  # hand over to dense rounds above n / DENSE_FRACTION frontier entries
TEAM_ARCS = 32  # ... or above this many out-arcs a team thread and m / DENSE_ARC_FLOOR
DENSE_ARC_FLOOR = 256
CAP_PER_THREAD = 8  # default team cap: frontier entries per team thread
DENSE_TARGET = 1 << 18  # vertices relaxed per dense round that the threshold aims at
INLINE_CAP = INLINE_QUEUE  # entries of a team block's inline sub-round (at most INLINE_QUEUE)
# longest row relaxed inline on graphs with rows past HEAVY_ARCS (the _heavy kernels);
# longer ones go to the next frontier, which the whole team takes (see the module's notes)
INLINE_ARCS = 16
# dense rounds walk a row longer than HEAVY_ARCS within the least weight + the mean weight
# / SETTLE_FRACTION of the least pending distance (_settle; the module's notes)
SETTLE_FRACTION = 16
# paths come from keyed rounds on graphs of at least this many arcs a vertex (see the
# module's notes), else from the tight-arc tree
KEYED_DEGREE = 12


def keyed_predecessors(graph):
    """Whether paths on ``graph`` come from keyed rounds (see the module's notes): where
    they may (_keyable) and the graph has at least KEYED_DEGREE arcs a vertex."""
    return _keyable(graph) and graph.m >= KEYED_DEGREE * graph.n


def _keyable(graph):
    """An int32 run (every distance within int32) whose weights are integers of at
    least 1, so that every key's tail is strictly closer than its head."""
    return graph.int32_distances and graph.integer_weights_at_least_one


def _dense_ok(graph, dense_fraction):
    return dense_fraction > 0 and not graph.has_negative_weights


def _run_dtype(graph, dense_fraction):
    """The run's distance type: int32 where the dense rounds may run and every distance
    fits it (their type: no conversion at the hand-over or at the end), else the
    graph's."""
    if _dense_ok(graph, dense_fraction) and graph.int32_distances:
        return np.dtype(np.int32)
    return graph.distance_dtype()


def _arc_cap(graph, dense_fraction, team_threads):
    """The team hands a run over once its frontier's out-arcs pass m / dense_fraction
    (as its entries past n / dense_fraction: the two agree where degrees are even), or
    sooner once they pass both TEAM_ARCS a team thread and m / DENSE_ARC_FLOOR: such a
    frontier (a low-diameter graph's wave) takes the team's few multiprocessors long
    rounds, where the whole grid's dense rounds relax it at once."""
    return min(graph.m // dense_fraction,
               max(graph.m // DENSE_ARC_FLOOR, TEAM_ARCS * team_threads))


def dense_rounds(ex, graph, dist, flags, cut, *, spare=None, target=0, fmin=0, delta=None,
                 space=None, wait=True, keys=None, span=None, go=None, start=None,
                 max_rounds=None):
    """Dense rounds (nf_dense_rounds) from the vertices flagged in ``flags`` until none is
    left pending; ``dist`` is lowered in place. The first round relaxes the flagged
    vertices below ``fmin + delta``; the next ones about ``target`` vertices each, the
    threshold read off the histogram of the distances the previous round left pending
    (target 0: below the least pending distance + ``delta``; ``delta`` None: no
    threshold, every flagged vertex relaxes). ``spare``: a zeroed flag array for the
    alternate rounds (allocated if not given). ``space``: what ``dense_space`` prepared
    for ``dist``'s graph and type (made here if not given). Non-negative weights only.
    ``keys``: a keyed run's (int32 ``dist``; see the module's notes). ``span``: the
    flags a lane takes at a time (None: ops.near_far.flag_span's choice by size; CUDA).
    ``go`` and ``start`` (a near-far run's ctl and tctl, read on the device; not with a
    ``space`` that narrows): the rounds run only if the run was handed over, and the first
    one from its tctl (ops.near_far's dense_phase). ``max_rounds``: their bound (None:
    ops.near_far.dense_round_bound; reaching it raises NetworkXAlgorithmError).
    Returns the number of rounds run (waiting for them), or with ``wait=False`` a
    function that reads it (nothing waits: what the caller launches next queues
    behind the rounds)."""
    ops = ex.ops("near_far")
    g = graph.on(ex)
    space = dense_space(ex, graph, dist.dtype) if space is None else space
    narrow = space.work is not None
    if narrow and (go is not None or start is not None):
        raise ValueError("near-far: go and start need the run's own distance type")
    inf = distance_inf(np.int32 if narrow else dist.dtype)
    delta = inf if delta is None else delta
    if narrow:  # unreached (the int64 maximum) becomes the int32 maximum and back
        work = space.work
        ops.narrow(dist, work)
        cut, fmin, delta = (int(min(max(x, -INT32_MAX), INT32_MAX - 1))
                            for x in (cut, fmin, delta))
    else:
        work = dist
    pair = (flags, ex.xp.zeros_like(flags) if spare is None else spare)
    # settle <= 2 max w (_settle) fits wherever the rounds' distances do
    ops.dense_phase(g, space.weights, work, pair, cut, space.control, fmin, delta, target,
                    space.heavy, space.settle, keys, span, go, start, max_rounds)
    if narrow:
        ops.widen(work, dist)
    if not wait:
        return functools.partial(ops.dense_rounds_run, space.control)
    return ops.dense_rounds_run(space.control)


def dense_space(ex, graph, dtype, heavy=None):
    """What dense rounds on ``graph`` from ``dtype`` distances need besides their flags,
    allocated and initialised (the work queued on the device): int32 distances and
    weights where n * max w fits int32 (``work`` None: the rounds lower ``dtype``'s
    distances themselves, as those of an int32 run), the rounds' control block, the
    long-row queue (``heavy``: an empty one of ``dtype`` made by the caller, else a new
    one) and, on graphs with rows longer than HEAVY_ARCS, ``settle`` (_settle: how far
    above the least pending distance the rounds walk such a row; None: no rows that
    long). The solver makes it while its first launch runs, so that a hand-over only
    launches."""
    ops = ex.ops("near_far")
    narrow = graph.int32_distances
    kind = np.dtype(np.int32 if narrow else dtype)
    return SimpleNamespace(
        work=ex.xp.empty(graph.n, dtype=np.int32) if kind != np.dtype(dtype) else None,
        weights=graph.weights_as(ex, np.int32) if narrow else graph.on(ex).weights,
        control=ops.dense_control(kind),
        heavy=heavy if heavy is not None and kind == dtype else ops.heavy_rows(graph, kind),
        settle=_settle(graph) if graph.max_out_degree > HEAVY_ARCS else None)


def _settle(graph):
    """How far above the least pending distance the dense rounds walk a row longer than
    HEAVY_ARCS (nf_dense_rounds): the least weight, under which no pending vertex can
    lower it again (the IN criterion), + the mean weight / SETTLE_FRACTION."""
    extra = graph.mean_abs_weight / SETTLE_FRACTION
    return graph.min_weight + (extra if graph.weights.dtype.kind == "f" else int(extra))


def _queue_dense_rounds(ex, graph, st, cut, target, space, keys, *, only_if_handed):
    """Dense rounds from near-far's state (ops.near_far's hand_over flagged the frontier's
    vertices), the first threshold near-far's next one (tctl's frontier minimum and delta,
    read on the device; target 0: none), without waiting; returns dense_rounds' reader of
    the rounds run. ``only_if_handed``: they run only if the hand-over's verdict, read on
    the device, says so (queued behind a team launch before the host has read it)."""
    flags, spare = space.flags
    return dense_rounds(ex, graph, st.dist, flags, cut, spare=spare, target=target,
                        space=space, wait=False, keys=keys,
                        go=st.ctl if only_if_handed else None,
                        start=st.tctl if target else None)


def _handed_over(ex, st, srcs, stats, space, keys, rounds_run):
    """The result of a run handed over to dense rounds (``rounds_run``: their reader).
    ``keys``: a keyed run's, whose tree is then queued behind the rounds."""

    def dense_stats(stats):  # read when the stats are (the device has finished by then)
        dense = rounds_run()
        return {"rounds": stats["rounds"] + dense, "dense_rounds": dense}

    # pred None (not keyed): the result layer derives the tight-arc tree of the final
    # distances
    return SSSPResult(dist=st.dist, pred=_key_tree(ex, st, keys), sources=srcs.astype(np.int64),
                      executor=ex, stats=stats, int32_dist=space.work, late_stats=dense_stats)


def _key_tree(ex, st, keys):
    """A keyed run's predecessors (into st.pred), None for a run without keys."""
    if keys is None:
        return None
    ex.ops("near_far").key_predecessors(keys, st.pred)
    return st.pred


def _hand_over_space(ex, graph, dtype, scratch):
    """dense_space, with the long-row queue and the two flag arrays (zeroed: one memset)
    kept in ``scratch`` (made there by the graph's first hand-over)."""
    ops = ex.ops("near_far")
    if scratch.flags is None:
        scratch.dense_heavy = ops.heavy_rows(graph, dtype)
        flags = ex.xp.empty(2 * graph.n, dtype=np.uint8)
        scratch.flags = (flags, flags[: graph.n], flags[graph.n:])
    space = dense_space(ex, graph, dtype, ops.clear_heavy_rows(scratch.dense_heavy))
    ex.fill_bytes(scratch.flags[0], 0)
    space.flags = scratch.flags[1:]
    return space


def _initial_delta(graph, dtype):
    mean = graph.mean_abs_weight
    if dtype.kind == "f":
        return float(mean) if mean > 0 else 1.0
    return max(1, int(mean))


@method(name="near-far", problem="sssp",
        summary="near-far frontier with adaptive delta; many rounds per launch of a thread-"
                "block cluster while the frontier is small, warp-cooperative multi-block "
                "rounds when large, asynchronous int32 flag rounds once it holds a large "
                "part of the graph",
        paper="ours (near-far pile of Davidson et al. 2014 on the frontier engine's invariant)",
        negative_weights=True,
        tree_from_distances=True,
        inline_predecessors=keyed_predecessors,
        options={"delta": (None, "initial near-far width (default: mean |weight|); adapts"),
                 "cluster": (None, "blocks of the team that runs small frontiers: 8 (a "
                                   "thread-block cluster) or 1 (one block); default 8 on "
                                   "GPUs with clusters (compute 9.0+), else 1"),
                 "team_target": (None, "near entries per team round that delta adapts "
                                       "towards (default: a quarter of the team's threads, "
                                       "at least 1024)"),
                 "block_cap": (None, "largest frontier run by the team launch (default: "
                                     f"{CAP_PER_THREAD} per team thread)"),
                 "grid_target": (GRID_TARGET, "near entries per multi-block round that delta "
                                              "adapts towards"),
                 "dense_fraction": (DENSE_FRACTION, "hand over to dense flag rounds above "
                                                    "n / dense_fraction frontier entries "
                                                    "or m / dense_fraction of their out-"
                                                    "arcs, or sooner past both "
                                                    f"{TEAM_ARCS} out-arcs a team thread "
                                                    f"and m / {DENSE_ARC_FLOOR} (non-"
                                                    "negative weights; 0: never)"),
                 "inline": (True, "team rounds without predecessors (lengths only): a "
                                  "vertex lowered below the round's threshold is relaxed "
                                  "in the same round by its block (block sub-rounds)"),
                 "dense_target": (DENSE_TARGET, "vertices relaxed per dense round that the "
                                                "dense rounds' threshold aims at (0: no "
                                                "threshold, every flagged vertex relaxes)")})
def near_far_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, delta=None,
                  cluster=None, team_target=None, block_cap=None, grid_target=GRID_TARGET,
                  dense_fraction=DENSE_FRACTION, dense_target=DENSE_TARGET, inline=True):
    ops = ex.ops("near_far")
    n = graph.n
    dtype = _run_dtype(graph, dense_fraction)
    g = graph.on_as(ex, dtype)  # an int32 run: its weights as int32 too
    # predecessors from keys wherever the rounds can record them (int32 runs): cheaper
    # than predecessor-tracking rounds (answers.sssp_on_device asks for them only where
    # they also beat the tight-arc tree: keyed_predecessors)
    keyed = bool(want_pred) and dtype == np.int32 and _keyable(graph)
    # + 6 bytes a vertex: the dense phase's two flag arrays and int32 distances; + 8 for
    # a keyed run's keys
    ex.require_bytes(n * (3 * dtype.itemsize + 5 * 4 + 6 + 8 * keyed), "near-far SSSP state")
    track_pred = bool((want_pred and not keyed) or graph.has_negative_weights)
    cut = cutoff_value(cutoff, dtype)
    srcs = source_indices(sources, np.int32)
    # options are checked before anything is allocated
    team = _team(ops, cluster)
    _check_dense_target(dense_target)
    refuse_cycles_before_overflow(ex, graph, sources)
    step = _initial_step(graph, dtype, delta)
    with graph.on(ex).scratch(("near-far", dtype), functools.partial(_scratch, ex, graph, dtype)) \
            as scratch:
        st = _initial_state(ex, ops, n, dtype, srcs, step, scratch)
        host_ctl = np.zeros(CTL_SLOTS, dtype=np.int32)
        if not graph.has_out_arcs(srcs):  # the initial state is the answer: no launch
            return SSSPResult(dist=st.dist, pred=st.pred if want_pred else None,
                              sources=srcs.astype(np.int64), executor=ex,
                              stats=_stats(host_ctl, 0))
        keys = ops.unset_keys(n) if keyed else None
        host_ctl[CTL_SIZE] = len(srcs)
        guard = _CycleGuard(ex, graph, st.pred)
        launches = 0
        dense = _dense_ok(graph, dense_fraction)
        arc_cap = (_arc_cap(graph, dense_fraction, team * BLOCK_THREADS) if dense
                   else ARC_CAP_NONE)
        team_target, block_cap = _team_sizes(team, team_target, block_cap)
        heavy = ops.clear_heavy_rows(scratch.heavy)  # long rows split over the team
        space = None  # the dense phase's, made while the first launch runs
        while host_ctl[CTL_SIZE] > 0:
            size = int(host_ctl[CTL_SIZE])
            teamed = size <= block_cap
            if teamed:
                ops.block_rounds(g, st, block_cap, guard.max_rounds, track_pred, cut, team,
                                 team_target, INLINE_CAP if inline and not track_pred else 0,
                                 heavy, arc_cap, INLINE_ARCS, keys)
            else:
                ops.grid_round(g, st, size, int(host_ctl[CTL_PARITY]), track_pred, cut,
                               grid_target, keys)
            launches += 1
            rounds_run = None
            if dense:
                if space is None:
                    space = _hand_over_space(ex, graph, dtype, scratch)
                ops.hand_over(st, min(dense_fraction, n + 1), space.flags[0])
            if dense and teamed:  # the rounds queued behind the verdict (module's notes)
                read = ex.to_host_async(st.ctl, out=scratch.host_ctl)
                rounds_run = _queue_dense_rounds(ex, graph, st, cut, dense_target, space,
                                                 keys, only_if_handed=True)
                host_ctl, host_tctl = split_control(read().copy(), dtype)
            else:
                host_ctl, host_tctl = split_control(ex.to_host(st.ctl).copy(), dtype)
            if host_ctl[CTL_HANDED]:
                if rounds_run is None:
                    rounds_run = _queue_dense_rounds(ex, graph, st, cut, dense_target, space,
                                                     keys, only_if_handed=False)
                return _handed_over(ex, st, srcs, _stats(host_ctl, launches), space, keys,
                                    rounds_run)
            if host_ctl[CTL_SIZE] > 0:
                guard.after_launch(host_ctl, host_tctl)
    pred = st.pred if keys is None else _key_tree(ex, st, keys)
    if graph.has_negative_weights and dtype.kind == "f":
        # rounding cycles: frontier_sssp's verdict (its order is not near-far's); where
        # near-far's own predecessors went round such a cycle, the tight-arc tree is used
        frontier_sssp(ex, graph, srcs, want_pred=False)
        if want_pred and ex.ops("paths").has_predecessor_cycle(pred):
            pred = None
    return SSSPResult(dist=st.dist, pred=pred if want_pred else None,
                      sources=srcs.astype(np.int64), executor=ex,
                      stats=_stats(host_ctl, launches))


def _team(ops, cluster):
    """Blocks of the team launch: ``cluster``, or the device's default (1 or CLUSTER)."""
    team = ops.default_team() if cluster is None else cluster
    if team not in (1, CLUSTER):
        raise ValueError(f"near-far: cluster must be 1 or {CLUSTER} blocks, got {cluster!r}")
    return team


def _team_sizes(team, team_target, block_cap):
    """(team_target, block_cap): the options, or their defaults for a team of ``team``
    blocks (a quarter of its threads, at least one block's; CAP_PER_THREAD entries a
    thread)."""
    if team_target is None:
        team_target = max(BLOCK_THREADS, team * BLOCK_THREADS // 4)
    if block_cap is None:
        block_cap = CAP_PER_THREAD * team * BLOCK_THREADS
    return team_target, block_cap


def _check_dense_target(dense_target):
    if isinstance(dense_target, bool) or not isinstance(dense_target, (int, np.integer)) \
            or dense_target < 0:
        raise ValueError("near-far: dense_target must be a non-negative integer (vertices "
                         f"relaxed per dense round; 0: no threshold), got {dense_target!r}")


def _initial_step(graph, dtype, delta):
    """The first delta: the option (positive; integer graphs round it down, at least 1),
    or the mean |weight|."""
    if delta is None:
        return _initial_delta(graph, dtype)
    if not delta > 0:
        raise ValueError(f"near-far: delta must be positive, got {delta!r}")
    return delta if dtype.kind == "f" else max(1, int(delta))


def _scratch(ex, graph, dtype):
    """A run's working arrays besides its distances, predecessors and keys, kept with the
    device graph between runs (DeviceCSR.scratch): stamps, both frontier buffers, the
    control block and a page-locked host array for its copies, the team's long-row
    queue; the dense phase's flags and long-row queue once a run is handed over
    (_hand_over_space)."""
    xp, ops = ex.xp, ex.ops("near_far")
    slots = max(graph.n, 1)  # frontier entries (at least one: nf_init writes the first)
    ctl, tctl = ops.control_block(dtype)
    return SimpleNamespace(
        stamp=xp.empty(graph.n, dtype=np.int32), fv=xp.empty(slots, dtype=np.int32),
        fd=xp.empty(slots, dtype=dtype), gv=xp.empty(slots, dtype=np.int32),
        gd=xp.empty(slots, dtype=dtype), ctl=ctl, tctl=tctl,
        host_ctl=ex.pinned_empty(ctl.size, ctl.dtype), heavy=ops.heavy_rows(graph, dtype),
        flags=None, dense_heavy=None)


def _initial_state(ex, ops, n, dtype, srcs, step, scratch):
    """The device state of a run (new distances and predecessors; stamps, both frontier
    buffers, ctl and tctl from ``scratch``), its frontier the sources."""
    xp = ex.xp
    st = SimpleNamespace(
        dist=xp.empty(n, dtype=dtype), pred=xp.empty(n, dtype=np.int32),
        stamp=scratch.stamp, fv=scratch.fv, fd=scratch.fd, gv=scratch.gv, gd=scratch.gd,
        ctl=scratch.ctl, tctl=scratch.tctl)
    # one launch for a single source; several sources are added from the host
    ops.init_state(st, int(srcs[0]) if len(srcs) == 1 else -1, step)
    if len(srcs) > 1:
        arrays = ex.ops("array_ops")
        arrays.put(st.dist, srcs.astype(np.int64), 0)
        st.fv[: len(srcs)] = ex.asarray(srcs)
        ex.fill_bytes(st.fd[: len(srcs)], 0)
        arrays.put(st.ctl, np.array([CTL_SIZE]), len(srcs))
    return st


class _CycleGuard:
    """The negative-cycle verdicts between launches (negative weights only): a frontier
    minimum below -(n-1) * max|w| or a predecessor cycle, tested at doubling round
    counts, raise NetworkXUnbounded; ``max_rounds`` bounds a team launch so that the
    next test comes in time. Without negative weights a team launch still ends within
    4n + 64 rounds (no launch runs on without bound on the device; the host launches
    again where the frontier is left)."""

    def __init__(self, ex, graph, pred):
        self.ex, self.pred = ex, pred
        self.active = graph.has_negative_weights
        self.lower_bound = (-(graph.n - 1) * max(abs(graph.min_weight), abs(graph.max_weight))
                            if self.active else None)
        self.next_check = 64
        self.max_rounds = self.next_check if self.active else min(4 * graph.n + 64, 1 << 30)

    def after_launch(self, host_ctl, host_tctl):
        """Call after a launch that left a frontier (host copies of ctl and tctl)."""
        if not self.active:
            return
        if host_tctl[0] < self.lower_bound:
            raise nx.NetworkXUnbounded("Negative cycle detected.")
        if host_ctl[CTL_ROUND] >= self.next_check:
            check_negative_cycle(self.ex, self.pred)
            self.next_check *= 2
            self.max_rounds = self.next_check - int(host_ctl[CTL_ROUND])


def _stats(host_ctl, launches):
    return {"rounds": int(host_ctl[CTL_ROUND]), "launches": launches,
            "near_entries": int(host_ctl[CTL_TOTAL_NEAR]),
            "sub_rounds": int(host_ctl[CTL_SUB])}
