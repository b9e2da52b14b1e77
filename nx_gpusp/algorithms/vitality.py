"""networkx.algorithms.vitality: ``closeness_vitality``, the Wiener index of G less
that of G without the node, per node.

Each Wiener index is nx_gpusp.algorithms.wiener's (per-source sums of distances reduced
on the device), so the values, number types, inf (G or G without the node not
connected) and nan (both not connected) are NetworkX's. Without ``node``, that is one
all-pairs computation per node: n all-pairs searches, as NetworkX runs them.
"""

import numpy as np

from ..dispatch import networkx_algorithm
from .common import as_csr, label_index, own_weight
from .measures import MEASURE, measure_can_run, measure_should_run
from .wiener import wiener_index as _wiener_index

__all__ = []

VITALITY_DOC = ("The Wiener indices by batched searches on the GPU, one all-pairs "
                "computation for G and one per node left out.")


def _wiener(graph, method, options):
    return _wiener_index.__wrapped__(graph, weight=own_weight(graph), method=method,
                                     **options)


def _without(graph, i):
    keep = np.ones(graph.n, dtype=bool)
    keep[i] = False
    return graph.induced(keep)


@networkx_algorithm(can_run=measure_can_run(), should_run=measure_should_run("node"),
                    **{**MEASURE, "doc": VITALITY_DOC + " " + MEASURE["doc"]})
def closeness_vitality(G, node=None, weight=None, wiener_index=None, *, method=None,
                       **options):
    graph = as_csr(G, weight)
    if wiener_index is None:
        wiener_index = _wiener(graph, method, options)
    if node is not None:
        i = label_index(graph, node)  # TypeError for an unhashable one, as set(G) - {node}
        return wiener_index - _wiener(graph if i is None else _without(graph, i), method,
                                      options)
    return {v: wiener_index - _wiener(_without(graph, i), method, options)
            for i, v in enumerate(graph.nodes)}
