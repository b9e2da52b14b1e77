#!/usr/bin/env bash
# On a GPU machine without network, in a copy of the working tree: install it offline
# and point the tests at the copied data (.data/). Source it:   . tools/device_snapshot.sh
# A .git copied earlier may lag behind the tree: never stash or reset against it (that
# would revert newer commits); commit before copying instead.
echo "device: testing the copied tree (${NX_GPUSP_COMMIT:-commit not given})"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -1
export PYTHONUNBUFFERED=1 NX_GPUSP_DATA=$PWD/.data
# the package's bytecode, as a regular pip install writes it: a Python run with
# PYTHONDONTWRITEBYTECODE would otherwise compile every module of the editable tree in
# each new process (first-call benchmarks: ~0.4 s more per fresh process)
python3 -m compileall -q -j 0 nx_gpusp >/dev/null 2>&1
