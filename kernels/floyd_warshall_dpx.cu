// Blocked Floyd-Warshall for Hopper: register tiling plus DPX add-min ("fw-dpx").
// The blocking is Bodra & Khairnar 2025's "tiled" variant (Venkataraman et al.); what is
// new is that phases 2 and 3 are min-plus products C = min(C, A (x) B) computed from
// shared-memory panels into a 4-row micro-tile of registers per thread, and that the
// add-min of integer distances is one DPX instruction (__viaddmin_s32, or
// __viaddmin_s16x2 for two int16 distances per 32-bit word).
//
// Lanes (how a storage word W holds distances; chosen on the host from the bound
// B = (n-1) * max|w| on every simple-path length):
//   s16x2: two int16 per word, __viaddmin_s16x2; INF = 0x3fff, needs 2B < INF.
//   s32:   int32, __viaddmin_s32;                INF = 0x3fffffff, needs 2B < INF.
//   i64:   int64, saturating add (INF = INT64_MAX absorbs).
//   f64:   double, IEEE (inf + x = inf).
// For s16x2/s32 "no arc" is the finite sentinel INF: every stored value stays in
// [-B, INF] (no negative cycles; refused before the launch) so sums never overflow, and
// a pair without a path ends >= INF - B > B; the host maps values > B back to "no path".
//
// Matrix: d, N x N (N a multiple of TILE = 64, padded with INF rows/columns), ldw words
// per row (N / lanes). Launches per k-block kb, block (16, 16), thread (tx, ty) owning
// tile rows ty + 16r (r < 4) and word columns tx + 16c:
//   fw_dpx_diagonal_<lane>(d, ldw, kb):        grid 1; closes tile (kb, kb) in shared
//                                              memory, one k per step.
//   fw_dpx_minplus_<lane>(d, ldw, kb, phase):  phase 2: grid (nt, 2), tiles (kb, t)
//                                              (y = 0) and (t, kb) (y = 1) times the
//                                              closed diagonal tile; phase 3: grid
//                                              (nt, nt), every tile (i, j) off row and
//                                              column kb: C(i,j) = min(C, A(i,kb) B(kb,j)).
// The panels are streamed through shared memory in chunks of KC = 32 k's; in phase 2 C
// is one of the panels, which is safe because every thread has read all chunks before
// any thread stores C.
#include "common.cuh"

#define TILE 64
#define KC 32
#define THREADS 16
#define MR (TILE / THREADS)

struct LaneS16x2 {
    typedef unsigned int W;
    static constexpr int L = 2;
    __device__ static W splat(W w, int lane) { return __byte_perm(w, 0, lane ? 0x3232 : 0x1010); }
    __device__ static W addmin(W a, W b, W c) { return __viaddmin_s16x2(a, b, c); }
};
struct LaneS32 {
    typedef int W;
    static constexpr int L = 1;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) { return __viaddmin_s32(a, b, c); }
};
struct LaneI64 {
    typedef long long W;
    static constexpr int L = 1;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) {
        const W s = add_saturating(a, b);
        return s < c ? s : c;
    }
};
struct LaneF64 {
    typedef double W;
    static constexpr int L = 1;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) {
        const W s = a + b;
        return s < c ? s : c;
    }
};

