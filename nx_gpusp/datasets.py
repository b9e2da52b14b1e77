"""Real graphs (the files under ``shared/data``) and seeded generators, for tests and
benchmarks.

Readers return a NetworkX graph, or with ``as_csr=True`` a :class:`CSRGraph` built
straight from NumPy arrays (no per-edge Python objects); both describe the same arcs
and weights, so ``from_networkx(read_x(p), weight)`` equals ``read_x(p, as_csr=True)``
up to arc order. Node labels: files with a vertex count in their header (DIMACS,
PACE, TNTP, MatrixMarket, NY synthetic) give nodes ``0..n-1`` (file vertex ``k`` of a
1-based file is node ``k - 1``); header-less SNAP files keep their own ids as labels.
Parallel arcs keep the minimum weight, as CSRGraph does.

Where the files are: ``load`` looks in ``root`` (or ``$NX_GPUSP_DATA``, else
``../shared/data`` beside a source checkout), then in the download cache that
:func:`fetch` fills from each data set's public source (``$NX_GPUSP_DATA_CACHE``,
else the user cache folder ``nx-gpusp``; needs the ``data`` extra, ``pooch``).
Origins, licences and checksums: ``docs/guide/datasets.md`` and :data:`SOURCES`.

Generators are deterministic for a given ``seed``, vectorised, and return CSRGraph;
``nx_gpusp.convert.to_networkx`` turns a small one into a NetworkX graph.
"""

import gzip
import hashlib
import io
import lzma
import os
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np

from .graph import CSRGraph

__all__ = [
    "DATASETS", "SOURCES", "Source", "data_root", "cache_dir", "find", "load", "fetch",
    "read_dimacs_gr", "read_pace_gr", "read_ny_synthetic", "read_tntp",
    "read_snap_edgelist", "read_bitcoin_otc", "read_matrix_market",
    "rmat", "random_predecessors", "road_grid", "random_geometric_road",
    "dense_random", "with_potentials",
]


def __dir__():
    """The public names only (``dir(nx_gpusp.datasets)``, tab completion)."""
    return sorted(__all__)


