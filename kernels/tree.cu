// Shortest-path tree from final distances (no single paper: the tree the Crauser,
// Martin and delta-stepping methods do not keep). Level-synchronous breadth-first search
// from the sources over tight arcs (dist[u] + w == dist[v]) with a compacted frontier:
//   tight_arc_bfs_step  one thread per frontier vertex u; for each tight arc (u, v) the
//                       first thread to claim v (atomicCAS of pred[v] from UNCLAIMED to
//                       u) appends v to the next frontier. Each vertex is claimed once,
//                       so the tree is valid even across zero-weight cycles.
// The host sets pred = UNCLAIMED (-2) everywhere and -1 at the sources, runs steps until
// the frontier is empty, then maps UNCLAIMED back to -1.
//
// Launch: grid-stride over the frontier, any block size.
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); dist[n] T (final
// distances); frontier[size] int32 vertex ids; pred[n] int32; next_frontier[n] int32 and
// next_size[1] int32 (zeroed by the host).
#include "common.cuh"

#define UNCLAIMED (-2)

template <typename T>
__global__ void tight_arc_bfs_step(const long long* __restrict__ indptr,
                                   const int* __restrict__ indices,
                                   const T* __restrict__ weights, const T* __restrict__ dist,
                                   const int* __restrict__ frontier, int size, int* pred,
                                   int* next_frontier, int* next_size) {
    for (long long i = global_thread_id(); i < size; i += grid_stride()) {
        const int u = frontier[i];
        const T du = dist[u];
        const long long end = indptr[u + 1];
        for (long long e = indptr[u]; e < end; ++e) {
            const int v = indices[e];
            if (pred[v] != UNCLAIMED || du + weights[e] != dist[v]) continue;
            if (atomicCAS(&pred[v], UNCLAIMED, u) == UNCLAIMED) {
                next_frontier[append_slot(next_size)] = v;
            }
        }
    }
}
