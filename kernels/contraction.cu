// Contraction hierarchies built in rounds of independent vertices (Geisberger, Sanders,
// Schultes and Delling, "Contraction Hierarchies", WEA 2008; the rounds as in PHAST,
// Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): every step of a round on the
// GPU (nx_gpusp/ops/contraction.py drives them; solvers/sssp/contraction.py the rounds).
// Arcs are int64 (tail, head, weight) arrays, distinct and sorted by key = tail * k +
// head (k: the vertices left); masks are one byte an entry.
//   device-wide scan       ch_tile_sums<T> (a sum per tile of CH_TILE entries),
//                          ch_scan_tile_sums (one block: the tiles' exclusive offsets,
//                          in place), ch_scan<T> (inclusive sums, int64): positions of
//                          a mask's entries, runs of counts
//   ch_select              out[j] = in[i] (in null: i) for the entries whose mask is
//                          `want`, j their rank among them (pos: the mask's scan)
//   ch_take<T, I>          out[i] = src[idx[i]] (int64 values, or a mask's bytes)
//   ch_count               counts[x[i]] += 1 (integer atomics: any order, one answer)
//   ch_priority            a vertex's priority: edge difference (in x out - in - out)
//                          shifted above its seeded tie rank, hub past pair_limit pairs
//   ch_neighbour_min       lowest[v] = the least priority of v's neighbours (atomicMin)
//   ch_choose              chosen: priority below every neighbour's (an independent
//                          set); totals = (chosen, their in x out pairs)
//   ch_touch, ch_set_level, ch_upward, ch_keys, ch_product, ch_inverse, ch_renumber
//                          per-entry steps (see each)
//   ch_join                the shortcuts of the chosen vertices: entry p of the pairs
//                          (in-arc, out-arc) of its vertex (found by binary search in
//                          the pairs' running totals)
//   ch_run_starts, ch_dedup
//                          one arc per key of sorted keys, at its least weight
//   ch_merge               two sorted key lists merged: each entry's place by a binary
//                          search of the other list (ties: the first list's first)
//   ch_offsets             ptr[v] = the first entry of sorted int64 keys >= v
//   ch_witness             a candidate shortcut (u, x, c) is unneeded where the arc
//                          (u, x) weighs <= c, or (u of at most fanout out-arcs) a path
//                          u -> y -> x does: binary searches of the arcs' keys
//   ch_scatter_min         target[index[i]] = min(itself, values[i]) (atomicMin)
// Launch: grid-stride, BLOCK threads, over the entries; the scan kernels one
// CH_THREADS block a tile (ch_scan_tile_sums: one block of 1024).
#include "common.cuh"
#include "block_scan.cuh"

#define CH_THREADS 256  // ops/contraction.py: SCAN_THREADS
#define CH_ITEMS 8
#define CH_TILE (CH_THREADS * CH_ITEMS)  // ops/contraction.py: SCAN_TILE
#define CH_TOTALS_THREADS 1024

template <typename T>
__global__ void __launch_bounds__(CH_THREADS)
ch_tile_sums(const T* __restrict__ in, long long m, long long* __restrict__ tile_sums) {
    __shared__ long long warp_sums[CH_THREADS / 32];
    const long long base = blockIdx.x * (long long)CH_TILE + threadIdx.x * CH_ITEMS;
    long long s = 0;
#pragma unroll
    for (int j = 0; j < CH_ITEMS; ++j)
        if (base + j < m) s += (long long)in[base + j];
    s = block_inclusive_scan<CH_THREADS / 32>(s, warp_sums);
    if (threadIdx.x == CH_THREADS - 1) tile_sums[blockIdx.x] = s;
}

__global__ void __launch_bounds__(CH_TOTALS_THREADS)
ch_scan_tile_sums(long long* sums, long long tiles) {
    __shared__ long long warp_sums[CH_TOTALS_THREADS / 32];
    long long carry = 0;
    for (long long start = 0; start < tiles; start += CH_TOTALS_THREADS) {
        const long long i = start + threadIdx.x;
        const long long v = i < tiles ? sums[i] : 0;
        const long long x = block_inclusive_scan<CH_TOTALS_THREADS / 32>(v, warp_sums);
        if (i < tiles) sums[i] = carry + x - v;
        carry += warp_sums[CH_TOTALS_THREADS / 32 - 1];
        __syncthreads();  // every thread has read the total before the next scan
    }
}

