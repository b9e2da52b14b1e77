"""Device-agnostic drivers: host loops written once against an Executor's ``xp`` and
kernel tables (CUDA kernels on a GPU, NumPy twins on the CPU)."""
