// Harish & Narayanan's GPU SSSP, as described (Algorithms 3-5) in Safari & Ebnenasir 2017,
// "Locality-based relaxation: an efficient method for GPU-based computation of shortest
// paths": two kernels per host iteration, one thread per vertex (grid = ceil(n / block),
// no stride loop).
//
// harish_kernel1 (Algorithm 4): a flagged vertex u (fa[u]) relaxes its out-arcs from d[u]
// into up[] with atomicMin. harish_kernel2 (Algorithm 5): d[v] = up[v] where smaller,
// then fa[v] and the host-visible f[0] are set; up[v] = d[v].
// Arguments: CSR (indptr int64, indices int32, weights T), d[n], up[n], fa[n] uint8,
// cutoff (candidates above it are not relaxed), f[1] int32.
//
// Deviation kept for predecessors: kernel 2 writes fa[v] = (lowered) for every v instead
// of kernel 1 clearing fa[u], the same net effect, so bf_record_predecessors (from
// bellman_ford.cuh, with prev = d and dist = up) can still see the iteration's flags.
#include "bellman_ford.cuh"

template <typename T>
__global__ void harish_kernel1(const long long* __restrict__ indptr,
                               const int* __restrict__ indices, const T* __restrict__ weights,
                               int n, const T* __restrict__ d, T* up,
                               const unsigned char* __restrict__ fa, T cutoff) {
    const long long u = global_thread_id();
    if (u >= n || !fa[u]) return;
    relax_out_arcs(indptr, indices, weights, static_cast<int>(u), d[u], up, cutoff);
}

template <typename T>
__global__ void harish_kernel2(int n, T* d, T* up, unsigned char* fa, int* f) {
    const long long v = global_thread_id();
    if (v >= n) return;
    const bool lowered = up[v] < d[v];
    fa[v] = lowered;
    if (lowered) {
        d[v] = up[v];
        *f = 1;
    }
    up[v] = d[v];
}
