#!/usr/bin/env bash
# Download, here (with network), the wheels that asv needs on the GPU machine, which
# has Python 3.12 with numpy/scipy/networkx/cupy, pyyaml, tabulate, packaging, build
# and zipp, but no asv and no network. They land in .whl/ (git-ignored), to be copied
# to that machine with the working tree; tools/asv_gpu.sh installs them offline into
# /tmp/site. About 1 MB in all.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .whl
# asv's own needs that the GPU image lacks (asv's virtualenv plugin is not used with
# environment_type "existing", so virtualenv and its tree are left out)
WHEELS=(
    asv==0.6.6
    asv-runner==0.3.2
    json5==0.17.3
    pympler==1.1
    importlib-metadata==10.2.0
    lazy-importer==0.1.0
)
PLATFORMS=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 \
         manylinux2014_x86_64 manylinux1_x86_64; do
    PLATFORMS+=(--platform "$p")
done
python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp "${PLATFORMS[@]}" -d .whl "${WHEELS[@]}"
# one version of each: an older copy left in .whl/ would stop the offline install
ls .whl
du -sh .whl
