"""The IR the race sanitizer inserts around one access (``gpuoff.ir.sanitize``).

Every element of a checked array has a *shadow* of i64 words in a shadow array of shape
``(*shape, len(layout))``, the layout holding what the kernel does to that array: the last
plain writer (``write``), two distinct readers (``read``, ``read2``), two distinct atomic users
(``atomic``, ``atomic2``). An array the kernel never writes plainly gets no reader slots when
nothing else updates it, and so on (``layout``): an array only written costs one word and one
check per store, an array only updated atomically none. A word packs who accessed the element
and where: for a global array ``(global linear id + 1) << SITE_BITS | site``; for a shared one
``epoch << EPOCH_SHIFT | (local linear id + 1) << SITE_BITS | site``, the epoch counting the
group's barriers, so that a word of an earlier barrier interval is stale (a global array's
interval is the whole launch). Site ids are 1-based indices into ``Sanitized.sites``.

A plain write conflicts with a live word of another work-item in any slot, a read with a
writer's or an atomic user's, an atomic with a writer's or a reader's. The first conflict of
the launch goes to the log (``LOG``): an atomic counter picks the first, which writes the
array id, the element's linear index, the other access's word, its own word and its group's
linear id. Shadow accesses are guarded by the access's own range test (an out-of-range access
touches nothing, so it cannot race), never bounds-checked themselves.
"""

from __future__ import annotations

from gpuoff.ir import nodes as n
from gpuoff.ir.types import INDEX, AddressSpace, ArrayType, boolean
from gpuoff.ownership import Access

ROLES = ("write", "read", "read2", "atomic", "atomic2")
"""Every slot a shadow may have, in this order."""
Layout = tuple[str, ...]


def layout(kinds: set[str]) -> Layout:
    """The shadow slots an array with accesses of ``kinds`` (``read``/``write``/``atomic``)
    needs: a kind's slots only where another kind (or, for plain writes, the same) can
    conflict with it. Empty: nothing it does can race (reads only, or atomics only)."""
    out: list[str] = []
    if "write" in kinds:
        out.append("write")
    if "read" in kinds and kinds & {"write", "atomic"}:
        out += ["read", "read2"]
    if "atomic" in kinds and kinds & {"write", "read"}:
        out += ["atomic", "atomic2"]
    return tuple(out)
SITE_BITS = 20
"""A site id is below ``2**SITE_BITS``."""
LOCAL_BITS = 14
"""A local linear id + 1 is below ``2**LOCAL_BITS`` (blocks of at most 8192 work-items)."""
EPOCH_SHIFT = SITE_BITS + LOCAL_BITS
LOG = "_gpuoff_race_log"
LOG_SLOTS = 8
COUNT, ARRAY, ELEMENT, OTHER, MINE, GROUP = range(6)
"""The log's slots: conflicts seen, then the first one's array, element, words and group."""
GWORD = "_gpuoff_gword"
"""``(global linear id + 1) << SITE_BITS``: this work-item's word for global arrays."""
LWORD = "_gpuoff_lword"
"""``epoch << EPOCH_SHIFT | (local linear id + 1) << SITE_BITS``, for shared arrays."""
GROUP_ID = "_gpuoff_group"
"""The group's linear id (a shared conflict names the group its work-items are in)."""

LOG_TYPE = ArrayType(INDEX, 1, True, AddressSpace.GLOBAL, Access.BORROW_MUT)


def i64(v: int) -> n.Const:
    return n.Const(INDEX, v)


def var(name: str) -> n.Var:
    return n.Var(INDEX, name)


def binary(op: str, a: n.Expr, b: n.Expr) -> n.Binary:
    return n.Binary(INDEX, op, a, b)


def compare(op: str, a: n.Expr, b: n.Expr) -> n.Compare:
    return n.Compare(boolean, op, a, b)


def both(a: n.Expr, b: n.Expr) -> n.Expr:
    return n.Logical(boolean, "and", a, b)


