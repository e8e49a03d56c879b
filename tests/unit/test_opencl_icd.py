"""The OpenCL driver set-up: drivers installed into the environment become visible to the ICD
loader, and a driver that cannot build programs for this CPU is listed as unavailable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gpuoff.runtime.devices import opencl_icd


class _Named:
    def __init__(self, **fields: str) -> None:
        self.__dict__.update(fields)


class _FakeCL:
    """Just enough of pyopencl for ``build_failure``: builds fail with ``error`` if set."""

    class CompilerWarning(UserWarning):
        pass

    def __init__(self, error: str = "") -> None:
        self.error = error
        self.builds = 0

    def Context(self, devices: list[Any]) -> object:  # noqa: N802 - pyopencl's name
        return object()

    def Program(self, context: object, source: str) -> Any:  # noqa: N802
        outer = self

        class _Program:
            def build(self, devices: list[Any]) -> None:
                outer.builds += 1
                if outer.error:
                    raise RuntimeError(f"clBuildProgram failed\n{outer.error}")

        return _Program()


def _pair(driver: str) -> tuple[_Named, _Named]:
    platform = _Named(name="Fake CL", version="OpenCL 3.0 fake")
    device = _Named(name="fake cpu", version="OpenCL 3.0", driver_version=driver)
    return platform, device


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(opencl_icd, "_verdicts", {})


def test_a_driver_that_cannot_build_is_unusable_with_its_own_reason() -> None:
    cl = _FakeCL(error="error: unknown target CPU 'generic'\nmore lines")
    reason = opencl_icd.build_failure(cl, *_pair("1.0"))
    assert reason == ("its driver cannot build OpenCL programs on this CPU "
                      "(error: unknown target CPU 'generic')")  # fmt: skip


def test_a_driver_that_builds_is_usable() -> None:
    assert opencl_icd.build_failure(_FakeCL(), *_pair("1.0")) == ""


def test_the_verdict_is_kept_on_disk_per_driver(tmp_path: Path) -> None:
    failing = _FakeCL(error="error: nope")
    reason = opencl_icd.build_failure(failing, *_pair("1.0"))
    entries = list((tmp_path / "cache" / "opencl-probe").glob("*.json"))
    assert [json.loads(e.read_text())["failure"] for e in entries] == [reason]
    opencl_icd._verdicts.clear()  # a new process: only the disk remembers
    healthy = _FakeCL()
    assert opencl_icd.build_failure(healthy, *_pair("1.0")) == reason
    assert healthy.builds == 0
    # another driver version is probed anew
    assert opencl_icd.build_failure(healthy, *_pair("2.0")) == ""
    assert healthy.builds == 1


def test_a_corrupt_verdict_on_disk_is_probed_again(tmp_path: Path) -> None:
    opencl_icd.build_failure(_FakeCL(), *_pair("1.0"))
    (entry,) = (tmp_path / "cache" / "opencl-probe").glob("*.json")
    entry.write_text("{not json")
    opencl_icd._verdicts.clear()
    cl = _FakeCL()
    assert opencl_icd.build_failure(cl, *_pair("1.0")) == ""
    assert cl.builds == 1
    # valid JSON with another verdict than the one stored (a flipped byte): probed again too
    entry.write_text(entry.read_text().replace('"failure": ""', '"failure": "x"'))
    opencl_icd._verdicts.clear()
    assert opencl_icd.build_failure(cl, *_pair("1.0")) == ""
    assert cl.builds == 2


_PREPARE = textwrap.dedent(
    """
    import os, sys
    from gpuoff.runtime.devices import opencl_icd
    opencl_icd.prepare()
    print(os.environ.get("OCL_ICD_VENDORS", ""))
    """
)


def _prepare_in_child(env: dict[str, str], prefix: Path) -> str:
    """Run ``prepare`` in a child whose ``sys.prefix`` looks like ``prefix``."""
    code = f"import sys; sys.prefix = {str(prefix)!r}\n" + _PREPARE
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)  # fmt: skip
    return out.stdout.strip()


def _fake_prefix(tmp_path: Path) -> Path:
    prefix = tmp_path / "venv"
    (prefix / "etc" / "OpenCL" / "vendors").mkdir(parents=True)
    (prefix / "lib").mkdir()
    (prefix / "lib" / "libfakeocl.so").write_bytes(b"")
    (prefix / "etc" / "OpenCL" / "vendors" / "fake.icd").write_text("/opt/x/lib/libfakeocl.so\n")
    (prefix / "etc" / "OpenCL" / "vendors" / "intel-fpga_emu.icd").write_text("libfpga.so\n")
    return prefix


def test_environment_drivers_are_handed_to_the_loader(tmp_path: Path) -> None:
    prefix = _fake_prefix(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("OCL_ICD_VENDORS", "GPUOFF_OPENCL_ICD")}
    env["GPUOFF_CACHE_DIR"] = str(tmp_path / "cache")
    folder = Path(_prepare_in_child(env, prefix))
    assert folder.is_relative_to(tmp_path / "cache")
    icds = {p.name: p.read_text() for p in folder.glob("env-*.icd")}
    # the library the ICD names, found where pip put it; the FPGA emulator left out
    assert icds == {"env-libfakeocl.icd": str(prefix / "lib" / "libfakeocl.so")}


def test_the_users_loader_configuration_wins(tmp_path: Path) -> None:
    prefix = _fake_prefix(tmp_path)
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), OCL_ICD_VENDORS="/mine")
    assert _prepare_in_child(env, prefix) == "/mine"
    env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
    env.update(GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_OPENCL_ICD="system")
    assert _prepare_in_child(env, prefix) == ""
