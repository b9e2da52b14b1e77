"""All-pairs shortest paths: Floyd-Warshall on a dense matrix (every registered
floyd-warshall method, NetworkX floyd_warshall_numpy, SciPy floyd_warshall) and
all-pairs SSSP on a sparse graph (every sssp method, one source after another).
Times only; min-plus ops/s and speed-ups are printed by ``python -m nx_gpusp.bench``."""

import networkx as nx
import numpy as np

from nx_gpusp.bench import (PEERS, all_pairs_runner, kernel_runner, peer_runner,
                            peer_skip_reason, preprocessing_skip_reason)
from nx_gpusp.graph import CSRGraph
from nx_gpusp.ops.floyd_warshall_dpx import LANES
from nx_gpusp.solvers.apsp.floyd_warshall_dpx import choose_lane

from . import workloads as W

nx.config.warnings_to_ignore.add("cache")

PER_THREAD_MAX_N = 2048  # one-thread-per-source Dijkstra reads n**2 entries per source


class _FloydWarshallCase:
    param_names = ["workload", "impl"]
    number = 1
    repeat = (2, 10, 60.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload, impl):
        self.case = W.case_of(workload, "floyd-warshall")
        self.graph = W.load_graph(self.case)
        if impl in PEERS:
            reason = peer_skip_reason(impl, "floyd-warshall", self.graph)
            if reason:
                raise NotImplementedError(reason)
            self.run = peer_runner(impl, "floyd-warshall", self.graph)
        else:
            self.run = kernel_runner("floyd-warshall", W.method("floyd-warshall", impl),
                                     self.graph, W.executor())
        W.warm_up(self.run, key=f"{self.case.label}:floyd-warshall:{impl}")


class FloydWarshall(_FloydWarshallCase):
    params = [W.workloads("floyd-warshall"), W.method_names("floyd-warshall") + list(PEERS)]

    def time_floyd_warshall(self, workload, impl):
        self.run()


class FloydWarshallLanes(_FloydWarshallCase):
    """fw-dpx by distance lane (its ``lane`` option) on the Floyd-Warshall workloads'
    arcs with every weight 1 (the only weight for which the int16 pairs fit at
    n = 8192), f32 on those weights as floats, f64 on floats uniform in 1..2: the
    lanes' rows of the kernel race (min-plus ops/s: n**3 over the time). A lane that
    cannot hold the graph's distances is skipped with the lane check's reason. Timing
    settings as FloydWarshall's."""

    param_names = ["workload", "lane"]
    params = [W.workloads("floyd-warshall"), list(LANES)]

    def setup(self, workload, lane):
        base = W.load_graph(W.case_of(workload, "floyd-warshall"))
        if lane == "f64":
            weights = np.random.default_rng(1).uniform(1.0, 2.0, base.m)
        else:
            weights = np.ones(base.m, dtype=np.float64 if lane == "f32" else np.int64)
        graph = CSRGraph(base.indptr, base.indices, weights, directed=base.directed,
                         weight_attr="weight")
        try:
            choose_lane(graph, lane)
        except ValueError as exc:
            raise NotImplementedError(str(exc)) from None
        self.run = kernel_runner("floyd-warshall", W.method("floyd-warshall", "fw-dpx"),
                                 graph, W.executor(), {"lane": lane})
        W.warm_up(self.run, key=f"{workload}:fw-dpx-lane:{lane}")

    def time_floyd_warshall_lane(self, workload, lane):
        self.run()


class AllPairsSSSP:
    """Every registered all-pairs method (all sources, distances only, synchronised);
    each sssp method run source after source ("each:<method>"); SciPy's dijkstra on
    all sources in one call; NetworkX all_pairs_dijkstra_path_length."""

    params = [W.workloads("all-pairs"),
              W.method_names("all-pairs")
              + [f"each:{m}" for m in W.method_names("sssp") if W.each_sssp_for_all_pairs()]
              + list(PEERS)]
    param_names = ["workload", "impl"]
    number = 1
    repeat = 1
    warmup_time = 0
    timeout = 900

    def setup(self, workload, impl):
        self.graph = W.load_graph(W.case_of(workload, "all-pairs"))
        g = self.graph
        if impl == "scipy":
            from scipy.sparse import csgraph

            from nx_gpusp.bench import scipy_matrix

            A = scipy_matrix(g)
            self.run = lambda: csgraph.dijkstra(A, directed=g.directed)
        elif impl == "networkx":
            if g.n > 2000:
                raise NotImplementedError("NetworkX all-pairs skipped above 2000 nodes")
            from nx_gpusp.convert import to_networkx

            G = to_networkx(g)
            self.run = lambda: dict(nx.all_pairs_dijkstra_path_length(G, backend="networkx"))
        elif impl.startswith("each:"):
            one = kernel_runner("sssp", W.method("sssp", impl[5:]), g, W.executor())
            sources = np.arange(g.n).tolist()
            self.run = lambda: [one(s) for s in sources]
        else:
            method = W.method("all-pairs", impl)
            if method.unit_weights_only and g.weighted:
                raise NotImplementedError(f"{impl} takes unweighted graphs only")
            W.skip_per_vertex(method, g, PER_THREAD_MAX_N, "n array scans of n per source "
                              "thread")
            reason = preprocessing_skip_reason(method, g, workload)
            if reason:
                raise NotImplementedError(reason)
            solve = all_pairs_runner(method, g, W.executor())
            sources = np.arange(g.n)
            self.run = lambda: solve(sources)
        W.warm_up(self.run, slow=W.SLOW_ALL_PAIRS_S, key=f"{workload}:all-pairs:{impl}")

    def time_all_pairs(self, workload, impl):
        self.run()
