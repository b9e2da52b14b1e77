// Blocked Floyd-Warshall for Hopper: register tiling plus DPX add-min ("fw-dpx").
// The blocking is Bodra & Khairnar 2025's "tiled" variant (Venkataraman et al.); what is
// new is that phases 2 and 3 are min-plus products C = min(C, A (x) B) computed from
// shared-memory panels into an 8x8 (64-bit lanes: 4x4) micro-tile of registers per
// thread, and that the add-min of integer distances is one DPX instruction
// (__viaddmin_s32, or __viaddmin_s16x2 for two int16 distances per 32-bit word).
//
// Lanes (how a storage word W holds distances; chosen on the host from the bound
// B = (n-1) * max|w| on every simple-path length):
//   s16x2: two int16 per word, __viaddmin_s16x2; INF = 0x3fff, needs 2B < INF. TILE 128.
//   s32:   int32, __viaddmin_s32;                INF = 0x3fffffff, needs 2B < INF. TILE 128.
//   f32:   float, IEEE (inf + x = inf), FADD + FMNMX; only for integral float weights
//          with 2B <= 2^24, where every sum is exact (so equal to NetworkX's float64). TILE 128.
//   i64:   int64, saturating add (INF = INT64_MAX absorbs).                       TILE 64.
//   f64:   double, IEEE (inf + x = inf).                                          TILE 64.
// For s16x2/s32 "no arc" is the finite sentinel INF: every stored value stays in
// [-B, INF] (no negative cycles; refused before the launch) so sums never overflow, and
// a pair without a path ends >= INF - B > B; the host maps values > B back to "no path".
//
// Matrix: d, N x N (N a multiple of the lane's TILE, padded with INF rows/columns), ldw
// words per row (N / distances per word). Block (16, 16); thread (tx, ty) owns the tile
// rows ty*HR + r and TILE/2 + ty*HR + r (r < HR = TILE/32) and, in each half of the
// tile's TW words, the HC = TW/32 consecutive words from tx*HC: split halves keep the
// 8- or 16-byte vector accesses of a warp contiguous (no shared-memory bank conflicts).
//   fw_dpx_diagonal_<lane>(d, ldw, kb):        grid 1, TILE*TILE*sizeof(distance) bytes
//                                              of dynamic shared memory; closes tile
//                                              (kb, kb) in place, one k per step.
//   fw_dpx_minplus_<lane>(d, ldw, kb, phase):  phase 2: grid (nt, 2), tiles (kb, t)
//                                              (y = 0) and (t, kb) (y = 1) times the
//                                              closed diagonal tile; phase 3: grid
//                                              (nt, nt), every tile (i, j) off row and
//                                              column kb: C(i,j) = min(C, A(i,kb) B(kb,j)).
// The panels are streamed through shared memory in chunks of KC = 32 k's: A row-major
// with each distance splatted to a full word (no unpacking in the inner loop), B as
// stored; for s16x2 the next chunk is read into registers while the current one is
// computed (the other lanes' micro-tiles leave no registers for it). In phase 2 C is one
// of the panels, which is safe because every thread has read all chunks before any
// thread stores C.
#include "common.cuh"

#define THREADS 16
#define KC 32

struct LaneS16x2 {
    typedef unsigned int W;
    static constexpr int L = 2, TILE = 128;
    static constexpr bool PIPELINE = true;  // see fw_dpx_minplus
    __device__ static W splat(W w, int lane) { return __byte_perm(w, 0, lane ? 0x3232 : 0x1010); }
    __device__ static W addmin(W a, W b, W c) { return __viaddmin_s16x2(a, b, c); }
};
struct LaneS32 {
    typedef int W;
    static constexpr int L = 1, TILE = 128;
    static constexpr bool PIPELINE = false;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) { return __viaddmin_s32(a, b, c); }
};
struct LaneF32 {
    typedef float W;
    static constexpr int L = 1, TILE = 128;
    static constexpr bool PIPELINE = false;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) { return fminf(a + b, c); }
};
struct LaneI64 {
    typedef long long W;
    static constexpr int L = 1, TILE = 64;
    static constexpr bool PIPELINE = false;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) {
        const W s = add_saturating(a, b);
        return s < c ? s : c;
    }
};
struct LaneF64 {
    typedef double W;
    static constexpr int L = 1, TILE = 64;
    static constexpr bool PIPELINE = false;
    __device__ static W splat(W w, int) { return w; }
    __device__ static W addmin(W a, W b, W c) {
        const W s = a + b;
        return s < c ? s : c;
    }
};

