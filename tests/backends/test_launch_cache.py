"""The compile caches: in memory per signature, and on disk across processes (cpu)."""

from __future__ import annotations

import ctypes
import json
import math
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.ir.nodes import Module
from gpuoff.runtime import cache as disk_cache
from gpuoff.runtime import debug
from gpuoff.runtime.devices import cpu, cpu_loader
from gpuoff.runtime.devices.base import ArrayArg
from gpuoff.runtime.testing import nd

SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import gpuoff as go
    from gpuoff import Array, Borrow, BorrowMut, f32

    SCALE = 3.0

    @go.kernel
    def scale(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
        i = go.global_id(0)
        if i < y.shape[0]:
            y[i] = x[i] * SCALE

    y = go.zeros(4)
    scale[4](go.array(np.arange(4, dtype=np.float32)), y)
    s = go.stats()
    print(json.dumps({"out": y.numpy().tolist(), "compiles": s.compiles,
                      "hits": s.disk_cache_hits,
                      "frontend": "gpuoff.frontend" in sys.modules,
                      "analysis": "gpuoff.ir.launch_checks" in sys.modules,
                      "llvmlite": "llvmlite" in sys.modules}))
    """
)


def _run(path: Path, cache: Path, **extra_env: str) -> dict[str, object]:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache), GPUOFF_DEVICE="cpu", **extra_env)
    done = subprocess.run(
        [sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_second_process_compiles_nothing(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    first = _run(script, cache)
    assert first == {"out": [0.0, 3.0, 6.0, 9.0], "compiles": 1, "hits": 0, "frontend": True,
                     "analysis": True, "llvmlite": True}  # fmt: skip
    # the signature, the launch-check analysis and the compiled kernel
    assert len(list(cache.glob("*.bin"))) == 3
    second = _run(script, cache)
    # a fully cached first launch neither compiles nor loads the front end, the launch-check
    # analysis or llvmlite
    assert second == {"out": [0.0, 3.0, 6.0, 9.0], "compiles": 0, "hits": 1, "frontend": False,
                      "analysis": False, "llvmlite": False}  # fmt: skip
    # a changed captured constant is a different kernel
    script.write_text(SCRIPT.replace("SCALE = 3.0", "SCALE = 2.0"))
    third = _run(script, cache)
    assert third["out"] == [0.0, 2.0, 4.0, 6.0] and (third["compiles"], third["hits"]) == (1, 0)


def test_corrupt_cache_entries_are_recompiled(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    _run(script, cache)
    for entry in cache.glob("*.bin"):
        entry.write_bytes(b"not a pickle")
    again = _run(script, cache)
    assert again["compiles"] == 1 and again["out"] == [0.0, 3.0, 6.0, 9.0]
    for entry in cache.glob("*.bin"):  # truncated (a crash mid-copy, a full disk)
        entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    again = _run(script, cache)
    assert again["compiles"] == 1 and again["out"] == [0.0, 3.0, 6.0, 9.0]
    after = _run(script, cache)  # rebuilt entries serve the next process
    assert (after["compiles"], after["hits"], after["llvmlite"]) == (0, 1, False)


def test_processes_compiling_the_same_kernel_at_once(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache), GPUOFF_DEVICE="cpu")
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]  # fmt: skip
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["out"] == [0.0, 3.0, 6.0, 9.0]
    assert sorted(p.suffix for p in cache.iterdir()) == [".bin", ".bin", ".bin", ".key"]
    after = _run(script, cache)
    assert (after["compiles"], after["hits"], after["llvmlite"]) == (0, 1, False)


@go.kernel
def copy(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


@go.kernel
def copy64(x: Borrow[Array[f64]], y: BorrowMut[Array[f64]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


def test_one_specialisation_per_signature(device: str) -> None:
    before = len(copy._plans)
    x, y = go.full(8, 2.0), go.zeros(8)
    for _ in range(3):
        copy[8](x, y)  # same signature: one plan
    copy[4](x[::2], y[:4])  # non-contiguous x: a second one
    m = go.zeros((2, 4))
    copy[2](go.full((2, 4), 1.0)[:, 0], m[:, 0])  # strided on both sides
    assert len(copy._plans) - before == 3  # (C, C), (strided, C), (strided, strided)
    assert y.numpy().tolist() == [2.0] * 8
    assert m.numpy()[:, 0].tolist() == [1.0, 1.0]


def test_same_kernel_name_two_signatures_in_one_process(device: str) -> None:
    a = go.array(np.arange(3, dtype=np.float64))
    b = go.zeros(3, go.f64)
    copy64[3](a, b)
    copy64[3](nd(np.arange(3, dtype=np.float64)[::-1]), b)
    assert b.numpy().tolist() == [2.0, 1.0, 0.0]


def test_debug_levels_report_launches_and_cache_decisions(
    device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old = debug.level()
    try:
        debug.set_level(2)
        x, y = go.full(5, 1.0, go.f64), go.zeros(5, go.f64)
        copy64[5](x, y)
        copy64[(5,), (5,)](x, y)
        err = capsys.readouterr().err
    finally:
        debug.set_level(old)
    assert "[gpuoff] launch copy64" in err
    assert f"on {device}" in err
    debug.set_level(0)
    copy64[5](x, y)
    assert capsys.readouterr().err == ""
    debug.set_level(old)


# ------------------------------------------------------------------------------------------------
# How the cpu device loads its kernels: shared libraries, or the JIT without a linker
# ------------------------------------------------------------------------------------------------


def test_without_a_linker_the_jit_path_serves_both_processes(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    no_tools = {"PATH": str(tmp_path / "empty")}  # shutil.which finds no ld, cc, gcc, clang
    first = _run(script, cache, **no_tools)
    assert first["out"] == [0.0, 3.0, 6.0, 9.0] and first["compiles"] == 1
    second = _run(script, cache, **no_tools)
    # the cached artifact is object code: loaded by llvmlite's JIT, still no compile
    assert second == {"out": [0.0, 3.0, 6.0, 9.0], "compiles": 0, "hits": 1, "frontend": False,
                      "analysis": False, "llvmlite": True}  # fmt: skip
    # a process that has a linker uses such an entry, and links it for the next ones
    third = _run(script, cache)
    assert (third["out"], third["compiles"], third["hits"]) == ([0.0, 3.0, 6.0, 9.0], 0, 1)
    fourth = _run(script, cache)
    assert (fourth["compiles"], fourth["hits"], fourth["llvmlite"]) == (0, 1, False)


def test_target_key_file_is_remembered_and_a_torn_one_ignored(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    _run(script, cache)
    (key_file,) = cache.glob("host-*.key")
    text = key_file.read_text()
    assert text.startswith("cpu|") and text.endswith("\n")
    key_file.write_text(text[:10])  # torn: no newline; must be recomputed, not trusted
    again = _run(script, cache)
    assert again["llvmlite"] is True and again["compiles"] == 0 and again["hits"] == 1
    assert key_file.read_text() == text


@go.kernel
def special(x: Borrow[Array[f64]], y: BorrowMut[Array[f64]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = go.erf(x[i]) + go.tanh(x[i]) + go.pow(x[i], 1.5) + go.log2(x[i] + 1.0)


def _expected_special(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.array([math.erf(v) + math.tanh(v) + v**1.5 + math.log2(v + 1.0) for v in x])


def _special_module() -> Module:
    with go.on("cpu"):
        special[37](go.array(np.linspace(0.0, 3.0, 37)), go.zeros(37, go.f64))
    module: Module = next(iter(special._plans.values())).module
    return module


def test_libm_calls_resolve_in_the_shared_library() -> None:
    module = _special_module()
    dev = cpu.open_device("cpu")
    obj = dev.build(module)
    assert obj[:4] == b"\x7fELF" and not cpu_loader.is_shared_object(obj)
    image = cpu_loader.link_shared(obj)
    assert image is not None and cpu_loader.is_shared_object(image)
    # dlopen with RTLD_NOW: every libm symbol (erf, tanh, pow, log2 in f64) resolved
    _run_program(dev.load(module, image), np.linspace(0.0, 3.0, 37))


def _cached_artifacts(folder: Path) -> list[bytes]:
    """The artifacts of the compiled entries in the cache ``folder``."""
    out = []
    for entry in folder.glob("*.bin"):
        value = disk_cache._read(entry.stem, folder)  # the entry, its digest checked
        if isinstance(value, tuple) and len(value) == 3:
            out.append(value[1])
    return out


def _fresh_special() -> Any:
    """``special`` as a new kernel object (no in-memory plan yet)."""
    return go.kernel(special.pyfunc)


def test_a_new_kernel_runs_from_the_jit_while_its_library_is_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    x = np.linspace(0.0, 3.0, 37)
    with go.on("cpu"):
        y = go.zeros(37, go.f64)
        _fresh_special()[37](go.array(x), y)
        np.testing.assert_allclose(y.numpy(), _expected_special(x), rtol=1e-12)
    cpu_loader.wait_for_links()
    (artifact,) = _cached_artifacts(tmp_path)
    assert cpu_loader.is_shared_object(artifact)  # the object was replaced by its library
    with go.on("cpu"):  # a new kernel object in this process: a disk hit, from the library
        before = go.stats().disk_cache_hits
        y = go.zeros(37, go.f64)
        _fresh_special()[37](go.array(x), y)
        assert go.stats().disk_cache_hits == before + 1
        np.testing.assert_allclose(y.numpy(), _expected_special(x), rtol=1e-12)


def test_without_a_linker_the_cache_keeps_the_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    x = np.linspace(0.0, 3.0, 37)
    with go.on("cpu"):
        y = go.zeros(37, go.f64)
        _fresh_special()[37](go.array(x), y)
        np.testing.assert_allclose(y.numpy(), _expected_special(x), rtol=1e-12)
    cpu_loader.wait_for_links()
    (artifact,) = _cached_artifacts(tmp_path)
    assert artifact[:4] == b"\x7fELF" and not cpu_loader.is_shared_object(artifact)


def test_replace_artifact_only_replaces_what_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    module = _special_module()
    disk_cache.store("k", module, b"object")
    assert not disk_cache.replace_artifact(b"unknown", b"library")
    assert disk_cache.replace_artifact(b"object", b"library")
    hit = disk_cache.load("k")
    assert hit is not None and hit[1] == b"library"
    disk_cache.store("k", module, b"object")
    disk_cache._write("k", (module, b"newer", disk_cache._digest(b"newer")))  # another process won
    assert not disk_cache.replace_artifact(b"object", b"library")
    hit = disk_cache.load("k")
    assert hit is not None and hit[1] == b"newer"


def test_a_library_that_does_not_load_is_recompiled_for_the_jit() -> None:
    module = _special_module()
    dev = cpu.open_device("cpu")
    good = cpu_loader.link_shared(dev.build(module))
    assert good is not None
    broken = good[:64] + bytes(len(good) - 64)  # an ELF header, nothing loadable behind it
    assert cpu_loader.is_shared_object(broken)
    _run_program(dev.load(module, broken), np.linspace(0.0, 3.0, 37))


def _run_program(program: Any, x: np.ndarray[Any, Any]) -> None:
    """Launch ``program`` (the ``special`` kernel) directly on the device."""
    dev = cpu.open_device("cpu")
    xs, ys = dev.allocate(x.nbytes), dev.allocate(x.nbytes)
    dev.copy_from_host(xs, 0, x, [])
    args = [ArrayArg(xs, 0, x.shape, (1,)), ArrayArg(ys, 0, x.shape, (1,))]
    dev.launch(program, args, (len(x), 1, 1), None, []).wait()
    out = np.empty_like(x)
    dev.copy_to_host(out, ys, 0, [])
    np.testing.assert_allclose(out, _expected_special(x), rtol=1e-12)


C_LIB = "long which(void) {{ return {value}; }}\n"


def _c_library(tmp_path: Path, value: int) -> bytes:
    """A shared library whose function ``which`` returns ``value``."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler to build a test library")
    src, out = tmp_path / f"v{value}.c", tmp_path / f"v{value}.so"
    src.write_text(C_LIB.format(value=value))
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(out), str(src)], check=True)
    return out.read_bytes()


