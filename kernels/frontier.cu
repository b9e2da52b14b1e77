// Frontier Bellman-Ford with snapshot relaxation: the engine behind nx-gpusp's
// "frontier" method (Bellman-Ford work-queue idea of the CUDA SSSP paper, section
// "bellman-ford queue", without its host queue; Harish & Narayanan's flags replaced by a
// compacted frontier list as the Crauser paper proposes as future work).
//
// One round = relax_frontier (one thread per frontier vertex, atomic min into dist,
// appends each lowered vertex once to the next frontier), record_predecessors (same
// shape: pred[v] = u for an arc that achieves the new dist[v]), snapshot_frontier
// (one thread per next-frontier slot: its distance at the end of the round).
// Relaxing from the round-start snapshot, and setting pred only on a strict decrease,
// keeps the invariant that a cycle of predecessors is a negative cycle (see
// nx_gpusp/solvers/sssp/frontier.py).
//
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); frontier[size]
// vertex ids with frontier_dist[size] their snapshot distances; dist[n]; lowered[n]
// = last round in which the vertex was lowered (-1 never); pred[n] int32.
#include "arc_visitors.cuh"

template <typename T>
__global__ void relax_frontier(const long long* __restrict__ indptr,
                               const int* __restrict__ indices,
                               const T* __restrict__ weights,
                               const int* __restrict__ frontier,
                               const T* __restrict__ frontier_dist, int frontier_size,
                               T* dist, int* lowered, int round, int* next_frontier,
                               int* next_size, T cutoff) {
    for_frontier_arcs(indptr, indices, weights, frontier, frontier_dist, frontier_size,
                      [&](int, int v, T cand) {
        if (cand > cutoff || !(cand < dist[v])) return;
        const T old = atomic_min(&dist[v], cand);
        if (cand < old && atomicExch(&lowered[v], round) != round) {
            next_frontier[append_slot(next_size)] = v;
        }
    });
}

template <typename T>
__global__ void record_predecessors(const long long* __restrict__ indptr,
                                    const int* __restrict__ indices,
                                    const T* __restrict__ weights,
                                    const int* __restrict__ frontier,
                                    const T* __restrict__ frontier_dist, int frontier_size,
                                    const T* __restrict__ dist,
                                    const int* __restrict__ lowered, int round, int* pred) {
    for_frontier_arcs(indptr, indices, weights, frontier, frontier_dist, frontier_size,
                      [&](int u, int v, T cand) {
        if (lowered[v] == round && cand == dist[v]) pred[v] = u;
    });
}

template <typename T>
__global__ void snapshot_frontier(const int* __restrict__ frontier, int frontier_size,
                                  const T* __restrict__ dist, T* frontier_dist) {
    for (long long i = global_thread_id(); i < frontier_size; i += grid_stride()) {
        frontier_dist[i] = dist[frontier[i]];
    }
}
