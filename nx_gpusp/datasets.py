"""Real graphs (the files under ``shared/data``) and seeded generators, for tests and
benchmarks.

Readers return a NetworkX graph, or with ``as_csr=True`` a :class:`CSRGraph` built
straight from NumPy arrays (no per-edge Python objects); both describe the same arcs
and weights, so ``from_networkx(read_x(p), weight)`` equals ``read_x(p, as_csr=True)``
up to arc order. Node labels: files with a vertex count in their header (DIMACS,
PACE, TNTP, MatrixMarket, NY synthetic) give nodes ``0..n-1`` (file vertex ``k`` of a
1-based file is node ``k - 1``); header-less SNAP files keep their own ids as labels.
Parallel arcs keep the minimum weight, as CSRGraph does.

Generators are deterministic for a given ``seed``, vectorised, and return CSRGraph;
``nx_gpusp.convert.to_networkx`` turns a small one into a NetworkX graph.
"""

import io
import lzma
import os
import tarfile
from pathlib import Path

import networkx as nx
import numpy as np

from .graph import CSRGraph

__all__ = [
    "DATASETS", "data_root", "load",
    "read_dimacs_gr", "read_pace_gr", "read_ny_synthetic", "read_tntp",
    "read_snap_edgelist", "read_bitcoin_otc", "read_matrix_market",
    "rmat", "random_predecessors", "road_grid", "random_geometric_road",
    "dense_random", "with_potentials",
]


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
    """``$NX_GPUSP_DATA``, else ``../shared/data`` beside the repository root."""
    env = os.environ.get("NX_GPUSP_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


def load(name, *, as_csr=False, root=None, **kw):
    """One of :data:`DATASETS` by short name; ``kw`` goes to its reader."""
    try:
        relpath, reader = DATASETS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; choose one of {sorted(DATASETS)}") from None
    path = Path(root or data_root()) / relpath
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (set NX_GPUSP_DATA to the data folder)")
    return reader(path, as_csr=as_csr, **kw)


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
