"""The typed configuration (bad values refused when set, NX_GPUSP_* parsed) and the
dispatch rules every call shares (gpusp-only keywords, machines without a GPU, the
all-pairs work threshold, eager errors of all-pairs generators)."""

import json
import logging
import os
import subprocess
import sys

import networkx as nx
import pytest

import nx_gpusp
import nx_gpusp.interface  # noqa: F401  (registers the functions)
from nx_gpusp import dispatch
from nx_gpusp.config import GpuspConfig, default_config
from nx_gpusp.dispatch import CALLS, IMPLEMENTATIONS, bind_arguments, gpusp_keywords


@pytest.mark.parametrize("key,value,error", [
    ("device", "bogus", ValueError), ("device", "cuda:x", ValueError), ("device", 1, TypeError),
    ("should_run_min_edges", "abc", TypeError), ("should_run_min_edges", -1, ValueError),
    ("should_run_min_edges", 1.5, TypeError), ("should_run_min_edges", True, TypeError),
    ("lazy_results", "yes", TypeError), ("dijkstra_method", "nope", ValueError),
    ("bellman_ford_method", "crauser", ValueError), ("floyd_warshall_method", "near-far", ValueError),
    ("all_pairs_method", 3, TypeError)])
def test_bad_values_are_refused_when_set(key, value, error):
    cfg = nx.config.backends.gpusp
    before = cfg[key]
    with pytest.raises(error, match=key):
        setattr(cfg, key, value)
    assert cfg[key] == before
    with pytest.raises(AttributeError):
        cfg.no_such_option = 1


@pytest.mark.parametrize("key,value", [
    ("device", "cpu"), ("device", "cuda:1"), ("device", "auto"),
    ("dijkstra_method", "delta-stepping"), ("bellman_ford_method", "frontier"),
    ("floyd_warshall_method", "fw-tiled"), ("all_pairs_method", "batched-frontier"),
    ("all_pairs_method", "fw-dpx"), ("all_pairs_method", "near-far"),
    ("should_run_min_edges", 0), ("lazy_results", False)])
def test_good_values_are_taken(key, value):
    cfg = nx.config.backends.gpusp
    with cfg(**{key: value}):
        assert cfg[key] == value


def test_config_is_networkx_config():
    cfg = nx.config.backends.gpusp
    # Config builds a slotted dataclass per instance and remembers the class it came from
    assert type(cfg)._orig_class is GpuspConfig and isinstance(cfg, nx.utils.Config)
    assert default_config() == GpuspConfig(**dict(default_config()))


def _config_in_subprocess(env):
    code = ("import warnings, networkx as nx; warnings.simplefilter('always'); "
            "c = nx.config.backends.gpusp; print(c.should_run_min_edges, c.lazy_results, c.device)")
    return subprocess.run([sys.executable, "-W", "always", "-c", code],
                          env=dict(os.environ, **env), capture_output=True, text=True)


