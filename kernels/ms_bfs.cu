// Multi-source BFS with a bit per source (the "batched-bfs" all-pairs method,
// nx_gpusp/solvers/apsp/batched_bfs.py): Then, Kaufmann, Chirigati, Hoang-Vu, Pham,
// Kemper, Neumann & Vo, "The More the Merrier: Efficient Multi-Source Graph Traversal"
// (VLDB 2015), on the GPU, with Beamer et al.'s top-down / bottom-up choice per level.
//
// A batch of B sources keeps `words` = ceil(B / 64) machine words per vertex; entry
// i = v * words + k holds sources 64k .. 64k + 63 (bit b: source 64k + b). Three bitsets
// of n * words entries: seen (sources that reached v), frontier (sources whose search
// has v at the current level L), next (sources reaching v at level L + 1).
//  * ms_bfs_top_down: one thread per entry (u, k) with frontier bits (a warp together
//    for a vertex of 32 arcs or more): for each arc (u, v), atomicOr of
//    frontier & ~seen[v, k] into next[v, k]; the bits this atomicOr set (absent from the
//    returned old word) are the thread's alone: it records their distance and parent.
//  * ms_bfs_bottom_up: one thread per entry (v, k) whose sources are not all seen (a
//    warp together, 32 in-arcs a step, for a vertex of 32 in-arcs or more): the OR of
//    frontier[u, k] over in-arcs (u, v), masked to the missing sources, stopping when
//    every missing source is found. The entry is its thread's (warp's) alone; in the warp
//    each new bit of a step belongs to the lowest lane that found it (an exclusive
//    prefix OR across lanes), so every (source, vertex) is recorded once.
//  * ms_bfs_advance: seen |= next, frontier = next, next = 0, and the level's counts for
//    the host: counts[0] entries with frontier bits, counts[1] their out-arcs (top-down
//    work), counts[2] the in-arcs of entries with unseen sources (bottom-up work).
// Recording a source's level: dist[(64k + b) * n + v] = L + 1 (int64, B x n row-major
// by source, the SourceBatch layout) and pred[same] = the tail (int32) when track_pred.
// Launch: 1-D grid-stride over the n * words entries, 256 threads a block.
// Arguments: CSR indptr[n+1] int64, indices[m] int32 (reverse CSR for bottom-up);
// last_mask: the valid bits of word words - 1 (all ones when B is a multiple of 64).
#include "arc_visitors.cuh"

#define MS_FULL_MASK 0xffffffffu
#define ALL_SOURCES 0xffffffffffffffffULL

__device__ __forceinline__ unsigned long long ms_full(int k, int words,
                                                      unsigned long long last_mask) {
    return k == words - 1 ? last_mask : ALL_SOURCES;
}

// dist / pred of every source in `bits` at vertex v, reached from u at `next_level`.
__device__ __forceinline__ void ms_record(unsigned long long bits, int k, int v, int u,
                                          long long n, long long next_level, long long* dist,
                                          int* pred, int track_pred) {
    while (bits) {
        const int b = __ffsll(static_cast<long long>(bits)) - 1;
        bits &= bits - 1;
        const long long at = (64LL * k + b) * n + v;
        dist[at] = next_level;
        if (track_pred) pred[at] = u;
    }
}

__device__ __forceinline__ unsigned long long ms_warp_or(unsigned long long x) {
#pragma unroll
    for (int offset = 16; offset; offset >>= 1) x |= __shfl_xor_sync(MS_FULL_MASK, x, offset);
    return x;
}

// OR of x over the lanes below the calling lane.
__device__ __forceinline__ unsigned long long ms_lanes_below_or(unsigned long long x) {
    const int lane = threadIdx.x & 31;
    unsigned long long inclusive = x;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const unsigned long long y = __shfl_up_sync(MS_FULL_MASK, inclusive, offset);
        if (lane >= offset) inclusive |= y;
    }
    const unsigned long long below = __shfl_up_sync(MS_FULL_MASK, inclusive, 1);
    return lane == 0 ? 0ULL : below;
}

// Bits of word k at vertex v, as a warp broadcasts its leader's entry (top-down: the
// frontier bits of (u, k); bottom-up: the sources (v, k) still misses).
struct WordBits {
    unsigned long long bits;
    int k, v;
};

__device__ __forceinline__ unsigned long long ms_warp_sum(unsigned long long x) {
#pragma unroll
    for (int offset = 16; offset; offset >>= 1) x += __shfl_down_sync(MS_FULL_MASK, x, offset);
    return x;
}

