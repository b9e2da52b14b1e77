#!/usr/bin/env bash
# On the device machine: install the copied working tree offline and point the tests at
# the carried data. Source it:   . tools/device_snapshot.sh
# The tree is the lead's working tree as copied for this call. The device keeps the .git
# of the machine's first call while it stays warm, so `git` there can lag behind: never
# stash or reset against it (that would revert newer commits); keep helpers' unfinished
# work out of device calls by committing before the call instead.
echo "device: testing the carried tree (${NX_GPUSP_COMMIT:-commit not given})"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -1
export PYTHONUNBUFFERED=1 NX_GPUSP_DATA=$PWD/.data
