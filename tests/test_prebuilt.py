"""Kernels built ahead of time: which binary serves which device and driver (faked
versions, no GPU), the name-expression -> symbol matching, and that shipped binaries
were built from the sources in the package."""

import shutil

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
