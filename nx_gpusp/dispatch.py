"""The ``networkx_algorithm`` decorator: one place that registers a backend function,
its ``can_run`` policy, its ``should_run`` policy and its documentation (as nx-cugraph
does), and the rules every dispatched call shares:

- a call that names a gpusp-only keyword (``method=``, a method option) runs on gpusp,
  however small the graph: NetworkX itself would reject the keyword;
- on a machine without a CUDA GPU, automatic dispatch leaves calls to NetworkX unless
  the user chose the NumPy twins (``device="cpu"``): they are slower than NetworkX on
  most graphs (NetworkX logs the reason on its ``networkx.utils.backends`` logger);
- results are lazy mappings unless ``lazy_results`` is off (then plain dicts).

The documentation NetworkX shows under "Backends" in ``help(nx.<function>)``
(``backend_info``'s additional_docs and additional_parameters) is rendered by
:func:`function_docs` from each function's decorator and the method registry, and
written to nx_gpusp/_info_data.py by tools/gen_info.py, so that ``get_info`` stays a
cheap read at NetworkX's import.
"""

import functools
import inspect
import textwrap

from .config import get_config

__all__ = ["networkx_algorithm", "IMPLEMENTATIONS", "bind_arguments", "CALLS",
           "gpusp_keywords", "can_run", "should_run", "function_docs"]

IMPLEMENTATIONS = {}
CALLS = {}  # name -> number of calls into the backend (used to prove dispatch happened)

# NetworkX's own values of the `method` parameter of shortest_path(_length) and friends
NETWORKX_METHODS = {"dijkstra", "bellman-ford", "unweighted", "floyd-warshall",
                    "floyd-warshall-numpy"}


