"""NetworkX-facing functions: same names and signatures as NetworkX (plus gpusp's
``method=`` and method options). They parse arguments, pick a method and shape the
result; no array code lives here."""

from . import all_pairs, astar, components, dag, dense, generic, traversal, unweighted, weighted  # noqa: F401  (registers the functions)
from . import centrality, distance_measures, efficiency_measures, wiener  # noqa: F401  (all-pairs measures)
