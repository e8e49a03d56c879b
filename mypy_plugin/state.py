"""The analysis state at one program point, and how two paths' states join.

``env`` maps each variable to the references it may hold; ``heap`` maps an object's
attribute or element to the references stored there; ``epoch`` labels the last time a call
may have changed an object's attributes (reads after it see new, unknown values); ``defs``
labels the assignment that reaches each variable (so ``a[:n]`` before and after ``n -= 2``
are told apart); ``moved`` holds the handles the tracked call has moved on some path here.
Every join is a union, so a loop's states grow monotonically to a fixpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mypy.nodes import CallExpr, Var

from mypy_plugin.values import Ref, Site, overlap

Refs = frozenset[Ref]
NOTHING: Refs = frozenset()
HeapKey = tuple[Site, object]
"""(object, ``"attr:name"`` or an element key: an int, a str, or a variable's symbol)."""
Fill = Callable[["State", HeapKey], Refs]


@dataclass(frozen=True)
class MoveInfo:
    """How a handle was moved: by which call, passed as which expression."""

    call: CallExpr
    arg_text: str


class State:
    __slots__ = ("env", "heap", "epoch", "defs", "moved")

    def __init__(self) -> None:
        self.env: dict[Var, Refs] = {}
        self.heap: dict[HeapKey, Refs] = {}
        self.epoch: dict[Site, frozenset[int]] = {}
        self.defs: dict[Var, frozenset[int]] = {}
        self.moved: dict[Ref, MoveInfo] = {}

    def copy(self) -> State:
        out = State()
        out.env = dict(self.env)
        out.heap = dict(self.heap)
        out.epoch = dict(self.epoch)
        out.defs = dict(self.defs)
        out.moved = dict(self.moved)
        return out

    def same(self, other: State) -> bool:
        return (
            self.env == other.env
            and self.heap == other.heap
            and self.epoch == other.epoch
            and self.defs == other.defs
            and self.moved.keys() == other.moved.keys()
        )

    def renew(self, site: Site) -> None:
        """A new object at ``site`` (an allocation evaluated again, as in a loop): the objects
        made there before become one "older" site, so that the new one is told apart from
        them (``cur = partial; partial = go.zeros(n)`` are two buffers)."""
        if not self._mentions(site):
            return
        old = Site(site.kind, ("older", site.key), site.label, site.shape, site.typ)

        def swap(refs: Refs) -> Refs:
            if not any(r.site == site for r in refs):
                return refs
            return frozenset(Ref(old, r.views) if r.site == site else r for r in refs)

        self.env = {v: swap(refs) for v, refs in self.env.items()}
        heap: dict[HeapKey, Refs] = {}
        for (owner, key), refs in self.heap.items():
            k = (old if owner == site else owner, key)
            heap[k] = heap.get(k, NOTHING) | swap(refs)
        self.heap = heap
        if site in self.epoch:
            self.epoch[old] = self.epoch.get(old, frozenset()) | self.epoch.pop(site)
        self.moved = {(Ref(old, r.views) if r.site == site else r): info
                      for r, info in self.moved.items()}  # fmt: skip

    def _mentions(self, site: Site) -> bool:
        return (
            any(r.site == site for refs in self.env.values() for r in refs)
            or any(k[0] == site or any(r.site == site for r in v) for k, v in self.heap.items())
            or any(r.site == site for r in self.moved)
        )

    def collect(self) -> None:
        """Forget moves of allocations no variable or object refers to any more (what
        ``x = consume[n](x)`` leaves behind), so that paths which differ only there meet."""
        if not any(r.site.kind == "alloc" for r in self.moved):
            return
        # (older allocations are "alloc" sites too)
        live = {r.site for refs in self.env.values() for r in refs}
        live |= {r.site for refs in self.heap.values() for r in refs}
        for ref in [r for r in self.moved if r.site.kind == "alloc" and r.site not in live]:
            del self.moved[ref]

    def moved_by(self, refs: Refs) -> MoveInfo | None:
        """How one of ``refs`` (or bytes it shares) was moved, if it was."""
        for r in refs:
            for m, info in self.moved.items():
                if m.site == r.site and overlap(m, r) != "no":
                    return info
        return None


def _union_dicts(a: dict, b: dict) -> dict:  # type: ignore[type-arg]
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] | v if k in out else v
    return out


def join(*states: State | None, fill: Fill | None = None) -> State | None:
    """The state after paths meet (None: no path falls through). ``fill`` gives what a path
    that never wrote a heap entry reads there (so one branch's write joins with the old
    value, not replaces it)."""
    live = [s for s in states if s is not None]
    if not live:
        return None
    out = live[0].copy()
    if fill is not None and len(live) > 1:
        keys = set().union(*(s.heap.keys() for s in live))
        out.heap = {
            k: frozenset().union(*(s.heap[k] if k in s.heap else fill(s, k) for s in live))
            for k in keys
        }
    for s in live[1:]:
        out.env = _union_dicts(out.env, s.env)
        if fill is None:
            out.heap = _union_dicts(out.heap, s.heap)
        out.epoch = _union_dicts(out.epoch, s.epoch)
        out.defs = _union_dicts(out.defs, s.defs)
        for handle, info in s.moved.items():
            out.moved.setdefault(handle, info)
    return out
