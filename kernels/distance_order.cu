// Distance order of a search's answer (no single paper: what NetworkX's Dijkstra dicts
// are keyed in): the reached vertices by non-decreasing distance, ties by vertex index.
// A least-significant-digit radix sort of 8-bit digits (Satish, Harris and Garland,
// "Designing Efficient Sorting Algorithms for Manycore GPUs", IPDPS 2009), on keys that
// are the distances' order-preserving bit patterns less their minimum, so that a pass
// is run only for the bits the range of distances needs (NY's integer distances: 3).
//   order_range     stats = (minimum key, maximum key, reached count) of the reached
//                   vertices (distance != DistTraits<T>::inf()).
//   order_init      keys[i] = key(dist[i]) - lo for a reached vertex, span (above every
//                   reached key) for an unreached one; vals[i] = i.
//   order_histogram hist[d * tiles + t] = the keys of tile t whose digit is d.
//   order_scan_rows each digit's row of hist scanned (exclusive, in place), its total in
//                   totals[d].
//   order_scatter   each key and value to its place: the keys of smaller digits, those
//                   of its digit in earlier tiles, earlier in its tile (warps in order,
//                   lanes ranked by __match_any_sync): a stable pass.
// The host reads stats, runs ceil(bits / 8) passes (keys of 32 bits where the span
// fits), and keeps vals[:count].
//
// Launch: order_range and order_init grid-stride over the vertices; histogram and
// scatter, one ORDER_THREADS block a tile of ORDER_TILE keys; scan_rows, 256 blocks of
// ORDER_SCAN_THREADS. Arguments: dist[n] T; stats[3] unsigned long long (the host sets
// ~0, 0, 0); keys[n] K and vals[n] int32, twice (passes alternate); hist[256 * tiles]
// and totals[256] unsigned int.
#include "common.cuh"
#include "block_scan.cuh"

#define ORDER_THREADS 256        // ops/order.py: BLOCK
#define ORDER_PER_THREAD 16
#define ORDER_TILE (ORDER_THREADS * ORDER_PER_THREAD)  // ops/order.py: ORDER_TILE
#define ORDER_SCAN_THREADS 1024
#define ORDER_RADIX 256
#define FULL_MASK 0xffffffffu
static_assert(ORDER_THREADS == ORDER_RADIX, "a thread per digit in the shared counts");

// The distance's bits as an unsigned integer of the same order (-0.0 as 0.0, which the
// host's sort holds equal).
__device__ __forceinline__ unsigned long long order_bits(long long d) {
    return static_cast<unsigned long long>(d) ^ 0x8000000000000000ULL;
}
__device__ __forceinline__ unsigned long long order_bits(int d) {
    return static_cast<unsigned long long>(static_cast<unsigned int>(d) ^ 0x80000000u);
}
__device__ __forceinline__ unsigned long long order_bits(double d) {
    const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(d + 0.0));
    return (b >> 63) ? ~b : (b | 0x8000000000000000ULL);
}

template <typename T>
__global__ void __launch_bounds__(ORDER_THREADS)
order_range(const T* __restrict__ dist, long long n, unsigned long long* stats) {
    __shared__ unsigned long long lo, hi;
    __shared__ unsigned int count;
    if (threadIdx.x == 0) { lo = ~0ULL; hi = 0; count = 0; }
    __syncthreads();
    unsigned long long my_lo = ~0ULL, my_hi = 0;
    unsigned int my_count = 0;
    const T inf = DistTraits<T>::inf();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        const T d = dist[i];
        if (d != inf) {
            const unsigned long long k = order_bits(d);
            my_lo = min(my_lo, k);
            my_hi = max(my_hi, k);
            ++my_count;
        }
    }
    for (int off = 16; off; off >>= 1) {
        my_lo = min(my_lo, __shfl_down_sync(FULL_MASK, my_lo, off));
        my_hi = max(my_hi, __shfl_down_sync(FULL_MASK, my_hi, off));
        my_count += __shfl_down_sync(FULL_MASK, my_count, off);
    }
    if ((threadIdx.x & 31) == 0 && my_count) {
        atomicMin(&lo, my_lo);
        atomicMax(&hi, my_hi);
        atomicAdd(&count, my_count);
    }
    __syncthreads();
    if (threadIdx.x == 0 && count) {
        atomicMin(stats, lo);
        atomicMax(stats + 1, hi);
        atomicAdd(stats + 2, static_cast<unsigned long long>(count));
    }
}

template <typename T, typename K>
__device__ __forceinline__ void order_init_body(const T* __restrict__ dist, long long n,
                                                unsigned long long lo,
                                                unsigned long long span, K* keys,
                                                int* vals) {
    const T inf = DistTraits<T>::inf();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        const T d = dist[i];
        keys[i] = static_cast<K>(d != inf ? order_bits(d) - lo : span);
        vals[i] = static_cast<int>(i);
    }
}

