// Near-far SSSP with adaptive delta: nx-gpusp's own default ("near-far"), beyond the
// papers. A frontier of (vertex, snapshot distance) entries; each round relaxes only
// the "near" entries (snapshot < frontier minimum + delta), carries the "far" ones
// that are still current, and appends every vertex it lowers once (round stamp).
// Snapshot relaxation and predecessors set only on a strict decrease keep the
// frontier engine's invariant (a predecessor cycle is a negative cycle; see
// nx_gpusp/solvers/sssp/frontier.py), so trees and NetworkXUnbounded come for free.
// Delta doubles when a round has too little near work and halves when it has too much
// (target: a number of near entries per round given by the host), so no
// graph-specific tuning is needed.
//
// Two launch shapes, same round semantics:
//  * team rounds: ONE team runs up to max_rounds rounds while the frontier has <= cap
//    entries (road graphs: hundreds of rounds of a few thousand entries, no host round
//    trip). The team is one thread block (near_far_block, __syncthreads) or, on Hopper,
//    a thread-block cluster of NF_CLUSTER blocks on as many multiprocessors
//    (near_far_cluster): a round's scattered loads and atomics are issued from NF_CLUSTER
//    SMs instead of one, the phases are separated by the hardware cluster barrier and
//    the round counters live in shared memory (block 0's counts, each block's own
//    minimum), read across the cluster (distributed shared memory).
//    Two barriers a round: the counters alternate by round parity, and the set of the
//    next round is reset between the barriers.
//    Inline (lengths only, no predecessors): vertices lowered below the round's
//    threshold are relaxed in the same round by their block, in block sub-rounds over
//    a shared-memory queue (delta-stepping's inner loop over a bucket; RelaxVisitor);
//    a sub-round takes at most inline_cap entries, and in the _heavy kernels only rows
//    of at most inline_arcs arcs (both launch arguments); the rest go to the frontier.
//  * nf_relax_grid / nf_predecessors_grid / nf_carry_grid: one round over the whole
//    grid for large frontiers; the host reads the control block between rounds.
// Arcs of high-degree vertices are expanded by a whole warp (ballot loop), others by
// one lane. Frontier buffers: cv/cd current (vertex, snapshot), nv/nd next. Data other
// multiprocessors wrote in this launch (frontier, distances, stamps) is read through
// L2 (__ldcg) after a barrier.
//
// nf_dense_rounds: the dense phase after near-far's hand-over (flag rounds, no frontier
// queue, all in one cooperative launch): a vertex flagged in flag_in clears its flag
// and, if its CURRENT distance is below the round's threshold (near-far's rule on flags;
// the threshold is read off a histogram of the distances the previous round left
// pending, so that about `target` vertices relax a round), relaxes its out-arcs from it
// (asynchronous, as Safari & Ebnenasir's LBR with k = 1), lowering with atomicMin and
// flagging the lowered heads in flag_out (the two arrays alternate by round); a vertex
// above the threshold stays flagged. No second array and no update kernel per round,
// unlike Harish's rounds; with non-negative weights any processing order converges to
// the same distances. The host runs it on int32 distances when every finite distance fits.
// Keyed runs (KEYED template argument, int32 only; see record_keys): the rounds that
// lower distances (team, inline, grid, dense) also lower each vertex's key (distance,
// tail), from which nf_key_preds reads a shortest-path tree.
// ctl (int32): [0] size, [1] round, [2] near entries of the round in progress, [3] parity
// (0: frontier in fv/fd, 1: in gv/gd), [4] new entries, [5] carried entries,
// [6] total near entries processed (int, saturating statistics are not needed here),
// [7] inline sub-rounds run by the team's block 0, [8] wide: the team stopped because
// its frontier's arcs passed arc_cap, [9] handed: nf_hand_over's verdict (the run goes
// on in dense rounds).
// tctl (T): [0] frontier minimum snapshot, [1] delta, [2] next minimum (grid rounds).
#include "common.cuh"

#define FULL_MASK 0xffffffffu

#ifdef NF_PROFILE  // build option (nx_gpusp.executor.BUILD_OPTIONS): cycles per phase
__device__ long long nf_profile[3];
#endif

#define ARC_BATCH 4
// rows longer than HEAVY_ARCS are split into chunks of HEAVY_CHUNK arcs (HeavyRows);
// nx_gpusp.ops.near_far's HEAVY_ARCS and HEAVY_CHUNK match
#define HEAVY_ARCS 1024
#define HEAVY_CHUNK 1024
// Entries of each of a team block's two inline queues (dynamic shared memory, 2 x 12
// bytes an entry: 48 KiB; measured on the H100: 1024 entries NY 4.63 ms, 2048 4.41,
// 8192 5.21 - a larger carve-out of shared memory leaves less L1 cache).
#define NF_QUEUE 2048

// Visitors see a batch of ARC_BATCH arcs (v < 0: no arc) twice: pre(v) is issued for
// every arc of the batch before apply_batch, so the batch's loads are in flight together.

// atomicMin of every candidate that passes the cutoff and the pre-read, all issued
// before any result is used; old[j] = the previous value (cand[j] where not tried).
template <typename T>
__device__ __forceinline__ void lower_batch(T* dist, T cutoff, const int* v, const T* cand,
                                            const T* pre, T* old) {
#pragma unroll
    for (int j = 0; j < ARC_BATCH; ++j) {
        const bool try_it = v[j] >= 0 && !(cand[j] > cutoff) && cand[j] < pre[j];
        old[j] = try_it ? atomic_min(&dist[v[j]], cand[j]) : cand[j];
    }
}

// Keyed runs (paths at the price of lengths; int32 distances, integer weights >= 1):
// every lowering of dist[v] to d from tail u also lowers keys[v] to (d << 32 | u) (a
// 64-bit atomicMin whose result nobody waits for). The lowering to v's final distance
// is the last, and its tail u relaxed from its own final distance (from a larger one,
// u's later relaxation would have lowered v again), so the least key names a tight arc
// from a strictly closer vertex: nf_key_preds turns the keys into a shortest-path
// tree, with no pass over the arcs after the rounds. Only strict lowerings are keyed,
// so out-of-order writes cannot leave a stale tail, as a plain store of pred could.
template <typename T>
__device__ __forceinline__ void record_keys(unsigned long long* keys, const int* tail,
                                            const int* v, const T* cand, const T* old) {
#pragma unroll
    for (int j = 0; j < ARC_BATCH; ++j) {
        if (cand[j] < old[j]) {
            atomicMin(&keys[v[j]], static_cast<unsigned long long>(static_cast<unsigned>(cand[j])) << 32 |
                                       static_cast<unsigned>(tail[j]));
        }
    }
}