// The thread's share of a tile (see the header).
template <class Lane>
struct Micro {
    typedef typename Lane::W W;
    static constexpr int TILE = Lane::TILE, TW = TILE / Lane::L;
    static constexpr int MR = TILE / THREADS, MC = TW / THREADS, HR = MR / 2, HC = MC / 2;
    static constexpr int VEC = 16 / sizeof(W);  // words per 16-byte copy
    __device__ static int row(int ty, int r) { return r < HR ? ty * HR + r : TILE / 2 + ty * HR + r - HR; }
    __device__ static int col(int tx, int h) { return h * (TW / 2) + tx * HC; }
};

// N consecutive words as one 8- or 16-byte access (aligned to it); the register side
// goes through a union, never a cast, so the micro-tile stays in registers
template <bool C, class T, class F> struct Select { typedef T type; };
template <class T, class F> struct Select<false, T, F> { typedef F type; };

template <int N, class W>
union Words {
    static_assert(N * sizeof(W) == 8 || N * sizeof(W) == 16, "8- or 16-byte vectors only");
    typedef typename Select<N * sizeof(W) == 16, int4, int2>::type V;
    V v;
    W w[N];
};

template <int N, class W>
__device__ __forceinline__ void load_words(W* regs, const W* src) {
    Words<N, W> u;
    u.v = *reinterpret_cast<const typename Words<N, W>::V*>(src);
#pragma unroll
    for (int i = 0; i < N; ++i) regs[i] = u.w[i];
}

template <int N, class W>
__device__ __forceinline__ void store_words(W* dst, const W* regs) {
    Words<N, W> u;
#pragma unroll
    for (int i = 0; i < N; ++i) u.w[i] = regs[i];
    *reinterpret_cast<typename Words<N, W>::V*>(dst) = u.v;
}

template <int N, class W>
__device__ __forceinline__ void copy_words(W* dst, const W* src) {
    typedef typename Words<N, W>::V V;
    *reinterpret_cast<V*>(dst) = *reinterpret_cast<const V*>(src);
}

// rows x TW words from src to dst (src_ld / dst_ld words per row: a global tile's ldw,
// or TW in shared memory), 16 bytes a copy
template <class Lane, int ROWS>
__device__ __forceinline__ void copy_rows(typename Lane::W* dst, long long dst_ld,
                                          const typename Lane::W* src, long long src_ld,
                                          int tid) {
    typedef Micro<Lane> M;
    constexpr int PER_ROW = M::TW / M::VEC;
    for (int x = tid; x < ROWS * PER_ROW; x += THREADS * THREADS) {
        const int r = x / PER_ROW, w = (x % PER_ROW) * M::VEC;
        copy_words<M::VEC>(dst + r * dst_ld + w, src + r * src_ld + w);
    }
}

// rows x TW words from global (ld words per row) to shared (TW per row)
template <class Lane, int ROWS>
__device__ __forceinline__ void load_rows(typename Lane::W* dst, const typename Lane::W* src,
                                          long long ld, int tid) {
    copy_rows<Lane, ROWS>(dst, Micro<Lane>::TW, src, ld, tid);
}

