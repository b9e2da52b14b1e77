// Breadth-first search (shortest paths in hops, NetworkX's unweighted functions): the
// kernels of the "top-down" and "direction-optimizing" bfs methods
// (nx_gpusp/solvers/sssp/bfs.py).
//
// Level-synchronous BFS. levels[v] = hops from the nearest source (BFS_UNSEEN: not
// reached yet); parent[v] = the vertex v was discovered from (written only when
// track_parent; -1 at sources and unreached vertices, set by the host). A level expands
// the frontier (the vertices at level L) and discovers the vertices at level L + 1:
//  * top-down, a frontier queue: for each arc (u, v) leaving the frontier, an unseen v
//    is claimed by atomicCAS of levels[v] from BFS_UNSEEN to L + 1; the one claimer
//    writes parent[v] and appends v to the next queue, so each vertex is queued once.
//    Arcs are gathered as in Merrill, Garland & Grimshaw, "Scalable GPU Graph
//    Traversal" (PPoPP 2012): a vertex with fewer than 32 arcs by its own thread
//    (BFS_ARC_BATCH arcs a step, their level reads and atomics issued together), a
//    larger one by its whole warp (ballot loop), and one with at least a block's worth
//    by whole blocks: in bfs_block_levels its block (block tier), in grid levels
//    chunks of BFS_CHUNK arcs that bfs_top_down queues and bfs_top_down_chunks spreads
//    over the grid.
//  * bottom-up (Beamer, Asanovic & Patterson, "Direction-Optimizing Breadth-First
//    Search", SC 2012): every unseen vertex scans its in-arcs (the reverse CSR) for a
//    tail at level L and stops at the first it finds. A vertex belongs to one thread
//    (BFS_ARC_BATCH in-arcs a step) or, with 32 in-arcs or more, to its warp (32 a
//    step, the first hit of the step's ballot), so levels[v] and parent[v] are plain
//    stores; other threads read levels[v] meanwhile and see BFS_UNSEEN or L + 1, never L.
//
// Launch shapes:
//  * bfs_block_levels: ONE block of BFS_BLOCK threads runs level after level while the
//    frontier's vertices and out-arcs stay within arc_limit (road-like graphs:
//    hundreds of levels of a few thousand vertices without a host round trip). A level
//    needs one barrier of its own (plus the block tier's vote per BFS_BLOCK frontier
//    vertices): its counters rotate through three shared slots, and the slot a level
//    will use two levels on is cleared before the barrier (everyone read it a level
//    ago).
//  * bfs_top_down (one thread per queue entry) + bfs_top_down_chunks (grid over the
//    queued chunks): one top-down level over the grid.
//  * bfs_bottom_up (one thread per vertex): one bottom-up level over the grid.
// Grid kernels sum their counts per warp (shuffles), per block (shared atomics), then
// one global atomic per block.
//
// status (unsigned long long[BFS_STATUS], zeroed by the host before a grid level):
//  [S_SIZE] vertices discovered (the next queue's length, the append counter),
//  [S_ARCS] their out-arcs (the next level's top-down work, Beamer's m_f),
//  [S_SEEN_IN] their in-arcs (the host keeps the unexplored in-arcs, Beamer's m_u),
//  [S_FOUND] 1 once `target` (-1: none) is discovered,
//  [S_CHUNKS] chunks queued by bfs_top_down for bfs_top_down_chunks,
//  and, written by bfs_block_levels, [S_LEVEL] the level of the frontier it leaves and
//  [S_PARITY] 1 when that frontier is in queue_b.
// Arguments: CSR indptr[n+1] int64, indices[m] int32 (the reverse CSR rindptr/rindices
// for bottom-up, whose out-arcs still come from indptr); in_degree[n] int64; levels[n]
// and parent[n] int32; queues int32[n]; chunks int64 (vertex << 32 | chunk number).
#include "arc_visitors.cuh"

#define BFS_UNSEEN 0x7fffffff
#define BFS_FULL_MASK 0xffffffffu
#define BFS_BLOCK 1024   // threads of bfs_block_levels
#define BFS_CHUNK 1024   // arcs of a grid chunk; a grid level's vertex with more is chunked
#define BFS_ARC_BATCH 4  // arcs a thread expands (or scans bottom-up) with loads in flight together

enum { S_SIZE = 0, S_ARCS, S_SEEN_IN, S_FOUND, S_CHUNKS, S_LEVEL, S_PARITY, BFS_STATUS };

__device__ __forceinline__ unsigned long long bfs_warp_sum(unsigned long long x) {
#pragma unroll
    for (int offset = 16; offset; offset >>= 1) x += __shfl_down_sync(BFS_FULL_MASK, x, offset);
    return x;
}

