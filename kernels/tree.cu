// Shortest-path tree from final distances (no single paper: the tree that the Crauser,
// Martin and delta-stepping methods do not keep, and the one near-far's lengths-only
// rounds leave out, so that paths cost one pass over the arcs after the distances).
//   tight_arc_parents   arc-parallel (the arcs in tiles of TREE_TILE, so a hub's row is
//                       spread over many blocks and a short row costs no idle lanes;
//                       each tile's first row read from tile_row, each arc's tail from a
//                       max-scan of the tile's row starts in shared memory; the arcs are
//                       streamed past L2, which keeps the gathered distances): for every
//                       arc (u, v) with dist[u] < dist[v]
//                       and dist[u] + w == dist[v], pred[v] = the largest such u (an
//                       atomicMax over UNCLAIMED or -1, both negative: the same tree
//                       every run, whatever order the arcs are read in). Every step of a
//                       pred chain strictly
//                       lowers the distance, so the pointers form a forest whatever the
//                       weights and the rounding; a vertex whose every tight in-arc comes
//                       from an equally distant vertex (zero weights, or a float weight
//                       too small to change the sum) stays UNCLAIMED, and so do the
//                       sources.
//   tight_in_arc_parents
//                       vertex-parallel over the in-arcs (the transpose CSR: the graph
//                       itself when undirected), one thread a vertex v, its in-arcs
//                       PULL_ARCS at a time from the row's end, loads in flight
//                       together: pred[v] = the last tail u in in-arc order with
//                       dist[u] < dist[v] and dist[u] + w == dist[v], and the row stops
//                       there. Rows list their tails in ascending order, so these are
//                       tight_arc_parents' pointers (the largest such u), at fewer
//                       gathers: the push
//                       pass gathers dist at every arc's head, the pull pass at the tails
//                       of a row's arcs up to its first tight one. Serial per vertex, so
//                       the host runs it only where no vertex has many in-arcs.
//   tree_unclaimed      count[0] += the reached vertices (finite distance) still
//                       UNCLAIMED (the sources among them): when that is the number of
//                       sources, the pass has built the whole tree.
//   tree_finish         where count[0] is the number of sources (the pass built the whole
//                       tree), UNCLAIMED becomes -1; else nothing: launched behind the
//                       count, so the host reads the count only to decide on the fallback.
//   in_degree_count     counts[v] += 1 for every arc into v (an atomic add a thread an
//                       arc; the host zeroes counts); in_degree_max: most[0] = the largest
//                       count (each warp's maximum, one atomicMax; the host zeroes most).
//                       The host reads it to choose between the two passes.
//   arc_tails           tails[e] = the row of arc e (tiles of TREE_TILE arcs, each row
//                       found as tight_arc_parents finds it).
//   transpose_arcs      the transpose CSR from ``order``, the arcs sorted by head (a stable
//                       sort: kernels/distance_order.cu over the heads, so each row's tails
//                       ascend): in_tails[k] = tails[order[k]], in_weights[k] =
//                       weights[order[k]], and for each v in [0, n] in_ptr[v] = the arcs
//                       whose head is below v (a binary search of the sorted heads). No
//                       CuPy routine is used: its sort, count and search would load or
//                       compile their own modules in each process's first paths call.
//   tight_arc_keys      for the tight-arc DAG (NetworkX's predecessor lists): keys[e] =
//                       dist[u] for a tight arc e = (u, v) (both ends reached, dist[u] + w
//                       == dist[v]), else DistTraits<T>::inf(), so that the distance-order
//                       sort of keys lists the tight arcs by their tail's distance, ties
//                       in arc order (tail order); gather_index: out[j] = src[idx[j]]
//                       (int32), to follow the sorts' orders.
//   tight_arc_bfs_claim, tight_arc_bfs_settle
//                       the fallback for the rest: level-synchronous breadth-first search
//                       over tight arcs (dist[u] + w == dist[v]) from every claimed
//                       vertex, one thread per frontier vertex u, a level in two launches:
//                       claim lowers pred[v] of an UNCLAIMED (or claimed this level) v to
//                       BFS_CLAIM(u) = UNCLAIMED - 1 - u (atomicMin: the largest u wins,
//                       whichever thread comes first), settle lets that u set pred[v] = u
//                       and append v to the next frontier. Each vertex is claimed once, so
//                       the tree stays valid across zero-weight cycles, and each level's
//                       claims are the same every run.
// The host sets pred = UNCLAIMED (bytes 0xFE: a memset) everywhere, runs the parents
// pass, the count and tree_finish; only where the count says vertices are left does it
// set -1 at the sources, run BFS steps and map UNCLAIMED back to -1 itself. Where the
// pass claims every reached vertex but the sources (integer weights of at least 1), it
// sets pred = -1 instead and runs the parents pass alone.
//
// Launch: parents and arc_tails, grid-stride over tiles of TREE_TILE arcs (TREE_THREADS
// a tile); in-arc parents, unclaimed and in_degree_max, grid-stride over the vertices;
// in_degree_count, tight_arc_keys and gather_index over their arrays; transpose_arcs over
// max(m, n + 1); BFS steps, over the frontier.
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); tile_row[tiles+1]
// int32 (the row of each tile's first arc: the last row starting at or before it; n - 1
// after the last tile; cached on the device graph, DeviceCSR.tile_rows); the transpose
// CSR (in_ptr[n+1] int64, in_tails[m] int32, in_weights[m] T; DeviceCSR.in_arcs) for
// the in-arc pass; dist[n] T (final
// distances, DistTraits<T>::inf() = unreached; the host runs the parents pass and the
// count on int32 copies of integer distances and weights where every path length fits
// int32); pred[n] int32; count[1] int32 (zeroed by the host); frontier[size] int32;
// next_frontier[n] int32 and next_size[1] int32 (zeroed by the host); counts[n] int32,
// most[1] int32, tails[m] int32, order[m] int32 (m < 2^31), keys[m] T.
#include "arc_visitors.cuh"

