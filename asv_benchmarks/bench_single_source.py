"""Single-source shortest paths: every registered method (kernel time, graph already
on the device, device synchronised) beside NetworkX and SciPy csgraph on the same
graph, one asv run, so ratios compare like with like; and the kernel race (issue 14's
table): the default method beside harish and SciPy from source 0 and over 10 seeded
sources, with and without predecessors, and method "phast" on the road networks (its
hierarchy built in setup, once per graph); and that hierarchy's build. Times only
(lower is better): GTEPS and speed-ups are printed by ``python -m nx_gpusp.bench``."""

import networkx as nx

from nx_gpusp.bench import (PEERS, RACE_IMPLS, ROAD_WORKLOADS, kernel_runner, median_time,
                            peer_runner, peer_skip_reason, pick_sources,
                            preprocessing_skip_reason, race_impls, race_runner,
                            race_sources, warm_device, warm_ready)

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
        self.run = self.runner(impl, workload)
        # warm-up: kernel compilation, first allocations
        W.warm_up(self.run, self.sources[0], key=f"{self.case.label}:{self.problem}:{impl}")
        self.turn = 0

    def runner(self, impl, workload):
        if impl in PEERS:
            reason = peer_skip_reason(impl, self.problem, self.graph)
            if reason:
                raise NotImplementedError(reason)
            return peer_runner(impl, self.problem, self.graph)
        method = W.method(self.problem, impl)
        W.skip_per_vertex(method, self.graph, W.PER_VERTEX_MAX_N, "n host iterations",
                          timed_by="nx_gpusp.bench")
        reason = preprocessing_skip_reason(method, self.graph, workload)
        if reason:
            raise NotImplementedError(reason)
        return kernel_runner(self.problem, method, self.graph, self.ex)

    def next_source(self):
        self.turn += 1
        return self.sources[1 + self.turn % (len(self.sources) - 1)]


class SSSP(_SingleSource):
    """Dijkstra family (non-negative weights)."""

    problem = "sssp"
    params = [W.workloads("sssp"), W.method_names("sssp") + list(PEERS)]

    def time_sssp(self, workload, impl):
        self.run(self.next_source())


class BellmanFord(_SingleSource):
    """Negative weights without negative cycles (datasets.with_potentials)."""

    problem = "bellman-ford"
    params = [W.workloads("bellman-ford"), W.method_names("bellman-ford") + list(PEERS)]

    def time_bellman_ford(self, workload, impl):
        self.run(self.next_source())


class SSSPRace:
    """The default method ("auto"), harish and SciPy on each graph: from source 0
    (``time_source0*``, asv's repeats) and the median over 10 seeded sources
    (``track_median10*``, seconds); ``*_paths`` with the predecessors a NetworkX call
    gets (since 17be168; before, near-far's own predecessor-tracking rounds)."""

    params = [W.workloads("race"), list(RACE_IMPLS) + ["phast"]]
    param_names = ["workload", "impl"]
    number = 1
    repeat = (3, 10, 20.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload, impl):
        if impl not in race_impls(workload):
            raise NotImplementedError(f"{impl}: the road workloads with integer weights only "
                                      "(nx_gpusp.bench.race_impls)")
        case = W.case_of(workload, "sssp")
        self.graph = W.load_graph(case)
        self.ex = W.executor()
        self.lengths = race_runner(impl, self.graph, self.ex)
        self.paths = race_runner(impl, self.graph, self.ex, paths=True)
        self.sources = [0] + race_sources(self.graph)  # vertex 0 warms up the median
        W.warm_up(self.lengths, 0, key=f"{case.label}:race:{impl}")
        W.warm_up(self.paths, 0, key=f"{case.label}:race-paths:{impl}")
        warm_device(self.ex, work=lambda: self.lengths(0))

    def time_source0(self, workload, impl):
        self.lengths(0)

    def time_source0_paths(self, workload, impl):
        self.paths(0)

    # the GPU warmed again with the timed call right before the 10 sources, as the bench
    # race does: asv calls a track_ method some time after its setup
    def track_median10(self, workload, impl):
        return median_time(self.lengths, self.sources, ready=warm_ready(self.ex))[0]
    track_median10.unit = "seconds"

    def track_median10_paths(self, workload, impl):
        return median_time(self.paths, self.sources, ready=warm_ready(self.ex))[0]
    track_median10_paths.unit = "seconds"


class Contraction:
    """The contraction hierarchy under methods "phast" and "phast-batched", built from
    the converted graph on the benchmark's device (the contraction kernels on a GPU,
    their NumPy twin on the host), on the road workloads with integer weights."""

    params = [W.workloads("sssp")]
    param_names = ["workload"]
    number = 1
    repeat = (2, 5, 60.0)
    warmup_time = 0
    timeout = 900

    def setup(self, workload):
        if workload not in ROAD_WORKLOADS:
            raise NotImplementedError("the road workloads only (nx_gpusp.bench.ROAD_WORKLOADS)")
        from nx_gpusp.solvers.sssp.contraction import contraction_hierarchy

        graph, ex = W.load_graph(W.case_of(workload, "sssp")), W.executor()
        self.build = lambda: contraction_hierarchy(graph, ex=ex)
        W.warm_up(self.build, slow=W.SLOW_ALL_PAIRS_S, key=f"{workload}:contraction")

    def time_build(self, workload):
        self.build()