// Relaxing: the batch's atomicMin operations together, then its stamp exchanges
// together, then the appends: three dependent atomic latencies a batch instead of up to
// three per arc (FLA 17.7 -> 16.4 ms, R-MAT 22 22.3 -> 17.0 ms on the H100).
// Inline (team rounds without predecessors): a vertex lowered below the round's
// threshold `thr` goes to the block's queue (q_v, q_d, *q_count < NF_QUEUE) instead of
// the next frontier, and the block relaxes it in the same round (block sub-rounds); when
// the queue is full it is appended as any other, and so is the whole queue after that
// sub-round (team_rounds); the count is read before the atomic, so that once the queue
// is full the lowered vertices do not all contend for its counter (R-MAT: most of a
// wave overflows). q_v null: no inline.
template <typename T, bool KEYED = false> struct RelaxVisitor {
    static constexpr bool reads_tails = KEYED;  // apply_batch's tails (visit_short_rows)
    T* dist; int* stamp; int round; int* next_v; int* next_count; T cutoff;
    int* q_v = nullptr; T* q_d = nullptr; int* q_count = nullptr; T thr = T(0);
    // where set (the team's _heavy kernels), a vertex whose row is longer than
    // inline_arcs is not queued inline: one block would walk it while the team's other
    // blocks wait; it goes to the next frontier, whose round splits it over the team
    const long long* long_rows = nullptr;
    int q_cap = NF_QUEUE;  // entries the block's sub-round may take (<= NF_QUEUE)
    long long inline_arcs = HEAVY_ARCS;
    unsigned long long* keys = nullptr;  // KEYED: each lowering's (distance, tail), see record_keys
    __device__ __forceinline__ T pre(int v) const { return dist[v]; }  // a hint: stale is larger
    __device__ __forceinline__ void append(int v) const {  // once a round (stamp)
        if (atomicExch(&stamp[v], round) != round) next_v[append_slot(next_count)] = v;
    }
    __device__ __forceinline__ void apply_batch(const int* tail, const int* v, const T* cand,
                                                const T* pre) const {
        T old[ARC_BATCH];
        lower_batch(dist, cutoff, v, cand, pre, old);
        if constexpr (KEYED) record_keys(keys, tail, v, cand, old);
        int prev[ARC_BATCH];
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            bool lowered = cand[j] < old[j];
            if (lowered && q_v != nullptr && cand[j] < thr &&
                *static_cast<volatile int*>(q_count) < q_cap &&
                (long_rows == nullptr || long_rows[v[j] + 1] - long_rows[v[j]] <= inline_arcs)) {
                const int slot = atomicAdd(q_count, 1);  // shared memory
                if (slot < q_cap) {
                    q_v[slot] = v[j];
                    q_d[slot] = cand[j];
                    lowered = false;  // relaxed by the block in this round
                }
            }
            prev[j] = lowered ? atomicExch(&stamp[v[j]], round) : round;
        }
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            if (prev[j] != round) next_v[append_slot(next_count)] = v[j];
        }
    }
};

template <typename T> struct PredecessorVisitor {
    static constexpr bool reads_tails = true;
    const T* dist; const int* stamp; int round; int* pred;
    __device__ __forceinline__ T pre(int v) const {
        return __ldcg(&stamp[v]) == round ? __ldcg(&dist[v]) : DistTraits<T>::inf();
    }
    __device__ __forceinline__ void apply_batch(const int* tail, const int* v, const T* cand,
                                                const T* pre) const {
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            if (v[j] >= 0 && cand[j] == pre[j]) pred[v[j]] = tail[j];
        }
    }
};

// What a dense round leaves pending for the next one (a vertex flagged in flag_out at
// distance x): noted in the thread's least pending distance and, with a threshold
// target (hist not null), in the block's histogram of x over DENSE_BUCKETS buckets of
// `width` from `base` (shared memory; the last bucket takes everything beyond), from
// which the next threshold is chosen. Pending distances crowd into a few buckets, so
// the active lanes of a warp add to each bucket once (match_any), not 32 times in turn.
#define DENSE_BUCKETS 64
template <typename T> struct Pending {
    bool* any; T* low; int* hist; T base, width;
    __device__ __forceinline__ void add(T x) const {
        *any = true;
        *low = x < *low ? x : *low;
        if (hist == nullptr) return;
        const T off = x > base ? (x - base) / width : T(0);
        const int b = off < T(DENSE_BUCKETS - 1) ? static_cast<int>(off) : DENSE_BUCKETS - 1;
        const unsigned peers = __match_any_sync(__activemask(), b);
        if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&hist[b], __popc(peers));
    }
};

// Dense rounds: lower dist[v] (the batch's atomics together), flag v for the next
// round, note it as pending.
template <typename T, bool KEYED = false> struct FlagVisitor {
    static constexpr bool reads_tails = KEYED;
    T* dist; unsigned char* flag_out; Pending<T> pending; T cutoff;
    unsigned long long* keys = nullptr;  // KEYED: each lowering's (distance, tail), see record_keys
    __device__ __forceinline__ T pre(int v) const { return dist[v]; }
    __device__ __forceinline__ void apply_batch(const int* tail, const int* v, const T* cand,
                                                const T* pre) const {
        T old[ARC_BATCH];
        lower_batch(dist, cutoff, v, cand, pre, old);
        if constexpr (KEYED) record_keys(keys, tail, v, cand, old);
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            if (cand[j] < old[j]) {
                flag_out[v[j]] = 1;
                pending.add(cand[j]);
            }
        }
    }
};

// Arcs [beg, end) of u, one lane: ARC_BATCH arcs gathered, pre-read, then applied.
template <typename T, typename Visitor>
__device__ __forceinline__ void visit_row(const int* __restrict__ indices, const T* __restrict__ weights,
                                          int u, T du, long long beg, long long end, long long step,
                                          const Visitor& visit) {
    for (long long a0 = beg; a0 < end; a0 += ARC_BATCH * step) {
        int v[ARC_BATCH], tail[ARC_BATCH];
        T cand[ARC_BATCH], pre[ARC_BATCH];
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            const long long a = a0 + j * step;
            v[j] = a < end ? indices[a] : -1;
            cand[j] = a < end ? du + weights[a] : T(0);
            tail[j] = u;
        }
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) pre[j] = v[j] >= 0 ? visit.pre(v[j]) : T(0);
        visit.apply_batch(tail, v, cand, pre);
    }
}

// Entries of a round: take(i, u, du) says whether entry i is relaxed, and from where.
// Near frontier entries: (cv[i], cd[i]) with snapshot cd[i] below the threshold.
template <typename T> struct NearEntries {
    const int* cv; const T* cd; T thr;
    __device__ __forceinline__ bool take(long long i, int& u, T& du) const {
        du = __ldcg(&cd[i]);
        u = __ldcg(&cv[i]);  // loaded with cd[i], not after the comparison
        return du < thr;
    }
};

// A block's inline queue: (qv[i], qd[i]), relaxed even if dist[qv[i]] has gone lower
// since (checking first costs one more dependent load a sub-round than the repeated
// relaxations it saves: measured NY 4.41 -> 4.07 ms, FLA 12.3 -> 11.5 without it).
template <typename T> struct QueueEntries {
    const int* qv; const T* qd;
    __device__ __forceinline__ bool take(long long i, int& u, T& du) const {
        u = qv[i];
        du = qd[i];
        return true;
    }
};

// Rows longer than HEAVY_ARCS met by a dense or team round are not walked by the warp
// that took their vertex: the warp splits them into chunks of HEAVY_CHUNK arcs, queued
// here, and every warp of the grid (nf_dense_rounds, after a grid barrier) or of the
// team (team_rounds) takes one chunk at a time. One warp on a hub's row (R-MAT 20: 64K
// arcs, 6,196 rows past 1,024 holding 42% of the arcs) was each round's tail: hundreds
// of dependent batches while the rest idled. `count` is the round's slot: dense round r
// uses count[r % 3] (cleared by round r - 1, see nf_dense_rounds), team round r
// count[r & 1] (the other slot cleared after its barrier). An entry is (vertex, its
// distance when taken, first arc of the chunk).
template <typename T> struct HeavyRows {
    int* u; long long* start; T* d; int* count; int cap;  // count null: rows walked in place
    // the calling warp (all lanes, the same row) queues row u's arcs [b, e); false (the
    // warp walks the row itself) where the row is short or the queue has no room, its
    // reserved slots below cap then marked empty (u = -1)
    __device__ __forceinline__ bool push(int u0, T d0, long long b, long long e) const {
        if (count == nullptr || e - b <= HEAVY_ARCS) return false;
        const int lane = threadIdx.x & 31;
        const int chunks = static_cast<int>((e - b + HEAVY_CHUNK - 1) / HEAVY_CHUNK);
        int slot = 0;
        if (lane == 0) slot = atomicAdd(count, chunks);
        slot = __shfl_sync(FULL_MASK, slot, 0);
        const bool fits = slot <= cap - chunks;
        for (int j = lane; j < chunks && slot + j < cap; j += 32) {
            u[slot + j] = fits ? u0 : -1;
            d[slot + j] = d0;
            start[slot + j] = b + static_cast<long long>(j) * HEAVY_CHUNK;
        }
        return fits;
    }
    // warps warp, warp + nwarps, ... relax the queued chunks (count: this round's entries)
    template <typename Visitor>
    __device__ __forceinline__ void relax(const long long* __restrict__ indptr,
                                          const int* __restrict__ indices,
                                          const T* __restrict__ weights, int n_queued,
                                          long long warp, long long nwarps,
                                          const Visitor& visit) const {
        const int lane = threadIdx.x & 31, total = n_queued < cap ? n_queued : cap;
        for (long long k = warp; k < total; k += nwarps) {
            const int v = u[k];
            if (v < 0) continue;
            const long long b = start[k], row_end = indptr[v + 1];
            const long long e = b + HEAVY_CHUNK < row_end ? b + HEAVY_CHUNK : row_end;
            visit_row(indices, weights, v, d[k], b + lane, e, 32, visit);
        }
    }
};

