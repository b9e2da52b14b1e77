#!/usr/bin/env bash
# CI (no GPU): check that the asv suite imports and discovers, then run every
# benchmark once at the tiny "ci" scale on the NumPy twins, in the current Python
# ("existing" environment), without saving results. Needs: pip install asv.
# Usage: tools/asv_ci.sh [extra asv run args, e.g. --bench SSSP]
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_GPUSP_BENCH_SCALE=ci NX_GPUSP_BENCH_DEVICE=cpu NX_GPUSP_DEVICE=cpu
PY=$("${PYTHON:-python3}" -c "import sys; print(sys.executable)")
ASV=(python3 -m asv)
"$PY" -c "import asv" 2>/dev/null && ASV=("$PY" -m asv)
"${ASV[@]}" machine --yes >/dev/null
"${ASV[@]}" check --environment "existing:$PY"
"${ASV[@]}" run --quick --dry-run --show-stderr --environment "existing:$PY" \
    --set-commit-hash "$(git rev-parse HEAD)" "$@"
