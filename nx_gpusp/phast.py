"""Contraction hierarchies of method "phast" kept with a graph, so that a road network
is contracted once, not once per process:

- ``save_hierarchy(G, path)`` builds G's hierarchy (or takes the one its converted
  graph holds) and writes it to the file ``path``;
- ``load_hierarchy(G, path)`` reads it back in another process, checks that it was
  built from a graph of the same nodes, edges and weights (ValueError otherwise), and
  keeps it for every gpusp call on G's content: ``method="phast"`` then skips the
  build and ``method="auto"`` runs phast for calls without a cutoff;
- or set ``nx.config.backends.gpusp.hierarchy_cache`` to a folder: every hierarchy
  that method "phast" builds is written there, under the fingerprint of its graph's
  content and weights, and found there by later processes.

Example::

    import networkx as nx
    import nx_gpusp.phast

    nx_gpusp.phast.save_hierarchy(G, "roads.phast.npz")  # once: builds it
    # later, in another process, with the same G:
    nx_gpusp.phast.load_hierarchy(G, "roads.phast.npz")
    nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method="phast")
"""

import networkx as nx

from .convert import from_networkx
from .graph import CSRGraph
from .methods import require_integer_weights
from .solvers.sssp import hierarchy_store
from .solvers.sssp.contraction import CORE_SIZE, Hierarchy, _hierarchy

__all__ = ["save_hierarchy", "load_hierarchy"]


def _graph(G, weight):
    """G's CSRGraph of ``weight`` (an edge attribute, 1 where missing, as NetworkX's
    Dijkstra functions read it), refused unless its weights are integers."""
    if isinstance(G, CSRGraph):
        graph = G
    elif isinstance(G, nx.Graph):
        if weight is not None and not isinstance(weight, str):
            raise TypeError(f"weight must be an edge attribute's name, got {weight!r} "
                            "(a hierarchy holds the weights it was built from)")
        graph = from_networkx(G, weight)
    else:
        raise TypeError(f"expected a NetworkX graph, got {type(G).__name__}")
    require_integer_weights(graph, "phast")
    return graph


def save_hierarchy(G, path, weight="weight", *, core_size=CORE_SIZE):
    """Write the contraction hierarchy of ``G`` (weights: the edge attribute ``weight``)
    to the file ``path``, building it unless it is loaded or in the
    ``hierarchy_cache`` folder. Returns the Hierarchy."""
    from .solvers.sssp.phast import _check_core_size

    graph = _graph(G, weight)
    h = _hierarchy(graph, _check_core_size(core_size))
    h.save(path)
    return h


def load_hierarchy(G, path, weight="weight"):
    """Read the hierarchy saved at ``path`` for ``G`` (weights: the edge attribute
    ``weight``) and keep it for gpusp's calls on G's content in this process.
    ValueError where the file holds no hierarchy or one of another graph (other nodes,
    edges or weights). Returns the Hierarchy."""
    graph = _graph(G, weight)
    h = Hierarchy.load(path, graph)
    hierarchy_store.remember(h)
    return h
