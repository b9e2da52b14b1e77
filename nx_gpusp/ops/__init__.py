"""Kernel tables: one module per CUDA source family, each with ``CudaOps`` (launches
``kernels/<family>.cu``) and ``NumpyOps`` (its host twin, same method signatures and
the same effect on the arrays it is given)."""