def shadow_type(t: ArrayType, slots: int) -> ArrayType:
    """The shadow of an array of type ``t``: i64, one more (last) dimension of ``slots``."""
    static = None if t.static_shape is None else (*t.static_shape, slots)
    return ArrayType(INDEX, t.ndim + 1, True, t.space, Access.BORROW_MUT, static)


class Checked:
    """One instrumented access: the array, its shadow, the (bound) indices, the site's word
    and whether the array is shared memory."""

    def __init__(self, array: n.ArrayRef, shadow: n.ArrayRef, slots: Layout,
                 idx: tuple[n.Expr, ...], site: int, array_id: n.Expr, log: n.ArrayRef,
                 temps: tuple[str, str]) -> None:  # fmt: skip
        self.array, self.shadow, self.idx, self.site = array, shadow, idx, site
        self.slots = slots
        self.array_id, self.log = array_id, log
        self.temp, self.count = temps  # a slot's word; the log's counter
        self.shared = array.type.space is AddressSpace.SHARED

    # -- words ----------------------------------------------------------------------------------

    def base(self) -> n.Expr:
        return var(LWORD if self.shared else GWORD)

    def word(self) -> n.Expr:
        return binary("bitor", self.base(), i64(self.site))

    def _who(self, w: n.Expr) -> n.Expr:
        who = binary("rshift", w, i64(SITE_BITS))
        return binary("bitand", who, i64((1 << LOCAL_BITS) - 1)) if self.shared else who

    def _epoch(self, w: n.Expr) -> n.Expr:
        return binary("rshift", w, i64(EPOCH_SHIFT))

    def live(self, w: n.Expr) -> n.Expr:
        """``w`` records an access of this barrier interval."""
        set_ = compare("ne", w, i64(0))
        if not self.shared:
            return set_
        return both(set_, compare("eq", self._epoch(w), self._epoch(self.base())))

    def other(self, w: n.Expr) -> n.Expr:
        """``w`` is a live record of another work-item."""
        return both(self.live(w), compare("ne", self._who(w), self._who(self.base())))

    def mine(self, w: n.Expr) -> n.Expr:
        return both(self.live(w), compare("eq", self._who(w), self._who(self.base())))

    # -- statements -------------------------------------------------------------------------------

    def slot(self, role: str) -> n.Load:
        return n.Load(INDEX, self.shadow, (*self.idx, i64(self.slots.index(role))))

    def put(self, role: str) -> n.Store:
        return n.Store(self.shadow, (*self.idx, i64(self.slots.index(role))), self.word())

    def in_range(self) -> n.Expr:
        cond: n.Expr | None = None
        static = self.array.type.static_shape
        for d, i in enumerate(self.idx):
            limit: n.Expr = i64(static[d]) if static is not None else n.ShapeOf(
                INDEX, self.array, d)  # fmt: skip
            test = both(compare("ge", i, i64(0)), compare("lt", i, limit))
            cond = test if cond is None else both(cond, test)
        return cond if cond is not None else n.Const(boolean, True)

    def element(self) -> n.Expr:
        """The linear (row-major) index of the element, for the report."""
        static = self.array.type.static_shape
        out: n.Expr = i64(0)
        for d, i in enumerate(self.idx):
            size: n.Expr = i64(static[d]) if static is not None else n.ShapeOf(
                INDEX, self.array, d)  # fmt: skip
            out = binary("add", binary("mul", out, size), i)
        return out

    def report(self, old: n.Expr) -> tuple[n.Stmt, ...]:
        """Log this access against ``old`` if it is the launch's first conflict."""
        first = n.AtomicRMW(INDEX, "add", self.log, (i64(COUNT),), i64(1))
        fields = ((ARRAY, self.array_id), (ELEMENT, self.element()), (OTHER, old),
                  (MINE, self.word()), (GROUP, var(GROUP_ID)))  # fmt: skip
        stores = tuple(n.Store(self.log, (i64(k),), v) for k, v in fields)
        return (n.Assign(self.count, first), n.If(compare("eq", var(self.count), i64(0)), stores))

    def check(self, roles: tuple[str, ...]) -> list[n.Stmt]:
        """Report a live word of another work-item in any of ``roles`` the layout has."""
        out: list[n.Stmt] = []
        for k in roles:
            if k not in self.slots:
                continue
            out.append(n.Assign(self.temp, self.slot(k)))
            out.append(n.If(self.other(var(self.temp)), self.report(var(self.temp))))
        return out

    def remember(self, first: str, second: str) -> list[n.Stmt]:
        """Record this work-item in one of two slots of distinct users (readers, atomics),
        where the layout keeps them."""
        if first not in self.slots:
            return []
        t = var(self.temp)
        fresh = n.Unary(boolean, "not", self.live(t))
        return [
            n.Assign(self.temp, self.slot(first)),
            n.If(fresh, (self.put(first),), (
                n.If(n.Unary(boolean, "not", self.mine(t)), (
                    n.Assign(self.temp, self.slot(second)),
                    n.If(n.Unary(boolean, "not", self.live(t)), (self.put(second),)),
                )),
            )),
        ]  # fmt: skip

    def statements(self, kind: str) -> n.If | None:
        """The shadow update of a ``"read"``, ``"write"`` or ``"atomic"``, under its range test
        (None: nothing to record)."""
        if kind == "write":
            body = [*self.check(ROLES), self.put("write")]
        elif kind == "read":
            body = [*self.check(("write", "atomic", "atomic2")), *self.remember("read", "read2")]
        else:
            body = [*self.check(("write", "read", "read2")), *self.remember("atomic", "atomic2")]
        return n.If(self.in_range(), tuple(body)) if body else None


