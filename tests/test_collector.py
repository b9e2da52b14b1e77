"""nx_gpusp.collector: the cyclic collector paused around the first call's imports."""

import gc
import threading

from nx_gpusp.collector import collector_paused


def test_paused_in_the_block_and_restored():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error():
    try:
        with collector_paused():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()


def test_left_off_when_the_program_turned_it_off():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_other_threads_leave_it_alone():
    seen = []

    def run():
        with collector_paused():
            seen.append(gc.isenabled())

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen == [True] and gc.isenabled()


def test_backend_import_leaves_it_on():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import gc, nx_gpusp.interface; "
                          "print(gc.isenabled())"], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True"]
