// Batched multi-source frontier Bellman-Ford ("batched-frontier", and one source per
// stream for "apsp-concurrent"): the snapshot-relaxation rounds of kernels/frontier.cu
// run for B sources at once, every (source, vertex) pair its own entry, so one launch
// relaxes the frontiers of all B sources (APSP concurrent-kernels paper: many sources in
// flight; here as one grid instead of B small ones).
//
// Launch shape: 1-D grid-stride, one thread per frontier entry (block size chosen by
// the host: 256, or the APSP paper's 96 for apsp-concurrent).
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); n; frontier[size]
// entry ids s * n + v (int64) with frontier_dist[size] their snapshot distances;
// dist[B * n] row-major by source; lowered[B * n] = last round the entry was lowered
// (-1 never); pred[B * n] int32 (vertex id of the predecessor within the source's row);
// next_frontier / next_size (unsigned long long counter) collect each entry lowered in
// this round once. As in frontier.cu, an entry gets a predecessor only in a round that
// strictly lowers it, to a tail whose snapshot plus the arc weight equals the new
// distance, so each row's predecessors form a shortest-path tree.
#include "arc_visitors.cuh"

// every head: a row is one source's whole search
struct EveryHead {
    __device__ bool operator()(long long, int) const { return true; }
};

template <typename T>
__global__ void relax_batch_frontier(const long long* __restrict__ indptr,
                                     const int* __restrict__ indices,
                                     const T* __restrict__ weights, int n,
                                     const long long* __restrict__ frontier,
                                     const T* __restrict__ frontier_dist, long long size,
                                     T* dist, int* lowered, int round,
                                     long long* next_frontier,
                                     unsigned long long* next_size, T cutoff) {
    for_batch_frontier_arcs(indptr, indices, weights, n, frontier, frontier_dist, size,
                            EveryHead(), [&](long long, int, long long v, T cand) {
        if (cand > cutoff || !(cand < dist[v])) return;
        const T old = atomic_min(&dist[v], cand);
        if (cand < old && atomicExch(&lowered[v], round) != round) {
            next_frontier[append_slot(next_size)] = v;
        }
    });
}

template <typename T>
__global__ void record_batch_predecessors(const long long* __restrict__ indptr,
                                          const int* __restrict__ indices,
                                          const T* __restrict__ weights, int n,
                                          const long long* __restrict__ frontier,
                                          const T* __restrict__ frontier_dist,
                                          long long size, const T* __restrict__ dist,
                                          const int* __restrict__ lowered, int round,
                                          int* pred) {
    for_batch_frontier_arcs(indptr, indices, weights, n, frontier, frontier_dist, size,
                            EveryHead(), [&](long long, int u, long long v, T cand) {
        if (lowered[v] == round && cand == dist[v]) pred[v] = u;
    });
}

template <typename T>
__global__ void snapshot_batch_frontier(const long long* __restrict__ frontier,
                                        long long size, const T* __restrict__ dist,
                                        T* frontier_dist) {
    for (long long i = global_thread_id(); i < size; i += grid_stride()) {
        frontier_dist[i] = dist[frontier[i]];
    }
}
