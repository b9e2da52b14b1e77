"""Kernel table for kernels/array_ops.cu (filling, casting, scattering, diagonals, the
dense matrix of a CSR graph, distance conversion with a sentinel, the range of finite
distances) and its NumPy twin.

On a GPU these replace CuPy's ``full``/``fill``, ``astype``, fancy-index assignment,
``where`` and reductions on the paths of a process's first calls: CuPy compiles each of
its own kernels with NVRTC at first use (~0.3 s apiece on a machine whose cache is
empty), where these are built ahead of time with the other families. Arrays given to
them are C-contiguous; results are new C-contiguous arrays unless said otherwise."""

import numpy as np

from ..graph import distance_inf
from .base import CUDA_TYPE, CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "VALUE_TYPES", "MATRIX_TYPES"]

VALUE_TYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64,
                                          np.float32, np.float64))
MATRIX_TYPES = tuple(np.dtype(t) for t in (np.int16, np.int32, np.int64, np.float32,
                                           np.float64))
_FILL_TYPES = VALUE_TYPES + (np.dtype(np.uint8), np.dtype(np.uint32), np.dtype(np.uint64))
_WEIGHT_TYPES = (np.dtype(np.int64), np.dtype(np.float64))
_RANGE_TYPES = (np.dtype(np.int32), np.dtype(np.int64))
NULL = scalar(0, np.uint64)  # a null pointer argument


def _c(dtype):
    return CUDA_TYPE[np.dtype(dtype)]


def _row_stride(mat):
    """Entries from one row of the matrix ``mat`` to the next (a block of a larger matrix
    has its rows that far apart); its entries within a row must be adjacent."""
    if mat.size == 0:  # nothing is read: any stride does
        return max(mat.shape[1], 1)
    if mat.shape[1] > 1 and mat.strides[1] != mat.itemsize:
        raise ValueError("gpusp: the matrix's entries within a row must be adjacent")
    return mat.strides[0] // mat.itemsize if mat.shape[0] > 1 else mat.shape[1]


def _uniform_bytes(value, dtype):
    """The byte every byte of ``value`` as ``dtype`` is (a memset fills with it), else None."""
    raw = np.array(value, dtype=dtype).tobytes()
    return raw[0] if raw == raw[:1] * len(raw) else None


