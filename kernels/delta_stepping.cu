// Delta-stepping (Meyer & Sanders 2003) as the CUDA SSSP paper (Chinese, section 5;
// papers/README.md section 2) runs it: buckets of width delta kept as a per-vertex bucket
// index array BIndex (bucket[v] = floor(d[v] / delta), NO_BUCKET when v is in none), arcs
// split into light (w <= delta) and heavy (w > delta). For the current bucket i the host
// repeats relax_light + assign_buckets until no vertex re-enters bucket i, then runs
// relax_heavy + assign_buckets once. The paper's request set (built with a prefix sum,
// then applied) is applied directly here: each relaxation is an atomic min, and the
// vertices it lowers are flagged and re-bucketed by assign_buckets.
//   relax_light     one thread per vertex; members of bucket i leave it (bucket = NO_BUCKET),
//                   join R (in_r = 1) and relax their light arcs.
//   relax_heavy     one thread per vertex of R: leaves R, relaxes its heavy arcs.
//   assign_buckets  one thread per vertex lowered since the last call: bucket[v] =
//                   floor(d[v] / delta); counts those landing in bucket i into count[0].
//
// Launch: grid-stride loops over n vertices, any block size.
// Arguments: CSR (indptr[n+1] int64, indices[m] int32, weights[m] T); bucket[n] int64;
// current: the bucket i being emptied; dist[n] T; delta (T, > 0); lowered[n], in_r[n]
// uint8 flags; cutoff: candidates above it are not relaxed; count[1] int32.
#include "arc_visitors.cuh"

#define NO_BUCKET 0x7fffffffffffffffLL

template <typename T> __device__ __forceinline__ long long bucket_of(T d, T delta) {
    return d / delta;
}
template <> __device__ __forceinline__ long long bucket_of<double>(double d, double delta) {
    const double q = floor(d / delta);
    return q < 9.0e18 ? static_cast<long long>(q) : NO_BUCKET - 1;
}

template <typename T>
__device__ __forceinline__ void relax_arcs(const long long* __restrict__ indptr,
                                           const int* __restrict__ indices,
                                           const T* __restrict__ weights, int u, T delta,
                                           bool light, T* dist, unsigned char* lowered,
                                           T cutoff) {
    const T du = dist[u];
    for_row_arcs(indptr, u, [&](long long e) {
        const T w = weights[e];
        if ((w <= delta) != light) return;
        const int v = indices[e];
        const T cand = du + w;
        if (cand <= cutoff && cand < dist[v] && cand < atomic_min(&dist[v], cand)) lowered[v] = 1;
    });
}

template <typename T>
__global__ void relax_light(const long long* __restrict__ indptr,
                           const int* __restrict__ indices, const T* __restrict__ weights,
                           int n, long long* bucket, long long current, T* dist, T delta,
                           unsigned char* lowered, unsigned char* in_r, T cutoff) {
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (bucket[u] != current) continue;
        bucket[u] = NO_BUCKET;
        in_r[u] = 1;
        relax_arcs(indptr, indices, weights, static_cast<int>(u), delta, true, dist, lowered,
                   cutoff);
    }
}

template <typename T>
__global__ void relax_heavy(const long long* __restrict__ indptr,
                           const int* __restrict__ indices, const T* __restrict__ weights,
                           int n, T* dist, T delta, unsigned char* lowered,
                           unsigned char* in_r, T cutoff) {
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (!in_r[u]) continue;
        in_r[u] = 0;
        relax_arcs(indptr, indices, weights, static_cast<int>(u), delta, false, dist, lowered,
                   cutoff);
    }
}

template <typename T>
__global__ void assign_buckets(int n, const T* __restrict__ dist, T delta,
                               unsigned char* lowered, long long* bucket, long long current,
                               int* count) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        if (!lowered[v]) continue;
        lowered[v] = 0;
        const long long b = bucket_of(dist[v], delta);
        bucket[v] = b;
        if (b == current) atomicAdd(count, 1);
    }
}