// What a level does with a vertex it discovers; C: the append counter's type (shared
// unsigned int in bfs_block_levels, the global status word in grid levels).
template <typename C>
struct Discovery {
    const long long* indptr;
    const long long* in_degree;
    int* levels;
    int* parent;
    int track_parent;
    int* next_queue;
    C* next_size;
    int next_level;
    int target;
    unsigned long long arcs;
    unsigned long long seen_in;
    int found;

    // Top-down: v (reached from u) joins the next level if this thread claims it.
    __device__ __forceinline__ void claim(int u, int v) {
        if (levels[v] != BFS_UNSEEN) return;  // most arcs: seen already, no atomic
        if (atomicCAS(&levels[v], BFS_UNSEEN, next_level) != BFS_UNSEEN) return;
        settle(u, v);
    }

    // claim for up to BFS_ARC_BATCH heads of u at once (v < 0: none): their level reads,
    // then their atomicCAS operations, are issued together, so a thread's arcs cost one
    // dependent chain instead of one each.
    __device__ __forceinline__ void claim_batch(int u, const int (&v)[BFS_ARC_BATCH]) {
        int seen[BFS_ARC_BATCH];
#pragma unroll
        for (int j = 0; j < BFS_ARC_BATCH; ++j) seen[j] = v[j] >= 0 ? levels[v[j]] : 0;
        int won[BFS_ARC_BATCH];
#pragma unroll
        for (int j = 0; j < BFS_ARC_BATCH; ++j) {
            won[j] = v[j] >= 0 && seen[j] == BFS_UNSEEN &&
                     atomicCAS(&levels[v[j]], BFS_UNSEEN, next_level) == BFS_UNSEEN;
        }
#pragma unroll
        for (int j = 0; j < BFS_ARC_BATCH; ++j) {
            if (won[j]) settle(u, v[j]);
        }
    }

    // v, given its level by this thread, enters the next frontier with parent u.
    __device__ __forceinline__ void settle(int u, int v) {
        if (track_parent) parent[v] = u;
        next_queue[append_slot(next_size)] = v;
        arcs += indptr[v + 1] - indptr[v];
        seen_in += in_degree[v];
        found |= v == target;
    }
};

// Warp and thread tiers: each lane holds one vertex u's arc range [start, end) (empty:
// none). Ranges of 32 arcs or more are expanded by the whole warp, one after another,
// then every lane expands what is left of its own. All 32 lanes must call it.
template <typename C>
__device__ __forceinline__ void gather_warp_and_thread(const int* __restrict__ indices, int u,
                                                       long long start, long long end,
                                                       Discovery<C>& d) {
    const int lane = threadIdx.x & 31;
    for_long_rows_by_warp(
        start, end, [&](int leader) { return __shfl_sync(BFS_FULL_MASK, u, leader); },
        [&](int wu, long long ws, long long we) {
            for_arcs(ws + lane, we, 32, [&](long long e) { d.claim(wu, indices[e]); });
        });
    for (long long e = start; e < end; e += BFS_ARC_BATCH) {
        int v[BFS_ARC_BATCH];
#pragma unroll
        for (int j = 0; j < BFS_ARC_BATCH; ++j) v[j] = e + j < end ? indices[e + j] : -1;
        d.claim_batch(u, v);
    }
}

// Block tier (bfs_block_levels): ranges of at least blockDim.x arcs are expanded by the
// whole block, one after another. Each warp names its lowest such lane in s_lead (one
// writer a slot); the block takes the first named. All threads of the block must call it.
template <typename C>
__device__ __forceinline__ void gather_block(const int* __restrict__ indices, int u,
                                             long long& start, long long& end,
                                             Discovery<C>& d) {
    __shared__ int s_lead[BFS_BLOCK / 32];
    __shared__ int s_u;
    __shared__ long long s_start, s_end;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    while (__syncthreads_or(end - start >= blockDim.x)) {
        const unsigned big = __ballot_sync(BFS_FULL_MASK, end - start >= blockDim.x);
        if (lane == 0) s_lead[warp] = big ? warp * 32 + __ffs(big) - 1 : -1;
        __syncthreads();
        int owner = -1;
        for (int w = 0; w < warps && owner < 0; ++w) owner = s_lead[w];
        if (threadIdx.x == owner) {
            s_u = u;
            s_start = start;
            s_end = end;
            start = end;
        }
        __syncthreads();
        const int bu = s_u;
        const long long bs = s_start, be = s_end;
        for (long long e = bs + threadIdx.x; e < be; e += blockDim.x) d.claim(bu, indices[e]);
    }
}