__global__ void ms_bfs_top_down(const long long* __restrict__ indptr,
                                const int* __restrict__ indices, int n, int words,
                                const unsigned long long* __restrict__ frontier,
                                const unsigned long long* __restrict__ seen,
                                unsigned long long* next, long long* dist, int* pred,
                                int track_pred, int level) {
    const long long total = static_cast<long long>(n) * words;
    const long long next_level = level + 1;
    const int lane = threadIdx.x & 31;
    auto push = [&](unsigned long long f, int k, int u, int v) {
        const long long j = static_cast<long long>(v) * words + k;
        const unsigned long long bits = f & ~seen[j];
        if (!bits) return;
        const unsigned long long old = atomicOr(&next[j], bits);
        ms_record(bits & ~old, k, v, u, n, next_level, dist, pred, track_pred);
    };
    for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < total;
         base += grid_stride()) {  // the same count in every lane of a warp
        const long long i = base + threadIdx.x;
        unsigned long long f = 0;
        int u = 0, k = 0;
        long long start = 0, end = 0;
        if (i < total) {
            f = frontier[i];
            if (f) {
                u = static_cast<int>(i / words);
                k = static_cast<int>(i % words);
                start = indptr[u];
                end = indptr[u + 1];
            }
        }
        for_long_rows_by_warp(
            start, end,
            [&](int leader) {
                const unsigned long long wf = __shfl_sync(MS_FULL_MASK, f, leader);
                const int wk = __shfl_sync(MS_FULL_MASK, k, leader);
                return WordBits{wf, wk, __shfl_sync(MS_FULL_MASK, u, leader)};
            },
            [&](const WordBits& w, long long ws, long long we) {
                for_arcs(ws + lane, we, 32, [&](long long e) { push(w.bits, w.k, w.v, indices[e]); });
            });
        for_arcs(start, end, 1, [&](long long e) { push(f, k, u, indices[e]); });
    }
}

__global__ void ms_bfs_bottom_up(const long long* __restrict__ rindptr,
                                 const int* __restrict__ rindices, int n, int words,
                                 unsigned long long last_mask,
                                 const unsigned long long* __restrict__ frontier,
                                 const unsigned long long* __restrict__ seen,
                                 unsigned long long* next, long long* dist, int* pred,
                                 int track_pred, int level) {
    const long long total = static_cast<long long>(n) * words;
    const long long next_level = level + 1;
    const int lane = threadIdx.x & 31;
    for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < total;
         base += grid_stride()) {  // the same count in every lane of a warp
        const long long i = base + threadIdx.x;
        unsigned long long need = 0, got = 0;
        int v = 0, k = 0;
        long long start = 0, end = 0;
        if (i < total) {
            v = static_cast<int>(i / words);
            k = static_cast<int>(i % words);
            need = ms_full(k, words, last_mask) & ~seen[i];
            if (need) {
                start = rindptr[v];
                end = rindptr[v + 1];
            }
        }
        unsigned long long wgot;  // the missing sources found for the warp's row
        for_long_rows_by_warp(
            start, end,
            [&](int leader) {
                const unsigned long long wneed = __shfl_sync(MS_FULL_MASK, need, leader);
                const int wv = __shfl_sync(MS_FULL_MASK, v, leader);
                return WordBits{wneed, __shfl_sync(MS_FULL_MASK, k, leader), wv};
            },
            [&](const WordBits& w, long long ws, long long we) {
                wgot = 0;
                for (long long step = ws; step < we; step += 32) {  // warp-uniform bounds
                    const long long e = step + lane;
                    unsigned long long bits = 0;
                    int u = -1;
                    if (e < we) {
                        u = rindices[e];
                        bits = frontier[static_cast<long long>(u) * words + w.k] & w.bits & ~wgot;
                    }
                    const unsigned long long mine = bits & ~ms_lanes_below_or(bits);
                    if (mine) ms_record(mine, w.k, w.v, u, n, next_level, dist, pred, track_pred);
                    wgot |= ms_warp_or(bits);
                    if (wgot == w.bits) break;
                }
            },
            [&](const WordBits&) { got = wgot; });
        for (long long e = start; e < end && got != need; ++e) {
            const int u = rindices[e];
            const unsigned long long bits =
                frontier[static_cast<long long>(u) * words + k] & need & ~got;
            if (bits) {
                got |= bits;
                ms_record(bits, k, v, u, n, next_level, dist, pred, track_pred);
            }
        }
        if (got) next[i] = got;
    }
}

__global__ void ms_bfs_advance(const long long* __restrict__ indptr,
                               const long long* __restrict__ in_degree, int n, int words,
                               unsigned long long last_mask, unsigned long long* frontier,
                               unsigned long long* seen, unsigned long long* next,
                               unsigned long long* counts) {
    __shared__ unsigned long long s_counts[3];
    if (threadIdx.x < 3) s_counts[threadIdx.x] = 0;
    __syncthreads();
    const long long total = static_cast<long long>(n) * words;
    unsigned long long entries = 0, arcs = 0, unexplored = 0;
    for (long long i = global_thread_id(); i < total; i += grid_stride()) {
        const unsigned long long x = next[i];
        const unsigned long long s = seen[i] | x;
        const int v = static_cast<int>(i / words);
        const int k = static_cast<int>(i % words);
        frontier[i] = x;
        if (x) {
            seen[i] = s;
            next[i] = 0;
            ++entries;
            arcs += indptr[v + 1] - indptr[v];
        }
        if (s != ms_full(k, words, last_mask)) unexplored += in_degree[v];
    }
    entries = ms_warp_sum(entries);
    arcs = ms_warp_sum(arcs);
    unexplored = ms_warp_sum(unexplored);
    if ((threadIdx.x & 31) == 0) {
        if (entries) atomicAdd(&s_counts[0], entries);
        if (arcs) atomicAdd(&s_counts[1], arcs);
        if (unexplored) atomicAdd(&s_counts[2], unexplored);
    }
    __syncthreads();
    if (threadIdx.x < 3 && s_counts[threadIdx.x]) {
        atomicAdd(&counts[threadIdx.x], s_counts[threadIdx.x]);
    }
}
