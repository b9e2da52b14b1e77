"""networkx.algorithms.voronoi: ``voronoi_cells``, each node's nearest center by one
multi-source Dijkstra search on the GPU (an "sssp" method).

NetworkX keeps, for a node as near to two centers, the center of the path its heap
found first; gpusp declines such graphs (NotImplementedError: NetworkX answers under
automatic dispatch), and on float weights also where two centers' distances are within
rounding of each other (nx_gpusp.solvers.sssp.voronoi). Otherwise the cells are
NetworkX's: the keys are the centers as given, in ``center_nodes``' order, then
"unreachable" where some node is.
"""

from ..dispatch import networkx_algorithm
from ..solvers.sssp.voronoi import nearest_sources
from .common import as_csr, run_sssp, sssp_should_run, weight_can_run
from .weighted import _source_indices

__all__ = []

VORONOI_DOC = ("One multi-source Dijkstra search on the GPU; graphs where a node is as "
               "near to two centers (NetworkX's heap order picks one) are left to NetworkX.")


@networkx_algorithm(can_run=weight_can_run, should_run=sssp_should_run, doc=VORONOI_DOC,
                    methods=("sssp",), default="dijkstra_method")
def voronoi_cells(G, center_nodes, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    centers = list(dict.fromkeys(center_nodes))  # the first of equal labels, as paths keys
    idx = _source_indices(graph, centers)
    host = run_sssp(graph, idx, family="dijkstra", method=method, options=options)
    owner, ambiguous = nearest_sources(graph, host.dist, host.pred, idx)
    if ambiguous:
        raise NotImplementedError(
            "gpusp: a node is as near to two centers; NetworkX keeps the center of the "
            "path its heap found first")
    given = dict(zip(idx, centers))
    cells = {c: {c} for c in centers}
    labels = graph.nodes
    unreachable = set()
    for v, o in enumerate(owner.tolist()):
        if o < 0:
            unreachable.add(labels[v])
        elif v not in given:
            cells[given[o]].add(labels[v])
    if unreachable:
        cells["unreachable"] = unreachable
    return cells
