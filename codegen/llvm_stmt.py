"""Statement lowering: structured IR statements -> LLVM basic blocks."""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from codegen.llvm_base import I1, I64, Lowering, llvm_type, memory_type
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t


def lower_stmt(fl: Lowering, s: n.Stmt) -> None:
    """Lower one statement at ``fl.builder``'s position."""
    handler = _HANDLERS.get(type(s))
    if handler is None:
        raise NotImplementedError(f"LLVM lowering of {type(s).__name__}")
    handler(fl, s)


def _assign(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.Assign)
    fl.builder.store(fl.expr(s.value), fl.slots[s.target])


def store_value(fl: Lowering, st: t.ScalarType, value: ll.Value) -> ll.Value:
    """Register value -> in-memory representation (bool as one byte)."""
    return fl.builder.zext(value, memory_type(st)) if st.is_bool else value


def _store(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.Store)
    value = fl.expr(s.value)
    arr, ptr, ok = fl.element_pointer(s.array, s.indices, s.check)
    b = fl.builder
    mem = store_value(fl, arr.type.dtype, value)
    align = arr.type.dtype.itemsize
    if not fl.side_effects and arr.type.space is not t.AddressSpace.PRIVATE:
        return  # (a replay redoes private stores: gpuoff.ir.replay)
    if ok is None:
        b.store(mem, ptr, align=align)
        return
    # A conditional store: LLVM's vectoriser turns it into a masked store.
    with b.if_then(ok, likely=True):
        b.store(mem, ptr, align=align)


def _if(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.If)
    b = fl.builder
    cond = fl.expr(s.cond)
    then_bb = fl.new_block("if.then")
    else_bb = fl.new_block("if.else") if s.orelse else None
    end_bb = fl.new_block("if.end")
    b.cbranch(cond, then_bb, else_bb or end_bb)
    b.position_at_end(then_bb)
    fl.lower_body(s.body)
    fl.branch_if_open(end_bb)
    if else_bb is not None:
        b.position_at_end(else_bb)
        fl.lower_body(s.orelse)
        fl.branch_if_open(end_bb)
    b.position_at_end(end_bb)


def _widen(fl: Lowering, st: t.ScalarType, v: ll.Value) -> ll.Value:
    if st.bits == 64:
        return v
    return fl.builder.sext(v, I64) if st.is_signed else fl.builder.zext(v, I64)


def trip_count(b: ll.IRBuilder, start: ll.Value, stop: ll.Value, step: ll.Value) -> ll.Value:
    """Number of iterations of ``range(start, stop, step)`` on i64 (unsigned result, exact)."""
    zero = ll.Constant(I64, 0)
    one = ll.Constant(I64, 1)
    up = b.icmp_signed(">", step, zero)
    down = b.icmp_signed("<", step, zero)
    # step > 0: start < stop ? (stop - start - 1) / step + 1 : 0   (unsigned, no overflow)
    up_n = b.add(b.udiv(b.sub(b.sub(stop, start), one), b.select(up, step, one)), one)
    up_n = b.select(b.icmp_signed("<", start, stop), up_n, zero)
    neg = b.sub(zero, step)
    dn_n = b.add(b.udiv(b.sub(b.sub(start, stop), one), b.select(down, neg, one)), one)
    dn_n = b.select(b.icmp_signed(">", start, stop), dn_n, zero)
    return b.select(up, up_n, b.select(down, dn_n, zero))


def _for_range(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.ForRange)
    b = fl.builder
    st = fl.fn.locals[s.var]
    start = fl.expr(s.start)
    stop = fl.expr(s.stop)
    step = fl.expr(s.step)
    if st.is_signed:
        count = trip_count(b, _widen(fl, st, start), _widen(fl, st, stop), _widen(fl, st, step))
    else:
        # Unsigned: the step is positive (or zero); widen with zeros so order is kept.
        w0, w1, ws = (_widen(fl, st, v) for v in (start, stop, step))
        count = trip_count(b, w0, w1, ws)
    pre = b.block
    head = fl.new_block("for.head")
    body = fl.new_block("for.body")
    latch = fl.new_block("for.latch")
    end = fl.new_block("for.end")
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64, name="for.k")
    k.add_incoming(ll.Constant(I64, 0), pre)
    b.cbranch(b.icmp_unsigned("<", k, count), body, end)
    b.position_at_end(body)
    kv = k if st.bits == 64 else b.trunc(k, llvm_type(st))
    b.store(b.add(start, b.mul(kv, step)), fl.slots[s.var])
    fl.loops.append((latch, end))
    fl.lower_body(s.body)
    fl.loops.pop()
    fl.branch_if_open(latch)
    b.position_at_end(latch)
    k.add_incoming(b.add(k, ll.Constant(I64, 1), flags=["nuw"]), latch)
    b.branch(head)
    b.position_at_end(end)


def _while(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.While)
    b = fl.builder
    head = fl.new_block("while.head")
    body = fl.new_block("while.body")
    end = fl.new_block("while.end")
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(fl.expr(s.cond), body, end)
    b.position_at_end(body)
    fl.loops.append((head, end))
    fl.lower_body(s.body)
    fl.loops.pop()
    fl.branch_if_open(head)
    b.position_at_end(end)


def _break(fl: Lowering, s: n.Stmt) -> None:
    fl.builder.branch(fl.loops[-1][1])


def _continue(fl: Lowering, s: n.Stmt) -> None:
    fl.builder.branch(fl.loops[-1][0])


def _return(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.Return)
    if s.value is not None:
        assert fl.return_slot is not None
        fl.builder.store(fl.expr(s.value), fl.return_slot)
    assert fl.return_block is not None
    fl.builder.branch(fl.return_block)


def _expr_stmt(fl: Lowering, s: n.Stmt) -> None:
    assert isinstance(s, n.ExprStmt)
    fl.expr(s.expr)


def _barrier(fl: Lowering, s: n.Stmt) -> None:
    fl.barrier()


_HANDLERS: dict[type, Callable[[Lowering, n.Stmt], None]] = {
    n.Assign: _assign,
    n.Store: _store,
    n.If: _if,
    n.ForRange: _for_range,
    n.While: _while,
    n.Break: _break,
    n.Continue: _continue,
    n.Return: _return,
    n.ExprStmt: _expr_stmt,
    n.Barrier: _barrier,
}

__all__ = ["I1", "lower_stmt", "store_value", "trip_count"]
