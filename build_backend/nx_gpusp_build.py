"""The PEP 517 backend: setuptools', asking also for NumPy where the build compiles the
CUDA kernels (setup.py imports the kernel tables to list their name expressions)."""

import os
import shutil

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403


def build_kernels():
    """NX_GPUSP_BUILD_KERNELS: 1 compiles the kernels (nvcc required), 0 never; unset,
    a wheel compiles them where nvcc is on PATH."""
    flag = os.environ.get("NX_GPUSP_BUILD_KERNELS", "")
    return flag == "1" or (flag != "0" and shutil.which("nvcc") is not None)


def wheel_tag(tag, extension, kernels):
    """The wheel's tag from bdist_wheel's (python, abi, platform): the C reader makes a
    CPython wheel of the platform, kernels without it a py3 wheel of the platform, neither
    a pure one (py3-none-any)."""
    python, abi, plat = tag
    if extension:
        return python, abi, plat
    return ("py3", "none", plat) if kernels else ("py3", "none", "any")


def get_requires_for_build_wheel(config_settings=None):
    extra = ["numpy>=1.26"] if build_kernels() else []
    return _setuptools.get_requires_for_build_wheel(config_settings) + extra
