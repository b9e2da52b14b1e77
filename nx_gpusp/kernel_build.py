"""Build each kernel family into a fatbin with nvcc (no GPU needed), with the manifest
that nx_gpusp.prebuilt reads: ``python -m nx_gpusp.kernel_build [--out DIR]
[--archs 75,80,...] [--jobs N]`` (default: nx_gpusp/kernel_binaries).

Every name expression of the kernel tables (nx_gpusp.prebuilt.kernel_modules) is
instantiated explicitly in a generated translation unit; its mangled symbol is found by
demangling the fatbin's symbols with c++filt (default template arguments resolved
against the expressions that name them)."""

import argparse
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .kernel_sources import kernel_dir
from .prebuilt import BINARY_DIR, MANIFEST, kernel_modules, source_hash

ARCHS = (75, 80, 86, 89, 90, 100, 120)  # cubins; PTX for the newest
# nvcc's flags beyond the NVRTC options: CuPy adds -ftz=true to every NVRTC compile, so
# a family's code is the same whether it was prebuilt or compiled at run time
NVCC_FLAGS = ("--ftz=true",)


def translation_unit(source, name_expressions):
    lines = [f'#include "{kernel_dir() / source}"']
    lines += [f"template __global__ decltype({e}) {e};" for e in name_expressions if "<" in e]
    return "\n".join(lines) + "\n"


def _split_args(text):
    """Top-level comma-separated template arguments, spaces normalised."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    norm = {"(bool)1": "true", "(bool)0": "false"}
    return [norm.get(" ".join(a.split()), " ".join(a.split())) for a in out if a.strip()]


def _parse(name):
    """(base, template args) of a name expression or a demangled name less its return
    type and parameters."""
    if "<" not in name:
        return name.strip(), []
    base, _, rest = name.partition("<")
    return base.strip(), _split_args(rest[:rest.rindex(">")])


def _demangled_name(demangled):
    """'void f<int, true>(int const*)' -> 'f<int, true>'; 'g(int)' -> 'g'."""
    depth = 0
    for i in range(len(demangled) - 1, -1, -1):
        ch = demangled[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                head = demangled[:i]
                break
    else:
        head = demangled
    depth, cut = 0, 0
    for i, ch in enumerate(head):  # drop a return type: the last top-level space
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            cut = i + 1
    return head[cut:]


def match_symbols(name_expressions, mangled):
    """{name expression: mangled symbol}; raises ValueError for one with no unique match."""
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled), capture_output=True,
                               text=True, check=True).stdout.split("\n")
    parsed = {m: _parse(_demangled_name(d)) for m, d in zip(mangled, demangled)}
    exact, table = {}, {}
    for e in name_expressions:
        want = _parse(e)
        hits = [m for m, p in parsed.items() if p == want]
        if hits:
            exact[e] = hits[0]
    claimed = set(exact.values())
    for e in name_expressions:
        if e in exact:
            table[e] = exact[e]
            continue
        base, args = _parse(e)
        hits = [m for m, (b, a) in parsed.items()
                if b == base and a[:len(args)] == args and m not in claimed]
        if len(hits) != 1:
            raise ValueError(f"kernel_build: {e} matches {len(hits)} symbols")
        table[e] = hits[0]
    return table


def nvcc_version(nvcc="nvcc"):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True)
    return re.search(r"release (\d+\.\d+)", out.stdout).group(1)


def buildable_archs(archs, nvcc="nvcc"):
    """The ``archs`` that ``nvcc`` can build cubins for (``--list-gpu-code``): a CUDA 12
    toolkit before 12.8 has no sm_100 or sm_120, and its PTX is then that of the newest
    it has."""
    out = subprocess.run([nvcc, "--list-gpu-code"], capture_output=True, text=True,
                         check=True).stdout
    known = {int(a) for a in re.findall(r"\bsm_(\d+)\b", out)}
    return tuple(a for a in archs if a in known)


def nvcc_command(nvcc, options, archs, tu, fatbin):
    """nvcc's arguments for one family: a cubin of each of ``archs`` and the newest's PTX."""
    gencode = [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs[:-1]]
    gencode.append(f"-gencode=arch=compute_{archs[-1]},code=[sm_{archs[-1]},compute_{archs[-1]}]")
    return [nvcc, "-fatbin", *options, *NVCC_FLAGS, f"-I{kernel_dir()}", *gencode, "-o",
            str(fatbin), str(tu)]


def build_family(source, name_expressions, options, out, work, archs, nvcc="nvcc"):
    family = Path(source).stem
    from .ops import kernel_tables

    archs = [a for a in archs if a >= kernel_tables()[family].min_arch]
    tu = work / f"{family}_instances.cu"
    tu.write_text(translation_unit(source, name_expressions))
    fatbin = out / f"{family}.fatbin"
    subprocess.run(nvcc_command(nvcc, options, archs, tu, fatbin), check=True)
    symbols = sorted(set(re.findall(rb"_Z[0-9A-Za-z_]+", fatbin.read_bytes())))
    names = [s.decode() for s in symbols]
    table = match_symbols(name_expressions, names + [e for e in name_expressions if "<" not in e])
    return {"fatbin": fatbin.name, "cubin_archs": archs, "source_sha256": source_hash(source),
            "options": list(options), "nvcc_flags": list(NVCC_FLAGS), "symbols": table}


def build(out=BINARY_DIR, archs=ARCHS, jobs=2, nvcc="nvcc", work=None):
    buildable = buildable_archs(archs, nvcc)
    if not buildable:
        raise RuntimeError(f"kernel_build: {nvcc} builds none of sm_{list(archs)}")
    if buildable != tuple(archs):
        dropped = ", ".join(f"sm_{a}" for a in archs if a not in buildable)
        print(f"kernel_build: nvcc {nvcc_version(nvcc)} has no {dropped}; cubins "
              f"sm_{list(buildable)}, PTX compute_{buildable[-1]}", file=sys.stderr)
    archs = buildable
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(work or out / ".work")
    work.mkdir(parents=True, exist_ok=True)
    mods = kernel_modules()
    with ThreadPoolExecutor(jobs) as pool:
        entries = list(pool.map(lambda m: build_family(m[1], m[2], m[3], out, work, archs,
                                                       nvcc), mods))
    shutil.rmtree(work, ignore_errors=True)
    manifest = {"cuda_version": nvcc_version(nvcc), "cubin_archs": list(archs),
                "ptx_arch": archs[-1],
                "families": {m[1]: e for m, e in zip(mods, entries)}}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    return manifest


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_gpusp.kernel_build")
    parser.add_argument("--out", default=str(BINARY_DIR))
    parser.add_argument("--archs", default=",".join(map(str, ARCHS)))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    build(args.out, tuple(int(a) for a in args.archs.split(",")), args.jobs)


if __name__ == "__main__":
    main()
