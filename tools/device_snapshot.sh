#!/usr/bin/env bash
# On the device machine: reset the copied working tree to the last commit (helpers'
# uncommitted work stays out of GPU runs) and install it offline. Source it:
#   . tools/device_snapshot.sh
git -c user.name=device -c user.email=device@localhost stash -u -q && echo "device: testing HEAD $(git rev-parse --short HEAD) (uncommitted changes stashed)"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -1
export PYTHONUNBUFFERED=1 NX_GPUSP_DATA=$PWD/.data
