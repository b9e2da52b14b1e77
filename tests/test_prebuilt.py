"""Kernels built ahead of time: which binary serves which device and driver (faked
versions, no GPU), the name-expression -> symbol matching, and that shipped binaries
were built from the sources in the package."""

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from nx_gpusp import kernel_build, prebuilt
from nx_gpusp.executor import nvrtc_options

FILE = "frontier.cu"


def manifest(digest=None, exprs=None, cuda="13.0", archs=(75, 80, 86, 89, 90, 100, 120)):
    family = next(m for m in prebuilt.kernel_modules() if m[1] == FILE)
    exprs = family[2] if exprs is None else exprs
    return {"cuda_version": cuda, "cubin_archs": list(archs), "ptx_arch": archs[-1],
            "families": {FILE: {"fatbin": "frontier.fatbin",
                                "source_sha256": digest or prebuilt.source_hash(FILE),
                                "options": list(nvrtc_options()),
                                "symbols": {e: f"_Z{i}" for i, e in enumerate(exprs)}}}}


def choose(m, capability=(9, 0), driver=13000, exprs=None, options=None):
    family = next(x for x in prebuilt.kernel_modules() if x[1] == FILE)
    return prebuilt.choose_binary(m, FILE, family[2] if exprs is None else exprs,
                                  nvrtc_options() if options is None else options,
                                  prebuilt.source_hash(FILE), capability, driver)


@pytest.mark.parametrize("capability", [(7, 5), (8, 0), (8, 6), (8, 7), (8, 9), (9, 0),
                                        (10, 0), (10, 3), (12, 0), (12, 1)])
def test_a_cubin_of_the_same_major_and_no_newer_minor_serves(capability):
    entry, reason = choose(manifest(), capability)
    assert reason is None and entry["fatbin"] == "frontier.fatbin"


def test_a_newer_architecture_gets_the_ptx_where_the_driver_can_jit_it():
    assert choose(manifest(), (13, 0), driver=13000)[1] is None
    entry, reason = choose(manifest(cuda="13.1"), (13, 0), driver=13000)
    assert entry is None and reason == "no binary for sm_130"


def test_an_architecture_below_the_ptx_without_a_cubin_compiles():
    entry, reason = choose(manifest(), (11, 0))
    assert entry is None and reason == "no binary for sm_110"
    assert choose(manifest(), (7, 0))[1] == "no binary for sm_70"


def test_a_cuda12_driver_cannot_load_cuda13_binaries():
    entry, reason = choose(manifest(), (9, 0), driver=12080)
    assert entry is None and "CUDA 12.8" in reason and "CUDA 13" in reason
    assert choose(manifest(cuda="12.8"), (9, 0), driver=12020)[1] is None  # minor compatibility


def test_stale_sources_options_or_a_missing_kernel_compile():
    assert "differs" in choose(manifest(digest="0" * 64))[1]
    assert "options" in choose(manifest(), options=("-std=c++17", "-DNF_PROFILE"))[1]
    reason = choose(manifest(exprs=("relax_frontier<double>",)))[1]
    assert "lacks" in reason
    assert choose(None)[1] == "this install has no prebuilt kernels"
    assert choose({"families": {}, "cuda_version": "13.0"})[1] == "no prebuilt binary of frontier.cu"


def test_each_reason_is_logged_once(caplog):
    prebuilt._LOGGED.discard("a test reason")
    with caplog.at_level("INFO", logger="nx_gpusp"):
        prebuilt.log_fallback("a test reason")
        prebuilt.log_fallback("a test reason")
    assert [r.getMessage().count("a test reason") for r in caplog.records] == [1]


def test_every_table_lists_its_name_expressions():
    modules = prebuilt.kernel_modules()
    assert {m[1] for m in modules} == {t.source for t in __import__(
        "nx_gpusp.ops", fromlist=["kernel_tables"]).kernel_tables().values()}
    for family, source, exprs, options in modules:
        assert exprs and len(set(exprs)) == len(exprs), family
        assert options[0] == "-std=c++17"
        unit = kernel_build.translation_unit(source, exprs)
        assert all(f"decltype({e}) {e};" in unit for e in exprs if "<" in e)


