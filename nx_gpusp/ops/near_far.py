"""Kernel table for kernels/near_far.cu and its NumPy twin.

State shared by both: frontier buffers (fv, fd) and (gv, gd), ``ctl`` int32[9] and
``tctl`` T[3] as documented at the top of near_far.cu, in one block of memory
(``control_block``) so that the host reads both in one copy. One call of ``block_rounds``
runs up to ``max_rounds`` rounds while the frontier has at most ``cap`` entries and
at most ``arc_cap`` out-arcs (past that: ctl[CTL_WIDE] = 1), on a
team of ``team`` blocks (1, or CLUSTER: a Hopper thread-block cluster; the twin's
rounds are the same for both), delta adapting towards ``target`` near entries a round;
one call of ``grid_round`` runs one round. Rounds are deterministic in everything but
the choice among equally valid predecessors, so the twin matches the kernels exactly.

``init_state`` sets a run's state up (one launch); ``hand_over`` decides after a launch
whether the run goes on in dense rounds (ctl[CTL_HANDED]) and then flags its frontier;
``narrow`` and ``widen`` convert distances to the dense phase's int32 and back.
Keyed runs (``keys``: an array from ``unset_keys``, int32 distances only): every round
that lowers a distance also lowers that vertex's key to (distance << 32 | tail)
(record_keys in near_far.cu), and ``key_predecessors`` turns the keys into the tree.
``dense_phase`` runs the dense phase (flag rounds after the hand-over) to its end, its
control in one block from ``dense_control`` (a copy of a template on the device, not
a zeroing, a fill and a view for each of its eight arrays), the rounds it ran read by
``dense_rounds_run``. On
CUDA it is one cooperative launch whose rounds are asynchronous (a vertex relaxes from
its current distance), so the twin matches it in the distances it converges to, not
round for round.
"""

from types import SimpleNamespace

import numpy as np

from ..graph import INT32_MAX, distance_inf  # INT32_MAX: the dense phase's int32 "unreached"
from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, relax_and_append, scalar

__all__ = ["CudaOps", "NumpyOps", "BLOCK_THREADS", "CLUSTER", "INT32_MAX", "threshold",
           "adapt_delta", "flag_span", "dense_round_bound", "checked_dense_rounds"]

BLOCK_THREADS = 1024  # threads of each team block
CLUSTER = 8  # blocks of the cluster team (NF_CLUSTER in near_far.cu)
DENSE_BUCKETS = 64  # the dense rounds' histogram of pending distances (near_far.cu)
INLINE_QUEUE = 2048  # entries of each of a team block's two inline queues (NF_QUEUE)
HEAVY_ARCS = 1024  # dense rounds queue rows longer than this for the grid (near_far.cu)
HEAVY_CHUNK = 1024  # arcs of each queued chunk (near_far.cu)
HAND_OVER_THREADS = 1 << 18  # threads of nf_hand_over, which flags a frontier of any size
# flags a lane of a dense round takes at a time, at most (MAX_FLAG_SPAN in near_far.cu:
# 8 for 32-bit distances, 4 for 64-bit ones)
MAX_FLAG_SPAN = {4: 8, 8: 4}
NULL = scalar(0, np.uint64)  # a null pointer argument (8 bytes, as a device pointer)
# kernels with a keyed int32 instantiation (``<int, true>``: rounds that record keys)
KEYED_KERNELS = ("near_far_block", "near_far_cluster", "near_far_block_heavy",
                 "near_far_cluster_heavy", "nf_relax_grid", "nf_dense_rounds")
NO_KEY = np.uint64(0xFFFFFFFFFFFFFFFF)  # a vertex no round has lowered
ARC_CAP_NONE = (1 << 63) - 1  # block_rounds' arc_cap when the frontier's arcs do not matter
(CTL_SIZE, CTL_ROUND, CTL_NEAR, CTL_PARITY, CTL_NEW, CTL_CARRY, CTL_TOTAL_NEAR, CTL_SUB,
 CTL_WIDE, CTL_HANDED) = range(10)