#define UNCLAIMED (-16843010)  // 0xFEFEFEFE (ops/tree.py: UNCLAIMED)

#define TREE_TILE 1024    // arcs a block takes at a time (ops/tree.py: TREE_TILE)
#define TREE_THREADS 256  // threads of a tight_arc_parents block (ops/tree.py: BLOCK)

// Each arc of the tile [first, last] gets its row (relative to the tile's first row lo)
// in row_at: every row in (lo, next] that starts inside the tile marks its first arc
// (atomicMax: of empty rows that share an offset, the last, which holds the arcs),
// position 0 is row lo's, and an inclusive max-scan carries each mark over its row's
// arcs. One coalesced read of the tile's indptr entries, one of its arcs, and no search.
__device__ __forceinline__ void tile_rows(const long long* __restrict__ indptr,
                                          long long first, long long last, long long lo,
                                          long long next, int* row_at, int* warp_max) {
    constexpr int PER = TREE_TILE / TREE_THREADS;
    for (int i = threadIdx.x; i < TREE_TILE; i += TREE_THREADS) row_at[i] = i ? -1 : 0;
    __syncthreads();
    for (long long r = lo + 1 + threadIdx.x; r <= next; r += TREE_THREADS) {
        const long long start = __ldg(indptr + r);  // > first: lo is the last row at first
        if (start <= last) atomicMax(&row_at[start - first], (int)(r - lo));
    }
    __syncthreads();
    // the thread's PER consecutive entries, then the warp's and the block's prefix
    int4 mine = reinterpret_cast<int4*>(row_at)[threadIdx.x];
    mine.y = max(mine.y, mine.x);
    mine.z = max(mine.z, mine.y);
    mine.w = max(mine.w, mine.z);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int run = mine.w;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int up = __shfl_up_sync(0xffffffffu, run, o);
        if (lane >= o) run = max(run, up);
    }
    if (lane == 31) warp_max[warp] = run;
    int before = __shfl_up_sync(0xffffffffu, run, 1);
    if (lane == 0) before = -1;
    __syncthreads();
    for (int w = 0; w < warp; ++w) before = max(before, warp_max[w]);
    mine.x = max(mine.x, before);
    mine.y = max(mine.y, before);
    mine.z = max(mine.z, before);
    mine.w = max(mine.w, before);
    reinterpret_cast<int4*>(row_at)[threadIdx.x] = mine;
    static_assert(PER == 4, "tile_rows scans four entries a thread (one int4)");
    __syncthreads();
}

// The calling block's tiles of TREE_TILE arcs (grid-stride): for each, its rows in
// row_at (tile_rows) and then body(first, last, lo) (the tile's first and last arc, the
// row of its first arc). row_at and warp_max: the block's shared arrays.
template <typename Body>
__device__ __forceinline__ void for_arc_tiles(const long long* __restrict__ indptr,
                                              const int* __restrict__ tile_row, long long m,
                                              int* row_at, int* warp_max, Body body) {
    for (long long tile = blockIdx.x; tile * TREE_TILE < m; tile += gridDim.x) {
        const long long first = tile * TREE_TILE;
        const long long last = min(first + TREE_TILE, m) - 1;
        const long long lo = __ldg(tile_row + tile), next = __ldg(tile_row + tile + 1);
        __syncthreads();  // the previous tile's row_at is read
        tile_rows(indptr, first, last, lo, next, row_at, warp_max);
        body(first, last, lo);
    }
}

