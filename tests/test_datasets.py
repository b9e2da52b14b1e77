"""nx_gpusp.datasets: readers on the real files, the CSR fast path, the generators,
and the fetch from public sources (offline: downloads replaced by the local copies)."""

from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from nx_gpusp import datasets
from nx_gpusp.convert import from_networkx, to_networkx
from nx_gpusp.datasets import _generated_csr
from nx_gpusp.graph import CSRGraph

# name -> (nodes, arcs after merging parallel arcs; undirected edges count twice)
SIZES = {
    "rome99": (3353, 8859), "NY-synthetic": (264346, 730100), "NY": (264346, 730100),
    "COL": (435666, 1042400), "FLA": (1070376, 2687902), "Sydney": (33113, 75379),
    "ChicagoRegional": (12982, 39018), "Anaheim": (416, 914), "SiouxFalls": (24, 76),
    "gnutella04": (10876, 39994), "bitcoin-otc": (5881, 35592),
    "usroads": (129164, 330870), "minnesota": (2642, 6606),
}
# read also as NetworkX graphs (the larger ones only through the CSR fast path)
NX_SIZED = ["rome99", "Sydney", "ChicagoRegional", "Anaheim", "SiouxFalls", "gnutella04",
            "bitcoin-otc", "minnesota"]


def arcs(graph):
    """(tail, head, weight) rows in sorted order: CSR arc order does not matter."""
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    order = np.lexsort((graph.indices, tails))
    return tails[order], graph.indices[order], graph.weights[order]


def assert_same_csr(a, b):
    assert (a.n, a.m, a.directed, a.weighted) == (b.n, b.m, b.directed, b.weighted)
    assert list(a.nodes) == list(b.nodes)
    for x, y in zip(arcs(a), arcs(b)):
        np.testing.assert_array_equal(x, y)


def test_every_data_file_has_a_short_name(data_dir):
    sums = (data_dir / "SHA256SUMS").read_text().splitlines()
    listed = {line.split()[-1].removeprefix("./") for line in sums}
    assert listed == {path for path, _ in datasets.DATASETS.values()}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_csr_reader_sizes(data_dir, name):
    g = datasets.load(name, as_csr=True, root=data_dir)
    assert (g.n, g.m) == SIZES[name]


@pytest.mark.parametrize("name", NX_SIZED)
def test_csr_fast_path_equals_networkx_conversion(data_dir, name):
    G = datasets.load(name, root=data_dir)
    g = datasets.load(name, as_csr=True, root=data_dir)
    assert G.is_directed() == g.directed
    assert_same_csr(g, from_networkx(G, g.weight_attr))


def test_dimacs_weights_and_direction(data_dir):
    G = datasets.read_dimacs_gr(data_dir / "dimacs9/rome99.gr")
    assert G.is_directed()
    w = [d["weight"] for _, _, d in G.edges(data=True)]
    assert min(w) >= 1 and max(w) == 12711


def test_pace_weights_are_seeded_and_optional(data_dir):
    path = data_dir / "road_pace16/NY.gr.xz"
    g1 = datasets.read_pace_gr(path, as_csr=True)
    g2 = datasets.read_pace_gr(path, as_csr=True)
    assert not g1.directed and (g1.min_weight, g1.max_weight) == (1, 10)
    np.testing.assert_array_equal(g1.weights, g2.weights)
    assert not np.array_equal(g1.weights, datasets.read_pace_gr(path, seed=1, as_csr=True).weights)
    unweighted = datasets.read_pace_gr(path, weights=None, as_csr=True)
    assert not unweighted.weighted and unweighted.max_weight == 1


def test_tntp_keeps_both_attributes(data_dir):
    G = datasets.read_tntp(data_dir / "tntp/SiouxFalls_net.tntp")
    assert G[0][1] == {"length": 6.0, "free_flow_time": 6.0}
    g = datasets.read_tntp(data_dir / "tntp/ChicagoRegional_net.tntp", weight="length",
                           as_csr=True)
    assert g.weight_attr == "length"
    zero_time = datasets.load("ChicagoRegional", as_csr=True, root=data_dir)
    assert zero_time.min_weight == 0


