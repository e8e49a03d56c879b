# fmt: off
"""gpuoff-use-after-move through names, attributes, globals, containers and scopes."""
# ruff: noqa: E501, E731
from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Owned, f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import consume, merge, take_two


def take(x: Owned[Array[f32]]) -> None: ...


def fresh() -> Buffer[f32]:
    return go.zeros(4, go.f32)


def through_an_alias(a: Buffer[f32]) -> None:
    b = a
    take(b)
    print(a)  # E: 'a' was moved (as 'b') into take at line 21 and cannot be used any more; pass a.copy() to keep using it  [gpuoff-use-after-move]


def alias_after_move(a: Buffer[f32]) -> None:
    take(a)
    b = a  # binding the dead handle is not yet a use (the runtime raises where it is used)
    print(b)  # E: 'b' was moved (as 'a') into take at line 26 ... [gpuoff-use-after-move]


def view_of_moved(a: Buffer[f32]) -> None:
    head = a[:2]
    consume[4](a, 1)
    print(head)  # E: 'head' was moved (as 'a') into consume at line 33 ... [gpuoff-use-after-move]


def moving_a_view_kills_the_buffer(a: Buffer[f32]) -> None:
    consume[4](a[:2], 1)
    print(a)  # E: 'a' was moved (as 'a[:2]') into consume at line 38 ... [gpuoff-use-after-move]


def comprehension_target_is_not_a_use(a: Buffer[f32], bufs: list[Buffer[f32]]) -> None:
    take(a)
    shapes = [a.shape for a in bufs]
    print(shapes)


def comprehension_use(a: Buffer[f32], bufs: list[Buffer[f32]]) -> None:
    take(a)
    sizes = [a.shape[0] + b.shape[0] for b in bufs]  # E: 'a' was moved into take at line 49 ... [gpuoff-use-after-move]
    print(sizes)


def lambda_captures_moved(a: Buffer[f32]) -> None:
    take(a)
    f = lambda: a.shape  # runs later, if at all: closures are left to the runtime
    print(f)


def lambda_parameter_shadows(a: Buffer[f32]) -> None:
    take(a)
    f = lambda a: a
    print(f)


def walrus_revives(a: Buffer[f32]) -> None:
    take(a)
    if (a := fresh()) is not None:
        print(a)
    print(a)


def walrus_moves(a: Buffer[f32]) -> None:
    if (b := a) is not None:
        take(b)
    print(a)  # E: 'a' was moved (as 'b') into take at line 75 ... [gpuoff-use-after-move]


def del_then_rebind(a: Buffer[f32]) -> None:
    take(a)
    del a
    a = fresh()
    print(a)


class Holder:
    def __init__(self) -> None:
        self.buf = go.zeros(4, go.f32)
        self.other = go.zeros(4, go.f32)

    def drain(self) -> None:
        consume[4](self.buf, 1)
        print(self.buf.shape)  # E: 'self.buf' was moved into consume at line 92 ... [gpuoff-use-after-move]

    def drain_and_refill(self) -> None:
        consume[4](self.buf, 1)
        self.buf = fresh()
        print(self.buf, self.other)

    def keep(self) -> None:
        self.buf = consume[4](self.buf, 1)
        print(self.buf)

    def drain_via_alias(self) -> None:
        b = self.buf
        take(b)
        print(self.buf)  # E: 'self.buf' was moved (as 'b') into take at line 106 ... [gpuoff-use-after-move]

    def refilled_elsewhere(self) -> None:
        take(self.buf)
        self.reset()
        print(self.buf)  # a method of self may have replaced the attribute

    def reset(self) -> None:
        self.buf = fresh()


def attribute_of_parameter(h: Holder) -> None:
    take(h.other)
    print(h.buf)
    print(h.other)  # E: 'h.other' was moved into take at line 119 ... [gpuoff-use-after-move]


GLOBAL_BUF = fresh()


def moves_a_global() -> None:
    take(GLOBAL_BUF)
    print(GLOBAL_BUF)  # E: 'GLOBAL_BUF' was moved into take at line 128 ... [gpuoff-use-after-move]


def moves_a_parameter(x: Buffer[f32], y: Buffer[f32]) -> tuple[Buffer[f32], Buffer[f32]]:
    x, y = take_two[4](x, y)
    return x, y


def take_two_then_use(x: Buffer[f32], y: Buffer[f32]) -> None:
    take_two[4](x, y)
    print(y)  # E: 'y' was moved into take_two at line 138 ... [gpuoff-use-after-move]


def owned_keeps_the_borrow(x: Buffer[f32], y: Buffer[f32]) -> None:
    x = merge[4](x, y)
    print(x, y)


def container_element_moved(bufs: list[Buffer[f32]]) -> None:
    take(bufs[0])
    print(bufs[1])
    print(bufs[0])  # E: 'bufs[0]' was moved into take at line 148 ... [gpuoff-use-after-move]


def moved_then_stored(a: Buffer[f32]) -> None:
    take(a)
    keep = [a]  # stored, not used yet
    print(keep[0].shape)  # E: 'keep[0]' was moved (as 'a') into take at line 154 ... [gpuoff-use-after-move]


def moved_element_of_literal(a: Buffer[f32]) -> None:
    pair = (a, fresh())
    take(pair[0])
    print(a)  # E: 'a' was moved (as 'pair[0]') into take at line 161 ... [gpuoff-use-after-move]


def loop_over_fresh_values(bufs: list[Buffer[f32]]) -> None:
    for b in bufs:
        take(b)
    while bufs:
        c = bufs.pop()
        take(c)


def revive_in_loop(n: int) -> None:
    for _ in range(n):
        x = fresh()
        take(x)
        print(x.shape)  # E: 'x' was moved into take at line 176 ... [gpuoff-use-after-move]


def nested_loops(x: Buffer[f32], n: int) -> None:
    for _ in range(n):
        for _ in range(n):
            x = consume[4](x, 1)
    print(x)


def under_pytest_raises(x: Buffer[f32]) -> None:
    import pytest

    take(x)
    with pytest.raises(go.UseAfterMoveError):
        print(x)  # the test expects the runtime's error here
    y = fresh()
    with pytest.raises(go.LaunchTypeError):
        take(y)  # a move that fails moves nothing
    print(y)


class Pool:
    def put(self, x: Owned[Array[f32]], tag: int = 0) -> None: ...


def methods_take_ownership(p: Pool, x: Buffer[f32], y: Buffer[f32]) -> None:
    p.put(x)
    p.put(tag=1, x=y)  # keyword arguments
    print(x, y)  # E: 'x' was moved into p.put at line 204 ... [gpuoff-use-after-move] # E: 'y' was moved into p.put at line 205 ... [gpuoff-use-after-move]


def closures_are_left_to_the_runtime(x: Buffer[f32]) -> None:
    def later() -> None:
        print(x.shape)

    take(x)
    later()


def dead_views_checked_in_a_test(b: Buffer[f32]) -> None:
    import pytest

    head, tail = b[:4], b[4:]
    take(b)
    for handle in (head, tail):  # collecting dead handles is not using them
        with pytest.raises(go.UseAfterMoveError):
            handle.numpy()
    print(tail.shape)  # E: 'tail' was moved (as 'b') into take at line 221 ... [gpuoff-use-after-move]
