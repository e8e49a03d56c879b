"""The ownership rules as pure data and functions.

The front end (writes through ``Borrow``), the mypy plugin (aliasing, use after move) and the
runtime guards (every launch, every host view) all call this module, so the static and the
runtime checks agree by construction. Nothing here imports the runtime or mypy.

The rules (Rust's, applied to buffers and byte ranges):

1. ``BORROW`` and ``HOST_READ`` are *shared* uses: any number may overlap in time and space.
2. ``BORROW_MUT``, ``OWNED`` and ``HOST_WRITE`` are *exclusive* uses: nothing else may use an
   overlapping byte range of the same allocation at the same time.
3. Within one launch, an argument used exclusively must not overlap any other argument.
4. ``OWNED`` moves the buffer: the caller's handle is dead afterwards (use after move).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Access(enum.Enum):
    """How a kernel parameter or a host view uses a buffer."""

    BORROW = "Borrow"
    BORROW_MUT = "BorrowMut"
    OWNED = "Owned"
    HOST_READ = "host read"
    HOST_WRITE = "host write"

    @property
    def exclusive(self) -> bool:
        """True when the use excludes every other overlapping use (it may write)."""
        return self in _EXCLUSIVE

    @property
    def writes(self) -> bool:
        """True when the use may modify the buffer's contents."""
        return self in _EXCLUSIVE

    @property
    def moves(self) -> bool:
        """True when the use consumes the caller's handle."""
        return self is Access.OWNED

    @property
    def on_device(self) -> bool:
        """True for kernel parameter uses, False for host views."""
        return self not in (Access.HOST_READ, Access.HOST_WRITE)


_EXCLUSIVE = frozenset({Access.BORROW_MUT, Access.OWNED, Access.HOST_WRITE})

WRAPPER_ACCESS: dict[str, Access] = {
    "Borrow": Access.BORROW,
    "BorrowMut": Access.BORROW_MUT,
    "Owned": Access.OWNED,
}
"""Ownership wrapper class name -> access mode (also the mypy plugin's lookup)."""


def conflicts(a: Access, b: Access) -> bool:
    """Whether two uses of overlapping bytes of one allocation may not coexist (rules 1-2)."""
    return a.exclusive or b.exclusive


def ranges_overlap(a_lo: int, a_hi: int, b_lo: int, b_hi: int) -> bool:
    """Whether half-open byte ranges ``[a_lo, a_hi)`` and ``[b_lo, b_hi)`` share a byte.

    Empty ranges overlap nothing.
    """
    return a_lo < a_hi and b_lo < b_hi and a_lo < b_hi and b_lo < a_hi


# --------------------------------------------------------------------------------------------
# Error codes and messages, shared by the mypy plugin and the runtime
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One ownership rule: its error code (mypy and docs) and its message template."""

    code: str
    summary: str
    template: str


ALIAS = Rule(
    code="gpuoff-alias",
    summary="Exclusive borrow aliases another argument",
    template=(
        "argument {first!r} is passed as {first_access} and also as {second!r} "
        "({second_access}) to {kernel}: {exclusive} argument must not alias any other argument"
    ),
)
USE_AFTER_MOVE = Rule(
    code="gpuoff-use-after-move",
    summary="Use of a moved value",
    template="{name!r} was moved into {kernel} at {where} and cannot be used any more",
)
BORROW_WRITE = Rule(
    code="gpuoff-borrow-write",
    summary="Write through a shared Borrow",
    template="cannot write to {name!r}: it is a shared Borrow (declare it BorrowMut to write)",
)
UNSUPPORTED = Rule(
    code="gpuoff-unsupported",
    summary="Construct not supported in kernels",
    template="{construct} is not supported in kernels",
)
HOST_CONFLICT = Rule(
    code="gpuoff-host-conflict",
    summary="A launch conflicts with an open host view",
    template=(
        "{name!r} is open on the host ({host_access}) and cannot be passed as {access} "
        "to {kernel} until the host view is closed"
    ),
)

RULES: tuple[Rule, ...] = (ALIAS, USE_AFTER_MOVE, BORROW_WRITE, UNSUPPORTED, HOST_CONFLICT)


def alias_message(
    kernel: str, first: str, first_access: Access, second: str, second_access: Access
) -> str:
    """Message for rule 3 (two arguments of one launch overlap, one of them exclusively)."""
    exclusive = first_access if first_access.exclusive else second_access
    article = "an" if exclusive.value[0] in "AEIOU" else "a"
    return ALIAS.template.format(
        kernel=kernel,
        first=first,
        first_access=first_access.value,
        second=second,
        second_access=second_access.value,
        exclusive=f"{article} {exclusive.value}",
    )


def use_after_move_message(name: str, kernel: str, where: str) -> str:
    """Message for rule 4; ``where`` is ``file:line`` of the move."""
    return USE_AFTER_MOVE.template.format(name=name, kernel=kernel, where=where)


def borrow_write_message(name: str) -> str:
    """Message for a write through a ``Borrow`` parameter."""
    return BORROW_WRITE.template.format(name=name)


def unsupported_message(construct: str) -> str:
    """Message for a construct outside the kernel subset."""
    return UNSUPPORTED.template.format(construct=construct)


def host_conflict_message(name: str, host_access: Access, access: Access, kernel: str) -> str:
    """Message for a launch that conflicts with an open host view."""
    return HOST_CONFLICT.template.format(
        name=name, host_access=host_access.value, access=access.value, kernel=kernel
    )