def test_environment_values_are_parsed():
    out = _config_in_subprocess({"NX_GPUSP_SHOULD_RUN_MIN_EDGES": "1e5",
                                 "NX_GPUSP_LAZY_RESULTS": "off", "NX_GPUSP_DEVICE": "cpu"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["100000", "False", "cpu"]
    assert "RuntimeWarning" not in out.stderr


def test_bad_environment_value_warns_and_keeps_the_backend():
    out = _config_in_subprocess({"NX_GPUSP_SHOULD_RUN_MIN_EDGES": "lots",
                                 "NX_GPUSP_DEVICE": "gpu0"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["50000", "True", "auto"]
    assert "NX_GPUSP_SHOULD_RUN_MIN_EDGES" in out.stderr and "NX_GPUSP_DEVICE" in out.stderr


def _keywords(name, *args, **kwargs):
    func = IMPLEMENTATIONS[name]
    return gpusp_keywords(func, bind_arguments(func.__wrapped__, args, kwargs))


def test_gpusp_keywords():
    G = nx.path_graph(3)
    assert _keywords("single_source_dijkstra", G, 0, method="near-far") == ["method"]
    assert _keywords("single_source_dijkstra", G, 0, delta=3) == ["delta"]
    assert _keywords("single_source_dijkstra", G, 0, cutoff=3) == []
    assert _keywords("single_source_dijkstra", G, 0, None, 3) == []
    assert _keywords("shortest_path", G, 0, 1, "weight", "dijkstra") == []
    assert _keywords("shortest_path", G, method="bellman-ford") == []
    assert _keywords("shortest_path", G, 0, 1, "weight", "near-far") == ["method"]


@pytest.fixture
def automatic(monkeypatch):
    """NETWORKX_BACKEND_PRIORITY=gpusp for one test."""
    prio = nx.config.backend_priority
    old = list(prio.algos)
    prio.algos = ["gpusp"]
    try:
        yield
    finally:
        prio.algos = old


def _calls(name):
    return CALLS.get(name, 0)


def test_gpusp_only_keyword_runs_gpusp_on_a_small_graph(automatic):
    G = nx.path_graph(5)
    with nx.config.backends.gpusp(device="cpu"):
        before = _calls("single_source_dijkstra_path_length")
        got = nx.single_source_dijkstra_path_length(G, 0, method="frontier")
        assert _calls("single_source_dijkstra_path_length") == before + 1
        assert got == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
        nx.single_source_dijkstra_path_length(G, 0)  # small: NetworkX
        assert _calls("single_source_dijkstra_path_length") == before + 1
        before = _calls("shortest_path_length")
        assert nx.shortest_path_length(G, 0, 4, weight="weight", method="near-far") == 4
        assert _calls("shortest_path_length") == before + 1


@pytest.fixture
def no_gpu(monkeypatch):
    """A machine without a CUDA GPU, whose first decline has not been announced yet."""
    monkeypatch.setattr("nx_gpusp.executor.cuda_available", lambda: False)
    monkeypatch.setattr(dispatch, "_ANNOUNCED", [])


def _ran(name, call):
    before = _calls(name)
    call()
    return _calls(name) == before + 1


def test_without_gpu_automatic_dispatch_runs_the_twins_where_they_win(automatic, no_gpu,
                                                                         caplog):
    """device='auto' without a GPU: single-source calls without a target run on the
    twins from cpu_min_edges arcs (cpu_min_edges_bfs for breadth-first calls); calls
    with a target or cutoff, smaller graphs and all-pairs calls stay on NetworkX."""
    import warnings

    G = nx.gnm_random_graph(300, 2000, seed=1)  # 4,000 arcs
    name = "single_source_dijkstra_path_length"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nx_gpusp.DeclinedWarning)
        with nx.config.backends.gpusp(device="auto", cpu_min_edges=4_001):
            with caplog.at_level(logging.DEBUG, logger="networkx"):
                assert not _ran(name, lambda: nx.single_source_dijkstra_path_length(G, 0))
            assert "cpu_min_edges=4001 arcs (this graph: 4000)" in caplog.text
        with nx.config.backends.gpusp(device="auto", cpu_min_edges=4_000,
                                      cpu_min_edges_bfs=4_001):
            assert _ran(name, lambda: nx.single_source_dijkstra_path_length(G, 0))
            assert _ran("single_source_bellman_ford", lambda: nx.single_source_bellman_ford(G, 0))
            assert _ran("shortest_path_length",
                        lambda: nx.shortest_path_length(G, 0, weight="weight"))
            # NetworkX stops early at a target or cutoff; the twins do not
            assert not _ran("dijkstra_path_length", lambda: nx.dijkstra_path_length(G, 0, 9))
            assert not _ran(name, lambda: nx.single_source_dijkstra_path_length(G, 0, 2))
            assert not _ran("single_source_shortest_path_length",
                            lambda: nx.single_source_shortest_path_length(G, 0))
            assert not _ran("shortest_path_length", lambda: nx.shortest_path_length(G, 0))
            assert not _ran("all_pairs_dijkstra_path_length",
                            lambda: dict(nx.all_pairs_dijkstra_path_length(G)))
        with nx.config.backends.gpusp(device="auto", cpu_min_edges_bfs=4_000):
            assert _ran("single_source_shortest_path_length",
                        lambda: nx.single_source_shortest_path_length(G, 0))
        with nx.config.backends.gpusp(device="cpu", should_run_min_edges=0):
            # device='cpu' chose the twins: the GPU's thresholds apply
            assert _ran("dijkstra_path_length", lambda: nx.dijkstra_path_length(G, 0, 9))
        # an explicit backend="gpusp" always runs (the NumPy twins here)
        assert _ran(name, lambda: nx.single_source_dijkstra_path_length(G, 0, backend="gpusp"))


def test_first_decline_warns_once_per_process(automatic, no_gpu):
    G = nx.path_graph(5)
    with nx.config.backends.gpusp(device="auto"), \
            pytest.warns(nx_gpusp.DeclinedWarning) as record:
        assert nx.single_source_dijkstra_path_length(G, 0) == {i: i for i in range(5)}
        nx.dijkstra_path_length(G, 0, 3)
        dict(nx.all_pairs_dijkstra_path_length(G))
    assert len(record) == 1
    message = str(record[0].message)
    assert "single_source_dijkstra_path_length() to NetworkX" in message
    assert "cpu_min_edges=" in message and "backend='gpusp'" in message
    assert record[0].filename == __file__  # points at the user's call


def test_decline_at_conversion_warns_too(automatic, monkeypatch):
    monkeypatch.setattr(dispatch, "_ANNOUNCED", [])
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, {(0, 1): float("inf")}, "weight")
    with nx.config.backends.gpusp(device="cpu", should_run_min_edges=0):
        with pytest.warns(nx_gpusp.DeclinedWarning, match="to NetworkX"):
            assert nx.single_source_dijkstra_path_length(G, 1) == nx.single_source_dijkstra_path_length(
                G, 1, backend="networkx")


def test_device_cuda_without_gpu_fails_with_a_gpusp_error(monkeypatch):
    monkeypatch.setattr("nx_gpusp.executor.cuda_available", lambda: False)
    G = nx.path_graph(3)
    with nx.config.backends.gpusp(device="cuda"):
        with pytest.raises(nx_gpusp.DeviceUnavailableError, match="sees no CUDA GPU.*device='cpu'"):
            dispatch.can_run("single_source_dijkstra", (G, 0), {})
        with pytest.raises(nx_gpusp.DeviceUnavailableError, match="device is 'cuda'"):
            nx.single_source_dijkstra(G, 0, backend="gpusp")


def test_device_cuda_without_gpu_fails_under_automatic_dispatch(automatic, monkeypatch):
    monkeypatch.setattr("nx_gpusp.executor.cuda_available", lambda: False)
    with nx.config.backends.gpusp(device="cuda:1"):
        with pytest.raises(nx_gpusp.DeviceUnavailableError, match="'cuda:1'"):
            nx.single_source_dijkstra_path_length(nx.path_graph(3), 0)


def test_first_need_of_cupy_starts_the_driver_before_its_import(monkeypatch):
    """CuPy's first import and device count (can_run's GPU check with device='cuda',
    before any conversion; an executor) come after CUDA's driver thread has started
    for the configured device, so that its start runs beside them."""
    import sys
    import types

    from nx_gpusp import executor

    order = []
    monkeypatch.setattr(executor, "start_cuda_driver", order.append)
    runtime = types.SimpleNamespace(getDeviceCount=lambda: order.append("count") or 0)
    monkeypatch.setitem(sys.modules, "cupy",
                        types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime)))
    with nx.config.backends.gpusp(device="cuda:1"):
        assert executor._cupy.__wrapped__() is None  # no device counted
    assert order == ["cuda:1", "count"]


