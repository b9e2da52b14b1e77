// Batched PHAST (Delling, Goldberg, Nowatzyk and Werneck, "PHAST: Hardware-Accelerated
// Shortest Path Trees", IPDPS 2011, section "GPU implementation": many trees in one sweep)
// over the contraction hierarchy of nx_gpusp/solvers/sssp/phast.py: the sweeps of
// kernels/phast.cu for a batch of sources at once, so each arc of the hierarchy read
// serves every source of the batch.
//
// Layout: vertices are numbered by their position in the level order (the core last);
// dist is position-major, dist[p * width + b] = the distance of the vertex at position p
// from source b (width: the batch padded to a multiple of 32, padding columns unreached),
// so a vertex's distances for the batch are side by side and a warp reads them coalesced.
//   phast_batch_pull   one level: for each position p of the level and each chunk of
//                      PB_CHUNK columns, dist[p][b] = min(dist[p][b], dist[u][b] + w)
//                      over p's in-arcs (u, w) of the sweep (tails given as positions).
//                      The level's in-arcs are cut into segments of at most PB_SEG arcs
//                      of one head (arcs starts[s] .. stops[s] - 1 of the head heads[s],
//                      or ~heads[s] where the head has several segments; segments
//                      [seg_begin, seg_end) are the level's), so a vertex of many in-arcs (the top
//                      levels') is spread over many warps instead of one long serial
//                      loop. One warp per (segment, chunk): its lanes load the segment's
//                      arcs and broadcast each by a shuffle, then every lane relaxes
//                      PB_ITEMS columns of the arc's tail (lanes over the batch). A level's
//                      tails lie in other levels, so its warps never read each other.
//                      Only lowered entries are stored: a plain store where the segment
//                      is the head's only one, else atomicMin (the result is the minimum
//                      whatever the order). A vertex without in-arcs in the sweep (every
//                      vertex of the lowest level, going up) has no segment.
//   phast_batch_core   the core (positions [cb, n), k of them): dist[cb + j][b] = min over
//                      i of scratch[i][b] + D[i][j] (scratch: the core's rows before the
//                      step; D: the core's distances in the storage type, D[j][j] = 0).
//                      A min-plus product tiled as a GEMM: a block computes PB_TILE
//                      core columns j x PB_TILE batch columns, each thread 4 x 4 of them,
//                      over slices of PB_DEPTH rows i staged in shared memory.
//   phast_batch_init   the batch's start: dist[p][b] = 0 where p is source b's position
//                      (b < count), else unreached; one thread an entry (grid-stride).
//   phast_batch_rows   the answer rows: out[b * n + v] = dist[pos[v] * width + b] as int64
//                      (unreached: int64's maximum), through a 32 x 32 shared tile so that
//                      both the reads (a vertex's batch) and the writes (a source's row)
//                      are coalesced.
// The host (nx_gpusp/ops/phast_batched.py) queues the upward levels, the core's copy
// and product, the downward levels from the top, and the rows on one stream without
// waiting between them.
//
// Types: T (storage) long long, or int where every sum the sweeps form fits (the solver
// proves it from the hierarchy's largest arc and core distance). Unreached is
// DistTraits<T>::inf(), never added to.
#include "common.cuh"

#define PB_THREADS 256  // ops/phast_batched.py: BLOCK
#define PB_ITEMS 8      // columns a lane relaxes per chunk
#define PB_CHUNK (32 * PB_ITEMS)
#define PB_SEG 8        // in-arcs a segment (ops/phast_batched.py: SEGMENT)
#define PB_UNROLL 2     // arcs of a segment whose loads are issued together
#define PB_TILE 64      // phast_batch_core: a block's core columns and batch columns
#define PB_DEPTH 16     // phast_batch_core: core rows staged per step
#define PB_FULL_MASK 0xffffffffu

