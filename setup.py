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
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))
from nx_gpusp_build import build_kernels, wheel_tag  # noqa: E402

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel


class BuildPyWithKernels(build_py):
    def run(self):
        super().run()
        out = Path(self.build_lib) / "nx_gpusp" / "kernel_binaries"
        shutil.rmtree(out, ignore_errors=True)  # never a former build's binaries
        if self.editable_mode or not build_kernels():
            return
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from nx_gpusp import kernel_build

        archs = os.environ.get("NX_GPUSP_KERNEL_ARCHS")
        archs = tuple(int(a) for a in archs.split(",")) if archs else kernel_build.ARCHS
        kernel_build.build(out, archs, jobs=os.cpu_count() or 2)


class PlatformWheel(bdist_wheel):
    """The wheel's tag by what was built (nx_gpusp_build.wheel_tag)."""

    def get_tag(self):
        lib = Path(self.get_finalized_command("build").build_lib) / "nx_gpusp"
        return wheel_tag(super().get_tag(), extension=any(lib.glob("_adjacency*.so")),
                         kernels=any(lib.glob("kernel_binaries/*.fatbin")))


setup(ext_modules=[Extension("nx_gpusp._adjacency", ["nx_gpusp/_adjacency.c"], optional=True)],
      cmdclass={"build_py": BuildPyWithKernels, "bdist_wheel": PlatformWheel})
