// Shortest-path tree from final distances (no single paper: the tree that the Crauser,
// Martin and delta-stepping methods do not keep, and the one near-far's lengths-only
// rounds leave out, so that paths cost one pass over the arcs after the distances).
//   tight_arc_parents   one warp per vertex u, lanes over its out-arcs: for every arc
//                       (u, v) with dist[u] < dist[v] and dist[u] + w == dist[v], store
//                       pred[v] = u (any such u will do: the last store wins). Every
//                       step of a pred chain strictly lowers the distance, so the pointers
//                       form a forest whatever the weights and the rounding; a vertex
//                       whose every tight in-arc comes from an equally distant vertex
//                       (zero weights, or a float weight too small to change the sum)
//                       stays UNCLAIMED.
//   tight_arc_bfs_step  the fallback for those: level-synchronous breadth-first search
//                       over tight arcs (dist[u] + w == dist[v]) from every claimed
//                       vertex, one thread per frontier vertex u; the first thread to
//                       claim an UNCLAIMED v (atomicCAS of pred[v] to u) appends v to the
//                       next frontier. Each vertex is claimed once, so the tree stays valid
//                       across zero-weight cycles.
// The host sets pred = UNCLAIMED (-2) everywhere and -1 at the sources, runs the parents
// pass, then BFS steps only while reached vertices are left UNCLAIMED, and maps
// UNCLAIMED back to -1.
//
// Launch: grid-stride over the vertices (parents: 32 threads a vertex) or the frontier.
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); dist[n] T (final
// distances, DistTraits<T>::inf() = unreached); pred[n] int32; frontier[size] int32;
// next_frontier[n] int32 and next_size[1] int32 (zeroed by the host).
#include "arc_visitors.cuh"

#define UNCLAIMED (-2)

template <typename T>
__global__ void tight_arc_parents(const long long* __restrict__ indptr,
                                  const int* __restrict__ indices,
                                  const T* __restrict__ weights, const T* __restrict__ dist,
                                  int n, int* pred) {
    const long long warps = grid_stride() >> 5;
    for (long long u = global_thread_id() >> 5; u < n; u += warps) {
        const T du = dist[u];
        if (du == DistTraits<T>::inf()) continue;
        for_row_arcs_by_lane(indptr, u, [&](long long e) {
            const int v = indices[e];
            const T dv = dist[v];
            if (du < dv && dv != DistTraits<T>::inf() && du + weights[e] == dv) pred[v] = u;
        });
    }
}

template <typename T>
__global__ void tight_arc_bfs_step(const long long* __restrict__ indptr,
                                   const int* __restrict__ indices,
                                   const T* __restrict__ weights, const T* __restrict__ dist,
                                   const int* __restrict__ frontier, int size, int* pred,
                                   int* next_frontier, int* next_size) {
    for_frontier_rows(frontier, size, [&](long long, int u) {
        const T du = dist[u];
        for_row_arcs(indptr, u, [&](long long e) {
            const int v = indices[e];
            if (pred[v] != UNCLAIMED || du + weights[e] != dist[v]) return;
            if (atomicCAS(&pred[v], UNCLAIMED, u) == UNCLAIMED) {
                next_frontier[append_slot(next_size)] = v;
            }
        });
    });
}