def test_all_pairs_dispatch_decides_on_n_times_m(automatic):
    small = nx.path_graph(10)  # n * m = 10 * 18
    big = nx.gnm_random_graph(120, 400, seed=2)  # n * m = 120 * 800
    with nx.config.backends.gpusp(device="cpu", should_run_min_all_pairs_work=50_000,
                                  should_run_min_edges=10**9):
        before = _calls("all_pairs_dijkstra_path_length")
        dict(nx.all_pairs_dijkstra_path_length(small))
        assert _calls("all_pairs_dijkstra_path_length") == before
        got = dict(nx.all_pairs_dijkstra_path_length(big))
        assert _calls("all_pairs_dijkstra_path_length") == before + 1
        nx.config.backend_priority.algos = []
        assert got == dict(nx.all_pairs_dijkstra_path_length(big))


def test_all_pairs_generators_decline_before_returning(automatic):
    """A weight gpusp cannot hold exactly: NotImplementedError at the call, so that
    automatic dispatch falls back to NetworkX instead of failing while iterating."""
    G = nx.gnm_random_graph(60, 200, seed=3, directed=True)
    for u, v, d in G.edges(data=True):
        d["weight"] = 2**62 + u
    with nx.config.backends.gpusp(device="cpu", should_run_min_all_pairs_work=0):
        with pytest.raises(NotImplementedError):
            nx.all_pairs_dijkstra_path_length(G, backend="gpusp")
        got = dict(nx.all_pairs_dijkstra_path_length(G))
        nx.config.backend_priority.algos = []
        assert got == dict(nx.all_pairs_dijkstra_path_length(G))


