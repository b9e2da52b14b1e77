// Blocked ("tiled with shared memory") Floyd-Warshall — Bodra & Khairnar 2025, variant
// "tiled shared"; the blocking of Venkataraman et al. that the paper follows.
//
// Per k-block kb (TILE x TILE tiles, one thread per tile element, block TILE x TILE):
//   fw_phase1: the diagonal tile (kb, kb), one block;
//   fw_phase2: the tiles of row kb and column kb, grid (nt, 2) (y = 0 row, 1 column);
//   fw_phase3: every remaining tile, grid (nt, nt).
// d: n x n row-major distances (T, DistTraits<T>::inf() = no path); p: n x n int32
// predecessors (p[i][j] = last vertex before j on the i->j path, -1 none) or nullptr.
// An entry improves only on a strict decrease, and then p[i][j] = p[k][j] — the same
// rule as networkx.floyd_warshall_predecessor_and_distance.
#include "common.cuh"

#define TILE 32

template <typename T>
__device__ __forceinline__ void relax_entry(T& dij, int& pij, T dik, T dkj, int pkj, bool track) {
    const T cand = add_saturating(dik, dkj);
    if (cand < dij) {
        dij = cand;
        if (track) pij = pkj;
    }
}

template <typename T>
__global__ void fw_phase1(T* d, int* p, int n, int kb) {
    __shared__ T sd[TILE][TILE];
    __shared__ int sp[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = kb * TILE + ty, j = kb * TILE + tx;
    const bool in = i < n && j < n, track = p != nullptr;
    sd[ty][tx] = in ? d[(long long)i * n + j] : DistTraits<T>::inf();
    sp[ty][tx] = (in && track) ? p[(long long)i * n + j] : -1;
    __syncthreads();
    const int kmax = min(TILE, n - kb * TILE);
    for (int k = 0; k < kmax; ++k) {
        const T cand = add_saturating(sd[ty][k], sd[k][tx]);
        const int pk = sp[k][tx];
        __syncthreads();
        if (cand < sd[ty][tx]) {
            sd[ty][tx] = cand;
            if (track) sp[ty][tx] = pk;
        }
        __syncthreads();
    }
    if (in) {
        d[(long long)i * n + j] = sd[ty][tx];
        if (track) p[(long long)i * n + j] = sp[ty][tx];
    }
}

template <typename T>
__global__ void fw_phase2(T* d, int* p, int n, int kb) {
    const int t = blockIdx.x;
    if (t == kb) return;
    __shared__ T sdiag[TILE][TILE], sd[TILE][TILE];
    __shared__ int spdiag[TILE][TILE], sp[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool track = p != nullptr;
    const bool is_row = blockIdx.y == 0;  // tile (kb, t) else tile (t, kb)
    const int i = (is_row ? kb : t) * TILE + ty, j = (is_row ? t : kb) * TILE + tx;
    const int di = kb * TILE + ty, dj = kb * TILE + tx;
    const bool in = i < n && j < n, din = di < n && dj < n;
    sd[ty][tx] = in ? d[(long long)i * n + j] : DistTraits<T>::inf();
    sp[ty][tx] = (in && track) ? p[(long long)i * n + j] : -1;
    sdiag[ty][tx] = din ? d[(long long)di * n + dj] : DistTraits<T>::inf();
    spdiag[ty][tx] = (din && track) ? p[(long long)di * n + dj] : -1;
    __syncthreads();
    const int kmax = min(TILE, n - kb * TILE);
    for (int k = 0; k < kmax; ++k) {
        T cand;
        int pk;
        if (is_row) {  // d[kb-row i][j] via diagonal d[i][k] + this tile's d[k][j]
            cand = add_saturating(sdiag[ty][k], sd[k][tx]);
            pk = sp[k][tx];
        } else {  // d[i][kb-col j] via this tile's d[i][k] + diagonal d[k][j]
            cand = add_saturating(sd[ty][k], sdiag[k][tx]);
            pk = spdiag[k][tx];
        }
        __syncthreads();
        if (cand < sd[ty][tx]) {
            sd[ty][tx] = cand;
            if (track) sp[ty][tx] = pk;
        }
        __syncthreads();
    }
    if (in) {
        d[(long long)i * n + j] = sd[ty][tx];
        if (track) p[(long long)i * n + j] = sp[ty][tx];
    }
}

template <typename T>
__global__ void fw_phase3(T* d, int* p, int n, int kb) {
    const int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == kb || bj == kb) return;
    __shared__ T srow[TILE][TILE], scol[TILE][TILE];  // (bi, kb) and (kb, bj)
    __shared__ int spcol[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool track = p != nullptr;
    const int i = bi * TILE + ty, j = bj * TILE + tx;
    const int ki = kb * TILE + ty, kj = kb * TILE + tx;
    srow[ty][tx] = (i < n && kj < n) ? d[(long long)i * n + kj] : DistTraits<T>::inf();
    scol[ty][tx] = (ki < n && j < n) ? d[(long long)ki * n + j] : DistTraits<T>::inf();
    spcol[ty][tx] = (track && ki < n && j < n) ? p[(long long)ki * n + j] : -1;
    __syncthreads();
    if (i >= n || j >= n) return;
    T dij = d[(long long)i * n + j];
    int pij = track ? p[(long long)i * n + j] : -1;
    const int kmax = min(TILE, n - kb * TILE);
    for (int k = 0; k < kmax; ++k) relax_entry(dij, pij, srow[ty][k], scol[k][tx], spcol[k][tx], track);
    d[(long long)i * n + j] = dij;
    if (track) p[(long long)i * n + j] = pij;
}