// Adds every thread's counts of a grid level into status (all threads of the block).
template <typename C>
__device__ __forceinline__ void flush_counts(const Discovery<C>& d, unsigned long long* status) {
    __shared__ unsigned long long s_arcs, s_seen_in;
    __shared__ int s_found;
    if (threadIdx.x == 0) {
        s_arcs = 0;
        s_seen_in = 0;
        s_found = 0;
    }
    __syncthreads();
    const unsigned long long arcs = bfs_warp_sum(d.arcs), seen_in = bfs_warp_sum(d.seen_in);
    const bool found = __any_sync(BFS_FULL_MASK, d.found);
    if ((threadIdx.x & 31) == 0) {
        if (arcs) atomicAdd(&s_arcs, arcs);
        if (seen_in) atomicAdd(&s_seen_in, seen_in);
        if (found) atomicOr(&s_found, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        if (s_arcs) atomicAdd(&status[S_ARCS], s_arcs);
        if (s_seen_in) atomicAdd(&status[S_SEEN_IN], s_seen_in);
        if (s_found) atomicOr(&status[S_FOUND], 1ULL);
    }
}

// Top-down levels from `level` in one block while the frontier is non-empty, the target
// is not found, level < stop_level and the new frontier's vertices and out-arcs are each
// <= arc_limit.
// The frontier (size vertices) starts in queue_a; the queues alternate level by level.
__global__ void __launch_bounds__(BFS_BLOCK, 1)
bfs_block_levels(const long long* __restrict__ indptr, const int* __restrict__ indices,
                 const long long* __restrict__ in_degree, int* levels, int* parent,
                 int track_parent, int* queue_a, int* queue_b, int size, int level,
                 int stop_level, long long arc_limit, int target,
                 unsigned long long* status) {
    __shared__ unsigned int s_size[3];
    __shared__ unsigned long long s_arcs[3];
    __shared__ int s_found[3];
    __shared__ unsigned long long s_seen_in;
    if (threadIdx.x == 0) {
        for (int k = 0; k < 3; ++k) {
            s_size[k] = 0;
            s_arcs[k] = 0;
            s_found[k] = 0;
        }
        s_seen_in = 0;
    }
    __syncthreads();
    const int lane = threadIdx.x & 31;
    int* cur = queue_a;
    int* nxt = queue_b;
    int parity = 0, slot = 0;
    unsigned long long arcs = 0;
    for (;;) {
        Discovery<unsigned int> d{indptr, in_degree, levels, parent, track_parent, nxt,
                                  &s_size[slot], level + 1, target, 0, 0, 0};
        for (int base = 0; base < size; base += blockDim.x) {  // same count in every thread
            const int i = base + threadIdx.x;
            int u = -1;
            long long start = 0, end = 0;
            if (i < size) {
                u = cur[i];  // written by this block a level ago: visible after the barrier
                start = indptr[u];
                end = indptr[u + 1];
            }
            gather_block(indices, u, start, end, d);
            gather_warp_and_thread(indices, u, start, end, d);
        }
        const unsigned long long a = bfs_warp_sum(d.arcs), b = bfs_warp_sum(d.seen_in);
        const bool f = __any_sync(BFS_FULL_MASK, d.found);
        if (lane == 0) {
            if (a) atomicAdd(&s_arcs[slot], a);
            if (b) atomicAdd(&s_seen_in, b);
            if (f) atomicOr(&s_found[slot], 1);
        }
        const int later = slot == 2 ? 0 : slot + 1;  // used by the level after next
        if (threadIdx.x == 0) {
            s_size[later] = 0;
            s_arcs[later] = 0;
            s_found[later] = 0;
        }
        __syncthreads();
        size = static_cast<int>(s_size[slot]);
        arcs = s_arcs[slot];
        const int found = s_found[slot];
        ++level;
        parity ^= 1;
        int* t = cur;
        cur = nxt;
        nxt = t;
        slot = later;
        if (size == 0 || found || level >= stop_level ||
            arcs > static_cast<unsigned long long>(arc_limit) || size > arc_limit) {
            if (threadIdx.x == 0) {
                status[S_SIZE] = static_cast<unsigned long long>(size);
                status[S_ARCS] = arcs;
                status[S_SEEN_IN] = s_seen_in;
                status[S_FOUND] = static_cast<unsigned long long>(found);
                status[S_LEVEL] = static_cast<unsigned long long>(level);
                status[S_PARITY] = static_cast<unsigned long long>(parity);
            }
            return;
        }
    }
}

// One top-down level over the grid: queue[size] holds the frontier (level `level`).
__global__ void bfs_top_down(const long long* __restrict__ indptr,
                             const int* __restrict__ indices,
                             const long long* __restrict__ in_degree, int* levels, int* parent,
                             int track_parent, const int* __restrict__ queue, int size,
                             int level, int* next_queue, int target,
                             unsigned long long* status, long long* chunks) {
    Discovery<unsigned long long> d{indptr, in_degree, levels, parent, track_parent,
                                    next_queue, &status[S_SIZE], level + 1, target, 0, 0, 0};
    for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < size;
         base += grid_stride()) {  // the same count in every lane of a warp
        const long long i = base + threadIdx.x;
        int u = -1;
        long long start = 0, end = 0;
        if (i < size) {
            u = queue[i];
            start = indptr[u];
            end = indptr[u + 1];
            if (end - start >= BFS_CHUNK) {  // spread over the grid by bfs_top_down_chunks
                const long long count = (end - start + BFS_CHUNK - 1) / BFS_CHUNK;
                const unsigned long long first =
                    atomicAdd(&status[S_CHUNKS], static_cast<unsigned long long>(count));
                for (long long j = 0; j < count; ++j) {
                    chunks[first + j] = (static_cast<long long>(u) << 32) | j;
                }
                start = end;
            }
        }
        gather_warp_and_thread(indices, u, start, end, d);
    }
    flush_counts(d, status);
}

