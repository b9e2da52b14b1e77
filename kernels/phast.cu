// PHAST (Delling, Goldberg, Nowatzyk and Werneck, "PHAST: Hardware-Accelerated Shortest
// Path Trees", IPDPS 2011) over a contraction hierarchy (Geisberger, Sanders, Schultes
// and Delling, "Contraction Hierarchies", WEA 2008) built in rounds of independent
// vertices, whose top is a core left whole with its all-pairs distances
// (nx_gpusp/solvers/sssp/contraction.py builds both). A query is two sweeps over
// the rounds, each vertex pulling from its in-arcs of the hierarchy:
//   phast_pull_level   one round (level): for every vertex at the positions [begin, end)
//                      of the level order, dist[v] = min(dist[v], dist[u] + w) over its
//                      in-arcs (u, v, w) of the sweep (upward: from lower levels;
//                      downward: from higher levels and the core). One warp a vertex,
//                      its lanes over the arcs, a shuffle minimum; the tails belong to
//                      other levels, so a level's vertices never read each other.
//   phast_core_gather  scratch[i] = dist[core[i]] (the core's upward distances).
//   phast_core         dist[core[j]] = min over i of scratch[i] + D[i][j] (D: the core's
//                      distances, D[j][j] = 0): a block per (256 columns, slice of
//                      PHAST_CORE_ROWS rows), one thread a column, slices with no
//                      reached row skipped, the slices' minima joined by atomicMin.
// The host runs the upward levels in order (the core's in-arcs from below last), the
// core, then the downward levels from the top; dist starts at inf with 0 at the sources.
//
// Launch: pull_level, 32 threads a vertex; gather, one thread a core vertex; core,
// PHAST_THREADS threads a block, one a column, a grid row per slice of core rows. Arguments: order[n] int32 (vertices by
// level, the core last); ptr[n+1] int64 over positions in that order, tails int32 and
// weights T (the sweep's in-arcs); dist[n] T; core[k] int32; D[k*k] T row-major
// (DistTraits<T>::inf() = no path); scratch[k] T.
#include "common.cuh"

#define PHAST_THREADS 256  // ops/phast.py: BLOCK
#define PHAST_FULL_MASK 0xffffffffu
#define PHAST_CORE_ROWS 64  // core rows a block of phast_core takes (ops/phast.py: CORE_ROWS)

template <typename T>
__global__ void __launch_bounds__(PHAST_THREADS)
phast_pull_level(const int* __restrict__ order, long long begin, long long end,
                 const long long* __restrict__ ptr, const int* __restrict__ tails,
                 const T* __restrict__ weights, T* dist) {
    const long long p = begin + ((blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5);
    if (p >= end) return;  // the whole warp: p is the warp's
    const int lane = threadIdx.x & 31;
    const T inf = DistTraits<T>::inf();
    T best = inf;
    const long long stop = ptr[p + 1];
    for (long long e = ptr[p] + lane; e < stop; e += 32) {
        const T du = dist[tails[e]];
        if (du != inf) {
            const T c = du + weights[e];
            if (c < best) best = c;
        }
    }
    for (int off = 16; off; off >>= 1) {
        const T other = __shfl_down_sync(PHAST_FULL_MASK, best, off);
        if (other < best) best = other;
    }
    if (lane == 0) {
        const int v = order[p];
        if (best < dist[v]) dist[v] = best;
    }
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
