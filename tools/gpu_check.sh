#!/usr/bin/env bash
# GPU test run on a GPU machine, from the repo root (after . tools/device_snapshot.sh):
#   bash tools/gpu_check.sh [per-file timeout seconds] [extra pytest args...]
# Runs the tests marked gpu (CUDA parametrisations and kernel-vs-twin tests) file by
# file, each under a timeout with a faulthandler traceback dump for hangs; the CPU
# parametrisations are what CI runs. Logs: $OUT/gpu_tests.log; last lines: one summary
# line per file and the total. GPU_CHECK_FILES (a glob or a list of test files) runs
# part of the suite, e.g. to spread it over two runs that each fit a time limit.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
limit=${1:-150}; shift || true
log="$OUT/gpu_tests.log"; : > "$log"; : > "$OUT/gpu_summary.log"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  python3 -c "import sys, networkx, numpy, scipy, cupy; print(sys.version.split()[0], 'networkx', networkx.__version__, 'numpy', numpy.__version__, 'scipy', scipy.__version__, 'cupy', cupy.__version__)"
} 2>&1 | tee -a "$log"
summary=()
for f in ${GPU_CHECK_FILES:-tests/test_*.py}; do
  start=$(date +%s)
  timeout "$limit" python3 -m pytest "$f" -m gpu -q -p no:cacheprovider -rfEs \
      -o faulthandler_timeout=$((limit - 10)) "$@" > "$OUT/one.log" 2>&1
  rc=$?
  cat "$OUT/one.log" >> "$log"
  last=$(grep -E "passed|failed|error|no tests ran|deselected" "$OUT/one.log" | tail -1)
  [ $rc -eq 124 ] && last="TIMEOUT after ${limit}s"
  summary+=("$(printf '%-40s rc=%-3s %4ss  %s' "$f" "$rc" "$(( $(date +%s) - start ))" "$last")")
  echo "${summary[-1]}" >> "$OUT/gpu_summary.log"  # as it goes: a cut-off run keeps its lines
done
rm -f "$OUT/one.log"
printf '%s\n' "${summary[@]}" | tee -a "$log"