def test_warm_up_at_import_follows_the_backend_priority(monkeypatch):
    from nx_gpusp.config import warm_up_at_import

    for var in [k for k in os.environ if k.startswith("NETWORKX_BACKEND_PRIORITY")]:
        monkeypatch.delenv(var)
    cfg = default_config()
    assert cfg.warm_up == "auto" and not warm_up_at_import(cfg)
    monkeypatch.setenv("NETWORKX_BACKEND_PRIORITY", "cugraph, gpusp")
    assert warm_up_at_import(cfg)
    cfg.warm_up = "off"
    assert not warm_up_at_import(cfg)
    monkeypatch.delenv("NETWORKX_BACKEND_PRIORITY")
    cfg.warm_up = "import"
    assert warm_up_at_import(cfg)
    with pytest.raises(ValueError, match="warm_up"):
        cfg.warm_up = "call"


def test_exit_waits_for_the_cuda_warm_up(tmp_path):
    """A program that ends while the CUDA warm-up thread runs waits for it at exit (the
    interpreter would otherwise tear CuPy down under it): the thread's last step, here
    a file written after 1 s, is done when the process has ended."""
    done = tmp_path / "warmed"
    code = (
        "import sys, time, pathlib\n"
        "import nx_gpusp.executor as ex\n"
        "def slow(device, families):\n"
        "    time.sleep(1.0)\n"
        "    pathlib.Path(sys.argv[1]).write_text('done')\n"
        "ex._warm_cuda = slow\n"
        "ex.start_cuda_warm_up('cuda')\n")
    subprocess.run([sys.executable, "-c", code, str(done)], check=True, timeout=120)
    assert done.read_text() == "done"


def test_cuda_driver_start_is_harmless_where_it_cannot_run(monkeypatch):
    """The driver thread (started when NetworkX imports the backend for a gpusp call)
    starts nothing for device='cpu' or without CuPy, and where no CUDA driver loads it
    ends without error; the libraries' thread starts with the first call that asks
    for it (the conversion), each thread once."""
    import importlib.util

    from nx_gpusp import cuda_driver

    monkeypatch.setattr(cuda_driver, "_DRIVER", {})
    cuda_driver.start_cuda_driver("cpu")
    assert cuda_driver._DRIVER == {}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    cuda_driver.start_cuda_driver("cuda")
    assert cuda_driver._DRIVER == {}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(cuda_driver.ctypes, "CDLL", _no_library)
    cuda_driver.start_cuda_driver("cuda:1", libraries=False)
    thread = cuda_driver._DRIVER["thread"]
    assert "libraries" not in cuda_driver._DRIVER
    cuda_driver.start_cuda_driver("cuda:1")
    libraries = cuda_driver._DRIVER["libraries"]
    for t in (thread, libraries):
        t.join(10)
        assert not t.is_alive()
    cuda_driver.start_cuda_driver("cuda")  # once per process
    assert cuda_driver._DRIVER == {"thread": thread, "libraries": libraries}


