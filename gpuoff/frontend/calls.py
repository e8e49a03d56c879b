"""Call lowering: casts, builtins, work-item intrinsics, math, atomics, device functions."""

from __future__ import annotations

import ast
import inspect
from typing import Any

from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import LowererBase
from gpuoff.frontend.irutil import Val, truth
from gpuoff.frontend.resolve import Resolved, describe
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.lang import DeviceFunction
from gpuoff.ownership import Access, borrow_write_message


class _Default:
    """A device-function parameter's default value, used when the call leaves it out."""

    def __init__(self, value: object) -> None:
        self.value = value


_CAST_BUILTINS = {"int": T.i64, "float": T.f64}


class CallMixin(LowererBase):
    """Lowers ``ast.Call`` by what the callee resolves to (by identity, never by name)."""

    def call(self, node: ast.Call, as_stmt: bool) -> Val | None:
        """Lower a call; ``None`` only for a device function returning nothing (``as_stmt``)."""
        for a in node.args:
            if isinstance(a, ast.Starred):
                self.fail(a, "starred arguments (*args) are not supported in kernels")
        func = node.func
        if isinstance(func, ast.Attribute):
            array = self.array_of(func.value)
            if array is not None:
                self.fail(func, f"method call .{func.attr}() on array {array.name!r} is not "
                                "supported in kernels")  # fmt: skip
        res = self.static(func)
        if res is None:
            self.fail(func, f"{ast.unparse(func)!r} is a variable, not a function; only gpuoff "
                            "intrinsics, math functions, builtins and @go.func device "
                            "functions can be called")  # fmt: skip
        kind = res.kind
        if kind == "device":
            return self._device_call(node, res, as_stmt)
        if node.keywords:
            kw = node.keywords[0]
            msg = "keyword arguments are only supported in calls to device functions"
            self.fail(kw.value if kw.arg else node, msg)
        if kind == "dtype":
            assert res.dtype is not None
            return self._cast(node, res.dtype)
        if kind == "builtin":
            return self._builtin(node, res.name)
        if kind == "intrinsic":
            return self._intrinsic(node, res.name)
        if kind == "math":
            return self.math(node, res.name, [self.expr(a) for a in node.args], res.float_result)
        if kind == "atomic":
            return self._atomic(node, res.name)
        if kind == "barrier":
            self.fail(node, "go.barrier() is a statement; it has no value")
        if kind == "shared":
            self.fail(node, "go.shared(...) must be assigned directly to a variable: "
                            "s = go.shared(shape, dtype)")  # fmt: skip
        if getattr(res.value, "pyfunc", None) is not None:
            self.fail(func, "a kernel cannot be called from a kernel; declare the helper with "
                            "@go.func to call it")  # fmt: skip
        self.fail(
            func,
            f"calling {describe(res.value)} is not supported in kernels: only gpuoff "
            "intrinsics, math functions, builtins and @go.func device functions can be called",
        )

    def _nargs(self, node: ast.Call, n: int, what: str) -> None:
        if len(node.args) != n:
            self.fail(node, f"{what} takes {n} argument{'s' if n != 1 else ''}, "
                            f"got {len(node.args)}")  # fmt: skip

    def _cast(self, node: ast.Call, t: T.ScalarType) -> Val:
        self._nargs(node, 1, f"the cast to {t}")
        v = self.expr(node.args[0])
        if t.is_bool:
            return Val(truth(v.expr))
        return Val(self.coerce(v, t, node))

    def _builtin(self, node: ast.Call, name: str) -> Val:
        if name in _CAST_BUILTINS:
            return self._cast(node, _CAST_BUILTINS[name])
        if name == "bool":
            return self._cast(node, T.boolean)
        if name == "len":
            self._nargs(node, 1, "len()")
            array = self.array_of(node.args[0])
            if array is None:
                self.fail(node.args[0], "len() is only supported on arrays")
            return self.shape_of(array, 0, node)
        if name == "abs":
            self._nargs(node, 1, "abs()")
            return self.math(node, "abs", [self.expr(node.args[0])], False)
        if name == "pow":
            self._nargs(node, 2, "pow()")  # pow(a, b) is a ** b (no three-argument form)
            return self.binop("pow", self.expr(node.args[0]), self.expr(node.args[1]), node)
        if name in ("min", "max"):
            if len(node.args) < 2:
                self.fail(node, f"{name}() in kernels takes two or more numbers")
            args = [self.expr(a) for a in node.args]
            acc = self.math(node, name, args[:2], False)
            for extra in args[2:]:
                acc = self.math(node, name, [acc, extra], False)
            return acc
        self.fail(node, "range() can only be used as the iterable of a for loop")

    def _intrinsic(self, node: ast.Call, name: str) -> Val:
        self._nargs(node, 1, f"go.{name}()")
        dim = self.static_int(node.args[0], f"the dimension of go.{name}()")
        if not 0 <= dim <= 2:
            self.fail(node.args[0], f"the dimension of go.{name}() must be 0, 1 or 2, got {dim}")
        return Val(N.WorkItem(T.INDEX, name, dim, loc=self.loc(node)))

    def math(self, node: ast.Call, name: str, args: list[Val], float_result: bool) -> Val:
        """A math function call (R8); ``float_result`` forces a float (``math.fabs``)."""
        if float_result:
            args = [Val(self.coerce(a, R.float_of(a.vtype).type, node), a.weak) for a in args]
        arg_t, res_t = self.rule(node, lambda: R.math_call(name, [a.vtype for a in args]))
        cast_args = tuple(self.coerce(a, arg_t.type, node) for a in args)
        return Val(N.MathCall(res_t.type, name, cast_args, loc=self.loc(node)), res_t.weak)

    def writable_array(self, node: ast.expr, what: str) -> N.ArrayRef:
        """The array named by ``node``, which must allow writes (not a ``Borrow``)."""
        array = self.array_of(node)
        if array is None:
            self.fail(node, f"{what} needs an array, got {ast.unparse(node)!r}")
        if not array.type.access.writes:
            self.fail(node, borrow_write_message(array.name))
        return array

    def _atomic(self, node: ast.Call, op: str) -> Val:
        self._nargs(node, 3, f"go.atomic_{op}()")
        arr_node, idx_node, val_node = node.args
        array = self.writable_array(arr_node, f"go.atomic_{op}()")
        self.rule(node, lambda: R.atomic(op, array.type.dtype))
        fake = ast.Subscript(value=arr_node, slice=idx_node, ctx=ast.Load())
        ast.copy_location(fake, idx_node)
        idx = self.indices(fake, array)
        value = self.coerce(self.expr(val_node), array.type.dtype, val_node)
        check = self.add_check(node, array)
        return Val(N.AtomicRMW(array.type.dtype, op, array, idx, value, check,
                               loc=self.loc(node)))  # fmt: skip

    def _device_call(self, node: ast.Call, res: Resolved, as_stmt: bool) -> Val | None:
        fn = res.value
        assert isinstance(fn, DeviceFunction)
        arg_nodes = self._bind(node, fn)
        args: list[Val | N.ArrayRef] = []
        for a_node in arg_nodes:
            if isinstance(a_node, _Default):
                args.append(self.constant(a_node.value, node))
                continue
            array = self.array_of(a_node)
            args.append(array if array is not None else self.expr(a_node))
        where = [n if isinstance(n, ast.expr) else node for n in arg_nodes]
        callee = self.ctx.specialize(fn, args, where, node, self.src)
        ir_args: list[N.Expr | N.ArrayRef] = []
        for arg, arg_node, (pname, ptype) in zip(args, where, callee.params, strict=True):
            if isinstance(arg, N.ArrayRef):
                ir_args.append(arg)
            else:
                assert isinstance(ptype, T.ScalarType), pname
                ir_args.append(self.coerce(arg, ptype, arg_node))
        if callee.return_type is None and not as_stmt:
            self.fail(node, f"device function {fn.__name__!r} returns nothing; its call cannot "
                            "be used as a value")  # fmt: skip
        rtype = callee.return_type or T.boolean
        call = N.Call(rtype, callee.ir_name, tuple(ir_args), loc=self.loc(node))
        return Val(call, callee.weak_return)

    def _bind(self, node: ast.Call, fn: DeviceFunction[Any, Any]) -> list[ast.expr | _Default]:
        """Match a call's positional and keyword arguments (and defaults) to parameters."""
        params = list(inspect.signature(fn.pyfunc).parameters.values())
        names = [p.name for p in params]
        if len(node.args) > len(params):
            self.fail(node, f"device function {fn.__name__!r} takes {len(params)} argument(s), "
                            f"got {len(node.args)}")  # fmt: skip
        slots: list[ast.expr | _Default | None] = [*node.args]
        slots += [None] * (len(params) - len(slots))
        for kw in node.keywords:
            if kw.arg is None:
                self.fail(kw.value, "**kwargs in a call is not supported in kernels")
            if kw.arg not in names:
                self.fail(kw.value, f"{fn.__name__}() has no parameter {kw.arg!r}")
            k = names.index(kw.arg)
            if slots[k] is not None:
                self.fail(kw.value, f"{fn.__name__}() got two values for {kw.arg!r}")
            slots[k] = kw.value
        out: list[ast.expr | _Default] = []
        for p, slot in zip(params, slots, strict=True):
            if slot is None:
                if p.default is inspect.Parameter.empty:
                    self.fail(node, f"{fn.__name__}() is missing the argument {p.name!r}")
                slot = _Default(p.default)
            out.append(slot)
        return out

    def shared_decl(self, target: ast.Name, node: ast.Call) -> N.SharedArray:
        """``target = go.shared(shape, dtype)`` in a kernel: a work-group local array."""
        if not self.spec.is_kernel:
            self.fail(node, "go.shared(...) can only be used in a kernel, not a device function")
        if len(node.args) == 1 and len(node.keywords) == 1 and node.keywords[0].arg == "dtype":
            shape_node, dtype_node = node.args[0], node.keywords[0].value
        else:
            if node.keywords:
                self.fail(node, "go.shared takes (shape, dtype)")
            self._nargs(node, 2, "go.shared()")
            shape_node, dtype_node = node.args
        shape = self.static_value(shape_node)
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        if not (
            isinstance(shape, tuple)
            and shape
            and all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in shape)
        ):
            self.fail(shape_node, "shape of go.shared must be a compile-time constant (a positive "
                                  "int or a tuple of them)")  # fmt: skip
        from gpuoff.frontend.signature import scalar_of

        dtype = scalar_of(self.static_value(dtype_node))
        if dtype is None:
            self.fail(dtype_node, "the dtype of go.shared must be a gpuoff scalar type (go.f32)")
        name = target.id
        if name in self.arrays or self.is_local_scalar_assigned(name):
            self.fail(target, f"{name!r} is already a variable; a shared array needs its own name")
        atype = T.ArrayType(dtype, len(shape), True, T.AddressSpace.SHARED, Access.BORROW_MUT,
                            tuple(int(s) for s in shape))  # fmt: skip
        self.arrays[name] = N.ArrayRef(name, atype)
        decl = N.SharedArray(name, atype, loc=self.loc(node))
        self.shared.append(decl)
        return decl

    def is_local_scalar_assigned(self, name: str) -> bool:
        return self.local_type(name) is not None
