// Near-far SSSP with adaptive delta: nx-gpusp's own default ("near-far"), beyond the
// papers. A frontier of (vertex, snapshot distance) entries; each round relaxes only
// the "near" entries (snapshot < frontier minimum + delta), carries the "far" ones
// that are still current, and appends every vertex it lowers once (round stamp).
// Snapshot relaxation and predecessors set only on a strict decrease keep the
// frontier engine's invariant (a predecessor cycle is a negative cycle; see
// nx_gpusp/solvers/sssp/frontier.py), so trees and NetworkXUnbounded come for free.
// Delta doubles when a round has too little near work and halves when it has too much
// (target: one entry per thread), so no graph-specific tuning is needed.
//
// Two launch shapes, same round semantics:
//  * near_far_block: ONE thread block runs up to max_rounds rounds with only
//    __syncthreads between phases, while the frontier has <= cap entries (road graphs:
//    hundreds of rounds of a few hundred entries, latency-bound: no host round trip).
//  * nf_relax_grid / nf_predecessors_grid / nf_carry_grid: one round over the whole
//    grid for large frontiers; the host reads the control block between rounds.
// Arcs of high-degree vertices are expanded by a whole warp (ballot loop), others by
// one lane. Frontier buffers: cv/cd current (vertex, snapshot), nv/nd next.
// ctl (int32): [0] size, [1] round, [2] near entries of the round in progress, [3] parity
// (0: frontier in fv/fd, 1: in gv/gd), [4] new entries, [5] carried entries,
// [6] total near entries processed (int, saturating statistics are not needed here).
// tctl (T): [0] frontier minimum snapshot, [1] delta, [2] next minimum (grid rounds).
#include "common.cuh"

#define FULL_MASK 0xffffffffu

#ifdef NF_PROFILE
__device__ long long nf_profile[4];
#endif

// Visitors see each arc twice: pre(v) is issued for a batch of arcs before any
// apply(), so the batch's loads are in flight together (fewer dependent latencies).
template <typename T> struct RelaxVisitor {
    T* dist; int* stamp; int round; int* next_v; int* next_count; T cutoff;
#ifdef NF_NO_PRECHECK  // experiment: atomic on every arc instead of read-then-atomic
    __device__ __forceinline__ T pre(int) const { return DistTraits<T>::inf(); }
#else
    __device__ __forceinline__ T pre(int v) const { return dist[v]; }
#endif
    __device__ __forceinline__ void apply(int /*u*/, int v, T cand, T dv) const {
        if (cand > cutoff || !(cand < dv)) return;
        const T old = atomic_min(&dist[v], cand);
        if (cand < old && atomicExch(&stamp[v], round) != round) next_v[append_slot(next_count)] = v;
    }
};

template <typename T> struct PredecessorVisitor {
    const T* dist; const int* stamp; int round; int* pred;
    __device__ __forceinline__ T pre(int v) const { return stamp[v] == round ? dist[v] : DistTraits<T>::inf(); }
    __device__ __forceinline__ void apply(int u, int v, T cand, T dv) const {
        if (cand == dv) pred[v] = u;
    }
};

#define ARC_BATCH 4

// Arcs [beg, end) of u, one lane: ARC_BATCH arcs gathered, pre-read, then applied.
template <typename T, typename Visitor>
__device__ __forceinline__ void visit_row(const int* __restrict__ indices, const T* __restrict__ weights,
                                          int u, T du, long long beg, long long end, long long step,
                                          const Visitor& visit) {
    for (long long a0 = beg; a0 < end; a0 += ARC_BATCH * step) {
        int v[ARC_BATCH];
        T cand[ARC_BATCH], pre[ARC_BATCH];
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            const long long a = a0 + j * step;
            v[j] = a < end ? indices[a] : -1;
            cand[j] = a < end ? du + weights[a] : T(0);
        }
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) pre[j] = v[j] >= 0 ? visit.pre(v[j]) : T(0);
#pragma unroll
        for (int j = 0; j < ARC_BATCH; ++j) {
            if (v[j] >= 0) visit.apply(u, v[j], cand[j], pre[j]);
        }
    }
}

// Visit every arc of the near entries of cv/cd[0, size); warps `warp`, `warp+nwarps`, ...
// take 32 entries each. Returns (in lane 0) how many near entries this warp saw.
template <typename T, typename Visitor>
__device__ int visit_near_arcs(const long long* __restrict__ indptr, const int* __restrict__ indices,
                               const T* __restrict__ weights, const int* cv, const T* cd, int size,
                               T thr, long long warp, long long nwarps, const Visitor& visit) {
    const int lane = threadIdx.x & 31;
    int near_seen = 0;
    for (long long base = warp * 32; base < size; base += nwarps * 32) {
        const long long i = base + lane;
        int u = -1;
        T du = T(0);
        long long beg = 0, end = 0;
        if (i < size) {
            du = cd[i];
            const int ui = cv[i];  // loaded with cd[i], not after the comparison
            if (du < thr) {
                u = ui;
                beg = indptr[u];
                end = indptr[u + 1];
            }
        }
        near_seen += __popc(__ballot_sync(FULL_MASK, u >= 0));
        unsigned big = __ballot_sync(FULL_MASK, end - beg > 32);
        while (big) {
            const int src = __ffs(big) - 1;
            big &= big - 1;
            const long long b = __shfl_sync(FULL_MASK, beg, src), e = __shfl_sync(FULL_MASK, end, src);
            const T d0 = __shfl_sync(FULL_MASK, du, src);
            const int u0 = __shfl_sync(FULL_MASK, u, src);
            visit_row(indices, weights, u0, d0, b + lane, e, 32, visit);
        }
        if (end - beg <= 32) visit_row(indices, weights, u, du, beg, end, 1, visit);
    }
    return near_seen;
}

