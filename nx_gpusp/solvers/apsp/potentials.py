"""Johnson's vertex potentials, and the negative-cycle refusal every dense method uses."""

import networkx as nx
import numpy as np

from ..sssp.frontier import frontier_sssp

__all__ = ["bellman_ford_potentials", "refuse_negative_cycles"]


def bellman_ford_potentials(ex, graph):
    """h(v) = shortest distance to v from a virtual source joined to every vertex by a
    0-weight arc (frontier Bellman-Ford with every vertex a source at distance 0), on
    the device. Raises NetworkXUnbounded when the graph has a negative cycle."""
    if graph.has_negative_self_loop:
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return frontier_sssp(ex, graph, np.arange(graph.n), want_pred=False).dist


def refuse_negative_cycles(ex, graph):
    """Raise NetworkXUnbounded when the graph has a negative cycle (only negative arcs
    can make one). Afterwards every diagonal entry of Floyd-Warshall stays 0 and every
    intermediate value is a simple-path sum, so integer kernels cannot overflow."""
    if graph.has_negative_weights:
        bellman_ford_potentials(ex, graph)
