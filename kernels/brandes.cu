// Brandes' betweenness (U. Brandes, "A Faster Algorithm for Betweenness Centrality",
// J. Math. Sociology 2001; the subset and edge variants of "On Variants of
// Shortest-Path Betweenness Centrality", Social Networks 2008), many sources a batch:
// path counts sigma in non-decreasing distance, dependencies delta in reverse.
//
// Hop counts (brandes_levels_*): a vertex-major n x width block, entry i = v * width + s
// (the `width` sources of a batch side by side per vertex, width a multiple of 32, so a
// warp holds 32 sources of one vertex and reads each arc once for them; a padding
// column has no source and stays unreached). One launch per BFS level, 1-D grid-stride
// over the n * width entries, 256 threads a block:
//  * brandes_levels_forward: each entry at `level` pushes its sigma along its out-arcs
//    to the heads that are unreached or at level + 1 (atomicAdd), marks them level + 1,
//    counts their tight in-arcs in npred (track_npred; 2: none from the source, see
//    load below) and sets *more.
//  * brandes_levels_backward: each entry at `level` sums, over the out-arcs to heads at
//    level + 1, the dependency share c of the head (see share()), into delta.
//  * brandes_levels_arcs: after the backward pass, a thread per arc (v, w) adds its
//    shares to arc_sum[arc] over the batch's sources in order (those where w is one
//    level beyond v).
// Weights (brandes_row_order, brandes_ordered_*): a source-major count x n block
// (entry s * n + v), a batch of all-pairs rows.
//  * brandes_row_order: a block per row sorts the row's reached vertices (distance not
//    DistTraits<T>::inf()) by distance into order[s * n ...], reached[s] of them: a
//    counting sort into `capacity` buckets in shared memory (counts, a block-wide
//    exclusive scan, a scatter by shared atomicAdd). Integer distances spanning at most
//    `capacity` values get a bucket each; other rows (floats, wide integer ranges) are
//    scaled into the buckets from the row's least and largest distance, and each bucket
//    then sorted by insertion, by its owner thread; a bucket over
//    BRANDES_BUCKET_SORT_MAX vertices sets *overflow instead (the host then sorts the
//    batch otherwise). Ties come in no fixed order, which changes no sum below.
//  * brandes_ordered_forward / _backward: a WARP per source walks the row in that
//    order, 32 positions a step, lane i the vertex at position a + i (backward: b - i).
//    The forward pass sums sigma over the tight in-arcs (dist[u] + w == dist[v], the
//    comparison NetworkX's Dijkstra makes) of the reverse CSR, and counts them in npred
//    (track_npred; 2: npred 0 where one comes from the source); the backward pass the
//    shares over the tight out-arcs, in reverse order. A step keeps the lanes before the
//    first one that has a tight arc to a vertex not known final, that is (forward) a
//    tight tail u with dist[u] >= the distance of position a, (backward) a tight head w
//    with dist[w] <= the distance of position b; the rest are read again the next step.
//    The row is sorted, so every vertex nearer than position a sits before it (and every
//    one farther than position b after it): a kept lane reads only values of earlier
//    steps (__syncwarp between steps). Lane 0 is always kept: weights are positive and no
//    sum absorbs an arc (the caller checks), so a tight tail is strictly nearer. The test
//    is the tightness comparison itself, so float distances need no window bound. Each
//    vertex's sum runs over its own arcs in CSR order, so sigma and delta do not depend
//    on the steps taken (nor on the order of ties): the same as one thread per source.
//    Sums of shares add with __dadd_rn (never fused into a multiply-add), as the twin.
//  * brandes_ordered_arcs: after the backward pass, a thread per arc adds its shares to
//    arc_sum[arc] over the batch's sources in row order.
//  * brandes_add_in_order: acc[v] += block[s][v] for s = 0, 1, ... in order, a thread
//    per vertex (the batch's dependencies into the sums over every source).
// Every sum over sources (arc_sum, acc) adds one source after another onto the total so
// far, with no atomics: the same bits run after run, however the sources are cut into
// batches (a batch's size follows the free device memory).
// Shares (mode): 0 Brandes: sigma[v] * ((1 + delta[w]) / sigma[w]); 1 subset:
// sigma[v] * ((delta[w] + 1) / sigma[w]) for a target w, else sigma[v] * (delta[w] /
// sigma[w]); 2 edge subset: (sigma[v] / sigma[w]) * (1 + delta[w]) for a target w, else
// delta[w] / npred[w] (NetworkX's betweenness_subset formulas, operation for operation);
// 3 load: (1 + delta[w]) / npred[w], 0 where npred[w] is 0. Load is Newman's variant
// (M. E. J. Newman, "Scientific collaboration networks. II. Shortest paths, weighted
// networks, and centrality", Phys. Rev. E 64, 016132, 2001; K.-I. Goh, B. Kahng and
// D. Kim, Phys. Rev. Lett. 87, 278701, 2001) as NetworkX's load_centrality computes it:
// every reached vertex starts with a load of 1 and hands it, plus what it received, in
// equal parts to its shortest-path predecessors (npred of them), except a vertex with
// a tight arc from the source, which hands on nothing (NetworkX's loop over the
// predecessor list stops at the source, which that list holds first); the forward
// passes with track_npred 2 store npred 0 for such a vertex. delta is the load received.
// Arguments: CSR indptr[n+1] int64, indices[m] int32, weights[m] T; dist int32 levels
// (INT32_MAX unreached) or T distances (DistTraits<T>::inf() unreached); order int32;
// reached int64[count]; sigma, delta float64; npred int32; target uint8[n]; arc_sum
// float64[m]. Launch: the level kernels, brandes_*_arcs and brandes_add_in_order
// grid-stride over their entries, arcs or vertices; brandes_ordered_* a warp per source (grid-stride over warps); brandes_row_order
// a block of BRANDES_ORDER_THREADS per row, capacity * 4 bytes of dynamic shared memory.
#include "common.cuh"
#include "block_scan.cuh"

