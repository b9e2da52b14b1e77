#!/usr/bin/env bash
# The whole GPU suite in six parts run side by side on one GPU (tools/gpu_check.sh per
# part), within a total of $1 seconds (default 540), so that it fits a 10-minute
# command. Logs: $OUT/gpu_tests.log and $OUT/gpu_summary.log (the parts' joined).
# Prints each file's summary line, then the totals. GPU_CHECK_GPUS=N (N > 1) spreads
# the parts over GPUs 0..N-1, part i alone on GPU i mod N.
#   bash tools/gpu_check_parallel.sh [total seconds] [per-file seconds]
OUT=${OUT:-/tmp/out}
total=${1:-540}; per_file=${2:-400}
gpus=${GPU_CHECK_GPUS:-1}
pids=(); part=0
for letters in a-c d-e f-m n o-r s-z; do
  dir="$OUT/part-$letters"; mkdir -p "$dir"
  visible=()
  [ "$gpus" -gt 1 ] && visible=("CUDA_VISIBLE_DEVICES=$((part % gpus))")
  env "${visible[@]}" GPU_CHECK_FILES="$(ls tests/test_[$letters]*.py)" OUT="$dir" \
    timeout "$total" bash tools/gpu_check.sh "$per_file" > /dev/null 2>&1 &
  pids+=($!); part=$((part + 1))
done
wait "${pids[@]}"
cat "$OUT"/part-*/gpu_tests.log > "$OUT/gpu_tests.log"
cat "$OUT"/part-*/gpu_summary.log > "$OUT/gpu_summary.log"
rm -rf "$OUT"/part-*
cat "$OUT/gpu_summary.log"
grep -ho "[0-9]* passed\|[0-9]* failed\|[0-9]* error\|[0-9]* skipped\|TIMEOUT" \
  "$OUT/gpu_summary.log" | awk '{n[$2]+=$1} /TIMEOUT/ {t++} END {for (k in n) printf "%s %s  ", n[k], k; print "timeouts", t+0}'
