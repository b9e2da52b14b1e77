// Locality-based relaxation (Safari & Ebnenasir 2017, "Locality-based relaxation: an
// efficient method for GPU-based computation of shortest paths"), Algorithms 7-9.
//
// lbr_relax_locality: one launch per host iteration, no thread synchronisation. Thread t
// owns the vertices t * vertices_per_thread ... + vertices_per_thread - 1 (the paper's
// startV[2t], startV[2t+1]); grid-stride over t. A vertex u with flag_in[u] clears it and
// starts an iterative depth-first relaxation wave (explicit stack, at most k levels,
// k <= LBR_MAX_DEPTH): visiting v from w, the arc is skipped (backtrack) when
// d[w] + w(w,v) does not lower d[v]; otherwise one atomicMin lowers d[v] and the wave
// goes deeper, except at depth k, where v is flagged in flag_out for the next launch and
// *changed is set. The host swaps flag_in / flag_out by iteration parity (the paper's
// FlagArray[i] / FlagArray[i xor 1]); the paper's Kernel_1 and Kernel_2 differ only in
// whether the host reads `changed`, so both are this kernel.
//
// The wave's budget (not in the paper): a wave descends at most `budget` times. Below a
// negative cycle every visit lowers its vertex again, so an unbounded wave is a full
// tree of out-degree^k visits (k = 32 on a 17-vertex multigraph never returned); once
// the budget is spent, every vertex on the stack (lowered, its arcs not all relaxed) is
// flagged in flag_out and the wave ends, so nothing lowered is lost and a launch does at
// most n / vertices_per_thread x (budget + 1) row walks.
//
// Arguments: CSR (indptr int64, indices int32, weights T), n, dist[n], flag_in[n] and
// flag_out[n] uint8, k, vertices_per_thread, cutoff (candidates above it are not
// relaxed), budget (descents a wave may make, >= 1), changed[1] int32.
#include "common.cuh"

#define LBR_MAX_DEPTH 32

template <typename T>
__device__ void relax_locality_and_set_frontier(const long long* __restrict__ indptr,
                                                const int* __restrict__ indices,
                                                const T* __restrict__ weights, int u,
                                                T* dist, unsigned char* flag_out, int k,
                                                T cutoff, int budget, int* changed) {
    int stack_vertex[LBR_MAX_DEPTH];
    long long stack_arc[LBR_MAX_DEPTH];
    int top = 0;
    stack_vertex[0] = u;
    stack_arc[0] = indptr[u];
    while (top >= 0) {
        const int w = stack_vertex[top];
        const long long e = stack_arc[top];
        if (e == indptr[w + 1]) {
            --top;
            continue;
        }
        stack_arc[top] = e + 1;
        const int v = indices[e];
        const T cand = dist[w] + weights[e];
        if (cand > cutoff || !(cand < dist[v])) continue;
        if (!(cand < atomic_min(&dist[v], cand))) continue;
        if (top + 1 == k) {
            flag_out[v] = 1;
            *changed = 1;
        } else if (budget-- == 0) {  // spent: the stack and v go to the next launch
            flag_out[v] = 1;
            for (int i = 0; i <= top; ++i) flag_out[stack_vertex[i]] = 1;
            *changed = 1;
            return;
        } else {
            ++top;
            stack_vertex[top] = v;
            stack_arc[top] = indptr[v];
        }
    }
}

template <typename T>
__global__ void lbr_relax_locality(const long long* __restrict__ indptr,
                                   const int* __restrict__ indices,
                                   const T* __restrict__ weights, int n, T* dist,
                                   unsigned char* flag_in, unsigned char* flag_out, int k,
                                   int vertices_per_thread, T cutoff, int budget,
                                   int* changed) {
    const long long threads = (n + vertices_per_thread - 1) / vertices_per_thread;
    for (long long t = global_thread_id(); t < threads; t += grid_stride()) {
        const long long first = t * vertices_per_thread;
        const long long last = min(first + vertices_per_thread, static_cast<long long>(n));
        for (long long u = first; u < last; ++u) {
            if (!flag_in[u]) continue;
            flag_in[u] = 0;
            relax_locality_and_set_frontier(indptr, indices, weights, static_cast<int>(u),
                                            dist, flag_out, k, cutoff, budget, changed);
        }
    }
}