#define BRANDES_FULL_MASK 0xffffffffu
#define BRANDES_UNSEEN 0x7fffffff
#define BRANDES_ORDER_THREADS 1024  // ops/brandes.py: ROW_ORDER_BLOCK
#define BRANDES_BUCKET_SORT_MAX 128  // the most vertices a bucket sorted by insertion holds

__device__ __forceinline__ double brandes_share(int mode, double sv, double sw, double dw,
                                                bool target, int npred) {
    if (mode == 0) return sv * ((1.0 + dw) / sw);
    if (mode == 1) return target ? sv * ((dw + 1.0) / sw) : sv * (dw / sw);
    if (mode == 3) return npred > 0 ? (1.0 + dw) / npred : 0.0;
    return target ? (sv / sw) * (1.0 + dw) : dw / npred;
}

// Whether the share reads target[w] (the subset modes) and npred[w] (edge subset, load).
__device__ __forceinline__ bool brandes_reads_target(int mode) {
    return mode == 1 || mode == 2;
}

__device__ __forceinline__ bool brandes_reads_npred(int mode) {
    return mode == 2 || mode == 3;
}

// The tail v of arc e: indptr[v] <= e < indptr[v + 1] (a binary search).
__device__ __forceinline__ int brandes_arc_tail(const long long* __restrict__ indptr, int n,
                                                long long e) {
    return static_cast<int>(upper_bound(indptr + 1, n, e));
}

__global__ void brandes_levels_forward(const long long* __restrict__ indptr,
                                       const int* __restrict__ indices, int n, int width,
                                       int level, int* dist, double* sigma, int* npred,
                                       int track_npred, int* more) {
    const long long total = static_cast<long long>(n) * width;
    for (long long i = global_thread_id(); i < total; i += grid_stride()) {
        if (dist[i] != level) continue;
        const long long v = i / width, s = i % width;
        const double sv = sigma[i];
        bool pushed = false;
        for (long long e = indptr[v]; e < indptr[v + 1]; ++e) {
            const long long j = static_cast<long long>(indices[e]) * width + s;
            const int d = dist[j];
            if (d != BRANDES_UNSEEN && d != level + 1) continue;
            if (d == BRANDES_UNSEEN) dist[j] = level + 1;  // every writer writes the same
            atomicAdd(&sigma[j], sv);
            if (track_npred && (track_npred == 1 || level)) atomicAdd(&npred[j], 1);
            pushed = true;
        }
        if (pushed) *more = 1;
    }
}

