"""Generic kernels in the front end and at launch: dtype variables (``go.DTypeVar``),
compile-time parameters (``go.Const``), device functions as parameters; their errors."""

from __future__ import annotations

import pickle
from typing import Any, TypeVar

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const
from gpuoff.frontend import lower_specialised, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ownership import Access
from tests.unit.frontend_lower_support import walk
from tests.unit.generic_support import F, add, bigger, block_sum, fold, group_reduce, scaled
from tests.unit.generic_support import T as TV


def _arr(dtype: T.ScalarType, access: Access = Access.BORROW) -> T.ArrayType:
    return T.ArrayType(dtype, 1, True, access=access)


def _block_sum(dtype: T.ScalarType, block: int) -> N.Module:
    return lower_specialised(block_sum.pyfunc, [_arr(dtype), _arr(dtype, Access.BORROW_MUT)],
                             {TV: dtype}, {"block": block})  # fmt: skip


def test_generic_declarations() -> None:
    decls = parse_signature(block_sum.pyfunc)
    assert [d.var for d in decls] == [TV, TV, None]
    assert [d.const for d in decls] == ["", "", "int"]
    fd = parse_signature(fold.pyfunc)
    assert fd[2].var is TV and not fd[2].is_array and fd[3].const == "func"
    sd = parse_signature(scaled.pyfunc)
    assert [d.const for d in sd] == ["", "", "", "int", "bool"]


@pytest.mark.parametrize(("dtype", "block"), [(T.f32, 64), (T.f64, 128), (T.i32, 32)])
def test_one_source_many_specialisations(dtype: T.ScalarType, block: int) -> None:
    module = _block_sum(dtype, block)
    params = module.kernel.params
    assert [p.name for p in params] == ["x", "out"]  # the Const is no run-time parameter
    assert all(isinstance(p.type, T.ArrayType) and p.type.dtype == dtype for p in params)
    (tile,) = module.kernel.shared
    assert tile.type.dtype == dtype and tile.type.static_shape == (block,)
    # the generic device function is specialised for the binding too
    (fn,) = module.functions
    assert [p.type for p in fn.params] == [dtype, dtype] and fn.return_type == dtype
    # block // 2 is folded to a constant: no parameter named block exists
    names = {e.name for e in walk(module.kernel.body) if isinstance(e, N.Var)}
    assert "block" not in names


def test_const_bounds_and_unrolling() -> None:
    types: list[T.ScalarType | T.ArrayType] = [_arr(T.f32), _arr(T.f32, Access.BORROW_MUT), T.f32]
    module = lower_specialised(scaled.pyfunc, types, {F: T.f32}, {"taps": 3, "flip": False})
    (acc,) = module.kernel.private
    assert acc.type.static_shape == (3,) and acc.type.dtype == T.f32
    loops = [s for s in walk(module.kernel.body) if isinstance(s, N.ForRange)]
    assert loops and all(isinstance(lp.stop, N.Const) and lp.stop.value == 3 for lp in loops)


def test_device_function_parameter_is_inlined_per_function() -> None:
    types: list[T.ScalarType | T.ArrayType] = [_arr(T.i32), _arr(T.i32, Access.BORROW_MUT), T.i32]
    m_add = lower_specialised(fold.pyfunc, types, {TV: T.i32}, {"op": add})
    m_max = lower_specialised(fold.pyfunc, types, {TV: T.i32}, {"op": bigger})
    assert [f.name for f in m_add.functions] == ["add__i32_i32"]
    assert [f.name for f in m_max.functions] == ["bigger__i32_i32"]
    assert [p.name for p in m_add.kernel.params] == ["x", "out", "init"]


def test_device_function_const_parameters() -> None:
    """A device function's go.Const parameters take compile-time arguments (a kernel's own
    go.Const parameters, numbers, device functions); each value is its own specialisation."""
    types: list[T.ScalarType | T.ArrayType] = [_arr(T.f32), _arr(T.f32, Access.BORROW_MUT)]
    module = lower_specialised(group_reduce.pyfunc, types, {TV: T.f32}, {"block": 16, "op": bigger})
    names = sorted(f.name for f in module.functions)
    assert names == ["bigger__f32_f32"]  # tree reaches a barrier: inlined into the kernel
    consts = [e.value for e in walk(module.kernel.body) if isinstance(e, N.Const)]
    assert 8 in consts  # n // 2 with n = 16, folded


@go.func
def takes_const(v: go.f32, n: Const[int]) -> go.f32:
    return v * n


