#!/usr/bin/env bash
# On a GPU machine without network, in a copy of the working tree: install it offline
# and point the tests at the copied data (.data/). Source it:   . tools/device_snapshot.sh
# A .git copied earlier may lag behind the tree: never stash or reset against it (that
# would revert newer commits); commit before copying instead.
echo "device: testing the copied tree (${NX_GPUSP_COMMIT:-commit not given})"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -1
export PYTHONUNBUFFERED=1 NX_GPUSP_DATA=$PWD/.data
# bytecode as a user's machine has it (pip writes it at install): where the machine's
# Python runs with PYTHONDONTWRITEBYTECODE, each fresh process compiled the editable
# tree's modules, and any package installed without its bytecode, again (first-call
# benchmarks: ~0.4 s more per process); the first process now writes it here
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX=/tmp/nx-gpusp-pycache
