"""Methods as data: every algorithm variant of the papers is a named, selectable method.

A :class:`Method` names its problem, the solver that runs it, what it can handle and
the tuning options it accepts. ``choose`` resolves a user's ``method=`` (or the
configured default, or "auto") against a graph's properties.
"""

import functools
import importlib
from dataclasses import dataclass, field

__all__ = ["Method", "register", "choose", "get_method", "methods_for", "METHODS"]

PROBLEMS = ("sssp", "floyd-warshall", "all-pairs", "bfs")


@dataclass(frozen=True)
class Method:
    name: str
    problem: str  # one of PROBLEMS
    solver: str  # "module:function" under nx_gpusp.solvers
    summary: str
    paper: str = ""
    negative_weights: bool = False  # correct with negative arc weights?
    options: dict = field(default_factory=dict)  # option -> (default, description)
    # iterations grow with n (a launch per vertex, n - 1 Bellman-Ford rounds, or n
    # array scans per source thread): faithful to the paper, but minutes on large graphs
    iterations_per_vertex: bool = False
    # paths come cheaper from a lengths-only run plus the tight-arc tree of its
    # distances (solvers.sssp.tree) than from the method's own predecessor tracking;
    # used where no weight is negative
    tree_from_distances: bool = False
    # hop counts only: refuses (ValueError) a graph with an arc weight other than 1
    unit_weights_only: bool = False

    def load(self):
        module, func = self.solver.split(":")
        return getattr(importlib.import_module(f"nx_gpusp.solvers.{module}"), func)

    def check_options(self, options):
        unknown = set(options) - set(self.options)
        if unknown:
            raise TypeError(
                f"gpusp method {self.name!r} got unexpected option(s) {sorted(unknown)}; "
                f"it accepts {sorted(self.options) or 'none'}")
        return {k: options.get(k, default) for k, (default, _doc) in self.options.items()}


METHODS: dict[tuple[str, str], Method] = {}


def register(method: Method) -> Method:
    if method.problem not in PROBLEMS:
        raise ValueError(f"unknown problem {method.problem!r}")
    METHODS[(method.problem, method.name)] = method
    return method


def get_method(problem, name):
    """The registered Method, or None."""
    load_all()
    return METHODS.get((problem, name))


def methods_for(problem):
    load_all()
    return [m for (p, _), m in METHODS.items() if p == problem]


# problem -> function(graph, need_negative) -> method name, for method="auto"
AUTO = {
    "sssp": lambda graph, negative: "near-far",
    "floyd-warshall": lambda graph, negative: "fw-dpx",
    "all-pairs": lambda graph, negative: "batched-spmm",
    # direction-optimizing BFS stays top-down unless the frontier grows (see its module)
    "bfs": lambda graph, negative: "direction-optimizing",
}


def choose(problem, requested, graph, *, negative_ok):
    """The Method to run. ``negative_ok``: the calling function accepts negative weights."""
    load_all()
    name = requested or "auto"
    if name == "auto":
        name = AUTO[problem](graph, negative_ok)
    method = METHODS.get((problem, name))
    if method is None:
        known = ", ".join(["auto"] + sorted(m.name for m in methods_for(problem)))
        raise ValueError(f"gpusp: unknown {problem} method {name!r}; choose one of: {known}")
    if graph.has_negative_weights and negative_ok and not method.negative_weights:
        raise ValueError(
            f"gpusp method {method.name!r} does not accept negative weights; use a "
            "Bellman-Ford method (e.g. method='frontier')")
    return method


@functools.cache
def load_all():
    """Import every solver module (once); each registers its methods with ``register``."""
    import pkgutil

    import nx_gpusp.solvers as solvers

    for info in pkgutil.walk_packages(solvers.__path__, "nx_gpusp.solvers."):
        importlib.import_module(info.name)
