"""The gpuoff kernels of the MiniLM / BERT encoder (``gpuoff.models.minilm`` launches them).

Activations are row-major ``f32[rows, features]`` with one row per token (``rows = batch *
length``, the length padded to a multiple of ``ROWS``); weights are stored ``[in, out]`` (the
transpose of PyTorch's ``Linear.weight``), so a projection reads ``w[k, j0:j0 + COLS]`` as one
contiguous run.

Two habits of the CPU target shape these kernels (codegen/cpu_interchange.py):

- A work-item that loops over a *row* (layer norm, attention, pooling) keeps its loops its
  own: the CPU target would otherwise run a group-uniform ``for`` loop outside the work-item
  loop, with every local in memory per work-item. Bounds written ``go.min(n, n + i)`` (``i``
  a work-item id, never negative, so the value is ``n``) differ per work-item for that test,
  so LLVM sees a plain inner loop over contiguous memory and vectorises it (fast math lets it
  reassociate the sums). The launch-time bounds analysis still proves every access through
  them, so the checks cost nothing.
- The projection is a register-tiled micro-kernel (BLIS's): each work-item owns a ``ROWS x
  COLS`` block of the output, its accumulators a Python list of SSA values (twelve 8-wide
  vector registers; a private array of that size would live in memory), over weights packed
  into contiguous column panels once at load. Unpacked weights (one strided row of ``w`` per
  step of ``k``) ran at 0.65x OpenBLAS; packed, 4 x 24 runs at OpenBLAS's speed per core.

Every store writes elements only its own work-item writes (the race proof accepts each
kernel as it is); the feature dimension of attention is ``HEAD_DIM`` (32 for MiniLM).
"""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32

ROWS = 4
"""Output rows of one projection work-item."""

COLS = 24
"""Output columns of one projection work-item (three AVX vectors; with ``ROWS``, twelve
accumulator registers of AVX2's sixteen)."""

TILE_ROWS = tuple(range(ROWS))
TILE_COLS = tuple(range(COLS))
"""The projection tile's rows and columns as constant tuples (loops the front end unrolls)."""

HEAD_DIM = 32
"""Features per attention head (MiniLM: 384 / 12)."""

HEAD = tuple(range(HEAD_DIM))
"""A head's features as a constant tuple: a loop over it is unrolled by the front end (no
loop left for the CPU target to run at group level)."""

CHUNK = 32
"""Keys per step of ``attention``'s online softmax (its scores: four vector registers)."""

CHUNK_KEYS = tuple(range(CHUNK))
LANES = 8
LANE_IDS = tuple(range(1, LANES))
"""A chunk's keys as constants, and the 8 lanes of an AVX vector (``attention``'s maximum)."""

LN_EPS = 1e-12
"""BERT's layer-norm epsilon."""


ERF_P = (1.1283791065216064, 0.1935369074344635, 0.053100742399692535,
         0.0038830109406262636, 0.00028456145082600415, 1.9868875824613497e-06)  # fmt: skip
ERF_Q = (1.0, 0.5048501491546631, 0.11534669250249863, 0.015206586569547653,
         0.001185495755635202, 3.742102853721008e-05)  # fmt: skip
"""``erf(x) / x ~ P(x^2) / Q(x^2)`` on ``|x| <= 4`` (fitted for this module: least squares
of the relative error, reweighted towards its maximum, on 20000 points; f32 result within
3e-7 of erf, 5 ulp)."""


