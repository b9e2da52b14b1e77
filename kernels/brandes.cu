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
//    counts their tight in-arcs in npred (track_npred) and sets *more.
//  * brandes_levels_backward: each entry at `level` sums, over the out-arcs to heads at
//    level + 1, the dependency share c of the head (see share()), into delta; with
//    track_arcs the warp's shares of an arc are summed and added to arc_sum[arc].
// Weights (brandes_ordered_*): one thread per source s of a batch, over its row of a
// source-major count x n block (entry s * n + v), visiting the `reached[s]` vertices it
// reaches in `order` (its row sorted by distance): the forward pass sums sigma over the
// tight in-arcs (dist[u] + w == dist[v], the comparison NetworkX makes) of the reverse
// CSR, the backward pass the shares over the tight out-arcs, in reverse order. Weights
// are positive and no sum absorbs an arc (the caller checks), so a tight tail comes first.
// Shares (mode): 0 Brandes: sigma[v] * ((1 + delta[w]) / sigma[w]); 1 subset:
// sigma[v] * ((delta[w] + 1) / sigma[w]) for a target w, else sigma[v] * (delta[w] /
// sigma[w]); 2 edge subset: (sigma[v] / sigma[w]) * (1 + delta[w]) for a target w, else
// delta[w] / npred[w] (NetworkX's betweenness_subset formulas, operation for operation).
// Arguments: CSR indptr[n+1] int64, indices[m] int32, weights[m] T; dist int32 levels
// (INT32_MAX unreached) or T distances (DistTraits<T>::inf() unreached); sigma, delta
// float64; npred int32; target uint8[n]; arc_sum float64[m].
#include "common.cuh"

#define BRANDES_FULL_MASK 0xffffffffu
#define BRANDES_UNSEEN 0x7fffffff

__device__ __forceinline__ double brandes_share(int mode, double sv, double sw, double dw,
                                                bool target, int npred) {
    if (mode == 0) return sv * ((1.0 + dw) / sw);
    if (mode == 1) return target ? sv * ((dw + 1.0) / sw) : sv * (dw / sw);
    return target ? (sv / sw) * (1.0 + dw) : dw / npred;
}

__device__ __forceinline__ double brandes_warp_sum(double x) {
#pragma unroll
    for (int offset = 16; offset; offset >>= 1) x += __shfl_down_sync(BRANDES_FULL_MASK, x, offset);
    return x;
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
            if (track_npred) atomicAdd(&npred[j], 1);
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
                                        const int* __restrict__ npred, double* arc_sum,
                                        int track_arcs) {
    const long long total = static_cast<long long>(n) * width;  // a multiple of 32
    const int lane = threadIdx.x & 31;
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
                c = brandes_share(mode, sv, sigma[j], delta[j], mode && target[w],
                                  mode == 2 ? npred[j] : 1);
            acc += c;
            if (track_arcs) {
                const double warp = brandes_warp_sum(c);
                if (lane == 0 && warp != 0.0) atomicAdd(&arc_sum[e], warp);
            }
        }
        if (active) delta[i] = acc;
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
    for (long long s = global_thread_id(); s < count; s += grid_stride()) {
        const long long row = s * n;
        for (long long p = 0; p < reached[s]; ++p) {
            const int v = order[row + p];
            const T dv = dist[row + v];
            double sv = 0.0;
            int k = 0;
            if (v == sources[s]) {
                sv = 1.0;
            } else {
                for (long long e = rindptr[v]; e < rindptr[v + 1]; ++e) {
                    const int u = rindices[e];
                    const T du = dist[row + u];
                    if (du != inf && du + rweights[e] == dv) {
                        sv += sigma[row + u];
                        ++k;
                    }
                }
            }
            sigma[row + v] = sv;
            if (track_npred) npred[row + v] = k;
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
                                         const int* __restrict__ npred, double* arc_sum,
                                         int track_arcs) {
    for (long long s = global_thread_id(); s < count; s += grid_stride()) {
        const long long row = s * n;
        for (long long p = reached[s] - 1; p >= 0; --p) {
            const int v = order[row + p];
            const T dv = dist[row + v];
            const double sv = sigma[row + v];
            double acc = 0.0;
            for (long long e = indptr[v]; e < indptr[v + 1]; ++e) {
                const int w = indices[e];
                if (dv + weights[e] != dist[row + w]) continue;
                const double c = brandes_share(mode, sv, sigma[row + w], delta[row + w],
                                               mode && target[w],
                                               mode == 2 ? npred[row + w] : 1);
                acc += c;
                if (track_arcs) atomicAdd(&arc_sum[e], c);
            }
            delta[row + v] = acc;
        }
    }
}
