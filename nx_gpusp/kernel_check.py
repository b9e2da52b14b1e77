"""Check built kernels with cuobjdump: every family of the kernel tables holds a cubin
of every architecture the build asked for (from the family's oldest one up), the PTX of
the newest, and, in each cubin, the entry symbol of every name expression; and was built
from the source in the package. ``python -m nx_gpusp.kernel_check [--folder DIR]
[--cuobjdump PATH]`` prints one line per problem and exits 1, or a summary line."""

import argparse
import re
import subprocess
import sys
from pathlib import Path

from .prebuilt import BINARY_DIR, kernel_modules, read_manifest, source_hash

_ARCH = re.compile(r"^arch = sm_(\d+)", re.M)
_ENTRY = re.compile(r"^FUNC\s+\S+\s+\S+\s+ENTRY\s+(\S+)\s*$", re.M)


def entries_by_arch(symbols_listing):
    """{sm: set of entry (kernel) symbols} of each cubin in ``cuobjdump -symbols``."""
    out = {}
    marks = list(_ARCH.finditer(symbols_listing))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(symbols_listing)
        out.setdefault(int(mark.group(1)), set()).update(
            _ENTRY.findall(symbols_listing, mark.end(), end))
    return out


def listed_archs(listing, kind):
    """The sm numbers of ``cuobjdump --list-elf`` (kind "cubin") or ``--list-ptx``
    (kind "ptx") lines such as ``ELF file 1: frontier.1.sm_75.cubin``."""
    return sorted(int(a) for a in re.findall(rf"\.sm_(\d+)\.{kind}\b", listing))


def expected_archs(manifest, min_arch):
    return [a for a in (int(x) for x in manifest["cubin_archs"]) if a >= min_arch]


def family_problems(source, exprs, min_arch, manifest, elf, ptx, symbols):
    """What is wrong with ``source``'s fatbin, given cuobjdump's three listings."""
    entry = manifest["families"].get(source)
    if entry is None:
        return [f"{source}: not built"]
    problems = []
    if entry["source_sha256"] != source_hash(source):
        problems.append(f"{source}: built from another source")
    want = expected_archs(manifest, min_arch)
    if listed_archs(elf, "cubin") != want:
        problems.append(f"{source}: cubins sm_{listed_archs(elf, 'cubin')}, want sm_{want}")
    if listed_archs(ptx, "ptx") != want[-1:]:
        problems.append(f"{source}: PTX sm_{listed_archs(ptx, 'ptx')}, want sm_{want[-1:]}")
    kernels = entries_by_arch(symbols)
    for e in exprs:
        symbol = entry["symbols"].get(e)
        lacking = [a for a in want if symbol not in kernels.get(a, ())]
        if lacking:
            problems.append(f"{source}: {e} ({symbol}) missing from sm_{lacking}")
    return problems


def _listing(cuobjdump, flag, path):
    return subprocess.run([cuobjdump, flag, str(path)], capture_output=True, text=True,
                          check=True).stdout


def check(folder=BINARY_DIR, cuobjdump="cuobjdump"):
    """(problems, manifest) of the binaries in ``folder``."""
    from .ops import kernel_tables

    manifest = read_manifest(folder)
    if manifest is None:
        return [f"no manifest in {folder}"], None
    tables = kernel_tables()
    problems = []
    for family, source, exprs, options in kernel_modules():
        entry = manifest["families"].get(source, {})
        path = Path(folder) / entry.get("fatbin", f"{family}.fatbin")
        if not path.is_file():
            problems.append(f"{source}: no {path.name}")
            continue
        listings = [_listing(cuobjdump, f, path) for f in ("--list-elf", "--list-ptx",
                                                           "-symbols")]
        problems += family_problems(source, exprs, tables[family].min_arch, manifest,
                                    *listings)
    return problems, manifest


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_gpusp.kernel_check")
    parser.add_argument("--folder", default=str(BINARY_DIR))
    parser.add_argument("--cuobjdump", default="cuobjdump")
    args = parser.parse_args(argv)
    problems, manifest = check(args.folder, args.cuobjdump)
    for p in problems:
        print(f"kernel_check: {p}")
    if problems:
        return 1
    exprs = sum(len(m[2]) for m in kernel_modules())
    print(f"kernel_check: {len(manifest['families'])} families, {exprs} name expressions, "
          f"cubins sm_{manifest['cubin_archs']}, PTX sm_{manifest['ptx_arch']}, CUDA "
          f"{manifest['cuda_version']}: every instance in every cubin")
    return 0


if __name__ == "__main__":
    sys.exit(main())