template <class Lane>
__device__ void fw_dpx_diagonal(typename Lane::W* d, long long ldw, int kb) {
    typedef typename Lane::W W;
    constexpr int TW = TILE / Lane::L, MC = TW / THREADS;
    __shared__ W s[TILE][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    W* tile = d + (long long)kb * TILE * ldw + (long long)kb * TW;
#pragma unroll
    for (int r = 0; r < MR; ++r)
#pragma unroll
        for (int c = 0; c < MC; ++c) s[ty + THREADS * r][tx + THREADS * c] = tile[(ty + THREADS * r) * ldw + tx + THREADS * c];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
        const int kw = k / Lane::L, lane = k % Lane::L;
#pragma unroll
        for (int r = 0; r < MR; ++r) {
            const int i = ty + THREADS * r;
            const W a = Lane::splat(s[i][kw], lane);
#pragma unroll
            for (int c = 0; c < MC; ++c) {
                const int j = tx + THREADS * c;
                s[i][j] = Lane::addmin(a, s[k][j], s[i][j]);
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < MR; ++r)
#pragma unroll
        for (int c = 0; c < MC; ++c) tile[(ty + THREADS * r) * ldw + tx + THREADS * c] = s[ty + THREADS * r][tx + THREADS * c];
}

template <class Lane>
__device__ void fw_dpx_minplus(typename Lane::W* d, long long ldw, int kb, int phase) {
    typedef typename Lane::W W;
    constexpr int TW = TILE / Lane::L, MC = TW / THREADS, KW = KC / Lane::L;
    int ci, cj;
    if (phase == 3) {
        ci = blockIdx.y;
        cj = blockIdx.x;
        if (ci == kb || cj == kb) return;
    } else {
        if ((int)blockIdx.x == kb) return;
        ci = blockIdx.y == 0 ? kb : blockIdx.x;
        cj = blockIdx.y == 0 ? blockIdx.x : kb;
    }
    __shared__ W sa[TILE][KW + 1];  // A(ci, kb) chunk: rows i, k's (+1: no bank conflicts)
    __shared__ W sb[KC][TW];        // B(kb, cj) chunk: k's, word columns
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * THREADS + tx;
    const W* a_tile = d + (long long)ci * TILE * ldw + (long long)kb * TW;
    const W* b_tile = d + (long long)kb * TILE * ldw + (long long)cj * TW;
    W* c_tile = d + (long long)ci * TILE * ldw + (long long)cj * TW;
    W acc[MR][MC];
#pragma unroll
    for (int r = 0; r < MR; ++r)
#pragma unroll
        for (int c = 0; c < MC; ++c) acc[r][c] = c_tile[(ty + THREADS * r) * ldw + tx + THREADS * c];
    for (int k0 = 0; k0 < TILE; k0 += KC) {
        for (int x = tid; x < TILE * KW; x += THREADS * THREADS)
            sa[x / KW][x % KW] = a_tile[(x / KW) * ldw + k0 / Lane::L + x % KW];
        for (int x = tid; x < KC * TW; x += THREADS * THREADS)
            sb[x / TW][x % TW] = b_tile[(k0 + x / TW) * ldw + x % TW];
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < KC; ++k) {
            W a[MR], b[MC];
#pragma unroll
            for (int r = 0; r < MR; ++r) a[r] = Lane::splat(sa[ty + THREADS * r][k / Lane::L], k % Lane::L);
#pragma unroll
            for (int c = 0; c < MC; ++c) b[c] = sb[k][tx + THREADS * c];
#pragma unroll
            for (int r = 0; r < MR; ++r)
#pragma unroll
                for (int c = 0; c < MC; ++c) acc[r][c] = Lane::addmin(a[r], b[c], acc[r][c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < MR; ++r)
#pragma unroll
        for (int c = 0; c < MC; ++c) c_tile[(ty + THREADS * r) * ldw + tx + THREADS * c] = acc[r][c];
}

#define FW_DPX_KERNELS(SUFFIX, LANE)                                                          \
    __global__ void __launch_bounds__(THREADS * THREADS)                                      \
        fw_dpx_diagonal_##SUFFIX(LANE::W* d, long long ldw, int kb) {                         \
        fw_dpx_diagonal<LANE>(d, ldw, kb);                                                    \
    }                                                                                         \
    __global__ void __launch_bounds__(THREADS * THREADS)                                      \
        fw_dpx_minplus_##SUFFIX(LANE::W* d, long long ldw, int kb, int phase) {               \
        fw_dpx_minplus<LANE>(d, ldw, kb, phase);                                              \
    }

FW_DPX_KERNELS(s16x2, LaneS16x2)
FW_DPX_KERNELS(s32, LaneS32)
FW_DPX_KERNELS(i64, LaneI64)
FW_DPX_KERNELS(f64, LaneF64)
