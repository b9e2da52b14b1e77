#!/usr/bin/env bash
# Build the wheel with its CUDA kernels (nvcc, no GPU), check its size (at most
# NX_GPUSP_WHEEL_MAX_MB, 50), check with cuobjdump that every family holds a cubin of
# every architecture built, the PTX of the newest and every name expression's symbol in
# every cubin (python -m nx_gpusp.kernel_check); install it in a fresh venv and run a
# smoke test on the NumPy twins.
# NX_GPUSP_KERNEL_ARCHS: the architectures (CI on 2 cores: "75,120", the oldest and the
# newest; a release build leaves it unset: 75,80,86,89,90,100,120).
# Usage: bash tools/ci_wheel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null; then echo "ci_wheel: no nvcc, skipped"; exit 0; fi
export NX_GPUSP_KERNEL_ARCHS=${NX_GPUSP_KERNEL_ARCHS:-75,120}
max_mb=${NX_GPUSP_WHEEL_MAX_MB:-50}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
NX_GPUSP_BUILD_KERNELS=1 python3 -m pip wheel -q --no-deps -w "$tmp/dist" .
wheel=$(ls "$tmp"/dist/nx_gpusp-*.whl)
bytes=$(stat -c %s "$wheel")
echo "ci_wheel: $(basename "$wheel") $(awk "BEGIN {printf \"%.1f\", $bytes / 1e6}") MB built in $(( $(date +%s) - start )) s"
if [ "$bytes" -gt $(( max_mb * 1000000 )) ]; then echo "ci_wheel: over $max_mb MB"; exit 1; fi
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q "$wheel"
objdump=$(command -v cuobjdump || true)
if [ -z "$objdump" ]; then
  "$tmp/venv/bin/python" -m pip install -q nvidia-cuda-cuobjdump
  objdump=$(find "$tmp/venv" -name cuobjdump -type f | head -1)
fi
cd "$tmp"
"$tmp/venv/bin/python" -m nx_gpusp.kernel_check --cuobjdump "$objdump"
"$tmp/venv/bin/python" - <<'PY'
import networkx as nx
G = nx.path_graph(20)
nx.set_edge_attributes(G, 2, "weight")
got = nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
assert got == nx.single_source_dijkstra_path_length(G, 0), got
print("ci_wheel: smoke test on the twins passed")
PY
echo "ci_wheel: $(( $(date +%s) - start )) s in all"