__global__ void brandes_levels_backward(const long long* __restrict__ indptr,
                                        const int* __restrict__ indices, int n, int width,
                                        int level, const int* __restrict__ dist,
                                        const double* __restrict__ sigma, double* delta,
                                        int mode, const unsigned char* __restrict__ target,
                                        const int* __restrict__ npred) {
    const long long total = static_cast<long long>(n) * width;  // a multiple of 32
    for (long long i = global_thread_id(); i < total; i += grid_stride()) {
        const bool active = dist[i] == level;
        if (!__any_sync(BRANDES_FULL_MASK, active)) continue;  // the warp: one vertex
        const long long v = i / width, s = i % width;
        const double sv = active ? sigma[i] : 0.0;
        double acc = 0.0;
        for (long long e = indptr[v]; e < indptr[v + 1]; ++e) {
            const int w = indices[e];
            const long long j = static_cast<long long>(w) * width + s;
            double c = 0.0;
            if (active && dist[j] == level + 1)
                c = brandes_share(mode, sv, sigma[j], delta[j],
                                  brandes_reads_target(mode) && target[w],
                                  brandes_reads_npred(mode) ? npred[j] : 1);
            acc += c;
        }
        if (active) delta[i] = acc;
    }
}

__global__ void brandes_levels_arcs(const long long* __restrict__ indptr,
                                    const int* __restrict__ indices, int n, long long m,
                                    int width, int count, const int* __restrict__ dist,
                                    const double* __restrict__ sigma,
                                    const double* __restrict__ delta, int mode,
                                    const unsigned char* __restrict__ target,
                                    const int* __restrict__ npred, double* arc_sum) {
    for (long long e = global_thread_id(); e < m; e += grid_stride()) {
        const long long v = brandes_arc_tail(indptr, n, e), w = indices[e];
        const bool to_target = brandes_reads_target(mode) && target[w];
        double acc = arc_sum[e];
        for (int s = 0; s < count; ++s) {
            const long long i = v * width + s, j = w * width + s;
            const int dv = dist[i];
            if (dv == BRANDES_UNSEEN || dist[j] != dv + 1) continue;
            acc = __dadd_rn(acc, brandes_share(mode, sigma[i], sigma[j], delta[j], to_target,
                                               brandes_reads_npred(mode) ? npred[j] : 1));
        }
        arc_sum[e] = acc;
    }
}

__global__ void brandes_add_in_order(const double* __restrict__ block, int count,
                                     long long n, long long row_stride,
                                     long long col_stride, double* acc) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        double a = acc[v];
        for (int s = 0; s < count; ++s) a = __dadd_rn(a, block[s * row_stride + v * col_stride]);
        acc[v] = a;
    }
}

template <typename T> struct BrandesIntegral { static constexpr bool value = false; };
template <> struct BrandesIntegral<long long> { static constexpr bool value = true; };
template <> struct BrandesIntegral<int> { static constexpr bool value = true; };

// The block's least and largest of (lo, hi) (every thread gets them).
template <typename T>
__device__ __forceinline__ void brandes_block_range(T& lo, T& hi, T* s_lo, T* s_hi) {
#pragma unroll
    for (int off = 16; off; off >>= 1) {
        lo = min(lo, __shfl_down_sync(BRANDES_FULL_MASK, lo, off));
        hi = max(hi, __shfl_down_sync(BRANDES_FULL_MASK, hi, off));
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        s_lo[warp] = lo;
        s_hi[warp] = hi;
    }
    __syncthreads();
    lo = s_lo[0];
    hi = s_hi[0];
    for (int i = 1; i < BRANDES_ORDER_THREADS / 32; ++i) {
        lo = min(lo, s_lo[i]);
        hi = max(hi, s_hi[i]);
    }
    __syncthreads();
}

// The bucket of distance x: x - lo where the row's distances span at most `buckets`
// integers (exact), else (x - lo) scaled to [0, buckets) (non-decreasing in x).
template <typename T>
__device__ __forceinline__ int brandes_bucket(T x, T lo, bool exact, double scale,
                                              int buckets) {
    if (exact) return static_cast<int>(x - lo);
    return min(static_cast<int>(static_cast<double>(x - lo) * scale), buckets - 1);
}

