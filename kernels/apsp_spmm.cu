// Batched multi-source Bellman-Ford as a min-plus SpMM ("batched-spmm", the all-pairs
// default): the SpMV Bellman-Ford of kernels/spmv.cu (CUDA SSSP paper, zh, "SpMV
// Bellman-Ford": a pull over the rows of the transposed adjacency matrix) with the
// distance vector widened to a block of B sources. Our own variant, beyond the papers.
//
// Layout: dist is vertex-major, n x B (row v = v's distance from each of the B sources,
// B a multiple of CHUNK = 32 * VEC, VEC = 16 / sizeof(T)), so pulling over an in-arc
// (u, v) reads u's row as one 16-byte vector per lane, coalesced, and each arc is read
// once per CHUNK sources instead of once per source. Warp w owns (v, c) = (w / chunks,
// w % chunks): CHUNK columns of row v, and is the only writer of them (no atomics).
//
// Work tracking: stamp[u * chunks + c] = the last round that lowered chunk c of row u
// (-1 never; 0 for the sources' own entries). In round r, warp (v, c) pulls only over
// in-arcs whose tail has stamp >= r - 1. That is enough: a tail last lowered in round t
// had stamp t during round t + 1 (a later launch, so its writes were visible), and was
// pulled then. Reads of other warps' rows in the same launch may be older or newer
// (values only decrease and are always walk lengths), which only changes how soon the
// rounds converge. A round that lowers nothing ends the run (changed[slot] stays 0).
//
// Arguments: reverse CSR (rindptr[n+1] int64, rindices[m] int32 = tails, rweights[m] T);
// n; chunks = B / CHUNK; dist[n * B] T (DistTraits<T>::inf() = unreached); stamp[n *
// chunks] int32; round; changed[1] int32 (set to 1 by any warp that lowers a value).
// Launch: 1-D grid-stride over warps (block a multiple of 32).
//
// tight_batch_predecessors (positive weights only, after convergence): pred[v * B + s]
// = a tail u of an in-arc with dist[u][s] < dist[v][s] and dist[u][s] + w ==
// dist[v][s], -1 where there is none (the sources themselves and unreached entries).
// Each pointer strictly lowers the distance, so the predecessors of each source form a
// forest; with exact arithmetic and every weight > 0 every reached vertex gets one. A
// float weight too small to change a sum can leave a reached vertex without one: the
// caller finds those rows and builds their trees from the distances.
#include "common.cuh"

namespace {

constexpr unsigned FULL = 0xffffffffu;

template <typename T> struct alignas(16) Lanes {
    static constexpr int VEC = 16 / sizeof(T);
    T x[VEC];
};

// This lane's VEC entries of chunk c of row v.
template <typename T>
__device__ __forceinline__ long long lane_offset(long long v, int c, int chunks) {
    constexpr int chunk = 32 * Lanes<T>::VEC;
    return (v * chunks + c) * chunk + (threadIdx.x & 31) * Lanes<T>::VEC;
}

template <typename T> __device__ __forceinline__ Lanes<T> load_lanes(const T* p) {
    return *reinterpret_cast<const Lanes<T>*>(p);
}

// Visit the in-arcs of v, 32 at a time, whose tail passes keep(u) (warp-uniform loop);
// visit(u, w) runs on every lane for each kept arc, in arc order.
template <typename T, typename Keep, typename Visit>
__device__ __forceinline__ void for_kept_in_arcs(const long long* __restrict__ rindptr,
                                                 const int* __restrict__ rindices,
                                                 const T* __restrict__ rweights, long long v,
                                                 Keep keep, Visit visit) {
    const int lane = threadIdx.x & 31;
    const long long end = rindptr[v + 1];
    for (long long base = rindptr[v]; base < end; base += 32) {
        const long long e = base + lane;
        int u = 0;
        T w = 0;
        bool kept = false;
        if (e < end) {
            u = rindices[e];
            kept = keep(u);
            if (kept) w = rweights[e];
        }
        for (unsigned mask = __ballot_sync(FULL, kept); mask; mask &= mask - 1) {
            const int src = __ffs(mask) - 1;
            visit(__shfl_sync(FULL, u, src), __shfl_sync(FULL, w, src));
        }
    }
}

// body(v, c) for every (vertex, chunk) pair, one warp each (grid-stride over warps;
// warp-uniform, as the pair is).
template <typename Body>
__device__ __forceinline__ void for_each_row_chunk(int n, int chunks, Body body) {
    const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
    const long long total = static_cast<long long>(n) * chunks;
    for (long long wid = global_thread_id() / 32; wid < total; wid += warps) {
        body(wid / chunks, static_cast<int>(wid % chunks));
    }
}

}  // namespace

template <typename T>
__global__ void relax_batch_pull(const long long* __restrict__ rindptr,
                                 const int* __restrict__ rindices,
                                 const T* __restrict__ rweights, int n, int chunks, T* dist,
                                 int* stamp, int round, int* changed) {
    using L = Lanes<T>;
    for_each_row_chunk(n, chunks, [&](long long v, int c) {
        T* own = dist + lane_offset<T>(v, c, chunks);
        L best;
        bool loaded = false, lowered = false;
        for_kept_in_arcs<T>(
            rindptr, rindices, rweights, v,
            [&](int u) { return stamp[static_cast<long long>(u) * chunks + c] >= round - 1; },
            [&](int u, T w) {
                if (!loaded) {  // warp-uniform: every lane visits the same arcs
                    best = load_lanes(own);
                    loaded = true;
                }
                const L du = load_lanes(dist + lane_offset<T>(u, c, chunks));
#pragma unroll
                for (int i = 0; i < L::VEC; ++i) {
                    const T cand = add_saturating(du.x[i], w);
                    if (cand < best.x[i]) {
                        best.x[i] = cand;
                        lowered = true;
                    }
                }
            });
        if (lowered) *reinterpret_cast<L*>(own) = best;
        if (__any_sync(FULL, lowered) && (threadIdx.x & 31) == 0) {
            stamp[v * chunks + c] = round;
            *changed = 1;
        }
    });
}

template <typename T>
__global__ void tight_batch_predecessors(const long long* __restrict__ rindptr,
                                         const int* __restrict__ rindices,
                                         const T* __restrict__ rweights, int n, int chunks,
                                         const T* __restrict__ dist, int* pred) {
    using L = Lanes<T>;
    for_each_row_chunk(n, chunks, [&](long long v, int c) {
        const long long at = lane_offset<T>(v, c, chunks);
        const L dv = load_lanes(dist + at);
        int p[L::VEC];
#pragma unroll
        for (int i = 0; i < L::VEC; ++i) p[i] = -1;
        for_kept_in_arcs<T>(
            rindptr, rindices, rweights, v, [](int) { return true; },
            [&](int u, T w) {
                const L du = load_lanes(dist + lane_offset<T>(u, c, chunks));
#pragma unroll
                for (int i = 0; i < L::VEC; ++i) {
                    if (p[i] < 0 && dv.x[i] != DistTraits<T>::inf() && du.x[i] < dv.x[i] &&
                        add_saturating(du.x[i], w) == dv.x[i]) {
                        p[i] = u;
                    }
                }
            });
#pragma unroll
        for (int i = 0; i < L::VEC; ++i) pred[at + i] = p[i];
    });
}