template <typename T>
__global__ void __launch_bounds__(PB_THREADS)
phast_batch_pull(long long seg_begin, long long seg_end, const int* __restrict__ heads,
                 const long long* __restrict__ starts, const long long* __restrict__ stops,
                 const int* __restrict__ tails, const T* __restrict__ weights, int width,
                 int chunks, T* dist) {
    const long long warp = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
    const long long s = seg_begin + warp / chunks;
    if (s >= seg_end) return;  // the whole warp: s is the warp's
    const int head = heads[s];
    const bool alone = head >= 0;  // the head's only segment (else heads[s] = ~p)
    const int p = alone ? head : ~head;
    const long long start = starts[s], stop = stops[s];
    const int lane = threadIdx.x & 31;
    const int first = (int)(warp % chunks) * PB_CHUNK + lane;
    const T inf = DistTraits<T>::inf();
    T* row = dist + (long long)p * width;
    // every load below is unconditional (columns past the width read the last column,
    // arcs past the segment read row 0, both discarded), so that the compiler issues a
    // group's loads together instead of one predicated load after another
    int cols[PB_ITEMS];
    T best[PB_ITEMS];
#pragma unroll
    for (int k = 0; k < PB_ITEMS; ++k) {
        cols[k] = min(first + 32 * k, width - 1);
        best[k] = row[cols[k]];
    }
    unsigned lowered = 0;  // bit k: best[k] went below the stored value
    const long long e = start + lane;
    int u = 0;
    T w = 0;
    if (e < stop) {
        u = tails[e];
        w = weights[e];
    }
    const int count = (int)(stop - start);
    // PB_UNROLL arcs at a time, their tails' entries all loaded before any is compared:
    // a segment costs a few memory latencies, not one per arc and column (the small top
    // levels are latency-bound)
    for (int a0 = 0; a0 < count; a0 += PB_UNROLL) {
        T du[PB_UNROLL][PB_ITEMS], wa[PB_UNROLL];
#pragma unroll
        for (int j = 0; j < PB_UNROLL; ++j) {
            const long long from =
                (long long)__shfl_sync(PB_FULL_MASK, u, (a0 + j) & 31) * width;
            wa[j] = __shfl_sync(PB_FULL_MASK, w, (a0 + j) & 31);
#pragma unroll
            for (int k = 0; k < PB_ITEMS; ++k) du[j][k] = dist[from + cols[k]];
        }
#pragma unroll
        for (int j = 0; j < PB_UNROLL; ++j) {
            if (a0 + j >= count) break;
#pragma unroll
            for (int k = 0; k < PB_ITEMS; ++k)
                if (du[j][k] != inf && du[j][k] + wa[j] < best[k]) {
                    best[k] = du[j][k] + wa[j];
                    lowered |= 1u << k;
                }
        }
    }
#pragma unroll
    for (int k = 0; k < PB_ITEMS; ++k) {  // only what was lowered is written back
        const int col = first + 32 * k;
        if (col < width && (lowered >> k & 1u)) {
            if (alone)
                row[col] = best[k];
            else
                atomicMin(row + col, best[k]);
        }
    }
}

// grid (ceil(k / PB_TILE), ceil(width / PB_TILE)), block (16, 16)
template <typename T>
__global__ void __launch_bounds__(PB_THREADS)
phast_batch_core(int k, int width, const T* __restrict__ D, const T* __restrict__ scratch,
                 T* core_rows) {
    __shared__ T sd[PB_DEPTH][PB_TILE];  // D[i][j] of the slice
    __shared__ T sa[PB_DEPTH][PB_TILE];  // scratch[i][b] of the slice
    const T inf = DistTraits<T>::inf();
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    const int j0 = blockIdx.x * PB_TILE, b0 = blockIdx.y * PB_TILE;
    T acc[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int s = 0; s < 4; ++s) acc[r][s] = inf;
    for (int i0 = 0; i0 < k; i0 += PB_DEPTH) {
        // PB_DEPTH x PB_TILE entries of each, 256 threads: 4 each
        for (int x = t; x < PB_DEPTH * PB_TILE; x += PB_THREADS) {
            const int ii = x / PB_TILE, cc = x % PB_TILE, i = i0 + ii;
            sd[ii][cc] = (i < k && j0 + cc < k) ? D[(long long)i * k + j0 + cc] : inf;
            sa[ii][cc] = (i < k && b0 + cc < width) ? scratch[(long long)i * width + b0 + cc]
                                                    : inf;
        }
        __syncthreads();
#pragma unroll
        for (int ii = 0; ii < PB_DEPTH; ++ii) {
            T a[4], d[4];
#pragma unroll
            for (int s = 0; s < 4; ++s) a[s] = sa[ii][tx + 16 * s];
#pragma unroll
            for (int r = 0; r < 4; ++r) d[r] = sd[ii][ty + 16 * r];
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int s = 0; s < 4; ++s) {
                    const T c = (a[s] == inf || d[r] == inf) ? inf : a[s] + d[r];
                    if (c < acc[r][s]) acc[r][s] = c;
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int j = j0 + ty + 16 * r;
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            const int b = b0 + tx + 16 * s;
            if (j < k && b < width) core_rows[(long long)j * width + b] = acc[r][s];
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(PB_THREADS)
phast_batch_init(long long entries, int width, const int* __restrict__ source_pos,
                 int count, T* dist) {
    const T inf = DistTraits<T>::inf();
    for (long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x; x < entries;
         x += (long long)gridDim.x * blockDim.x) {
        const int b = (int)(x % width);
        dist[x] = (b < count && source_pos[b] == x / width) ? T(0) : inf;
    }
}

// grid (ceil(n / 32), ceil(count / 32)), block (32, 8)
template <typename T>
__global__ void __launch_bounds__(PB_THREADS)
phast_batch_rows(const int* __restrict__ pos, int n, int width, int count,
                 const T* __restrict__ dist, long long* out) {
    __shared__ long long tile[32][33];
    const T inf = DistTraits<T>::inf();
    const int v0 = blockIdx.x * 32, b0 = blockIdx.y * 32;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8) {  // row v0 + r of the tile: that vertex's batch
        const int v = v0 + r, b = b0 + tx;
        if (v < n && b < width) {
            const T d = dist[(long long)pos[v] * width + b];
            tile[r][tx] = d == inf ? DistTraits<long long>::inf() : (long long)d;
        }
    }
    __syncthreads();
    for (int r = ty; r < 32; r += 8) {  // source b0 + r: its row over v0 .. v0 + 31
        const int b = b0 + r, v = v0 + tx;
        if (b < count && v < n) out[(long long)b * n + v] = tile[tx][r];
    }
}
