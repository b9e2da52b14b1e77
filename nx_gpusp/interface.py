"""What NetworkX dispatches to: ``BackendInterface`` (entry point ``networkx.backends``).

NetworkX imports this module when a call first runs on gpusp; its imports (NumPy, every
algorithm) run with Python's cyclic collector paused (nx_gpusp.collector).
"""

from .config import get_config
from .cuda_driver import start_cuda_driver

# a gpusp call is about to run: CUDA's driver and the GPU's context start now, beside
# the imports below (NumPy's, the algorithms'); the CUDA libraries that CuPy loads wait
# for the conversion, since loading them holds the dynamic loader that NumPy's
# extension modules need while they import
start_cuda_driver(get_config().device, libraries=False)

from .collector import collector_paused  # noqa: E402

with collector_paused():
    from . import algorithms  # noqa: F401  (registers every function)
    from .convert import EdgeDataGraph, from_networkx, to_networkx
    from . import dispatch
    from .dispatch import IMPLEMENTATIONS
    from .graph import CSRGraph

__all__ = ["BackendInterface", "backend_interface"]


class BackendInterface:
    """Converts graphs, answers can_run/should_run, and exposes the algorithms."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        try:
            return BackendInterface._convert_from_nx(G, edge_attrs, preserve_edge_attrs,
                                                     preserve_graph_attrs)
        except NotImplementedError as err:  # automatic dispatch: NetworkX runs the call
            dispatch.announce_decline(name or "the call", str(err))
            raise

    @staticmethod
    def _convert_from_nx(G, edge_attrs, preserve_edge_attrs, preserve_graph_attrs):
        if isinstance(G, CSRGraph):
            return G
        # a gpusp call follows: the CUDA libraries load now, alongside the conversion
        # (the driver started when this module was imported)
        start_cuda_driver(get_config().device)
        weight, default = None, 1
        if edge_attrs:
            if len(edge_attrs) > 1:
                raise NotImplementedError("gpusp graphs hold one edge weight attribute")
            (weight, default), = edge_attrs.items()
            if default is None:
                default = 1
        elif preserve_edge_attrs:  # a weight function: evaluated by each call
            return EdgeDataGraph(G)
        graph = from_networkx(G, weight, default, graph_attrs=preserve_graph_attrs)
        if getattr(graph, "hidden_arcs", 0):
            # edges weighing None: NetworkX caches what this returns and may hand it to
            # an unweighted call too, which needs them; the edge data serves both
            return EdgeDataGraph(G)
        return graph

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, CSRGraph):
            return to_networkx(obj)
        return obj

    can_run = staticmethod(dispatch.can_run)
    should_run = staticmethod(dispatch.should_run)

    @staticmethod
    def on_start_tests(items):
        """Mark NetworkX tests whose expectations differ from ours for a stated reason."""
        from .testing import networkx_test_xfails

        import pytest

        reasons = networkx_test_xfails()
        for item in items:
            key = "::".join(item.nodeid.split("::")[1:])
            reason = reasons.get(key) or reasons.get(item.name)
            if reason:
                item.add_marker(pytest.mark.xfail(reason=reason))


for _name, _func in IMPLEMENTATIONS.items():
    setattr(BackendInterface, _name, staticmethod(_func))

backend_interface = BackendInterface()
del _name, _func
