# fmt: off
"""gpuoff-alias through views: slices and indexes of one buffer that may overlap.

A view shares its buffer's allocation; the runtime compares the bytes two views reach
(``np.shares_memory``), so provably disjoint constant slices are fine, and so is
``b[:, 0]`` next to ``b[:, 1]``.
"""
# ruff: noqa: E501
from __future__ import annotations

from typing import Final

from gpuoff import f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import add, scale, swap

HALF: Final = 4


def view_and_whole(a: Buffer[f32]) -> None:
    scale[4](1.0, a[1:], a)  # E: 'a[1:]' and 'a' may overlap (views of 'a'), passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass a copy (a[1:].copy()) or declare 'y' Borrow if scale only reads it  [gpuoff-alias]


def overlapping_slices(a: Buffer[f32]) -> None:
    scale[4](1.0, a[2:10], a[5:20])  # E: 'a[2:10]' and 'a[5:20]' may overlap (views of 'a'), ... [gpuoff-alias]


def disjoint_slices(a: Buffer[f32]) -> None:
    scale[4](1.0, a[0:4], a[4:8])
    scale[4](1.0, a[:4], a[4:])
    swap[4](a[8:], a[:8])


def touching_but_not_disjoint(a: Buffer[f32]) -> None:
    scale[4](1.0, a[0:5], a[4:8])  # E: 'a[0:5]' and 'a[4:8]' may overlap ... [gpuoff-alias]


def row_and_column(m: Buffer[f32]) -> None:
    scale[4](1.0, m[:, 0], m[0, :])  # E: 'm[:, 0]' and 'm[0, :]' may overlap ... [gpuoff-alias]


def two_columns(m: Buffer[f32]) -> None:
    scale[4](1.0, m[:, 0], m[:, 1])  # disjoint element sets, as the runtime decides
    swap[4](m[0], m[1])


def two_rows_by_slice(m: Buffer[f32]) -> None:
    swap[4](m[0:2, :], m[2:4, :])
    swap[4](m[0:2, 1:], m[1:3, 0])  # columns 1.. and column 0 never meet
    swap[4](m[0:2, :], m[1:3, 0])  # E: 'm[0:2, :]' and 'm[1:3, 0]' may overlap ... [gpuoff-alias]


def strided(a: Buffer[f32]) -> None:
    swap[4](a[0::2], a[1::2])  # even and odd elements never meet
    swap[4](a[0::2], a[2::4])  # E: 'a[0::2]' and 'a[2::4]' may overlap ... [gpuoff-alias]


def unknown_bounds(a: Buffer[f32], i: int, j: int) -> None:
    swap[4](a[i:], a[j:])  # E: 'a[i:]' and 'a[j:]' may overlap ... [gpuoff-alias]


def symbolic_but_disjoint(a: Buffer[f32], n: int, i: int) -> None:
    swap[4](a[:n], a[n:])
    swap[4](a[i], a[i + 1])
    swap[4](a[n : n + 4], a[n + 4 : n + 8])


def symbolic_overlap(a: Buffer[f32], n: int) -> None:
    swap[4](a[n : n + 4], a[n + 2 :])  # E: 'a[n : n + 4]' and 'a[n + 2 :]' may overlap ... [gpuoff-alias]


def negative_indexes(a: Buffer[f32]) -> None:
    swap[4](a[:-1], a[-1:])
    swap[4](a[:2], a[-2:])  # E: 'a[:2]' and 'a[-2:]' may overlap ... [gpuoff-alias]


def final_constants(a: Buffer[f32]) -> None:
    swap[4](a[:HALF], a[HALF:])


def views_held_in_names(a: Buffer[f32]) -> None:
    head = a[:8]
    tail = a[6:]
    swap[4](head, tail)  # E: 'head' and 'tail' may overlap (views of 'a'), ... [gpuoff-alias]


def views_of_views(a: Buffer[f32]) -> None:
    b = a[2:]
    swap[4](b[0:2], b[2:4])
    swap[4](b[0:3], b[2:4])  # E: 'b[0:3]' and 'b[2:4]' may overlap (views of 'a'), ... [gpuoff-alias]
    swap[4](b, a)  # E: 'b' and 'a' may overlap (views of 'a'), ... [gpuoff-alias]


def stale_bound(a: Buffer[f32], n: int) -> None:
    lo = a[:n]
    n = n - 2
    swap[4](lo, a[n:])  # E: 'lo' and 'a[n:]' may overlap (views of 'a'), ... [gpuoff-alias]


def shared_reads_of_views(a: Buffer[f32], out: Buffer[f32]) -> None:
    add[4](a[0:8], a[4:12], out)


def view_and_alias(a: Buffer[f32]) -> None:
    b = a
    scale[4](1.0, b[0:4], a[2:6])  # E: 'b[0:4]' and 'a[2:6]' may overlap (views of 'a'), ... [gpuoff-alias]
