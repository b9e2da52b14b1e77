// PHAST (Delling, Goldberg, Nowatzyk and Werneck, "PHAST: Hardware-Accelerated Shortest
// Path Trees", IPDPS 2011) for one query, over a contraction hierarchy (Geisberger,
// Sanders, Schultes and Delling, "Contraction Hierarchies", WEA 2008) built in rounds of
// independent vertices, whose top is a core left whole with its all-pairs distances
// (nx_gpusp/solvers/sssp/contraction.py builds both). A query is two sweeps over the
// rounds, each vertex pulling from its in-arcs of the hierarchy.
//
// Layout (that of kernels/phast_batched.cu with one column): vertices are numbered by
// their position in the level order (the core last), dist[p] is the distance of the
// vertex at position p, and a sweep's in-arcs are cut into segments of at most PB_SEG
// arcs of one head (heads[s], or ~heads[s] where the head has several segments; arcs
// starts[s] .. stops[s] - 1; tails as positions; level l's segments are
// seg_ptr[l] .. seg_ptr[l + 1] - 1).
//   phast_pull_segments      one level (segments [seg_begin, seg_end)): one thread a
//                            segment, dist[p] = min(dist[p], dist[u] + w) over its arcs
//                            (u, w); a plain store where the segment is its head's only
//                            one, else atomicMin. A level's tails lie in other levels,
//                            so its threads never read each other's heads.
//   phast_sources            dist[p] = 0 at the sources' positions (dist filled with inf
//                            before it), from a buffer the host fills per query.
//   phast_core_gather        scratch[i] = dist[core[i]] (the core's upward distances).
//   phast_core               dist[core[j]] = min over i of scratch[i] + D[i][j] (D: the
//                            core's distances, D[j][j] = 0): a block per (256 columns,
//                            slice of PHAST_CORE_ROWS rows), one thread a column, slices
//                            with no reached row skipped, the slices' minima joined by
//                            atomicMin.
// The host (nx_gpusp/ops/phast.py) queues the upward levels in order (the core's in-arcs
// from below last), the core, then the downward levels from the top; dist starts at inf
// with 0 at the sources' positions.
//
// Types: T (storage) long long, or int where every sum the sweeps form fits (the solver
// proves it from the hierarchy); DistTraits<T>::inf() = unreached, never added to.
// Arguments: heads int32, starts/stops int64, tails int32, weights T, dist[n] T,
// core[k] int32,
// D[k*k] T row-major, scratch[k] T.
#include "common.cuh"

#define PHAST_THREADS 256  // ops/phast.py: BLOCK
#define PHAST_CORE_ROWS 64  // core rows a block of phast_core takes (ops/phast.py: CORE_ROWS)
#define PHAST_SEG 8  // at most this many arcs a segment (ops/phast_batched.py: SEGMENT)

// dist[p] lowered over the arcs of segment s (the loads of the segment's arcs issued
// before any comparison: a segment costs a few memory latencies)
template <typename T>
__device__ __forceinline__ void phast_pull_segment(
        long long s, const int* __restrict__ heads, const long long* __restrict__ starts,
        const long long* __restrict__ stops, const int* __restrict__ tails,
        const T* __restrict__ weights, T* dist) {
    const T inf = DistTraits<T>::inf();
    const int head = heads[s];
    const bool alone = head >= 0;
    const int p = alone ? head : ~head;
    const long long start = starts[s];
    const int count = (int)(stops[s] - start);
    // unconditional loads (arcs past the segment repeat its last one, a harmless
    // duplicate for a minimum), so that the compiler issues them together
    T du[PHAST_SEG], w[PHAST_SEG];
#pragma unroll
    for (int j = 0; j < PHAST_SEG; ++j) {
        const long long e = start + min(j, count - 1);
        du[j] = dist[tails[e]];
        w[j] = weights[e];
    }
    const T old = dist[p];
    T best = old;
#pragma unroll
    for (int j = 0; j < PHAST_SEG; ++j)
        if (du[j] != inf && du[j] + w[j] < best) best = du[j] + w[j];
    if (best < old) {
        if (alone)
            dist[p] = best;
        else
            atomicMin(dist + p, best);
    }
}

template <typename T>
__global__ void __launch_bounds__(PHAST_THREADS)
phast_pull_segments(long long seg_begin, long long seg_end, const int* __restrict__ heads,
                    const long long* __restrict__ starts,
                    const long long* __restrict__ stops, const int* __restrict__ tails,
                    const T* __restrict__ weights, T* dist) {
    const long long s = seg_begin + blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (s < seg_end) phast_pull_segment(s, heads, starts, stops, tails, weights, dist);
}

// the query's start, after dist was filled with inf: dist[src[i]] = 0 for the sources'
// positions src[1 .. src[0]] (src[0]: their count; one buffer, one copy from the host)
template <typename T>
__global__ void phast_sources(const int* __restrict__ src, T* dist) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < src[0]) dist[src[1 + i]] = T(0);
}

template <typename T>
__global__ void phast_core_gather(const int* __restrict__ core, int k,
                                  const T* __restrict__ dist, T* scratch) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < k) scratch[i] = dist[core[i]];
}

// grid (ceil(k / PHAST_THREADS), ceil(k / PHAST_CORE_ROWS)): block (x, y) takes the
// columns j of x and the rows i of slice y; a slice whose upward distances are all
// unreached (most of them: one source climbs to few core vertices) returns at once;
// the others lower dist[core[j]] (which holds scratch[j], the j = i term) by atomicMin,
// so the answer does not depend on the slices' order.
template <typename T>
__global__ void __launch_bounds__(PHAST_THREADS)
phast_core(const int* __restrict__ core, int k, const T* __restrict__ D,
           const T* __restrict__ scratch, T* dist) {
    __shared__ T staged[PHAST_CORE_ROWS];
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int base = blockIdx.y * PHAST_CORE_ROWS;
    const int count = min(PHAST_CORE_ROWS, k - base);
    const T inf = DistTraits<T>::inf();
    bool reached = false;
    if ((int)threadIdx.x < count) {
        staged[threadIdx.x] = scratch[base + threadIdx.x];
        reached = staged[threadIdx.x] != inf;
    }
    if (!__syncthreads_or(reached) || j >= k) return;
    T best = inf;
    for (int i = 0; i < count; ++i) {
        const T du = staged[i];
        if (du == inf) continue;
        const T dij = D[(long long)(base + i) * k + j];
        if (dij != inf && du + dij < best) best = du + dij;
    }
    if (best != inf) atomicMin(dist + core[j], best);
}