def linear(name: str, kind: str) -> n.Expr:
    """``x0 + n0 * (x1 + n1 * x2)`` for ``global_id``/``global_size`` style pairs: ``kind`` is
    ``"global"``, ``"local"`` or ``"group"``."""
    ids, sizes = {"global": ("global_id", "global_size"), "local": ("local_id", "local_size"),
                  "group": ("group_id", "num_groups")}[kind]  # fmt: skip

    def wi(f: str, d: int) -> n.Expr:
        return n.WorkItem(INDEX, f, d)

    inner = binary("add", wi(ids, 1), binary("mul", wi(sizes, 1), wi(ids, 2)))
    return binary("add", wi(ids, 0), binary("mul", wi(sizes, 0), inner))


def prologue() -> list[n.Stmt]:
    """The kernel's first statements: the work-item's words and its group's id."""
    one = i64(1)
    g = binary("lshift", binary("add", linear("", "global"), one), i64(SITE_BITS))
    lw = binary("lshift", binary("add", linear("", "local"), one), i64(SITE_BITS))
    return [n.Assign(GWORD, g), n.Assign(LWORD, lw), n.Assign(GROUP_ID, linear("", "group"))]


def next_epoch() -> n.Assign:
    """After a barrier: the next interval's shared word."""
    return n.Assign(LWORD, binary("add", var(LWORD), i64(1 << EPOCH_SHIFT)))


def zero_shadow(shadow: n.ArrayRef, counter: str) -> n.ForRange:
    """Every work-item of the group clears its share of a shared shadow (contents of shared
    memory are undefined at group start); a barrier must follow."""
    static = shadow.type.static_shape
    assert static is not None
    total = 1
    for s in static:
        total *= s
    idx: list[n.Expr] = []
    stride = total
    for s in static:
        stride //= s
        idx.append(binary("mod", binary("floordiv", var(counter), i64(stride)), i64(s)))
    lsize = binary("mul", n.WorkItem(INDEX, "local_size", 0), binary(
        "mul", n.WorkItem(INDEX, "local_size", 1), n.WorkItem(INDEX, "local_size", 2)))
    return n.ForRange(counter, linear("", "local"), i64(total), lsize,
                      (n.Store(shadow, tuple(idx), i64(0)),))  # fmt: skip
