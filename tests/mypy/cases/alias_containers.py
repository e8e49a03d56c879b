# fmt: off
"""gpuoff-alias through containers: the same element reached twice."""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import add, scale, swap


def list_element_twice(bufs: list[Buffer[f32]]) -> None:
    scale[4](1.0, bufs[0], bufs[0])  # E: 'bufs[0]' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]


def different_elements(bufs: list[Buffer[f32]]) -> None:
    swap[4](bufs[0], bufs[1])
    swap[4](bufs[0], bufs[-1])  # the runtime catches a one-element list


def same_variable_index(bufs: list[Buffer[f32]], i: int) -> None:
    swap[4](bufs[i], bufs[i])  # E: 'bufs[i]' is passed to swap ... [gpuoff-alias]
    swap[4](bufs[i], bufs[i + 1])


def literal_list(a: Buffer[f32], b: Buffer[f32]) -> None:
    pair = [a, b]
    swap[4](pair[0], a)  # E: 'pair[0]' and 'a' are the same buffer, ... [gpuoff-alias]
    swap[4](pair[1], a)


def literal_tuple(a: Buffer[f32]) -> None:
    t = (a, go.zeros(4, go.f32))
    swap[4](t[0], a)  # E: 't[0]' and 'a' are the same buffer, ... [gpuoff-alias]
    swap[4](t[1], a)


def tuple_unpacked_from_container(a: Buffer[f32]) -> None:
    t = (a, a)
    x, y = t
    swap[4](x, y)  # E: 'x' and 'y' are the same buffer, ... [gpuoff-alias]


def dict_constant_keys(a: Buffer[f32], b: Buffer[f32]) -> None:
    state = {"w": a, "g": b}
    swap[4](state["w"], state["g"])
    swap[4](state["w"], a)  # E: 'state["w"]' and 'a' are the same buffer, ... [gpuoff-alias]
    scale[4](1.0, state["g"], state["g"])  # E: 'state["g"]' is passed to scale ... [gpuoff-alias]


def dict_parameter(params: dict[str, Buffer[f32]]) -> None:
    swap[4](params["w"], params["w"])  # E: 'params["w"]' is passed to swap ... [gpuoff-alias]
    swap[4](params["w"], params["b"])


def element_through_a_name(bufs: list[Buffer[f32]]) -> None:
    first = bufs[0]
    scale[4](1.0, first, bufs[0])  # E: 'first' and 'bufs[0]' are the same buffer, ... [gpuoff-alias]


def stored_then_read_back(a: Buffer[f32]) -> None:
    bufs: list[Buffer[f32]] = [go.zeros(4, go.f32), go.zeros(4, go.f32)]
    bufs[0] = a
    swap[4](bufs[0], a)  # E: 'bufs[0]' and 'a' are the same buffer, ... [gpuoff-alias]
    swap[4](bufs[1], a)


def nested_containers(a: Buffer[f32]) -> None:
    grid = [[a, go.zeros(4, go.f32)], [go.zeros(4, go.f32), go.zeros(4, go.f32)]]
    swap[4](grid[0][0], a)  # E: 'grid[0][0]' and 'a' are the same buffer, ... [gpuoff-alias]
    swap[4](grid[1][0], a)


def loop_over_elements(bufs: list[Buffer[f32]], out: Buffer[f32]) -> None:
    for b in bufs:
        swap[4](b, out)  # each element is its own buffer, as far as names can tell
    for b in [out]:
        swap[4](b, out)  # E: 'b' and 'out' are the same buffer, ... [gpuoff-alias]


def shared_elements(bufs: list[Buffer[f32]], out: Buffer[f32]) -> None:
    add[4](bufs[0], bufs[0], out)


class Layers:
    def __init__(self) -> None:
        self.weights = [go.zeros(4, go.f32), go.zeros(4, go.f32)]

    def step(self) -> None:
        swap[4](self.weights[0], self.weights[1])
        swap[4](self.weights[1], self.weights[1])  # E: 'self.weights[1]' is passed to swap ... [gpuoff-alias]