template <typename T>
__global__ void order_init32(const T* __restrict__ dist, long long n, unsigned long long lo,
                             unsigned long long span, unsigned int* keys, int* vals) {
    order_init_body<T, unsigned int>(dist, n, lo, span, keys, vals);
}

template <typename T>
__global__ void order_init64(const T* __restrict__ dist, long long n, unsigned long long lo,
                             unsigned long long span, unsigned long long* keys, int* vals) {
    order_init_body<T, unsigned long long>(dist, n, lo, span, keys, vals);
}

template <typename K>
__global__ void __launch_bounds__(ORDER_THREADS)
order_histogram(const K* __restrict__ keys, long long n, int shift, unsigned int* hist,
                int tiles) {
    __shared__ unsigned int count[ORDER_RADIX];
    count[threadIdx.x] = 0;  // ORDER_THREADS == ORDER_RADIX
    __syncthreads();
    const long long base = (long long)blockIdx.x * ORDER_TILE + threadIdx.x;
#pragma unroll 4
    for (int it = 0; it < ORDER_PER_THREAD; ++it) {
        const long long i = base + it * ORDER_THREADS;
        if (i < n) atomicAdd(&count[(unsigned int)(keys[i] >> shift) & (ORDER_RADIX - 1)], 1u);
    }
    __syncthreads();
    hist[(long long)threadIdx.x * tiles + blockIdx.x] = count[threadIdx.x];
}

// Exclusive scan of row blockIdx.x of hist (tiles entries), its total in totals.
__global__ void __launch_bounds__(ORDER_SCAN_THREADS)
order_scan_rows(unsigned int* hist, int tiles, unsigned int* totals) {
    __shared__ unsigned int warp_sums[ORDER_SCAN_THREADS / 32];
    unsigned int* row = hist + (long long)blockIdx.x * tiles;
    unsigned int carry = 0;
    for (int start = 0; start < tiles; start += ORDER_SCAN_THREADS) {
        const int i = start + threadIdx.x;
        const unsigned int v = i < tiles ? row[i] : 0;
        const unsigned int x = block_inclusive_scan<ORDER_SCAN_THREADS / 32>(v, warp_sums);
        if (i < tiles) row[i] = carry + x - v;
        carry += warp_sums[ORDER_SCAN_THREADS / 32 - 1];
        __syncthreads();  // warp_sums is rewritten by the next chunk
    }
    if (threadIdx.x == 0) totals[blockIdx.x] = carry;
}

template <typename K>
__global__ void __launch_bounds__(ORDER_THREADS)
order_scatter(const K* __restrict__ keys, const int* __restrict__ vals, long long n,
              int shift, const unsigned int* __restrict__ hist,
              const unsigned int* __restrict__ totals, int tiles, K* keys_out,
              int* vals_out) {
    constexpr int WARPS = ORDER_THREADS / 32;
    __shared__ unsigned int base[ORDER_RADIX];  // this tile's first place of each digit
    __shared__ unsigned int counts[WARPS][ORDER_RADIX];
    __shared__ unsigned int offsets[WARPS][ORDER_RADIX];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    // base = exclusive scan of totals (Hillis-Steele over the 256 digits) + this tile's
    // place within its digit's row
    base[t] = totals[t];
    for (int w = 0; w < WARPS; ++w) counts[w][t] = 0;
    __syncthreads();
    for (int off = 1; off < ORDER_RADIX; off <<= 1) {
        const unsigned int y = t >= off ? base[t - off] : 0;
        __syncthreads();
        base[t] += y;
        __syncthreads();
    }
    const unsigned int first = (t ? base[t - 1] : 0) + hist[(long long)t * tiles + blockIdx.x];
    __syncthreads();
    base[t] = first;
    unsigned int running = 0;  // keys of digit t placed by this tile so far
    const unsigned int lower = (1u << lane) - 1;
    for (int it = 0; it < ORDER_PER_THREAD; ++it) {
        const long long i = (long long)blockIdx.x * ORDER_TILE + it * ORDER_THREADS + t;
        const bool valid = i < n;
        const K key = valid ? keys[i] : K(0);
        const unsigned int digit = valid ? (unsigned int)(key >> shift) & (ORDER_RADIX - 1)
                                         : ORDER_RADIX;  // past the end: a group of its own
        const unsigned int peers = __match_any_sync(FULL_MASK, digit);
        const unsigned int rank = __popc(peers & lower);
        if (valid && rank == 0) counts[warp][digit] = __popc(peers);
        __syncthreads();
        unsigned int s = running;  // digit t: its keys in the warps before each warp
        for (int w = 0; w < WARPS; ++w) {
            const unsigned int c = counts[w][t];
            counts[w][t] = 0;
            offsets[w][t] = s;
            s += c;
        }
        running = s;
        __syncthreads();
        if (valid) {
            const unsigned int pos = base[digit] + offsets[warp][digit] + rank;
            keys_out[pos] = key;
            vals_out[pos] = vals[i];
        }
    }
}
