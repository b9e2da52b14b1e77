"""``python -m nx_gpusp compile``: build every CUDA kernel for this machine's GPU now.

The first use of a kernel family compiles it with NVRTC (fw-dpx, with all its lanes,
takes seconds); CuPy keeps the binaries in its cache (``~/.cupy/kernel_cache``, or
``CUPY_CACHE_DIR``), so each family compiles once per machine and GPU architecture.
Running this after installing pays that cost up front instead of in the first call.
"""

import argparse
import sys
import time


def compile_kernels(out=sys.stdout):
    """Compile (or load from CuPy's cache) every kernel table; returns {family: s}."""
    from .executor import cuda_available, get_executor
    from .ops import kernel_tables

    if not cuda_available():
        raise RuntimeError("no CUDA GPU (CuPy) here: nothing to compile")
    ex = get_executor("cuda")
    times = {}
    for family in sorted(kernel_tables()):
        start = time.perf_counter()
        ex.ops(family)
        times[family] = time.perf_counter() - start
        print(f"{family:24s} {times[family]:7.2f} s", file=out, flush=True)
    print(f"{'all':24s} {sum(times.values()):7.2f} s", file=out)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_gpusp", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("compile", help="compile every CUDA kernel into CuPy's cache")
    args = parser.parse_args(argv)
    if args.command == "compile":
        try:
            compile_kernels()
        except RuntimeError as err:
            print(f"nx_gpusp: {err}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
