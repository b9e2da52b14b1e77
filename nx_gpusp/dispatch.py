"""The ``networkx_algorithm`` decorator: one place that registers a backend function,
its ``can_run`` policy, its ``should_run`` policy and its documentation (as nx-cugraph
does), and the rules every dispatched call shares:

- a call that names a gpusp-only keyword (``method=``, a method option) runs on gpusp,
  however small the graph: NetworkX itself would reject the keyword;
- on a machine without a CUDA GPU (``device="auto"``), automatic dispatch runs a call
  on the NumPy twins only where they were measured faster than NetworkX: a function's
  ``cpu_should_run`` policy (the ``cpu_*`` thresholds of the configuration); a function
  without one stays on NetworkX there;
- the first call that automatic dispatch leaves to NetworkX warns, once per process
  (:class:`nx_gpusp.errors.DeclinedWarning`), saying why and what to set; every decline
  is logged on NetworkX's ``networkx.utils.backends`` logger (DEBUG);
- ``device="cuda"`` on a machine where CuPy sees no GPU raises
  :class:`nx_gpusp.errors.DeviceUnavailableError` at the call;
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
import warnings

from .config import get_config
from .errors import DeclinedWarning, DeviceUnavailableError

__all__ = ["networkx_algorithm", "IMPLEMENTATIONS", "bind_arguments", "CALLS",
           "gpusp_keywords", "can_run", "should_run", "function_docs", "NO_GPU_REASON",
           "announce_decline"]

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
    """Whether gpusp can run this call (True, or a reason that NetworkX logs); raises
    DeviceUnavailableError where the configured CUDA device is not there."""
    func = IMPLEMENTATIONS.get(name)
    if func is None:
        return False
    device = get_config().device
    if device.startswith("cuda"):
        from .executor import cuda_available

        if not cuda_available():
            raise DeviceUnavailableError(
                f"nx.config.backends.gpusp.device is {device!r}, but CuPy is not "
                "installed or sees no CUDA GPU on this machine. On a GPU machine install "
                "CuPy (the package's cuda13 or cuda12 extra: pip install -e '.[cuda13]' "
                "in a checkout); else set "
                "device='auto' (NetworkX, or the NumPy twins where they are faster) or "
                "device='cpu' (the NumPy twins), e.g. NX_GPUSP_DEVICE=auto")
    if func.can_run is None:
        return True
    reason = func.can_run(bind_arguments(func.__wrapped__, args, kwargs))
    if reason is not True:
        announce_decline(name, reason)
    return reason


NO_GPU_REASON = (
    "no CUDA GPU here, and gpusp's NumPy twins were measured slower than NetworkX for "
    "this call")


def should_run(name, args, kwargs):
    """Whether automatic dispatch should run this call on gpusp (True, or a reason)."""
    func = IMPLEMENTATIONS.get(name)
    if func is None:
        return False
    arguments = bind_arguments(func.__wrapped__, args, kwargs)
    if gpusp_keywords(func, arguments):
        return True
    policy = func.should_run
    if get_config().device == "auto":
        from .executor import cuda_available

        if not cuda_available():
            policy = func.cpu_should_run or (lambda arguments: NO_GPU_REASON)
    reason = True if policy is None else policy(arguments)
    if reason is not True:
        announce_decline(name, reason)
    return reason


_ANNOUNCED = []  # the one decline this process warned about


def announce_decline(name, reason):
    """Warn (DeclinedWarning) about the first call of the process that automatic
    dispatch leaves to NetworkX: why, and what to set; later declines are on NetworkX's
    DEBUG log only. Silent for a call that named ``backend=``: NetworkX raises there."""
    if _ANNOUNCED or not isinstance(reason, str) or not _automatic_dispatch():
        return
    _ANNOUNCED.append(name)
    warnings.warn(
        f"gpusp left {name}() to NetworkX: {reason}. backend='gpusp' runs it on gpusp "
        "anyway; nx.config.backends.gpusp holds the thresholds and the device. This "
        "warning is shown once per process; the 'networkx.utils.backends' logger "
        "(DEBUG) gives the reason of every call left to NetworkX.",
        DeclinedWarning, stacklevel=_caller_level())


def _automatic_dispatch():
    """Whether NetworkX's dispatcher chose the backend of the user's call in progress
    (its outermost dispatched call names no ``backend=``); False outside a call."""
    import sys

    frame, automatic = sys._getframe(1), False
    while frame is not None:
        if frame.f_code.co_name == "_call_if_any_backends_installed":
            automatic = frame.f_locals.get("backend") is None
        frame = frame.f_back
    return automatic


def _caller_level():
    """The stacklevel of the first frame outside NetworkX and gpusp: the user's call."""
    import sys

    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] in (
            "networkx", "nx_gpusp"):
        frame, level = frame.f_back, level + 1
    return level


def networkx_algorithm(*, name=None, can_run=None, should_run=None, cpu_should_run=None,
                       doc="", methods=(), default=None, extra_parameters=None):
    """Register ``func`` as the backend's implementation of NetworkX's ``name``.

    can_run(arguments) / should_run(arguments) receive the bound arguments and return
    True, or a string saying why not. cpu_should_run(arguments) replaces should_run
    where ``device="auto"`` finds no CUDA GPU: the calls where the NumPy twins beat
    NetworkX (None: none; the function then stays on NetworkX there).

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
            try:
                result = func(*args, **kwargs)
            except NotImplementedError as err:  # automatic dispatch: NetworkX runs it
                announce_decline(key, str(err))
                raise
            if not get_config().lazy_results:
                from .results import materialize

                result = materialize(result)
            return result

        dispatched.__name__ = key
        dispatched.__qualname__ = key
        dispatched.__signature__ = inspect.signature(func)
        dispatched.can_run = can_run
        dispatched.should_run = should_run
        dispatched.cpu_should_run = cpu_should_run
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


def takes_negative_weights(func):
    """Whether the function ``func`` accepts negative weights at all: not NetworkX's
    Dijkstra and A* functions, which refuse them whatever the method."""
    return not any(word in func.__name__ for word in ("dijkstra", "astar"))


def _method_line(m, with_options, negative_weights=True):
    flags = [text for flag, text in (("negative_weights", "negative weights"),
                                     ("unit_weights_only", "unit weights only"),
                                     ("integer_weights_only", "integer weights only"))
             if getattr(m, flag) and (flag != "negative_weights" or negative_weights)]
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
            lines += _lines(_method_line(m, with_options, takes_negative_weights(func)), "  ")
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