def test_each_load_is_its_own_library(tmp_path: Path) -> None:
    # dlopen hands back an already loaded library for a path it has seen: libraries with the
    # same symbol (one kernel, two signatures) must never share a path
    images = [_c_library(tmp_path, v) for v in (1, 2, 3)]
    fn = ctypes.CFUNCTYPE(ctypes.c_long)
    got = [fn(cpu_loader.load_shared(image, "which"))() for image in images * 2]
    assert got == [1, 2, 3, 1, 2, 3]
    with pytest.raises(OSError):
        cpu_loader.load_shared(images[0], "missing_symbol")


def test_a_noexec_temporary_folder_falls_back_to_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cpu_loader._dlopen_image

    def noexec_tmp(image: bytes, parent: str | None) -> ctypes.CDLL:
        if parent is None:
            raise OSError("failed to map segment from shared object")
        return real(image, parent)

    monkeypatch.setattr(cpu_loader, "_dlopen_image", noexec_tmp)
    (tmp_path / "src").mkdir()
    image = _c_library(tmp_path / "src", 7)
    with pytest.raises(OSError):
        cpu_loader.load_shared(image, "which")
    fallback = tmp_path / "cache"
    address = cpu_loader.load_shared(image, "which", fallback)
    assert ctypes.CFUNCTYPE(ctypes.c_long)(address)() == 7
    assert list(fallback.iterdir()) == []  # mapped, then removed


def test_linker_commands_prefer_ld_and_fall_back_to_cc(monkeypatch: pytest.MonkeyPatch) -> None:
    tools = {"ld": "/bin/ld", "cc": "/bin/cc"}
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: tools.get(name))
    commands = cpu_loader.linker_commands("k.o", "k.so")
    assert [c[0] for c in commands] == ["/bin/ld", "/bin/cc"]
    assert all("-shared" in c and c[-1] == "-lm" for c in commands)
    del tools["ld"]
    assert [c[0] for c in cpu_loader.linker_commands("k.o", "k.so")] == ["/bin/cc"]
    tools.clear()
    assert cpu_loader.linker_commands("k.o", "k.so") == []
    assert cpu_loader.link_shared(b"\x7fELF") is None


def test_a_failing_linker_means_no_library() -> None:
    assert cpu_loader.link_shared(b"not an object file") is None
    assert not cpu_loader.is_shared_object(b"\x7fELF")
    assert not cpu_loader.is_shared_object(b"MZ" + bytes(30))
