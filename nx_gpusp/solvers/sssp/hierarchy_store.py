"""Where PHAST's contraction hierarchies are kept beyond one converted graph: files
(``Hierarchy.save``/``Hierarchy.load``, one ``np.savez`` archive each), the folder of
the ``hierarchy_cache`` option (one file per graph content and core size, written when
a hierarchy is built and read by later processes), and the hierarchies loaded in this
process by ``nx_gpusp.phast.load_hierarchy``.

A hierarchy belongs to the graph it was built from: its file holds the fingerprint of
that graph (SHA-256 of n, m, indptr, indices and the weights), and a graph of another
fingerprint is refused.
"""

import hashlib
import os
import warnings
from pathlib import Path

import numpy as np

__all__ = ["FORMAT_VERSION", "graph_fingerprint", "write_archive", "read_archive",
           "cache_file", "remember", "recall"]

FORMAT_VERSION = 1  # of the archive's arrays and their meaning
_KIND = "nx-gpusp PHAST hierarchy"

_LOADED = {}  # (fingerprint, core_size) -> Hierarchy, from load_hierarchy


def graph_fingerprint(graph):
    """SHA-256 (hex) of ``graph``'s vertex count, arc count, indptr, indices (as int64)
    and weights (with their dtype), kept on the graph."""
    fp = graph.__dict__.get("_fingerprint")
    if fp is None:
        h = hashlib.sha256()
        h.update(np.array([graph.n, len(graph.indices)], dtype=np.int64).tobytes())
        for a in (graph.indptr, graph.indices):
            h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
        h.update(graph.weights.dtype.str.encode())
        h.update(np.ascontiguousarray(graph.weights).tobytes())
        fp = graph.__dict__["_fingerprint"] = h.hexdigest()
    return fp


def write_archive(path, arrays, fingerprint, core_size):
    """Write ``arrays`` (name -> array) to ``path`` (exactly that name), with the format
    version, the graph's fingerprint and the core size."""
    with open(path, "wb") as f:
        np.savez(f, kind=np.array(_KIND), format=np.array(FORMAT_VERSION),
                 fingerprint=np.array(fingerprint), core_size=np.array(core_size), **arrays)


def read_archive(path, fingerprint=None):
    """(arrays, fingerprint, core_size) of the archive at ``path``; ValueError where it
    is not a hierarchy of this format or, given ``fingerprint``, of another graph."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError) as err:
        if isinstance(err, FileNotFoundError):
            raise
        raise ValueError(f"{path}: not a PHAST hierarchy file ({err})") from None
    if arrays.pop("kind", None) != _KIND:
        raise ValueError(f"{path}: not a PHAST hierarchy file (written by "
                         "nx_gpusp.phast.save_hierarchy or Hierarchy.save)")
    version = int(arrays.pop("format"))
    if version != FORMAT_VERSION:
        raise ValueError(f"{path}: a PHAST hierarchy of format {version}, this version "
                         f"reads format {FORMAT_VERSION}; build it again with "
                         "nx_gpusp.phast.save_hierarchy")
    stored = str(arrays.pop("fingerprint"))
    if fingerprint is not None and stored != fingerprint:
        raise ValueError(f"{path}: this PHAST hierarchy was built for another graph (its "
                         f"fingerprint {stored[:16]}..., this graph's {fingerprint[:16]}...: "
                         "other nodes, edges or weights); build this graph's with "
                         "nx_gpusp.phast.save_hierarchy")
    return arrays, stored, int(arrays.pop("core_size"))


def cache_file(graph, core_size):
    """The file of ``graph``'s hierarchy in the ``hierarchy_cache`` folder, or None
    where the option is None."""
    from ...config import get_config

    folder = get_config().hierarchy_cache
    if folder is None:
        return None
    return (Path(folder).expanduser()
            / f"phast-{graph_fingerprint(graph)}-core{core_size}-v{FORMAT_VERSION}.npz")


def write_cache(path, hierarchy):
    """``hierarchy`` saved at ``path`` (a cache file) through a temporary file, so
    another process reads the whole file or none; a folder that cannot be written is
    reported with a warning (the hierarchy is still used)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        hierarchy.save(tmp)
        os.replace(tmp, path)
    except OSError as err:
        warnings.warn(f"nx_gpusp: could not keep the PHAST hierarchy in {path.parent} "
                      f"({err}); set nx.config.backends.gpusp.hierarchy_cache to a "
                      "writable folder or None", RuntimeWarning, stacklevel=3)
        try:
            tmp.unlink(missing_ok=True)
        except OSError:  # no folder to hold it
            pass


def read_cache(path, graph, load):
    """The hierarchy of the cache file ``path`` (``load(path, graph)``), or None where
    there is none; an unreadable file is reported with a warning and None (it is
    rebuilt and written again)."""
    if not path.is_file():
        return None
    try:
        return load(path, graph)
    except (OSError, ValueError, KeyError) as err:
        warnings.warn(f"nx_gpusp: ignoring the PHAST hierarchy in {path} ({err}); "
                      "building it again", RuntimeWarning, stacklevel=3)
        return None


def remember(hierarchy):
    """Keep ``hierarchy`` (loaded by the user) for every graph of its fingerprint."""
    _LOADED[hierarchy.fingerprint, hierarchy.core_size] = hierarchy


def recall(graph, core_size):
    """The hierarchy loaded in this process for ``graph``'s content, or None."""
    if not _LOADED:
        return None
    return _LOADED.get((graph_fingerprint(graph), core_size))