// The arcs of the warp's short rows (lane l: row [beg, beg + deg) from du; deg 0: none)
// dealt out over the lanes in order, a row's arcs on consecutive lanes: coalesced
// loads, and a warp pays ceil(its arcs / (32 * ARC_BATCH)) batches of dependent loads
// and atomics instead of ceil(its longest row / ARC_BATCH). Slot k belongs to the lane
// whose inclusive degree sum first exceeds k (warp_owner); each arc's tail is shuffled
// only for a visitor that reads it (reads_tails), else passed as -1. Every relaxing round
// (team, inline sub-rounds, grid and dense) deals its short rows out. On the H100,
// round-robin medians, from the team's rounds: NY 4.54 -> 3.99 ms, FLA 12.17 -> 11.26,
// random-pred 1M 1.35 -> 1.24, R-MAT 20 4.26 against 4.42.
// The inclusive prefix sum of x over the calling warp's lanes (every lane calls it).
__device__ __forceinline__ int warp_inclusive_sum(int x) {
    const int lane = threadIdx.x & 31;
    for (int off = 1; off < 32; off <<= 1) {
        const int o = __shfl_up_sync(FULL_MASK, x, off);
        if (lane >= off) x += o;
    }
    return x;
}

// The lane whose inclusive sum ``incl`` (warp_inclusive_sum of each lane's count) first
// exceeds k: a binary search by shuffles (31 where none does). Every lane calls it.
__device__ __forceinline__ int warp_owner(int incl, int k) {
    int owner = 0;
#pragma unroll
    for (int step = 16; step > 0; step >>= 1) {
        const int sum = __shfl_sync(FULL_MASK, incl, owner + step - 1);
        if (sum <= k) owner += step;
    }
    return owner;
}

template <typename T, typename Visitor>
__device__ __forceinline__ void visit_short_rows(const int* __restrict__ indices,
                                                 const T* __restrict__ weights, int u, T du,
                                                 long long beg, int deg, const Visitor& visit) {
    const int lane = threadIdx.x & 31;
    const int incl = warp_inclusive_sum(deg);
    const int total = __shfl_sync(FULL_MASK, incl, 31);
    const long long first = beg - (incl - deg);  // slot k of this lane's row: arc first + k
    for (int s0 = 0; s0 < total; s0 += 32 * ARC_BATCH) {
        int v[ARC_BATCH], tail[ARC_BATCH];
        T cand[ARC_BATCH], pre[ARC_BATCH];
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            const int k = s0 + j * 32 + lane;
            const int owner = warp_owner(incl, k);
            const long long a = __shfl_sync(FULL_MASK, first, owner) + k;
            const T d = __shfl_sync(FULL_MASK, du, owner);
            v[j] = k < total ? indices[a] : -1;
            cand[j] = k < total ? d + weights[a] : T(0);
            tail[j] = -1;  // shuffled only for a visitor that reads them
            if constexpr (Visitor::reads_tails) tail[j] = __shfl_sync(FULL_MASK, u, owner);
        }
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) pre[j] = v[j] >= 0 ? visit.pre(v[j]) : T(0);
        visit.apply_batch(tail, v, cand, pre);
    }
}

// The rows of the warp's lanes (lane l: vertex u at du, arcs [beg, end); u < 0: none).
// Rows longer than 32 arcs are expanded by the whole warp (or, past HEAVY_ARCS, queued
// in `heavy` where it has a count); GATHER: the shorter rows' arcs are dealt out over
// the warp (visit_short_rows), else each lane walks its row. Every lane calls it.
template <bool GATHER, typename T, typename Visitor>
__device__ __forceinline__ void visit_lane_rows(const int* __restrict__ indices,
                                                const T* __restrict__ weights, int u, T du,
                                                long long beg, long long end,
                                                const Visitor& visit, const HeavyRows<T>& heavy) {
    const int lane = threadIdx.x & 31;
    unsigned big = __ballot_sync(FULL_MASK, end - beg > 32);
    while (big) {
        const int src = __ffs(big) - 1;
        big &= big - 1;
        const long long b = __shfl_sync(FULL_MASK, beg, src), e = __shfl_sync(FULL_MASK, end, src);
        const T d0 = __shfl_sync(FULL_MASK, du, src);
        const int u0 = __shfl_sync(FULL_MASK, u, src);
        if (!heavy.push(u0, d0, b, e)) visit_row(indices, weights, u0, d0, b + lane, e, 32, visit);
    }
    if (GATHER) {
        const int deg = end - beg <= 32 ? static_cast<int>(end - beg) : 0;
        visit_short_rows(indices, weights, u, du, beg, deg, visit);
    } else if (end - beg <= 32) {
        visit_row(indices, weights, u, du, beg, end, 1, visit);
    }
}

// Visit every arc of the taken entries among [0, count); warps `warp`, `warp+nwarps`,
// ... take 32 entries each (visit_lane_rows). Returns (in every lane) how many entries
// this warp took.
template <bool GATHER = false, typename T, typename Entries, typename Visitor>
__device__ int visit_entry_arcs(const long long* __restrict__ indptr, const int* __restrict__ indices,
                                const T* __restrict__ weights, const Entries& entries,
                                long long count, long long warp, long long nwarps,
                                const Visitor& visit,
                                const HeavyRows<T>& heavy = HeavyRows<T>{nullptr, nullptr, nullptr, nullptr, 0}) {
    const int lane = threadIdx.x & 31;
    int taken = 0;
    for (long long base = warp * 32; base < count; base += nwarps * 32) {
        const long long i = base + lane;
        int u = -1;
        T du = T(0);
        long long beg = 0, end = 0;
        if (i < count && entries.take(i, u, du)) {
            beg = indptr[u];
            end = indptr[u + 1];
        } else {
            u = -1;
        }
        taken += __popc(__ballot_sync(FULL_MASK, u >= 0));
        visit_lane_rows<GATHER>(indices, weights, u, du, beg, end, visit, heavy);
    }
    return taken;
}

