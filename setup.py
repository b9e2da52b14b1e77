"""Build steps beyond pyproject.toml's settings:

- the optional C reader of NetworkX adjacency dicts (nx_gpusp/_adjacency.c); where no C
  compiler is found, the package installs without it and nx_gpusp.convert reads the
  dicts in Python;
- a wheel's CUDA kernels compiled with nvcc into nx_gpusp/kernel_binaries
  (nx_gpusp.kernel_build) where NX_GPUSP_BUILD_KERNELS=1, or unset and nvcc is on PATH;
  NX_GPUSP_KERNEL_ARCHS (e.g. "90,120") builds fewer architectures. Editable installs
  never compile them (NVRTC compiles at first use, cached by CuPy).
"""
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))
from nx_gpusp_build import build_kernels  # noqa: E402

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel


class BuildPyWithKernels(build_py):
    def run(self):
        super().run()
        if self.editable_mode or not build_kernels():
            return
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from nx_gpusp import kernel_build

        archs = os.environ.get("NX_GPUSP_KERNEL_ARCHS")
        archs = tuple(int(a) for a in archs.split(",")) if archs else kernel_build.ARCHS
        out = Path(self.build_lib) / "nx_gpusp" / "kernel_binaries"
        kernel_build.build(out, archs, jobs=os.cpu_count() or 2)


class PlatformWheel(bdist_wheel):
    """Kernels or the C reader make a platform wheel; kernels alone need no CPython ABI."""

    def get_tag(self):
        python, abi, plat = super().get_tag()
        if python.startswith("cp") and not _built_extension(self):
            return "py3", "none", plat
        return python, abi, plat


def _built_extension(cmd):
    build = cmd.get_finalized_command("build")
    return any(Path(build.build_lib).glob("nx_gpusp/_adjacency*.so"))


setup(ext_modules=[Extension("nx_gpusp._adjacency", ["nx_gpusp/_adjacency.c"], optional=True)],
      cmdclass={"build_py": BuildPyWithKernels, "bdist_wheel": PlatformWheel})