// Minimum of v over the calling block into *target (shared or global).
template <typename T> __device__ void block_min_into(T v, T* target) {
    for (int off = 16; off > 0; off >>= 1) {
        const T o = __shfl_down_sync(FULL_MASK, v, off);
        v = o < v ? o : v;
    }
    if ((threadIdx.x & 31) == 0 && v < DistTraits<T>::inf()) atomic_min(target, v);
}

// Snapshot the n_new appended entries, carry the far entries still current; each
// thread returns the minimum snapshot it wrote. Threads tid, tid+nthreads, ...
template <typename T>
__device__ T snapshot_and_carry(const int* cv, const T* cd, int size, T thr, const T* dist,
                                int* nv, T* nd, int n_new, int* carry_count,
                                long long tid, long long nthreads) {
    T local = DistTraits<T>::inf();
    for (long long j = tid; j < n_new; j += nthreads) {
        const T dj = dist[nv[j]];
        nd[j] = dj;
        local = dj < local ? dj : local;
    }
    for (long long i = tid; i < size; i += nthreads) {
        const T du = cd[i];
        const int u = cv[i];
        if (du < thr || dist[u] != du) continue;  // lowered this round: its new entry is appended
        const int slot = n_new + append_slot(carry_count);
        nv[slot] = u;
        nd[slot] = du;
        local = du < local ? du : local;
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

template <typename T>
__global__ void __launch_bounds__(1024) near_far_block(
        const long long* __restrict__ indptr, const int* __restrict__ indices,
        const T* __restrict__ weights, T* dist, int* pred, int* stamp, int* fv, T* fd, int* gv,
        T* gd, int* ctl, T* tctl, int cap, int max_rounds, int track_pred, T cutoff) {
    __shared__ int s_next, s_carry, s_near;
    __shared__ T s_min;
#ifdef NF_PROFILE  // cycles per phase, accumulated by thread 0 into nf_profile[0..4]
    long long t0 = clock64(), t1;
#define NF_MARK(k) do { if (threadIdx.x == 0) { t1 = clock64(); nf_profile[k] += t1 - t0; t0 = t1; } } while (0)
#else
#define NF_MARK(k) do { } while (0)
#endif
    int size = ctl[0], round = ctl[1], parity = ctl[3], total_near = ctl[6];
    T fmin = tctl[0], delta = tctl[1];
    const long long warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (int r = 0; r < max_rounds && size > 0 && size <= cap; ++r) {
        ++round;
        int* cv = parity ? gv : fv;
        T* cd = parity ? gd : fd;
        int* nv = parity ? fv : gv;
        T* nd = parity ? fd : gd;
        const T thr = threshold(fmin, delta);
        if (threadIdx.x == 0) { s_next = 0; s_carry = 0; s_near = 0; s_min = DistTraits<T>::inf(); }
        __syncthreads();
        NF_MARK(0);
        const RelaxVisitor<T> relax{dist, stamp, round, nv, &s_next, cutoff};
        const int seen = visit_near_arcs(indptr, indices, weights, cv, cd, size, thr, warp, nwarps, relax);
        if ((threadIdx.x & 31) == 0 && seen) atomicAdd(&s_near, seen);
        __syncthreads();
        NF_MARK(1);
        if (track_pred) {
            const PredecessorVisitor<T> record{dist, stamp, round, pred};
            visit_near_arcs(indptr, indices, weights, cv, cd, size, thr, warp, nwarps, record);
        }
        const int n_new = s_next;
        const T local = snapshot_and_carry(cv, cd, size, thr, dist, nv, nd, n_new, &s_carry,
                                           threadIdx.x, blockDim.x);
        block_min_into(local, &s_min);
        __syncthreads();
        NF_MARK(2);
        size = n_new + s_carry;
        fmin = s_min;
        const int near = s_near;
        total_near += near;
        delta = adapt_delta(delta, near, static_cast<int>(blockDim.x));
        parity ^= 1;
        __syncthreads();
        NF_MARK(3);
    }
    if (threadIdx.x == 0) {
        ctl[0] = size; ctl[1] = round; ctl[2] = 0; ctl[3] = parity; ctl[6] = total_near;
        tctl[0] = fmin; tctl[1] = delta;
    }
}

// ---- one round over the whole grid (large frontiers) ----------------------------
// The threshold is read from tctl (frontier minimum + delta), so the host only reads
// ctl[0] (the next size) per round; nf_advance (one thread) closes the round.
template <typename T>
__global__ void nf_relax_grid(const long long* __restrict__ indptr, const int* __restrict__ indices,
                              const T* __restrict__ weights, const int* cv, const T* cd, int size,
                              const T* tctl, T* dist, int* stamp, int* nv, int* ctl, T cutoff) {
    const T thr = threshold(tctl[0], tctl[1]);
    const RelaxVisitor<T> relax{dist, stamp, ctl[1] + 1, nv, &ctl[4], cutoff};
    const int seen = visit_near_arcs(indptr, indices, weights, cv, cd, size, thr,
                                     global_thread_id() >> 5, grid_stride() >> 5, relax);
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
