// Yen's k shortest loopless paths (J. Y. Yen, "Finding the K Shortest Loopless Paths in a
// Network", Management Science 17(11), 1971): the spur searches of one round run as one
// batched frontier Bellman-Ford (the snapshot rounds of apsp_batched.cu, the same
// arc_visitors.cuh loop over a batch's frontier entries), row r searching
// from its spur vertex with its root path removed. Row r starts from its spur's allowed
// out-arcs (seeded by the host), skips every head whose position on the round's path is
// at most limit[r] (its root path, the spur included), and drops candidates above its
// target's distance at the round's start (bound[r]): they cannot shorten its spur path.
// A vertex's predecessor is the least tail among the arcs tight in the round that last
// lowered it, so the trees (and the spur paths) do not depend on the threads' order.
//
// Launch shape: 1-D grid-stride, one thread per frontier entry (walk_spur_paths: one
// thread per row).
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); n; frontier[size]
// entry ids r * n + v (int64) with frontier_dist[size] their snapshot distances;
// root_pos[n] int32 (a vertex's position on the round's path, 2^31 - 1 off it); limit[B]
// int32; bound[B] T; dist[B * n] row-major by row; lowered[B * n] = last round the entry
// was lowered (-1 never); pred[B * n] int32 (tail vertex within the row, -1 none);
// next_frontier / next_size (unsigned long long counter) collect each entry lowered in
// this round once. walk_spur_paths: out[B * n] gets row r's path from target back to its
// spur at out[r * n ...], length[r] its vertex count (0: target not reached).
#include "arc_visitors.cuh"

// a predecessor slot before record_spur_predecessors lowers it to the least tight tail
constexpr int NO_TAIL_YET = 0x7fffffff;

// the heads row r keeps: those off its root path (position above limit[r])
struct OffRootPath {
    const int* __restrict__ root_pos;
    const int* __restrict__ limit;
    __device__ bool operator()(long long row, int v) const { return root_pos[v] > limit[row]; }
};

template <typename T>
__global__ void relax_spur_frontier(const long long* __restrict__ indptr,
                                    const int* __restrict__ indices,
                                    const T* __restrict__ weights, int n,
                                    const long long* __restrict__ frontier,
                                    const T* __restrict__ frontier_dist, long long size,
                                    const int* __restrict__ root_pos,
                                    const int* __restrict__ limit,
                                    const T* __restrict__ bound, T* dist, int* lowered,
                                    int round, int* pred, long long* next_frontier,
                                    unsigned long long* next_size) {
    for_batch_frontier_arcs(indptr, indices, weights, n, frontier, frontier_dist, size,
                            OffRootPath{root_pos, limit},
                            [&](long long row, int, long long v, T cand) {
        if (cand > bound[row] || !(cand < dist[v])) return;
        const T old = atomic_min(&dist[v], cand);
        if (cand < old && atomicExch(&lowered[v], round) != round) {
            pred[v] = NO_TAIL_YET;
            next_frontier[append_slot(next_size)] = v;
        }
    });
}

template <typename T>
__global__ void record_spur_predecessors(const long long* __restrict__ indptr,
                                         const int* __restrict__ indices,
                                         const T* __restrict__ weights, int n,
                                         const long long* __restrict__ frontier,
                                         const T* __restrict__ frontier_dist,
                                         long long size, const int* __restrict__ root_pos,
                                         const int* __restrict__ limit,
                                         const T* __restrict__ dist,
                                         const int* __restrict__ lowered, int round,
                                         int* pred) {
    for_batch_frontier_arcs(indptr, indices, weights, n, frontier, frontier_dist, size,
                            OffRootPath{root_pos, limit},
                            [&](long long, int u, long long v, T cand) {
        if (lowered[v] == round && cand == dist[v]) atomicMin(&pred[v], u);
    });
}

__global__ void walk_spur_paths(const int* __restrict__ pred, int n, int rows,
                                           int target, int* out, int* length) {
    for (long long r = global_thread_id(); r < rows; r += grid_stride()) {
        const long long base = r * n;
        int v = target, k = 0;
        if (pred[base + target] >= 0) {
            while (v >= 0 && k < n) {
                out[base + k++] = v;
                v = pred[base + v];
            }
        }
        length[r] = k;
    }
}
