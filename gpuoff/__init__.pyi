"""The public names of gpuoff, for type checkers (``__init__.py`` loads them lazily).

Keep in step with ``_PUBLIC`` in ``__init__.py`` (tests/unit/test_lazy_import.py checks).
"""

__version__: str

from gpuoff.errors import (
    BarrierError,
    BorrowError,
    BoundsError,
    CompileError,
    DeviceError,
    DTypeError,
    GpuoffError,
    LaunchConfigError,
    LaunchTypeError,
    OutOfMemoryError,
    UseAfterMoveError,
)
from gpuoff.lang import (
    Array,
    Borrow,
    BorrowMut,
    DeviceFunction,
    Owned,
    atomic_add,
    atomic_max,
    atomic_min,
    barrier,
    boolean,
    ceil,
    cos,
    erf,
    exp,
    f16,
    f32,
    f64,
    floor,
    fma,
    func,
    global_id,
    global_size,
    group_id,
    i8,
    i16,
    i32,
    i64,
    isinf,
    isnan,
    local_id,
    local_size,
    log,
    log2,
    num_groups,
    pow,
    rsqrt,
    shared,
    sin,
    sqrt,
    tan,
    tanh,
    u8,
    u16,
    u32,
    u64,
)
from gpuoff.lang import fabs as abs  # noqa: A001 - go.abs mirrors the builtin
from gpuoff.lang import maximum as max  # noqa: A001
from gpuoff.lang import minimum as min  # noqa: A001
from gpuoff.runtime import (
    Buffer,
    DeviceInfo,
    Kernel,
    Launch,
    Stats,
    array,
    asarray,
    empty,
    from_dlpack,
    full,
    kernel,
    on,
    reset_stats,
    set_device,
    synchronize,
    zeros,
)
from gpuoff.runtime.devices import devices
from gpuoff.runtime.stats import stats

__all__ = [
    "Array", "BarrierError", "Borrow", "BorrowMut", "BorrowError", "BoundsError", "CompileError",
    "DeviceError", "DeviceFunction", "DTypeError", "GpuoffError", "LaunchConfigError",
    "LaunchTypeError", "OutOfMemoryError", "Owned",
    "UseAfterMoveError", "abs", "atomic_add", "atomic_max", "atomic_min", "barrier", "boolean",
    "ceil", "cos", "erf", "exp", "f16", "f32", "f64", "floor", "fma", "func", "global_id",
    "global_size", "group_id", "i8", "i16", "i32", "i64", "isinf", "isnan", "local_id",
    "local_size", "log", "log2", "max", "min", "num_groups", "pow", "rsqrt", "shared", "sin",
    "sqrt", "tan", "tanh", "u8", "u16", "u32", "u64",
    # runtime
    "Buffer", "DeviceInfo", "Kernel", "Launch", "Stats", "array", "asarray", "devices", "empty",
    "from_dlpack", "full", "kernel", "on", "reset_stats", "set_device", "stats", "synchronize",
    "zeros",
]  # fmt: skip