// The chunks bfs_top_down queued (status[S_CHUNKS], written by that launch): one block a
// chunk, its threads over the chunk's arcs.
__global__ void bfs_top_down_chunks(const long long* __restrict__ indptr,
                                    const int* __restrict__ indices,
                                    const long long* __restrict__ in_degree, int* levels,
                                    int* parent, int track_parent, int level,
                                    int* next_queue, int target, unsigned long long* status,
                                    const long long* __restrict__ chunks) {
    Discovery<unsigned long long> d{indptr, in_degree, levels, parent, track_parent,
                                    next_queue, &status[S_SIZE], level + 1, target, 0, 0, 0};
    const unsigned long long count = status[S_CHUNKS];
    for (unsigned long long c = blockIdx.x; c < count; c += gridDim.x) {
        const long long packed = chunks[c];
        const int u = static_cast<int>(packed >> 32);
        const long long first = indptr[u] + (packed & 0xffffffffLL) * BFS_CHUNK;
        const long long last = min(first + BFS_CHUNK, indptr[u + 1]);
        for (long long e = first + threadIdx.x; e < last; e += blockDim.x) {
            d.claim(u, indices[e]);
        }
    }
    flush_counts(d, status);
}

// One bottom-up level over the grid: every vertex still unseen looks for an in-neighbour
// at `level`; out-arcs (for status) come from indptr, in-arcs from rindptr/rindices.
__global__ void bfs_bottom_up(const long long* __restrict__ rindptr,
                              const int* __restrict__ rindices,
                              const long long* __restrict__ indptr,
                              const long long* __restrict__ in_degree, int* levels,
                              int* parent, int track_parent, int n, int level,
                              int* next_queue, int target, unsigned long long* status) {
    Discovery<unsigned long long> d{indptr, in_degree, levels, parent, track_parent,
                                    next_queue, &status[S_SIZE], level + 1, target, 0, 0, 0};
    const int lane = threadIdx.x & 31;
    for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < n;
         base += grid_stride()) {  // the same count in every lane of a warp
        const int v = static_cast<int>(base + threadIdx.x);
        long long start = 0, end = 0;
        if (base + threadIdx.x < n && levels[v] == BFS_UNSEEN) {
            start = rindptr[v];
            end = rindptr[v + 1];
        }
        int wtail;  // the first in-neighbour at `level` of the warp's row (-1: none)
        for_long_rows_by_warp(
            start, end, [](int) { return 0; },
            [&](int, long long ws, long long we) {
                wtail = -1;
                for (long long step = ws; step < we; step += 32) {  // warp-uniform bounds
                    const long long e = step + lane;
                    const int u = e < we ? rindices[e] : -1;
                    const unsigned hit = __ballot_sync(BFS_FULL_MASK, u >= 0 && levels[u] == level);
                    if (hit) {
                        wtail = __shfl_sync(BFS_FULL_MASK, u, __ffs(hit) - 1);
                        break;
                    }
                }
            },
            [&](int) {
                if (wtail >= 0) {
                    levels[v] = level + 1;
                    d.settle(wtail, v);
                }
            });
        int tail = -1;
        for (long long e = start; e < end && tail < 0; e += BFS_ARC_BATCH) {
            int u[BFS_ARC_BATCH], lu[BFS_ARC_BATCH];
#pragma unroll
            for (int j = 0; j < BFS_ARC_BATCH; ++j) u[j] = e + j < end ? rindices[e + j] : -1;
#pragma unroll
            for (int j = 0; j < BFS_ARC_BATCH; ++j) lu[j] = u[j] >= 0 ? levels[u[j]] : -1;
#pragma unroll
            for (int j = BFS_ARC_BATCH - 1; j >= 0; --j) {  // the first hit of the batch
                if (u[j] >= 0 && lu[j] == level) tail = u[j];
            }
        }
        if (tail >= 0) {
            levels[v] = level + 1;
            d.settle(tail, v);
        }
    }
    flush_counts(d, status);
}