template <typename T>
__global__ void __launch_bounds__(TREE_THREADS)
tight_arc_parents(const long long* __restrict__ indptr, const int* __restrict__ indices,
                  const T* __restrict__ weights, const int* __restrict__ tile_row,
                  const T* __restrict__ dist, long long m, int* pred) {
    constexpr int PER = TREE_TILE / TREE_THREADS;  // arcs a thread takes from a tile
    __shared__ __align__(16) int row_at[TREE_TILE];
    __shared__ int warp_max[TREE_THREADS / 32];
    const T inf = DistTraits<T>::inf();
    for_arc_tiles(indptr, tile_row, m, row_at, warp_max, [&](long long first, long long last,
                                                             long long lo) {
        // the thread's PER arcs, each step's loads issued together: the tails' distances,
        // then the heads and weights of the arcs whose tail is reached (a search that
        // reached a small part of the graph streams little more than its distances),
        // then the heads' distances
        long long u[PER];
        T du[PER];
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            const long long e = first + threadIdx.x + k * TREE_THREADS;
            u[k] = e <= last ? lo + row_at[threadIdx.x + k * TREE_THREADS] : -1;
            du[k] = u[k] >= 0 ? dist[u[k]] : inf;
        }
        int v[PER];
        T w[PER];
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            const long long e = first + threadIdx.x + k * TREE_THREADS;
            v[k] = -1;
            if (du[k] != inf) {
                v[k] = __ldcs(indices + e);  // read once: keep dist in L2 instead
                w[k] = __ldcs(weights + e);
            }
        }
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            if (v[k] < 0) continue;
            const T dv = dist[v[k]];
            if (dv != inf && du[k] < dv && du[k] + w[k] == dv) atomicMax(&pred[v[k]], (int)u[k]);
        }
    });
}

#define PULL_ARCS 2  // in-arcs a thread of tight_in_arc_parents takes at a time

template <typename T>
__global__ void tight_in_arc_parents(const long long* __restrict__ in_ptr,
                                     const int* __restrict__ in_tails,
                                     const T* __restrict__ in_weights,
                                     const T* __restrict__ dist, int n, int* pred) {
    const T inf = DistTraits<T>::inf();
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        const T dv = dist[v];
        if (dv == inf) continue;
        const long long begin = in_ptr[v];
        for (long long e = in_ptr[v + 1] - 1; e >= begin; e -= PULL_ARCS) {
            int u[PULL_ARCS];  // u[k]: the arc e - k (u[0] the last in the row)
            T w[PULL_ARCS], du[PULL_ARCS];
#pragma unroll
            for (int k = 0; k < PULL_ARCS; ++k) {  // read once: keep dist in L2 instead
                u[k] = e - k >= begin ? __ldcs(in_tails + e - k) : -1;
                if (u[k] >= 0) w[k] = __ldcs(in_weights + e - k);
            }
#pragma unroll
            for (int k = 0; k < PULL_ARCS; ++k) du[k] = u[k] >= 0 ? dist[u[k]] : inf;
            int tail = -1;
#pragma unroll
            for (int k = PULL_ARCS - 1; k >= 0; --k)
                if (u[k] >= 0 && du[k] != inf && du[k] < dv && du[k] + w[k] == dv) tail = u[k];
            if (tail >= 0) {
                pred[v] = tail;
                break;
            }
        }
    }
}

template <typename T>
__global__ void tree_unclaimed(const T* __restrict__ dist, const int* __restrict__ pred,
                               int n, int* count) {
    for (long long base = global_thread_id() & ~31LL; base < n; base += grid_stride()) {
        const long long v = base + (threadIdx.x & 31);
        const bool left = v < n && pred[v] == UNCLAIMED && dist[v] != DistTraits<T>::inf();
        const unsigned hits = __ballot_sync(0xffffffffu, left);
        if ((threadIdx.x & 31) == 0 && hits) atomicAdd(count, __popc(hits));
    }
}

__global__ void tree_finish(int* pred, int n, const int* count, int sources) {
    if (*count != sources) return;
    for (long long v = global_thread_id(); v < n; v += grid_stride())
        if (pred[v] == UNCLAIMED) pred[v] = -1;
}