template <class Lane>
__device__ void fw_dpx_diagonal(typename Lane::W* d, long long ldw, int kb) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
    extern __shared__ __align__(16) unsigned char smem[];
    W* s = reinterpret_cast<W*>(smem);  // TILE x TW words
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * THREADS + tx;
    W* tile = d + (long long)kb * M::TILE * ldw + (long long)kb * M::TW;
    load_rows<Lane, M::TILE>(s, tile, ldw, tid);
    __syncthreads();
    // step k reads row k and column k, which step k leaves unchanged (d[k][k] >= 0); for
    // s16x2 the word of column k may change in its other half, which is not read
    for (int k = 0; k < M::TILE; ++k) {
        const int kw = k / Lane::L, lane = k % Lane::L;
        W b[M::MC];
#pragma unroll
        for (int h = 0; h < 2; ++h) load_words<M::HC>(b + h * M::HC, s + k * M::TW + M::col(tx, h));
#pragma unroll
        for (int r = 0; r < M::MR; ++r) {
            W* row = s + M::row(ty, r) * M::TW;
            const W a = Lane::splat(row[kw], lane);
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int c = 0; c < M::HC; ++c) {
                    W* x = row + M::col(tx, h) + c;
                    *x = Lane::addmin(a, b[h * M::HC + c], *x);
                }
        }
        __syncthreads();
    }
    copy_rows<Lane, M::TILE>(tile, ldw, s, M::TW, tid);
}

template <class Lane>
__device__ void fw_dpx_minplus(typename Lane::W* d, long long ldw, int kb, int phase) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
    constexpr int KW = KC / Lane::L;  // words of an A row per chunk
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
    __shared__ W sa[M::TILE][KC + 1];            // A(ci, kb) chunk, one splatted distance a word
    __shared__ __align__(16) W sb[KC * M::TW];   // B(kb, cj) chunk: k's x words
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * THREADS + tx;
    const W* a_tile = d + (long long)ci * M::TILE * ldw + (long long)kb * M::TW;
    const W* b_tile = d + (long long)kb * M::TILE * ldw + (long long)cj * M::TW;
    W* c_tile = d + (long long)ci * M::TILE * ldw + (long long)cj * M::TW;
    W acc[M::MR][M::MC];
