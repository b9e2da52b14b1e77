// All-pairs Dijkstra with one thread per source — Bodra & Khairnar 2025, "Dijkstra" on
// the adjacency matrix: each thread runs the textbook O(n^2) Dijkstra for its source,
// finding the next vertex by a linear scan of its distance array (no heap).
//
// Launch shape: 1-D grid-stride, one thread per source (block 128).
// Arguments: w n x n row-major arc weights (T, DistTraits<T>::inf() = no arc;
// non-negative); n; sources[nsrc] vertex ids; cutoff (a source stops once its next
// vertex is farther); dist, settled, pred: n x nsrc, *column-major by source*
// (entry (s, v) at v * nsrc + s) so that the threads of a warp touch consecutive words
// (the paper keeps one row per source); pred may be nullptr. Ties go to the lowest
// vertex id; pred[v] is set on a strict decrease from the vertex just settled, so
// predecessors always point to earlier-settled vertices (a tree, zero weights included).
#include "common.cuh"

template <typename T>
__global__ void dijkstra_per_thread(const T* __restrict__ w, int n,
                                    const int* __restrict__ sources, int nsrc, T cutoff,
                                    T* dist, unsigned char* settled, int* pred) {
    const T inf = DistTraits<T>::inf();
    for (long long s = global_thread_id(); s < nsrc; s += grid_stride()) {
        for (long long v = 0; v < n; ++v) {
            dist[v * nsrc + s] = inf;
            settled[v * nsrc + s] = 0;
            if (pred) pred[v * nsrc + s] = -1;
        }
        dist[(long long)sources[s] * nsrc + s] = 0;
        for (int it = 0; it < n; ++it) {
            int u = -1;
            T best = inf;
            for (long long v = 0; v < n; ++v) {
                const T dv = dist[v * nsrc + s];
                if (!settled[v * nsrc + s] && dv < best) {
                    best = dv;
                    u = static_cast<int>(v);
                }
            }
            if (u < 0 || best > cutoff) break;
            settled[(long long)u * nsrc + s] = 1;
            const T* row = w + (long long)u * n;
            for (long long v = 0; v < n; ++v) {
                const T wv = row[v];
                if (wv == inf || settled[v * nsrc + s]) continue;
                const T cand = best + wv;
                if (cand < dist[v * nsrc + s]) {
                    dist[v * nsrc + s] = cand;
                    if (pred) pred[v * nsrc + s] = u;
                }
            }
        }
    }
}
