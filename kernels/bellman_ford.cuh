// The Bellman-Ford round on CSR (Bodra & Khairnar 2025, "Accelerating and analyzing
// performance of shortest path algorithms on GPU using CUDA platform"), shared by
// bellman_ford.cu (variants vertex, strided and strided+flag) and harish.cu (which
// relaxes with relax_out_arcs and records predecessors with bf_record_predecessors).
// One round = bf_relax, then (when predecessors are kept)
// bf_record_predecessors, then bf_update; all three are grid-stride loops over vertices:
// launched with ceil(n / block) blocks they are the paper's one-thread-per-vertex kernel
// ("vertex"), with a fixed smaller grid its grid-stride kernel ("strided").
//
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); prev[n] = the
// distances of the previous round (the paper's previousDistance, read only while
// relaxing); dist[n] = the distances being accumulated this round (atomicMin);
// flag[n] uint8 = lowered in the previous round (relaxed only when use_flags);
// cutoff: candidates above it are not relaxed; changed[1] int32: set when a round lowers
// anything (the host's early exit); pred[n] int32.
//
// bf_update also re-computes every flag (flag[v] = lowered this round), which has the
// paper's effect of "reset when its edges are processed, set when its distance changes"
// and leaves the round's flagged set readable by bf_record_predecessors. Relaxing from
// prev and giving a vertex a predecessor only in a round that strictly lowers it, to a
// tail with prev[u] + w == dist[v], keeps the invariant that every predecessor cycle is
// a negative cycle (nx_gpusp/solvers/sssp/frontier.py has the proof).
#pragma once
#include "arc_visitors.cuh"

// Relax every out-arc of u from the value du into target (atomic minimum).
template <typename T>
__device__ __forceinline__ void relax_out_arcs(const long long* __restrict__ indptr,
                                               const int* __restrict__ indices,
                                               const T* __restrict__ weights, int u, T du,
                                               T* target, T cutoff) {
    if (du == DistTraits<T>::inf()) return;  // unreached: nothing to relax (and no overflow)
    for_row_arcs(indptr, u, [&](long long e) {
        const int v = indices[e];
        const T cand = du + weights[e];
        if (cand <= cutoff && cand < target[v]) atomic_min(&target[v], cand);
    });
}

// pred[v] = u for every arc (u, v) with prev[u] + w == dist[v] < prev[v].
template <typename T>
__device__ __forceinline__ void record_tight_arcs(const long long* __restrict__ indptr,
                                                  const int* __restrict__ indices,
                                                  const T* __restrict__ weights, int u,
                                                  const T* __restrict__ prev,
                                                  const T* __restrict__ dist, int* pred) {
    const T du = prev[u];
    for_row_arcs(indptr, u, [&](long long e) {
        const int v = indices[e];
        if (dist[v] < prev[v] && du + weights[e] == dist[v]) pred[v] = u;
    });
}

template <typename T>
__global__ void bf_relax(const long long* __restrict__ indptr, const int* __restrict__ indices,
                         const T* __restrict__ weights, int n, const T* __restrict__ prev,
                         T* dist, const unsigned char* __restrict__ flag, int use_flags,
                         T cutoff) {
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (use_flags && !flag[u]) continue;
        const T du = prev[u];
        if (du == DistTraits<T>::inf()) continue;
        relax_out_arcs(indptr, indices, weights, static_cast<int>(u), du, dist, cutoff);
    }
}

template <typename T>
__global__ void bf_record_predecessors(const long long* __restrict__ indptr,
                                       const int* __restrict__ indices,
                                       const T* __restrict__ weights, int n,
                                       const T* __restrict__ prev, const T* __restrict__ dist,
                                       const unsigned char* __restrict__ flag, int use_flags,
                                       int* pred) {
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (use_flags && !flag[u]) continue;
        if (prev[u] == DistTraits<T>::inf()) continue;
        record_tight_arcs(indptr, indices, weights, static_cast<int>(u), prev, dist, pred);
    }
}

template <typename T>
__global__ void bf_update(int n, T* prev, const T* __restrict__ dist, unsigned char* flag,
                          int* changed) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        const bool lowered = dist[v] < prev[v];
        flag[v] = lowered;
        if (lowered) {
            prev[v] = dist[v];
            *changed = 1;
        }
    }
}
