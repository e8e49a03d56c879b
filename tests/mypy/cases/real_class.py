"""A realistic user class: a particle system that owns its buffers and launches in methods.

Clean: the plugin must report nothing here. The step follows the structure of Warp's
``example_sph``/``example_particle_chain`` (forces, then a symplectic Euler update, then a
boundary bounce), written anew for gpuoff with a simple spring force toward the origin.
"""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32

DAMPING = 0.98


@go.kernel
def spring_forces(pos: Borrow[Array[f32]], k: f32, force: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < pos.shape[0]:
        force[i, 0] = -k * pos[i, 0]
        force[i, 1] = -k * pos[i, 1] - 9.81


@go.kernel
def integrate(
    pos: Owned[Array[f32]], vel: BorrowMut[Array[f32]], force: Borrow[Array[f32]], dt: f32
) -> None:
    i = go.global_id(0)
    if i < pos.shape[0]:
        for d in range(2):
            vel[i, d] = DAMPING * (vel[i, d] + dt * force[i, d])
            pos[i, d] = pos[i, d] + dt * vel[i, d]


@go.kernel
def bounce(pos: BorrowMut[Array[f32]], vel: BorrowMut[Array[f32]], floor: f32) -> None:
    i = go.global_id(0)
    if i < pos.shape[0] and pos[i, 1] < floor:
        pos[i, 1] = floor
        vel[i, 1] = -0.5 * vel[i, 1]


@go.kernel
def kinetic(vel: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < vel.shape[0]:
        out[i] = 0.5 * (vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1])


class ParticleSystem:
    """``n`` particles in 2-D; every buffer belongs to the system."""

    def __init__(self, n: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.n = n
        self.pos = go.array(rng.uniform(-1.0, 1.0, (n, 2)).astype(np.float32))
        self.vel = go.zeros((n, 2), go.f32)
        self.force = go.zeros((n, 2), go.f32)
        self.energy = go.zeros(n, go.f32)
        self.stiffness = 4.0
        self.steps = 0

    def compute_forces(self) -> None:
        spring_forces[self.n](self.pos, self.stiffness, self.force)

    def step(self, dt: float = 0.01) -> None:
        self.compute_forces()
        # integrate takes the positions and hands them back: keep the new handle
        self.pos = integrate[self.n](self.pos, self.vel, self.force, dt)
        bounce[self.n](self.pos, self.vel, -2.0)
        self.steps += 1

    def run(self, steps: int, dt: float = 0.01) -> float:
        for _ in range(steps):
            self.step(dt)
        return self.total_energy()

    def total_energy(self) -> float:
        kinetic[self.n](self.vel, self.energy)
        return float(self.energy.numpy().sum())

    def reset(self, seed: int) -> None:
        """Fresh state; the old buffers are dropped (they may still be in use by launches)."""
        fresh = ParticleSystem(self.n, seed)
        self.pos, self.vel = fresh.pos, fresh.vel
        self.force = go.zeros((self.n, 2), go.f32)
        self.steps = 0

    def snapshot(self) -> np.ndarray[tuple[int, ...], np.dtype[np.float32]]:
        with self.pos.host() as view:
            return view.copy()

    def lowest(self) -> float:
        heights = self.pos[:, 1]  # a view: reading it waits for the writers
        return float(heights.numpy().min())


class Trail:
    """Keeps the last few position snapshots of a system (buffers it owns)."""

    def __init__(self, system: ParticleSystem, length: int) -> None:
        self.system = system
        self.frames: list[go.Buffer[f32]] = []
        self.length = length

    def record(self) -> None:
        self.frames.append(go.array(self.system.snapshot()))
        if len(self.frames) > self.length:
            self.frames.pop(0)

    def spread(self) -> float:
        if not self.frames:
            return 0.0
        first, last = self.frames[0], self.frames[-1]
        return float(np.abs(last.numpy() - first.numpy()).max())


def simulate(n: int = 256, steps: int = 20) -> tuple[float, float, float]:
    system = ParticleSystem(n)
    trail = Trail(system, 4)
    for _ in range(steps):
        system.step()
        trail.record()
    energy = system.total_energy()
    system.reset(seed=1)
    return energy, trail.spread(), system.lowest()
