// Arc visitors: the CSR row loops that the frontier-style kernels share, so that a kernel
// says what it does with an arc, not how it walks the rows (advance operators, in the
// sense of gunrock's graph primitives). How a row's arcs map to threads:
//
//   for_arcs(begin, end, step, visit)       visit(e) for e = begin, begin + step, ... < end
//                                           (step 1: one thread; 32: the lanes of a warp;
//                                           blockDim.x: the threads of a block)
//   for_row_arcs(indptr, u, visit)          one thread walks row u in CSR order
//   for_row_arcs_by_lane(indptr, u, visit)  the 32 lanes of a warp stride over row u
//   for_frontier_rows(frontier, size, visit)
//                                           grid-stride over frontier entries: visit(i, u)
//   for_frontier_arcs(...)                  ... and one thread walks each entry's row:
//                                           visit(u, v, snapshot + w) per arc (u, v)
//   for_batch_frontier_arcs(...)            the same over the entries row * n + u of a
//                                           batch of rows, the heads a row keeps only
//   for_long_rows_by_warp(start, end, ...)  thread/warp mapping (Merrill, Garland &
//                                           Grimshaw, PPoPP 2012): each lane holds a row;
//                                           rows of 32 arcs or more are expanded by the
//                                           whole warp, one after another
//
// CSR: indptr[n+1] int64 row offsets, indices[m] int32 heads, weights[m] T. Everything
// here is inlined, so a visitor costs nothing over the loop written out.
#pragma once
#include "common.cuh"

template <typename Visit>
__device__ __forceinline__ void for_arcs(long long begin, long long end, long long step,
                                         Visit visit) {
    for (long long e = begin; e < end; e += step) visit(e);
}

// V: the vertex's index type (int, or long long in a grid-stride loop over vertices).
template <typename V, typename Visit>
__device__ __forceinline__ void for_row_arcs(const long long* __restrict__ indptr, V u,
                                             Visit visit) {
    const long long end = indptr[u + 1];
    for_arcs(indptr[u], end, 1, visit);
}

template <typename V, typename Visit>
__device__ __forceinline__ void for_row_arcs_by_lane(const long long* __restrict__ indptr,
                                                     V u, Visit visit) {
    const long long end = indptr[u + 1];
    for_arcs(indptr[u] + (threadIdx.x & 31), end, 32, visit);
}

template <typename I, typename Visit>
__device__ __forceinline__ void for_frontier_rows(const int* __restrict__ frontier, I size,
                                                  Visit visit) {
    for (long long i = global_thread_id(); i < size; i += grid_stride()) visit(i, frontier[i]);
}

// visit(u, v, cand) for every arc (u, v) leaving the frontier entries, cand = the entry's
// snapshot distance (frontier_dist) plus the arc weight.
template <typename T, typename Visit>
__device__ __forceinline__ void for_frontier_arcs(const long long* __restrict__ indptr,
                                                  const int* __restrict__ indices,
                                                  const T* __restrict__ weights,
                                                  const int* __restrict__ frontier,
                                                  const T* __restrict__ frontier_dist,
                                                  int frontier_size, Visit visit) {
    for_frontier_rows(frontier, frontier_size, [&](long long i, int u) {
        const T du = frontier_dist[i];
        for_row_arcs(indptr, u, [&](long long e) { visit(u, indices[e], du + weights[e]); });
    });
}

// Batched frontiers (entry ids row * n + u, rows of n entries): visit(row, u, entry of v,
// cand) for every arc (u, v) leaving the frontier entries whose head keep(row, v)
// accepts, cand = the entry's snapshot distance plus the arc weight; v's entry is in
// the same row.
template <typename T, typename Keep, typename Visit>
__device__ __forceinline__ void for_batch_frontier_arcs(const long long* __restrict__ indptr,
                                                        const int* __restrict__ indices,
                                                        const T* __restrict__ weights, int n,
                                                        const long long* __restrict__ frontier,
                                                        const T* __restrict__ frontier_dist,
                                                        long long size, Keep keep,
                                                        Visit visit) {
    for (long long i = global_thread_id(); i < size; i += grid_stride()) {
        const long long id = frontier[i];
        const long long row = id / n;
        const long long base = row * n;
        const int u = static_cast<int>(id - base);
        const T du = frontier_dist[i];
        for_row_arcs(indptr, u, [&](long long e) {
            const int v = indices[e];
            if (keep(row, v)) visit(row, u, base + v, du + weights[e]);
        });
    }
}

// Rows of at least 32 arcs, expanded by the whole warp: each lane holds its row's arc
// range [start, end) (empty: none). While some lane's row has 32 arcs or more, the row
// of the lowest such lane (the leader) is expanded by all lanes: row = broadcast(leader)
// first (what the lanes need of the leader's row, copied with __shfl_sync), then
// expand(row, ws, we) in every lane with the leader's range, then done(row) in the
// leader, whose row is then empty (start = end). The short rows are left to their
// lanes. All 32 lanes must call it.
template <typename Broadcast, typename Expand, typename Done>
__device__ __forceinline__ void for_long_rows_by_warp(long long& start, long long end,
                                                      Broadcast broadcast, Expand expand,
                                                      Done done) {
    const int lane = threadIdx.x & 31;
    unsigned wide;
    while ((wide = __ballot_sync(0xffffffffu, end - start >= 32))) {
        const int leader = __ffs(wide) - 1;
        const auto row = broadcast(leader);
        const long long ws = __shfl_sync(0xffffffffu, start, leader);
        const long long we = __shfl_sync(0xffffffffu, end, leader);
        expand(row, ws, we);
        if (lane == leader) {
            done(row);
            start = end;
        }
    }
}

template <typename Broadcast, typename Expand>
__device__ __forceinline__ void for_long_rows_by_warp(long long& start, long long end,
                                                      Broadcast broadcast, Expand expand) {
    for_long_rows_by_warp(start, end, broadcast, expand, [](const auto&) {});
}
