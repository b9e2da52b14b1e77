// Blocked ("tiled with shared memory") Floyd-Warshall — Bodra & Khairnar 2025, variant
// "tiled shared"; the blocking of Venkataraman et al. that the paper follows.
//
// Per k-block kb (TILE x TILE tiles, one thread per tile element, block TILE x TILE):
//   fw_phase1: the diagonal tile (kb, kb), one block;
//   fw_phase2: the tiles of row kb and column kb, grid (nt, 2) (y = 0 row, 1 column);
//   (both relax a shared-memory tile through the k-block: relax_tile)
//   fw_phase3: every remaining tile, grid (nt, nt).
// fw_arc_counts: the initial arc counts h (1 where d holds an arc, 0 on the diagonal and
// where no path), one thread an entry.
// d: n x n row-major distances (T, DistTraits<T>::inf() = no path); p: n x n int32
// predecessors (p[i][j] = last vertex before j on the i->j path, -1 none) or nullptr;
// h: n x n int32 arc counts of the current paths (with p; else nullptr).
// An entry improves on a strict decrease of (distance, arcs), and then p[i][j] = p[k][j]
// (networkx.floyd_warshall_predecessor_and_distance's rule plus the arc-count tie-break).
// The tie-break keeps predecessors valid in blocked order: the final (d, h) are the
// lexicographic optima whatever the order, so following p strictly lowers h; with
// distances alone, zero-weight cycles can close a predecessor cycle between tiles.
#include "common.cuh"

#define TILE 32

// true when (cand, hc) < (dij, hij) lexicographically (arc counts only when tracking)
template <typename T>
__device__ __forceinline__ bool fw_better(T cand, T dij, int hc, int hij, bool track) {
    return cand < dij || (track && cand == dij && cand != DistTraits<T>::inf() && hc < hij);
}

template <typename T>
__device__ __forceinline__ void relax_entry(T& dij, int& pij, int& hij, T dik, T dkj, int pkj,
                                            int hik, int hkj, bool track) {
    const T cand = add_saturating(dik, dkj);
    if (fw_better(cand, dij, hik + hkj, hij, track)) {
        dij = cand;
        if (track) { pij = pkj; hij = hik + hkj; }
    }
}

// This thread's entry (ty, tx) of a shared tile from entry ij of d (and p, h when
// tracking); outside the matrix (!in): no path.
template <typename T>
__device__ __forceinline__ void load_entry(T (*sd)[TILE], int (*sp)[TILE], int (*sh)[TILE],
                                           const T* d, const int* p, const int* h,
                                           long long ij, bool in, bool track) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    sd[ty][tx] = in ? d[ij] : DistTraits<T>::inf();
    sp[ty][tx] = (in && track) ? p[ij] : -1;
    sh[ty][tx] = (in && track) ? h[ij] : 0;
}

// This thread's entry of a shared tile back to entry ij of d (and p, h).
template <typename T>
__device__ __forceinline__ void store_entry(const T (*sd)[TILE], const int (*sp)[TILE],
                                            const int (*sh)[TILE], T* d, int* p, int* h,
                                            long long ij, bool track) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    d[ij] = sd[ty][tx];
    if (track) { p[ij] = sp[ty][tx]; h[ij] = sh[ty][tx]; }
}

// The tile code of phases 1 and 2: relax the shared tile s (sd, sp, sh) through the
// kmax vertices of the k-block, one thread an entry, barriers between the steps. A
// path's other leg comes from the diagonal tile (sdiag, spdiag, shdiag): d[i][k] for a
// tile of row kb (row_of_kb), d[k][j] for a tile of column kb. For the diagonal tile
// itself (phase 1) s is the diagonal tile and both legs come from it.
template <typename T>
__device__ __forceinline__ void relax_tile(T (*sd)[TILE], int (*sp)[TILE], int (*sh)[TILE],
                                           T (*sdiag)[TILE], int (*spdiag)[TILE],
                                           int (*shdiag)[TILE], bool row_of_kb, int kmax,
                                           bool track) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int k = 0; k < kmax; ++k) {
        T cand;
        int pk, hc;
        if (row_of_kb) {  // d[kb-row i][j] via diagonal d[i][k] + this tile's d[k][j]
            cand = add_saturating(sdiag[ty][k], sd[k][tx]);
            pk = sp[k][tx];
            hc = shdiag[ty][k] + sh[k][tx];
        } else {  // d[i][kb-col j] via this tile's d[i][k] + diagonal d[k][j]
            cand = add_saturating(sd[ty][k], sdiag[k][tx]);
            pk = spdiag[k][tx];
            hc = sh[ty][k] + shdiag[k][tx];
        }
        __syncthreads();
        if (fw_better(cand, sd[ty][tx], hc, sh[ty][tx], track)) {
            sd[ty][tx] = cand;
            if (track) { sp[ty][tx] = pk; sh[ty][tx] = hc; }
        }
        __syncthreads();
    }
}