def bind_arguments(func, args, kwargs):
    """Arguments of a dispatched call bound to the backend function's signature."""
    sig = inspect.signature(func)
    bound = sig.bind_partial(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


@functools.cache
def _networkx_parameters(name):
    """Parameter names of NetworkX's own function ``name`` (empty when unknown)."""
    from networkx.utils.backends import _registered_algorithms

    func = _registered_algorithms.get(name)
    if func is None:
        return frozenset()
    return frozenset(inspect.signature(func.orig_func).parameters)


def gpusp_keywords(func, arguments):
    """The arguments of a call that only gpusp understands: a keyword NetworkX's own
    function does not take (gpusp's ``method=`` or a method option), or a gpusp method
    name passed to NetworkX's own ``method`` parameter. ``arguments``: the call bound to
    the backend function ``func`` (NetworkX hands should_run its arguments positionally
    where it can, so names come from the binding, not from the call's keywords)."""
    params = _networkx_parameters(func.__name__)
    if not params:
        return []
    extra = []
    for key, value in arguments.items():
        if key in params:
            if key == "method" and value not in (None, *NETWORKX_METHODS):
                extra.append(key)
        elif key == _var_keyword(func):
            extra.extend(value)
        elif value is not None:
            extra.append(key)
    return extra


@functools.cache
def _var_keyword(func):
    """Name of the ``**options`` parameter of a backend function (None without one)."""
    for p in inspect.signature(func).parameters.values():
        if p.kind is p.VAR_KEYWORD:
            return p.name
    return None


def can_run(name, args, kwargs):
    """Whether gpusp can run this call (True, or a reason that NetworkX logs)."""
    func = IMPLEMENTATIONS.get(name)
    if func is None:
        return False
    device = get_config().device
    if device.startswith("cuda"):
        from .executor import cuda_available

        if not cuda_available():
            return f"device={device!r} but CuPy sees no CUDA GPU"
    if func.can_run is None:
        return True
    return func.can_run(bind_arguments(func.__wrapped__, args, kwargs))


def should_run(name, args, kwargs):
    """Whether automatic dispatch should run this call on gpusp (True, or a reason)."""
    func = IMPLEMENTATIONS.get(name)
    if func is None:
        return False
    arguments = bind_arguments(func.__wrapped__, args, kwargs)
    if gpusp_keywords(func, arguments):
        return True
    if get_config().device == "auto":
        from .executor import cuda_available

        if not cuda_available():
            return ("no CUDA GPU here: gpusp would run its NumPy twins, slower than "
                    "NetworkX (set nx.config.backends.gpusp.device='cpu' or "
                    "NX_GPUSP_DEVICE=cpu to run them anyway)")
    if func.should_run is None:
        return True
    return func.should_run(arguments)


def networkx_algorithm(*, name=None, can_run=None, should_run=None, doc="", methods=(),
                       default=None, extra_parameters=None):
    """Register ``func`` as the backend's implementation of NetworkX's ``name``.

    can_run(arguments) / should_run(arguments) receive the bound arguments and return
    True, or a string saying why not.

    Documentation (see :func:`function_docs`): ``doc``, gpusp's notes on the function
    (how it runs; caveats, such as errors NetworkX would not raise); ``methods``, the
    problems of the method registry whose methods its ``method`` parameter names (in
    that order), and ``default``, the configuration option holding its default method
    (e.g. "dijkstra_method") or a method name; ``extra_parameters``, further
    {"name : type": description} entries.
    """

    def decorate(func):
        key = name or func.__name__

        @functools.wraps(func)
        def dispatched(*args, **kwargs):
            CALLS[key] = CALLS.get(key, 0) + 1
            result = func(*args, **kwargs)
            if not get_config().lazy_results:
                from .results import materialize

                result = materialize(result)
            return result

        dispatched.__name__ = key
        dispatched.__qualname__ = key
        dispatched.__signature__ = inspect.signature(func)
        dispatched.can_run = can_run
        dispatched.should_run = should_run
        dispatched.doc = doc
        dispatched.methods = tuple(methods)
        dispatched.default_method = default
        dispatched.extra_parameters = dict(extra_parameters or {})
        IMPLEMENTATIONS[key] = dispatched
        return dispatched

    return decorate


# -- documentation ------------------------------------------------------------------
# NetworkX indents the first line of a parameter's description by ten spaces in the
# docstring; its other lines carry their own (the description is one string)
_INDENT = "\n" + " " * 10
DOC_WIDTH = 80  # line width of additional_docs and of the parameters' descriptions


def _lines(text, indent=""):
    return textwrap.wrap(text, DOC_WIDTH, initial_indent=indent,
                         subsequent_indent=indent + "    ")


def _method_line(m, with_options):
    flags = [text for flag, text in (("negative_weights", "negative weights"),
                                     ("unit_weights_only", "unit weights only"),
                                     ("integer_weights_only", "integer weights only"))
             if getattr(m, flag)]
    line = f"'{m.name}'" + (f" [{', '.join(flags)}]" if flags else "")
    if with_options and m.options:
        line += ": " + ", ".join(f"{k}={default!r}" for k, (default, _doc) in m.options.items())
    return line


def _method_parameter(func):
    """(key, description) of the ``method`` parameter: its default and every method of
    the function's problems (with their options and the options' defaults where the
    function takes options)."""
    from .config import OPTIONS
    from .methods import methods_for

    with_options = _var_keyword(func.__wrapped__) is not None
    if "method" in _networkx_parameters(func.__name__):
        head = "NetworkX's own values, or the name of a gpusp method."
    else:
        head = "A gpusp method, or 'auto' to choose one from the graph"
        default = func.default_method
        if default in OPTIONS:
            head += f"; default: nx.config.backends.gpusp.{default} ({OPTIONS[default][0]!r})"
        elif default is not None:
            head += f"; default: {default!r}"
        head += "."
    head += (" Methods, with their options (further keyword arguments) and the options' "
             "defaults:" if with_options else " Methods:")
    lines = textwrap.wrap(head, DOC_WIDTH)
    for problem in func.methods:
        lines.append(f"{problem} methods:")
        for m in sorted(methods_for(problem), key=lambda m: m.name):
            lines += _lines(_method_line(m, with_options), "  ")
    return "method : str, optional", _INDENT.join(lines)


_OPTIONS_PARAMETER = (
    "**options",
    _INDENT.join(textwrap.wrap("The chosen method's options (listed under ``method``); an "
                               "option the method does not take raises TypeError. "
                               "nx_gpusp.methods.METHODS describes each option.", DOC_WIDTH)))


def function_docs():
    """{function name: {"additional_docs": str, "additional_parameters": {key: text}}}
    for every registered function: what ``get_info`` returns to NetworkX (through the
    generated nx_gpusp._info_data). Reads the method registry (solvers imported)."""
    out = {}
    for key, func in sorted(IMPLEMENTATIONS.items()):
        parameters = {}
        if func.methods:
            name, text = _method_parameter(func)
            parameters[name] = text
            if _var_keyword(func.__wrapped__):
                parameters[_OPTIONS_PARAMETER[0]] = _OPTIONS_PARAMETER[1]
        parameters.update(func.extra_parameters)
        doc = "\n".join(textwrap.wrap(func.doc, DOC_WIDTH))
        out[key] = {"additional_docs": doc, "additional_parameters": parameters}
    return out