template <typename T>
__global__ void __launch_bounds__(BRANDES_ORDER_THREADS)
brandes_row_order(const T* __restrict__ dist, int n, int count, int capacity, int* order,
                  long long* reached, int* overflow) {
    extern __shared__ unsigned int bucket[];  // counts, then offsets
    __shared__ unsigned int warp_sum[BRANDES_ORDER_THREADS / 32];
    __shared__ T s_lo[BRANDES_ORDER_THREADS / 32], s_hi[BRANDES_ORDER_THREADS / 32];
    __shared__ int crowded;
    const T inf = DistTraits<T>::inf();
    for (long long s = blockIdx.x; s < count; s += gridDim.x) {
        const T* d = dist + s * n;
        int* o = order + s * n;
        T lo = inf, hi = T(0);
        for (int v = threadIdx.x; v < n; v += BRANDES_ORDER_THREADS) {
            const T x = d[v];
            if (x != inf) {
                lo = min(lo, x);
                hi = max(hi, x);
            }
        }
        if (threadIdx.x == 0) crowded = 0;
        brandes_block_range(lo, hi, s_lo, s_hi);
        if (lo == inf) {  // nothing reached (a row without its source)
            if (threadIdx.x == 0) reached[s] = 0;
            continue;
        }
        const bool exact = BrandesIntegral<T>::value && hi - lo < static_cast<T>(capacity);
        const int buckets = exact ? static_cast<int>(hi - lo) + 1 : capacity;
        const double scale = hi > lo ? (capacity - 1) / static_cast<double>(hi - lo) : 0.0;
        const int per = (buckets + BRANDES_ORDER_THREADS - 1) / BRANDES_ORDER_THREADS;
        const int first = min(static_cast<int>(threadIdx.x) * per, buckets);
        const int last = min(first + per, buckets);
        for (int i = threadIdx.x; i < buckets; i += BRANDES_ORDER_THREADS) bucket[i] = 0;
        __syncthreads();
        for (int v = threadIdx.x; v < n; v += BRANDES_ORDER_THREADS) {
            const T x = d[v];
            if (x != inf) atomicAdd(&bucket[brandes_bucket(x, lo, exact, scale, buckets)], 1u);
        }
        __syncthreads();
        // exclusive scan: this thread's buckets [first, last), then the threads in order
        unsigned int mine = 0, widest = 0;
        for (int i = first; i < last; ++i) {
            mine += bucket[i];
            widest = max(widest, bucket[i]);
        }
        if (!exact && widest > BRANDES_BUCKET_SORT_MAX) crowded = 1;
        unsigned int run =
            block_inclusive_scan<BRANDES_ORDER_THREADS / 32>(mine, warp_sum) - mine;
        for (int i = first; i < last; ++i) {
            const unsigned int c = bucket[i];
            bucket[i] = run;
            run += c;
        }
        if (threadIdx.x == BRANDES_ORDER_THREADS - 1) reached[s] = run;  // last == buckets
        if (crowded) {  // a bucket too full to sort by insertion: the host sorts the batch
            if (threadIdx.x == 0) *overflow = 1;
            __syncthreads();
            continue;
        }
        __syncthreads();
        for (int v = threadIdx.x; v < n; v += BRANDES_ORDER_THREADS) {
            const T x = d[v];
            if (x != inf)
                o[atomicAdd(&bucket[brandes_bucket(x, lo, exact, scale, buckets)], 1u)] = v;
        }
        __syncthreads();
        if (!exact) {  // bucket i now ends at bucket[i]: sort it by distance, by insertion
            for (int i = first; i < last; ++i) {
                const int start = i ? static_cast<int>(bucket[i - 1]) : 0;
                const int end = static_cast<int>(bucket[i]);
                for (int j = start + 1; j < end; ++j) {
                    const int v = o[j];
                    const T x = d[v];
                    int k = j - 1;
                    for (; k >= start && d[o[k]] > x; --k) o[k + 1] = o[k];
                    o[k + 1] = v;
                }
            }
        }
        __syncthreads();
    }
}

