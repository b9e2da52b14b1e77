"""The wheel carries kernels/*.cu and the licence, declares its extras, and an installed
package finds its kernels (fresh venv)."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from nx_gpusp.kernel_sources import kernel_names

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_tag_says_what_was_built():
    sys.path.insert(0, str(ROOT / "build_backend"))
    try:
        from nx_gpusp_build import wheel_tag
    finally:
        sys.path.remove(str(ROOT / "build_backend"))
    tag = ("cp311", "cp311", "linux_x86_64")
    assert wheel_tag(tag, extension=True, kernels=True) == tag
    assert wheel_tag(tag, extension=True, kernels=False) == tag
    assert wheel_tag(tag, extension=False, kernels=True) == ("py3", "none", "linux_x86_64")
    assert wheel_tag(tag, extension=False, kernels=False) == ("py3", "none", "any")


@pytest.mark.slow
def test_wheel_ships_every_kernel_and_installed_package_loads_them(tmp_path):
    pytest.importorskip("setuptools")
    wheel_dir = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(wheel_dir), str(ROOT)], check=True, cwd=tmp_path,
                   env={**os.environ, "NX_GPUSP_BUILD_KERNELS": "0"})  # tools/ci_wheel.sh builds them
    wheel = next(wheel_dir.glob("nx_gpusp-*.whl"))
    expected = {p.name for p in (ROOT / "kernels").iterdir() if p.suffix in (".cu", ".cuh")}
    assert expected and set(kernel_names()) == expected
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        shipped = {Path(n).name for n in names if n.startswith("nx_gpusp/cuda_sources/")}
        metadata = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert "BSD 3-Clause" in zf.read(licence).decode()
    assert shipped == expected
    assert not [n for n in names if "kernel_binaries" in n]  # nor a former build's
    assert wheel.name.endswith("-linux_x86_64.whl" if any(n.startswith("nx_gpusp/_adjacency")
                                                          for n in names) else "-py3-none-any.whl")
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Author: the nx-gpusp developers" in metadata
    for requirement in ('cupy-cuda12x>=13.6; extra == "cuda12"',
                        'cupy-cuda13x>=13.6; extra == "cuda13"',
                        'nx-gpusp[cuda13]; extra == "cuda"', 'pooch>=1.7; extra == "data"'):
        assert f"Requires-Dist: {requirement}" in metadata, requirement
    assert "Project-URL: Source, " in metadata and "Classifier: " in metadata

    alone = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the venv's package
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, cwd=tmp_path, env=alone)
    code = (
        "from nx_gpusp.kernel_sources import kernel_dir, kernel_names, read_kernel\n"
        "import sys\n"
        "d = kernel_dir(); assert str(d).startswith(sys.prefix), d\n"
        "names = kernel_names()\n"
        "assert all(read_kernel(n).strip() for n in names)\n"
        "print(' '.join(names))\n")
    out = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env=alone)
    assert out.returncode == 0, out.stderr
    assert set(out.stdout.split()) == expected
