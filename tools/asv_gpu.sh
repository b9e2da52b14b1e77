#!/usr/bin/env bash
# Run ON the GPU machine (no network there; see docs/performance.md): install the
# carried asv wheels (.whl/, from tools/fetch_device_wheels.sh) offline into /tmp/site
# and this checkout (editable, tools/device_snapshot.sh), run a part of the asv suite
# at the "gpu" scale in the existing python3, bounded in time, then tar the results
# into $OUT/asv-results.tar.gz; with BENCH_ARGS also run `python -m nx_gpusp.bench`
# into $OUT/bench.{txt,json}.
#
# Environment (all optional):
#   ASV_PROFILE                which part of the suite (each sized for one call of
#                              under 10 minutes): kernels (default), calls,
#                              calls-large, race, race-rmat; see the case below
#   ASV_BENCH                  classes to run, space-separated, instead of the
#                              profile's, e.g. "bench_all_pairs.FloydWarshall"
#   NX_GPUSP_BENCH_WORKLOADS   comma list of workloads (asv_benchmarks/workloads.py)
#                              instead of the profile's
#   NX_GPUSP_COMMIT            commit the results belong to; needed when the device
#                              copy has no .git
#   ASV_TIME                   seconds allowed for all `asv run`s (default 540)
#   BENCH_ARGS                 arguments of a `python -m nx_gpusp.bench` run after the
#                              asv run (default: none), e.g. "--group race"
#   BENCH_TIME                 seconds allowed for it (default 300)
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
# every kernel into CuPy's disk cache first: on a machine whose cache is empty, a
# benchmark's first call compiled for 20-30 s, past workloads.warm_up's alarm, and the
# benchmark was skipped as slow
python3 -m nx_gpusp compile >>"$OUT/install.log" 2>&1 || { cat "$OUT/install.log"; exit 1; }
export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
export NX_GPUSP_BENCH_SCALE=gpu NX_GPUSP_BENCH_DEVICE=cuda PYTHONUNBUFFERED=1
case "${ASV_PROFILE:-kernels}" in
    kernels)  # every method, kernel time, beside NetworkX and SciPy; conversion; e2e
        P_CLASSES="bench_networkx_calls.Convert bench_all_pairs.FloydWarshall
            bench_all_pairs.FloydWarshallLanes
            bench_single_source.SSSP bench_networkx_calls.EndToEnd
            bench_all_pairs.AllPairsSSSP bench_single_source.BellmanFord"
        P_WORKLOADS=NY-synthetic,NY-negative,fw-1024,gnutella04 ;;
    calls)  # public NetworkX calls on NY, FLA, Gnutella04 (issue 12's rows)
        P_CLASSES="bench_networkx_calls.LengthsLookups bench_networkx_calls.PathsLookups
            bench_networkx_calls.LengthsDict bench_networkx_calls.PathsDict
            bench_networkx_calls.FirstCall bench_networkx_calls.AllPairsDict
            bench_networkx_calls.Measures"
        P_WORKLOADS=NY-synthetic,FLA,gnutella04 ;;
    calls-large)  # public calls on the generated graphs (no NetworkX graph built)
        P_CLASSES="bench_networkx_calls.LengthsLookups bench_networkx_calls.PathsLookups
            bench_networkx_calls.FloydWarshallNumpy"
        P_WORKLOADS=random-pred-4M,rmat-20,rmat-22,fw-8192,gnutella04 ;;
    race)  # auto, harish, SciPy: source 0 and 10 sources, lengths and paths
        P_CLASSES="bench_single_source.SSSPRace"
        P_WORKLOADS=NY-synthetic,FLA,random-pred-1M,random-pred-4M ;;
    race-rmat)
        P_CLASSES="bench_single_source.SSSPRace"
        P_WORKLOADS=rmat-20,rmat-22 ;;
    *) echo "ASV_PROFILE: unknown ${ASV_PROFILE}; kernels, calls, calls-large, race or race-rmat" >&2
       exit 2 ;;
esac
export NX_GPUSP_BENCH_WORKLOADS=${NX_GPUSP_BENCH_WORKLOADS:-$P_WORKLOADS}
export NX_GPUSP_BENCH_CACHE=/tmp/nx-gpusp-graphs
# slow-call verdicts are for one run: a verdict left by an earlier run on this machine
# (say, a first call that compiled) would skip a benchmark that is fast now
rm -f "$NX_GPUSP_BENCH_CACHE/slow-calls.json"
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
# GPU, driver, CUDA and CuPy beside asv's own machine fields: asv keeps extra keys of
# ~/.asv-machine.json in the results' machine.json and in each result's params
"$PY" - "$MACHINE" <<'PYEOF'
import json, os, subprocess, sys
import cupy
path = os.path.expanduser("~/.asv-machine.json")
machines = json.load(open(path))
name, driver = subprocess.run(
    ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
    capture_output=True, text=True, check=True).stdout.splitlines()[0].split(", ")
v = cupy.cuda.runtime.runtimeGetVersion()
machines[sys.argv[1]].update(gpu=name, gpu_driver=driver,
                             cuda=f"{v // 1000}.{v % 1000 // 10}", cupy=cupy.__version__)
json.dump(machines, open(path, "w"), indent=4)
PYEOF
# one `asv run` per class, each saving (and asv merging) its results as it ends, so a
# class stopped by the time limit loses only itself
CLASSES=${ASV_BENCH:-$P_CLASSES}
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

# results of a snapshot commit are filed under the given commit, merged into what an
# earlier call recorded for it (this run's benchmarks replace theirs); the environment
# is named by Python version (asv names an existing one by the interpreter's path)
"$PY" - "$ROOT/asv_benchmarks/results/$MACHINE" "$HERE" "$COMMIT" <<'PYEOF'
import json, sys
from pathlib import Path
folder, here, commit = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
version = f"{sys.version_info[0]}.{sys.version_info[1]}"
for f in folder.glob(f"{here[:8]}-*.json"):
    data = json.loads(f.read_text())
    data["commit_hash"] = commit
    data["env_name"] = f"existing-py{version}"
    data["python"] = data["params"]["python"] = version
    target = folder / f"{commit[:8]}-{data['env_name']}.json"
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

if [ -n "${BENCH_ARGS:-}" ]; then
    # shellcheck disable=SC2086
    timeout "${BENCH_TIME:-300}" python3 -m nx_gpusp.bench --device cuda $BENCH_ARGS \
        --json "$OUT/bench.json" 2>&1 | tee "$OUT/bench.txt"
fi
ls -la "$OUT"