@go.kernel
def passes_a_variable(x: BorrowMut[Array[go.f32]], k: int) -> None:
    x[0] = takes_const(x[0], k)


def test_device_const_needs_a_constant() -> None:
    with pytest.raises(go.CompileError, match="parameter 'n' of 'takes_const' is a go.Const"):
        lower_specialised(passes_a_variable.pyfunc, [_arr(T.f32, Access.BORROW_MUT), T.i64], {},
                          {})  # fmt: skip


# -- errors in the front end -------------------------------------------------------------------

def _var(name: str) -> Any:
    return go.DTypeVar(name)


W = _var("W")  # (made out of the type checker's sight: the kernel misuses it on purpose)


def unbound_in_body(x: BorrowMut[Array[go.f32]]) -> None:  # (no @go.kernel: lowered directly)
    x[0] = W


@go.kernel
def assigns_const(x: BorrowMut[Array[go.f32]], n: Const[int]) -> None:
    n = 3
    x[0] = n


@go.func
def mix(a: TV, b: Borrow[Array[TV]]) -> TV:
    return a + b[0]


@go.kernel
def mixes(x: Borrow[Array[go.f32]], y: BorrowMut[Array[go.f64]]) -> None:
    y[0] = mix(y[0], x)


def test_unbound_variable_in_a_body() -> None:
    with pytest.raises(go.CompileError, match="dtype variable W, which no parameter"):
        lower_specialised(unbound_in_body, [_arr(T.f32, Access.BORROW_MUT)], {}, {})


def test_assigning_a_const_parameter() -> None:
    with pytest.raises(go.CompileError, match="assigns to the go.Const parameter 'n'"):
        lower_specialised(assigns_const.pyfunc, [_arr(T.f32, Access.BORROW_MUT)], {}, {"n": 2})


def test_conflicting_binding_in_a_device_call() -> None:
    with pytest.raises(go.CompileError, match=r"call of 'mix': T is f64 from parameter 'a' but "
                                              r"f32 from parameter 'b'") as info:  # fmt: skip
        lower_specialised(mixes.pyfunc, [_arr(T.f32), _arr(T.f64, Access.BORROW_MUT)], {}, {})
    assert info.value.location is not None and "mix(y[0], x)" in info.value.location.text


def test_const_of_another_type() -> None:
    def k(x: BorrowMut[Array[go.f32]], s: Const[str]) -> None:
        x[0] = 1

    with pytest.raises(go.LaunchTypeError, match="parameter 's'.*go.Const takes int, bool"):
        parse_signature(k)


def test_lowering_without_a_binding() -> None:
    with pytest.raises(go.LaunchTypeError, match="dtype variable of parameter 'x' is not bound"):
        lower_specialised(block_sum.pyfunc, [_arr(T.f32), _arr(T.f32, Access.BORROW_MUT)], {},
                          {"block": 4})  # fmt: skip


def test_dtype_var_arguments() -> None:
    with pytest.raises(TypeError, match="constraints are gpuoff dtypes"):
        not_a_dtype: Any = float
        go.DTypeVar("X", go.f32, not_a_dtype)
    with pytest.raises(TypeError, match="at least two"):
        go.DTypeVar("X", go.f32)
    with pytest.raises(RuntimeError, match="only inside a kernel"):
        tv: Any = TV
        tv(0)
    assert repr(F) == "~F" and pickle.loads(pickle.dumps(F)).__constraints__ == (go.f32, go.f64)


# -- launches (cpu) ----------------------------------------------------------------------------


def _spec_tags(kernel: Any) -> list[str]:
    return sorted(child._spec_tag for child in kernel._spec.children.values())


def test_specialisations_are_made_once_per_key() -> None:
    with go.on("cpu"):
        for dtype in (np.float32, np.int64, np.float32):
            x = np.arange(16, dtype=dtype)
            out = np.zeros(2, dtype)
            block_sum[16, (8,)](x, out, 8)
            np.testing.assert_array_equal(out, x.reshape(2, 8).sum(1))
        block_sum[16, (4,)](np.ones(16, np.float32), np.zeros(4, np.float32), 4)
    tags = _spec_tags(block_sum)
    assert ",spec[T=f32;block=8]" in tags and ",spec[T=i64;block=8]" in tags
    assert ",spec[T=f32;block=4]" in tags and len(tags) == len(set(tags))


