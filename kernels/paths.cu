// Predecessor-tree utilities shared by every SSSP method (no single paper: the
// negative-cycle test is the "walk to root" of Cherkassky & Goldberg done with pointer
// jumping, as used for Bellman-Ford's NetworkXUnbounded).
//
// pointer_jump: one thread per vertex, anc_out[v] = anc_in[anc_in[v]] (roots point to
// themselves). After ceil(log2 n)+1 rounds every vertex points at its tree root, or
// into a cycle. find_cycle_members: flag[0] = 1 if a reached vertex's ancestor is not
// a root (pred == -1), i.e. the predecessor graph has a cycle.
#include "common.cuh"

__global__ void init_ancestors(const int* __restrict__ pred, int n, int* anc) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        const int p = pred[v];
        anc[v] = p < 0 ? static_cast<int>(v) : p;
    }
}

__global__ void pointer_jump(const int* __restrict__ anc_in, int n, int* anc_out) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        anc_out[v] = anc_in[anc_in[v]];
    }
}

__global__ void find_cycle_members(const int* __restrict__ anc, const int* __restrict__ pred,
                                   int n, int* flag) {
    for (long long v = global_thread_id(); v < n; v += grid_stride()) {
        if (pred[v] >= 0 && pred[anc[v]] >= 0) *flag = 1;
    }
}
