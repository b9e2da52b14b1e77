"""The method registry against its committed snapshot (tests/registry_snapshot.json):
every method's name, problem, solver function, summary, paper, flags (and whether it
has an inline_predecessors rule), and options with their defaults and descriptions,
and what ``method="auto"`` picks per problem. A change to any of them is deliberate:
regenerate the snapshot with ``python tests/test_registry.py`` and review its diff."""

import json
import subprocess
import sys
from pathlib import Path

import nx_gpusp.solvers  # noqa: F401  (its packages register every method)
from nx_gpusp.methods import AUTO, METHODS, PROBLEMS

SNAPSHOT = Path(__file__).with_name("registry_snapshot.json")
FLAGS = ("negative_weights", "iterations_per_vertex", "tree_from_distances",
         "unit_weights_only", "integer_weights_only")


def _solver_name(method):
    solver = method.solver
    return f"{solver.__module__}:{solver.__name__}"


def registry():
    """The registry as JSON-able data, keyed "problem/name" in sorted order."""
    methods = {}
    for (problem, name), m in sorted(METHODS.items()):
        methods[f"{problem}/{name}"] = {
            "name": m.name,
            "problem": m.problem,
            "solver": _solver_name(m),
            "summary": m.summary,
            "paper": m.paper,
            **{flag: getattr(m, flag) for flag in FLAGS},
            # a predicate on the graph: whether the method has one
            "inline_predecessors": m.inline_predecessors is not None,
            "options": {k: [default, doc] for k, (default, doc) in m.options.items()},
        }
    return {"auto": {p: AUTO[p](None, False) for p in PROBLEMS}, "methods": methods}


def test_registry_matches_snapshot():
    expected = json.loads(SNAPSHOT.read_text())
    got = json.loads(json.dumps(registry()))  # tuples and the like as JSON reads them
    assert sorted(got["methods"]) == sorted(expected["methods"])
    for key, entry in expected["methods"].items():
        assert got["methods"][key] == entry, key
    assert got["auto"] == expected["auto"]


def test_every_problem_has_methods():
    for problem in PROBLEMS:
        assert any(p == problem for p, _ in METHODS), problem


def test_any_solver_import_registers_every_method():
    """Registration needs no import-by-name lookup: importing one solver module imports
    its package, whose __init__ imports every method module."""
    code = ("import nx_gpusp.solvers.sssp.frontier, nx_gpusp.methods as m; "
            "print(len(m.METHODS))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert int(out.stdout) == len(json.loads(SNAPSHOT.read_text())["methods"])


if __name__ == "__main__":
    SNAPSHOT.write_text(json.dumps(registry(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {SNAPSHOT} ({len(METHODS)} methods)", file=sys.stderr)
