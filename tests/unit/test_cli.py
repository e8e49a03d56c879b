"""The ``gpuoff`` command: signature syntax, ``show``, ``devices``, ``bench``, ``tour``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuoff import cli
from gpuoff.ir import types as T
from gpuoff.ownership import Access

ROOT = Path(__file__).resolve().parents[2]
SAXPY = str(ROOT / "examples" / "saxpy.py") + ":saxpy"
STENCIL = str(ROOT / "examples" / "stencil2d.py") + ":smooth"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f32", ("f32", 0, True)),
        ("float64", ("f64", 0, True)),
        ("bool", ("bool", 0, True)),
        ("f32[:]", ("f32", 1, True)),
        ("i32[:, :]", ("i32", 2, True)),
        ("u8[:,:,:]", ("u8", 3, True)),
        ("f32[::]", ("f32", 1, False)),
        ("f32[:, ::]", ("f32", 2, False)),
        ("f32[:, :]A", ("f32", 2, False)),
        ("f32[:, :]C", ("f32", 2, True)),
        ("f32[:, ::1]", ("f32", 2, True)),
    ],
)
def test_signature_entries(text: str, expected: tuple[str, int, bool]) -> None:
    assert cli.parse_sig_entry(text) == expected


def test_signature_splits_outside_brackets() -> None:
    assert cli.parse_sig("f32, f32[:, :], i64") == [
        ("f32", 0, True), ("f32", 2, True), ("i64", 0, True)]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f33", "unknown dtype 'f33'"),
        ("f32[1:2]", "bad dimensions"),
        ("f32[:,:,:,:,:,:,:,:,:]", "has 9 dimensions; gpuoff arrays have 1 to 8"),
        ("f32[:]B", "bad signature entry"),
        ("f32 x", "bad signature entry"),
    ],
)
def test_signature_errors(text: str, message: str) -> None:
    with pytest.raises(cli.CliError, match=message):
        cli.parse_sig_entry(text)


def test_arg_types_take_ownership_from_annotations() -> None:
    kernel = cli.load_object(STENCIL)
    types = cli.arg_types_for(kernel.pyfunc, "f32[:, ::], f32[:, :]")
    assert types == [T.ArrayType(T.f32, 2, False, access=Access.BORROW),
                     T.ArrayType(T.f32, 2, True, access=Access.BORROW_MUT)]  # fmt: skip


def test_arg_types_default_without_sig() -> None:
    kernel = cli.load_object(SAXPY)
    types = cli.arg_types_for(kernel.pyfunc, None)
    assert types[0] == T.f32
    assert types[2] == T.ArrayType(T.f32, 1, True, access=Access.BORROW_MUT)


@pytest.mark.parametrize(
    ("sig", "message"),
    [
        ("f32, f32[:]", "gives 2 types but the kernel has 3 parameters"),
        ("f64, f32[:], f32[:]", "declared with dtype f32 but --sig gives f64"),
        ("f32, f32, f32[:]", "needs an array"),
        ("f32[:], f32[:], f32[:]", "needs a scalar"),
    ],
)
def test_arg_types_mismatch(sig: str, message: str) -> None:
    kernel = cli.load_object(SAXPY)
    with pytest.raises(cli.CliError, match=message):
        cli.arg_types_for(kernel.pyfunc, sig)


def test_load_object_errors() -> None:
    with pytest.raises(cli.CliError, match="MODULE:KERNEL"):
        cli.load_object("examples/saxpy.py")
    with pytest.raises(cli.CliError, match="no such file"):
        cli.load_object("nowhere/none.py:k")
    with pytest.raises(cli.CliError, match="has no attribute 'nope'"):
        cli.load_object(str(ROOT / "examples" / "saxpy.py") + ":nope")
    with pytest.raises(cli.CliError, match="cannot import module"):
        cli.load_object("no_such_module_gpuoff:k")


def test_load_object_by_module_name() -> None:
    assert cli.load_object("gpuoff.bench.kernels:saxpy").__name__ == "saxpy"


def test_show_ir(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "--target", "ir", "--sig", "f32, f32[:], f32[:]"]) == 0
    out = capsys.readouterr().out
    assert "kernel saxpy(a: f32, x: Borrow[f32[1d,C]], y: BorrowMut[f32[1d,C]])" in out
    assert "global_id(0)" in out


def test_show_strided_and_no_boundscheck(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["show", STENCIL, "-t", "ir", "--sig", "f32[:, :]A, f32[:, :]", "--no-boundscheck"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "src: Borrow[f32[2d,A]]" in out and "boundscheck=False" in out


def test_show_llvm_is_optimised_and_vectorised(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "-t", "llvm", "--sig", "f32, f32[:], f32[:]"]) == 0
    out = capsys.readouterr().out
    assert "noalias" in out and "x float>" in out  # vector types after O3


def test_show_llvm_raw_is_not_optimised(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "-t", "llvm", "--raw"]) == 0
    assert "x float>" not in capsys.readouterr().out


def test_show_opencl(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "-t", "opencl"]) == 0
    out = capsys.readouterr().out
    assert "__kernel" in out and "restrict" in out


def test_show_ptx(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "-t", "ptx", "--sm", "90"]) == 0
    out = capsys.readouterr().out
    assert ".target sm_90" in out and ".entry" in out


def test_show_bad_sig_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "--sig", "f32, f32[:]"]) == 2
    err = capsys.readouterr().err
    assert "gpuoff show: error:" in err and "3 parameters (a, x, y)" in err


def test_show_compile_error_points_at_user_code(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "bad_kernel.py"
    src.write_text(
        "import gpuoff as go\n"
        "from gpuoff import Array, BorrowMut, f32\n\n"
        "@go.kernel\n"
        "def k(y: BorrowMut[Array[f32]]) -> None:\n"
        "    y[0] = [1.0][0]\n"
    )
    assert cli.main(["show", f"{src}:k", "--sig", "f32[:]"]) == 1
    err = capsys.readouterr().err
    assert "compile error" in err and "bad_kernel.py" in err and "line 6" in err and "^" in err


def test_devices_lists_every_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["devices"]) == 0
    lines = capsys.readouterr().out.split("\n\n", 1)[0].splitlines()  # the table
    assert lines[0].split()[:3] == ["device", "backend", "status"]
    backends = {line.split()[1] for line in lines[1:]}
    assert {"cpu", "opencl", "cuda"} <= backends
    cpu = next(line for line in lines if line.startswith("cpu "))
    assert "default" in cpu or "available" in cpu
    assert sum("default" in line.split()[2] for line in lines[1:]) == 1


def test_devices_shows_each_devices_launch_limits(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["devices"]) == 0
    out = capsys.readouterr().out
    limits = out.split("limits of one launch", 1)[1]
    cpu = next(line for line in limits.splitlines() if line.split()[:1] == ["cpu"])
    assert "8192 work-items per work-group" in cpu and "1 MiB of shared memory" in cpu


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    assert "devices" in capsys.readouterr().out


def test_bench_unknown_name_fails_fast(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--only", "nosuch"]) == 1
    assert "unknown benchmark(s) nosuch" in capsys.readouterr().err


def test_bench_quick_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    argv = ["bench", "--quick", "--only", "saxpy,launch", "--json", str(out), "--no-progress"]
    assert cli.main(argv) == 0
    table = capsys.readouterr().out
    assert "saxpy" in table and "C/OpenMP" in table and "GB/s" in table
    doc = json.loads(out.read_text())
    rows = {r["kernel"]: r for r in doc["rows"]}
    assert set(rows) == {"saxpy", "launch"}
    assert rows["saxpy"]["baselines"]["C/OpenMP"]["ratio"] > 0
    assert rows["saxpy"]["gpuoff_rate"] > 0
    assert len(rows["launch"]["gpuoff_samples_s"]) >= 5
    assert "ctypes call" in rows["launch"]["baselines"]


def test_bench_plot_without_matplotlib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    argv = ["bench", "--quick", "--only", "launch", "--plot", str(tmp_path / "p.png"),
            "--no-progress"]  # fmt: skip
    assert cli.main(argv) == 2  # refused before the run, not after it
    captured = capsys.readouterr()
    assert "needs matplotlib" in captured.err and "launch" not in captured.out


def test_tour_in_a_new_process(tmp_path: Path) -> None:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path), GPUOFF_DEVICE="cpu")
    proc = subprocess.run([sys.executable, "-m", "gpuoff"], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "tour on device 'cpu'" in proc.stdout
    assert proc.stdout.count("  ok   ") == 3
    assert "all results match NumPy." in proc.stdout


def test_console_script_help() -> None:
    exe = Path(sys.executable).with_name("gpuoff")
    if not exe.exists():
        pytest.skip("console script not installed in this environment")
    proc = subprocess.run([str(exe), "show", "--help"], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert "f32[:, ::]" in proc.stdout  # the signature syntax is documented in --help
