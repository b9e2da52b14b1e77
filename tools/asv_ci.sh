#!/usr/bin/env bash
# CI (no GPU): check that the asv suite imports and discovers, then run every
# benchmark once at the tiny "ci" scale on the NumPy twins, in the current Python
# ("existing" environment), without saving results; then check that `asv publish`
# and `asv compare` read the committed GPU results. Needs: pip install asv.
# Usage: tools/asv_ci.sh [extra asv run args, e.g. --bench SSSP]
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_GPUSP_BENCH_SCALE=ci NX_GPUSP_BENCH_DEVICE=cpu NX_GPUSP_DEVICE=cpu
PY=$("${PYTHON:-python3}" -c "import sys; print(sys.executable)")
ASV=(python3 -m asv)
"$PY" -c "import asv" 2>/dev/null && ASV=("$PY" -m asv)
# asv run rewrites the committed benchmarks.json (the gpu-scale parameters that
# asv publish reads) with the ci scale's: put it back on exit
BJ=asv_benchmarks/results/benchmarks.json
SAVED=$(mktemp)
cp "$BJ" "$SAVED"
trap 'cp "$SAVED" "$BJ"; rm -f "$SAVED"' EXIT
"${ASV[@]}" machine --yes >/dev/null
"${ASV[@]}" check --environment "existing:$PY"
"${ASV[@]}" run --quick --dry-run --show-stderr --environment "existing:$PY" \
    --set-commit-hash "$(git rev-parse HEAD)" "$@"
# the committed results: the dashboard builds, and the two newest commits compare
cp "$SAVED" "$BJ"
HTML=$(mktemp -d)
"${ASV[@]}" publish --no-pull --html-dir "$HTML" >/dev/null
rm -rf "$HTML"
for machine in asv_benchmarks/results/*/; do
    mapfile -t newest < <("$PY" - "$machine" <<'PYEOF'
import json, sys
from pathlib import Path
runs = sorted((json.loads(f.read_text())["date"], json.loads(f.read_text())["commit_hash"])
              for f in Path(sys.argv[1]).glob("*-*.json"))
print("\n".join(h for _, h in runs[-2:]))
PYEOF
)
    if [ "${#newest[@]}" -eq 2 ] && git cat-file -e "${newest[0]}^{commit}" 2>/dev/null \
            && git cat-file -e "${newest[1]}^{commit}" 2>/dev/null; then  # not in a shallow clone
        "${ASV[@]}" compare "${newest[0]}" "${newest[1]}" --machine "$(basename "$machine")" \
            --only-changed >/dev/null
        echo "asv compare ${newest[0]:0:8} ${newest[1]:0:8} on $(basename "$machine"): ok"
    fi
done
