"""Compile every kernel family with a given NVRTC library, no GPU needed: the fallback of
an install whose driver loads none of the prebuilt binaries (a CUDA 12 driver under
CuPy for CUDA 12 compiles with NVRTC 12). Each family's source with its includes inlined,
the runtime's options and every name expression of its table, to a cubin of each
architecture, with the options CuPy's RawModule adds (CUPY_OPTIONS).

Usage: PYTHONPATH=. python tools/nvrtc_check.py --lib PATH/libnvrtc.so.12 [--archs 75,90]
[--jobs 2] [--family near_far ...]  (pip's nvidia-cuda-nvrtc-cu12 wheel holds one under
nvidia/cuda_nvrtc/lib/)."""

import argparse
import ctypes
import sys
import time
from concurrent.futures import ThreadPoolExecutor


# what CuPy (13, 14) adds to a RawModule's options for NVRTC 12 or newer
CUPY_OPTIONS = ("-ftz=true", "--device-as-default-execution-space")


class Nvrtc:
    """The few NVRTC calls a compile needs, through ctypes (they release Python's lock)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def _call(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status:
            raise RuntimeError(f"{name}: {self.lib.nvrtcGetErrorString(status).decode()}")

    def version(self):
        major, minor = ctypes.c_int(), ctypes.c_int()
        self._call("nvrtcVersion", ctypes.byref(major), ctypes.byref(minor))
        return f"{major.value}.{minor.value}"

    def compile(self, source, name, name_expressions, options):
        """(cubin size in bytes, {name expression: lowered name}); RuntimeError with
        NVRTC's log where the source does not compile."""
        prog = ctypes.c_void_p()
        self._call("nvrtcCreateProgram", ctypes.byref(prog), source.encode(), name.encode(),
                   0, None, None)
        try:
            for e in name_expressions:
                self._call("nvrtcAddNameExpression", prog, e.encode())
            opts = (ctypes.c_char_p * len(options))(*(o.encode() for o in options))
            status = self.lib.nvrtcCompileProgram(prog, len(options), opts)
            if status:
                raise RuntimeError(f"{name}: {self._log(prog)}")
            size = ctypes.c_size_t()
            self._call("nvrtcGetCUBINSize", prog, ctypes.byref(size))
            lowered = {}
            for e in name_expressions:
                out = ctypes.c_char_p()
                self._call("nvrtcGetLoweredName", prog, e.encode(), ctypes.byref(out))
                lowered[e] = out.value.decode()
            return size.value, lowered
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))

    def _log(self, prog):
        size = ctypes.c_size_t()
        self._call("nvrtcGetProgramLogSize", prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        self._call("nvrtcGetProgramLog", prog, log)
        return log.value.decode(errors="replace")


def compile_family(nvrtc, source, name_expressions, options, arch):
    """(seconds, cubin bytes) of one family compiled for sm_``arch``."""
    from nx_gpusp.executor import kernel_source

    start = time.perf_counter()
    size, lowered = nvrtc.compile(kernel_source(source), source, name_expressions,
                                  [*options, *CUPY_OPTIONS, f"--gpu-architecture=sm_{arch}"])
    missing = [e for e in name_expressions if not lowered.get(e)]
    if missing:
        raise RuntimeError(f"{source}: no lowered name for {missing}")
    return time.perf_counter() - start, size


def main(argv=None):
    from nx_gpusp.ops import kernel_tables
    from nx_gpusp.prebuilt import kernel_modules

    parser = argparse.ArgumentParser(prog="tools/nvrtc_check.py")
    parser.add_argument("--lib", required=True, help="libnvrtc.so.<major>")
    parser.add_argument("--archs", default="75,90")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--family", action="append", help="only these families")
    args = parser.parse_args(argv)
    nvrtc = Nvrtc(args.lib)
    tables = kernel_tables()
    jobs = [(m, a) for m in kernel_modules() if not args.family or m[0] in args.family
            for a in map(int, args.archs.split(",")) if a >= tables[m[0]].min_arch]

    def one(job):
        (family, source, exprs, options), arch = job
        try:
            seconds, size = compile_family(nvrtc, source, exprs, options, arch)
            return f"{family:22s} sm_{arch:<4d} {len(exprs):4d} instances {seconds:7.2f} s " \
                   f"{size / 1e3:8.1f} kB", True
        except RuntimeError as err:
            return f"{family:22s} sm_{arch:<4d} FAILED {err}", False

    print(f"NVRTC {nvrtc.version()} ({args.lib})")
    start = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one, jobs))
    for line, _ in results:
        print(line)
    failed = sum(not ok for _, ok in results)
    print(f"{len(results) - failed} of {len(results)} compiled in "
          f"{time.perf_counter() - start:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