// a claim of this level's search (below UNCLAIMED; the host keeps n + 1 of them in int32)
#define BFS_CLAIM(u) (UNCLAIMED - 1 - (u))

template <typename T>
__global__ void tight_arc_bfs_claim(const long long* __restrict__ indptr,
                                    const int* __restrict__ indices,
                                    const T* __restrict__ weights, const T* __restrict__ dist,
                                    const int* __restrict__ frontier, int size, int* pred) {
    for_frontier_rows(frontier, size, [&](long long, int u) {
        const T du = dist[u];
        for_row_arcs(indptr, u, [&](long long e) {
            const int v = indices[e];
            if (pred[v] > UNCLAIMED || du + weights[e] != dist[v]) return;
            atomicMin(&pred[v], BFS_CLAIM(u));
        });
    });
}

__global__ void tight_arc_bfs_settle(const long long* __restrict__ indptr,
                                     const int* __restrict__ indices,
                                     const int* __restrict__ frontier, int size, int* pred,
                                     int* next_frontier, int* next_size) {
    for_frontier_rows(frontier, size, [&](long long, int u) {
        for_row_arcs(indptr, u, [&](long long e) {
            const int v = indices[e];
            if (pred[v] == BFS_CLAIM(u) && atomicCAS(&pred[v], BFS_CLAIM(u), u) == BFS_CLAIM(u))
                next_frontier[append_slot(next_size)] = v;
        });
    });
}

// ---- the transpose CSR that tight_in_arc_parents reads (DeviceCSR.in_arcs) ----------

__global__ void in_degree_count(const int* __restrict__ indices, long long m, int* counts) {
    for (long long e = global_thread_id(); e < m; e += grid_stride())
        atomicAdd(&counts[indices[e]], 1);
}

__global__ void in_degree_max(const int* __restrict__ counts, int n, int* most) {
    int best = 0;
    for (long long v = global_thread_id(); v < n; v += grid_stride()) best = max(best, counts[v]);
    for (int off = 16; off > 0; off >>= 1)
        best = max(best, __shfl_down_sync(0xffffffffu, best, off));
    if ((threadIdx.x & 31) == 0 && best) atomicMax(most, best);
}

__global__ void __launch_bounds__(TREE_THREADS)
arc_tails(const long long* __restrict__ indptr, const int* __restrict__ tile_row, long long m,
          int* tails) {
    __shared__ __align__(16) int row_at[TREE_TILE];
    __shared__ int warp_max[TREE_THREADS / 32];
    for_arc_tiles(indptr, tile_row, m, row_at, warp_max, [&](long long first, long long last,
                                                             long long lo) {
        for (int i = threadIdx.x; first + i <= last; i += TREE_THREADS)
            tails[first + i] = static_cast<int>(lo + row_at[i]);
    });
}

template <typename T>
__global__ void transpose_arcs(const int* __restrict__ indices, const int* __restrict__ order,
                               const int* __restrict__ tails, const T* __restrict__ weights,
                               long long m, int n, long long* in_ptr, int* in_tails,
                               T* in_weights) {
    for (long long i = global_thread_id(); i < m || i <= n; i += grid_stride()) {
        if (i < m) {
            const int e = order[i];
            in_tails[i] = tails[e];
            in_weights[i] = weights[e];
        }
        if (i <= n) {  // the arcs whose head is below i: a search of the heads in order
            in_ptr[i] = partition_point(m, [=](long long k) { return indices[order[k]] < i; });
        }
    }
}

// ---- the tight-arc DAG (solvers/sssp/tight_arcs.py) ----------------------------------

template <typename T>
__global__ void tight_arc_keys(const int* __restrict__ tails, const int* __restrict__ indices,
                               const T* __restrict__ weights, const T* __restrict__ dist,
                               long long m, T* keys) {
    const T inf = DistTraits<T>::inf();
    for (long long e = global_thread_id(); e < m; e += grid_stride()) {
        const T du = dist[tails[e]], dv = dist[indices[e]];
        // du + w wraps for an integer "unreached" tail: the first test masks it
        keys[e] = du != inf && dv != inf && du + weights[e] == dv ? du : inf;
    }
}

__global__ void gather_index(const int* __restrict__ src, const int* __restrict__ idx,
                             long long size, int* out) {
    for (long long j = global_thread_id(); j < size; j += grid_stride()) out[j] = src[idx[j]];
}