def test_bitcoin_has_negative_weights(data_dir):
    g = datasets.load("bitcoin-otc", as_csr=True, root=data_dir)
    assert (g.min_weight, g.max_weight) == (-10, 10)
    assert 1 in g and 0 not in g  # labels are the file's ids


def test_matrix_market_is_undirected(data_dir):
    G = datasets.load("minnesota", root=data_dir)
    assert not G.is_directed() and G.number_of_edges() == 3303
    weighted = datasets.load("minnesota", as_csr=True, root=data_dir, weights=(1, 10))
    assert weighted.weighted and weighted.max_weight <= 10


def test_load_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown dataset"):
        datasets.load("nope")


def test_an_installed_package_looks_only_in_the_cache(tmp_path, monkeypatch):
    """A wheel (no pyproject.toml above the package) without NX_GPUSP_DATA: only the
    download cache is searched and named, never a folder inside the environment."""
    import shutil

    package = tmp_path / "site-packages" / "nx_gpusp"
    shutil.copytree(Path(datasets.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    monkeypatch.delenv("NX_GPUSP_DATA", raising=False)
    monkeypatch.setenv("NX_GPUSP_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(datasets, "__file__", str(package / "datasets.py"))
    assert datasets.data_root() is None
    with pytest.raises(FileNotFoundError) as err:
        datasets.find("rome99")
    message = str(err.value)
    assert str(tmp_path / "cache") in message and "site-packages" not in message
    assert "shared" not in message and "NX_GPUSP_DATA" in message


def test_a_source_checkout_looks_beside_it(monkeypatch):
    monkeypatch.delenv("NX_GPUSP_DATA", raising=False)
    root = Path(datasets.__file__).resolve().parents[1]
    assert datasets.data_root() == root.parent / "shared" / "data"


def test_dir_lists_the_public_names_only():
    names = dir(datasets)
    assert set(names) == set(datasets.__all__)
    assert not {"np", "nx", "os", "gzip"} & set(names)


# -- generators -----------------------------------------------------------------------
GENERATORS = [
    (datasets.rmat, (8,), {}),
    (datasets.rmat, (8,), {"directed": True}),
    (datasets.random_predecessors, (500,), {}),
    (datasets.road_grid, (20, 30), {}),
    (datasets.random_geometric_road, (600,), {}),
    (datasets.dense_random, (40,), {"density": 0.5}),
]


@pytest.mark.parametrize("gen, args, kw", GENERATORS,
                         ids=[f"{g.__name__}-{kw}" for g, _, kw in GENERATORS])
def test_generators_are_deterministic(gen, args, kw):
    a, b = gen(*args, **kw), gen(*args, **kw)
    assert_same_csr(a, b)
    c = gen(*args, seed=1, **kw)
    assert not np.array_equal(a.weights, c.weights) or not np.array_equal(a.indices, c.indices)


def test_generator_sizes_and_weights():
    g = datasets.rmat(10, edge_factor=8)
    assert g.n == 1024 and not g.directed and g.m <= 2 * 8 * 1024
    assert 1 <= g.min_weight and g.max_weight <= 255
    g = datasets.random_predecessors(1000, k=7)
    assert g.n == 1000 and 0.99 * 7000 <= g.m <= 7000
    assert (g.min_weight, g.max_weight) == (1, 10)
    indeg = np.bincount(g.indices, minlength=g.n)
    assert indeg.max() <= 7 and indeg.min() >= 5
    g = datasets.road_grid(10, 20)
    assert g.n == 200 and g.m == 2 * (10 * 19 + 9 * 20) and g.weights.dtype == np.float64
    assert 0.3 < g.min_weight and g.max_weight < 1.7
    g = datasets.random_geometric_road(1000, k=3)
    assert g.n == 1000 and 3000 <= g.m <= 6000 and g.min_weight > 0
    ints = datasets.integer_geometric_road(1000, k=3)  # the same arcs, lengths x 100
    assert ints.directed and ints.weights.dtype == np.int64
    np.testing.assert_array_equal(ints.indptr, g.indptr)
    np.testing.assert_array_equal(ints.indices, g.indices)
    np.testing.assert_array_equal(ints.weights, np.rint(g.weights * 100))
    g = datasets.dense_random(30)
    assert g.m == 30 * 29 and (g.min_weight >= 1 and g.max_weight <= 100)


def test_generated_csr_matches_from_edge_arrays():
    rng = np.random.default_rng(5)
    n, m = 50, 400
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    for w in (rng.integers(1, 9, len(src)), rng.uniform(0, 1, len(src))):
        for directed in (True, False):
            fast = _generated_csr(n, src, dst, w, directed=directed, name="x")
            ref = CSRGraph.from_edge_arrays(n, src, dst, w, directed=directed)
            assert_same_csr(fast, ref)


def test_potentials_preserve_shortest_paths():
    g = datasets.random_predecessors(60, k=3, seed=2)
    h = datasets.with_potentials(g, seed=3)
    assert h.has_negative_weights and h.directed
    pot = h.graph["potential"]
    G, H = to_networkx(g), to_networkx(h)
    d = nx.single_source_dijkstra_path_length(G, 0)
    d2 = nx.single_source_bellman_ford_path_length(H, 0)  # raises on a negative cycle
    assert d.keys() == d2.keys()
    for v, dv in d.items():
        assert d2[v] == dv + pot[0] - pot[v]


def test_potentials_on_undirected_graph_make_it_directed():
    g = datasets.road_grid(4, 5)
    h = datasets.with_potentials(g, seed=1)
    assert h.directed and h.m == g.m and h.has_negative_weights
    assert not nx.negative_edge_cycle(to_networkx(h))



# -- fetch: public sources into the cache (offline here: downloads are replaced by the
# local copies, packed the way the public source packs them) --------------------------
def _local_sums(data_dir):
    lines = (data_dir / "SHA256SUMS").read_text().splitlines()
    return {line.split()[-1].removeprefix("./"): line.split()[0] for line in lines}


def test_every_data_set_has_a_public_source():
    assert set(datasets.SOURCES) == set(datasets.DATASETS)
    for name, src in datasets.SOURCES.items():
        assert src.url.startswith(("https://", "http://")) and src.licence and src.origin
        assert (src.nodes, src.arcs) == SIZES[name]


def test_recorded_checksums_are_those_of_the_local_copies(data_dir):
    """Where the download itself is the file (no unpacking), its recorded SHA-256 is
    the local copy's; an unpacked file's likewise."""
    sums = _local_sums(data_dir)
    for name, src in datasets.SOURCES.items():
        relpath = datasets.DATASETS[name][0]
        if src.sha256 and src.unpack is None:
            assert src.sha256 == sums[relpath], name
        if src.file_sha256:
            assert src.file_sha256 == sums[relpath], name
        assert datasets.sha256_of(data_dir / relpath) == sums[relpath]


def _serve_local(monkeypatch, tmp_path, payload):
    """Replace the download by ``payload`` (a path), as pooch would leave it."""
    calls = []

    def download(url, sha256, folder):
        calls.append((url, sha256))
        folder.mkdir(parents=True, exist_ok=True)
        out = folder / Path(url).name
        out.write_bytes(payload.read_bytes())
        if sha256 and datasets.sha256_of(out) != sha256:  # pooch's check
            out.unlink()
            raise ValueError("SHA256 hash of downloaded file does not match")
        return out

    monkeypatch.setattr(datasets, "_download", download)
    return calls



def test_fetch_plain_file_is_verified_and_found_by_load(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("NX_GPUSP_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("NX_GPUSP_DATA", str(tmp_path / "no-data-here"))
    with pytest.raises(FileNotFoundError, match=r"fetch\('SiouxFalls'\)"):
        datasets.load("SiouxFalls")
    calls = _serve_local(monkeypatch, tmp_path, data_dir / "tntp/SiouxFalls_net.tntp")
    path = datasets.fetch("SiouxFalls")
    assert path == tmp_path / "cache/tntp/SiouxFalls_net.tntp"
    assert calls == [(datasets.SOURCES["SiouxFalls"].url, datasets.SOURCES["SiouxFalls"].sha256)]
    assert not (tmp_path / "cache/downloads/SiouxFalls_net.tntp").exists()
    G = datasets.load("SiouxFalls")
    assert G.number_of_edges() == 76
    datasets.fetch("SiouxFalls")  # already there and verified: no second download
    assert len(calls) == 1


def test_load_download_fetches_what_is_missing(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("NX_GPUSP_DATA_CACHE", str(tmp_path / "cache"))
    _serve_local(monkeypatch, tmp_path, data_dir / "tntp/Anaheim_net.tntp")
    g = datasets.load("Anaheim", as_csr=True, root=tmp_path / "none", download=True)
    assert (g.n, g.m) == SIZES["Anaheim"]


def test_fetch_gunzip_checked_by_graph_size(data_dir, tmp_path, monkeypatch):
    import gzip

    gz = tmp_path / "p2p-Gnutella04.txt.gz"
    gz.write_bytes(gzip.compress((data_dir / "snap/p2p-Gnutella04.txt").read_bytes()))
    _serve_local(monkeypatch, tmp_path, gz)
    path = datasets.fetch("gnutella04", cache=tmp_path / "cache")
    assert path.read_bytes() == (data_dir / "snap/p2p-Gnutella04.txt").read_bytes()


def test_fetch_gunzip_checked_by_file_checksum(data_dir, tmp_path, monkeypatch):
    import gzip

    gz = tmp_path / "soc-sign-bitcoinotc.csv.gz"
    gz.write_bytes(gzip.compress((data_dir / "snap/soc-sign-bitcoinotc.csv").read_bytes()))
    _serve_local(monkeypatch, tmp_path, gz)
    path = datasets.fetch("bitcoin-otc", cache=tmp_path / "cache")
    assert datasets.sha256_of(path) == datasets.SOURCES["bitcoin-otc"].file_sha256


def test_fetch_takes_the_member_out_of_a_tar_archive(data_dir, tmp_path, monkeypatch):
    import tarfile

    archive = tmp_path / "minnesota.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(data_dir / "suitesparse/minnesota.mtx", arcname="minnesota/minnesota.mtx")
    _serve_local(monkeypatch, tmp_path, archive)
    path = datasets.fetch("minnesota", cache=tmp_path / "cache")
    assert path.read_bytes() == (data_dir / "suitesparse/minnesota.mtx").read_bytes()


def test_fetch_refuses_a_changed_file_and_leaves_nothing(data_dir, tmp_path, monkeypatch):
    import gzip

    lines = (data_dir / "snap/p2p-Gnutella04.txt").read_bytes().splitlines(keepends=True)
    gz = tmp_path / "p2p-Gnutella04.txt.gz"
    gz.write_bytes(gzip.compress(b"".join(lines[:-1])))  # one arc short
    _serve_local(monkeypatch, tmp_path, gz)
    with pytest.raises(ValueError, match="39993 arcs, expected 10876 and 39994"):
        datasets.fetch("gnutella04", cache=tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*Gnutella04.txt"))

    wrong = tmp_path / "Anaheim_net.tntp"
    wrong.write_bytes((data_dir / "tntp/Anaheim_net.tntp").read_bytes() + b"\n")
    _serve_local(monkeypatch, tmp_path, wrong)
    with pytest.raises(ValueError, match="does not match"):
        datasets.fetch("Anaheim", cache=tmp_path / "cache")


def test_fetch_without_pooch_says_what_to_install(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pooch(name, *args, **kw):
        if name == "pooch":
            raise ImportError("No module named 'pooch'")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_pooch)
    with pytest.raises(ImportError, match=r"nx-gpusp\[data\]"):
        datasets.fetch("SiouxFalls", cache=tmp_path)


def _reachable(url):
    import socket
    from urllib.parse import urlparse

    host = urlparse(url).hostname
    try:
        socket.create_connection((host, 443), timeout=3).close()
        return True
    except OSError:
        return False


@pytest.mark.slow
def test_fetch_from_the_public_source(data_dir, tmp_path):
    """The real download of the smallest data set; skipped (not passed) offline."""
    pytest.importorskip("pooch", reason="pooch not installed (the 'data' extra)")
    url = datasets.SOURCES["SiouxFalls"].url
    if not _reachable(url):
        pytest.skip(f"offline: cannot reach {url}")
    path = datasets.fetch("SiouxFalls", cache=tmp_path)
    assert path.read_bytes() == (data_dir / "tntp/SiouxFalls_net.tntp").read_bytes()