#pragma unroll
    for (int r = 0; r < M::MR; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            load_words<M::HC>(acc[r] + h * M::HC, c_tile + M::row(ty, r) * ldw + M::col(tx, h));
    // Where Lane::PIPELINE, chunk k0 + KC is fetched (global memory to registers) before
    // chunk k0's add-mins and put (registers to shared memory) after them: software
    // pipelining, the loads' latency hidden behind the arithmetic. The other lanes copy
    // each chunk straight to shared memory before its add-mins (load_chunk): their
    // micro-tiles leave no registers for a chunk at 2 blocks an SM (s32 and f32 spilled,
    // and measured slower, at n = 8192).
    typedef typename Words<M::VEC, W>::V V;
    constexpr int PER_ROW = M::TW / M::VEC;                           // vectors of a B row
    constexpr int A_ITEMS = M::TILE * KW / (THREADS * THREADS);       // A words a thread moves
    constexpr int B_ITEMS = KC * PER_ROW / (THREADS * THREADS);       // B vectors a thread moves
    static_assert(A_ITEMS * THREADS * THREADS == M::TILE * KW, "A chunk split evenly");
    static_assert(B_ITEMS * THREADS * THREADS == KC * PER_ROW, "B chunk split evenly");
    W ra[A_ITEMS];
    V rb[B_ITEMS];
    auto fetch = [&](int k0) {
#pragma unroll
        for (int j = 0; j < A_ITEMS; ++j) {
            const int x = tid + j * THREADS * THREADS, i = x / KW, kw = x % KW;
            ra[j] = a_tile[i * ldw + k0 / Lane::L + kw];
        }
#pragma unroll
        for (int j = 0; j < B_ITEMS; ++j) {
            const int x = tid + j * THREADS * THREADS, r = x / PER_ROW, w = (x % PER_ROW) * M::VEC;
            rb[j] = *reinterpret_cast<const V*>(b_tile + (k0 + r) * ldw + w);
        }
    };
    auto put = [&]() {
#pragma unroll
        for (int j = 0; j < A_ITEMS; ++j) {
            const int x = tid + j * THREADS * THREADS, i = x / KW, kw = x % KW;
#pragma unroll
            for (int l = 0; l < Lane::L; ++l) sa[i][kw * Lane::L + l] = Lane::splat(ra[j], l);
        }
#pragma unroll
        for (int j = 0; j < B_ITEMS; ++j) {
            const int x = tid + j * THREADS * THREADS, r = x / PER_ROW, w = (x % PER_ROW) * M::VEC;
            *reinterpret_cast<V*>(sb + r * M::TW + w) = rb[j];
        }
    };
    auto load_chunk = [&](int k0) {
        for (int x = tid; x < M::TILE * KW; x += THREADS * THREADS) {
            const int i = x / KW, kw = x % KW;
            const W w = a_tile[i * ldw + k0 / Lane::L + kw];
#pragma unroll
            for (int l = 0; l < Lane::L; ++l) sa[i][kw * Lane::L + l] = Lane::splat(w, l);
        }
        load_rows<Lane, KC>(sb, b_tile + k0 * ldw, ldw, tid);
    };
    if (Lane::PIPELINE) {
        fetch(0);
        put();
        __syncthreads();
    }
    for (int k0 = 0; k0 < M::TILE; k0 += KC) {
        const bool more = k0 + KC < M::TILE;
        if (!Lane::PIPELINE) {
            load_chunk(k0);
            __syncthreads();
        } else if (more) {
            fetch(k0 + KC);
        }
#pragma unroll  // all KC steps: no loop counter or address arithmetic on the ALU pipe,
        for (int k = 0; k < KC; ++k) {  // which the add-mins saturate (Nsight Compute: 81%)
            W a[M::MR], b[M::MC];
#pragma unroll
            for (int r = 0; r < M::MR; ++r) a[r] = sa[M::row(ty, r)][k];
#pragma unroll
            for (int h = 0; h < 2; ++h) load_words<M::HC>(b + h * M::HC, sb + k * M::TW + M::col(tx, h));
#pragma unroll
            for (int r = 0; r < M::MR; ++r)
#pragma unroll
                for (int c = 0; c < M::MC; ++c) acc[r][c] = Lane::addmin(a[r], b[c], acc[r][c]);
        }
        __syncthreads();
        if (Lane::PIPELINE && more) {
            put();
            __syncthreads();
        }
    }
#pragma unroll
    for (int r = 0; r < M::MR; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            store_words<M::HC>(c_tile + M::row(ty, r) * ldw + M::col(tx, h), acc[r] + h * M::HC);
}

#define FW_DPX_KERNELS(SUFFIX, LANE)                                                          \
    __global__ void __launch_bounds__(THREADS * THREADS)                                      \
        fw_dpx_diagonal_##SUFFIX(LANE::W* d, long long ldw, int kb) {                         \
        fw_dpx_diagonal<LANE>(d, ldw, kb);                                                    \
    }                                                                                         \
    __global__ void __launch_bounds__(THREADS * THREADS, 2)                                   \
        fw_dpx_minplus_##SUFFIX(LANE::W* d, long long ldw, int kb, int phase) {               \
        fw_dpx_minplus<LANE>(d, ldw, kb, phase);                                              \
    }

FW_DPX_KERNELS(s16x2, LaneS16x2)
FW_DPX_KERNELS(s32, LaneS32)
FW_DPX_KERNELS(f32, LaneF32)
FW_DPX_KERNELS(i64, LaneI64)
FW_DPX_KERNELS(f64, LaneF64)