# -- the common tail of every reader ---------------------------------------------------
def _min_per_arc(src, dst, columns, key_column):
    """Drop parallel arcs, keeping for each (src, dst) the row with the least key."""
    order = np.lexsort((columns[key_column], dst, src))
    src, dst = src[order], dst[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return src[first], dst[first], {k: v[order][first] for k, v in columns.items()}


def _build(n, src, dst, columns=None, *, weight=None, directed=True, nodes=None,
           as_csr=False, name=None):
    """A CSRGraph (as_csr) or NetworkX graph from 0-based arc arrays.

    columns: edge attribute name -> array (one value per arc); ``weight`` names the
    one that becomes the CSR weight (None: unweighted).
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    columns = dict(columns or {})
    graph_attrs = {"name": name} if name else None
    if as_csr:
        w = None if weight is None else columns[weight]
        return CSRGraph.from_edge_arrays(n, src, dst, w, directed=directed, nodes=nodes,
                                         weight_attr=weight, graph_attrs=graph_attrs)
    if not directed:  # one row per undirected edge, as (min, max)
        src, dst = np.minimum(src, dst), np.maximum(src, dst)
    if len(src) and columns:
        src, dst, columns = _min_per_arc(src, dst, columns, weight or next(iter(columns)))
    G = nx.DiGraph() if directed else nx.Graph()
    if name:
        G.graph["name"] = name
    G.add_nodes_from(range(n) if nodes is None else nodes)
    tails = src.tolist() if nodes is None else [nodes[i] for i in src.tolist()]
    heads = dst.tolist() if nodes is None else [nodes[i] for i in dst.tolist()]
    if columns:
        names = list(columns)
        values = zip(*(columns[k].tolist() for k in names))
        G.add_edges_from((u, v, dict(zip(names, vals)))
                         for u, v, vals in zip(tails, heads, values))
    else:
        G.add_edges_from(zip(tails, heads))
    return G


def _open_text(path):
    path = Path(path)
    if path.suffix == ".xz":
        return lzma.open(path, "rb")
    return open(path, "rb")


def _header(raw: bytes, prefix: bytes):
    """The whitespace-split fields of the first line starting with ``prefix``."""
    start = raw.find(b"\n" + prefix) + 1 if not raw.startswith(prefix) else 0
    end = raw.find(b"\n", start)
    return raw[start:end].split()


def _int_columns(raw: bytes, ncols, **loadtxt_kw):
    table = np.loadtxt(io.BytesIO(raw), dtype=np.int64, ndmin=2, **loadtxt_kw)
    return table.reshape(-1, ncols) if table.size else np.zeros((0, ncols), dtype=np.int64)


def _random_weights(m, weights, seed):
    lo, hi = weights
    return np.random.default_rng(seed).integers(lo, hi + 1, size=m, dtype=np.int64)


# -- readers ---------------------------------------------------------------------------
def read_dimacs_gr(path, *, as_csr=False):
    """9th DIMACS challenge ``.gr``: ``p sp n m``, arcs ``a u v w`` (1-based) -> DiGraph."""
    with _open_text(path) as f:
        raw = f.read()
    n = int(_header(raw, b"p ")[2])
    a = _int_columns(raw, 3, comments=("c", "p"), usecols=(1, 2, 3))
    return _build(n, a[:, 0] - 1, a[:, 1] - 1, {"weight": a[:, 2]}, weight="weight",
                  as_csr=as_csr, name=Path(path).name)


def read_pace_gr(path, *, weights=(1, 10), seed=0, as_csr=False):
    """PACE-2016 ``.gr(.xz)``: ``p tw n m``, edges ``u v`` (1-based) -> undirected Graph.

    weights: ``(lo, hi)`` draws each edge a seeded integer weight in lo..hi (the same in
    both directions); None leaves the graph unweighted.
    """
    with _open_text(path) as f:
        raw = f.read()
    n = int(_header(raw, b"p ")[2])
    e = _int_columns(raw, 2, comments=("c", "p"))
    columns = None if weights is None else {"weight": _random_weights(len(e), weights, seed)}
    return _build(n, e[:, 0] - 1, e[:, 1] - 1, columns,
                  weight=None if weights is None else "weight", directed=False,
                  as_csr=as_csr, name=Path(path).name)


def read_ny_synthetic(path, *, as_csr=False):
    """The locality-based-relaxation paper's NY graph: a tar.gz holding one text file,
    ``n``, ``m``, then arcs ``u v w`` (0-based) -> DiGraph."""
    with tarfile.open(path, "r:gz") as tar:
        member = next(m for m in tar.getmembers() if m.isfile())
        raw = tar.extractfile(member).read()
    head = raw.split(maxsplit=2)
    n = int(head[0])
    a = _int_columns(raw, 3, skiprows=2)
    return _build(n, a[:, 0], a[:, 1], {"weight": a[:, 2]}, weight="weight",
                  as_csr=as_csr, name=member.name)


def read_tntp(path, weight="free_flow_time", *, as_csr=False):
    """TNTP ``*_net.tntp`` link table (1-based) -> DiGraph with ``length`` and
    ``free_flow_time`` edge attributes; ``weight`` names the CSR weight column."""
    if weight not in ("length", "free_flow_time"):
        raise ValueError(f"weight must be 'length' or 'free_flow_time', got {weight!r}")
    with _open_text(path) as f:
        text = f.read().decode()
    n = int(text.split("<NUMBER OF NODES>", 1)[1].split()[0])
    header_at = text.index("\n~") + 1
    header_end = text.index("\n", header_at)
    names = [c for c in text[header_at:header_end].split() if c not in ("~", ";")]
    tokens = text[header_end:].replace(";", " ").split()
    table = np.array(tokens, dtype=np.float64).reshape(-1, len(names))
    col = {c: table[:, i] for i, c in enumerate(names)}
    columns = {"length": col["length"], "free_flow_time": col["free_flow_time"]}
    return _build(n, col["init_node"].astype(np.int64) - 1,
                  col["term_node"].astype(np.int64) - 1, columns, weight=weight,
                  as_csr=as_csr, name=Path(path).name)


def _relabel_ids(ids):
    """Present ids in sorted order, and each id's index; None labels when 0..n-1."""
    nodes, inverse = np.unique(ids, return_inverse=True)
    labels = None if (len(nodes) == 0 or nodes[-1] == len(nodes) - 1) else nodes.tolist()
    return len(nodes), labels, inverse.reshape(ids.shape)


def read_snap_edgelist(path, *, as_csr=False):
    """SNAP edge list (``#`` comments, ``u v`` per line) -> unweighted DiGraph; node
    labels are the file's ids (only those that occur)."""
    with _open_text(path) as f:
        raw = f.read()
    e = _int_columns(raw, 2, comments="#")
    n, nodes, idx = _relabel_ids(e)
    return _build(n, idx[:, 0], idx[:, 1], directed=True, nodes=nodes, as_csr=as_csr,
                  name=Path(path).name)


def read_bitcoin_otc(path, *, as_csr=False):
    """SNAP Bitcoin OTC trust network (CSV ``src,dst,rating,time``) -> DiGraph with
    ``weight`` = rating (-10..10: negative weights and negative cycles)."""
    with _open_text(path) as f:
        raw = f.read()
    t = _int_columns(raw, 4, delimiter=",")
    n, nodes, idx = _relabel_ids(t[:, :2])
    return _build(n, idx[:, 0], idx[:, 1], {"weight": t[:, 2]}, weight="weight",
                  nodes=nodes, as_csr=as_csr, name=Path(path).name)


def read_matrix_market(path, *, weights=None, seed=0, as_csr=False):
    """SuiteSparse MatrixMarket graph (``pattern symmetric``: undirected Graph; a
    general matrix: DiGraph). Pattern matrices are unweighted unless ``weights=(lo,
    hi)`` asks for seeded random integer weights; numeric entries become ``weight``."""
    import scipy.io

    info = scipy.io.mminfo(path)
    try:  # a sparse array, not the spmatrix whose default SciPy 1.18 deprecates
        A = scipy.io.mmread(path, spmatrix=False).tocoo()
    except TypeError:  # a SciPy without the option
        A = scipy.io.mmread(path).tocoo()
    symmetric = info[5] != "general"
    row, col = A.row.astype(np.int64), A.col.astype(np.int64)
    values = None if info[4] == "pattern" else np.asarray(A.data)
    if symmetric:  # mmread expands both triangles; keep one
        keep = row >= col
        row, col = row[keep], col[keep]
        values = None if values is None else values[keep]
    if values is None and weights is not None:
        values = _random_weights(len(row), weights, seed)
    columns = None if values is None else {"weight": values}
    return _build(A.shape[0], row, col, columns, weight=None if values is None else "weight",
                  directed=not symmetric, as_csr=as_csr, name=Path(path).name)


# -- the files under shared/data ---------------------------------------------------------
DATASETS = {
    "rome99": ("dimacs9/rome99.gr", read_dimacs_gr),
    "NY-synthetic": ("dimacs9/NY-synthetic-weights.txt.tar.gz", read_ny_synthetic),
    "NY": ("road_pace16/NY.gr.xz", read_pace_gr),
    "COL": ("road_pace16/COL.gr.xz", read_pace_gr),
    "FLA": ("road_pace16/FLA.gr.xz", read_pace_gr),
    "Sydney": ("tntp/Sydney_net.tntp", read_tntp),
    "ChicagoRegional": ("tntp/ChicagoRegional_net.tntp", read_tntp),
    "Anaheim": ("tntp/Anaheim_net.tntp", read_tntp),
    "SiouxFalls": ("tntp/SiouxFalls_net.tntp", read_tntp),
    "gnutella04": ("snap/p2p-Gnutella04.txt", read_snap_edgelist),
    "bitcoin-otc": ("snap/soc-sign-bitcoinotc.csv", read_bitcoin_otc),
    "usroads": ("suitesparse/usroads.mtx", read_matrix_market),
    "minnesota": ("suitesparse/minnesota.mtx", read_matrix_market),
}


def data_root():
    """``$NX_GPUSP_DATA``, else ``../shared/data`` beside a source checkout (the package
    imported from a clone: its root holds pyproject.toml); None for an installed wheel
    without ``NX_GPUSP_DATA``."""
    env = os.environ.get("NX_GPUSP_DATA")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file():
        return checkout.parent / "shared" / "data"
    return None


def cache_dir():
    """Where :func:`fetch` keeps downloaded data sets (the same layout as the data
    folder): ``$NX_GPUSP_DATA_CACHE``, else the user cache folder ``nx-gpusp``
    (``~/.cache/nx-gpusp`` on Linux)."""
    env = os.environ.get("NX_GPUSP_DATA_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "nx-gpusp"


def _entry(name):
    try:
        return DATASETS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; choose one of {sorted(DATASETS)}") from None


def find(name, root=None):
    """The path of data set ``name``: under ``root`` (default :func:`data_root`), else
    in :func:`cache_dir`. FileNotFoundError, saying how to get it, when in neither."""
    relpath, _ = _entry(name)
    folder = root or data_root()
    places = ([Path(folder) / relpath] if folder else []) + [cache_dir() / relpath]
    for path in places:
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"data set {name!r} not found (looked for {' and '.join(map(str, places))}); set "
        f"NX_GPUSP_DATA to the data folder, or download it: "
        f"nx_gpusp.datasets.fetch({name!r}) (needs pooch: the package's data extra)")


def load(name, *, as_csr=False, root=None, download=False, **kw):
    """One of :data:`DATASETS` by short name; ``kw`` goes to its reader. With
    ``download=True`` a data set found nowhere is fetched first (:func:`fetch`)."""
    _, reader = _entry(name)
    try:
        path = find(name, root)
    except FileNotFoundError:
        if not download:
            raise
        path = fetch(name)
    return reader(path, as_csr=as_csr, **kw)


# -- public sources: download into the cache, verify --------------------------------------
@dataclass(frozen=True)
class Source:
    """Where a data set comes from and how its download is checked.

    ``url``: the public file; ``unpack``: None (the download is the file the reader
    reads), "gunzip", or the member to take out of a tar archive; ``sha256``: of the
    download, checked before anything else, recorded only where it was verified to be
    the public file's; ``file_sha256``: of the unpacked file; without either, the
    graph read from the file must have ``nodes`` nodes and ``arcs`` arcs (as
    ``load(name, as_csr=True)`` counts them)."""

    url: str
    origin: str
    licence: str
    nodes: int
    arcs: int
    unpack: str | None = None
    sha256: str | None = None
    file_sha256: str | None = None


_TNTP = ("https://raw.githubusercontent.com/bstabler/TransportationNetworks/"
         "d1639b4ef218c17928ba573e806ddf8ba5e7ae6d/")
_PACE = ("https://raw.githubusercontent.com/ben-strasser/road-graphs-pace16/"
         "d65496ca1e6a99e3fb782af04ef706b7f39ce876/")
_TNTP_LICENCE = ("Transportation Networks for Research: donated data, for academic "
                 "research; cite the source")
_PACE_LICENCE = "public domain (the repository's LICENSE); DIMACS road graph topology"
_SNAP_LICENCE = "no licence stated by SNAP; cite the data set's paper"
_SUITESPARSE_LICENCE = "SuiteSparse Matrix Collection: CC BY 4.0; cite Davis & Hu 2011"

SOURCES = {
    "rome99": Source(
        "http://www.diag.uniroma1.it/challenge9/data/rome/rome99.gr",
        "9th DIMACS Implementation Challenge: Shortest Paths", "no licence stated; "
        "cite the challenge", 3353, 8859),
    "NY-synthetic": Source(
        "https://raw.githubusercontent.com/GPUGraphProcessing/SSSP/"
        "6b2a2aece2f6da1c9c145f52e143ca18e87f1fe2/Input%20Graphs/NY.txt.tar.gz",
        "Safari & Ebnenasir's locality-based relaxation code (GPUGraphProcessing/SSSP)",
        "no licence stated; DIMACS New York arcs with synthetic weights", 264346, 730100,
        sha256="80edc9ff0f735909bbb75f1b30e1517a0cdc0538179f4b27c771314a82f04ca9"),
    "NY": Source(_PACE + "NY.gr.xz", "PACE 2016 copies of the DIMACS USA road graphs",
                 _PACE_LICENCE, 264346, 730100,
                 sha256="12fe28df6045ea94f84af244a37f6e47eec1909e89f0c5571a928b53f374a9b1"),
    "COL": Source(_PACE + "COL.gr.xz", "PACE 2016 copies of the DIMACS USA road graphs",
                  _PACE_LICENCE, 435666, 1042400,
                  sha256="216a30cc031523ed676642b2a6efb3d9372a9b30004f92f7682244814f403fbd"),
    "FLA": Source(_PACE + "FLA.gr.xz", "PACE 2016 copies of the DIMACS USA road graphs",
                  _PACE_LICENCE, 1070376, 2687902,
                  sha256="9ec88b60ca5cdb4e31c128cb3bb0559ac3b34164f50704621f03b326eeb48bee"),
    "Sydney": Source(_TNTP + "Sydney/Sydney_net.tntp", "Transportation Networks for "
                     "Research", _TNTP_LICENCE, 33113, 75379,
                     sha256="cf7162f01eb9518b246e7a761f7bb02b3c154577f9a4514fed419fd957c08923"),
    "ChicagoRegional": Source(
        _TNTP + "chicago-regional/ChicagoRegional_net.tntp",
        "Transportation Networks for Research", _TNTP_LICENCE, 12982, 39018,
        sha256="5134323ddb0a664d0265e45226250a55c6ce45055f7b4dd85638a7a1847bb0c2"),
    "Anaheim": Source(_TNTP + "Anaheim/Anaheim_net.tntp", "Transportation Networks for "
                      "Research", _TNTP_LICENCE, 416, 914,
                      sha256="99933b415e9500b13907829c37a43cfa9141714fad5af279081e28e5f9356f9a"),
    "SiouxFalls": Source(
        _TNTP + "SiouxFalls/SiouxFalls_net.tntp", "Transportation Networks for Research",
        _TNTP_LICENCE, 24, 76,
        sha256="ace99b24cec69c273ff0cf3d6d074110177f0cc0ae24b0c7a9f4f4cb5e27635c"),
    "gnutella04": Source(
        "https://snap.stanford.edu/data/p2p-Gnutella04.txt.gz",
        "SNAP (Stanford Network Analysis Project)", _SNAP_LICENCE, 10876, 39994,
        unpack="gunzip"),
    "bitcoin-otc": Source(
        "https://snap.stanford.edu/data/soc-sign-bitcoinotc.csv.gz",
        "SNAP (Stanford Network Analysis Project)", _SNAP_LICENCE, 5881, 35592,
        unpack="gunzip",
        file_sha256="22b08170d37407697764acabc1b8b361ffad2d71c7c9dc002d3702548c0ca8e1"),
    "usroads": Source(
        "https://suitesparse-collection-website.herokuapp.com/MM/Gleich/usroads.tar.gz",
        "SuiteSparse Matrix Collection, Gleich/usroads", _SUITESPARSE_LICENCE,
        129164, 330870, unpack="usroads/usroads.mtx"),
    "minnesota": Source(
        "https://suitesparse-collection-website.herokuapp.com/MM/Gleich/minnesota.tar.gz",
        "SuiteSparse Matrix Collection, Gleich/minnesota", _SUITESPARSE_LICENCE,
        2642, 6606, unpack="minnesota/minnesota.mtx"),
}


def sha256_of(path):
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _download(url, sha256, folder):
    """The downloaded file (pooch: retries, a partial download never left behind,
    ``sha256`` checked when given)."""
    try:
        import pooch
    except ImportError:
        raise ImportError("nx_gpusp.datasets.fetch needs pooch: pip install "
                          "'nx-gpusp[data]' (or pip install pooch)") from None
    known = f"sha256:{sha256}" if sha256 else None
    return Path(pooch.retrieve(url, known, path=folder, progressbar=False))


def _unpack(download, how, target):
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(".part-" + target.name)  # same suffix: the readers go by it
    if how is None:
        shutil.copyfile(download, tmp)
    elif how == "gunzip":
        with gzip.open(download, "rb") as src, open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        with tarfile.open(download) as tar:
            member = tar.extractfile(how)
            if member is None:
                raise ValueError(f"{download}: {how} is not a file in the archive")
            with open(tmp, "wb") as dst:
                shutil.copyfileobj(member, dst)
    return tmp


def _verify(name, src, path):
    """Raise ValueError unless the unpacked file is the data set (checksum, else the
    node and arc counts of the graph it reads as)."""
    if src.file_sha256 or (src.sha256 and src.unpack is None):
        want = src.file_sha256 or src.sha256
        got = sha256_of(path)
        if got != want:
            raise ValueError(f"data set {name!r}: SHA-256 of {path.name} is {got}, "
                             f"expected {want} ({src.url} changed?)")
        return
    relpath, reader = DATASETS[name]
    graph = reader(path, as_csr=True)
    if (graph.n, graph.m) != (src.nodes, src.arcs):
        raise ValueError(f"data set {name!r}: {path.name} reads as {graph.n} nodes and "
                         f"{graph.m} arcs, expected {src.nodes} and {src.arcs} "
                         f"({src.url} changed?)")


def fetch(name, *, cache=None):
    """Download data set ``name`` from its public source (:data:`SOURCES`) into the
    cache (``cache``, default :func:`cache_dir`), unpack and verify it, and return its
    path; a copy already there and verified is not downloaded again. Needs ``pooch``
    (``pip install 'nx-gpusp[data]'``) and the network; ``load`` then finds it."""
    relpath, _ = _entry(name)
    src = SOURCES[name]
    folder = Path(cache or cache_dir())
    target = folder / relpath
    if target.is_file():
        _verify(name, src, target)
        return target
    download = _download(src.url, src.sha256, folder / "downloads")
    tmp = _unpack(download, src.unpack, target)
    try:
        _verify(name, src, tmp)
    except Exception:
        tmp.unlink()
        raise
    tmp.replace(target)
    download.unlink(missing_ok=True)
    return target


# -- generators -----------------------------------------------------------------------
def _generated_csr(n, src, dst, w, *, directed, name):
    """CSRGraph of generated arcs: self-loops dropped, then CSRGraph.from_edge_arrays
    (both directions when undirected, parallel arcs merged to their minimum weight)."""
    keep = src != dst
    return CSRGraph.from_edge_arrays(n, src[keep], dst[keep], w[keep], directed=directed,
                                     graph_attrs={"name": name})


def rmat(scale, edge_factor=16, a=0.57, b=0.19, c=0.19, weights=(1, 255), seed=0, *,
         directed=False):
    """R-MAT / Kronecker graph (Graph500 parameters by default): ``2**scale`` vertices,
    ``edge_factor * 2**scale`` generated edges with uniform integer weights in
    ``weights``, vertex ids randomly permuted; self-loops dropped, duplicates merged
    (minimum weight). Undirected unless ``directed``."""
    rng = np.random.default_rng(seed)
    n = 1 << scale
    m = edge_factor * n
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    ab, c_norm, a_norm = a + b, c / (1 - a - b), a / (a + b)
    for bit in range(scale):
        r1 = rng.random(m, dtype=np.float32)
        r2 = rng.random(m, dtype=np.float32)
        ii = r1 > ab
        jj = r2 > np.where(ii, c_norm, a_norm)
        src |= ii.astype(np.int64) << bit
        dst |= jj.astype(np.int64) << bit
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    w = _random_weights(m, weights, rng)
    return _generated_csr(n, src, dst, w, directed=directed, name=f"rmat-{scale}-{edge_factor}")


def random_predecessors(n, k=7, weights=(1, 10), seed=0):
    """The GPU-Dijkstra papers' random graphs: every vertex gets ``k`` predecessors drawn
    uniformly from the other vertices, integer weights uniform in ``weights``; directed,
    at most ``k * n`` arcs (duplicates merged)."""
    rng = np.random.default_rng(seed)
    dst = np.repeat(np.arange(n, dtype=np.int64), k)
    src = rng.integers(0, n - 1, size=n * k, dtype=np.int64)
    src += src >= dst  # skip the vertex itself
    w = _random_weights(n * k, weights, rng)
    return _generated_csr(n, src, dst, w, directed=True, name=f"random-pred-{n}-{k}")


def road_grid(rows, cols, seed=0):
    """Road-like grid: ``rows * cols`` vertices at jittered grid points, undirected
    4-neighbour edges, float Euclidean weights (about 1)."""
    rng = np.random.default_rng(seed)
    n = rows * cols
    y, x = np.divmod(np.arange(n, dtype=np.int64), cols)
    xy = np.stack([x, y], axis=1) + rng.uniform(-0.3, 0.3, size=(n, 2))
    ids = np.arange(n, dtype=np.int64).reshape(rows, cols)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    w = np.linalg.norm(xy[src] - xy[dst], axis=1)
    return _generated_csr(n, src, dst, w, directed=False, name=f"road-grid-{rows}x{cols}")


def random_geometric_road(n, seed=0, *, k=3):
    """Road-like random geometric graph: ``n`` uniform points in a square of side
    ``sqrt(n)``, each joined to its ``k`` nearest neighbours (undirected), float
    Euclidean weights."""
    from scipy.spatial import cKDTree

    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, np.sqrt(n), size=(n, 2))
    dist, nbr = cKDTree(xy).query(xy, k=k + 1, workers=-1)
    src = np.repeat(np.arange(n, dtype=np.int64), k)
    dst = nbr[:, 1:].ravel().astype(np.int64)
    w = dist[:, 1:].ravel()
    return _generated_csr(n, src, dst, w, directed=False, name=f"geometric-road-{n}")


