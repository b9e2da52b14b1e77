"""What a NetworkX user sees, through NetworkX's public API: the calls of the README's
graphs beside NetworkX and SciPy (``LengthsLookups`` ... ``FirstCall``, ``SimplePaths``), conversion
(from_networkx, upload), and the dispatched call with each method, first (nothing
cached) and again (converted graph cached).

A call runs on a NetworkX graph whose conversion NetworkX has cached (the warm-up
fills it), or, above ``nx_gpusp.bench.NX_MAX_ARCS`` arcs, on the converted graph
itself (``bench.user_graph``): NetworkX dispatches a call on a gpusp graph to gpusp.
The calls use only ``len``, ``get``, iteration and ``dict()`` on what NetworkX returns,
so they time the same work whatever the result type is.
"""

import networkx as nx

from nx_gpusp.bench import (call_runner, call_skip_reason, e2e_runner, first_call_seconds,
                            followup_call_seconds, lookup_targets, pick_sources,
                            user_graph)
from nx_gpusp.convert import from_networkx, to_networkx

from . import workloads as W

nx.config.warnings_to_ignore.add("cache")


class Convert:
    params = [W.workloads("convert")]
    param_names = ["workload"]
    number = 1
    repeat = (3, 10, 20.0)
    timeout = 600

    def setup(self, workload):
        graph = W.load_graph(W.case_of(workload, "convert"))
        self.attr = graph.weight_attr or "weight"
        self.G = to_networkx(graph)
        self.ex = W.executor()
        self.csr = from_networkx(self.G, self.attr)

    def time_from_networkx(self, workload):
        from_networkx(self.G, self.attr)

    def time_upload(self, workload):
        self.csr._device.clear()
        self.csr.on(self.ex)
        self.ex.synchronize()


class EndToEnd:
    params = [W.workloads("e2e"), W.e2e_names() + ["networkx"]]
    param_names = ["workload", "impl"]
    number = 1
    repeat = (3, 10, 20.0)
    warmup_time = 0
    timeout = 600

    def setup(self, workload, impl):
        graph = W.load_graph(W.case_of(workload, "e2e"))
        nx.config.backends.gpusp.device = W.executor().name
        self.G = to_networkx(graph)
        self.source = pick_sources(graph, 1)[0]
        attr = graph.weight_attr or "weight"
        if impl == "networkx":
            label = graph.labels([self.source])[0]

            def call(_s):
                return nx.single_source_dijkstra_path_length(self.G, label, weight=attr,
                                                             backend="networkx")
            self.first = self.cached = call
        else:
            method = W.method("sssp", impl)
            self.first = e2e_runner("sssp", method, graph, self.G, cached=False)
            self.cached = e2e_runner("sssp", method, graph, self.G, cached=True)
        # warm-up, which also fills the conversion cache
        W.warm_up(self.cached, self.source, key=f"{workload}:e2e:{impl}")

    def time_first_call(self, workload, impl):
        self.first(self.source)

    def time_cached_call(self, workload, impl):
        self.cached(self.source)


class _PublicCall:
    """One public call (``call``, a key of nx_gpusp.bench.CALL_TITLES) by gpusp,
    NetworkX (backend="networkx") or SciPy's equivalent on its arrays."""

    call = None
    problem = "calls"
    impls = ["gpusp", "networkx", "scipy"]
    param_names = ["workload", "impl"]
    number = 1
    repeat = (2, 10, 20.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload, impl):
        case = W.case_of(workload, self.problem)
        graph = W.load_graph(case)
        nx.config.backends.gpusp.device = W.executor().name
        G = user_graph(graph)
        reason = call_skip_reason(impl, self.call, graph, G)
        if reason:
            raise NotImplementedError(reason)
        source = pick_sources(graph, 1)[0]
        self.run = call_runner(self.call, impl, graph, G, source, lookup_targets(graph))
        slow = W.SLOW_ALL_PAIRS_S if self.call == "all-pairs-dict" else W.SLOW_CALL_S
        W.warm_up(self.run, slow=slow, key=f"{case.label}:{self.call}:{impl}")


class LengthsLookups(_PublicCall):
    """``single_source_dijkstra_path_length(G, s)``, graph cached, then ``len`` and
    1,000 lookups of random nodes."""

    call = "lengths"
    params = [W.workloads("calls"), _PublicCall.impls]

    def time_lengths_lookups(self, workload, impl):
        self.run()


