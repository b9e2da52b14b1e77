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
//   i64:   int64, plain add;                    INF = 2^62 - 1, needs 2B < INF. TILE 64.
//   f64:   double, IEEE (inf + x = inf).                                          TILE 64.
// For s16x2/s32/i64 "no arc" is the finite sentinel INF: every stored value stays in
// [-B, INF] (no negative cycles; refused before the launch) so sums never overflow, and
// a pair without a path ends >= INF - B > B; the host maps values > B back to "no path".
// (For i64 a sentinel rather than INT64_MAX and a saturating add: that would cost two
// 64-bit tests and a select more per add-min on the ALU pipe, which is the limit; its
// select runs on the FMA pipe, see LaneI64.)
//
// Matrix: d, N x N (N a multiple of the lane's TILE, padded with INF rows/columns), ldw
// words per row (N / distances per word). Block (16, 16); thread (tx, ty) owns the tile
// rows ty*HR + r and TILE/2 + ty*HR + r (r < HR = TILE/32) and, in each half of the
// tile's TW words, the HC = TW/32 consecutive words from tx*HC: split halves keep the
// 8- or 16-byte vector accesses of a warp contiguous (no shared-memory bank conflicts).
//   fw_dpx_diagonal_<lane>(d, ldw, kb):        grid 1; closes tile (kb, kb) in place,
//                                              one k per step, each thread's micro-tile
//                                              in registers throughout (row k and column
//                                              k shared through two small buffers).
//   fw_dpx_minplus_<lane>(d, ldw, kb, phase):  phase 2: grid (nt, 2), tiles (kb, t)
//                                              (y = 0) and (t, kb) (y = 1) times the
//                                              closed diagonal tile; phase 3: grid
//                                              (nt, nt), every tile (i, j) off row and
//                                              column kb: C(i,j) = min(C, A(i,kb) B(kb,j)).
// The panels are streamed through shared memory in chunks of KC = 32 k's, the next chunk
// copied while the current one is computed: for s16x2 through registers (A's int16
// splatted to full words, so the inner loop does no unpacking; static shared memory),
// for the 32- and 64-bit lanes by cp.async into a second buffer (AsyncPanels' bytes of
// dynamic shared memory; their micro-tiles leave no registers for a chunk). In phase 2
// C is one of the panels, which is safe because every thread has read all chunks
// before any thread stores C.
#include "common.cuh"

#define THREADS 16
#define KC 32