// Flagged vertices (dense rounds): vertex i is taken if flag[i] and its current
// distance is below thr; the flag is cleared, so flag is all zero after the round. A
// flagged vertex at or above thr stays pending: flagged in flag_out. So does one whose
// row is longer than HEAVY_ARCS at a distance above long_thr (see nf_dense_rounds: a
// hub's row is walked once its distance is nearly final, not again each time it drops).
// admit decides for one vertex whose flag is cleared; take reads and clears the flag
// first, as the entries of visit_entry_arcs (32 vertices a warp at a time, one a lane).
// visit_flagged_arcs walks spans of them through admit (its graphs have no row longer
// than HEAVY_ARCS, so the long-row rule never holds there).
template <typename T> struct FlaggedVertices {
    unsigned char* flag; unsigned char* flag_out; const T* dist; T thr; Pending<T> pending;
    const long long* indptr; T long_thr;
    __device__ __forceinline__ void stay(int i, T du) const {
        flag_out[i] = 1;
        pending.add(du);
    }
    // Flagged vertex i at distance du, its flag cleared: relaxed now (true), or not
    // reached, or pending for a later round (stay).
    __device__ __forceinline__ bool admit(long long i, T du) const {
        if (du == DistTraits<T>::inf()) return false;
        if (!(du < thr) || (du > long_thr && indptr[i + 1] - indptr[i] > HEAVY_ARCS)) {
            stay(static_cast<int>(i), du);
            return false;
        }
        return true;
    }
    __device__ __forceinline__ bool take(long long i, int& u, T& du) const {
        if (!flag[i]) return false;
        flag[i] = 0;
        du = dist[i];
        if (!admit(i, du)) return false;
        u = static_cast<int>(i);
        return true;
    }
};

// The dense rounds' walk over the flags: a warp takes `span` x 32 vertices at a time
// (lane l: base + l + 32 j, so that every load is coalesced), reads their flags, then
// the flagged ones' distances, all in flight together, and relaxes the taken ones 32
// rows at a time: lane k takes the k-th taken vertex of the span (warp_owner over the
// lanes' counts), and visit_lane_rows deals their arcs out. A span
// costs one chain of dependent loads and atomics where its 32-vertex slices cost one
// each; warps still interleave span by span.
// The span (the host's flag_span, at most MAX_FLAG_SPAN: the vertices' flags are held in
// registers) is the largest power of two up to MAX_FLAG_SPAN within 1.5 x n / (32 x the
// grid's warps): about one span a warp a round, not half the warps idle.
// Graphs with rows longer than HEAVY_ARCS (skewed degrees: the long-row queue and the
// settle rule, which this walk has not) are walked 32 vertices at a time instead
// (visit_entry_arcs), each warp's work the sum of many slices. With one span a warp,
// the warps whose spans held the mid-degree rows held up each round, and at a span of
// 1 the compaction's shuffles cost more than they saved (H100, dense phase, 33 runs
// round-robin: Kronecker 19 +4% and its paths +10% at a span of 4; R-MAT 20 +5% and
// R-MAT 18 +10% at a span of 1).
// Returns (in every lane) how many vertices this warp took.
template <typename T> constexpr int MAX_FLAG_SPAN = sizeof(T) == 4 ? 8 : 4;

template <typename T, typename Visitor>
__device__ int visit_flagged_arcs(const long long* __restrict__ indptr, const int* __restrict__ indices,
                                  const T* __restrict__ weights, const FlaggedVertices<T>& f,
                                  int n, int span, long long warp, long long nwarps,
                                  const Visitor& visit) {
    constexpr int SPAN = MAX_FLAG_SPAN<T>;
    const int lane = threadIdx.x & 31;
    int taken = 0;
    for (long long base = warp * 32 * span; base < n; base += nwarps * 32 * span) {
        bool flagged[SPAN];
        T d[SPAN];
#pragma unroll
        for (int j = 0; j < SPAN; ++j) {
            const long long i = base + 32 * j + lane;
            flagged[j] = j < span && i < n && f.flag[i];
        }
#pragma unroll
        for (int j = 0; j < SPAN; ++j) d[j] = flagged[j] ? f.dist[base + 32 * j + lane] : T(0);
        unsigned mine = 0;  // bit j: vertex base + 32 j + lane is taken
#pragma unroll
        for (int j = 0; j < SPAN; ++j) {
            if (!flagged[j]) continue;
            const int i = static_cast<int>(base + 32 * j + lane);
            f.flag[i] = 0;
            if (f.admit(i, d[j])) mine |= 1u << j;
        }
        const int count = __popc(mine);
        const int incl = warp_inclusive_sum(count);
        const int total = __shfl_sync(FULL_MASK, incl, 31);
        for (int k0 = 0; k0 < total; k0 += 32) {
            const int k = k0 + lane;
            const int owner = warp_owner(incl, k);
            const int before = __shfl_sync(FULL_MASK, incl - count, owner);
            unsigned bits = __shfl_sync(FULL_MASK, mine, owner);
            for (int r = k - before; r > 0; --r) bits &= bits - 1;  // drop the first k - before
            int u = -1;
            T du = T(0);
            long long beg = 0, end = 0;
            if (k < total) {
                u = static_cast<int>(base + 32 * (__ffs(bits) - 1) + owner);
                du = f.dist[u];  // read again (with its row), not shuffled: fewer registers
                beg = indptr[u];
                end = indptr[u + 1];
            }
            taken += __popc(__ballot_sync(FULL_MASK, u >= 0));
            visit_lane_rows<true>(indices, weights, u, du, beg, end, visit,
                                  HeavyRows<T>{nullptr, nullptr, nullptr, nullptr, 0});
        }
    }
    return taken;
}

// The near entries of cv/cd[0, size) below thr.
template <typename T, typename Visitor>
__device__ __forceinline__ int visit_near_arcs(const long long* __restrict__ indptr,
                                               const int* __restrict__ indices,
                                               const T* __restrict__ weights, const int* cv,
                                               const T* cd, int size, T thr, long long warp,
                                               long long nwarps, const Visitor& visit) {
    return visit_entry_arcs(indptr, indices, weights, NearEntries<T>{cv, cd, thr}, size, warp,
                            nwarps, visit);
}

// Minimum of v over the calling warp, in lane 0.
template <typename T> __device__ __forceinline__ T warp_min(T v) {
    for (int off = 16; off > 0; off >>= 1) {
        const T o = __shfl_down_sync(FULL_MASK, v, off);
        v = o < v ? o : v;
    }
    return v;
}

// Minimum of v over each calling warp into *target (shared or global): one atomic a warp.
template <typename T> __device__ void block_min_into(T v, T* target) {
    v = warp_min(v);
    if ((threadIdx.x & 31) == 0 && v < DistTraits<T>::inf()) atomic_min(target, v);
}

// Snapshot the n_new appended entries, carry the far entries still current; each
// thread returns the minimum snapshot it wrote. Threads tid, tid+nthreads, ... take
// index k of both jobs, so the loads of both are in flight together (two dependent
// latencies a round instead of four when each thread has one item of each). With
// `arcs` (every thread of each warp calls it), the out-arcs of the next frontier's
// entries are added to *arcs (one atomic a warp).
template <typename T>
__device__ T snapshot_and_carry(const int* cv, const T* cd, int size, T thr, const T* dist,
                                int* nv, T* nd, int n_new, int* carry_count,
                                long long tid, long long nthreads,
                                const long long* __restrict__ indptr = nullptr,
                                unsigned long long* arcs = nullptr) {
    T local = DistTraits<T>::inf();
    unsigned out_arcs = 0;  // a row counts at most 2^20 arcs: no thread's sum overflows
    const long long count = n_new > size ? n_new : size;
    for (long long k = tid; k < count; k += nthreads) {
        const bool snap = k < n_new, entry = k < size;
        const int v = snap ? __ldcg(&nv[k]) : 0;
        const T du = entry ? __ldcg(&cd[k]) : T(0);
        const int u = entry ? __ldcg(&cv[k]) : 0;
        const bool far = entry && !(du < thr);  // near entries were relaxed this round
        const T dv = snap ? __ldcg(&dist[v]) : T(0);
        const T now = far ? __ldcg(&dist[u]) : T(0);
        if (snap) {
            nd[k] = dv;
            local = dv < local ? dv : local;
            if (arcs) out_arcs += min(indptr[v + 1] - indptr[v], 1LL << 20);
        }
        if (far && now == du) {  // lowered this round: its new entry is appended instead
            const int slot = n_new + append_slot(carry_count);
            nv[slot] = u;
            nd[slot] = du;
            local = du < local ? du : local;
            if (arcs) out_arcs += min(indptr[u + 1] - indptr[u], 1LL << 20);
        }
    }
    if (arcs) {
        unsigned long long sum = out_arcs;
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, off);
        if ((threadIdx.x & 31) == 0 && sum) atomicAdd(arcs, sum);
    }
    return local;
}