class CudaOps(CudaKernelTable):
    source = "array_ops.cu"
    templates = ()
    plain = ()
    instances = (
        tuple(f"ao_fill<{_c(t)}>" for t in _FILL_TYPES)
        + tuple(f"ao_put<{_c(t)}>" for t in _FILL_TYPES)
        + tuple(f"ao_cast<{_c(s)}, {_c(d)}>" for s in VALUE_TYPES for d in VALUE_TYPES
                if s != d)
        + tuple(f"ao_convert_block<{_c(s)}, {_c(d)}>" for s in VALUE_TYPES
                for d in VALUE_TYPES)
        + tuple(f"ao_diagonal<{_c(t)}>" for t in MATRIX_TYPES)
        + tuple(f"ao_dense_from_csr<{_c(w)}, {_c(t)}>" for w in _WEIGHT_TYPES
                for t in MATRIX_TYPES)
        + tuple(f"ao_finite_range<{_c(t)}>" for t in _RANGE_TYPES))

    def fill(self, arr, value):
        """Every entry of ``arr`` set to ``value`` (a memset where its bytes are all
        equal: 0, -1, ...); returns ``arr``."""
        byte = _uniform_bytes(value, arr.dtype)
        if byte is not None:
            return self.ex.fill_bytes(arr, byte)
        self.launch(f"ao_fill<{_c(arr.dtype)}>", arr.size,
                     (arr, scalar(arr.size, np.int64), scalar(value, arr.dtype)))
        return arr

    def full(self, shape, value, dtype):
        """A new array of ``shape`` filled with ``value``."""
        return self.fill(self.cp.empty(shape, dtype=dtype), value)

    def astype(self, arr, dtype):
        """``arr`` as ``dtype`` (``arr`` itself where it is that type already)."""
        dtype = np.dtype(dtype)
        if arr.dtype == dtype:
            return arr
        out = self.cp.empty(arr.shape, dtype=dtype)
        self.launch(f"ao_cast<{_c(arr.dtype)}, {_c(dtype)}>", arr.size,
                     (arr, out, scalar(arr.size, np.int64)))
        return out

    def put(self, arr, index, values):
        """``arr.reshape(-1)[index] = values`` (``index``: int64 flat positions, host or
        device; ``values``: one scalar, or one value per index, host or device); returns
        ``arr``."""
        if not isinstance(index, self.cp.ndarray):
            index = self.cp.asarray(np.asarray(index, dtype=np.int64).reshape(-1))
        elif index.dtype != np.int64:
            index = self.astype(index.reshape(-1), np.int64)
        if isinstance(values, self.cp.ndarray):
            vals, value = self.astype(values.reshape(-1), arr.dtype), scalar(0, arr.dtype)
        elif np.ndim(values) == 0:
            vals, value = NULL, scalar(values, arr.dtype)
        else:
            vals = self.cp.asarray(np.asarray(values, dtype=arr.dtype).reshape(-1))
            value = scalar(0, arr.dtype)
        self.launch(f"ao_put<{_c(arr.dtype)}>", index.size,
                     (arr, index, vals, scalar(index.size, np.int64), value))
        return arr

    def diagonal(self, d, n):
        """A new array of d[i][i], i < n."""
        out = self.cp.empty(n, dtype=d.dtype)
        self._diagonal(d, n, 0, 0, out)
        return out

    def set_diagonal(self, d, n, value, *, lower_only=False):
        """d[i][i] = value, i < n (``lower_only``: min(d[i][i], value)); returns ``d``."""
        self._diagonal(d, n, 2 if lower_only else 1, value, NULL)
        return d

    def _diagonal(self, d, n, mode, value, out):
        self.launch(f"ao_diagonal<{_c(d.dtype)}>", n, (
            d, scalar(n, np.int64), scalar(_row_stride(d), np.int64), scalar(mode, np.int32),
            scalar(value, d.dtype), out))

    def dense_from_csr(self, g, mat):
        """mat[u][v] = the weight of arc (u, v) of the device CSR ``g`` (the weights cast
        to mat's type: exact only where the caller proved they fit); returns ``mat``."""
        self.launch(f"ao_dense_from_csr<{_c(g.weights.dtype)}, {_c(mat.dtype)}>", 32 * g.n, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int64), mat,
            scalar(_row_stride(mat), np.int64)))
        return mat

    def convert_block(self, src, rows, cols, dtype, *, bound, over, perm=None):
        """A new rows x cols ``dtype`` array of src's top-left block (rows and columns
        ``perm``, int64 indices, where given): over where an entry is above ``bound``,
        else the entry as ``dtype``."""
        out = self.cp.empty((rows, cols), dtype=dtype)
        if src.strides[1] != src.itemsize:  # no layout of ours (CuPy's copy kernel)
            src = self.cp.ascontiguousarray(src)
        if perm is not None:
            perm = self.cp.asarray(np.asarray(perm, dtype=np.int64)) \
                if isinstance(perm, np.ndarray) else perm
        self.launch(f"ao_convert_block<{_c(src.dtype)}, {_c(dtype)}>", rows * cols, (
            src, scalar(_row_stride(src), np.int64), NULL if perm is None else perm,
            scalar(rows, np.int64), scalar(cols, np.int64), scalar(bound, src.dtype),
            scalar(over, dtype), out))
        return out

    def finite_range(self, arr):
        """(least, largest) entry of the integer ``arr`` other than ``distance_inf``,
        as Python ints: (inf, the type's lowest) where there is none."""
        info = np.iinfo(arr.dtype)
        out = self.cp.asarray(np.array([info.max, info.min], dtype=arr.dtype))
        self.launch(f"ao_finite_range<{_c(arr.dtype)}>", arr.size,
                    (arr, scalar(arr.size, np.int64), out),
                    max_blocks=self.resident_blocks(f"ao_finite_range<{_c(arr.dtype)}>"))
        lo, hi = self.ex.to_host(out).tolist()
        return lo, hi



class NumpyOps(NumpyTwin):
    def fill(self, arr, value):
        arr.fill(value)
        return arr

    def full(self, shape, value, dtype):
        return np.full(shape, value, dtype=dtype)

    def astype(self, arr, dtype):
        return arr.astype(dtype, copy=False)

    def put(self, arr, index, values):
        arr.reshape(-1)[np.asarray(index, dtype=np.int64)] = values
        return arr

    def diagonal(self, d, n):
        return np.diagonal(d)[:n].copy()

    def set_diagonal(self, d, n, value, *, lower_only=False):
        i = np.arange(n)
        d[i, i] = np.minimum(d[i, i], value) if lower_only else value
        return d

    def dense_from_csr(self, g, mat):
        tails = np.repeat(np.arange(g.n, dtype=np.int64), np.diff(g.indptr))
        mat[tails, g.indices] = g.weights.astype(mat.dtype)
        return mat

    def convert_block(self, src, rows, cols, dtype, *, bound, over, perm=None):
        block = src[:rows, :cols] if perm is None else src[np.ix_(perm, perm)]
        above = block > np.asarray(bound, dtype=src.dtype)
        with np.errstate(invalid="ignore"):
            out = np.where(above, 0, block).astype(dtype)
        out[above] = over
        return out

    def finite_range(self, arr):
        inf = distance_inf(arr.dtype)
        finite = arr[arr != inf]
        if finite.size == 0:
            return inf, int(np.iinfo(arr.dtype).min)
        return int(finite.min()), int(finite.max())