struct LaneS16x2 {
    typedef unsigned int W;
    static constexpr int L = 2, TILE = 128;
    static constexpr bool PIPELINE = true;  // chunks through registers (fw_dpx_minplus)
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
    // c = min(a + b, c): the add (IADD3, IMAD.X) and the two-word compare (two ISETP)
    // as compiled, the select as two predicated IMADs (x * 1 + 0) on the FMA pipe
    // rather than two SELs on the ALU pipe, which the add-mins saturate. The 1 is
    // blockDim.z (every launch is 16 x 16 x 1), which ptxas cannot fold into a move.
    __device__ static W addmin(W a, W b, W c) {
        const W s = a + b;
        unsigned lo = static_cast<unsigned>(c), hi = static_cast<unsigned>(c >> 32);
        asm("{\n\t.reg .pred p;\n\t"
            "setp.lt.s64 p, %2, %3;\n\t"
            "@p mad.lo.u32 %0, %4, %6, 0;\n\t"
            "@p mad.lo.u32 %1, %5, %6, 0;\n\t}"
            : "+r"(lo), "+r"(hi)
            : "l"(s), "l"(c), "r"(static_cast<unsigned>(s)), "r"(static_cast<unsigned>(s >> 32)),
              "r"(blockDim.z));
        return static_cast<W>((static_cast<unsigned long long>(hi) << 32) | lo);
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

// move(registers, offset in the tile) for each run of HC words of the thread's
// micro-tile: its half h of row r, at offset M::row(ty, r) * ldw + M::col(tx, h)
template <class Lane, typename Move>
__device__ __forceinline__ void for_micro_runs(typename Lane::W (*acc)[Micro<Lane>::MC],
                                               long long ldw, int tx, int ty, Move move) {
    typedef Micro<Lane> M;
#pragma unroll
    for (int r = 0; r < M::MR; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h) move(acc[r] + h * M::HC, M::row(ty, r) * ldw + M::col(tx, h));
}

template <class Lane>
__device__ __forceinline__ void load_micro(typename Lane::W (*acc)[Micro<Lane>::MC],
                                           const typename Lane::W* c_tile, long long ldw,
                                           int tx, int ty) {
    for_micro_runs<Lane>(acc, ldw, tx, ty, [&](typename Lane::W* regs, long long at) {
        load_words<Micro<Lane>::HC>(regs, c_tile + at);
    });
}

template <class Lane>
__device__ __forceinline__ void store_micro(typename Lane::W* c_tile, long long ldw,
                                            typename Lane::W (*acc)[Micro<Lane>::MC],
                                            int tx, int ty) {
    for_micro_runs<Lane>(acc, ldw, tx, ty, [&](typename Lane::W* regs, long long at) {
        store_words<Micro<Lane>::HC>(c_tile + at, regs);
    });
}

// The diagonal tile, closed in registers: each thread keeps its micro-tile (as in the
// min-plus kernels) for all TILE steps; at step k the threads holding row k and column
// k publish them (as they stand after step k - 1) to one of two small shared buffers,
// one barrier, and every thread reads the row's and column's entries it needs. Row k
// and column k do not change in step k (d[k][k] >= 0), so the copies are exact; for
// s16x2 the published word of column k also holds column k ^ 1, which is not read.
template <class Lane>
__device__ void fw_dpx_diagonal(typename Lane::W* d, long long ldw, int kb) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
    __shared__ __align__(16) W row_k[2][M::TW];    // row k's words
    __shared__ __align__(16) W col_k[2][M::TILE];  // each row's word holding column k
    const int tx = threadIdx.x, ty = threadIdx.y;
    W* tile = d + (long long)kb * M::TILE * ldw + (long long)kb * M::TW;
    W acc[M::MR][M::MC];
    load_micro<Lane>(acc, tile, ldw, tx, ty);
#pragma unroll 1
    for (int k = 0; k < M::TILE; ++k) {
        const int kw = k / Lane::L, lane = k % Lane::L, buf = k & 1;
#pragma unroll
        for (int r = 0; r < M::MR; ++r)
            if (M::row(ty, r) == k)
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    store_words<M::HC>(&row_k[buf][M::col(tx, h)], acc[r] + h * M::HC);
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int c = 0; c < M::HC; ++c)
                if (M::col(tx, h) + c == kw)
#pragma unroll
                    for (int r = 0; r < M::MR; ++r) col_k[buf][M::row(ty, r)] = acc[r][h * M::HC + c];
        __syncthreads();  // the other buffer was last read before the previous barrier
        W a[M::MR], b[M::MC];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            load_words<M::HR>(a + h * M::HR, &col_k[buf][M::row(ty, h * M::HR)]);
            load_words<M::HC>(b + h * M::HC, &row_k[buf][M::col(tx, h)]);
        }
#pragma unroll
        for (int r = 0; r < M::MR; ++r) a[r] = Lane::splat(a[r], lane);
#pragma unroll
        for (int r = 0; r < M::MR; ++r)
#pragma unroll
            for (int c = 0; c < M::MC; ++c) acc[r][c] = Lane::addmin(a[r], b[c], acc[r][c]);
    }
    store_micro<Lane>(tile, ldw, acc, tx, ty);
}

// The tile (ci, cj) that block (blockIdx.x, blockIdx.y) updates through k-block kb, and
// its panels A(ci, kb) and B(kb, cj); false where the block has nothing to do.
template <class Lane>
__device__ __forceinline__ bool minplus_tile(int kb, int phase, int& ci, int& cj) {
    if (phase == 3) {
        ci = blockIdx.y;
        cj = blockIdx.x;
        return ci != kb && cj != kb;
    }
    ci = blockIdx.y == 0 ? kb : blockIdx.x;
    cj = blockIdx.y == 0 ? blockIdx.x : kb;
    return (int)blockIdx.x != kb;
}

// The KC add-min steps of one chunk: A from sa (row i at sa + i * lda, one distance a
// word), B from sb (KC rows of TW words). All KC steps unrolled: no loop counter or
// address arithmetic on the ALU pipe, which the add-mins saturate (Nsight Compute: 81%).
template <class Lane>
__device__ __forceinline__ void minplus_chunk(typename Lane::W (*acc)[Micro<Lane>::MC],
                                              const typename Lane::W* sa, int lda,
                                              const typename Lane::W* sb, int tx, int ty) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