template <typename T> __device__ __forceinline__ T threshold(T fmin, T delta) {
    const T inf = DistTraits<T>::inf();
    return (fmin >= T(0) && delta >= inf - fmin) ? inf : fmin + delta;  // saturating
}

template <typename T> __device__ __forceinline__ T adapt_delta(T delta, int near, int target) {
    if (near < target / 4 && delta < DistTraits<T>::inf() / 4) return delta * 2;
    if (near > 2 * target) {
        const T half = delta / 2;
        return half > T(0) ? half : delta;
    }
    return delta;
}

// ---- team rounds ------------------------------------------------------------------
// A team is the set of blocks that runs the rounds together: rank and size, a barrier
// over all its threads, and the address of a shared variable in another of its blocks.
struct BlockTeam {
    __device__ __forceinline__ unsigned rank() const { return 0; }
    __device__ __forceinline__ unsigned size() const { return 1; }
    __device__ __forceinline__ void sync() const { __syncthreads(); }
    template <typename P> __device__ __forceinline__ P* in_rank(P* p, unsigned) const { return p; }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// blocks of the near_far_cluster team (8: the portable cluster size; the host launches
// CLUSTER = 8 blocks, nx_gpusp/ops/near_far.py)
#define NF_CLUSTER 8
struct ClusterTeam {
    __device__ __forceinline__ unsigned rank() const {
        unsigned r;
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
        return r;
    }
    __device__ __forceinline__ unsigned size() const { return NF_CLUSTER; }  // __cluster_dims__
    __device__ __forceinline__ void sync() const {  // release / acquire at cluster scope
        asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                     "barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    template <typename P> __device__ __forceinline__ P* in_rank(P* p, unsigned rank) const {
        unsigned long long out;  // generic address of the same variable in block `rank`
        asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out)
                     : "l"(reinterpret_cast<unsigned long long>(p)), "r"(rank));
        return reinterpret_cast<P*>(out);
    }
};
#define NF_CLUSTER_DIMS __cluster_dims__(NF_CLUSTER, 1, 1)
#else
#define NF_CLUSTER_DIMS
#endif

// Counters of one round: appended entries, carried entries, near entries and the next
// frontier's out-arcs (the team counts them in block 0's copy), next minimum (each block
// its own: 64-bit atomics stay in the block's shared memory; readers take the minimum).
template <typename T> struct RoundCounters { int next, carry, near; unsigned long long arcs; T min; };

template <typename T> __device__ __forceinline__ void reset(RoundCounters<T>& c) {
    c.next = 0; c.carry = 0; c.near = 0; c.arcs = 0; c.min = DistTraits<T>::inf();
}

// Minimum over the team's blocks of their counters' `min` (every rank, 0 included).
template <typename T, typename Team>
__device__ __forceinline__ T team_min(const Team& team, RoundCounters<T>* local) {
    T m = DistTraits<T>::inf();
#pragma unroll
    for (unsigned r = 0; r < team.size(); ++r) {  // a constant: the loads issue together
        const T o = team.in_rank(local, r)->min;
        m = o < m ? o : m;
    }
    return m;
}

// Up to max_rounds rounds while 0 < size <= cap and the frontier's out-arcs are at most
// arc_cap (a frontier of hubs: R-MAT's waves after a hub, whose rounds on the team's
// few multiprocessors were most of a run; then ctl[8] = 1); `local` is this block's
// RoundCounters[2] in shared memory.
template <typename T, bool HEAVY, bool KEYED, typename Team>
__device__ __forceinline__ void team_rounds(
        const Team& team, RoundCounters<T>* local, const long long* __restrict__ indptr,
        const int* __restrict__ indices, const T* __restrict__ weights, T* dist, int* pred,
        int* stamp, int* fv, T* fd, int* gv, T* gd, int* ctl, T* tctl, int cap, int max_rounds,
        int track_pred, T cutoff, int target, int inline_cap, int inline_arcs, int* heavy_u,
        long long* heavy_start, T* heavy_d, int* heavy_count, int heavy_cap, long long arc_cap,
        unsigned long long* keys) {
    // with inline_cap > 0, the block's two inline queues (dynamic shared memory: vertices,
    // then distances) and their counts (see RelaxVisitor)
    extern __shared__ __align__(16) unsigned char nf_shared[];
    int (*const q_v)[NF_QUEUE] = reinterpret_cast<int (*)[NF_QUEUE]>(nf_shared);
    T (*const q_d)[NF_QUEUE] = reinterpret_cast<T (*)[NF_QUEUE]>(nf_shared + 2 * NF_QUEUE * sizeof(int));
    __shared__ int q_count[2];
    if (threadIdx.x == 0) q_count[0] = q_count[1] = 0;
    RoundCounters<T>* ctr = team.in_rank(local, 0);
    const bool leader = team.rank() == 0 && threadIdx.x == 0;
#ifdef NF_PROFILE  // cycles per phase, accumulated by the leader into nf_profile[0..2]
    long long t0 = clock64(), t1;
#define NF_MARK(k) do { if (leader) { t1 = clock64(); nf_profile[k] += t1 - t0; t0 = t1; } } while (0)
#else
#define NF_MARK(k) do { } while (0)
#endif
    const long long tid = static_cast<long long>(team.rank()) * blockDim.x + threadIdx.x;
    const long long nthreads = static_cast<long long>(team.size()) * blockDim.x;
    const long long warp = tid >> 5, nwarps = nthreads >> 5;
    int size = ctl[0], round = ctl[1], parity = ctl[3], total_near = ctl[6], sub_rounds = ctl[7];
    T fmin = tctl[0], delta = tctl[1];
    bool wide = false;  // the frontier's out-arcs, once a round has counted them, > arc_cap
    if (threadIdx.x == 0) { reset(local[0]); reset(local[1]); }
    // HEAVY (the _heavy kernels, for graphs with rows longer than HEAVY_ARCS): such rows
    // are split over the whole team after the round's visit (HeavyRows), one count slot
    // a round parity; a warp of the team on an R-MAT hub's 64K arcs was most of a run.
    // The other kernels keep the plain visit (the queue's code costs registers).
    if (HEAVY && leader) heavy_count[0] = heavy_count[1] = 0;
    team.sync();
    for (int r = 0; r < max_rounds && size > 0 && size <= cap && !wide; ++r) {
        ++round;
        RoundCounters<T>* c = &ctr[round & 1];
        int* cv = parity ? gv : fv;
        T* cd = parity ? gd : fd;
        int* nv = parity ? fv : gv;
        T* nd = parity ? fd : gd;
        const T thr = threshold(fmin, delta);
        NF_MARK(0);
        RelaxVisitor<T, KEYED> relax{dist, stamp, round, nv, &c->next, cutoff};
        relax.keys = keys;
        if (inline_cap > 0) {
            relax.q_v = q_v[0]; relax.q_d = q_d[0]; relax.q_count = &q_count[0]; relax.thr = thr;
            relax.q_cap = inline_cap;
            if (HEAVY) { relax.long_rows = indptr; relax.inline_arcs = inline_arcs; }
        }
        // without HEAVY the queue has no count: every row is walked in place
        const HeavyRows<T> heavy{heavy_u, heavy_start, heavy_d,
                                 HEAVY ? heavy_count + (round & 1) : nullptr, heavy_cap};
        const int seen = visit_entry_arcs<true>(indptr, indices, weights,
                                                NearEntries<T>{cv, cd, thr}, size, warp,
                                                nwarps, relax, heavy);
        if constexpr (HEAVY) {
            team.sync();  // every row queued; the other slot was last read a round ago
            if (leader) heavy_count[(round + 1) & 1] = 0;
            heavy.relax(indptr, indices, weights, heavy_count[round & 1], warp, nwarps, relax);
        }
        if ((threadIdx.x & 31) == 0 && seen) atomicAdd(&c->near, seen);
        if (inline_cap > 0) {  // block sub-rounds: relax the queue, queueing into the other one
            __syncthreads();
            int qb = 0, count = q_count[0];
            while (count > 0) {  // the same in every thread of the block
                const int qn = min(count, inline_cap);
                if (count > inline_cap) {  // overflowed: a wave too wide for one block's
                    for (int i = threadIdx.x; i < qn; i += blockDim.x)  // sub-rounds goes
                        relax.append(q_v[qb][i]);  // to the frontier (grid / dense rounds)
                    break;
                }
                if (threadIdx.x == 0) q_count[qb ^ 1] = 0;
                __syncthreads();
                relax.q_v = q_v[qb ^ 1]; relax.q_d = q_d[qb ^ 1]; relax.q_count = &q_count[qb ^ 1];
                visit_entry_arcs<true>(indptr, indices, weights, QueueEntries<T>{q_v[qb], q_d[qb]},
                                       qn, threadIdx.x >> 5, blockDim.x >> 5, relax);
                __syncthreads();
                qb ^= 1;
                count = q_count[qb];
                ++sub_rounds;
            }
            if (threadIdx.x == 0) q_count[0] = 0;  // every thread has read it; next round's
        }
        team.sync();
        NF_MARK(1);
        // every thread has read the other set (last round's) before this barrier
        if (threadIdx.x == 0) reset(local[(round + 1) & 1]);
        if (track_pred) {
            const PredecessorVisitor<T> record{dist, stamp, round, pred};
            visit_near_arcs(indptr, indices, weights, cv, cd, size, thr, warp, nwarps, record);
        }
        const int n_new = c->next;
        const T local_min = snapshot_and_carry(cv, cd, size, thr, dist, nv, nd, n_new, &c->carry,
                                               tid, nthreads, indptr,
                                               arc_cap < 0x7fffffffffffffffLL ? &c->arcs : nullptr);
        block_min_into(local_min, &local[round & 1].min);
        team.sync();
        NF_MARK(2);
        size = n_new + c->carry;
        wide = c->arcs > static_cast<unsigned long long>(arc_cap);
        fmin = team_min(team, &local[round & 1]);
        const int near = c->near;
        total_near += near;
        delta = adapt_delta(delta, near, target);
        parity ^= 1;
    }
    if (leader) {
        ctl[0] = size; ctl[1] = round; ctl[2] = 0; ctl[3] = parity; ctl[6] = total_near;
        ctl[7] = sub_rounds;  // block 0's
        ctl[8] = size > 0 && wide;
        tctl[0] = fmin; tctl[1] = delta;
    }
    team.sync();  // every block's counters stay alive until the others have read them
#undef NF_MARK
}