def test_python_numbers_bind_only_what_nothing_else_binds() -> None:
    with go.on("cpu"):
        x = np.array([1.5, 2.5], np.float32)
        out = np.zeros(1, np.float32)
        fold[1](x, out, 1.0, add)  # T is f32 from x; 1.0 converts
        assert out[0] == np.float32(5.0)
        fold[1](np.array([3, 9, 2], np.int16), o16 := np.zeros(1, np.int16), np.int16(4), bigger)
        assert o16[0] == 9
    assert any("op=tests.unit.generic_support.bigger#" in t for t in _spec_tags(fold))


def _launch_error(fn: Any) -> str:
    with go.on("cpu"), pytest.raises(go.LaunchTypeError) as info:
        fn()
    return str(info.value)


def test_inconsistent_binding_points_at_the_def() -> None:
    msg = _launch_error(lambda: block_sum[8, (8,)](np.ones(8, np.float32), np.zeros(1), 8))
    assert "block_sum(): parameter 'out' binds T to f64, but parameter 'x' bound it to f32" in msg
    assert "generic_support.py" in msg and "out: BorrowMut[Array[T]]" in msg and "^^^" in msg


def test_dtype_outside_the_constraints() -> None:
    x = np.ones(4, np.int32)
    msg = _launch_error(lambda: scaled[4](x, x.copy(), 1, 2, False))
    assert "parameter 'x' binds F to i32, which is not one of go.f32, go.f64" in msg


def test_wrong_const_values() -> None:
    x = np.ones(4, np.float32)
    k: Any = block_sum  # (wrong on purpose: out of the type checker's sight)
    msg = _launch_error(lambda: k[4, (4,)](x, x.copy(), 4.0))
    assert "parameter 'block' expects a compile-time int (go.Const), got float 4.0" in msg
    msg = _launch_error(lambda: scaled[4](x, x.copy(), 1.0, True, False))
    assert "parameter 'taps' expects a compile-time int" in msg
    f: Any = fold
    msg = _launch_error(lambda: f[1](x, x.copy(), 0.0, max))
    assert "parameter 'op' expects a @go.func device function" in msg


def test_keyword_arguments_and_pickling() -> None:
    with go.on("cpu"):
        x = np.arange(8, dtype=np.float64)
        y = np.zeros(8)
        scaled[8](x, y, flip=True, taps=2, a=0.5)
        np.testing.assert_array_equal(y, -x)
    again = pickle.loads(pickle.dumps(block_sum))
    assert again is block_sum


def test_gpuoff_show_binds_from_sig(capsys: pytest.CaptureFixture[str]) -> None:
    from gpuoff import cli

    spec = "tests.unit.generic_support:block_sum"
    assert cli.main(["show", spec, "--sig", "f64[:], f64[:], 64"]) == 0
    out = capsys.readouterr().out
    assert "add__f64_f64" in out and "shared tile: shared BorrowMut[f64[1d,C]] (64,)" in out
    fold_spec = "tests.unit.generic_support:fold"
    sig = "i16[:], i16[:], i16, tests.unit.generic_support:bigger"
    assert cli.main(["show", fold_spec, "--sig", sig, "-t", "opencl"]) == 0
    assert "bigger" in capsys.readouterr().out
    assert cli.main(["show", spec]) == 2
    assert "a generic kernel needs --sig" in capsys.readouterr().err
    assert cli.main(["show", spec, "--sig", "f32[:], f64[:], 64"]) == 2
    assert "binds T to f64, but an earlier one bound it to f32" in capsys.readouterr().err
    assert cli.main(["show", spec, "--sig", "f32[:], f32[:], 6.5"]) == 2
    assert "is a go.Const[int]" in capsys.readouterr().err


FT = TypeVar("FT", go.f32, go.f64)  # a plain typing.TypeVar over gpuoff dtypes works too


@go.kernel
def negate(x: Borrow[Array[FT]], y: BorrowMut[Array[FT]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        y[i] = -x[i] * type(x[0])(2)


def test_a_typing_typevar_is_a_dtype_variable() -> None:
    with go.on("cpu"):
        for dtype in (np.float32, np.float64):
            x = np.arange(5, dtype=dtype)
            y = np.zeros_like(x)
            negate[5](x, y)
            np.testing.assert_array_equal(y, -2 * x)
        msg = _launch_error(lambda: negate[5](np.arange(5), np.zeros(5, np.int64)))
    assert "parameter 'x' binds FT to i64, which is not one of go.f32, go.f64" in msg
