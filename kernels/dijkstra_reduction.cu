// Classic Dijkstra with ExtractMin as a parallel reduction (CUDA SSSP paper, Chinese,
// section 3.2 "Reduction"; papers/README.md section 2, "dijkstra reduction"). One
// iteration settles exactly one vertex:
//   extract_partial  grid-stride over n vertices, one (distance, vertex) minimum per block
//                    over the unsettled ones (ties to the smaller vertex) -> partial[block].
//   extract_final    one block over the partials: best[0] = the vertex with the smallest
//                    finite distance (-1 when none is left), which it settles (U = 0).
//   relax_extracted  grid-stride over the out-arcs of best[0]: d[v] = min(d[v], d[u] + w)
//                    for unsettled v, pred[v] = u on a strict decrease. The CSR has no
//                    parallel arcs, so each v is written by one thread: no atomics.
// The host reads best[0] only every few iterations: with none left the kernels do nothing.
//
// Launch: blocks of any multiple of 32 threads (warp shuffles + one shared slot per warp);
// extract_final with exactly one block.
// Arguments: dist[n] T; unsettled[n] uint8; partial_dist[blocks] T, partial_vertex[blocks]
// int32; best[1] int32; CSR (indptr[n+1] int64, indices[m] int32, weights[m] T);
// pred[n] int32; cutoff: candidates above it are not relaxed.
#include "common.cuh"

// (d, v) < (od, ov) in the order "distance, then vertex id"; v == -1 is "none".
template <typename T> __device__ __forceinline__ bool before(T d, int v, T od, int ov) {
    return ov < 0 || (v >= 0 && (d < od || (d == od && v < ov)));
}

// Block-wide (distance, vertex) minimum, valid in thread 0; blockDim.x a multiple of 32.
template <typename T> __device__ void block_argmin(T& d, int& v) {
    __shared__ T warp_dist[32];
    __shared__ int warp_vertex[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int offset = 16; offset > 0; offset >>= 1) {
        const T od = __shfl_down_sync(0xffffffffu, d, offset);
        const int ov = __shfl_down_sync(0xffffffffu, v, offset);
        if (before(od, ov, d, v)) { d = od; v = ov; }
    }
    if (lane == 0) { warp_dist[warp] = d; warp_vertex[warp] = v; }
    __syncthreads();
    if (warp == 0) {
        const bool has = lane < (blockDim.x >> 5);
        d = has ? warp_dist[lane] : DistTraits<T>::inf();
        v = has ? warp_vertex[lane] : -1;
        for (int offset = 16; offset > 0; offset >>= 1) {
            const T od = __shfl_down_sync(0xffffffffu, d, offset);
            const int ov = __shfl_down_sync(0xffffffffu, v, offset);
            if (before(od, ov, d, v)) { d = od; v = ov; }
        }
    }
}

template <typename T>
__global__ void extract_partial(const T* __restrict__ dist,
                                const unsigned char* __restrict__ unsettled, int n,
                                T* partial_dist, int* partial_vertex) {
    const T inf = DistTraits<T>::inf();
    T d = inf;
    int v = -1;
    for (long long u = global_thread_id(); u < n; u += grid_stride()) {
        if (unsettled[u] && dist[u] != inf && before(dist[u], static_cast<int>(u), d, v)) {
            d = dist[u];
            v = static_cast<int>(u);
        }
    }
    block_argmin(d, v);
    if (threadIdx.x == 0) {
        partial_dist[blockIdx.x] = d;
        partial_vertex[blockIdx.x] = v;
    }
}

template <typename T>
__global__ void extract_final(const T* __restrict__ partial_dist,
                              const int* __restrict__ partial_vertex, int blocks,
                              unsigned char* unsettled, int* best) {
    T d = DistTraits<T>::inf();
    int v = -1;
    for (int i = threadIdx.x; i < blocks; i += blockDim.x) {
        if (before(partial_dist[i], partial_vertex[i], d, v)) {
            d = partial_dist[i];
            v = partial_vertex[i];
        }
    }
    block_argmin(d, v);
    if (threadIdx.x == 0) {
        best[0] = v;
        if (v >= 0) unsettled[v] = 0;
    }
}

template <typename T>
__global__ void relax_extracted(const long long* __restrict__ indptr,
                                const int* __restrict__ indices,
                                const T* __restrict__ weights, const int* __restrict__ best,
                                const unsigned char* __restrict__ unsettled, T* dist,
                                int* pred, T cutoff) {
    const int u = best[0];
    if (u < 0) return;
    const T du = dist[u];
    const long long start = indptr[u], end = indptr[u + 1];
    for (long long e = start + global_thread_id(); e < end; e += grid_stride()) {
        const int v = indices[e];
        const T cand = du + weights[e];
        if (unsettled[v] && cand <= cutoff && cand < dist[v]) {
            dist[v] = cand;
            pred[v] = u;
        }
    }
}
