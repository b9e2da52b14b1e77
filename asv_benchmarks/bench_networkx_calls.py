"""What a NetworkX user sees: conversion (from_networkx, upload), and the dispatched
NetworkX call end to end, first (nothing cached) and again (converted graph cached)."""

import networkx as nx

from nx_gpusp.bench import e2e_runner, pick_sources
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