@pytest.mark.skipif(shutil.which("c++filt") is None, reason="needs c++filt")
def test_symbols_match_name_expressions_default_arguments_included():
    mangled = ["_Z1fIiLb0EEvPi", "_Z1fIiLb1EEvPi", "_Z1fIxLb0EEvPx", "_Z1gPi", "h"]
    table = kernel_build.match_symbols(["f<int>", "f<int, true>", "f<long long>", "g", "h"],
                                       mangled)
    assert table == {"f<int>": "_Z1fIiLb0EEvPi", "f<int, true>": "_Z1fIiLb1EEvPi",
                     "f<long long>": "_Z1fIxLb0EEvPx", "g": "_Z1gPi", "h": "h"}
    with pytest.raises(ValueError, match="matches 0 symbols"):
        kernel_build.match_symbols(["f<double>"], mangled)


def test_shipped_binaries_were_built_from_these_sources():
    shipped = prebuilt.read_manifest()
    if shipped is None:
        pytest.skip("no prebuilt kernels in this install")
    for family, source, exprs, options in prebuilt.kernel_modules():
        entry = shipped["families"][source]
        assert entry["source_sha256"] == prebuilt.source_hash(source), source
        assert set(exprs) <= set(entry["symbols"]), source
        assert (prebuilt.BINARY_DIR / entry["fatbin"]).is_file()


@pytest.mark.gpu
def test_every_family_loads_from_the_shipped_binaries():
    from nx_gpusp.executor import MODULE_ORIGIN, cuda_available, get_executor

    if not cuda_available():
        pytest.skip("needs a CUDA GPU")
    if prebuilt.read_manifest() is None:
        pytest.skip("no prebuilt kernels (python -m nx_gpusp.kernel_build)")
    ex = get_executor("cuda")
    for family, source, exprs, options in prebuilt.kernel_modules():
        table = ex.ops(family)
        assert MODULE_ORIGIN[source, ex.device_id] == "prebuilt", MODULE_ORIGIN[source, ex.device_id]
        for e in exprs:
            assert table._module.get_function(e) is not None


def test_a_family_built_for_fewer_architectures_compiles_below_them():
    m = manifest()
    m["families"][FILE]["cubin_archs"] = [80, 86, 89, 90, 100, 120]
    assert choose(m, (7, 5))[1] == "no binary for sm_75"
    assert choose(m, (8, 0))[1] is None


class FakeCupy:
    """The few CuPy calls the executor makes to pick a binary: a device of compute
    ``capability`` under a driver of ``driver`` (cudaDriverGetVersion), a RawModule that
    records the fatbin it loads or raises ``load_error``."""

    def __init__(self, capability=(9, 0), driver=13000, load_error=None):
        self.loaded = []
        runtime = type("runtime", (), {})()
        runtime.getDeviceProperties = lambda device: {"major": capability[0],
                                                      "minor": capability[1]}
        runtime.driverGetVersion = lambda: driver
        self.cuda = type("cuda", (), {"runtime": runtime})()
        self.load_error = load_error

    def RawModule(self, path):  # noqa: N802 (CuPy's name)
        if self.load_error:
            raise self.load_error
        self.loaded.append(path)
        return type("raw", (), {"get_function": lambda self, name: name})()


def load(monkeypatch, caplog, fake, shipped):
    """The executor's choice for FILE with ``shipped`` as the manifest: (the module or
    None, MODULE_ORIGIN's entry, the lines logged)."""
    from nx_gpusp import executor

    monkeypatch.setattr(prebuilt, "read_manifest", lambda folder=None: shipped)
    monkeypatch.setattr(prebuilt, "_LOGGED", set())
    exprs = next(m for m in prebuilt.kernel_modules() if m[1] == FILE)[2]
    caplog.clear()
    with caplog.at_level("INFO", logger="nx_gpusp"):
        module = executor._prebuilt_module(fake, FILE, exprs, 0)
    lines = [r.getMessage() for r in caplog.records if "NVRTC" in r.getMessage()]
    return module, executor.MODULE_ORIGIN.pop((FILE, 0)), lines


