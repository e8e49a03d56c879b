"""What of an OpenCL build log is a diagnostic (``opencl_program.driver_messages``)."""

from __future__ import annotations

import pytest

from gpuoff.runtime.devices.opencl_program import driver_messages


@pytest.mark.parametrize(
    "line",
    [
        "Compilation started", "Compilation done", "Linking started", "Linking done",
        "Device build started", "Device build done", "Done.",
        "Options used by backend compiler: -cl-std=CL1.2",
        'Kernel "saxpy" was successfully vectorized (16)',
        # Intel's CPU runtime, for some kernels on a busy machine: a remark, not a problem
        'Kernel "block_sum" was not vectorized',
        "remark: loop not vectorized",
    ],
)
def test_progress_and_optimisation_remarks_are_not_diagnostics(line: str) -> None:
    assert driver_messages(f"{line}\n") == ""


def test_warnings_and_errors_are_kept() -> None:
    log = ('Compilation started\n<kernel>:3:5: warning: unused variable "t"\n'
           'Kernel "k" was not vectorized\n<kernel>:9:1: error: expected ";"\nDone.\n')  # fmt: skip
    kept = ['<kernel>:3:5: warning: unused variable "t"', '<kernel>:9:1: error: expected ";"']
    assert driver_messages(log).splitlines() == kept
