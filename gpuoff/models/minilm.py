"""all-MiniLM-L6-v2 sentence embeddings, the whole encoder in gpuoff kernels.

``MiniLM(weights)`` uploads the weights once; they stay resident on the device, so a batch
moves only its token ids (and lengths) in and its embeddings out (``go.stats()`` shows it).
The forward pass is BERT's: embeddings + layer norm, then per layer the fused query/key/value
projection, attention with the padding mask, the output projection, residual + layer norm,
the GELU feed-forward and residual + layer norm; then mean pooling over the real tokens and L2
normalisation (sentence-transformers' ``Pooling`` and ``Normalize``). The kernels are in
``minilm_kernels``; ``minilm_numpy.forward`` is the same computation in NumPy.

Usage::

    from gpuoff.models.minilm import MiniLM, Tokenizer
    from gpuoff.models.weights import load_weights, model_dir

    model = MiniLM(load_weights(model_dir()))
    ids, lengths = Tokenizer(model_dir()).encode(["a sentence", "another one"])
    emb = model.encode_ids(ids, lengths)          # [2, 384], unit rows
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.models.minilm_kernels import CHUNK, COLS, FORWARD_KERNELS, HEAD_DIM, ROWS
from gpuoff.models.weights import F32, Weights
from gpuoff.runtime.devices import current_device

Ids = np.ndarray[Any, np.dtype[np.int32]]
Kern = go.Kernel[...]


class Tokenizer:
    """BERT's WordPiece tokenizer from a model folder's ``tokenizer.json`` (the ``tokenizers``
    package), set up as sentence-transformers uses it: truncation at ``max_length`` tokens,
    right padding to the longest text of the batch."""

    def __init__(self, model_dir: str | Path, max_length: int = 256) -> None:
        from tokenizers import Tokenizer as HFTokenizer

        self._tok = HFTokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
        self._tok.enable_truncation(max_length=max_length)
        self._tok.enable_padding(pad_id=0, pad_token="[PAD]")

    def encode(self, texts: list[str]) -> tuple[Ids, Ids]:
        """``(ids [batch, length], lengths [batch])`` of ``texts`` (int32)."""
        if not texts:
            raise ValueError("no texts to encode")
        enc = self._tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int32)
        lengths = np.array([sum(e.attention_mask) for e in enc], dtype=np.int32)
        return ids, lengths


_EXACT: dict[Any, Any] = {}


def exact(kernel: Kern) -> Kern:
    """``kernel`` compiled without fast math (one twin per kernel). The kernels are written
    for ``fastmath=True``, which on the CPU lets LLVM reassociate the row sums to vectorise
    them (gpuoff's own vector ``exp``/``erf`` are as accurate either way); OpenCL's fast math
    is ``-cl-fast-relaxed-math``, whose ``exp``, ``erf`` and ``sqrt`` moved embeddings by
    1e-4 on Intel's CPU runtime, so other devices run these twins."""
    twin: Kern | None = _EXACT.get(kernel)
    if twin is None:
        twin = _EXACT[kernel] = go.kernel(fastmath=False)(kernel.pyfunc)
    return twin


def pack_columns(w: F32) -> F32:
    """``w [in, out]`` as ``linear`` reads it: column panels of ``COLS``, ``wp[q, k, c] =
    w[k, q * COLS + c]`` (each panel contiguous; done once, the weights being resident)."""
    k, n = w.shape
    packed: F32 = np.ascontiguousarray(w.reshape(k, n // COLS, COLS).transpose(1, 0, 2))
    return packed


def _block(grid: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """A block dividing ``grid``: per dimension the largest power of two up to ``cap``."""
    return tuple(math.gcd(g, cap) for g in grid)


class MiniLM:
    """The encoder with its weights resident on ``device`` (default: gpuoff's current one)."""

    def __init__(self, weights: Weights, device: str | None = None) -> None:
        cfg = weights.config
        if cfg.head_dim != HEAD_DIM:
            raise ValueError(f"the attention kernel takes heads of {HEAD_DIM} features, "
                             f"not {cfg.head_dim} ({cfg.hidden} / {cfg.heads})")  # fmt: skip
        for size in (cfg.hidden, cfg.intermediate):
            if size % COLS:
                raise ValueError(f"feature sizes must be multiples of {COLS}, not {size}")
        self.config = cfg
        self.device = device
        with self._on():
            self._cpu = current_device().name == "cpu"
            self._k = {k.__name__: k if self._cpu else exact(k) for k in FORWARD_KERNELS}
            up = go.array
            self.word, self.pos, self.kind = up(weights.word), up(weights.pos), up(weights.kind)
            self.ln = (up(weights.ln_g), up(weights.ln_b))
            pk = pack_columns
            self.layers = [tuple(up(a) for a in (
                pk(lw.wqkv), lw.bqkv, pk(lw.wo), lw.bo, lw.ln1_g, lw.ln1_b, pk(lw.w1), lw.b1,
                pk(lw.w2), lw.b2, lw.ln2_g, lw.ln2_b)) for lw in weights.layers]  # fmt: skip
        self._scratch: dict[tuple[int, int], dict[str, go.Buffer[go.f32]]] = {}

    def _on(self) -> AbstractContextManager[Any]:
        return go.on(self.device) if self.device is not None else nullcontext()

    def _buffers(self, batch: int, seq: int) -> dict[str, go.Buffer[go.f32]]:
        """The activations of a ``batch x seq`` batch, kept for the next batch of that shape."""
        got = self._scratch.get((batch, seq))
        if got is None:
            cfg, rows = self.config, batch * seq
            shapes = {"x": (rows, cfg.hidden), "y": (rows, cfg.hidden),
                      "ctx": (rows, cfg.hidden), "qkv": (rows, 3 * cfg.hidden),
                      "mid": (rows, cfg.intermediate), "out": (batch, cfg.hidden)}  # fmt: skip
            got = self._scratch[(batch, seq)] = {k: go.empty(s, go.f32) for k, s in shapes.items()}
            # the keys transposed and the values per sequence, CHUNK keys longer (zeros:
            # attention reads them, with weight 0)
            got["kt"] = go.zeros((batch, cfg.hidden, seq + CHUNK), go.f32)
            got["vt"] = go.zeros((batch, seq + CHUNK, cfg.hidden), go.f32)
        return got

    def _linear(self, x: go.Buffer[go.f32], w: go.Buffer[go.f32], b: go.Buffer[go.f32],
                out: go.Buffer[go.f32], gelu: bool = False) -> None:  # fmt: skip
        grid = (out.shape[1] // COLS, out.shape[0] // ROWS)
        # cpu: one tile per group (the group's work-item loop has nothing to vectorise; the
        # tile's own loops are); elsewhere small 2-D blocks, as a GPU wants many threads.
        block = (1, 1) if self._cpu else _block(grid, 8)
        self._k["linear"][grid, block](x, w, b, out, 1 if gelu else 0)

    def encode_ids(self, ids: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any]) -> F32:
        """Embeddings ``[batch, hidden]`` of token ids ``[batch, length]`` (padding on the
        right; ``lengths[b]`` real tokens in row ``b``)."""
        ids = np.asarray(ids)
        lengths = np.asarray(lengths)
        if ids.ndim != 2 or lengths.shape != ids.shape[:1]:
            raise ValueError(f"ids must be [batch, length] and lengths [batch], not "
                             f"{ids.shape} and {lengths.shape}")  # fmt: skip
        batch, seq = ids.shape
        limit = self.config.positions
        if seq > limit or (lengths < 1).any() or (lengths > seq).any():
            raise ValueError(f"each sequence needs 1 to {seq} tokens (at most {limit})")
        if ids.min() < 0 or ids.max() >= self.config.vocab:
            raise ValueError(f"token ids must lie in [0, {self.config.vocab})")
        padded = -(-seq // ROWS) * ROWS  # whole projection tiles; the extra tokens are padding
        flat = np.zeros((batch, padded), np.int32)
        flat[:, :seq] = ids
        with self._on():
            return self._forward(go.array(flat.reshape(-1)),
                                 go.array(lengths.astype(np.int32)), batch, padded)

    def encode_many(self, ids: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any],
                    batch: int = 32) -> F32:  # fmt: skip
        """``encode_ids`` in batches of ``batch`` texts of similar lengths, each cut to its
        longest text (as sentence-transformers' ``encode`` sorts them): far fewer padded
        tokens when lengths vary. Rows come back in the order given."""
        lengths = np.asarray(lengths)
        order = np.argsort(-lengths, kind="stable")
        out = np.empty((len(order), self.config.hidden), np.float32)
        for lo in range(0, len(order), batch):
            part = order[lo:lo + batch]
            longest = int(lengths[part].max())
            out[part] = self.encode_ids(np.asarray(ids)[part, :longest], lengths[part])
        return out

    def _forward(self, ids: go.Buffer[go.i32], lengths: go.Buffer[go.i32], batch: int,
                 seq: int) -> F32:  # fmt: skip
        cfg, buf = self.config, self._buffers(batch, seq)
        x, y, ctx, qkv, mid = buf["x"], buf["y"], buf["ctx"], buf["qkv"], buf["mid"]
        kt, vt = buf["kt"], buf["vt"]
        rows = batch * seq
        k = self._k
        k["embed"][(rows,)](ids, seq, self.word, self.pos, self.kind, self.ln[0], self.ln[1], x)
        scale = 1.0 / math.sqrt(HEAD_DIM)
        for wqkv, bqkv, wo, bo, g1, b1n, w1, b1, w2, b2, g2, b2n in self.layers:
            self._linear(x, wqkv, bqkv, qkv)
            k["split_keys_values"][(seq, cfg.hidden, batch)](qkv, seq, kt, vt)
            k["attention"][(seq, cfg.heads, batch)](qkv, kt, vt, lengths, seq, scale, ctx)
            self._linear(ctx, wo, bo, y)
            k["add_layer_norm"][(rows,)](y, x, g1, b1n)  # y = norm(y + x)
            self._linear(y, w1, b1, mid, gelu=True)
            self._linear(mid, w2, b2, x)
            k["add_layer_norm"][(rows,)](x, y, g2, b2n)  # x = norm(x + y)
        out = buf["out"]
        k["mean_pool_normalize"][(batch,)](x, lengths, seq, out)
        return out.numpy()


__all__ = ["MiniLM", "Tokenizer", "exact", "pack_columns"]
