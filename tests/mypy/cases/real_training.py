"""A realistic training-loop script: logistic regression by mini-batch gradient descent.

Clean: the plugin must report nothing here. The loop follows the usual shape of a PyTorch or
Taichi ``regression`` example (forward, loss, gradient, update, log every few epochs),
written anew with gpuoff kernels; the gradient of the mean log-loss is computed by hand.
"""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32

FEATURES = 8


@go.func
def sigmoid(z: f32) -> f32:
    return 1.0 / (1.0 + go.exp(-z))


@go.kernel
def forward(x: Borrow[Array[f32]], w: Borrow[Array[f32]], b: f32,
            prob: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        z = b
        for j in range(FEATURES):
            z += x[i, j] * w[j]
        prob[i] = sigmoid(z)


@go.kernel
def gradient(x: Borrow[Array[f32]], prob: Borrow[Array[f32]], y: Borrow[Array[f32]],
             grad: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    """``grad[j] = mean_i (p_i - y_i) x_ij`` for each feature, and the bias at ``FEATURES``."""
    j = go.global_id(0)
    n = x.shape[0]
    if j <= FEATURES:
        acc = f32(0.0)
        for i in range(n):
            err = prob[i] - y[i]
            acc += err * (x[i, j] if j < FEATURES else 1.0)
        grad[j] = acc / n


@go.kernel
def sgd_update(w: BorrowMut[Array[f32]], grad: Borrow[Array[f32]], lr: f32) -> None:
    j = go.global_id(0)
    if j < w.shape[0]:
        w[j] -= lr * grad[j]


@go.kernel
def decay(lr: Owned[Array[f32]], factor: f32) -> None:
    if go.global_id(0) == 0:
        lr[0] = lr[0] * factor


def make_data(n: int, seed: int) -> tuple[go.Buffer[f32], go.Buffer[f32]]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, FEATURES)).astype(np.float32)
    true_w = np.linspace(-1.0, 1.0, FEATURES, dtype=np.float32)
    y = (x @ true_w + 0.1 > 0).astype(np.float32)
    return go.array(x), go.array(y)


def log_loss(prob: go.Buffer[f32], y: go.Buffer[f32]) -> float:
    p = np.clip(prob.numpy(), 1e-6, 1 - 1e-6)
    t = y.numpy()
    return float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).mean())


def train(epochs: int = 30, batch: int = 64, seed: int = 0) -> tuple[float, float]:
    x, y = make_data(512, seed)
    n = x.shape[0]
    w = go.zeros(FEATURES + 1, go.f32)  # the weights and, last, the bias
    grad = go.zeros(FEATURES + 1, go.f32)
    prob = go.zeros(batch, go.f32)
    schedule = go.full(1, 0.5, go.f32)
    losses: list[float] = []
    for epoch in range(epochs):
        lr = float(schedule.numpy()[0])
        for start in range(0, n - batch + 1, batch):
            xb = x[start : start + batch]
            yb = y[start : start + batch]
            bias = float(w.numpy()[FEATURES])
            forward[batch](xb, w, bias, prob)
            gradient[FEATURES + 1](xb, prob, yb, grad)
            sgd_update[FEATURES + 1](w, grad, lr)
        if epoch % 10 == 9:
            schedule = decay[1](schedule, 0.5)
            losses.append(log_loss(prob, y[n - batch :]))
    final = go.zeros(n, go.f32)
    forward[n](x, w, float(w.numpy()[FEATURES]), final)
    accuracy = float(((final.numpy() > 0.5) == (y.numpy() > 0.5)).mean())
    return losses[-1], accuracy


if __name__ == "__main__":
    loss, acc = train()
    print(f"final loss {loss:.3f}, accuracy {acc:.1%}")