@go.func
def erf_rational(x: f32) -> f32:
    """``erf(x)`` as ``x P(x^2) / Q(x^2)``, ``x`` clamped to ``[-4, 4]`` (beyond, erf rounds
    to +-1 in f32): 11 multiply-adds and a division, where ``go.erf``'s three branches
    (two polynomials and an ``exp``, all computed, one selected: branch-free for vectors)
    cost some 70 vector operations, a fifth of the feed-forward's projection with it."""
    c = go.min(go.max(x, go.f32(-4.0)), go.f32(4.0))
    t = c * c
    p = ((((ERF_P[5] * t + ERF_P[4]) * t + ERF_P[3]) * t + ERF_P[2]) * t + ERF_P[1]) * t
    q = ((((ERF_Q[5] * t + ERF_Q[4]) * t + ERF_Q[3]) * t + ERF_Q[2]) * t + ERF_Q[1]) * t
    y = c * (p + ERF_P[0]) / (q + ERF_Q[0])
    return go.min(go.max(y, go.f32(-1.0)), go.f32(1.0))


@go.func
def gelu(v: f32) -> f32:
    """BERT's exact GELU, ``v * (1 + erf(v / sqrt(2))) / 2`` (``erf`` to 3e-7)."""
    return 0.5 * v * (1.0 + erf_rational(v * 0.7071067811865476))


