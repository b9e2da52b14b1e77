// Per-source statistics of a block of distance rows (the all-pairs measures of
// nx_gpusp/solvers/apsp/measures.py: closeness, harmonic, eccentricity, Wiener index,
// efficiency, average shortest-path length): not a paper's kernel, the reduction that
// follows every batched all-pairs method, fused so that a batch's B x n rows are read
// once instead of once per statistic and temporary.
//   row_statistics   one block a row b of dist (B x n row-major, int64, int64's
//                    maximum = unreached): reached[b] = entries != inf, sum[b] = their sum,
//                    max[b] = the largest entry (inf where any is unreached), inverse[b]
//                    = the sum of 1.0 / d over entries != inf and != 0 whose column is
//                    marked in `columns` (every column where columns is null). Threads
//                    stride over the row, then a fixed reduction tree (warp shuffles,
//                    then the block's warps in order): the same input gives the same
//                    float sum every time.
// Launch: grid (B), RS_THREADS threads a block.
#include "common.cuh"

#define RS_THREADS 256  // ops/row_statistics.py: BLOCK
#define RS_FULL_MASK 0xffffffffu

template <typename T>
__device__ __forceinline__ T rs_warp_sum(T x) {
    for (int off = 16; off; off >>= 1) x += __shfl_down_sync(RS_FULL_MASK, x, off);
    return x;
}

template <typename T>
__device__ __forceinline__ T rs_warp_max(T x) {
    for (int off = 16; off; off >>= 1) {
        const T other = __shfl_down_sync(RS_FULL_MASK, x, off);
        if (other > x) x = other;
    }
    return x;
}

extern "C" __global__ void __launch_bounds__(RS_THREADS)
row_statistics(const long long* __restrict__ dist, long long n,
               const unsigned char* __restrict__ columns, long long* reached,
               long long* sums, long long* maxima, double* inverse) {
    typedef long long T;
    const T inf = DistTraits<T>::inf();
    __shared__ long long s_count[RS_THREADS / 32], s_sum[RS_THREADS / 32];
    __shared__ T s_max[RS_THREADS / 32];
    __shared__ double s_inv[RS_THREADS / 32];
    const T* row = dist + (long long)blockIdx.x * n;
    long long count = 0, sum = 0;
    T best = (T)(-0x7fffffffffffffffLL - 1);  // int64's lowest
    double inv = 0.0;
    for (long long v = threadIdx.x; v < n; v += RS_THREADS) {
        const T d = row[v];
        if (d > best) best = d;
        if (d != inf) {
            ++count;
            sum += d;
            if (d != 0 && (columns == nullptr || columns[v])) inv += 1.0 / (double)d;
        }
    }
    count = rs_warp_sum(count);
    sum = rs_warp_sum(sum);
    best = rs_warp_max(best);
    inv = rs_warp_sum(inv);
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) {
        s_count[warp] = count;
        s_sum[warp] = sum;
        s_max[warp] = best;
        s_inv[warp] = inv;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < RS_THREADS / 32; ++w) {
            count += s_count[w];
            sum += s_sum[w];
            if (s_max[w] > best) best = s_max[w];
            inv += s_inv[w];
        }
        reached[blockIdx.x] = count;
        sums[blockIdx.x] = sum;
        maxima[blockIdx.x] = best;
        inverse[blockIdx.x] = inv;
    }
}