class PathsLookups(_PublicCall):
    """``single_source_dijkstra(G, s)``, graph cached, then 1,000 random paths read."""

    call = "paths"
    params = [W.workloads("calls"), _PublicCall.impls]

    def time_paths_lookups(self, workload, impl):
        self.run()


class LengthsDict(_PublicCall):
    """``dict(single_source_dijkstra_path_length(G, s))``, graph cached."""

    call = "lengths-dict"
    problem = "calls-dict"
    params = [W.workloads("calls-dict"), ["gpusp", "networkx"]]

    def time_lengths_dict(self, workload, impl):
        self.run()


class LengthsCopy(_PublicCall):
    """``single_source_dijkstra_path_length(G, s).copy()``, graph cached: the plain dict
    built once (``dict()`` of a lazy result reads every value through ``m[key]``)."""

    call = "lengths-copy"
    problem = "calls-dict"
    params = [W.workloads("calls-dict"), ["gpusp", "networkx"]]

    def time_lengths_copy(self, workload, impl):
        self.run()


class PathsDict(_PublicCall):
    """``single_source_dijkstra(G, s)``, graph cached, both results made dicts."""

    call = "paths-dict"
    problem = "calls-dict"
    params = [W.workloads("calls-dict"), ["gpusp", "networkx"]]

    def time_paths_dict(self, workload, impl):
        self.run()


class AllPairsDict(_PublicCall):
    """``dict(all_pairs_dijkstra_path_length(G))``, graph cached (SciPy: its all-sources
    distance matrix)."""

    call = "all-pairs-dict"
    problem = "all-pairs-calls"
    params = [W.workloads("all-pairs-calls"), _PublicCall.impls]
    repeat = (1, 3, 30.0)

    def time_all_pairs_dict(self, workload, impl):
        self.run()


class FloydWarshallNumpy(_PublicCall):
    """``floyd_warshall_numpy(G)``, graph cached."""

    call = "floyd-warshall-numpy"
    problem = "fw-calls"
    params = [W.workloads("fw-calls"), _PublicCall.impls]

    def time_floyd_warshall_numpy(self, workload, impl):
        self.run()


class SimplePaths(_PublicCall):
    """The first 10 paths of ``shortest_simple_paths(G, s, t)``, graph cached (Yen's
    algorithm; SciPy has none)."""

    call = "simple-paths"
    problem = "simple-paths-calls"
    params = [W.workloads("simple-paths-calls"), ["gpusp", "networkx"]]

    def time_simple_paths(self, workload, impl):
        self.run()


class FirstCall:
    """The first ``single_source_dijkstra_path_length(G, s, backend="gpusp")`` in a
    fresh process, conversion included, with the kernels in CuPy's on-disk cache
    (setup's calls here put them there): seconds, the median of three processes; and
    the first paths and predecessor calls after it there."""

    params = [W.workloads("first-call")]
    param_names = ["workload"]
    timeout = 900

    def setup(self, workload):
        case = W.case_of(workload, "sssp")
        graph = W.load_graph(case)
        self.device = W.executor().name
        nx.config.backends.gpusp.device = self.device
        self.source = pick_sources(graph, 1)[0]
        G = to_networkx(graph)
        label = graph.labels([self.source])[0]
        weight = graph.weight_attr or "weight"
        W.warm_up(lambda: [  # every function a child calls, its kernels into the cache
            f(G, label, weight=weight, backend="gpusp")
            for f in (nx.single_source_dijkstra_path_length, nx.single_source_dijkstra_path,
                      nx.dijkstra_predecessor_and_distance)],
            slow=W.SLOW_CALL_S, key=f"{case.label}:first-call")

    def track_first_call(self, workload):
        return first_call_seconds(workload, self.device, self.source, repeat=3)[0]
    track_first_call.unit = "seconds"

    def track_first_call_cold(self, workload):
        """The same call with an empty CuPy kernel cache in each process (a new
        machine): the shipped kernels load, CuPy compiles what it must."""
        return first_call_seconds(workload, self.device, self.source, repeat=3,
                                  cold=True)[0]
    track_first_call_cold.unit = "seconds"

    def track_first_call_auto(self, workload):
        """The same call dispatched by NETWORKX_BACKEND_PRIORITY=gpusp (no backend=):
        CuPy's import and CUDA's start begin at NetworkX's import."""
        return first_call_seconds(workload, self.device, self.source, repeat=3,
                                  auto=True)[0]
    track_first_call_auto.unit = "seconds"

    def track_first_paths_call(self, workload):
        """single_source_dijkstra_path's first call in a fresh process, after a first
        lengths call there: what paths add to a program's start."""
        return followup_call_seconds(workload, self.device, self.source,
                                     "first-paths-call", repeat=3)[0]
    track_first_paths_call.unit = "seconds"

    def track_first_predecessors_call(self, workload):
        """dijkstra_predecessor_and_distance's first call in a fresh process, after a
        first lengths call there."""
        return followup_call_seconds(workload, self.device, self.source,
                                     "first-predecessors-call", repeat=3)[0]
    track_first_predecessors_call.unit = "seconds"