CTL_SLOTS = 10
TCTL_OFFSET = 40  # bytes: tctl after ctl's ten int32 (8-byte aligned) in control_block
CONTROL_INTS = 16  # the block's size in int32 (64 bytes: ctl, padding, tctl of 8-byte T)
# nf_dense_rounds' control (dense_control): int32 changed[3], dcount[3], dhist[3 x
# DENSE_BUCKETS], rounds[1], barrier[2] (uint32), then T dmin[3], dbase[3], dwidth[3]
# from DENSE_T_OFFSET bytes; all zero but dmin, dbase, dwidth (the type's "unreached")
_DENSE_INTS = {"changed": (0, 3), "dcount": (3, 3), "dhist": (6, 3 * DENSE_BUCKETS),
               "rounds": (6 + 3 * DENSE_BUCKETS, 1), "barrier": (7 + 3 * DENSE_BUCKETS, 2)}
DENSE_T_OFFSET = 8 * -(-(9 + 3 * DENSE_BUCKETS) * 4 // 8)
_DENSE_T = {"dmin": 0, "dbase": 3, "dwidth": 6}


def control_block(xp, dtype):
    """(ctl, tctl) of a run, one block of CONTROL_INTS int32: ctl its first CTL_SLOTS,
    tctl (three ``dtype``) from byte TCTL_OFFSET; a host copy of ``ctl`` holds both
    (``split_control``)."""
    ctl = xp.empty(CONTROL_INTS, dtype=np.int32)
    dtype = np.dtype(dtype)
    if xp is np:
        return ctl, ctl[TCTL_OFFSET // 4:].view(dtype)[:3]
    return ctl, xp.ndarray((3,), dtype=dtype, memptr=ctl.data + TCTL_OFFSET)


def split_control(host_block, dtype):
    """(ctl, tctl) views of a host copy of a control_block."""
    return host_block[:CTL_SLOTS], host_block[TCTL_OFFSET // 4:].view(dtype)[:3]


def dense_round_bound(n):
    """The most dense rounds a run of n vertices may take (nf_dense_rounds: n + 1 suffice
    with non-negative weights, where every round settles the least pending vertex)."""
    return min(2 * int(n) + 16, INT32_MAX)


def checked_dense_rounds(rounds):
    """``rounds`` as a dense phase reported it; -1 (its bound reached) raises."""
    if rounds < 0:
        import networkx as nx  # the kernel tables import without NetworkX (the wheel's build)

        raise nx.NetworkXAlgorithmError(
            "gpusp near-far: the dense rounds reached their bound of 2n + 16 rounds with "
            "vertices still pending, which non-negative weights rule out: a fault in "
            "gpusp (please report it with the graph); method='frontier' answers the call")
    return rounds


def dense_control_template(dtype):
    """The initial dense control of ``dtype`` distances, as bytes (see _DENSE_INTS)."""
    dtype = np.dtype(dtype)
    block = np.zeros(DENSE_T_OFFSET + 9 * dtype.itemsize, dtype=np.uint8)
    block[DENSE_T_OFFSET:].view(dtype)[:] = distance_inf(dtype)
    return block


def dense_views(block, dtype):
    """The named arrays of a host dense control block of ``dtype`` distances, as views."""
    ints = block[:DENSE_T_OFFSET].view(np.int32)
    ts = block[DENSE_T_OFFSET:].view(dtype)
    dc = SimpleNamespace(**{k: ints[a:a + size] for k, (a, size) in _DENSE_INTS.items()},
                         **{k: ts[a:a + 3] for k, a in _DENSE_T.items()})
    dc.dhist = dc.dhist.reshape(3, DENSE_BUCKETS)
    dc.barrier = dc.barrier.view(np.uint32)
    dc.block = block
    return dc


def flag_span(n, warps, dtype):
    """The flags a lane of a dense round takes at a time on graphs without rows longer
    than HEAVY_ARCS (visit_flagged_arcs in near_far.cu): the largest power of two up to
    MAX_FLAG_SPAN within 1.5 n / (32 ``warps``), so that each of the grid's warps takes
    about one span a round and none idles while others take two."""
    span, most = 1, MAX_FLAG_SPAN[np.dtype(dtype).itemsize]
    while span < most and 2 * span * 32 * warps <= 1.5 * n:
        span *= 2
    return span


def buffers(st, parity):
    """(current vertices, current snapshots, next vertices, next snapshots)."""
    if parity:
        return st.gv, st.gd, st.fv, st.fd
    return st.fv, st.fd, st.gv, st.gd


def threshold(fmin, delta, inf):
    """Near/far boundary: fmin + delta, saturating at inf (mirrors near_far.cu)."""
    if fmin >= 0 and delta >= inf - fmin:
        return inf
    return fmin + delta


def adapt_delta(delta, near, target, inf):
    """Double delta when near work < target/4, halve it above 2*target (as near_far.cu)."""
    if near < target // 4 and delta < inf / 4:
        return delta * 2
    if near > 2 * target:
        half = _half(delta)
        return half if half > 0 else delta
    return delta


class CudaOps(CudaKernelTable):
    source = "near_far.cu"
    templates = ("near_far_block", "near_far_cluster", "near_far_block_heavy",
                 "near_far_cluster_heavy", "nf_relax_grid", "nf_predecessors_grid",
                 "nf_carry_grid", "nf_advance", "nf_dense_rounds", "nf_init")
    plain = ("nf_hand_over", "nf_narrow", "nf_widen", "nf_key_preds")
    types = (np.int64, np.float64, np.int32)  # int32: dense rounds on proven-small distances
    instances = tuple(f"{k}<int, true>" for k in KEYED_KERNELS)

    @staticmethod
    def _variant(name, dtype, keys):
        """(kernel name, type) of ``name`` for ``dtype`` distances, keyed where ``keys``."""
        if keys is None:
            return name, dtype
        if np.dtype(dtype) != np.int32:
            raise ValueError("near-far: keyed rounds run on int32 distances only")
        return f"{name}<int, true>", None

    def unset_keys(self, n):
        """A keyed run's keys: n uint64, all NO_KEY (one memset)."""
        return self.ex.fill_bytes(self.cp.empty(n, dtype=np.uint64), 0xFF)

    def key_predecessors(self, keys, pred):
        """pred[v] = the tail of v's key, -1 where v has none (nf_key_preds)."""
        self.launch("nf_key_preds", pred.size, (keys, pred, scalar(pred.size, np.int32)))

    _team = None

    def default_team(self):
        """CLUSTER blocks where the device has thread-block clusters (compute 9.0+)."""
        if self._team is None:
            major = int(self.cp.cuda.Device().compute_capability[:-1])
            self._team = CLUSTER if major >= 9 else 1
        return self._team

    def control_block(self, dtype):
        """(ctl, tctl) of a run (see control_block)."""
        return control_block(self.cp, dtype)

    def init_state(self, st, source, delta):
        T = st.dist.dtype
        self.launch("nf_init", st.fv.size, (  # fv: at least one item, so ctl is set
            st.dist, st.pred, st.stamp, scalar(st.dist.size, np.int32), st.fv, st.fd, st.ctl,
            st.tctl, scalar(source, np.int32), scalar(delta, T)), dtype=T)

    def hand_over(self, st, dense_fraction, flags):
        """ctl[CTL_HANDED] = whether the run goes on in dense rounds (its team stopped
        for a wide frontier, or the frontier holds more than n / ``dense_fraction``
        entries; at most n + 1), and then the frontier's vertices flagged in ``flags``
        (nf_hand_over: the frontier's size is read on the device)."""
        n = st.dist.size
        self.launch("nf_hand_over", min(n, HAND_OVER_THREADS), (
            st.ctl, st.fv, st.gv, scalar(n, np.int32), scalar(dense_fraction, np.int32), flags))

    def narrow(self, dist, work):
        self.launch("nf_narrow", dist.size, (dist, work, scalar(dist.size, np.int32)))

    def widen(self, work, dist):
        self.launch("nf_widen", dist.size, (work, dist, scalar(dist.size, np.int32)))

    def block_rounds(self, g, st, cap, max_rounds, track_pred, cutoff, team, target,
                     inline_cap=0, heavy=None, arc_cap=ARC_CAP_NONE, inline_arcs=HEAVY_ARCS,
                     keys=None):
        """``inline_cap`` > 0: block sub-rounds of at most that many entries (<=
        INLINE_QUEUE; a wave past it goes to the frontier), in two queues of INLINE_QUEUE
        entries; 0: none. ``heavy`` (heavy_rows): rows longer than HEAVY_ARCS are split
        over the team after each round's visit; None: each walked by one warp. With
        ``heavy``, rows longer than ``inline_arcs`` are not relaxed inline. ``keys``: a
        keyed run's (see the module's notes)."""
        T = st.dist.dtype
        name = ("near_far_block" if team == 1 else "near_far_cluster") + \
            ("" if heavy is None else "_heavy")
        if not 0 <= inline_cap <= INLINE_QUEUE:
            raise ValueError(f"near-far: inline_cap must be in 0..{INLINE_QUEUE}")
        shared = 2 * INLINE_QUEUE * (4 + T.itemsize) if inline_cap else 0
        self.kernel_with_shared(*self._variant(name, T, keys), shared)((team,), (BLOCK_THREADS,), (
            g.indptr, g.indices, g.weights, st.dist, st.pred, st.stamp, st.fv, st.fd, st.gv,
            st.gd, st.ctl, st.tctl, scalar(cap, np.int32), scalar(max_rounds, np.int32),
            scalar(int(track_pred), np.int32), scalar(cutoff, T), scalar(target, np.int32),
            scalar(inline_cap, np.int32), scalar(inline_arcs, np.int32), *_queue(heavy),
            scalar(arc_cap, np.int64), _keys(keys)),
            shared_mem=shared)

    def grid_round(self, g, st, size, parity, track_pred, cutoff, target, keys=None):
        """One round over the whole grid; the frontier (``size`` entries) is in buffer
        ``parity``; ctl/tctl are advanced on the device (nf_advance). ``keys``: a keyed
        run's."""
        T = st.dist.dtype
        cv, cd, nv, nd = buffers(st, parity)
        sz = scalar(size, np.int32)
        warps = (size + 31) // 32
        name, kind = self._variant("nf_relax_grid", T, keys)
        self.launch(name, warps * 32, (
            g.indptr, g.indices, g.weights, cv, cd, sz, st.tctl, st.dist, st.stamp, nv,
            st.ctl, scalar(cutoff, T), _keys(keys)), dtype=kind)
        if track_pred:
            self.launch("nf_predecessors_grid", warps * 32, (
                g.indptr, g.indices, g.weights, cv, cd, sz, st.tctl, st.dist, st.stamp,
                st.ctl, st.pred), dtype=T)
        self.launch("nf_carry_grid", max(size, 1), (cv, cd, sz, st.dist, nv, nd, st.ctl,
                                                    st.tctl), dtype=T)
        self.kernel("nf_advance", T)((1,), (1,), (st.ctl, st.tctl, scalar(target, np.int32)))

    def dense_phase(self, g, weights, dist, flags, cutoff, dc, fmin0, delta0, target,
                    heavy=None, settle=None, keys=None, span=None, go=None, start=None,
                    max_rounds=None):
        """The dense rounds from the vertices flagged in ``flags[0]`` until a round leaves
        none flagged (``flags``: round 0's flags and a zeroed array; they alternate by
        round and are both zero at the end), all in one cooperative launch
        (nf_dense_rounds); ``dense_rounds_run`` reads how many rounds it ran.
        ``dc``: the rounds' control, a fresh ``dense_control`` block of ``dist``'s type.
        ``heavy`` (heavy_rows): rows longer than HEAVY_ARCS are queued there and relaxed
        by the whole grid after a grid barrier; None: each walked by one warp.
        ``settle`` (None: no such rule): a row longer than HEAVY_ARCS is taken only at a
        distance of at most the least pending one + ``settle`` (the solver's _settle:
        the least arc weight, under which it is final, + a margin). ``keys``: a keyed
        run's (int32 distances). ``span``: the flags a warp's lane takes at a time where no
        row is longer than HEAVY_ARCS (visit_flagged_arcs; None: flag_span's choice).
        ``go``: a run's ctl, read when the rounds start: they run only if its
        CTL_HANDED slot is set (None: they run). ``start``: a run's tctl, whose minimum
        and delta the first round takes instead of ``fmin0`` and ``delta0``.
        ``max_rounds`` (None: dense_round_bound(n)): the rounds stop there, and
        ``dense_rounds_run`` raises, if vertices are still flagged."""
        T = dist.dtype
        n = dist.size
        variant = self._variant("nf_dense_rounds", T, keys)
        fn = self.kernel(*variant)
        blocks = min(-(-n // BLOCK), self.resident_blocks(*variant))
        span = flag_span(n, max(blocks, 1) * BLOCK // 32, T) if span is None else span
        base = dc.block.data.ptr

        def at(name):  # a pointer into the block (CuPy views cost microseconds each)
            if name in _DENSE_T:
                return scalar(base + DENSE_T_OFFSET + _DENSE_T[name] * T.itemsize, np.uint64)
            return scalar(base + 4 * _DENSE_INTS[name][0], np.uint64)

        fn.kernel((max(blocks, 1),), (BLOCK,), (
            g.indptr, g.indices, weights, scalar(n, np.int32), dist, flags[0], flags[1],
            scalar(cutoff, T), *map(at, ("changed", "rounds", "barrier", "dmin", "dbase",
                                         "dwidth", "dcount", "dhist")),
            scalar(fmin0, T), scalar(delta0, T), scalar(target, np.int32),
            scalar(distance_inf(T) if settle is None else settle, T), *_queue(heavy),
            _keys(keys), scalar(span, np.int32),
            NULL if go is None else scalar(go.data.ptr + 4 * CTL_HANDED, np.uint64),
            NULL if start is None else start,
            scalar(dense_round_bound(n) if max_rounds is None else max_rounds, np.int32)),
            enable_cooperative_groups=True)

    def dense_control(self, dtype):
        """A fresh dense control block for ``dtype`` distances (dense_phase's ``dc``): a
        device copy of the template, which is uploaded once per type."""
        dtype = np.dtype(dtype)
        key = ("dense_template", dtype)
        template = self._cache.get(key)
        if template is None:
            template = self._cache[key] = self.ex.publish(
                self.cp.asarray(dense_control_template(dtype)))
        block = self.cp.empty(template.size, dtype=np.uint8)
        block.data.copy_from_device_async(template.data, template.size)
        return SimpleNamespace(block=block, dtype=dtype)

    def dense_rounds_run(self, dc):
        """The rounds the dense phase of ``dc`` ran (waits for it); raises where they
        reached their bound (dense_phase's ``max_rounds``)."""
        return checked_dense_rounds(int(dense_views(self.cp.asnumpy(dc.block),
                                                    dc.dtype).rounds[0]))

    def clear_heavy_rows(self, heavy):
        """Empty a long-row queue from heavy_rows (None: nothing to do) for a new run's
        rounds: its counts zeroed (a memset)."""
        if heavy is not None:
            self.ex.fill_bytes(heavy.count, 0)
        return heavy

    def heavy_rows(self, graph, dtype):
        """The long-row queue of a graph's team and dense rounds (HeavyRows in
        near_far.cu), or None where no row is longer than HEAVY_ARCS. A dense round takes
        a vertex once, so its chunks fit m / HEAVY_CHUNK + m / HEAVY_ARCS + 1 entries; a
        row that finds no room (a team round's frontier may hold a vertex twice) is
        walked in place by its warp."""
        if graph.max_out_degree <= HEAVY_ARCS:
            return None
        xp = self.cp
        cap = graph.m // HEAVY_CHUNK + graph.m // HEAVY_ARCS + 1
        return SimpleNamespace(u=xp.empty(cap, dtype=np.int32),
                               start=xp.empty(cap, dtype=np.int64),
                               d=xp.empty(cap, dtype=dtype), count=xp.zeros(3, dtype=np.int32),
                               cap=cap)


def _keys(keys):
    """The kernels' keys argument (a keyed run's): a null pointer for none."""
    return NULL if keys is None else keys


def _queue(heavy):
    """The kernels' long-row queue arguments (HeavyRows): null pointers for none."""
    if heavy is None:
        return (NULL,) * 4 + (scalar(0, np.int32),)
    return heavy.u, heavy.start, heavy.d, heavy.count, scalar(heavy.cap, np.int32)


class NumpyOps(NumpyTwin):
    def _round(self, g, st, size, round_, parity, thr, track_pred, cutoff, inline=False,
               keys=None):
        """One round on the host; returns (next size, near count, next minimum)."""
        cv, cd, nv, nd = buffers(st, parity)
        inf = distance_inf(st.dist.dtype)
        cur_v, cur_d = cv[:size], cd[:size]
        near = cur_d < thr
        near_v, near_d = cur_v[near].astype(np.int64), cur_d[near]
        owner, arcs = gather_arcs(g.indptr, near_v)
        heads = g.indices[arcs]
        cand = near_d[owner] + g.weights[arcs]
        if inline:
            new = _relax_inline(g, st, round_, heads, cand, cutoff, thr, near_v[owner], keys)
        else:
            if keys is not None:  # relax_and_append picks the same arcs for itself
                _record_keys(keys, st.dist, heads, cand, near_v[owner], cutoff)
            new = relax_and_append(st.dist, st.stamp, round_, heads, cand, cutoff)
        if track_pred:
            tight = (st.stamp[heads] == round_) & (cand == st.dist[heads])
            st.pred[heads[tight]] = near_v[owner[tight]]
        far = ~near
        carried = far & (st.dist[cur_v] == cur_d)
        carry_v, carry_d = cur_v[carried], cur_d[carried]
        n_new, n_carry = len(new), len(carry_v)
        nv[:n_new] = new
        nd[:n_new] = st.dist[new]
        nv[n_new:n_new + n_carry] = carry_v
        nd[n_new:n_new + n_carry] = carry_d
        total = n_new + n_carry
        fmin = nd[:total].min() if total else inf
        return total, int(near.sum()), fmin

    def default_team(self):
        return CLUSTER  # the twin of the default CUDA launch (Hopper)

    def control_block(self, dtype):
        return control_block(np, dtype)

    def dense_control(self, dtype):
        return dense_views(dense_control_template(dtype), np.dtype(dtype))

    def dense_rounds_run(self, dc):
        return checked_dense_rounds(int(dc.rounds[0]))

    def init_state(self, st, source, delta):
        inf = distance_inf(st.dist.dtype)
        st.dist[:] = inf
        st.pred[:] = -1
        st.stamp[:] = -1
        st.ctl[:] = 0
        st.tctl[:] = (0, delta, inf)
        st.fd[0] = 0
        st.fv[0] = source
        if source >= 0:
            st.dist[source] = 0
            st.ctl[CTL_SIZE] = 1

    def hand_over(self, st, dense_fraction, flags):
        ctl = st.ctl
        size = int(ctl[CTL_SIZE])
        ctl[CTL_HANDED] = bool(ctl[CTL_WIDE]) or size * dense_fraction > st.dist.size
        if ctl[CTL_HANDED]:
            flags[buffers(st, int(ctl[CTL_PARITY]))[0][:size]] = 1

    def narrow(self, dist, work):
        work[:] = np.minimum(dist, INT32_MAX)

    def widen(self, work, dist):
        dist[:] = np.where(work == INT32_MAX, dist.dtype.type(distance_inf(dist.dtype)), work)

    def block_rounds(self, g, st, cap, max_rounds, track_pred, cutoff, team, target,
                     inline_cap=0, heavy=None, arc_cap=ARC_CAP_NONE, inline_arcs=HEAVY_ARCS,
                     keys=None):
        """``heavy``: unused (heavy_rows). Inline (``inline_cap`` > 0): every lowered
        vertex below the threshold is relaxed in the round (the twin has no queue to
        overflow; ``inline_arcs`` unused). ``keys`` as the kernels'."""
        inline = inline_cap > 0
        ctl, tctl = st.ctl, st.tctl
        size, round_, parity = int(ctl[CTL_SIZE]), int(ctl[CTL_ROUND]), int(ctl[CTL_PARITY])
        fmin, delta = tctl[0].item(), tctl[1].item()
        inf = distance_inf(st.dist.dtype)
        total_near = int(ctl[CTL_TOTAL_NEAR])
        arcs = 0  # the frontier's out-arcs, once a round has counted them
        for _ in range(max_rounds):
            if not (0 < size <= cap and arcs <= arc_cap):
                break
            round_ += 1
            thr = threshold(fmin, delta, inf)
            size, near, fmin = self._round(g, st, size, round_, parity, thr, track_pred, cutoff,
                                           inline, keys)
            fmin = fmin.item() if hasattr(fmin, "item") else fmin
            total_near += near
            delta = adapt_delta(delta, near, target, inf)
            parity ^= 1
            entries = buffers(st, parity)[0][:size].astype(np.int64)
            degrees = g.indptr[entries + 1] - g.indptr[entries]
            arcs = int(np.minimum(degrees, 1 << 20).sum())  # a row counts at most 2^20
        ctl[CTL_WIDE] = size > 0 and arcs > arc_cap
        ctl[CTL_SIZE], ctl[CTL_ROUND], ctl[CTL_NEAR] = size, round_, 0
        ctl[CTL_PARITY], ctl[CTL_TOTAL_NEAR] = parity, total_near
        tctl[0], tctl[1] = fmin, delta

    def grid_round(self, g, st, size, parity, track_pred, cutoff, target, keys=None):
        ctl, tctl = st.ctl, st.tctl
        inf = distance_inf(st.dist.dtype)
        thr = threshold(tctl[0].item(), tctl[1].item(), inf)
        round_ = int(ctl[CTL_ROUND]) + 1
        total, near, fmin = self._round(g, st, size, round_, parity, thr, track_pred, cutoff,
                                        keys=keys)
        ctl[CTL_SIZE], ctl[CTL_ROUND], ctl[CTL_PARITY] = total, round_, parity ^ 1
        ctl[CTL_TOTAL_NEAR] += near
        ctl[CTL_NEAR] = ctl[CTL_NEW] = ctl[CTL_CARRY] = 0
        tctl[1] = adapt_delta(tctl[1].item(), near, target, inf)
        tctl[0] = fmin

    def heavy_rows(self, graph, dtype):
        """None: the twin's round relaxes every row itself, long ones included."""
        return None

    def clear_heavy_rows(self, heavy):
        return heavy  # None (heavy_rows)

    def unset_keys(self, n):
        return np.full(n, NO_KEY, dtype=np.uint64)

    def key_predecessors(self, keys, pred):
        pred[:] = np.where(keys == NO_KEY, -1, (keys & np.uint64(0xFFFFFFFF)).astype(np.int64))

    def dense_phase(self, g, weights, dist, flags, cutoff, dc, fmin0, delta0, target,
                    heavy=None, settle=None, keys=None, span=None, go=None, start=None,
                    max_rounds=None):
        """The dense rounds (see CudaOps.dense_phase), one ``_dense_round`` after another
        until one leaves no vertex flagged (their number: dense_rounds_run) or
        ``max_rounds`` have run (None: dense_round_bound(n); then -1). ``heavy``:
        unused (heavy_rows); ``settle``, ``keys``, ``go`` and ``start`` as the kernel's;
        ``span`` unused (a twin's round takes its vertices all at once)."""
        if keys is not None and dist.dtype != np.int32:
            raise ValueError("near-far: keyed rounds run on int32 distances only")
        if go is not None and not go[CTL_HANDED]:
            return
        first = (fmin0, delta0) if start is None else (start[0].item(), start[1].item())
        bound = dense_round_bound(dist.size) if max_rounds is None else max_rounds
        round_ = 0
        while True:
            if round_ == bound:
                dc.rounds[0] = -1
                return
            cur = round_ % 3
            dc.changed[(round_ + 1) % 3] = 0
            self._dense_round(g, weights, dist, flags[round_ % 2], flags[1 - round_ % 2],
                              cutoff, dc.changed[cur:cur + 1], dc, round_, fmin0, delta0,
                              target, settle, keys, first)
            round_ += 1
            if not dc.changed[cur]:
                dc.rounds[0] = round_
                return

    def _dense_round(self, g, weights, dist, flag_in, flag_out, cutoff, changed, dc, round_,
                     fmin0, delta0, target, settle=None, keys=None, first=None):
        """Relax the flagged vertices below the round's threshold from their distances at
        the start of the round (the kernel's asynchronous round reaches these values or
        lower); the same thresholds, histogram, control slots and long rows' rule
        (``settle``) as nf_dense_rounds; ``first``: round 0's (minimum, delta), by default
        (``fmin0``, ``delta0``)."""
        T = dist.dtype.type
        inf = distance_inf(dist.dtype)
        cur, prev, nxt = round_ % 3, (round_ + 2) % 3, (round_ + 1) % 3
        if round_ == 0:
            base, delta = (fmin0, delta0) if first is None else first
            width = _quarter(delta)
            thr = threshold(base, delta, inf)
        elif target == 0:
            base, width = dc.dmin[prev].item(), _quarter(delta0)
            thr = threshold(base, delta0, inf)
        else:
            cum = np.cumsum(dc.dhist[prev])
            k = int(np.argmax(cum >= target)) if cum[-1] >= target else DENSE_BUCKETS
            wprev = dc.dwidth[prev].item()
            base = dc.dmin[prev].item()
            if k >= DENSE_BUCKETS // 2 and wprev < inf / (4 * DENSE_BUCKETS):
                width = wprev * 2
            elif k < DENSE_BUCKETS // 8 and _half(wprev) > 0:
                width = _half(wprev)
            else:
                width = wprev
            span = inf if wprev > inf / DENSE_BUCKETS else (k + 1) * wprev
            thr = inf if k >= DENSE_BUCKETS else threshold(dc.dbase[prev].item(), span, inf)
            if not width > 0:
                width = 1
            thr = max(thr, threshold(base, width, inf))
        dc.dbase[cur], dc.dwidth[cur] = base, width
        dc.dmin[nxt], dc.dcount[nxt], dc.dhist[nxt] = inf, 0, 0
        tails = np.flatnonzero(flag_in)
        flag_in[tails] = 0
        d = dist[tails]
        reached = d != inf
        near = reached & (d < thr)
        if settle is not None:  # long rows wait near the least pending distance
            long_row = g.indptr[tails + 1] - g.indptr[tails] > HEAVY_ARCS
            near &= ~(long_row & (d > threshold(base, settle, inf)))
        defer = tails[reached & ~near]
        flag_out[defer] = 1
        deferred = dist[defer]
        tails = tails[near]
        dc.dcount[cur] += len(tails)
        owner, arcs = gather_arcs(g.indptr, tails)
        heads = g.indices[arcs]
        cand = (dist[tails][owner] + weights[arcs]).astype(dist.dtype)
        keep = _record_keys(keys, dist, heads, cand, tails[owner], cutoff)
        heads, cand = heads[keep], cand[keep]
        if len(heads):
            np.minimum.at(dist, heads, cand)
            flag_out[heads] = 1
        pending = np.concatenate([deferred, cand])  # what the next round has to do
        if len(pending):
            dc.dmin[cur] = min(dc.dmin[cur], pending.min())
            off = np.where(pending > base, (pending - T(base)) // T(width), 0)
            np.add.at(dc.dhist[cur], np.minimum(off, DENSE_BUCKETS - 1).astype(np.int64), 1)
            changed[0] = 1


def _record_keys(keys, dist, heads, cand, tails, cutoff):
    """Twin of record_keys, before the relaxation lowers ``dist``: every arc whose
    candidate would lower its head lowers the head's key to (candidate << 32 | tail); the
    least is the lowering to the new distance (all at once here, one by one on the GPU).
    Returns the mask of those arcs (within the cutoff, below the head's distance), which
    the caller relaxes; ``keys`` None: the mask alone."""
    keep = (cand <= cutoff) & (cand < dist[heads])
    if keys is not None:
        packed = (cand[keep].astype(np.uint64) << np.uint64(32)) | tails[keep].astype(np.uint64)
        np.minimum.at(keys, heads[keep], packed)
    return keep


def _relax_inline(g, st, round_, heads, cand, cutoff, thr, tails, keys=None):
    """The inline rounds' relaxation (twin of the team's block sub-rounds): vertices
    lowered below ``thr`` relax their arcs in the same round, sub-round after sub-round;
    the others are appended once (round stamp). ``tails``: each arc's. Returns the
    appended vertices."""
    dist, stamp = st.dist, st.stamp
    appended = []
    while len(heads):
        keep = _record_keys(keys, dist, heads, cand, tails, cutoff)
        heads, cand = heads[keep], cand[keep]
        before = dist[heads]
        np.minimum.at(dist, heads, cand)
        lowered = np.unique(heads[dist[heads] < before])
        near = dist[lowered] < thr
        far = lowered[~near]
        fresh = far[stamp[far] != round_]
        stamp[fresh] = round_
        appended.append(fresh)
        tails = lowered[near]
        st.ctl[CTL_SUB] += bool(len(tails))
        owner, arcs = gather_arcs(g.indptr, tails)
        heads, cand, tails = g.indices[arcs], dist[tails][owner] + g.weights[arcs], tails[owner]
    return np.concatenate(appended) if appended else np.zeros(0, dtype=np.int64)


def _half(x):
    return x / 2 if isinstance(x, float) else x // 2


def _quarter(delta):
    q = delta / 4 if isinstance(delta, float) else delta // 4
    return q if q > 0 else 1
