// Block-wide inclusive scan of unsigned ints or long longs (Hillis-Steele within each
// warp by __shfl_up_sync, the warps' totals scanned by warp 0), for kernels whose blocks
// are WARPS full warps: the helper of distance_order.cu's digit scans, brandes.cu's
// bucket offsets (Brandes' row order) and contraction.cu's device-wide scans.
#pragma once

// x's inclusive sum over the threads of the block, in thread order. Every thread of the
// block calls it (it synchronises the block twice); warp_sums is WARPS shared entries,
// left holding the warps' inclusive totals (the block's total in warp_sums[WARPS - 1])
// until the caller writes them again.
template <int WARPS, typename T>
__device__ __forceinline__ T block_inclusive_scan(T x, T* warp_sums) {
    static_assert(WARPS >= 1 && WARPS <= 32, "a block of 1 to 32 warps");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const T y = __shfl_up_sync(0xffffffffu, x, off);
        if (lane >= off) x += y;
    }
    if (lane == 31) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        T s = lane < WARPS ? warp_sums[lane] : T(0);
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const T y = __shfl_up_sync(0xffffffffu, s, off);
            if (lane >= off) s += y;
        }
        if (lane < WARPS) warp_sums[lane] = s;
    }
    __syncthreads();
    return x + (warp ? warp_sums[warp - 1] : T(0));
}
