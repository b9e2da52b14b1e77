#!/usr/bin/env bash
# One device call: environment report, offline editable install, the whole test suite
# (CPU twin + CUDA), logs under $OUT. Run on the GPU machine from the repo root:
#   bash tools/gpu_check.sh [pytest args...]
set -o pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  python3 -c "import sys, networkx, numpy, scipy, cupy, setuptools; print(sys.version.split()[0], 'networkx', networkx.__version__, 'numpy', numpy.__version__, 'scipy', scipy.__version__, 'cupy', cupy.__version__, 'setuptools', setuptools.__version__)"
} 2>&1 | tee "$OUT/env.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m pytest tests -q -p no:cacheprovider -rs "$@" 2>&1 | tee "$OUT/tests.log" | tail -40
