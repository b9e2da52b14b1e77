"""Support for running NetworkX's own test suite through the backend."""

__all__ = ["networkx_test_xfails"]


def networkx_test_xfails():
    """test name (or Class::test) -> reason, for genuine, explained differences."""
    return {}