template <typename T>
__global__ void fw_phase1(T* d, int* p, int* h, int n, int kb) {
    __shared__ T sd[TILE][TILE];
    __shared__ int sp[TILE][TILE], sh[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = kb * TILE + ty, j = kb * TILE + tx;
    const long long ij = (long long)i * n + j;
    const bool in = i < n && j < n, track = p != nullptr;
    load_entry(sd, sp, sh, d, p, h, ij, in, track);
    __syncthreads();
    relax_tile(sd, sp, sh, sd, sp, sh, true, min(TILE, n - kb * TILE), track);
    if (in) store_entry(sd, sp, sh, d, p, h, ij, track);
}

template <typename T>
__global__ void fw_phase2(T* d, int* p, int* h, int n, int kb) {
    const int t = blockIdx.x;
    if (t == kb) return;
    __shared__ T sdiag[TILE][TILE], sd[TILE][TILE];
    __shared__ int spdiag[TILE][TILE], sp[TILE][TILE], shdiag[TILE][TILE], sh[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool track = p != nullptr;
    const bool is_row = blockIdx.y == 0;  // tile (kb, t) else tile (t, kb)
    const int i = (is_row ? kb : t) * TILE + ty, j = (is_row ? t : kb) * TILE + tx;
    const int di = kb * TILE + ty, dj = kb * TILE + tx;
    const long long ij = (long long)i * n + j, dij = (long long)di * n + dj;
    const bool in = i < n && j < n, din = di < n && dj < n;
    load_entry(sd, sp, sh, d, p, h, ij, in, track);
    load_entry(sdiag, spdiag, shdiag, d, p, h, dij, din, track);
    __syncthreads();
    relax_tile(sd, sp, sh, sdiag, spdiag, shdiag, is_row, min(TILE, n - kb * TILE), track);
    if (in) store_entry(sd, sp, sh, d, p, h, ij, track);
}

template <typename T>
__global__ void fw_phase3(T* d, int* p, int* h, int n, int kb) {
    const int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == kb || bj == kb) return;
    __shared__ T srow[TILE][TILE], scol[TILE][TILE];  // (bi, kb) and (kb, bj)
    __shared__ int spcol[TILE][TILE], shrow[TILE][TILE], shcol[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool track = p != nullptr;
    const int i = bi * TILE + ty, j = bj * TILE + tx;
    const int ki = kb * TILE + ty, kj = kb * TILE + tx;
    const bool row_in = i < n && kj < n, col_in = ki < n && j < n;
    srow[ty][tx] = row_in ? d[(long long)i * n + kj] : DistTraits<T>::inf();
    scol[ty][tx] = col_in ? d[(long long)ki * n + j] : DistTraits<T>::inf();
    spcol[ty][tx] = (track && col_in) ? p[(long long)ki * n + j] : -1;
    shrow[ty][tx] = (track && row_in) ? h[(long long)i * n + kj] : 0;
    shcol[ty][tx] = (track && col_in) ? h[(long long)ki * n + j] : 0;
    __syncthreads();
    if (i >= n || j >= n) return;
    const long long ij = (long long)i * n + j;
    T dij = d[ij];
    int pij = track ? p[ij] : -1, hij = track ? h[ij] : 0;
    const int kmax = min(TILE, n - kb * TILE);
    for (int k = 0; k < kmax; ++k)
        relax_entry(dij, pij, hij, srow[ty][k], scol[k][tx], spcol[k][tx], shrow[ty][k],
                    shcol[k][tx], track);
    d[ij] = dij;
    if (track) { p[ij] = pij; h[ij] = hij; }
}

template <typename T>
__global__ void fw_arc_counts(const T* __restrict__ d, long long n, int* h) {
    const long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (x < n * n) h[x] = (x / n != x % n && d[x] != DistTraits<T>::inf()) ? 1 : 0;
}
