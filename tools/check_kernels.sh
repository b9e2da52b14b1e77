#!/usr/bin/env bash
# Compile every kernels/*.cu for sm_90 with nvcc (no GPU needed), instantiating each
# template for the distance types the kernel tables use, to catch errors before
# spending device time. Usage: tools/check_kernels.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import sys
from pathlib import Path
from nx_gpusp.ops import kernel_tables
from nx_gpusp.ops.base import CUDA_TYPE
import numpy as np
tmp = Path(sys.argv[1])
for name, table in kernel_tables().items():
    src = Path("kernels") / table.source
    lines = [f'#include "{src.resolve()}"']
    for k in table.templates:
        for t in table.types:
            lines.append(f"template __global__ decltype({k}<{CUDA_TYPE[np.dtype(t)]}>) {k}<{CUDA_TYPE[np.dtype(t)]}>;")
    for k in table.instances:
        lines.append(f"template __global__ decltype({k}) {k};")
    (tmp / f"{name}.cu").write_text("\n".join(lines) + "\n")
PY
status=0
for f in "$tmp"/*.cu; do
  if nvcc -arch=sm_90 -std=c++17 -Ikernels -c "$f" -o "$tmp/$(basename "$f").o" -Xptxas -warn-spills; then
    echo "ok   $(basename "$f")"
  else
    echo "FAIL $(basename "$f")"; status=1
  fi
done
exit $status