#pragma unroll
    for (int k = 0; k < KC; ++k) {
        W a[M::MR], b[M::MC];
#pragma unroll
        for (int r = 0; r < M::MR; ++r) a[r] = sa[M::row(ty, r) * lda + k];
#pragma unroll
        for (int h = 0; h < 2; ++h) load_words<M::HC>(b + h * M::HC, sb + k * M::TW + M::col(tx, h));
#pragma unroll
        for (int r = 0; r < M::MR; ++r)
#pragma unroll
            for (int c = 0; c < M::MC; ++c) acc[r][c] = Lane::addmin(a[r], b[c], acc[r][c]);
    }
}

// s16x2: chunk k0 + KC is fetched (global memory to registers) before chunk k0's
// add-mins and put (registers to shared memory, each int16 of A splatted to a word)
// after them: software pipelining in registers, static shared memory.
template <class Lane>
__device__ void fw_dpx_minplus_registers(typename Lane::W* d, long long ldw, int kb, int phase) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
    constexpr int KW = KC / Lane::L;  // words of an A row per chunk
    int ci, cj;
    if (!minplus_tile<Lane>(kb, phase, ci, cj)) return;
    __shared__ W sa[M::TILE][KC + 1];            // A(ci, kb) chunk, one splatted distance a word
    __shared__ __align__(16) W sb[KC * M::TW];   // B(kb, cj) chunk: k's x words
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * THREADS + tx;
    const W* a_tile = d + (long long)ci * M::TILE * ldw + (long long)kb * M::TW;
    const W* b_tile = d + (long long)kb * M::TILE * ldw + (long long)cj * M::TW;
    W* c_tile = d + (long long)ci * M::TILE * ldw + (long long)cj * M::TW;
    W acc[M::MR][M::MC];
    load_micro<Lane>(acc, c_tile, ldw, tx, ty);
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
    fetch(0);
    put();
    __syncthreads();
    for (int k0 = 0; k0 < M::TILE; k0 += KC) {
        const bool more = k0 + KC < M::TILE;
        if (more) fetch(k0 + KC);
        minplus_chunk<Lane>(acc, &sa[0][0], KC + 1, sb, tx, ty);
        __syncthreads();
        if (more) {
            put();
            __syncthreads();
        }
    }
    store_micro<Lane>(c_tile, ldw, acc, tx, ty);
}

// One 16-byte global -> shared copy that runs beside the thread's later instructions
// (Ampere's cp.async, bypassing L1), its group committed and awaited as below.
__device__ __forceinline__ void copy_async16(void* dst, const void* src) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src));
}
__device__ __forceinline__ void commit_async() { asm volatile("cp.async.commit_group;\n" ::); }
template <int PENDING>
__device__ __forceinline__ void wait_async() { asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING)); }

// Words of padding after each A row in shared memory: 16 bytes, so rows stay 16-byte
// aligned for cp.async and the rows a warp reads at one k (HR apart) fall in other banks
template <class Lane> struct AsyncPanels {
    typedef typename Lane::W W;
    static constexpr int LDA = KC + 16 / sizeof(W);
    static constexpr int A_WORDS = Micro<Lane>::TILE * LDA, B_WORDS = KC * Micro<Lane>::TW;
    static constexpr int BYTES = 2 * (A_WORDS + B_WORDS) * sizeof(W);  // two buffers
};