def integer_geometric_road(n, seed=0, *, k=3, scale=100):
    """:func:`random_geometric_road` with integer lengths, as a contraction hierarchy
    needs: each Euclidean weight times ``scale``, rounded (int64), both arcs of every
    edge given as directed arcs."""
    g = random_geometric_road(n, seed, k=k)
    tails = np.repeat(np.arange(g.n), np.diff(g.indptr))
    return CSRGraph.from_edge_arrays(g.n, tails, g.indices,
                                     np.rint(g.weights * scale).astype(np.int64),
                                     directed=True)


def dense_random(n, density=1.0, weights=(1, 100), seed=0):
    """Directed random graph for Floyd-Warshall: each arc ``u -> v`` (``u != v``)
    present with probability ``density``, integer weights uniform in ``weights``."""
    rng = np.random.default_rng(seed)
    present = rng.random((n, n), dtype=np.float32) < density
    np.fill_diagonal(present, False)
    src, dst = np.nonzero(present)
    w = _random_weights(len(src), weights, rng)
    return _generated_csr(n, src, dst, w, directed=True, name=f"dense-{n}-{density:g}")


def with_potentials(graph, seed=0, *, spread=None):
    """The same arcs reweighted ``w'(u, v) = w(u, v) + h(u) - h(v)`` for a random
    potential ``h`` (integers in ``0..spread``, default twice the largest weight):
    many weights turn negative, no negative cycle appears, and shortest paths are
    unchanged (``d'(s, v) = d(s, v) + h(s) - h(v)``). Directed; ``h`` is kept in
    ``.graph["potential"]``."""
    rng = np.random.default_rng(seed)
    spread = spread if spread is not None else max(1, 2 * int(np.ceil(graph.max_weight)))
    h = rng.integers(0, spread + 1, size=graph.n, dtype=np.int64)
    tails = np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(graph.indptr))
    w = graph.weights + (h[tails] - h[graph.indices]).astype(graph.weights.dtype)
    name = graph.graph.get("name", "graph")
    return CSRGraph(graph.indptr, graph.indices, w, nodes=graph._nodes, directed=True,
                    weighted=True, weight_attr=graph.weight_attr or "weight",
                    graph_attrs={"name": f"{name}+potential", "potential": h})
