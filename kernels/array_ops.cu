// Array operations of the solvers' set-up and of their answers' way to the host (not a
// paper's kernels): filling, casting, scattering, the diagonal of a matrix, the dense
// matrix of a CSR graph, distance conversion with a sentinel, the range of finite
// distances. CuPy's own routines for these (full, astype, fancy-index assignment,
// where, min/max) are kernels it compiles with NVRTC at their first use in a process,
// ~0.3 s each on a machine whose cache is empty; these are built ahead of time with the
// other families.
//   ao_fill<T>           out[i] = value, i < n
//   ao_cast<S, D>        out[i] = (D)in[i], i < n
//   ao_put<T>            out[idx[i]] = values ? values[i] : value, i < k (repeated
//                        indices: any one of their values)
//   ao_diagonal<T>       d (rows of ld entries), i < n: mode 0: out[i] = d[i][i]; mode 1:
//                        d[i][i] = value; mode 2: d[i][i] = min(d[i][i], value)
//   ao_dense_from_csr<W, T>
//                        mat[u][v] = (T)w for every arc (u, v, w) of the CSR (indptr
//                        int64[n + 1], indices int32, weights W), mat's rows ld entries
//                        apart (a warp a row, its lanes over the row's arcs; parallel
//                        arcs are merged by the CSR)
//   ao_convert_block<S, D>
//                        dst (rows x cols, row-major) from src (rows ld entries apart):
//                        v = src[r][c] (r = perm[i], c = perm[j] where perm is given,
//                        else i, j), dst[i][j] = v > bound ? over : (D)v
//   ao_finite_range<T>   range[0] = min, range[1] = max over in[i] != inf, i < n (the
//                        caller starts range at (inf, lowest))
// Launch: grid-stride, 1-D grid of BLOCK threads over the items (n, k, rows * cols;
// ao_dense_from_csr: 32 n).
#include "common.cuh"

template <typename T>
__global__ void ao_fill(T* out, long long n, T value) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) out[i] = value;
}

template <typename S, typename D>
__global__ void ao_cast(const S* __restrict__ in, D* __restrict__ out, long long n) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) out[i] = (D)in[i];
}

template <typename T>
__global__ void ao_put(T* out, const long long* __restrict__ idx,
                       const T* __restrict__ values, long long k, T value) {
    for (long long i = global_thread_id(); i < k; i += grid_stride())
        out[idx[i]] = values ? values[i] : value;
}

template <typename T>
__global__ void ao_diagonal(T* d, long long n, long long ld, int mode, T value,
                            T* __restrict__ out) {
    for (long long i = global_thread_id(); i < n; i += grid_stride()) {
        T* at = d + i * ld + i;
        if (mode == 0) out[i] = *at;
        else if (mode == 1) *at = value;
        else if (value < *at) *at = value;
    }
}

template <typename W, typename T>
__global__ void ao_dense_from_csr(const long long* __restrict__ indptr,
                                  const int* __restrict__ indices,
                                  const W* __restrict__ weights, long long n, T* mat,
                                  long long ld) {
    const int lane = threadIdx.x & 31;
    for (long long u = global_thread_id() >> 5; u < n; u += grid_stride() >> 5) {
        T* row = mat + u * ld;
        for (long long a = indptr[u] + lane; a < indptr[u + 1]; a += 32)
            row[indices[a]] = (T)weights[a];
    }
}

template <typename S, typename D>
__global__ void ao_convert_block(const S* __restrict__ src, long long ld,
                                 const long long* __restrict__ perm, long long rows,
                                 long long cols, S bound, D over, D* __restrict__ dst) {
    const long long total = rows * cols;
    for (long long k = global_thread_id(); k < total; k += grid_stride()) {
        const long long i = k / cols, j = k - i * cols;
        const S v = perm ? src[perm[i] * ld + perm[j]] : src[i * ld + j];
        dst[k] = v > bound ? over : (D)v;
    }
}

template <typename T>
__global__ void ao_finite_range(const T* __restrict__ in, long long n, T* range) {
    const T inf = DistTraits<T>::inf();
    T lo = inf, hi = -inf - 1;  // integer types only: -inf - 1 is the type's lowest
    for (long long i = global_thread_id(); i < n; i += grid_stride()) {
        const T v = in[i];
        if (v != inf) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    for (int off = 16; off; off >>= 1) {
        const T a = __shfl_down_sync(0xffffffffu, lo, off);
        const T b = __shfl_down_sync(0xffffffffu, hi, off);
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(range, lo);
        atomicMax(range + 1, hi);
    }
}
