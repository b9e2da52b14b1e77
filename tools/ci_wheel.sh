#!/usr/bin/env bash
# Build the wheel with its CUDA kernels (nvcc, no GPU), check with cuobjdump that every
# family holds a cubin of every architecture and the PTX, and every name expression's
# symbol; install it in a fresh venv and run a smoke test on the NumPy twins.
# NX_GPUSP_KERNEL_ARCHS: the architectures (CI on 2 cores: "75,120", the oldest and the
# newest; a release build leaves it unset: 75,80,86,89,90,100,120).
# Usage: bash tools/ci_wheel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null; then echo "ci_wheel: no nvcc, skipped"; exit 0; fi
export NX_GPUSP_KERNEL_ARCHS=${NX_GPUSP_KERNEL_ARCHS:-75,120}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
NX_GPUSP_BUILD_KERNELS=1 python3 -m pip wheel -q --no-deps -w "$tmp/dist" .
wheel=$(ls "$tmp"/dist/nx_gpusp-*.whl)
echo "ci_wheel: $(basename "$wheel") $(du -h "$wheel" | cut -f1) built in $(( $(date +%s) - start )) s"
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q "$wheel" nvidia-cuda-cuobjdump
objdump=$(find "$tmp/venv" -name cuobjdump -type f | head -1)
cd "$tmp"
"$tmp/venv/bin/python" - "$objdump" <<'PY'
import subprocess, sys
from nx_gpusp import prebuilt
m = prebuilt.read_manifest()
assert m, "the wheel has no kernels"
archs = [int(a) for a in m["cubin_archs"]]
for family, source, exprs, options in prebuilt.kernel_modules():
    entry = m["families"][source]
    assert entry["source_sha256"] == prebuilt.source_hash(source), source
    path = prebuilt.BINARY_DIR / entry["fatbin"]
    elf = subprocess.run([sys.argv[1], "--list-elf", str(path)], capture_output=True, text=True, check=True).stdout
    ptx = subprocess.run([sys.argv[1], "--list-ptx", str(path)], capture_output=True, text=True, check=True).stdout
    syms = subprocess.run([sys.argv[1], "-symbols", str(path)], capture_output=True, text=True, check=True).stdout
    for a in entry["cubin_archs"]:
        assert f"sm_{a}." in elf, (source, a, elf)
    assert f"sm_{m['ptx_arch']}." in ptx, (source, ptx)
    for e in exprs:
        assert syms.count(entry["symbols"][e]) >= len(entry["cubin_archs"]), (source, e)
print(f"ci_wheel: {len(m['families'])} families, cubins sm_{archs}, PTX compute_{m['ptx_arch']}: every name expression present")
import networkx as nx
G = nx.path_graph(20)
nx.set_edge_attributes(G, 2, "weight")
got = nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
assert got == nx.single_source_dijkstra_path_length(G, 0), got
print("ci_wheel: smoke test on the twins passed")
PY
echo "ci_wheel: $(( $(date +%s) - start )) s in all"
