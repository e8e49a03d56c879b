# fmt: off
"""Use after move: flow-sensitive, for kernels and any function or method taking Owned."""
# ruff: noqa: E501, E731
from gpuoff import Array, Owned, f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import consume


def take(x: Owned[Array[f32]]) -> None: ...


def fresh() -> Buffer[f32]:
    raise NotImplementedError


class Pool:
    def put(self, x: Owned[Array[f32]], tag: int = 0) -> None: ...


def straight(x: Buffer[f32]) -> None:
    consume[4](x, 1)
    print(x)  # E: 'x' was moved into consume at line 21 and cannot be used any more  [gpuoff-use-after-move]


def branches(x: Buffer[f32], y: Buffer[f32], c: bool) -> None:
    if c:
        take(x)
    elif len(y.shape) > 1:
        take(y)
    else:
        print(x)  # the other branch: not moved here
    print(x)  # E: 'x' was moved into take at line 27 and cannot be used any more  [gpuoff-use-after-move]
    print(y)  # E: 'y' was moved into take at line 29 and cannot be used any more  [gpuoff-use-after-move]


def in_loop(x: Buffer[f32]) -> None:
    for _ in range(3):
        consume[4](x, 1)  # E: 'x' was moved into consume at line 38 and cannot be used any more  [gpuoff-use-after-move]


def loop_then_break(x: Buffer[f32], c: bool) -> None:
    while c:
        take(x)
        break
    print(x)  # E: 'x' was moved into take at line 43 and cannot be used any more  [gpuoff-use-after-move]


def loop_revive(x: Buffer[f32]) -> None:
    for _ in range(3):
        take(x)
        x = fresh()
    print(x)


def move_then_return(x: Buffer[f32], c: bool) -> None:
    if c:
        take(x)
        return
    print(x)


def move_then_raise(x: Buffer[f32], c: bool) -> None:
    try:
        take(x)
        if c:
            raise ValueError
    except ValueError:
        print(x)  # E: 'x' was moved into take at line 64 and cannot be used any more  [gpuoff-use-after-move]


def reassigned(x: Buffer[f32]) -> None:
    take(x)
    x = fresh()
    print(x)


def methods(p: Pool, x: Buffer[f32], y: Buffer[f32]) -> None:
    p.put(x)
    p.put(tag=1, x=y)  # keyword arguments
    print(x, y)  # E: 'x' was moved into p.put at line 78 and cannot be used any more  [gpuoff-use-after-move] # E: 'y' was moved into p.put at line 79 and cannot be used any more  [gpuoff-use-after-move]


def ignored(x: Buffer[f32]) -> None:
    take(x)
    print(x)  # type: ignore[gpuoff-use-after-move]


top = fresh()
take(top)
print(top)  # E: 'top' was moved into take at line 89 and cannot be used any more  [gpuoff-use-after-move]


def under_pytest_raises(x: Buffer[f32]) -> None:
    import pytest

    take(x)
    with pytest.raises(RuntimeError):
        print(x)  # the test expects the runtime's UseAfterMoveError here
    y = fresh()
    with pytest.raises(RuntimeError):
        take(y)  # a move that fails moves nothing
    print(y)


def closures(x: Buffer[f32]) -> None:
    take(x)
    later = lambda: x.shape  # closures are left to the runtime
    print(later)


def loop_index(bufs: list[Buffer[f32]]) -> None:
    for b in bufs:
        take(b)  # a new value each iteration
    while bufs:
        b = bufs.pop()
        take(b)
    print(b)  # E: 'b' was moved into take at line 113 and cannot be used any more  [gpuoff-use-after-move] # E: 'b' was moved into take at line 116 and cannot be used any more  [gpuoff-use-after-move]
