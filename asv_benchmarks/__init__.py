"""asv benchmarks of nx-gpusp (not part of the installed package).

Workload size: NX_GPUSP_BENCH_SCALE=ci (tiny, CPU, default) or gpu (the issue-4/5
graphs); see asv_benchmarks/workloads.py and docs/performance.md.
"""