def test_backend_import_starts_only_the_driver():
    """NetworkX's import of the backend (the first gpusp call) starts CUDA's driver for
    the configured device before the backend imports NumPy, and not the libraries'
    thread; the conversion asks for both."""
    code = """if True:
        import sys
        import networkx as nx
        from nx_gpusp import cuda_driver
        calls = []
        cuda_driver.start_cuda_driver = lambda device, **kw: calls.append(
            (device, kw, "numpy" in sys.modules))
        nx.config.backends.gpusp.device = "cuda:1"
        numpy_before = "numpy" in sys.modules  # NetworkX imports NumPy lazily
        from nx_gpusp import interface
        assert calls == [("cuda:1", {"libraries": False}, numpy_before)], calls
        interface.BackendInterface.convert_from_nx(nx.path_graph(3), edge_attrs={"weight": 1})
        assert calls[1:] == [("cuda:1", {}, True)], calls
        print("ok")
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("NETWORKX_BACKEND")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["ok"], out.stderr[-2000:]


def _no_library(name):
    raise OSError(f"{name}: cannot open shared object file")


@pytest.mark.parametrize("layouts", [["cu13"], ["cu12", "cu13"], []])
def test_wheel_libraries_preloaded_only_from_one_wheel_layout(monkeypatch, tmp_path, layouts):
    """The CUDA libraries CuPy's import loads are opened ahead (through libc's dlopen)
    from site-packages/nvidia/cuXX/lib when exactly one such folder exists, and only the
    files CuPy loads; with two CUDA versions' wheels, or none, nothing is opened."""
    import importlib.machinery
    import importlib.util

    from nx_gpusp import cuda_driver

    for cu in layouts:
        lib = tmp_path / "nvidia" / cu / "lib"
        lib.mkdir(parents=True)
        for name in ("libcublasLt.so.13", "libnvrtc.so.13", "libnvrtc-builtins.so.13.0",
                     "libcufft.so.12"):
            (lib / name).write_bytes(b"")
    spec = importlib.machinery.ModuleSpec("nvidia", None, is_package=True)
    spec.submodule_search_locations = [str(tmp_path / "nvidia")]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    opened = []

    class Libc:
        def dlopen(path, mode):
            opened.append(os.fsdecode(path))
            return 1

    monkeypatch.setattr(cuda_driver.ctypes, "CDLL", lambda name: Libc)
    cuda_driver._preload_wheel_libraries()
    if layouts == ["cu13"]:
        lib = tmp_path / "nvidia" / "cu13" / "lib"
        assert opened == [str(lib / "libcublasLt.so.13"), str(lib / "libnvrtc.so.13"),
                          str(lib / "libnvrtc-builtins.so.13.0")]
    else:
        assert opened == []


class _FakeCompiler:
    """What save/restore_compiler_versions read of cupy.cuda.compiler."""

    def __init__(self, folder):
        self.folder = str(folder)
        self._empty_file_preprocess_cache = {}

    def get_cache_dir(self):
        return self.folder


