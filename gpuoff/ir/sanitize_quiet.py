"""Reads of shared memory the race sanitizer need not record (``gpuoff.ir.sanitize``).

A read of a shared array can only race with a plain write or an atomic to that array in the
same barrier interval of its group. ``quiet_reads(kernel)`` finds the reads that share no
interval with any: the tile loops of a tiled matrix multiply or transpose (load the tiles,
barrier, read them, barrier), the reads of a tree reduction's last step. The sanitizer leaves
those reads out, which makes such kernels an order of magnitude cheaper to sanitize, and
finds every race it found before.

Intervals. The walk follows the kernel's statements as every work-item runs them and keeps the
set of barriers the current interval may have started at (``0``: the kernel's start): a
``go.barrier()`` starts a new one, the arms of an ``if`` join, loops are followed to a
fixpoint (a loop's end reaches its start), ``break``/``continue`` and ``return`` leave as
Python does. Barrier uniformity is enforced by the compiler, so all work-items of a group pass
the same barriers and two accesses in one dynamic interval started at one barrier; a barrier
statement in a loop is one label for all its iterations, which only merges intervals (never
splits one). A read is quiet when no interval it may be in holds a write to its array.
Conservative where it cannot see: a shared array handed to a device function has no quiet
reads (the callee may write it), and a device function's own barriers are not counted (that
only merges intervals).
"""

from __future__ import annotations

from gpuoff.ir import nodes as n

Labels = frozenset[int]
_START: Labels = frozenset({0})


def quiet_reads(kernel: n.Function) -> set[int]:
    """The ``id`` of every ``Load`` of a shared array of ``kernel`` that shares no barrier
    interval with a plain store or an atomic to that array."""
    walk = _Intervals({sh.name for sh in kernel.shared})
    if not walk.shared:
        return set()
    walk.block(kernel.body, _START)
    quiet: set[int] = set()
    for key, (array, labels) in walk.reads.items():
        if array in walk.passed:
            continue
        if not any(array in walk.writes.get(label, ()) for label in labels):
            quiet.add(key)
    return quiet


class _Intervals:
    def __init__(self, shared: set[str]) -> None:
        self.shared = shared
        self.reads: dict[int, tuple[str, set[int]]] = {}
        """Per read (its node's id): the array and the intervals it may run in."""
        self.writes: dict[int, set[str]] = {}
        """Per interval: the shared arrays written (plainly or atomically) in it."""
        self.passed: set[str] = set()
        """Shared arrays handed to a device function."""
        self.loops: list[tuple[set[int], set[int]]] = []
        """Per enclosing loop: the intervals its ``break``s and ``continue``s leave from."""

    def block(self, body: tuple[n.Stmt, ...], st: Labels) -> Labels:
        for s in body:
            st = self.stmt(s, st)
        return st

    def stmt(self, s: n.Stmt, st: Labels) -> Labels:  # noqa: PLR0911 - one case per statement
        if isinstance(s, n.Barrier):
            return frozenset({id(s)}) if st else st
        if isinstance(s, n.If):
            self.scan(s.cond, st)
            return self.block(s.body, st) | self.block(s.orelse, st)
        if isinstance(s, n.While | n.ForRange):
            return self.loop(s, st)
        if isinstance(s, n.Break | n.Continue):
            breaks, continues = self.loops[-1]
            (breaks if isinstance(s, n.Break) else continues).update(st)
            return frozenset()
        if isinstance(s, n.Store):
            self.write(s.array.name, st)
        for name in s.__dataclass_fields__:
            if name != "loc":
                self.scan(getattr(s, name), st)
        if isinstance(s, n.Return):
            return frozenset()
        return st

    def loop(self, s: n.While | n.ForRange, st: Labels) -> Labels:
        if isinstance(s, n.ForRange):
            for e in (s.start, s.stop, s.step):
                self.scan(e, st)
        head = st
        self.loops.append((set(), set()))
        while True:
            if isinstance(s, n.While):
                self.scan(s.cond, head)
            end = self.block(s.body, head)
            grown = head | end | frozenset(self.loops[-1][1])
            if grown == head:
                break
            head = grown
        breaks, _ = self.loops.pop()
        return head | frozenset(breaks)

    def write(self, array: str, st: Labels) -> None:
        if array in self.shared:
            for label in st:
                self.writes.setdefault(label, set()).add(array)

    def scan(self, x: object, st: Labels) -> None:
        """Record the reads, atomics and calls in expression(s) ``x``."""
        if isinstance(x, tuple):
            for y in x:
                self.scan(y, st)
            return
        if not isinstance(x, n.Expr | n.ArrayRef):
            return
        if isinstance(x, n.Load) and x.array.name in self.shared:
            _, labels = self.reads.setdefault(id(x), (x.array.name, set()))
            labels.update(st)
        elif isinstance(x, n.AtomicRMW):
            self.write(x.array.name, st)
        elif isinstance(x, n.Call):
            self.passed.update(a.name for a in x.args if isinstance(a, n.ArrayRef))
        if isinstance(x, n.Expr):
            for name in x.__dataclass_fields__:
                if name != "loc":
                    self.scan(getattr(x, name), st)
