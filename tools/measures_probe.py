"""Time the all-pairs measures through NetworkX's public API: closeness_centrality,
diameter and average_shortest_path_length with backend="gpusp" beside NetworkX itself,
on p2p-Gnutella04 (shared/data) and an R-MAT graph (2**17 vertices, ~2M arcs).

For each graph and function:
  gpusp first    the first call (NetworkX's conversion to the backend graph and kernel
                 compilation included); the answer is compared with NetworkX's
  gpusp cached   the median of --repeat further calls (converted graph cached on G)
  NetworkX       NetworkX's own call, run only where the estimate below says it ends
                 within --nx-limit seconds (and stopped at the limit otherwise)
  NetworkX est.  NetworkX's mean time per source on --sample sources (the search its
                 loop runs from each node, on the reversed view for closeness, and the sum
                 or maximum it takes), times the number of nodes
  x NetworkX     NetworkX's time (measured, else the estimate) / gpusp cached
The answers are checked against NetworkX's full answer where it ran, else on the
sampled sources (closeness and eccentricity of each sampled node, which the diameter
must bound).

diameter and average_shortest_path_length need a (strongly) connected graph: they run on
the largest (strongly) connected component, named in the output. Distances are hop
counts (NetworkX's default); --weight times the weighted variants (R-MAT weights
1..255; p2p-Gnutella04 has none, so its weight is 1).

Targets (issue 17): closeness on p2p-Gnutella04 >= 200x NetworkX; closeness, diameter
and average_shortest_path_length on R-MAT 2**17 <= 10 s.

Usage: python3 tools/measures_probe.py [--device {auto,cuda,cpu}] [--small]
           [--graph {gnutella04,rmat}]... [--function F]... [--repeat N]
           [--nx-limit S] [--sample K] [--rmat-scale S] [--rmat-edge-factor F]
           [--weight] [--json FILE]
  --small: p2p-Gnutella04's first 600 nodes and R-MAT 2**10 (the NumPy twin, < 1 min)
(needs the package installed, e.g. pip install -e ., for backend="gpusp" dispatch)
"""

import argparse
import json
import math
import random
import signal
import statistics
import sys
import time

import networkx as nx

from nx_gpusp import datasets
from nx_gpusp.convert import from_networkx, to_networkx
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.solvers.apsp.measures import measure_method

FUNCTIONS = ("closeness_centrality", "diameter", "average_shortest_path_length")
TARGET_RATIO = {("gnutella04", "closeness_centrality"): 200}
TARGET_SECONDS = {("rmat", f): 10.0 for f in FUNCTIONS}


class TimeLimit(Exception):
    pass


def _alarm(signum, frame):
    raise TimeLimit()


def within(limit, func, *args, **kwargs):
    """(seconds, result) of func(...), or (None, None) when it passes ``limit`` seconds."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(max(1, int(math.ceil(limit))))
    t0 = time.perf_counter()
    try:
        out = func(*args, **kwargs)
    except TimeLimit:
        return None, None
    finally:
        signal.alarm(0)
    return time.perf_counter() - t0, out


# -- graphs ------------------------------------------------------------------------------
def load_graphs(args):
    """name -> (label, NetworkX graph)."""
    out = {}
    if "gnutella04" in args.graph:
        G = datasets.load("gnutella04")
        label = "p2p-Gnutella04"
        if args.small:
            G = G.subgraph(list(G)[:600]).copy()
            label += " (first 600 nodes)"
        out["gnutella04"] = (label, G)
    if "rmat" in args.graph:
        scale = 10 if args.small else args.rmat_scale
        graph = datasets.rmat(scale, edge_factor=args.rmat_edge_factor, seed=1)
        out["rmat"] = (f"R-MAT {scale} (edge factor {args.rmat_edge_factor}, undirected)",
                       to_networkx(graph))
    return out


def largest_component(G):
    """The subgraph on the largest strongly (directed) or weakly connected component."""
    parts = nx.strongly_connected_components(G) if G.is_directed() else \
        nx.connected_components(G)
    nodes = max(parts, key=len)
    return G.subgraph(nodes).copy()


# -- one function on one graph -----------------------------------------------------------
def gpusp_call(name, G, weight):
    func = getattr(nx, name)
    kw = {"distance": weight} if name == "closeness_centrality" else {"weight": weight}
    return func(G, backend="gpusp", **kw)


def networkx_call(name, G, weight):
    func = getattr(nx, name)
    kw = {"distance": weight} if name == "closeness_centrality" else {"weight": weight}
    return func(G, **kw)


def networkx_per_source(name, G, v, weight):
    """NetworkX's work for one source of ``name``: one search (on the reversed view for
    closeness) and its reduction, as its full call repeats it for every node."""
    if name == "closeness_centrality" and G.is_directed():
        G = G.reverse(copy=False)
    if weight is None:
        dist = nx.single_source_shortest_path_length(G, v)
    else:
        dist = nx.single_source_dijkstra_path_length(G, v, weight=weight)
    return max(dist.values()) if name == "diameter" else sum(dist.values())


def networkx_check(name, G, v, weight):
    """NetworkX's answer for one sampled source: its closeness, or its eccentricity."""
    if name == "closeness_centrality":
        return nx.closeness_centrality(G, u=v, distance=weight)
    if name == "diameter":
        return nx.eccentricity(G, v=v, weight=weight)
    return None


