// Contraction hierarchies built in rounds of independent vertices (Geisberger, Sanders,
// Schultes and Delling, "Contraction Hierarchies", WEA 2008; the rounds as in PHAST,
// Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): the two reductions of a round
// that CuPy's array routines lack (nx_gpusp/solvers/sssp/contraction.py drives them).
//   contraction_scatter_min  target[index[i]] = min(target[index[i]], values[i]) over
//                            i < count (atomicMin): a vertex's lowest neighbour
//                            priority, its lightest in-arc, a matrix of arcs.
//   contraction_segment_min  out[s] = min of values[starts[s] .. starts[s + 1]) over
//                            s < segments, the last segment ending at count: the
//                            weight kept of arcs sharing (tail, head). One thread a
//                            segment (a few arcs each).
// Launch: 1-D grid-stride, 256 threads a block, over count (scatter) or segments.
// Arguments: target, values, out: long long; index, starts: long long.
#include "common.cuh"

extern "C" __global__ void contraction_scatter_min(long long* target,
                                                   const long long* index,
                                                   const long long* values,
                                                   long long count) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        atomic_min(target + index[i], values[i]);
    }
}

extern "C" __global__ void contraction_segment_min(const long long* values,
                                                   const long long* starts,
                                                   long long segments, long long count,
                                                   long long* out) {
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < segments;
         s += (long long)gridDim.x * blockDim.x) {
        const long long end = s + 1 < segments ? starts[s + 1] : count;
        long long best = values[starts[s]];
        for (long long i = starts[s] + 1; i < end; ++i) best = min(best, values[i]);
        out[s] = best;
    }
}