#define NF_TEAM_PARAMS                                                                       \
    const long long* __restrict__ indptr, const int* __restrict__ indices,                  \
        const T* __restrict__ weights, T* dist, int* pred, int* stamp, int* fv, T* fd, int* gv, \
        T* gd, int* ctl, T* tctl, int cap, int max_rounds, int track_pred, T cutoff, int target, \
        int inline_cap, int inline_arcs, int* heavy_u, long long* heavy_start, T* heavy_d,      \
        int* heavy_count, int heavy_cap, long long arc_cap, unsigned long long* keys
#define NF_TEAM_ARGS                                                                         \
    indptr, indices, weights, dist, pred, stamp, fv, fd, gv, gd, ctl, tctl, cap, max_rounds, \
        track_pred, cutoff, target, inline_cap, inline_arcs, heavy_u, heavy_start, heavy_d,    \
        heavy_count, heavy_cap, arc_cap, keys

// One block (launch: grid 1, NF block threads); _heavy: long rows split (team_rounds).
template <typename T, bool KEYED = false>
__global__ void __launch_bounds__(1024) near_far_block(NF_TEAM_PARAMS) {
    __shared__ RoundCounters<T> counters[2];
    team_rounds<T, false, KEYED>(BlockTeam{}, counters, NF_TEAM_ARGS);
}
template <typename T, bool KEYED = false>
__global__ void __launch_bounds__(1024) near_far_block_heavy(NF_TEAM_PARAMS) {
    __shared__ RoundCounters<T> counters[2];
    team_rounds<T, true, KEYED>(BlockTeam{}, counters, NF_TEAM_ARGS);
}

// One cluster of NF_CLUSTER blocks (launch: grid NF_CLUSTER; Hopper and later only).
template <typename T, bool KEYED = false>
__global__ void NF_CLUSTER_DIMS __launch_bounds__(1024) near_far_cluster(NF_TEAM_PARAMS) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ RoundCounters<T> counters[2];
    team_rounds<T, false, KEYED>(ClusterTeam{}, counters, NF_TEAM_ARGS);
#endif
}
template <typename T, bool KEYED = false>
__global__ void NF_CLUSTER_DIMS __launch_bounds__(1024) near_far_cluster_heavy(NF_TEAM_PARAMS) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ RoundCounters<T> counters[2];
    team_rounds<T, true, KEYED>(ClusterTeam{}, counters, NF_TEAM_ARGS);
#endif
}

// ---- one round over the whole grid (large frontiers) ----------------------------
// The threshold is read from tctl (frontier minimum + delta), so the host only reads
// ctl[0] (the next size) per round; nf_advance (one thread) closes the round. Short
// rows' arcs are dealt out over each warp (random-pred 4M, CUDA events around the
// launch: 0.22 ms one lane a row, 0.15 dealt out); predecessor rounds keep a lane a row
// (their visitor needs each arc's tail).
template <typename T, bool KEYED = false>
__global__ void nf_relax_grid(const long long* __restrict__ indptr, const int* __restrict__ indices,
                              const T* __restrict__ weights, const int* cv, const T* cd, int size,
                              const T* tctl, T* dist, int* stamp, int* nv, int* ctl, T cutoff,
                              unsigned long long* keys) {
    const T thr = threshold(tctl[0], tctl[1]);
    RelaxVisitor<T, KEYED> relax{dist, stamp, ctl[1] + 1, nv, &ctl[4], cutoff};
    relax.keys = keys;
    const int seen = visit_entry_arcs<true>(
        indptr, indices, weights, NearEntries<T>{cv, cd, thr}, size, global_thread_id() >> 5,
        grid_stride() >> 5, relax);
    if ((threadIdx.x & 31) == 0 && seen) atomicAdd(&ctl[2], seen);
}

template <typename T>
__global__ void nf_predecessors_grid(const long long* __restrict__ indptr,
                                     const int* __restrict__ indices, const T* __restrict__ weights,
                                     const int* cv, const T* cd, int size, const T* tctl,
                                     const T* dist, const int* stamp, const int* ctl, int* pred) {
    const T thr = threshold(tctl[0], tctl[1]);
    const PredecessorVisitor<T> record{dist, stamp, ctl[1] + 1, pred};
    visit_near_arcs(indptr, indices, weights, cv, cd, size, thr, global_thread_id() >> 5,
                    grid_stride() >> 5, record);
}

template <typename T>
__global__ void nf_carry_grid(const int* cv, const T* cd, int size, const T* dist, int* nv,
                              T* nd, int* ctl, T* tctl) {
    const T thr = threshold(tctl[0], tctl[1]);
    const T local = snapshot_and_carry(cv, cd, size, thr, dist, nv, nd, ctl[4], &ctl[5],
                                       global_thread_id(), grid_stride());
    block_min_into(local, &tctl[2]);
}

