"""parse_signature: annotations -> ParamDecl (this file uses postponed annotations, so every
annotation here is a string the front end has to evaluate)."""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, LaunchTypeError, Owned, f32, i32
from gpuoff.frontend import ParamDecl, lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify
from gpuoff.ownership import Access


def k_all(
    a: f32,
    b: go.f64,
    c: i32,
    d: go.u8,
    e: float,
    f: int,
    g: bool,
    h: go.boolean,
    x: Borrow[Array[f32]],
    y: BorrowMut[Array[go.i64]],
    z: Owned[Array[np.float64]],  # type: ignore[type-var]
    w: Annotated[Borrow[Array[go.u32]], "meta"],
) -> None:
    pass


def test_parse_all_forms() -> None:
    decls = parse_signature(k_all)
    assert [d.name for d in decls] == list("abcdefghxyzw")
    assert decls[0] == ParamDecl("a", T.f32, None, False)
    assert [d.dtype for d in decls[:8]] == [
        T.f32, T.f64, T.i32, T.u8, T.f64, T.i64, T.boolean, T.boolean,
    ]  # fmt: skip
    assert decls[8] == ParamDecl("x", T.f32, Access.BORROW, True)
    assert decls[9] == ParamDecl("y", T.i64, Access.BORROW_MUT, True)
    assert decls[10] == ParamDecl("z", T.f64, Access.OWNED, True)
    assert decls[11] == ParamDecl("w", T.u32, Access.BORROW, True)


def test_decorated_objects_are_unwrapped() -> None:
    dev = go.func(k_all)
    assert parse_signature(dev) == parse_signature(k_all)

    class Wrapper:
        pyfunc = staticmethod(k_all)

    assert parse_signature(Wrapper()) == parse_signature(k_all)  # type: ignore[arg-type]


def k_no_wrapper(x: Array[f32]) -> None:
    pass


def k_missing(x) -> None:  # type: ignore[no-untyped-def]
    pass


def k_unknown(x: str) -> None:
    pass


def k_bad_element(x: Borrow[Array[float]]) -> None:  # type: ignore[type-var]
    pass


def k_bare_wrapper(x: Borrow) -> None:  # type: ignore[type-arg]
    pass


def k_varargs(*xs: f32) -> None:
    pass


def k_unresolvable(x: NotDefinedAnywhere) -> None:  # type: ignore[name-defined]  # noqa: F821
    pass


def k_wrapped_scalar(x: Borrow[f32]) -> None:
    pass


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (k_no_wrapper, "needs an ownership wrapper"),
        (k_missing, "has no type annotation"),
        (k_unknown, "unsupported type str"),
        (k_bad_element, "unknown array element type float"),
        (k_bare_wrapper, "needs an element"),
        (k_varargs, "only plain positional parameters"),
        (k_unresolvable, "cannot resolve annotation"),
        (k_wrapped_scalar, "must contain Array[T]"),
    ],
)
def test_bad_annotations(fn: Any, expected: str) -> None:
    with pytest.raises(LaunchTypeError) as info:
        parse_signature(fn)
    msg = str(info.value)
    assert expected in msg
    assert "parameter 'x'" in msg or "parameter 'xs'" in msg
    assert "Borrow[Array[T]]" in msg  # says what was expected
    assert isinstance(info.value, TypeError)


def test_closure_annotations_resolve() -> None:
    local_dtype = go.f64

    def k(x: BorrowMut[Array[local_dtype]]) -> None:  # type: ignore[valid-type]
        x[0] = local_dtype(1.0)

    # With postponed annotations the closure does not capture names used only in
    # annotations; the body's use of local_dtype makes it a closure cell here.
    assert parse_signature(k)[0].dtype == T.f64


def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def test_lower_with_postponed_annotations() -> None:
    arr = T.ArrayType(T.f32, 1)
    module = lower_kernel(saxpy, [T.f32, arr, arr])
    verify(module)
    params = module.kernel.params
    assert [p.name for p in params] == ["a", "x", "y"]
    assert params[1].type == T.ArrayType(T.f32, 1, access=Access.BORROW)
    assert params[2].type == T.ArrayType(T.f32, 1, access=Access.BORROW_MUT)
    assert module.kernel.is_kernel and module.kernel.return_type is None


def test_lower_rejects_mismatched_arg_types() -> None:
    arr = T.ArrayType(T.f32, 1)
    with pytest.raises(LaunchTypeError, match="expects an array of f32"):
        lower_kernel(saxpy, [T.f32, T.ArrayType(T.i32, 1), arr])
    with pytest.raises(LaunchTypeError, match="expects a f32 scalar"):
        lower_kernel(saxpy, [T.f64, arr, arr])
    with pytest.raises(LaunchTypeError, match="takes 3 argument"):
        lower_kernel(saxpy, [T.f32, arr])


def test_lower_takes_access_from_annotation_not_arg_type() -> None:
    wrong = T.ArrayType(T.f32, 1, contiguous=False, access=Access.OWNED)
    module = lower_kernel(saxpy, [T.f32, wrong, wrong])
    verify(module)
    assert module.kernel.params[1].type == T.ArrayType(T.f32, 1, False, access=Access.BORROW)
    assert isinstance(module.kernel.body[1], N.If)


def k_returns_int(x: Borrow[Array[f32]]) -> int:
    return 1


def test_kernel_return_annotation_must_be_none() -> None:
    with pytest.raises(go.CompileError, match="a kernel returns nothing"):
        lower_kernel(k_returns_int, [T.ArrayType(T.f32, 1)])
