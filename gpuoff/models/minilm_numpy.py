"""The same encoder forward pass in plain NumPy (f32, BLAS matrix products): the reference of
the synthetic-weights test and the bench's NumPy baseline.

NumPy has no ``erf``: ``erf`` below is Abramowitz and Stegun's 7.1.26 (absolute error below
1.5e-7, under f32's resolution of GELU's result at the sizes BERT sees).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuoff.models.weights import F32, Weights

LN_EPS = 1e-12


def erf(x: F32) -> F32:
    """``erf`` of every element (A&S 7.1.26), in f32."""
    a = np.abs(x)
    t = np.float32(1.0) / (np.float32(1.0) + np.float32(0.3275911) * a)
    poly = t * (np.float32(0.254829592) + t * (np.float32(-0.284496736) + t * (
        np.float32(1.421413741) + t * (np.float32(-1.453152027) + t * np.float32(1.061405429)))))
    y = np.float32(1.0) - poly * np.exp(-a * a)
    out: F32 = np.copysign(y, x).astype(np.float32, copy=False)
    return out


def gelu(x: F32) -> F32:
    """BERT's exact GELU, ``x * (1 + erf(x / sqrt(2))) / 2``."""
    out: F32 = np.float32(0.5) * x * (np.float32(1.0) + erf(x * np.float32(0.70710678)))
    return out


def layer_norm(x: F32, g: F32, b: F32) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    d = x - mean
    var = (d * d).mean(axis=-1, keepdims=True)
    out: F32 = d / np.sqrt(var + np.float32(LN_EPS)) * g + b
    return out


def forward(w: Weights, ids: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any]) -> F32:
    """Sentence embeddings ``[batch, hidden]`` of token ids ``[batch, length]`` whose first
    ``lengths[b]`` tokens are real (the rest padding): mean pooling, L2-normalised."""
    cfg = w.config
    batch, seq = ids.shape
    heads, hd = cfg.heads, cfg.head_dim
    x = layer_norm(w.word[ids] + w.pos[:seq] + w.kind[0], w.ln_g, w.ln_b)  # [B, L, H]
    valid = np.arange(seq)[None, :] < np.asarray(lengths)[:, None]  # [B, L]
    mask = np.where(valid, np.float32(0.0), np.float32(-np.inf))[:, None, None, :]
    scale = np.float32(1.0 / np.sqrt(hd))
    rows = x.reshape(batch * seq, cfg.hidden)  # one matrix product per projection
    for lw in w.layers:
        qkv = rows @ lw.wqkv + lw.bqkv  # [B*L, 3H]
        # [B, heads, L, hd] each, contiguous: NumPy's stacked matmul falls back to a slow
        # loop (no BLAS) for transposed views
        q, k, v = (np.ascontiguousarray(
            qkv[:, i * cfg.hidden:(i + 1) * cfg.hidden]
            .reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)) for i in range(3))
        s = (q @ np.ascontiguousarray(k.transpose(0, 1, 3, 2))) * scale + mask  # [B, h, L, L]
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        p = s / s.sum(axis=-1, keepdims=True)
        ctx: F32 = (p @ v).transpose(0, 2, 1, 3).reshape(batch * seq, cfg.hidden)
        rows = layer_norm(ctx @ lw.wo + lw.bo + rows, lw.ln1_g, lw.ln1_b)
        hmid = gelu(rows @ lw.w1 + lw.b1)
        rows = layer_norm(hmid @ lw.w2 + lw.b2 + rows, lw.ln2_g, lw.ln2_b)
    x = rows.reshape(batch, seq, cfg.hidden)
    m = (x * valid[..., None]).sum(axis=1) / np.maximum(valid.sum(axis=1), 1)[:, None]
    norm = np.maximum(np.linalg.norm(m, axis=1, keepdims=True), np.float32(1e-12))
    out: F32 = (m / norm).astype(np.float32, copy=False)
    return out


__all__ = ["erf", "forward", "gelu", "layer_norm"]