def test_compiler_versions_kept_for_the_next_process(tmp_path):
    """What CuPy's compiler learned during one of our module compiles (its version for
    our options) is written beside its disk cache and given back to a fresh compiler
    module once; what it knew before is not written, and a broken file is ignored."""
    from nx_gpusp import executor

    first = _FakeCompiler(tmp_path)
    first._empty_file_preprocess_cache[("90", ("-other",), (13, 0), "nvrtc")] = "// theirs"
    known = set(first._empty_file_preprocess_cache)
    env = ("90", ("-std=c++17", "-ftz=true"), (13, 0), "nvrtc", "-arch=sm_90")
    first._empty_file_preprocess_cache[env] = "// Cuda compilation tools, release 13.0"
    executor.save_compiler_versions(first, known)
    kept = json.loads((tmp_path / executor.COMPILER_VERSIONS_FILE).read_text())
    assert kept == {repr(env): "// Cuda compilation tools, release 13.0"}

    second = _FakeCompiler(tmp_path)
    second._empty_file_preprocess_cache[env] = "// its own"
    executor.restore_compiler_versions(second)
    assert second._empty_file_preprocess_cache == {env: "// its own"}  # never overwritten
    third = _FakeCompiler(tmp_path)
    executor.restore_compiler_versions(third)
    assert third._empty_file_preprocess_cache == {env: "// Cuda compilation tools, release 13.0"}

    (tmp_path / executor.COMPILER_VERSIONS_FILE).write_text("{not json")
    broken = _FakeCompiler(tmp_path)
    executor.restore_compiler_versions(broken)
    assert broken._empty_file_preprocess_cache == {}
    executor.save_compiler_versions(broken, set())  # nothing new: nothing written
    assert (tmp_path / executor.COMPILER_VERSIONS_FILE).read_text() == "{not json"
    unwritable = _FakeCompiler(tmp_path / "file")
    (tmp_path / "file").write_text("")
    unwritable._empty_file_preprocess_cache[env] = "// x"
    executor.save_compiler_versions(unwritable, set())  # no folder there: nothing, no error


def test_compiler_versions_file_in_cupy_cache_folder(monkeypatch, tmp_path):
    """Where CuPy's compiler module has no get_cache_dir (CuPy 14), the file goes where
    its disk cache goes: CUPY_CACHE_DIR."""
    from nx_gpusp import executor

    class Compiler:
        _empty_file_preprocess_cache = {("90", (), (13, 0), "nvrtc"): "// v"}

    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path))
    executor.save_compiler_versions(Compiler, set())
    assert json.loads((tmp_path / executor.COMPILER_VERSIONS_FILE).read_text()) == {
        repr(("90", (), (13, 0), "nvrtc")): "// v"}


def test_compiler_versions_learned_outside_our_modules_kept_at_exit(monkeypatch, tmp_path):
    """At CuPy's import the kept versions are restored, and at exit whatever CuPy
    learned beyond them is kept too: a version learned for CuPy's own kernels (an
    ``astype``, other options than our modules') reaches the next process."""
    import atexit

    from nx_gpusp import executor

    ours = ("90", ("-std=c++17",), (13, 0), "nvrtc", "-arch=sm_90", "cubin")
    cupys = ("90", ("--std=c++17",), (13, 0), "nvrtc", "-arch=sm_90", "cubin")
    (tmp_path / executor.COMPILER_VERSIONS_FILE).write_text(json.dumps({repr(ours): "// v"}))
    at_exit = []
    monkeypatch.setattr(atexit, "register", lambda f, *args: at_exit.append((f, args)))
    first = _FakeCompiler(tmp_path)
    executor.keep_compiler_versions(first)
    executor.keep_compiler_versions(first)  # once per process
    assert first._empty_file_preprocess_cache == {ours: "// v"} and len(at_exit) == 1
    first._empty_file_preprocess_cache[cupys] = "// v"  # learned by an astype
    f, args = at_exit[0]
    f(*args)
    kept = json.loads((tmp_path / executor.COMPILER_VERSIONS_FILE).read_text())
    assert kept == {repr(ours): "// v", repr(cupys): "// v"}
    second = _FakeCompiler(tmp_path)
    executor.restore_compiler_versions(second)
    assert second._empty_file_preprocess_cache == {ours: "// v", cupys: "// v"}


def test_conversion_for_gpusp_starts_the_driver(monkeypatch):
    from nx_gpusp import interface

    started = []
    monkeypatch.setattr(interface, "start_cuda_driver", started.append)
    with nx.config.backends.gpusp(device="cpu"):
        graph = interface.BackendInterface.convert_from_nx(nx.path_graph(3),
                                                           edge_attrs={"weight": 1})
    assert started == ["cpu"] and graph.n == 3