template <typename T>
__global__ void brandes_ordered_forward(const long long* __restrict__ rindptr,
                                        const int* __restrict__ rindices,
                                        const T* __restrict__ rweights, int n, int count,
                                        const long long* __restrict__ sources,
                                        const T* __restrict__ dist,
                                        const int* __restrict__ order,
                                        const long long* __restrict__ reached, double* sigma,
                                        int* npred, int track_npred) {
    const T inf = DistTraits<T>::inf();
    const int lane = threadIdx.x & 31;
    const long long warps = grid_stride() >> 5;
    for (long long s = global_thread_id() >> 5; s < count; s += warps) {  // warp-uniform
        const long long row = s * n, r = reached[s], src = sources[s];
        const T* d = dist + row;
        double* sg = sigma + row;
        for (long long a = 0; a < r;) {
            const bool live = a + lane < r;
            const int v = live ? order[row + a + lane] : 0;
            const T dv = live ? d[v] : T(0);
            const T da = __shfl_sync(BRANDES_FULL_MASK, dv, 0);
            double sv = 0.0;
            int k = 0;
            bool blocked = false, from_source = false;
            if (live && v == src) {
                sv = 1.0;
            } else if (live) {
                for (long long e = rindptr[v]; e < rindptr[v + 1]; ++e) {
                    const int u = rindices[e];
                    const T du = d[u];
                    if (du == inf || du + rweights[e] != dv) continue;
                    if (lane && du >= da) {  // u may be in this step or later
                        blocked = true;
                        break;
                    }
                    sv += sg[u];
                    ++k;
                    from_source |= u == src;
                }
            }
            const unsigned int stop = __ballot_sync(BRANDES_FULL_MASK, blocked);
            const long long take = min(static_cast<long long>(stop ? __ffs(stop) - 1 : 32), r - a);
            if (lane < take) {
                sg[v] = sv;
                if (track_npred) npred[row + v] = track_npred == 2 && from_source ? 0 : k;
            }
            a += take;
            __syncwarp();
        }
    }
}

template <typename T>
__global__ void brandes_ordered_backward(const long long* __restrict__ indptr,
                                         const int* __restrict__ indices,
                                         const T* __restrict__ weights, int n, int count,
                                         const T* __restrict__ dist,
                                         const int* __restrict__ order,
                                         const long long* __restrict__ reached,
                                         const double* __restrict__ sigma, double* delta,
                                         int mode, const unsigned char* __restrict__ target,
                                         const int* __restrict__ npred) {
    const int lane = threadIdx.x & 31;
    const long long warps = grid_stride() >> 5;
    for (long long s = global_thread_id() >> 5; s < count; s += warps) {  // warp-uniform
        const long long row = s * n;
        const T* d = dist + row;
        const double* sg = sigma + row;
        double* dl = delta + row;
        for (long long b = reached[s] - 1; b >= 0;) {
            const bool live = b - lane >= 0;
            const int v = live ? order[row + b - lane] : 0;
            const T dv = live ? d[v] : T(0);
            const T db = __shfl_sync(BRANDES_FULL_MASK, dv, 0);
            double acc = 0.0;
            bool blocked = false;
            if (live) {
                const double sv = sg[v];
                for (long long e = indptr[v]; e < indptr[v + 1]; ++e) {
                    const int w = indices[e];
                    const T dw = d[w];
                    if (dv + weights[e] != dw) continue;
                    if (lane && dw <= db) {  // w may be in this step or later
                        blocked = true;
                        break;
                    }
                    acc = __dadd_rn(acc, brandes_share(
                        mode, sv, sg[w], dl[w], brandes_reads_target(mode) && target[w],
                        brandes_reads_npred(mode) ? npred[row + w] : 1));
                }
            }
            const unsigned int stop = __ballot_sync(BRANDES_FULL_MASK, blocked);
            const long long take = min(static_cast<long long>(stop ? __ffs(stop) - 1 : 32), b + 1);
            if (lane < take) dl[v] = acc;
            b -= take;
            __syncwarp();
        }
    }
}

template <typename T>
__global__ void brandes_ordered_arcs(const long long* __restrict__ indptr,
                                     const int* __restrict__ indices,
                                     const T* __restrict__ weights, int n, long long m,
                                     int count, const T* __restrict__ dist,
                                     const double* __restrict__ sigma,
                                     const double* __restrict__ delta, int mode,
                                     const unsigned char* __restrict__ target,
                                     const int* __restrict__ npred, double* arc_sum) {
    const T inf = DistTraits<T>::inf();
    for (long long e = global_thread_id(); e < m; e += grid_stride()) {
        const int v = brandes_arc_tail(indptr, n, e), w = indices[e];
        const T we = weights[e];
        const bool to_target = brandes_reads_target(mode) && target[w];
        double acc = arc_sum[e];
        for (long long row = 0; row < static_cast<long long>(count) * n; row += n) {
            const T dv = dist[row + v];
            if (dv == inf || dv + we != dist[row + w]) continue;
            acc = __dadd_rn(acc, brandes_share(mode, sigma[row + v], sigma[row + w],
                                               delta[row + w], to_target,
                                               brandes_reads_npred(mode) ? npred[row + w] : 1));
        }
        arc_sum[e] = acc;
    }
}
