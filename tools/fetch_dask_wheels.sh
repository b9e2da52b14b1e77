#!/usr/bin/env bash
# Download, here (with network), the wheels that the Dask path needs on the 2-GPU
# machine, which has no network and whose Python 3.12 image lacks Dask. They land in
# .whl-dask/ (git-ignored), to be copied there with the working tree; install them there
# offline, beside the image's packages:
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site-dask .whl-dask/*.whl
#   export PYTHONPATH=/tmp/site-dask
# The image already has what else these need: click, cloudpickle, fsspec, packaging,
# pyyaml, toolz, jinja2, msgpack, psutil, sortedcontainers, numpy, pandas, numba,
# nvidia-ml-py (pynvml), cuda-core, contourpy, narwhals, pillow (for bokeh).
# Versions: dask-cuda 26.10 pins, through rapids-dask-dependency 26.10, dask and
# distributed 2026.7.1 and bokeh < 3.10 (the dashboard); the rest is their newest.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .whl-dask
mkdir -p .whl-dask
WHEELS=(
    dask==2026.7.1
    distributed==2026.7.1
    dask-cuda==26.10.0
    rapids-dask-dependency==26.10.0
    partd==1.4.2
    locket==1.0.0
    zict==3.0.0
    tblib==3.2.2
    tornado==6.6.1
    bokeh==3.9.2
    xyzservices==2026.9.1
)
PLATFORMS=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 \
         manylinux2014_x86_64 manylinux1_x86_64; do
    PLATFORMS+=(--platform "$p")
done
python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp "${PLATFORMS[@]}" -d .whl-dask "${WHEELS[@]}"
ls .whl-dask
du -sh .whl-dask
