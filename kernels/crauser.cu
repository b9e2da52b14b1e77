// Crauser-based GPU Dijkstra (Ortega-Arranz, Torres, Llanos & Gonzalez-Escribano 2013),
// Algorithm 1: per iteration relax -> minimum -> update, one thread per vertex, with the
// unsettled (U) and frontier (F) flag vectors of the paper. Variants:
//   relax        successor variant: each frontier vertex f pushes d[f] + w(f, j) into its
//                unsettled successors j with atomic min (Alg. 2).
//   relax_pull   predecessor variant (Martin et al. 2009): each unsettled vertex j scans
//                its incoming arcs (the reverse CSR) for frontier tails; only thread j
//                writes d[j], so no atomics.
//   relax_dense  adjacency-matrix form of the predecessor scan: thread j reads column j of
//                the n x n matrix at the frontier rows (coalesced across threads).
//   minimum_general   Delta_i = min over U of d(u) + W(u), W = minimum out-weight
//                     (general variant, eq. 1), as a parallel reduction.
//   minimum_distance  min over U of d(u): Martin's threshold (eq. 3); the economic variant
//                     adds the global minimum weight on the host (eq. 2).
//   update       settles every unsettled v with d[v] <= Delta: U[v] = 0, F[v] = 1 (Alg. 3).
//
// Launch: grid-stride loops over n vertices, any block size that is a multiple of 32
// (the reduction combines warp shuffles with one shared slot per warp; one atomic min
// per block into threshold[0], which the host sets to inf beforehand).
//
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T), for relax_pull the
// reverse CSR (indices = tails); matrix[n*n] T row-major (inf = no arc); frontier[n],
// unsettled[n] uint8 flags; dist[n] T; out_weight[n] T (inf where no arc leaves);
// cutoff: candidates above it are not relaxed; threshold[1] T.
#include "arc_visitors.cuh"

template <typename T>
__global__ void relax(const long long* __restrict__ indptr, const int* __restrict__ indices,
                      const T* __restrict__ weights, const unsigned char* __restrict__ frontier,
                      const unsigned char* __restrict__ unsettled, int n, T* dist, T cutoff) {
    for (long long f = global_thread_id(); f < n; f += grid_stride()) {
        if (!frontier[f]) continue;
        const T df = dist[f];
        for_row_arcs(indptr, f, [&](long long e) {
            const int j = indices[e];
            if (!unsettled[j]) return;
            const T cand = df + weights[e];
            if (cand <= cutoff && cand < dist[j]) atomic_min(&dist[j], cand);
        });
    }
}

template <typename T>
__global__ void relax_pull(const long long* __restrict__ rindptr,
                           const int* __restrict__ rindices, const T* __restrict__ rweights,
                           const unsigned char* __restrict__ frontier,
                           const unsigned char* __restrict__ unsettled, int n, T* dist,
                           T cutoff) {
    for (long long j = global_thread_id(); j < n; j += grid_stride()) {
        if (!unsettled[j]) continue;
        T best = dist[j];
        const long long end = rindptr[j + 1];
        for (long long e = rindptr[j]; e < end; ++e) {
            const int f = rindices[e];
            if (!frontier[f]) continue;
            const T cand = dist[f] + rweights[e];
            if (cand <= cutoff && cand < best) best = cand;
        }
        dist[j] = best;
    }
}

template <typename T>
__global__ void relax_dense(const T* __restrict__ matrix,
                            const unsigned char* __restrict__ frontier,
                            const unsigned char* __restrict__ unsettled, int n, T* dist,
                            T cutoff) {
    const T inf = DistTraits<T>::inf();
    for (long long j = global_thread_id(); j < n; j += grid_stride()) {
        if (!unsettled[j]) continue;
        T best = dist[j];
        for (long long f = 0; f < n; ++f) {
            if (!frontier[f]) continue;
            const T w = matrix[f * n + j];
            if (w == inf) continue;
            const T cand = dist[f] + w;
            if (cand <= cutoff && cand < best) best = cand;
        }
        dist[j] = best;
    }
}

// Minimum of v over the block, valid in thread 0; blockDim.x must be a multiple of 32.
template <typename T> __device__ T block_minimum(T v) {
    __shared__ T warp_min[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int offset = 16; offset > 0; offset >>= 1) {
        const T other = __shfl_down_sync(0xffffffffu, v, offset);
        v = other < v ? other : v;
    }
    if (lane == 0) warp_min[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? warp_min[lane] : DistTraits<T>::inf();
        for (int offset = 16; offset > 0; offset >>= 1) {
            const T other = __shfl_down_sync(0xffffffffu, v, offset);
            v = other < v ? other : v;
        }
    }
    return v;
}

template <typename T>
__global__ void minimum_general(const T* __restrict__ dist, const T* __restrict__ out_weight,
                                const unsigned char* __restrict__ unsettled, int n,
                                T* threshold) {
    T v = DistTraits<T>::inf();
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (!unsettled[u]) continue;
        const T bound = add_saturating(dist[u], out_weight[u]);
        if (bound < v) v = bound;
    }
    v = block_minimum(v);
    if (threadIdx.x == 0 && v < DistTraits<T>::inf()) atomic_min(threshold, v);
}

template <typename T>
__global__ void minimum_distance(const T* __restrict__ dist,
                                 const unsigned char* __restrict__ unsettled, int n,
                                 T* threshold) {
    T v = DistTraits<T>::inf();
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (unsettled[u] && dist[u] < v) v = dist[u];
    }
    v = block_minimum(v);
    if (threadIdx.x == 0 && v < DistTraits<T>::inf()) atomic_min(threshold, v);
}

template <typename T>
__global__ void update(unsigned char* frontier, unsigned char* unsettled,
                       const T* __restrict__ dist, int n, T threshold) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        const bool settle = unsettled[v] && dist[v] <= threshold;
        frontier[v] = settle;
        if (settle) unsettled[v] = 0;
    }
}
