// Shared device helpers for every nx-gpusp kernel family.
//
// Distances are templated on the weight type T: long long (exact integer weights) or
// double (float weights); the 32-bit types are used only where a caller proved them exact.
// "Unreached" is DistTraits<T>::inf(); adding to it must never be attempted (callers
// relax only from reached vertices, or use add_saturating).
#pragma once

template <typename T> struct DistTraits;
template <> struct DistTraits<long long> {
    __device__ static long long inf() { return 0x7fffffffffffffffLL; }
};
template <> struct DistTraits<int> {
    __device__ static int inf() { return 0x7fffffff; }
};
template <> struct DistTraits<double> {
    __device__ static double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
};
template <> struct DistTraits<float> {
    __device__ static float inf() { return __int_as_float(0x7f800000); }
};

// a + b where either may be "unreached"; for the integer types INF is absorbing.
template <typename T> __device__ __forceinline__ T add_saturating(T a, T b) {
    const T inf = DistTraits<T>::inf();
    return (a == inf || b == inf) ? inf : a + b;
}
template <> __device__ __forceinline__ double add_saturating<double>(double a, double b) { return a + b; }
template <> __device__ __forceinline__ float add_saturating<float>(float a, float b) { return a + b; }

// atomic minimum returning the previous value, for every distance type.
__device__ __forceinline__ long long atomic_min(long long* addr, long long val) {
    return atomicMin(addr, val);
}
__device__ __forceinline__ int atomic_min(int* addr, int val) { return atomicMin(addr, val); }
// Floating point: one integer atomic on the bits (one round trip to L2 and no retries
// under contention, where a compare-and-swap loop takes a load and at least one CAS).
// For values that are not NaN, where val's sign bit is clear the order of two values
// is that of their bits as signed integers (a stored negative value stays below it
// either way), and where it is set the reverse of their bits as unsigned integers (a
// stored non-negative value is below it as unsigned). Zero is stored as +0, so -0 never
// goes the unsigned way past a stored +0: an equal value is never replaced.
__device__ __forceinline__ double atomic_min(double* addr, double val) {
    const long long bits = val == 0.0 ? 0LL : __double_as_longlong(val);
    if (bits >= 0)
        return __longlong_as_double(atomicMin(reinterpret_cast<long long*>(addr), bits));
    return __longlong_as_double(static_cast<long long>(atomicMax(
        reinterpret_cast<unsigned long long*>(addr), static_cast<unsigned long long>(bits))));
}
__device__ __forceinline__ float atomic_min(float* addr, float val) {
    const int bits = val == 0.0f ? 0 : __float_as_int(val);
    if (bits >= 0) return __int_as_float(atomicMin(reinterpret_cast<int*>(addr), bits));
    return __int_as_float(static_cast<int>(
        atomicMax(reinterpret_cast<unsigned int*>(addr), static_cast<unsigned int>(bits))));
}

// Binary search: the first i in [0, m) where below(i) is false, below being true on a
// prefix of [0, m) and false after it (m where it is true everywhere).
template <typename Below>
__device__ __forceinline__ long long partition_point(long long m, Below below) {
    long long lo = 0, hi = m;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (below(mid)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
// the first entry of sorted[0..m) that is >= q (m where none)
template <typename T>
__device__ __forceinline__ long long lower_bound(const T* sorted, long long m, T q) {
    return partition_point(m, [=](long long i) { return sorted[i] < q; });
}
// the first entry of sorted[0..m) that is > q (m where none)
template <typename T>
__device__ __forceinline__ long long upper_bound(const T* sorted, long long m, T q) {
    return partition_point(m, [=](long long i) { return sorted[i] <= q; });
}

__device__ __forceinline__ long long global_thread_id() {
    return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ long long grid_stride() {
    return static_cast<long long>(gridDim.x) * blockDim.x;
}

// Slot of the calling lane in an append to a shared counter: one atomicAdd per group of
// lanes that arrive together (warp-aggregated, as cooperative groups' coalesced_threads:
// the lanes of __activemask() elect the lowest as leader), instead of one per lane, so
// a frontier of 10^5 appends does not serialise on one L2 address.
template <typename C> __device__ __forceinline__ C append_slot(C* counter) {
    const unsigned active = __activemask();
    const int lane = threadIdx.x & 31, leader = __ffs(active) - 1;
    C base = 0;
    if (lane == leader) base = atomicAdd(counter, C(__popc(active)));
    base = __shfl_sync(active, base, leader);
    return base + C(__popc(active & ((1u << lane) - 1)));
}