@go.kernel(fastmath=True)
def linear(x: Borrow[Array[f32]], wp: Borrow[Array[f32]], bias: Borrow[Array[f32]],
           out: BorrowMut[Array[f32]], act: go.Const[int]) -> None:  # fmt: skip
    """``out = x @ w + bias``, then ``gelu`` of it where ``act`` is 1 (the feed-forward's
    first projection: bias and GELU in the projection's epilogue; one specialisation per
    ``act``). ``wp`` is ``w [in, out]`` packed into column panels, ``wp[q, k, c] = w[k, q *
    COLS + c]`` (``pack_columns``, once at load), so a work-item streams one contiguous
    panel. Grid ``(cols // COLS, rows // ROWS)``, the panels fastest: the ``ROWS`` rows of
    ``x`` stay in L1 while the panels stream past them. Work-item ``(q, p)`` owns ``out[p *
    ROWS : p * ROWS + ROWS, q * COLS : q * COLS + COLS]``."""
    q = go.global_id(0)
    p = go.global_id(1)
    j0 = q * COLS
    r0 = p * ROWS
    inner = x.shape[1]
    # a list, not a private array: its items are SSA values, the accumulators registers
    zero = go.f32(0.0)
    acc = [zero, zero] * (ROWS * COLS // 2)
    for k in range(go.min(inner, inner + q)):
        for r in TILE_ROWS:
            xv = x[r0 + r, k]
            for c in TILE_COLS:
                acc[r * COLS + c] = go.fma(xv, wp[q, k, c], acc[r * COLS + c])
    for r in TILE_ROWS:
        for c in TILE_COLS:
            v = acc[r * COLS + c] + bias[j0 + c]
            if act == 1:
                v = gelu(v)
            out[r0 + r, j0 + c] = v


@go.func
def layer_norm_row(row: BorrowMut[Array[f32]], gamma: Borrow[Array[f32]],
                   beta: Borrow[Array[f32]]) -> None:  # fmt: skip
    """``row = (row - mean) / sqrt(var + eps) * gamma + beta``, in place."""
    n = row.shape[0]
    total = go.f32(0.0)
    for k in range(n):
        total += row[k]
    mean = total / go.f32(n)
    sq = go.f32(0.0)
    for k in range(n):
        d = row[k] - mean
        sq += d * d
    inv = 1.0 / go.sqrt(sq / go.f32(n) + LN_EPS)
    for k in range(n):
        row[k] = (row[k] - mean) * inv * gamma[k] + beta[k]


@go.kernel(fastmath=True)
def add_layer_norm(x: BorrowMut[Array[f32]], res: Borrow[Array[f32]], gamma: Borrow[Array[f32]],
                   beta: Borrow[Array[f32]]) -> None:  # fmt: skip
    """``x = layer_norm(x + res)`` row by row (the residual connection and BERT's norm in one
    pass). Grid ``(rows,)``: one row per work-item."""
    i = go.global_id(0)
    if i < x.shape[0]:
        n = x.shape[1]
        for k in range(go.min(n, n + i)):
            x[i, k] += res[i, k]
        layer_norm_row(x[i, :], gamma, beta)


@go.kernel(fastmath=True)
def embed(ids: Borrow[Array[i32]], length: i32, word: Borrow[Array[f32]],
          pos: Borrow[Array[f32]], kind: Borrow[Array[f32]], gamma: Borrow[Array[f32]],
          beta: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    """``out[r] = layer_norm(word[ids[r]] + pos[r % length] + kind[0])``: BERT's embeddings for
    token ``r`` of a batch of sequences of ``length`` tokens (token type 0). Grid ``(rows,)``."""
    i = go.global_id(0)
    if i < out.shape[0]:
        tok = go.i64(ids[i])
        at = i % go.i64(length)
        n = out.shape[1]
        for k in range(go.min(n, n + i)):
            out[i, k] = word[tok, k] + pos[at, k] + kind[0, k]
        layer_norm_row(out[i, :], gamma, beta)


@go.kernel(fastmath=True)
def split_keys_values(qkv: Borrow[Array[f32]], seq: i32, kt: BorrowMut[Array[f32]],
                      vt: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    """The keys transposed and the values, per sequence, for ``attention``: ``kt[b, f, j] =
    K[b * seq + j, f]`` and ``vt[b, j, f] = V[b * seq + j, f]``. Both have ``CHUNK`` more
    keys than ``seq`` (zeros, never written here), so ``attention`` reads whole chunks with
    no test. Grid ``(seq, width, batch)``."""
    j = go.global_id(0)
    f = go.global_id(1)
    b = go.global_id(2)
    n = go.i64(seq)
    width = kt.shape[1]
    row = b * n + j
    if j < n and f < width and b < kt.shape[0]:
        kt[b, f, j] = qkv[row, width + f]
        vt[b, j, f] = qkv[row, 2 * width + f]


@go.kernel(fastmath=True)
def attention(qkv: Borrow[Array[f32]], kt: Borrow[Array[f32]], vt: Borrow[Array[f32]],
              lengths: Borrow[Array[i32]], seq: i32, scale: f32,
              ctx: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    """Scaled dot-product attention of one query for one head, the padding masked:
    ``ctx[q, head] = softmax(scale * Q[q] . K[keys]) @ V[keys]`` over the first
    ``lengths[b]`` keys of sequence ``b`` (padded keys get weight 0, as BERT's additive
    ``finfo.min`` mask gives them). ``qkv`` rows are ``[Q | K | V]``, each ``heads *
    HEAD_DIM`` wide; ``kt``/``vt`` are its keys and values from ``split_keys_values``. Grid
    ``(seq, heads, batch)``: work-item ``(t, h, b)`` answers query ``t`` of sequence ``b``
    (padded queries too: their rows are finite, and unused).

    The keys go by in chunks of ``CHUNK`` with an online softmax (flash attention's): the
    chunk's scores ``s`` are a matrix-vector product over the transposed keys, vectorised
    across the keys (no horizontal sums); scores past the sequence's end drop by 5e35 or
    more (weight 0); the running maximum ``top`` rescales the running sum and ``acc`` when it
    grows; then ``acc += p @ V[chunk]``. Private arrays of at most 64 elements live in
    registers. The guard gives the launch-time bounds analysis everything it needs to drop
    every check (the kernel runs as fast as its ``boundscheck=False`` twin)."""
    t = go.global_id(0)
    h = go.global_id(1)
    b = go.global_id(2)
    n = go.i64(seq)
    width = ctx.shape[1]
    qc = h * HEAD_DIM
    row = b * n + t
    keys = go.min(go.i64(lengths[go.min(b, lengths.shape[0] - 1)]), n)
    if (t < n and keys >= 1 and row >= 0 and row < qkv.shape[0] and row < ctx.shape[0]
            and qc + HEAD_DIM <= width and width <= qkv.shape[1]
            and b < kt.shape[0] and b < vt.shape[0] and qc + HEAD_DIM <= kt.shape[1]
            and qc + HEAD_DIM <= vt.shape[2] and n + CHUNK <= kt.shape[2]
            and n + CHUNK <= vt.shape[1]):
        q = go.local_array(HEAD_DIM, f32)
        for d in HEAD:
            q[d] = qkv[row, qc + d] * scale
        acc = go.local_array(HEAD_DIM, f32)
        s = go.local_array(CHUNK, f32)
        p = go.local_array(CHUNK, f32)
        top = go.f32(-3.0e38)
        total = go.f32(0.0)
        for j0 in range(0, go.min(keys, keys + t), CHUNK):
            for c in range(CHUNK):
                s[c] = 0.0
            for d in range(HEAD_DIM):
                qd = q[d]
                for c in range(CHUNK):
                    s[c] += qd * kt[b, qc + d, j0 + c]
            # keys past the sequence's end: -5e35 or less (weight 0), with no branch
            left = go.f32(keys - j0) - 0.5
            for c in range(CHUNK):
                s[c] += go.min(left - go.f32(c), 0.0) * 1.0e36
            # the chunk's maximum: lane-wise over its vectors, then across the lanes (one
            # running scalar maximum would be a serial chain LLVM does not vectorise)
            lane = [top, top] * (LANES // 2)
            for c in CHUNK_KEYS:
                lane[c % LANES] = go.max(lane[c % LANES], s[c])
            m = lane[0]
            for c in LANE_IDS:
                m = go.max(m, lane[c])
            corr = go.exp(top - m)
            top = m
            total *= corr
            for d in range(HEAD_DIM):
                acc[d] *= corr
            for c in range(CHUNK):
                e = go.exp(s[c] - m)
                p[c] = e
                total += e
            for c in range(CHUNK):
                pc = p[c]
                for d in range(HEAD_DIM):
                    acc[d] += pc * vt[b, j0 + c, qc + d]
        inv = 1.0 / total
        for d in HEAD:
            ctx[row, qc + d] = acc[d] * inv


@go.kernel(fastmath=True)
def mean_pool_normalize(x: Borrow[Array[f32]], lengths: Borrow[Array[i32]], seq: i32,
                        out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    """``out[b] = m / max(|m|, 1e-12)`` with ``m`` the mean of sequence ``b``'s first
    ``lengths[b]`` token rows (sentence-transformers' mean pooling, then ``Normalize``).
    Grid ``(batch,)``."""
    b = go.global_id(0)
    if b < out.shape[0] and b < lengths.shape[0]:
        n = go.i64(seq)
        keys = go.i64(lengths[b])
        width = out.shape[1]
        for k in range(go.min(width, width + b)):
            out[b, k] = 0.0
        for t in range(go.min(keys, keys + b)):
            for k in range(width):
                out[b, k] += x[b * n + t, k]
        sq = go.f32(0.0)
        for k in range(go.min(width, width + b)):
            v = out[b, k] / go.f32(go.max(keys, 1))
            out[b, k] = v
            sq += v * v
        inv = 1.0 / go.max(go.sqrt(sq), 1e-12)
        for k in range(go.min(width, width + b)):
            out[b, k] *= inv


FORWARD_KERNELS = (linear, add_layer_norm, embed, split_keys_values, attention,
                   mean_pool_normalize)
"""Every kernel of the forward pass (the PTX test assembles each one)."""

__all__ = [
    "CHUNK", "COLS", "ERF_P", "ERF_Q", "FORWARD_KERNELS", "HEAD_DIM", "LN_EPS", "ROWS",
    "add_layer_norm", "attention", "embed", "erf_rational", "gelu", "layer_norm_row", "linear",
    "mean_pool_normalize", "split_keys_values",
]  # fmt: skip