def test_a_fitting_binary_loads_and_logs_nothing(monkeypatch, caplog):
    fake = FakeCupy((8, 6), driver=13000)
    module, origin, lines = load(monkeypatch, caplog, fake, manifest())
    assert origin == "prebuilt" and lines == []
    assert fake.loaded == [str(prebuilt.BINARY_DIR / "frontier.fatbin")]
    assert all(module.get_function(e) == s for e, s in module.symbols.items())


@pytest.mark.parametrize("fake, shipped, why", [
    (FakeCupy((9, 0), driver=12080), manifest(),
     "the driver (CUDA 12.8) is older than the binaries' CUDA 13"),
    (FakeCupy((11, 0)), manifest(), "no binary for sm_110"),
    (FakeCupy((9, 0)), None, "this install has no prebuilt kernels"),
])
def test_no_fitting_binary_compiles_with_one_log_line_saying_why(monkeypatch, caplog, fake,
                                                                  shipped, why):
    module, origin, lines = load(monkeypatch, caplog, fake, shipped)
    assert module is None and fake.loaded == []
    assert origin == f"nvrtc: {why}"
    assert lines == [f"nx_gpusp: compiling CUDA kernels with NVRTC (CuPy caches them): {why}"]


def test_a_binary_the_driver_refuses_compiles_with_the_drivers_error(monkeypatch, caplog):
    fake = FakeCupy((9, 0), load_error=RuntimeError("CUDA_ERROR_UNSUPPORTED_PTX_VERSION"))
    module, origin, lines = load(monkeypatch, caplog, fake, manifest())
    assert module is None and "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" in origin
    assert len(lines) == 1 and "loading frontier.fatbin failed" in lines[0]


@pytest.mark.parametrize("driver, capability, served", [
    (12020, (9, 0), True),    # a CUDA 12 toolkit's cubins: any 12.x driver (minor compat.)
    (13000, (9, 0), True),    # and a CUDA 13 driver (a newer driver loads older cubins)
    (12080, (13, 0), False),  # PTX (12.8's compute_120) JIT needs a driver >= 12.8...
    (12090, (13, 0), True),   # ...which has it
])
def test_binaries_built_by_a_cuda12_toolkit(driver, capability, served):
    m = manifest(cuda="12.9")
    assert (choose(m, capability, driver=driver)[0] is not None) is served


def cuobjdump_listings(archs, exprs_symbols, ptx=None, drop=None):
    """cuobjdump's --list-elf, --list-ptx and -symbols of frontier.fatbin as it prints
    them, with ``drop`` = (arch, symbol) left out of that cubin."""
    elf = "".join(f"ELF file {i + 1:4d}: frontier.{i + 1}.sm_{a}.cubin\n"
                  for i, a in enumerate(archs))
    ptx_list = f"PTX file    1: frontier.1.sm_{archs[-1] if ptx is None else ptx}.ptx\n"
    symbols = ""
    for a in archs:
        symbols += (f"\nFatbin elf code:\n================\narch = sm_{a}\ncode version = [1,8]\n"
                    "host = linux\ncompile_size = 64bit\n\nsymbols:\n"
                    "FUNC          WEAK    DEFAULT    -     $__internal_0_$__cuda_sm20_div_u64\n")
        symbols += "".join(f"FUNC          GLOBAL  DEFAULT    ENTRY     {s}\n"
                           for s in exprs_symbols.values() if (a, s) != drop)
    return elf, ptx_list, symbols


