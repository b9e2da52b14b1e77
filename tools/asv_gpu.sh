#!/usr/bin/env bash
# Run ON the GPU machine (the lead's device call; see docs/benchmarks.md): install the
# carried asv wheels (.whl/, from tools/fetch_device_wheels.sh) offline into /tmp/site
# and this checkout (editable, tools/device_snapshot.sh), run the asv suite at the "gpu" scale in the existing
# python3, bounded in time, then tar the results into $OUT/asv-results.tar.gz and
# also run `python -m nx_gpusp.bench` into $OUT/bench.{txt,json}.
#
# Environment (all optional):
#   NX_GPUSP_COMMIT            commit the results belong to (the lead's HEAD); needed
#                              when the device copy has no .git
#   NX_GPUSP_BENCH_WORKLOADS   comma list of workloads (asv_benchmarks/workloads.py;
#                              default: the set whose whole suite fits one device call,
#                              NY-synthetic,NY-negative,fw-1024,gnutella04: 480 s)
#   ASV_BENCH                  classes to run, space-separated (default: all nine),
#                              e.g. "bench_all_pairs.FloydWarshall"
#   ASV_TIME                   seconds allowed for all `asv run`s (default 540)
#   BENCH_TIME                 seconds allowed for nx_gpusp.bench afterwards (default 0:
#                              skip; the asv run fills a 10-minute call)
#   ASV_MACHINE                machine name for the results folder (default: GPU name)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-/tmp/asv-out}
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
# the package itself, editable in the machine's python3 (asv's benchmark processes do
# not see PYTHONPATH's /tmp/site: a --target install of the package was not importable
# there on a fresh machine)
. tools/device_snapshot.sh >"$OUT/install.log" 2>&1 || { cat "$OUT/install.log"; exit 1; }
export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
export NX_GPUSP_BENCH_SCALE=gpu NX_GPUSP_BENCH_DEVICE=cuda PYTHONUNBUFFERED=1
export NX_GPUSP_BENCH_WORKLOADS=${NX_GPUSP_BENCH_WORKLOADS:-NY-synthetic,NY-negative,fw-1024,gnutella04}
export NX_GPUSP_BENCH_CACHE=/tmp/nx-gpusp-graphs
PY=$(python3 -c "import sys; print(sys.executable)")
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$PY" -c "import cupy, numpy, scipy, networkx; print('cupy', cupy.__version__, 'numpy', numpy.__version__, 'scipy', scipy.__version__, 'networkx', networkx.__version__)"
} | tee "$OUT/machine.txt"

# asv wants a git repository and the commit the results belong to
if ! git rev-parse HEAD >/dev/null 2>&1; then
    git init -q && git add -A >/dev/null && \
        git -c user.name=bench -c user.email=bench@localhost commit -q -m "device snapshot"
fi
HERE=$(git rev-parse HEAD)
COMMIT=${NX_GPUSP_COMMIT:-$HERE}
MACHINE=${ASV_MACHINE:-$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 \
    | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')}
MACHINE=${MACHINE:-gpu}

python3 -m asv machine --yes --machine "$MACHINE" >/dev/null
# one `asv run` per class, each saving (and asv merging) its results as it ends, so a
# class stopped by the time limit loses only itself
CLASSES=${ASV_BENCH:-"bench_networkx_calls.Convert bench_all_pairs.FloydWarshall
    bench_all_pairs.FloydWarshallRates bench_single_source.SSSP bench_single_source.SSSPRates
    bench_networkx_calls.EndToEnd bench_all_pairs.AllPairsSSSP bench_single_source.BellmanFord
    bench_single_source.BellmanFordRates"}
deadline=$(( $(date +%s) + ${ASV_TIME:-540} ))
: > "$OUT/asv-run.log"
for cls in $CLASSES; do
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -le 10 ]; then echo "asv: $cls not run, ASV_TIME spent" | tee -a "$OUT/asv-run.log"; continue; fi
    timeout "$left" python3 -m asv run --machine "$MACHINE" --show-stderr \
        --environment "existing:$PY" --set-commit-hash "$HERE" --bench "^${cls}\." \
        -a repeat=3 -a rounds=1 -a number=1 -a warmup_time=0 2>&1 | tee -a "$OUT/asv-run.log"
    echo "asv run $cls exit: ${PIPESTATUS[0]} (124: stopped by ASV_TIME, its results lost)" \
        | tee -a "$OUT/asv-run.log"
done

# results of a device snapshot commit are filed under the lead's commit, merged into
# what an earlier call recorded for it (this run's benchmarks replace theirs)
"$PY" - "$ROOT/asv_benchmarks/results/$MACHINE" "$HERE" "$COMMIT" <<'PYEOF'
import json, sys
from pathlib import Path
folder, here, commit = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
for f in folder.glob(f"{here[:8]}-*.json"):
    data = json.loads(f.read_text())
    data["commit_hash"] = commit
    target = folder / f"{commit[:8]}-{f.name.split('-', 1)[1]}"
    if target != f and target.is_file():
        old = json.loads(target.read_text())
        for key in ("results", "durations"):
            data[key] = {**old.get(key, {}), **data.get(key, {})}
    target.write_text(json.dumps(data, indent=1))
    if target != f:
        f.unlink()
PYEOF
tar -czf "$OUT/asv-results.tar.gz" -C "$ROOT" asv_benchmarks/results
tar -tzf "$OUT/asv-results.tar.gz"

if [ "${BENCH_TIME:-0}" != 0 ]; then
    timeout "${BENCH_TIME}" python3 -m nx_gpusp.bench --device cuda --sources 5 \
        --workload NY-synthetic --workload fw-1024 --json "$OUT/bench.json" \
        2>&1 | tee "$OUT/bench.txt"
fi
ls -la "$OUT"
