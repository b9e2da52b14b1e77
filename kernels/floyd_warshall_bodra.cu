// Floyd-Warshall on the dense matrix, the baseline variants of Bodra & Khairnar 2025
// (section "Floyd-Warshall"): "per-edge", "per-edge with shared memory", "per-vertex"
// and "tiled" (blocked, three phases per k-block, no shared memory). The tiled variant
// with shared memory is kernels/floyd_warshall.cu.
//
// Launch shapes (the host loops over k, or over k-blocks kb, one launch per step):
//   fw_per_edge:        grid (ceil(n/16), ceil(n/16)), block (16, 16); thread (i, j).
//   fw_per_edge_shared: grid (ceil(n/32), ceil(n/8)),  block (32, 8); the block's rows'
//                       d[i][k] and columns' d[k][j] (p[k][j]) are loaded once into
//                       shared memory and broadcast to the threads.
//   fw_per_vertex:      1-D grid, one thread per row i looping over every j.
//   fw_tiled_phase1/2/3: as kernels/floyd_warshall.cu (TILE x TILE blocks; phase 2 grid
//                       (nt, 2), phase 3 grid (nt, nt)) but reading and writing global
//                       memory directly.
// Arguments: d n x n row-major distances (T, DistTraits<T>::inf() = no path); p n x n
// int32 predecessors or nullptr; h n x n int32 arc counts (with p) or nullptr; n; k
// (the intermediate vertex) or kb (the k-block). An entry improves on a strict decrease
// of (distance, arcs), and then p[i][j] = p[k][j] (NetworkX's rule plus the arc-count
// tie-break that keeps blocked orders' predecessors valid: see floyd_warshall.cu). Row
// and column k do not
// change in step k (d[k][k] = 0: negative cycles are refused before the launch), so
// the in-place updates of one step do not race.
#include "common.cuh"

#define TILE 32

template <typename T>
__device__ __forceinline__ void fw_relax(T* d, int* p, int* h, long long ij, long long ik,
                                         long long kj) {
    const T cand = add_saturating(d[ik], d[kj]);
    const T dij = d[ij];
    if (cand < dij) {
        d[ij] = cand;
        if (p != nullptr) { p[ij] = p[kj]; h[ij] = h[ik] + h[kj]; }
    } else if (p != nullptr && cand == dij && cand != DistTraits<T>::inf() && h[ik] + h[kj] < h[ij]) {
        p[ij] = p[kj];
        h[ij] = h[ik] + h[kj];
    }
}

template <typename T>
__global__ void fw_per_edge(T* d, int* p, int* h, int n, int k) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || j >= n) return;
    fw_relax(d, p, h, (long long)i * n + j, (long long)i * n + k, (long long)k * n + j);
}

template <typename T>
__global__ void fw_per_edge_shared(T* d, int* p, int* h, int n, int k) {
    __shared__ T s_dik[8], s_dkj[32];
    __shared__ int s_hik[8], s_pkj[32], s_hkj[32];
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const long long ik = (long long)i * n + k, kj = (long long)k * n + j;
    if (threadIdx.x == 0) {
        s_dik[threadIdx.y] = i < n ? d[ik] : DistTraits<T>::inf();
        s_hik[threadIdx.y] = (i < n && p) ? h[ik] : 0;
    }
    if (threadIdx.y == 0) {
        s_dkj[threadIdx.x] = j < n ? d[kj] : DistTraits<T>::inf();
        s_pkj[threadIdx.x] = (j < n && p) ? p[kj] : -1;
        s_hkj[threadIdx.x] = (j < n && p) ? h[kj] : 0;
    }
    __syncthreads();
    if (i >= n || j >= n) return;
    const long long ij = (long long)i * n + j;
    const T cand = add_saturating(s_dik[threadIdx.y], s_dkj[threadIdx.x]);
    const int hc = s_hik[threadIdx.y] + s_hkj[threadIdx.x];
    const T dij = d[ij];
    if (cand < dij || (p && cand == dij && cand != DistTraits<T>::inf() && hc < h[ij])) {
        d[ij] = cand;
        if (p) { p[ij] = s_pkj[threadIdx.x]; h[ij] = hc; }
    }
}

template <typename T>
__global__ void fw_per_vertex(T* d, int* p, int* h, int n, int k) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) {
        if (d[i * n + k] == DistTraits<T>::inf()) continue;
        for (int j = 0; j < n; ++j) fw_relax(d, p, h, i * n + j, i * n + k, (long long)k * n + j);
    }
}

// Relax tile entry (i, j) through every k of block kb, reading d[i][k] and d[k][j]
// from global memory; sync: the block's own tile holds row or column k (phases 1, 2).
template <typename T>
__device__ void fw_tile_entry(T* d, int* p, int* h, int n, int kb, int i, int j, bool sync) {
    const bool in = i < n && j < n;
    const int kmax = min(TILE, n - kb * TILE);
    for (int kk = 0; kk < kmax; ++kk) {
        const long long k = (long long)kb * TILE + kk;
        if (in) fw_relax(d, p, h, (long long)i * n + j, (long long)i * n + k, k * n + j);
        if (sync) __syncthreads();
    }
}

template <typename T>
__global__ void fw_tiled_phase1(T* d, int* p, int* h, int n, int kb) {
    fw_tile_entry(d, p, h, n, kb, kb * TILE + threadIdx.y, kb * TILE + threadIdx.x, true);
}

template <typename T>
__global__ void fw_tiled_phase2(T* d, int* p, int* h, int n, int kb) {
    const int t = blockIdx.x;
    if (t == kb) return;
    const bool is_row = blockIdx.y == 0;  // tile (kb, t) else tile (t, kb)
    const int i = (is_row ? kb : t) * TILE + threadIdx.y;
    const int j = (is_row ? t : kb) * TILE + threadIdx.x;
    fw_tile_entry(d, p, h, n, kb, i, j, true);
}

template <typename T>
__global__ void fw_tiled_phase3(T* d, int* p, int* h, int n, int kb) {
    const int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == kb || bj == kb) return;
    fw_tile_entry(d, p, h, n, kb, bi * TILE + threadIdx.y, bj * TILE + threadIdx.x, false);
}
