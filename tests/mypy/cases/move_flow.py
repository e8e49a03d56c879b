# fmt: off
"""gpuoff-use-after-move along every kind of control flow."""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Owned, f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import consume, scale


def take(x: Owned[Array[f32]]) -> None: ...


def fresh() -> Buffer[f32]:
    return go.zeros(4, go.f32)


def straight_line(x: Buffer[f32]) -> None:
    consume[4](x, 1)
    x.numpy()  # E: 'x' was moved into consume at line 20 and cannot be used any more; keep the handle the launch returns (x = consume[...](...)) or pass x.copy()  [gpuoff-use-after-move]


def plain_function(x: Buffer[f32]) -> None:
    take(x)
    print(x.shape)  # E: 'x' was moved into take at line 25 and cannot be used any more; pass x.copy() to keep using it  [gpuoff-use-after-move]


def if_else(x: Buffer[f32], c: bool) -> None:
    if c:
        take(x)
    else:
        print(x)
    print(x)  # E: 'x' was moved into take at line 31 ... [gpuoff-use-after-move]


def both_branches_rebind(x: Buffer[f32], c: bool) -> None:
    if c:
        x = consume[4](x, 1)
    else:
        x = consume[4](x, 2)
    print(x)


def elif_chain(x: Buffer[f32], n: int) -> None:
    if n == 0:
        print(x)
    elif n == 1:
        take(x)
    elif n == 2:
        print(x)
    print(x)  # E: 'x' was moved into take at line 49 ... [gpuoff-use-after-move]


def for_loop(x: Buffer[f32]) -> None:
    for _ in range(3):
        consume[4](x, 1)  # E: 'x' was moved into consume at line 57 in an earlier iteration and cannot be used any more; ... [gpuoff-use-after-move]


def while_loop(x: Buffer[f32], n: int) -> None:
    while n > 0:
        print(x.shape)  # E: 'x' was moved into take at line 63 in an earlier iteration ... [gpuoff-use-after-move]
        take(x)  # E: 'x' was moved into take at line 63 in an earlier iteration ... [gpuoff-use-after-move]
        n -= 1


def loop_rebinds(x: Buffer[f32]) -> None:
    for i in range(3):
        x = consume[4](x, i)
    print(x)


def loop_with_break(x: Buffer[f32], n: int) -> None:
    while n > 0:
        take(x)
        break
    print(x)  # E: 'x' was moved into take at line 75 ... [gpuoff-use-after-move]


def loop_break_before_move(x: Buffer[f32], n: int) -> None:
    for i in range(n):
        if i > 2:
            break
        print(x)
    take(x)


def continue_skips_the_move(x: Buffer[f32], n: int) -> None:
    for i in range(n):
        if i % 2:
            continue
        take(x)  # E: 'x' was moved into take at line 92 in an earlier iteration ... [gpuoff-use-after-move]


def for_else(x: Buffer[f32], n: int) -> None:
    for _ in range(n):
        pass
    else:
        take(x)
    print(x)  # E: 'x' was moved into take at line 99 ... [gpuoff-use-after-move]


def move_then_return(x: Buffer[f32], c: bool) -> None:
    if c:
        take(x)
        return
    print(x)


def return_moved_value(x: Buffer[f32]) -> Buffer[f32]:
    take(x)
    return x  # E: 'x' was moved into take at line 111 ... [gpuoff-use-after-move]


def raise_after_move(x: Buffer[f32]) -> None:
    take(x)
    raise ValueError(x.shape)  # E: 'x' was moved into take at line 116 ... [gpuoff-use-after-move]


def try_failed_launch_moves_nothing(x: Buffer[f32]) -> None:
    try:
        consume[4](x, 1)
    except go.LaunchTypeError:
        print(x)  # the launch raised before it moved anything


def try_later_failure(x: Buffer[f32]) -> None:
    try:
        consume[4](x, 1)
        fresh()
    except Exception:
        print(x)  # E: 'x' was moved into consume at line 129 ... [gpuoff-use-after-move]


def try_finally(x: Buffer[f32]) -> None:
    try:
        take(x)
    finally:
        print(x)  # E: 'x' was moved into take at line 137 ... [gpuoff-use-after-move]


def try_else(x: Buffer[f32]) -> None:
    try:
        take(x)
    except ValueError:
        return
    else:
        print(x)  # E: 'x' was moved into take at line 144 ... [gpuoff-use-after-move]


def with_statement(x: Buffer[f32], y: Buffer[f32]) -> None:
    with y.host():
        take(x)
    print(x)  # E: 'x' was moved into take at line 153 ... [gpuoff-use-after-move]


def with_target(x: Buffer[f32]) -> None:
    take(x)
    with x.host() as view:  # E: 'x' was moved into take at line 158 ... [gpuoff-use-after-move]
        print(view)


def match_statement(x: Buffer[f32], mode: str) -> None:
    match mode:
        case "move":
            take(x)
        case "keep":
            print(x)
        case _:
            pass
    print(x)  # E: 'x' was moved into take at line 166 ... [gpuoff-use-after-move]


def match_on_moved(x: Buffer[f32]) -> None:
    take(x)
    match x.shape:  # E: 'x' was moved into take at line 175 ... [gpuoff-use-after-move]
        case (n,):
            print(n)
        case _:
            pass


def nested_functions_are_separate(x: Buffer[f32]) -> None:
    take(x)

    def later(x: Buffer[f32]) -> None:
        print(x)  # another function's parameter

    later(fresh())


def two_moves_one_use(x: Buffer[f32], c: bool) -> None:
    if c:
        take(x)
    else:
        consume[4](x, 1)
    print(x)  # E: 'x' was moved into take at line 194 ... [gpuoff-use-after-move] # E: 'x' was moved into consume at line 196 ... [gpuoff-use-after-move]


def moved_twice(x: Buffer[f32]) -> None:
    take(x)
    take(x)  # E: 'x' was moved into take at line 201 ... [gpuoff-use-after-move]


def use_in_the_same_call(x: Buffer[f32]) -> None:
    scale[4](1.0, x, consume[4](x, 1))  # E: 'x' was moved into consume at line 206 ... [gpuoff-use-after-move]


def use_before_in_the_same_call(x: Buffer[f32], y: Buffer[f32]) -> None:
    scale[4](float(x.shape[0]), y, consume[4](x, 1))


def while_true_loop(x: Buffer[f32]) -> None:
    while True:
        x = consume[4](x, 1)
        if x.shape[0] > 2:
            break
    print(x)


def ignored(x: Buffer[f32]) -> None:
    take(x)
    print(x)  # type: ignore[gpuoff-use-after-move]


top = fresh()
take(top)
print(top)  # E: 'top' was moved into take at line 227 ... [gpuoff-use-after-move]
