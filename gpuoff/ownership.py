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
SIGNATURE = Rule(
    code="gpuoff-signature",
    summary="Kernel parameter or return type the compiler refuses",
    template="parameter {name!r} of {function}: {reason}",
)
HOST_CONFLICT = Rule(
    code="gpuoff-host-conflict",
    summary="A launch conflicts with an open host view",
    template=(
        "{name!r} is open on the host ({host_access}) and cannot be passed as {access} "
        "to {kernel} until the host view is closed"
    ),
)

RULES: tuple[Rule, ...] = (ALIAS, USE_AFTER_MOVE, BORROW_WRITE, UNSUPPORTED, SIGNATURE,
                           HOST_CONFLICT)  # fmt: skip


def _a(access: Access) -> str:
    """``a BorrowMut``, ``an Owned``."""
    return f"{'an' if access.value[0] in 'AEIOU' else 'a'} {access.value}"


def alias_message(
    kernel: str, first: str, first_access: Access, second: str, second_access: Access
) -> str:
    """Message for rule 3 (two arguments of one launch overlap, one of them exclusively)."""
    exclusive = first_access if first_access.exclusive else second_access
    return ALIAS.template.format(
        kernel=kernel,
        first=first,
        first_access=first_access.value,
        second=second,
        second_access=second_access.value,
        exclusive=_a(exclusive),
    )


def use_after_move_message(name: str, kernel: str, where: str) -> str:
    """Message for rule 4; ``where`` is ``file:line`` of the move."""
    return USE_AFTER_MOVE.template.format(name=name, kernel=kernel, where=where)


# --------------------------------------------------------------------------------------------
# The static checker's fuller forms of the same rules: it knows the caller's names
# --------------------------------------------------------------------------------------------


def static_alias_message(
    subject: str,
    callee: str,
    first: tuple[str, Access],
    second: tuple[str, Access],
    copy_of: str | None,
) -> str:
    """Rule 3 at a call site, naming the user's expressions. ``subject`` says what the two
    arguments are (``'a' is``, ``'a' and 'b' are the same buffer,``); ``copy_of`` is the
    argument a copy would fix (None inside a kernel, where there are no copies)."""
    (p1, a1), (p2, a2) = first, second
    exclusive, exclusive_param = (a2, p2) if a2.exclusive else (a1, p1)
    fix = f"pass a copy ({copy_of}.copy())" if copy_of is not None else "pass distinct arrays"
    return (
        f"{subject} passed to {callee} as {p1!r} ({a1.value}) and as {p2!r} ({a2.value}): "
        f"{_a(exclusive)} argument must not alias any other argument; {fix} or declare "
        f"{exclusive_param!r} Borrow if {callee} only reads it"
    )


def static_summary_alias_message(
    subject: str,
    callee: str,
    params: tuple[str, str],
    inner: str,
    first: tuple[str, Access],
    second: tuple[str, Access],
    line: int,
    copy_of: str,
) -> str:
    """Rule 3 one call deeper: ``callee`` passes its two parameters to a launch of ``inner``."""
    (p1, a1), (p2, a2) = first, second
    exclusive = a2 if a2.exclusive else a1
    return (
        f"{subject} passed to {callee} as {params[0]!r} and as {params[1]!r}, which {callee} "
        f"passes to {inner} as {p1!r} ({a1.value}) and as {p2!r} ({a2.value}) at line {line}: "
        f"{_a(exclusive)} argument must not alias any other argument; pass a copy "
        f"({copy_of}.copy())"
    )


def static_move_message(
    name: str, callee: str, line: int, *, alias: str | None, earlier: bool, launch: bool
) -> str:
    """Rule 4 at the use, with the move's line and how to keep the buffer."""
    moved = f"moved (as {alias!r})" if alias is not None and alias != name else "moved"
    when = " in an earlier iteration" if earlier else ""
    if launch:
        fix = (
            f"keep the handle the launch returns ({name} = {callee}[...](...)) "
            f"or pass {name}.copy()"
        )
    else:
        fix = f"pass {name}.copy() to keep using it"
    return (
        f"{name!r} was {moved} into {callee} at line {line}{when} and cannot be used any "
        f"more; {fix}"
    )


def borrow_write_message(name: str) -> str:
    """Message for a write through a ``Borrow`` parameter."""
    return BORROW_WRITE.template.format(name=name)


def borrow_pass_message(name: str, have: Access, param: str, function: str, want: Access) -> str:
    """Message for passing an array to a device-function parameter that needs more access
    (a ``Borrow`` where ``BorrowMut`` or ``Owned`` is declared): a write through a Borrow."""
    return (
        f"cannot pass {name!r} ({have.value}) to parameter {param!r} of {function!r}, "
        f"which is declared {want.value}"
    )


def unsupported_message(construct: str) -> str:
    """Message for a construct outside the kernel subset."""
    return UNSUPPORTED.template.format(construct=construct)


def host_conflict_message(name: str, host_access: Access, access: Access, kernel: str) -> str:
    """Message for a launch that conflicts with an open host view."""
    return HOST_CONFLICT.template.format(
        name=name, host_access=host_access.value, access=access.value, kernel=kernel
    )
