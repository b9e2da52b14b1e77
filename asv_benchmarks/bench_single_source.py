"""Single-source shortest paths: every registered method (kernel time, graph already
on the device, device synchronised) beside NetworkX and SciPy csgraph on the same
graph, one asv run, so ratios compare like with like."""

import statistics

import networkx as nx
import numpy as np

from nx_gpusp.bench import (PEERS, kernel_runner, median_time, peer_runner, peer_skip_reason,
                            pick_sources, reached_arcs)

from . import workloads as W

nx.config.warnings_to_ignore.add("cache")
N_SOURCES = 4


class _SingleSource:
    problem = None
    param_names = ["workload", "impl"]
    number = 1
    repeat = (3, 20, 30.0)
    warmup_time = 0
    timeout = 600

    def setup(self, workload, impl):
        self.case = W.case_of(workload, self.problem)
        self.graph = W.load_graph(self.case)
        self.sources = pick_sources(self.graph, N_SOURCES)
        self.ex = W.executor()
        self.run = self.runner(impl)
        # warm-up: kernel compilation, first allocations
        W.warm_up(self.run, self.sources[0], key=f"{self.case.label}:{self.problem}:{impl}")
        self.turn = 0

    def runner(self, impl):
        if impl in PEERS:
            reason = peer_skip_reason(impl, self.problem, self.graph)
            if reason:
                raise NotImplementedError(reason)
            return peer_runner(impl, self.problem, self.graph)
        method = W.method(self.problem, impl)
        W.skip_per_vertex(method, self.graph, W.PER_VERTEX_MAX_N, "n host iterations",
                          timed_by="nx_gpusp.bench")
        return kernel_runner(self.problem, method, self.graph, self.ex)

    def next_source(self):
        self.turn += 1
        return self.sources[1 + self.turn % (len(self.sources) - 1)]

    def _median(self, run):
        return median_time(run, self.sources)


class _Rates:
    """GTEPS and speed-up over SciPy (classes named ...Rates, on W.subset_names)."""

    def track_gteps(self, workload, impl):
        _, times, results = self._median(self.run)
        g = self.graph
        if impl == "networkx":  # dicts: the reached vertices are their keys
            degree = np.diff(g.indptr)
            arcs = [int(degree[[g.index_of(v) for v in r]].sum()) for r in results]
        else:
            arcs = [reached_arcs(g, r if impl in PEERS else self.ex.to_host(r)) for r in results]
        return statistics.median(a / t for a, t in zip(arcs, times)) / 1e9
    track_gteps.unit = "GTEPS"

    def track_speedup_vs_scipy(self, workload, impl):
        reason = peer_skip_reason("scipy", self.problem, self.graph)
        if reason:
            return W.peer_unavailable(reason)
        mine = self._median(self.run)[0]
        scipy = W.scipy_median(self.case, self.graph, self.sources, lambda: self._median(
            peer_runner("scipy", self.problem, self.graph))[0])
        return scipy / mine
    track_speedup_vs_scipy.unit = "x"


class SSSP(_SingleSource):
    """Dijkstra family (non-negative weights)."""

    problem = "sssp"
    params = [W.workloads("sssp"), W.method_names("sssp") + list(PEERS)]

    def time_sssp(self, workload, impl):
        self.run(self.next_source())


class SSSPRates(_Rates, _SingleSource):
    problem = "sssp"
    params = [W.workloads("sssp"), W.subset_names("sssp") + list(PEERS)]


class BellmanFord(_SingleSource):
    """Negative weights without negative cycles (datasets.with_potentials)."""

    problem = "bellman-ford"
    params = [W.workloads("bellman-ford"), W.method_names("bellman-ford") + list(PEERS)]

    def time_bellman_ford(self, workload, impl):
        self.run(self.next_source())


class BellmanFordRates(_Rates, _SingleSource):
    problem = "bellman-ford"
    params = [W.workloads("bellman-ford"), W.subset_names("bellman-ford") + list(PEERS)]
