"""Methods as data: every algorithm variant of the papers is a named, selectable method.

A :class:`Method` names its problem, the solver function that runs it, what it can
handle and the tuning options it accepts. A solver function registers itself with the
:func:`method` decorator; each solver package imports its modules by name, so importing
``nx_gpusp.solvers`` registers every method. ``choose`` resolves a user's ``method=``
(or the configured default, or "auto") against a graph's properties.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Method", "method", "register", "choose", "require_integer_weights", "get_method",
           "methods_for", "METHODS", "PROBLEMS", "AUTO"]

PROBLEMS = ("sssp", "floyd-warshall", "all-pairs", "bfs")


@dataclass(frozen=True)
class Method:
    name: str
    problem: str  # one of PROBLEMS
    solver: Callable  # the solver function (under nx_gpusp.solvers)
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
    # where it returns True for a graph, the method's own predecessors cost about what
    # its lengths do (recorded by its rounds): paths ask for them, tree_from_distances
    # notwithstanding (near-far's keyed rounds)
    inline_predecessors: Callable | None = None
    # hop counts only: refuses (ValueError) a graph with an arc weight other than 1
    unit_weights_only: bool = False
    # integer weights only: ``choose`` and the solver refuse (ValueError) float weights
    # (require_integer_weights)
    integer_weights_only: bool = False
    # where it returns True for a graph, the method's preprocessing is already cached on
    # it (an earlier call built it): method="auto" then runs this method for calls that
    # it can answer at least as fast as the default (see _auto_sssp)
    prepared: Callable | None = None
    # for many-source work ("all-pairs" methods): prepare_for(graph, sources) builds the
    # method's preprocessing where its cost model says it pays for itself at that many
    # sources, and returns whether the graph holds it now (method="auto" then runs the
    # method: see _auto_all_pairs)
    prepare_for: Callable | None = None

    def check_options(self, options):
        unknown = set(options) - set(self.options)
        if unknown:
            raise TypeError(
                f"gpusp method {self.name!r} got unexpected option(s) {sorted(unknown)}; "
                f"it accepts {sorted(self.options) or 'none'}")
        return {k: options.get(k, default) for k, (default, _doc) in self.options.items()}


METHODS: dict[tuple[str, str], Method] = {}


def register(entry: Method) -> Method:
    if entry.problem not in PROBLEMS:
        raise ValueError(f"unknown problem {entry.problem!r}")
    key = (entry.problem, entry.name)
    if key in METHODS and _where(METHODS[key].solver) != _where(entry.solver):
        raise ValueError(f"gpusp: {entry.problem} method {entry.name!r} is registered twice "
                         f"({_where(METHODS[key].solver)} and {_where(entry.solver)})")
    METHODS[key] = entry
    return entry


def _where(solver):
    return f"{solver.__module__}:{solver.__name__}"


def method(*, name, problem, summary, **properties):
    """Register the decorated solver function as method ``name`` of ``problem``;
    ``properties``: the other fields of :class:`Method` (paper, negative_weights,
    options, ...). Returns the function unchanged."""

    def decorate(solver):
        register(Method(name=name, problem=problem, solver=solver, summary=summary,
                        **properties))
        return solver

    return decorate


def _registered():
    if not METHODS:
        raise RuntimeError("gpusp: no method is registered; import nx_gpusp.solvers (its "
                           "packages import every solver module, which registers it)")
    return METHODS


def get_method(problem, name):
    """The registered Method, or None."""
    return _registered().get((problem, name))


def methods_for(problem):
    return [m for (p, _), m in _registered().items() if p == problem]


def _auto_sssp(graph, negative, cutoff=None, sources=None):
    """near-far, or a method whose preprocessing this graph already holds (``prepared``:
    PHAST's hierarchy, once a method="phast" call built it) for a call without a cutoff
    on a graph without negative weights: such a query is a few sweeps over the whole
    graph (road networks: 3-7x faster than near-far), while near-far with a cutoff
    stops at the cutoff's distance."""
    if graph is not None and cutoff is None and not graph.has_negative_weights:
        for m in methods_for("sssp"):
            if m.prepared is not None and m.prepared(graph):
                return m.name
    return "near-far"


def _auto_all_pairs(graph, negative, cutoff=None, sources=None):
    """batched-spmm, or a method with preprocessing (``prepared``: PHAST's hierarchy, for
    phast-batched) where the graph holds it already, or where ``prepare_for`` finds that
    building it pays for itself at ``sources`` sources (and builds it): a batch of
    sources is then one sweep of the hierarchy. Graphs with negative weights, or float
    weights where the method takes integers only, stay with batched-spmm."""
    if graph is not None and not graph.has_negative_weights:
        for m in methods_for("all-pairs"):
            if m.prepared is None or (m.integer_weights_only
                                      and graph.distance_dtype().kind != "i"):
                continue
            if m.prepared(graph) or (m.prepare_for is not None
                                     and m.prepare_for(graph, sources)):
                return m.name
    return "batched-spmm"


# problem -> function(graph, need_negative, cutoff=None, sources=None) -> method name, for
# method="auto" (``sources``: how many sources the call asks for, where it is many-source
# work; None otherwise)
AUTO = {
    "sssp": _auto_sssp,
    "floyd-warshall": lambda graph, negative, cutoff=None, sources=None: "fw-dpx",
    "all-pairs": _auto_all_pairs,
    # direction-optimizing BFS stays top-down unless the frontier grows (see its module)
    "bfs": lambda graph, negative, cutoff=None, sources=None: "direction-optimizing",
}


def require_integer_weights(graph, name):
    """ValueError where ``graph``'s weights are floats: method ``name`` (an
    ``integer_weights_only`` one) precomputes sums that float addition would round
    differently from NetworkX's left-to-right sums. Called by :func:`choose` and by
    such a method's solver itself, whoever calls it."""
    if graph.distance_dtype().kind != "i":
        raise ValueError(
            f"gpusp method {name!r} needs integer weights (its precomputed sums would "
            "round float weights differently from NetworkX); use method='near-far'")


# what each problem's methods answer, for a method named where another problem's is due
PROBLEM_USE = {"bfs": "unweighted calls (weight=None) of the breadth-first search functions",
               "sssp": "single-source searches",
               "all-pairs": "all-pairs searches and measures",
               "floyd-warshall": "the Floyd-Warshall functions and all-pairs lengths"}


def elsewhere(name):
    """``" ('top-down' is a gpusp "bfs" method, for ...)"`` where ``name`` is a method of
    other problems than the one asked for, else "" (for error messages)."""
    problems = sorted(p for p, n in _registered() if n == name)
    if not problems:
        return ""
    uses = "; ".join(f'a gpusp "{p}" method, for {PROBLEM_USE.get(p, p)}' for p in problems)
    return f" ({name!r} is {uses})"


def choose(problem, requested, graph, *, negative_ok, cutoff=None, sources=None):
    """The Method to run. ``negative_ok``: the calling function accepts negative weights;
    ``cutoff``: the call's, ``sources``: how many sources it asks for (``auto`` weighs
    both)."""
    name = requested or "auto"
    if name == "auto":
        name = AUTO[problem](graph, negative_ok, cutoff, sources)
    chosen = _registered().get((problem, name))
    if chosen is None:
        known = ", ".join(["auto"] + sorted(m.name for m in methods_for(problem)))
        raise ValueError(f"gpusp: unknown {problem} method {name!r}{elsewhere(name)}; "
                         f"choose one of: {known}")
    if chosen.integer_weights_only:
        require_integer_weights(graph, chosen.name)
    if graph.has_negative_weights and negative_ok and not chosen.negative_weights:
        raise ValueError(
            f"gpusp method {chosen.name!r} does not accept negative weights; use a "
            "Bellman-Ford method (e.g. method='frontier')")
    return chosen