class Measures:
    """The all-pairs measures through NetworkX's public API with backend="gpusp", graph
    cached: hop-count closeness_centrality on the graph, diameter and
    average_shortest_path_length on its largest strongly connected component (they need
    one). NetworkX's own calls take minutes on the GPU profile's graph: not timed."""

    param_names = ["workload", "function"]
    params = [W.workloads("all-pairs-calls"),
              ["closeness_centrality", "diameter", "average_shortest_path_length"]]
    number = 1
    repeat = (1, 3, 30.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload, function):
        case = W.case_of(workload, "all-pairs-calls")
        nx.config.backends.gpusp.device = W.executor().name
        G = user_graph(W.load_graph(case))
        if function != "closeness_centrality":
            G = G.subgraph(max(nx.strongly_connected_components(G), key=len)).copy()
        call = getattr(nx, function)
        self.run = lambda: call(G, backend="gpusp")
        W.warm_up(self.run, slow=W.SLOW_ALL_PAIRS_S, key=f"{case.label}:{function}")

    def time_measure(self, workload, function):
        self.run()


class Traversal:
    """Breadth-first traversal and the functions built on one search, in NetworkX's
    order, by gpusp and by NetworkX (backend="networkx") on the e2e workloads' graphs
    (as unweighted graphs): bfs_edges and bfs_layers consumed whole, ego_graph of
    radius 2, voronoi_cells of 8 centers."""

    params = [W.workloads("e2e"), ["gpusp", "networkx"]]
    param_names = ["workload", "impl"]
    number = 1
    repeat = (2, 10, 20.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload, impl):
        graph = W.load_graph(W.case_of(workload, "e2e"))
        nx.config.backends.gpusp.device = W.executor().name
        self.G = user_graph(graph)
        if impl == "networkx" and not isinstance(self.G, nx.Graph):
            raise NotImplementedError("NetworkX skipped: no NetworkX graph of this size")
        self.kw = {"backend": impl}
        self.attr = graph.weight_attr or "weight"
        self.source = graph.labels(pick_sources(graph, 1))[0]
        self.centers = graph.labels(pick_sources(graph, 8))
        W.warm_up(lambda: list(nx.bfs_edges(self.G, self.source, **self.kw)),
                  key=f"{workload}:traversal:{impl}")

    def time_bfs_edges(self, workload, impl):
        return len(list(nx.bfs_edges(self.G, self.source, **self.kw)))

    def time_bfs_layers(self, workload, impl):
        return len(list(nx.bfs_layers(self.G, self.source, **self.kw)))

    def time_ego_graph(self, workload, impl):
        return len(nx.ego_graph(self.G, self.source, 2, **self.kw))

    def time_voronoi_cells(self, workload, impl):
        try:
            return len(nx.voronoi_cells(self.G, self.centers, weight=self.attr, **self.kw))
        except NotImplementedError:  # ties between centers: NetworkX's to answer
            return 0


class Betweenness(_PublicCall):
    """betweenness_centrality through NetworkX's public API, graph cached: k = 1000
    sampled sources on hop counts, and exact on the weights, beside NetworkX (left out
    where its searches visit more than ``nx_gpusp.bench.NX_BETWEENNESS_MAX_WORK`` arcs)."""

    problem = "all-pairs-calls"
    param_names = ["workload", "impl", "call"]
    params = [W.workloads("all-pairs-calls"), ["gpusp", "networkx"],
              ["betweenness-k", "betweenness-weighted"]]
    repeat = (1, 3, 60.0)

    def setup(self, workload, impl, call):
        self.call = call
        super().setup(workload, impl)

    def time_betweenness(self, workload, impl, call):
        self.run()


class BetweennessSampled(_PublicCall):
    """betweenness_centrality(G, k=1000, seed=0) on hop counts on the README's graphs
    (R-MAT scale 20 among them), graph cached."""

    call = "betweenness-k"
    param_names = ["workload", "impl"]
    params = [W.workloads("calls"), ["gpusp", "networkx"]]
    repeat = (1, 3, 60.0)

    def time_betweenness_k(self, workload, impl):
        self.run()
