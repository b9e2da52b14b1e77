"""The ``networkx_algorithm`` decorator: one place that registers a backend function,
its ``can_run`` policy and its ``should_run`` policy (as nx-cugraph does)."""

import inspect

__all__ = ["networkx_algorithm", "IMPLEMENTATIONS", "bind_arguments", "CALLS"]

IMPLEMENTATIONS = {}
CALLS = {}  # name -> number of calls into the backend (used to prove dispatch happened)


def bind_arguments(func, args, kwargs):
    """Arguments of a dispatched call bound to the backend function's signature."""
    sig = inspect.signature(func)
    bound = sig.bind_partial(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


def networkx_algorithm(*, name=None, can_run=None, should_run=None):
    """Register ``func`` as the backend's implementation of NetworkX's ``name``.

    can_run(arguments) / should_run(arguments) receive the bound arguments and return
    True, or a string saying why not.
    """

    def decorate(func):
        key = name or func.__name__

        def counted(*args, **kwargs):
            CALLS[key] = CALLS.get(key, 0) + 1
            return func(*args, **kwargs)

        counted.__name__ = key
        counted.__qualname__ = key
        counted.__doc__ = func.__doc__
        counted.__wrapped__ = func
        counted.__signature__ = inspect.signature(func)
        counted.can_run = can_run
        counted.should_run = should_run
        IMPLEMENTATIONS[key] = counted
        return counted

    return decorate