template <typename T>
__global__ void __launch_bounds__(CH_THREADS)
ch_scan(const T* __restrict__ in, long long m, const long long* __restrict__ tile_offsets,
        long long* __restrict__ out) {
    __shared__ long long warp_sums[CH_THREADS / 32];
    const long long base = blockIdx.x * (long long)CH_TILE + threadIdx.x * CH_ITEMS;
    long long v[CH_ITEMS];
    long long s = 0;
#pragma unroll
    for (int j = 0; j < CH_ITEMS; ++j) {
        v[j] = base + j < m ? (long long)in[base + j] : 0;
        s += v[j];
    }
    long long run = tile_offsets[blockIdx.x] +
                    block_inclusive_scan<CH_THREADS / 32>(s, warp_sums) - s;
#pragma unroll
    for (int j = 0; j < CH_ITEMS; ++j) {
        run += v[j];
        if (base + j < m) out[base + j] = run;
    }
}

extern "C" __global__ void ch_select(const unsigned char* __restrict__ mask,
                                     const long long* __restrict__ pos, long long m,
                                     int want, const long long* __restrict__ in,
                                     long long* __restrict__ out) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) {
        if ((mask[i] != 0) != (want != 0)) continue;
        const long long j = want ? pos[i] - 1 : i - pos[i];
        out[j] = in ? in[i] : i;
    }
}

template <typename T, typename I>
__global__ void ch_take(const T* __restrict__ src, const I* __restrict__ idx, long long m,
                        T* __restrict__ out) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) out[i] = src[idx[i]];
}

extern "C" __global__ void ch_count(const long long* __restrict__ x, long long m,
                                    unsigned long long* counts) {
    for (long long i = global_thread_id(); i < m; i += grid_stride())
        atomicAdd(counts + x[i], 1ULL);
}

// priority[v] = ((in * out - in - out) << tie_bits) + tie[v] (the shift as on
// two's-complement 64-bit integers), or hub where in * out > pair_limit; lowest[v] = hub
extern "C" __global__ void ch_priority(const long long* __restrict__ din,
                                       const long long* __restrict__ dout,
                                       const long long* __restrict__ tie, long long k,
                                       long long pair_limit, int tie_bits, long long hub,
                                       long long* __restrict__ priority,
                                       long long* __restrict__ lowest) {
    for (long long v = global_thread_id(); v < k; v += grid_stride()) {
        const long long pairs = din[v] * dout[v];
        const unsigned long long diff = (unsigned long long)(pairs - din[v] - dout[v]);
        priority[v] = pairs <= pair_limit ? (long long)(diff << tie_bits) + tie[v] : hub;
        lowest[v] = hub;
    }
}

extern "C" __global__ void ch_neighbour_min(const long long* __restrict__ a,
                                            const long long* __restrict__ b, long long m,
                                            const long long* __restrict__ priority,
                                            long long* lowest) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) {
        atomicMin(lowest + a[i], priority[b[i]]);
        atomicMin(lowest + b[i], priority[a[i]]);
    }
}

// totals[0] += the chosen, totals[1] += their in x out (a warp's sums, one atomic each)
extern "C" __global__ void ch_choose(const long long* __restrict__ priority,
                                     const long long* __restrict__ lowest,
                                     const long long* __restrict__ din,
                                     const long long* __restrict__ dout, long long k,
                                     unsigned char* __restrict__ chosen,
                                     unsigned long long* totals) {
    const long long step = grid_stride();
    for (long long base = global_thread_id() - (threadIdx.x & 31); base < k; base += step) {
        const long long v = base + (threadIdx.x & 31);
        unsigned long long count = 0, pairs = 0;
        if (v < k) {
            const bool c = priority[v] < lowest[v];
            chosen[v] = c;
            if (c) {
                count = 1;
                pairs = (unsigned long long)(din[v] * dout[v]);
            }
        }
        for (int off = 16; off; off >>= 1) {
            count += __shfl_down_sync(0xffffffffu, count, off);
            pairs += __shfl_down_sync(0xffffffffu, pairs, off);
        }
        if ((threadIdx.x & 31) == 0 && count) {
            atomicAdd(totals, count);
            atomicAdd(totals + 1, pairs);
        }
    }
}

