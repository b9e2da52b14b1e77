// Bellman-Ford as repeated min-plus sparse matrix-vector products (CUDA SSSP paper, zh,
// section "SpMV Bellman-Ford"), in CSR and ELL formats. One product per round:
// next[v] = min(prev[v], min over in-arcs (u, v) of prev[u] + w(u, v)), i.e. a pull over
// the rows of the transposed adjacency matrix (graph.reverse). One thread per row,
// grid-stride; no atomics.
//
// spmv_csr_minplus: rows from the reverse CSR (rindptr int64, rindices int32 = tails,
// rweights T). spmv_ell_minplus: ELL with `width` = max in-degree slots per row, stored
// column-major (slot j of row v at j * n + v, so a warp reads consecutive addresses),
// ell_cols int32 (-1 = padding, always after a row's arcs), ell_weights T.
// prev[n] / next[n]: distances before / after the round; pred[n] int32, written (when
// track_pred) with the argmin tail of every row the round strictly lowers: that keeps
// the invariant that every predecessor cycle is a negative cycle (see
// nx_gpusp/solvers/sssp/frontier.py). cutoff: candidates above it are ignored;
// changed[1] int32 set when a row is lowered.
#include "arc_visitors.cuh"

template <typename T>
__device__ __forceinline__ void min_plus_candidate(int u, T w, const T* __restrict__ prev,
                                                   T cutoff, T& best, int& arg) {
    const T du = prev[u];
    if (du == DistTraits<T>::inf()) return;
    const T cand = du + w;
    if (cand <= cutoff && cand < best) {
        best = cand;
        arg = u;
    }
}

template <typename T>
__device__ __forceinline__ void store_row(long long v, T best, int arg, T* next, int* pred,
                                          int track_pred, int* changed) {
    next[v] = best;
    if (arg >= 0) {
        if (track_pred) pred[v] = arg;
        *changed = 1;
    }
}

template <typename T>
__global__ void spmv_csr_minplus(const long long* __restrict__ rindptr,
                                 const int* __restrict__ rindices,
                                 const T* __restrict__ rweights, int n,
                                 const T* __restrict__ prev, T* next, int* pred,
                                 int track_pred, T cutoff, int* changed) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        T best = prev[v];
        int arg = -1;
        for_row_arcs(rindptr, v, [&](long long e) {
            min_plus_candidate(rindices[e], rweights[e], prev, cutoff, best, arg);
        });
        store_row(v, best, arg, next, pred, track_pred, changed);
    }
}

template <typename T>
__global__ void spmv_ell_minplus(const int* __restrict__ ell_cols,
                                 const T* __restrict__ ell_weights, int width, int n,
                                 const T* __restrict__ prev, T* next, int* pred,
                                 int track_pred, T cutoff, int* changed) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        T best = prev[v];
        int arg = -1;
        for (int j = 0; j < width; ++j) {
            const long long slot = static_cast<long long>(j) * n + v;
            const int u = ell_cols[slot];
            if (u < 0) break;
            min_plus_candidate(u, ell_weights[slot], prev, cutoff, best, arg);
        }
        store_row(v, best, arg, next, pred, track_pred, changed);
    }
}