// One thread: next size, round, parity, delta (target near entries per round), the
// next frontier minimum into tctl[0]; counters reset for the next round.
template <typename T>
__global__ void nf_advance(int* ctl, T* tctl, int target) {
    const int near = ctl[2];
    ctl[0] = ctl[4] + ctl[5];
    ctl[1] += 1;
    ctl[3] ^= 1;
    ctl[6] += near;
    ctl[2] = ctl[4] = ctl[5] = 0;
    tctl[1] = adapt_delta(tctl[1], near, target);
    tctl[0] = tctl[2];
    tctl[2] = DistTraits<T>::inf();
}

// The block's least `low` and its warps' total `taken` (the same in every lane of a
// warp) into *dmin and *dcount, and its histogram into hist: one atomic per address
// per block, not per warp (the host launches a resident grid, so a round issues about
// a thousand to each address, not n / 32). Every thread of the block must call it.
template <typename T>
__device__ void block_reduce_into(T low, int taken, const int* s_hist, T* dmin, int* dcount,
                                  int* hist) {
    __shared__ T s_low[32];
    __shared__ int s_taken[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    low = warp_min(low);
    if (lane == 0) {
        s_low[warp] = low;
        s_taken[warp] = taken;
    }
    __syncthreads();  // also: the block's histogram is complete
    if (threadIdx.x < DENSE_BUCKETS && s_hist[threadIdx.x])
        atomicAdd(&hist[threadIdx.x], s_hist[threadIdx.x]);
    if (warp == 0) {
        const bool mine = lane < (blockDim.x >> 5);
        low = mine ? s_low[lane] : DistTraits<T>::inf();
        taken = mine ? s_taken[lane] : 0;
        for (int off = 16; off > 0; off >>= 1) {
            const T o = __shfl_down_sync(FULL_MASK, low, off);
            low = o < low ? o : low;
            taken += __shfl_down_sync(FULL_MASK, taken, off);
        }
        if (lane == 0) {
            if (low < DistTraits<T>::inf()) atomic_min(dmin, low);
            if (taken) atomicAdd(dcount, taken);
        }
    }
}

// The least k with hist[0] + ... + hist[k] >= target (DENSE_BUCKETS if none), computed
// by each warp: every lane sums two buckets, then a warp scan.
__device__ __forceinline__ int bucket_reaching(const int* hist, int target) {
    static_assert(DENSE_BUCKETS == 64, "two buckets a lane");
    const int lane = threadIdx.x & 31;
    const int a = hist[2 * lane], b = hist[2 * lane + 1];
    const int cum = warp_inclusive_sum(a + b);
    const unsigned hit = __ballot_sync(FULL_MASK, cum >= target);
    if (!hit) return DENSE_BUCKETS;
    const int first = __ffs(hit) - 1;
    const int before = __shfl_sync(FULL_MASK, cum - a - b, first);
    const int a_first = __shfl_sync(FULL_MASK, a, first);
    return 2 * first + (before + a_first >= target ? 0 : 1);
}

// A barrier of the whole grid, for a cooperative launch (the driver starts every block
// of such a grid at once or refuses the launch, so no block waits on one that never
// runs): bar[0] counts the blocks arrived, bar[1] is the generation the last one bumps.
// Global memory written before it is visible after it in every block (fences around
// the arrival and after the wait, as cooperative groups' grid sync).
__device__ __forceinline__ void grid_barrier(unsigned* bar) {
    __syncthreads();
    if (threadIdx.x == 0) {
        const volatile unsigned* generation = bar + 1;
        const unsigned seen = *generation;
        __threadfence();
        if (atomicAdd(bar, 1u) == gridDim.x - 1) {
            atomicExch(bar, 0u);
            __threadfence();
            atomicAdd(bar + 1, 1u);
        } else {
            while (*generation == seen) __nanosleep(32);
        }
        __threadfence();
    }
    __syncthreads();
}

// The dense phase (see the top of this file): every round in one cooperative launch of
// a resident grid, rounds separated by grid barriers, until a round leaves no vertex
// flagged (each launched from the host cost ~27 us of the host's time against 6-13 us
// of the GPU's for a late round of random-pred 1M/4M, and every few rounds the host
// read the changed flag: the GPU waited on the host for much of the tail).
// Round r reads flags[r & 1] and writes flags[1 - (r & 1)] (flag0, flag1), its
// threshold as follows. Round 0 relaxes the flagged vertices below fmin0 + delta0
// (start[0] + start[1] where `start` is given: a near-far run's tctl, read here).
// `go` (given after a team launch): the rounds run only if *go is nonzero (ctl[9], the
// verdict nf_hand_over wrote just before; queued behind it, they start without the
// host's round trip).
// With target 0 every later round relaxes those below the least pending distance +
// delta0. With target > 0, round r relaxes about `target` vertices: the threshold is the
// upper edge of the first bucket where round r-1's histogram of pending distances
// reaches target (all of them when it never does), and at least the least pending
// distance + width, so the least pending vertex always relaxes; the bucket width
// doubles when that bucket is in the upper half and halves when it is in the first eighth.
// Per-round control in three slots used round-robin (round r writes slot r % 3, reads
// slot (r+2) % 3 and clears slot (r+1) % 3 for the next round): dmin (least pending
// distance), dbase/dwidth (the histogram's buckets), dcount (relaxed vertices), dhist,
// changed (a vertex flagged for the next round), heavy_count. rounds_out: the rounds run,
// or -1 where round max_rounds was reached with vertices still flagged. The host passes
// 2n + 16: each round relaxes the least pending distance, which (weights non-negative)
// is final, so its vertex is never flagged again and n + 1 rounds suffice; the bound
// turns a fault into an error instead of a launch that never returns.
// Rows longer than HEAVY_ARCS are queued as chunks (HeavyRows) and relaxed by the whole
// grid after a second barrier, into the same round's flags, histogram and minimum.
// They are taken only at a distance of at most the least pending one + `settle`; the
// others stay pending (settle = the type's "unreached": no such rule). With settle the
// least arc weight (the bound of Crauser, Mehlhorn, Meyer and Sanders' IN criterion,
// MFCS 1998) no pending vertex could lower such a row's vertex again; the host adds a
// sixteenth of the mean weight (see near_far.py's SETTLE_FRACTION). On R-MAT a wave
// reached the hubs within a round's bucket and each round lowered them again: rounds 1-3
// each walked 13-17M of R-MAT 20's 31.4M arcs in hub rows. H100, median of 24 runs,
// round-robin: R-MAT 20 1.93 -> 1.77 ms, R-MAT 22 5.90 -> 5.16, Kronecker graphs within
// 1% (the strict bound: up to 18% slower there), table in the git history of docs/benchmarks.md.
// The flags are walked in spans (visit_flagged_arcs) on graphs without rows longer
// than HEAVY_ARCS, else 32 vertices at a time; short rows' arcs are dealt out over each
// warp (visit_short_rows). Launch bounds: 4 blocks of 256 a multiprocessor (64
// registers); a round is a chain of dependent loads, so more resident warps hide more
// latency, but the rounds' loop needs registers. Measured on the H100 (GPU time of the
// dense phase, median of 33 runs, round-robin), 32 vertices at a time: random-pred 1M
// 0.601 ms one lane a row at 6 blocks, 0.496 dealt out at 6 blocks (40 registers,
// spilling), 0.451 dealt out at 5; 4M 1.920, 1.480, 1.342; R-MAT 20 1.509, 1.423, 1.405.
// In spans of 4, random-pred 4M 1.236 ms at 5 blocks (48 registers, spilling), 1.188 at
// 4; R-MAT 20 unchanged.
template <typename T, bool KEYED = false>
__global__ void __launch_bounds__(256, 4)
    nf_dense_rounds(const long long* __restrict__ indptr, const int* __restrict__ indices,
                    const T* __restrict__ weights, int n, T* dist, unsigned char* flag0,
                    unsigned char* flag1, T cutoff, int* changed, int* rounds_out,
                    unsigned* bar, T* dmin, T* dbase, T* dwidth, int* dcount, int* dhist,
                    T fmin0, T delta0, int target, T settle, int* heavy_u, long long* heavy_start,
                    T* heavy_d, int* heavy_count, int heavy_cap, unsigned long long* keys,
                    int span, const int* go, const T* start, int max_rounds) {
    __shared__ int s_hist[DENSE_BUCKETS];
    const long long warp = global_thread_id() >> 5, nwarps = grid_stride() >> 5;
    span = span < 1 ? 1 : (span > MAX_FLAG_SPAN<T> ? MAX_FLAG_SPAN<T> : span);
    for (int round = 0;; ++round) {
        if (round == max_rounds) {  // the same round in every block: none waits at a barrier
            if (global_thread_id() == 0) *rounds_out = -1;
            return;
        }
        const int cur = round % 3, prev = (round + 2) % 3, nxt = (round + 1) % 3;
        unsigned char* flag_in = round & 1 ? flag1 : flag0;
        unsigned char* flag_out = round & 1 ? flag0 : flag1;
        T thr, base = fmin0, width = delta0 / 4 > T(0) ? delta0 / 4 : T(1);
        if (round == 0) {
            // nf_hand_over kept the run in near-far (the return here, not before the
            // loop: there it cost the int32 rounds a spilled register)
            if (go != nullptr && *go == 0) return;
            if (start != nullptr) {
                base = start[0];
                const T delta = start[1];
                width = delta / 4 > T(0) ? delta / 4 : T(1);
                thr = threshold(base, delta);
            } else {
                thr = threshold(fmin0, delta0);
            }
        } else if (target == 0) {
            base = dmin[prev];
            thr = threshold(base, delta0);
        } else {
            const int k = bucket_reaching(dhist + prev * DENSE_BUCKETS, target);
            const T wprev = dwidth[prev];
            base = dmin[prev];
            width = k >= DENSE_BUCKETS / 2 && wprev < DistTraits<T>::inf() / (4 * DENSE_BUCKETS)
                        ? wprev * 2
                        : (k < DENSE_BUCKETS / 8 && wprev / 2 > T(0) ? wprev / 2 : wprev);
            const T span = wprev > DistTraits<T>::inf() / DENSE_BUCKETS ? DistTraits<T>::inf()
                                                                        : T(k + 1) * wprev;
            thr = k >= DENSE_BUCKETS ? DistTraits<T>::inf() : threshold(dbase[prev], span);
            if (!(width > T(0))) width = T(1);
            const T least = threshold(base, width);
            thr = thr > least ? thr : least;
        }
        if (global_thread_id() == 0) {
            dbase[cur] = base;
            dwidth[cur] = width;
            dmin[nxt] = DistTraits<T>::inf();
            dcount[nxt] = 0;
            changed[nxt] = 0;
            if (heavy_count != nullptr) heavy_count[nxt] = 0;
        }
        if (global_thread_id() < DENSE_BUCKETS) dhist[nxt * DENSE_BUCKETS + global_thread_id()] = 0;
        if (threadIdx.x < DENSE_BUCKETS) s_hist[threadIdx.x] = 0;
        __syncthreads();
        bool any = false;
        T low = DistTraits<T>::inf();
        const Pending<T> pending{&any, &low, target > 0 ? s_hist : nullptr, base, width};
        const FlagVisitor<T, KEYED> lower{dist, flag_out, pending, cutoff, keys};
        const HeavyRows<T> heavy{heavy_u, heavy_start, heavy_d,
                                 heavy_count == nullptr ? nullptr : heavy_count + cur, heavy_cap};
        const FlaggedVertices<T> flagged{flag_in, flag_out, dist, thr, pending, indptr,
                                         threshold(base, settle)};
        const int taken = heavy_count != nullptr  // skewed degrees: see visit_flagged_arcs
                              ? visit_entry_arcs<true>(indptr, indices, weights, flagged, n,
                                                       warp, nwarps, lower, heavy)
                              : visit_flagged_arcs(indptr, indices, weights, flagged, n, span,
                                                   warp, nwarps, lower);
        if (__any_sync(FULL_MASK, any) && (threadIdx.x & 31) == 0) changed[cur] = 1;
        int* hist = dhist + cur * DENSE_BUCKETS;
        block_reduce_into(low, taken, s_hist, &dmin[cur], &dcount[cur], hist);
        if (heavy_count != nullptr) {  // the round's long rows, split over the grid
            grid_barrier(bar);
            if (threadIdx.x < DENSE_BUCKETS) s_hist[threadIdx.x] = 0;
            __syncthreads();
            any = false;
            low = DistTraits<T>::inf();
            heavy.relax(indptr, indices, weights, heavy_count[cur], warp, nwarps, lower);
            if (__any_sync(FULL_MASK, any) && (threadIdx.x & 31) == 0) changed[cur] = 1;
            block_reduce_into(low, 0, s_hist, &dmin[cur], &dcount[cur], hist);
        }
        grid_barrier(bar);
        if (!*static_cast<volatile int*>(&changed[cur])) {
            if (global_thread_id() == 0) *rounds_out = round + 1;
            return;
        }
    }
}

// ---- set-up and the dense phase's conversions (one launch each: a run's fixed cost
// is a few launches, not a dozen small copies and scatters) --------------------------

// A run's state: dist unreached but 0 at `source` (-1: none, the host adds several
// sources), pred and stamp -1, the frontier = the source, ctl/tctl of round 0.
template <typename T>
__global__ void nf_init(T* dist, int* pred, int* stamp, int n, int* fv, T* fd, int* ctl,
                        T* tctl, int source, T delta) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) {
        dist[i] = i == source ? T(0) : DistTraits<T>::inf();
        pred[i] = -1;
        stamp[i] = -1;
    }
    if (global_thread_id() == 0) {
        for (int k = 0; k < 10; ++k) ctl[k] = 0;
        ctl[0] = source >= 0;
        fv[0] = source;
        fd[0] = T(0);
        tctl[0] = T(0);
        tctl[1] = delta;
        tctl[2] = DistTraits<T>::inf();
    }
}