def test_cuobjdump_check_wants_every_instance_in_every_cubin():
    from nx_gpusp import kernel_check

    m = manifest()
    exprs = list(m["families"][FILE]["symbols"])
    symbols = m["families"][FILE]["symbols"]
    archs = m["cubin_archs"]

    def problems(**kw):
        return kernel_check.family_problems(FILE, exprs, 75, m, *cuobjdump_listings(**kw))

    assert problems(archs=archs, exprs_symbols=symbols) == []
    found = problems(archs=archs[1:], exprs_symbols=symbols)
    assert found[0] == f"{FILE}: cubins sm_{archs[1:]}, want sm_{archs}"
    assert found[1:] == [f"{FILE}: {e} ({s}) missing from sm_[75]" for e, s in symbols.items()]
    assert problems(archs=archs, exprs_symbols=symbols, ptx=90) == [
        f"{FILE}: PTX sm_[90], want sm_[120]"]
    lost = exprs[0]
    assert problems(archs=archs, exprs_symbols=symbols, drop=(86, symbols[lost])) == [
        f"{FILE}: {lost} ({symbols[lost]}) missing from sm_[86]"]
    # a family whose oldest architecture is newer than the build's (cp.async: sm_80)
    assert kernel_check.family_problems(FILE, exprs, 80, m, *cuobjdump_listings(
        archs=archs[1:], exprs_symbols=symbols)) == []
    m["families"][FILE]["source_sha256"] = "0" * 64
    assert problems(archs=archs, exprs_symbols=symbols) == [f"{FILE}: built from another source"]


def fake_nvcc(tmp_path, release, codes):
    """An executable answering ``--version`` and ``--list-gpu-code`` as nvcc of
    ``release`` does (a CUDA 12 toolkit where only CUDA 13's is installed)."""
    nvcc = tmp_path / "nvcc"
    nvcc.write_text("#!/bin/sh\n"
                    f'if [ "$1" = --version ]; then echo "Cuda compilation tools, release '
                    f'{release}, V{release}.1"; else printf "%s\\n" {" ".join(codes)}; fi\n')
    nvcc.chmod(0o755)
    return str(nvcc)


def test_a_toolkit_without_the_newest_architectures_builds_the_ones_it_has(tmp_path):
    cuda124 = fake_nvcc(tmp_path, "12.4", ["sm_50", "sm_75", "sm_80", "sm_86", "sm_87",
                                           "sm_89", "sm_90", "sm_90a"])
    assert kernel_build.nvcc_version(cuda124) == "12.4"
    assert kernel_build.buildable_archs(kernel_build.ARCHS, cuda124) == (75, 80, 86, 89, 90)
    with pytest.raises(RuntimeError, match="builds none of"):
        kernel_build.build(tmp_path / "out", (100, 120), nvcc=cuda124)


@pytest.mark.skipif(not os.environ.get("NX_GPUSP_NVRTC_LIB"),
                    reason="NX_GPUSP_NVRTC_LIB: a libnvrtc.so to compile with (e.g. CUDA 12's)")
def test_a_family_compiles_with_the_nvrtc_named():
    """The NVRTC fallback without a GPU: a CUDA 12 driver's install compiles with NVRTC
    12 (tools/nvrtc_check.py compiles every family)."""
    spec = importlib.util.spec_from_file_location(
        "nvrtc_check", Path(__file__).resolve().parents[1] / "tools" / "nvrtc_check.py")
    nvrtc_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nvrtc_check)
    family = next(m for m in prebuilt.kernel_modules() if m[1] == FILE)
    seconds, size = nvrtc_check.compile_family(
        nvrtc_check.Nvrtc(os.environ["NX_GPUSP_NVRTC_LIB"]), FILE, family[2], family[3], 75)
    assert size > 0


def test_nvcc_compiles_as_cupys_nvrtc_does():
    """CuPy adds -ftz=true to every NVRTC compile; the prebuilt code flushes as it does."""
    cmd = kernel_build.nvcc_command("nvcc", nvrtc_options(), [75, 90, 120], "t.cu", "f.fatbin")
    assert "--ftz=true" in cmd and cmd[2:2 + len(nvrtc_options())] == list(nvrtc_options())
    assert [c for c in cmd if c.startswith("-gencode")] == [
        "-gencode=arch=compute_75,code=sm_75", "-gencode=arch=compute_90,code=sm_90",
        "-gencode=arch=compute_120,code=[sm_120,compute_120]"]
