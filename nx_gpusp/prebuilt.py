"""Kernels compiled ahead of time: each family's fatbin shipped in
``nx_gpusp/kernel_binaries/`` with a ``manifest.json`` (per family: the fatbin, the
sha256 of its source with includes inlined, the compile options, the toolkit version,
the architectures, and each name expression's mangled symbol).

:func:`choose_binary` decides, from plain values, whether a family's fatbin can serve
this process; where it cannot, the executor compiles with NVRTC and logs one line
saying why.

What a CUDA 12 install (``nx-gpusp[cuda12]``: CuPy for CUDA 12, its NVRTC 12) gets from
binaries built by CUDA 13, by the driver it runs under (``driverGetVersion``):

- a CUDA 12 driver: NVRTC 12 compiles each family at its first use (CuPy caches it). A
  CUDA 12 driver loads no CUDA 13 cubin, nor JITs CUDA 13's PTX (PTX ISA 9.0), so the
  binaries are passed over before loading, with the log line "the driver (CUDA 12.x) is
  older than the binaries' CUDA 13";
- a CUDA 13 driver: the cubins (loading a module is the driver's work, whichever CUDA
  the runtime CuPy links was built for), and the PTX for a GPU newer than them.

Binaries built by a CUDA 12 toolkit (``cuda_version`` 12.x in the manifest) serve any
CUDA 12 or 13 driver through their cubins; their PTX needs a driver at least as new as
the toolkit.
"""

import hashlib
import json
import logging
from pathlib import Path

__all__ = ["BINARY_DIR", "kernel_modules", "source_hash", "read_manifest",
           "choose_binary", "PrebuiltModule", "log_fallback"]

BINARY_DIR = Path(__file__).resolve().parent / "kernel_binaries"
MANIFEST = "manifest.json"
logger = logging.getLogger("nx_gpusp")


def kernel_modules():
    """[(family, source file, name expressions, compile options)] of every kernel table:
    what the runtime compiles or loads and what a build must put in the binaries."""
    from .executor import nvrtc_options
    from .ops import kernel_tables

    return [(family, table.source, table.name_expressions(), nvrtc_options())
            for family, table in sorted(kernel_tables().items())]


def source_hash(filename):
    """sha256 of ``kernels/<filename>`` with its local includes inlined."""
    from .executor import kernel_source

    return hashlib.sha256(kernel_source(filename).encode()).hexdigest()


def read_manifest(folder=BINARY_DIR):
    """The manifest of the shipped binaries, or None where there are none."""
    try:
        return json.loads((Path(folder) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def _version(v):
    """A CUDA version as an int (13000 for 13.0); accepts "13.0" or 13000."""
    if isinstance(v, str):
        major, _, minor = v.partition(".")
        return int(major) * 1000 + int(minor or 0) * 10
    return int(v)


def choose_binary(manifest, filename, name_expressions, options, digest, capability,
                  driver_version):
    """(entry, None) where the manifest's binary for ``filename`` serves a device of
    compute ``capability`` (major, minor) under a driver of ``driver_version``
    (``cudaDriverGetVersion``: 13000 for 13.0), else (None, the reason)."""
    if not manifest:
        return None, "this install has no prebuilt kernels"
    entry = manifest.get("families", {}).get(filename)
    if entry is None:
        return None, f"no prebuilt binary of {filename}"
    if entry.get("source_sha256") != digest:
        return None, f"{filename} differs from the source its binary was built from"
    if tuple(entry.get("options", ())) != tuple(options):
        return None, f"NVRTC options {' '.join(options)} differ from the build's"
    missing = [e for e in name_expressions if e not in entry.get("symbols", {})]
    if missing:
        return None, f"{filename}'s binary lacks {missing[0]}"
    toolkit = _version(manifest["cuda_version"])
    if driver_version // 1000 < toolkit // 1000:
        return None, (f"the driver (CUDA {driver_version // 1000}.{driver_version % 1000 // 10}) "
                      f"is older than the binaries' CUDA {toolkit // 1000}")
    major, minor = capability
    cubins = [int(a) for a in entry.get("cubin_archs", manifest["cubin_archs"])]
    if any(a // 10 == major and a % 10 <= minor for a in cubins):
        return entry, None
    ptx = int(manifest["ptx_arch"]) if manifest.get("ptx_arch") else None
    if ptx is not None and major * 10 + minor >= ptx and driver_version >= toolkit:
        return entry, None
    return None, f"no binary for sm_{major}{minor}"


class PrebuiltModule:
    """A loaded fatbin answering ``get_function`` by name expression."""

    def __init__(self, raw_module, symbols):
        self.raw = raw_module
        self.symbols = symbols

    def get_function(self, name):
        return self.raw.get_function(self.symbols.get(name, name))


_LOGGED = set()


def log_fallback(reason):
    """One log line per reason and process: why kernels are compiled with NVRTC."""
    if reason not in _LOGGED:
        _LOGGED.add(reason)
        logger.info("nx_gpusp: compiling CUDA kernels with NVRTC (CuPy caches them): %s",
                    reason)