// The 32- and 64-bit lanes (no splatting): chunks go straight from global to shared
// memory by cp.async into two buffers, chunk k0 + KC copied while chunk k0's add-mins
// run, the micro-tile keeping every register (a register pipeline spilled at 2 blocks
// an SM). Dynamic shared memory: AsyncPanels<Lane>::BYTES.
template <class Lane>
__device__ void fw_dpx_minplus_async(typename Lane::W* d, long long ldw, int kb, int phase) {
    typedef typename Lane::W W;
    typedef Micro<Lane> M;
    typedef AsyncPanels<Lane> P;
    static_assert(Lane::L == 1, "cp.async copies distances as stored");
    int ci, cj;
    if (!minplus_tile<Lane>(kb, phase, ci, cj)) return;
    extern __shared__ __align__(16) unsigned char smem[];
    W* sa = reinterpret_cast<W*>(smem);  // [2][TILE][LDA]
    W* sb = sa + 2 * P::A_WORDS;         // [2][KC][TW]
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * THREADS + tx;
    const W* a_tile = d + (long long)ci * M::TILE * ldw + (long long)kb * M::TW;
    const W* b_tile = d + (long long)kb * M::TILE * ldw + (long long)cj * M::TW;
    W* c_tile = d + (long long)ci * M::TILE * ldw + (long long)cj * M::TW;
    constexpr int A_PER_ROW = KC / M::VEC, B_PER_ROW = M::TW / M::VEC;
    constexpr int A_ITEMS = M::TILE * A_PER_ROW / (THREADS * THREADS);
    constexpr int B_ITEMS = KC * B_PER_ROW / (THREADS * THREADS);
    static_assert(A_ITEMS * THREADS * THREADS == M::TILE * A_PER_ROW, "A chunk split evenly");
    static_assert(B_ITEMS * THREADS * THREADS == KC * B_PER_ROW, "B chunk split evenly");
    static_assert(THREADS * THREADS % A_PER_ROW == 0 && THREADS * THREADS % B_PER_ROW == 0, "rows");
    // each thread's copies are one row apart per item (THREADS^2 / PER_ROW rows): one
    // pointer a panel, stepped, so that no per-item address stays live across the add-mins
    const long long a_first = (long long)(tid / A_PER_ROW) * ldw + (tid % A_PER_ROW) * M::VEC;
    const long long b_first = (long long)(tid / B_PER_ROW) * ldw + (tid % B_PER_ROW) * M::VEC;
    const int a_shared = (tid / A_PER_ROW) * P::LDA + (tid % A_PER_ROW) * M::VEC;
    const int b_shared = (tid / B_PER_ROW) * M::TW + (tid % B_PER_ROW) * M::VEC;
    auto issue = [&](int k0, int buf) {
        const W* ga = a_tile + a_first + k0;
        const W* gb = b_tile + b_first + k0 * ldw;
        W* a = sa + buf * P::A_WORDS + a_shared;
        W* b = sb + buf * P::B_WORDS + b_shared;
#pragma unroll
        for (int j = 0; j < A_ITEMS; ++j) {
            copy_async16(a + j * (THREADS * THREADS / A_PER_ROW) * P::LDA, ga);
            ga += (THREADS * THREADS / A_PER_ROW) * ldw;
        }
#pragma unroll
        for (int j = 0; j < B_ITEMS; ++j) {
            copy_async16(b + j * (THREADS * THREADS / B_PER_ROW) * M::TW, gb);
            gb += (THREADS * THREADS / B_PER_ROW) * ldw;
        }
        commit_async();
    };
    issue(0, 0);
    W acc[M::MR][M::MC];
    load_micro<Lane>(acc, c_tile, ldw, tx, ty);
    constexpr int CHUNKS = M::TILE / KC;
#pragma unroll 1
    for (int c = 0; c < CHUNKS; ++c) {
        if (c + 1 < CHUNKS) {  // the other buffer was last read before the previous barrier
            issue((c + 1) * KC, (c + 1) & 1);
            wait_async<1>();
        } else {
            wait_async<0>();
        }
        __syncthreads();  // chunk c in shared memory, every thread's copies included
        minplus_chunk<Lane>(acc, sa + (c & 1) * P::A_WORDS, P::LDA, sb + (c & 1) * P::B_WORDS,
                            tx, ty);
        __syncthreads();  // before chunk c + 2 overwrites this buffer
    }
    // phase 2: C may be panel A itself; every thread has passed the barrier after the
    // last chunk's add-mins, so every copy out of it is done before any store
    store_micro<Lane>(c_tile, ldw, acc, tx, ty);
}

template <class Lane>
__device__ __forceinline__ void fw_dpx_minplus(typename Lane::W* d, long long ldw, int kb,
                                               int phase) {
    if constexpr (Lane::PIPELINE) {
        fw_dpx_minplus_registers<Lane>(d, ldw, kb, phase);
    } else {
        fw_dpx_minplus_async<Lane>(d, ldw, kb, phase);
    }
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
