# fmt: off
"""gpuoff-use-after-move as users make it: the old handle kept after an ``Owned`` launch.

The shapes follow JAX's buffer donation (``donate_argnums``) as users port it: the donated
input must not be read again, and the launch's result must be kept instead.
"""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Owned, f32
from gpuoff.runtime.buffer import Buffer


@go.kernel
def relu(x: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = max(x[i], 0.0)


@go.kernel
def scale(x: Owned[Array[f32]], a: f32) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = a * x[i]


def result_dropped(x: Buffer[f32]) -> float:
    relu[x.shape[0]](x)
    return float(x.numpy().sum())  # E: 'x' was moved into relu at line 30 and cannot be used any more; keep the handle the launch returns (x = relu[...](...)) or pass x.copy()  [gpuoff-use-after-move]


def result_kept(x: Buffer[f32]) -> float:
    x = relu[x.shape[0]](x)
    return float(x.numpy().sum())


def result_under_another_name(x: Buffer[f32]) -> float:
    y = relu[x.shape[0]](x)
    print(x.shape)  # E: 'x' was moved into relu at line 40 ... [gpuoff-use-after-move]
    return float(y.numpy().sum())


def layers(x: Buffer[f32], depth: int) -> Buffer[f32]:
    for _ in range(depth):
        relu[x.shape[0]](x)  # E: 'x' was moved into relu at line 47 in an earlier iteration ... [gpuoff-use-after-move]
    return x  # E: 'x' was moved into relu at line 47 ... [gpuoff-use-after-move]


def layers_fixed(x: Buffer[f32], depth: int) -> Buffer[f32]:
    for _ in range(depth):
        x = relu[x.shape[0]](x)
        x = scale[x.shape[0]](x, 0.5)
    return x


def conditional_activation(x: Buffer[f32], use_relu: bool) -> Buffer[f32]:
    if use_relu:
        relu[x.shape[0]](x)
    return x  # E: 'x' was moved into relu at line 60 ... [gpuoff-use-after-move]


class Model:
    def __init__(self) -> None:
        self.hidden = go.zeros(8, go.f32)
        self.history: list[Buffer[f32]] = []

    def forward(self) -> None:
        self.hidden = relu[8](self.hidden)
        self.history.append(self.hidden.copy())

    def forward_broken(self) -> None:
        relu[8](self.hidden)
        self.history.append(self.hidden)  # E: 'self.hidden' was moved into relu at line 74 ... [gpuoff-use-after-move]

    def snapshot_then_move(self) -> float:
        before = self.hidden
        scale[8](self.hidden, 2.0)
        return float(before.numpy()[0])  # E: 'before' was moved (as 'self.hidden') into scale at line 79 ... [gpuoff-use-after-move]


def moved_into_a_list(x: Buffer[f32]) -> list[Buffer[f32]]:
    out = [relu[x.shape[0]](x)]
    out.append(x)  # E: 'x' was moved into relu at line 84 ... [gpuoff-use-after-move]
    return out


def recovered_in_except(x: Buffer[f32]) -> Buffer[f32]:
    try:
        return relu[x.shape[0]](x)
    except go.LaunchTypeError:
        return x  # the launch failed before it moved anything


def double_move(x: Buffer[f32]) -> None:
    y = relu[4](x)
    z = scale[4](x, 2.0)  # E: 'x' was moved into relu at line 97 ... [gpuoff-use-after-move]
    print(y, z)