// The hand-over's verdict after a launch: ctl[9] = 1 where the run goes on in dense
// rounds (the team stopped for a wide frontier, ctl[8], or the frontier holds more than
// n / dense_fraction entries) and then the frontier's vertices are flagged; else 0.
__global__ void nf_hand_over(int* ctl, const int* fv, const int* gv, int n, int dense_fraction,
                             unsigned char* flags) {
    const int size = ctl[0];
    const bool handed = ctl[8] != 0 || static_cast<long long>(size) * dense_fraction > n;
    if (global_thread_id() == 0) ctl[9] = handed;
    if (!handed) return;
    const int* cv = ctl[3] ? gv : fv;
    for (long long k = global_thread_id(); k < size; k += grid_stride()) flags[cv[k]] = 1;
}

// A keyed run's tree: pred[v] = the tail in the least key of v (record_keys), -1 where
// none (the sources, unreached vertices: keys all ones).
__global__ void nf_key_preds(const unsigned long long* keys, int* pred, int n) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) {
        const unsigned long long k = keys[i];
        pred[i] = k == ~0ULL ? -1 : static_cast<int>(static_cast<unsigned>(k));
    }
}

// int64 distances to the dense phase's int32 ones (unreached: the int32 maximum) and back.
__global__ void nf_narrow(const long long* dist, int* work, int n) {
    const long long top = DistTraits<int>::inf();
    for (long long i = global_thread_id(); i < n; i += grid_stride())
        work[i] = static_cast<int>(dist[i] < top ? dist[i] : top);
}

__global__ void nf_widen(const int* work, long long* dist, int n) {
    for (long long i = global_thread_id(); i < n; i += grid_stride())
        dist[i] = work[i] == DistTraits<int>::inf() ? DistTraits<long long>::inf() : work[i];
}
