"""Where the NumPy twins beat NetworkX on this machine: the measurement behind the
``cpu_*`` thresholds of nx_gpusp.config, which automatic dispatch uses on a machine
without a CUDA GPU.

For each family of calls (single-source lengths, single-source paths, a call with a
``target``, breadth-first lengths, all-pairs lengths, Floyd-Warshall) it times the
NetworkX call on NetworkX and on gpusp's twins (``device="cpu"``, the graph converted in
the timed call, as a program's first call on a graph pays it) on seeded road grids of
growing size, and prints one row per graph with the ratio. The smallest size where the
twins win from there on is the family's threshold.

Usage: python tools/cpu_thresholds.py [--max-arcs N] [--repeat R] [--ny]
(--ny adds DIMACS New York, nx_gpusp.datasets.load("NY-synthetic"), when its file is found)
"""

import argparse
import statistics
import sys
import time

import networkx as nx

from nx_gpusp import datasets
from nx_gpusp.convert import to_networkx

# family -> (call(G, source, target), size of the graph that the threshold counts)
FAMILIES = {
    "lengths": (lambda G, s, t, **kw: nx.single_source_dijkstra_path_length(G, s, **kw),
                "arcs"),
    "paths": (lambda G, s, t, **kw: nx.single_source_dijkstra(G, s, **kw), "arcs"),
    "bellman-ford": (lambda G, s, t, **kw: nx.single_source_bellman_ford_path_length(
        G, s, **kw), "arcs"),
    "bfs": (lambda G, s, t, **kw: nx.single_source_shortest_path_length(G, s, **kw),
            "arcs"),
    "target": (lambda G, s, t, **kw: nx.dijkstra_path_length(G, s, t, **kw), "arcs"),
    "all-pairs": (lambda G, s, t, **kw: dict(nx.all_pairs_dijkstra_path_length(G, **kw)),
                  "n*m"),
    "floyd-warshall": (lambda G, s, t, **kw: nx.floyd_warshall_numpy(G, **kw), "n"),
}
# the largest graph each family is timed on (NetworkX's all-pairs and Floyd-Warshall
# grow with n * m and n**3)
LIMIT = {"all-pairs": 1_100, "floyd-warshall": 1_100}


def _time(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(family, G, repeat):
    """(NetworkX seconds, twin seconds) of ``family``'s call on ``G``."""
    call, _ = FAMILIES[family]
    nodes = list(G)
    s, t = nodes[0], nodes[len(nodes) // 2]  # a target halfway through the node order

    def on_gpusp():
        G.__networkx_cache__.clear()  # the conversion is part of a first call
        call(G, s, t, backend="gpusp")

    with nx.config.backends.gpusp(device="cpu"):
        twin = _time(on_gpusp, repeat)
    return _time(lambda: call(G, s, t, backend="networkx"), repeat), twin


def size_of(family, G):
    arcs = G.number_of_edges() * (1 if G.is_directed() else 2)
    return {"arcs": arcs, "n*m": len(G) * arcs, "n": len(G)}[FAMILIES[family][1]]


def graphs(max_arcs, ny):
    side = 8
    while 4 * side * side <= max_arcs:
        yield f"road grid {side}x{side}", to_networkx(datasets.road_grid(side, side))
        side *= 2
    if ny:
        try:
            yield "NY-synthetic", datasets.load("NY-synthetic")
        except FileNotFoundError as err:
            print(f"# NY skipped: {err}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-arcs", type=int, default=1_100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ny", action="store_true")
    parser.add_argument("--families", nargs="*", default=list(FAMILIES),
                        choices=list(FAMILIES))
    args = parser.parse_args(argv)
    nx.config.warnings_to_ignore.add("cache")
    warm = to_networkx(datasets.road_grid(4, 4))
    for family in args.families:  # imports and first compilations, untimed
        measure(family, warm, 1)
    print("| family | graph | size | NetworkX ms | twins ms | twins / NetworkX |")
    print("|---|---|---|---|---|---|")
    for label, G in graphs(args.max_arcs, args.ny):
        for family in args.families:
            if family in LIMIT and len(G) > LIMIT[family]:
                continue
            if family == "bellman-ford" and len(G) > 300_000:
                continue
            base, twin = measure(family, G, args.repeat)
            print(f"| {family} | {label} | {size_of(family, G):,} | {base * 1e3:,.1f} | "
                  f"{twin * 1e3:,.1f} | {twin / base:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