// touch[i]: arc i has a chosen end
extern "C" __global__ void ch_touch(const unsigned char* __restrict__ chosen,
                                    const long long* __restrict__ a,
                                    const long long* __restrict__ b, long long m,
                                    unsigned char* __restrict__ touch) {
    for (long long i = global_thread_id(); i < m; i += grid_stride())
        touch[i] = chosen[a[i]] | chosen[b[i]];
}

// level[ids[v]] = value for the chosen v
extern "C" __global__ void ch_set_level(const unsigned char* __restrict__ chosen,
                                        const long long* __restrict__ ids, long long k,
                                        long long* level, long long value) {
    for (long long v = global_thread_id(); v < k; v += grid_stride())
        if (chosen[v]) level[ids[v]] = value;
}

// up[i]: arc i climbs (its tail's level below its head's)
extern "C" __global__ void ch_upward(const long long* __restrict__ a,
                                     const long long* __restrict__ b, long long m,
                                     const long long* __restrict__ level,
                                     unsigned char* __restrict__ up) {
    for (long long i = global_thread_id(); i < m; i += grid_stride())
        up[i] = level[a[i]] < level[b[i]];
}

extern "C" __global__ void ch_keys(const long long* __restrict__ t,
                                   const long long* __restrict__ h, long long m, long long k,
                                   long long* __restrict__ key) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) key[i] = t[i] * k + h[i];
}

extern "C" __global__ void ch_product(const long long* __restrict__ x,
                                      const long long* __restrict__ y, long long m,
                                      long long* __restrict__ out) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) out[i] = x[i] * y[i];
}

// pos[order[i]] = i
extern "C" __global__ void ch_inverse(const int* __restrict__ order, long long n,
                                      long long* __restrict__ pos) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) pos[order[i]] = i;
}

// out[i] = a[i] less the chosen vertices up to it (chosen_scan: the chosen mask's scan)
extern "C" __global__ void ch_renumber(const long long* __restrict__ a, long long m,
                                       const long long* __restrict__ chosen_scan,
                                       long long* __restrict__ out) {
    for (long long i = global_thread_id(); i < m; i += grid_stride())
        out[i] = a[i] - chosen_scan[a[i]];
}

// Shortcut p: its vertex o (pair_end: running totals of cin * cout), its in-arc
// into[in_end[o] - cin[o] + q / cout[o]] and out-arc out[out_end[o] - cout[o] + q % cout[o]]
// (q: p's rank among o's pairs); key = u * k + x, weight the two arcs', keep: u != x.
extern "C" __global__ void ch_join(const long long* __restrict__ pair_end, long long nv,
                                   long long total, const long long* __restrict__ cin,
                                   const long long* __restrict__ cout,
                                   const long long* __restrict__ in_end,
                                   const long long* __restrict__ out_end,
                                   const long long* __restrict__ into,
                                   const long long* __restrict__ out,
                                   const long long* __restrict__ a,
                                   const long long* __restrict__ b,
                                   const long long* __restrict__ w, long long k,
                                   long long* __restrict__ key, long long* __restrict__ c,
                                   unsigned char* __restrict__ keep) {
    for (long long p = global_thread_id(); p < total; p += grid_stride()) {
        const long long o = upper_bound(pair_end, nv, p);
        const long long q = p - (pair_end[o] - cin[o] * cout[o]);
        const long long i = into[in_end[o] - cin[o] + q / cout[o]];
        const long long j = out[out_end[o] - cout[o] + q % cout[o]];
        key[p] = a[i] * k + b[j];
        c[p] = w[i] + w[j];
        keep[p] = a[i] != b[j];
    }
}

