"""cuda-samples' simpleAtomicIntrinsics (Samples/0_Introduction/simpleAtomicIntrinsics),
ported in our own words: 64 groups of 256 work-items hit ten counters with every CUDA
atomic, each work-item once, and the host checks the final values the way the sample's
``computeGold`` does (order-independent results exactly; for exch and cas, whose result
depends on the order, what any order allows). We also keep each returned old value, which
the sample drops, and check those are consistent with some order: each is a state the
element passed through."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, BorrowMut

GROUPS, GROUP_SIZE = 64, 256
N = GROUPS * GROUP_SIZE
INC_LIMIT, DEC_LIMIT = 17, 137


@go.kernel
def atomics(data: BorrowMut[Array[go.i32]], counters: BorrowMut[Array[go.u32]],
            olds: BorrowMut[Array[go.i32]]) -> None:  # fmt: skip
    tid = go.i32(go.global_id(0))
    go.atomic_add(data, 0, 10)
    olds[0, tid] = go.atomic_exch(data, 1, tid)
    go.atomic_max(data, 2, tid)
    go.atomic_min(data, 3, tid)
    go.atomic_inc(counters, 0, INC_LIMIT)  # CUDA's: (old >= 17) ? 0 : old + 1
    go.atomic_dec(counters, 1, DEC_LIMIT)  # (old == 0 || old > 137) ? 137 : old - 1
    olds[1, tid] = go.atomic_cas(data, 6, tid - 1, tid)
    go.atomic_and(data, 7, 2 * tid + 7)
    go.atomic_or(data, 8, 1 << (tid % 32))  # the sample's 1 << tid, kept to a defined shift
    go.atomic_xor(data, 9, tid)
    olds[2, tid] = go.atomic_sub(data, 4, 1)


def test_every_atomic_as_the_sample_checks_them(device: str) -> None:
    init = np.zeros(10, np.int32)
    init[7] = init[9] = 0xFF  # as the sample seeds the and/xor counters
    data = go.asarray(init)
    counters = go.zeros(2, go.u32)
    olds = go.zeros((3, N), go.i32)
    atomics[(N,), (GROUP_SIZE,)](data, counters, olds)
    d, c, o = data.numpy(), counters.numpy(), olds.numpy()
    tids = np.arange(N, dtype=np.int64)
    assert d[0] == 10 * N
    assert d[2] == N - 1 and d[3] == 0
    assert d[4] == -N and sorted(o[2]) == list(range(-N + 1, 1))  # sub: every state once
    inc = dec = 0
    for _ in range(N):  # computeGold's sequential replay (order-independent)
        inc = 0 if inc >= INC_LIMIT else inc + 1
        dec = DEC_LIMIT if dec == 0 or dec > DEC_LIMIT else dec - 1
    assert (c[0], c[1]) == (inc, dec)
    and_gold = 0xFF
    or_gold = 0
    xor_gold = 0xFF
    for t in range(N):
        and_gold &= 2 * t + 7
        or_gold |= 1 << (t % 32)
        xor_gold ^= t
    assert d[7] == and_gold and d[9] == xor_gold
    assert d[8] == np.int32(np.uint32(or_gold).view(np.int32))
    # exch: the olds and the final value are the initial 0 and every tid, each once
    assert sorted([*o[0].tolist(), int(d[1])]) == [0, *range(N)]
    # cas(tid - 1 -> tid) from 0: the final value k is the chain 1, 2, ..., k that succeeded,
    # exactly the work-items that saw old == tid - 1
    k = int(d[6])
    succeeded = tids[o[1] == tids - 1]
    assert list(succeeded) == list(range(1, k + 1))