def agrees(name, got, expected):
    if name == "closeness_centrality":
        return list(got) == list(expected) and all(
            math.isclose(got[k], expected[k], rel_tol=1e-9) for k in expected)
    return math.isclose(got, expected, rel_tol=1e-9)


def sample_check(name, G, got, sample, per_source):
    """The answer against NetworkX on the sampled sources only."""
    if name == "closeness_centrality":
        return all(math.isclose(got[v], per_source[v], rel_tol=1e-9) for v in sample)
    if name == "diameter":
        return all(per_source[v] <= got for v in sample)
    return None  # the average needs every source


def probe(key, label, G, name, args, table):
    weight = "weight" if args.weight else None
    rng = random.Random(0)
    sample = rng.sample(list(G), min(args.sample, len(G)))
    # NetworkX's estimate from a sample of sources
    times = []
    for v in sample:
        t0 = time.perf_counter()
        networkx_per_source(name, G, v, weight)
        times.append(time.perf_counter() - t0)
    estimate = statistics.mean(times) * len(G)
    # gpusp: first call, then cached calls
    t0 = time.perf_counter()
    got = gpusp_call(name, G, weight)
    first = time.perf_counter() - t0
    cached_times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        gpusp_call(name, G, weight)
        cached_times.append(time.perf_counter() - t0)
    cached = statistics.median(cached_times) if cached_times else first
    # NetworkX in full where it should end in time
    nx_s, ok, note = None, None, ""
    if estimate <= args.nx_limit:
        nx_s, expected = within(args.nx_limit, networkx_call, name, G, weight)
        if nx_s is None:
            note = f"NetworkX stopped at {args.nx_limit:.0f} s"
        else:
            ok = agrees(name, got, expected)
    else:
        note = f"NetworkX not run (estimate > --nx-limit {args.nx_limit:.0f} s)"
    if ok is None:
        ok = sample_check(name, G, got, sample,
                          {v: networkx_check(name, G, v, weight) for v in sample})
        note += (", " if note else "") + f"checked on {len(sample)} sampled sources"
    reference = nx_s if nx_s is not None else estimate
    ratio = reference / cached if cached else None
    row = {"graph": label, "function": name, "n": len(G), "edges": G.number_of_edges(),
           "gpusp_first_s": first, "gpusp_cached_s": cached, "networkx_s": nx_s,
           "networkx_estimate_s": estimate, "x_networkx": ratio,
           "x_networkx_from": "measured" if nx_s is not None else "estimate",
           "agrees": ok, "note": note}
    target = TARGET_RATIO.get((key, name))
    if target is not None:
        row["target"] = f">= {target}x NetworkX: {'met' if ratio >= target else 'NOT met'}"
    target = TARGET_SECONDS.get((key, name))
    if target is not None:
        row["target"] = f"<= {target:.0f} s: {'met' if cached <= target else 'NOT met'}"
    table.append(row)
    print(f"{name:30s} {first:10.3f} {cached:10.3f} "
          f"{'-' if nx_s is None else f'{nx_s:.2f}':>10s} {estimate:12.2f} "
          f"{'-' if ratio is None else f'{ratio:.1f}':>10s} "
          f"{'-' if ok is None else ('yes' if ok else 'NO'):>6s}  "
          f"{row.get('target', '')}{'; ' if row.get('target') and note else ''}{note}",
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--graph", action="append", choices=["gnutella04", "rmat"])
    parser.add_argument("--function", action="append", choices=FUNCTIONS)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--nx-limit", type=float, default=300.0)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--rmat-scale", type=int, default=17)
    parser.add_argument("--rmat-edge-factor", type=int, default=8,
                        help="edges generated per vertex (undirected: ~2x arcs; 8 gives "
                             "~2M arcs at scale 17)")
    parser.add_argument("--weight", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    args.graph = args.graph or ["gnutella04", "rmat"]
    nx.config.backends.gpusp.device = args.device
    nx.config.warnings_to_ignore.add("cache")
    ex = configured_executor()
    print(f"device: {ex.name}; NetworkX {nx.__version__}; python {sys.version.split()[0]}")
    rows = []
    for key, (label, G) in load_graphs(args).items():
        parts = {"closeness_centrality": (label, G)}
        if {"diameter", "average_shortest_path_length"} & set(args.function or FUNCTIONS):
            C = largest_component(G)
            kind = "strongly connected" if G.is_directed() else "connected"
            parts["component"] = (f"{label}, largest {kind} component", C)
        for name in args.function or FUNCTIONS:
            part_label, H = parts["closeness_centrality" if name == "closeness_centrality"
                                  else "component"]
            graph = from_networkx(H, "weight" if args.weight else None)
            method = measure_method(graph if args.weight else graph.unit_weights).name
            print(f"\n## {part_label}: {len(H)} nodes, {graph.m} arcs, method {method}")
            print(f"{'function':30s} {'first s':>10s} {'cached s':>10s} {'NetworkX s':>10s} "
                  f"{'NX est. s':>12s} {'x NetworkX':>10s} {'agrees':>6s}  target / note")
            try:
                probe(key, part_label, H, name, args, rows)
            except Exception as exc:  # noqa: BLE001  (a failure is reported, the rest run)
                print(f"{name}: failed: {type(exc).__name__}: {exc}", flush=True)
                rows.append({"graph": part_label, "function": name,
                             "error": f"{type(exc).__name__}: {exc}"})
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"device": ex.name, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