extern "C" __global__ void ch_run_starts(const long long* __restrict__ key, long long m,
                                         unsigned char* __restrict__ first) {
    for (long long i = global_thread_id(); i < m; i += grid_stride())
        first[i] = i == 0 || key[i] != key[i - 1];
}

// each run of equal keys (first: its starts, pos: their scan) -> one arc, least weight
extern "C" __global__ void ch_dedup(const long long* __restrict__ key,
                                    const long long* __restrict__ weight, long long m,
                                    const unsigned char* __restrict__ first,
                                    const long long* __restrict__ pos, long long k,
                                    long long* __restrict__ tails,
                                    long long* __restrict__ heads,
                                    long long* __restrict__ weights) {
    for (long long i = global_thread_id(); i < m; i += grid_stride()) {
        if (!first[i]) continue;
        long long best = weight[i];
        for (long long e = i + 1; e < m && !first[e]; ++e) best = min(best, weight[e]);
        const long long j = pos[i] - 1;
        tails[j] = key[i] / k;
        heads[j] = key[i] % k;
        weights[j] = best;
    }
}

extern "C" __global__ void ch_merge(const long long* __restrict__ ka,
                                    const long long* __restrict__ wa, long long ma,
                                    const long long* __restrict__ kn,
                                    const long long* __restrict__ wn, long long mn,
                                    long long* __restrict__ key,
                                    long long* __restrict__ weight) {
    for (long long i = global_thread_id(); i < ma + mn; i += grid_stride()) {
        if (i < ma) {
            const long long at = i + lower_bound(kn, mn, ka[i]);
            key[at] = ka[i];
            weight[at] = wa[i];
        } else {
            const long long j = i - ma, at = j + upper_bound(ka, ma, kn[j]);
            key[at] = kn[j];
            weight[at] = wn[j];
        }
    }
}

extern "C" __global__ void ch_offsets(const long long* __restrict__ sorted, long long m,
                                      long long count, long long* __restrict__ ptr) {
    for (long long v = global_thread_id(); v < count; v += grid_stride())
        ptr[v] = lower_bound(sorted, m, v);
}

// done[i] for the candidate (u[i], x[i], c[i]) against the m arcs (keys, heads, weights;
// ptr: each tail's first arc; lightest: each vertex's lightest in-arc, a bound that
// skips the searches of paths that cannot be short enough)
extern "C" __global__ void ch_witness(const long long* __restrict__ u,
                                      const long long* __restrict__ x,
                                      const long long* __restrict__ c, long long count,
                                      const long long* __restrict__ key,
                                      const long long* __restrict__ heads,
                                      const long long* __restrict__ weights, long long m,
                                      const long long* __restrict__ ptr,
                                      const long long* __restrict__ lightest, long long k,
                                      long long fanout, unsigned char* __restrict__ done) {
    for (long long i = global_thread_id(); i < count; i += grid_stride()) {
        const long long t = u[i], h = x[i], bound = c[i];
        const long long q = t * k + h;
        const long long at = min(lower_bound(key, m, q), m - 1);
        bool ok = key[at] == q && weights[at] <= bound;
        if (!ok && ptr[t + 1] - ptr[t] <= fanout) {
            const long long least = lightest[h];
            for (long long e = ptr[t]; e < ptr[t + 1] && !ok; ++e) {
                const long long first = weights[e];
                if (first + least > bound) continue;
                const long long q2 = heads[e] * k + h;
                const long long at2 = min(lower_bound(key, m, q2), m - 1);
                ok = key[at2] == q2 && first + weights[at2] <= bound;
            }
        }
        done[i] = ok;
    }
}

extern "C" __global__ void ch_scatter_min(long long* target, const long long* __restrict__ index,
                                          const long long* __restrict__ values,
                                          long long count) {
    for (long long i = global_thread_id(); i < count; i += grid_stride())
        atomic_min(target + index[i], values[i]);
}
