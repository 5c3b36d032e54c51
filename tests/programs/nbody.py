"""Gravitational n-body simulation (leapfrog, softened forces) from a deterministic
rotating disc; prints the energy drift and the centre of mass."""

import os
import sys

import numpy as np

G, SOFTENING, DT = 1.0, 0.05, 0.002


def accelerations(pos, mass):
    diff = pos[None, :, :] - pos[:, None, :]  # diff[i, j] = pos[j] - pos[i]
    inv_r3 = (np.sum(diff ** 2, axis=-1) + SOFTENING ** 2) ** -1.5
    return G * np.einsum("ij,ijk->ik", inv_r3 * mass[None, :], diff)


def energy(pos, vel, mass):
    kinetic = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    diff = pos[None, :, :] - pos[:, None, :]
    inv_r = 1.0 / np.sqrt(np.sum(diff ** 2, axis=-1) + SOFTENING ** 2)
    potential = -G * np.sum(np.triu(mass[:, None] * mass[None, :] * inv_r, k=1))
    return kinetic + potential


def initial_disc(n):
    k = np.arange(n, dtype=np.float64)
    radius = np.sqrt((k + 0.5) / n)
    angle = k * np.pi * (3.0 - np.sqrt(5.0))  # the golden angle
    pos = np.stack([radius * np.cos(angle), radius * np.sin(angle), 0.05 * np.sin(3.0 * angle)],
                   axis=1)
    speed = np.sqrt(radius) * 0.8
    vel = np.stack([-speed * np.sin(angle), speed * np.cos(angle), np.zeros(n)], axis=1)
    mass = np.full(n, 1.0 / n) * (1.0 + 0.5 * np.cos(k))
    return pos, vel - np.mean(vel, axis=0), mass


def main(out_dir=None, steps=150):
    pos, vel, mass = initial_disc(48)
    e0 = energy(pos, vel, mass)
    acc = accelerations(pos, mass)
    for step in range(1, steps + 1):
        vel = vel + 0.5 * DT * acc
        pos = pos + DT * vel
        acc = accelerations(pos, mass)
        vel = vel + 0.5 * DT * acc
        if step % 50 == 0:
            e = energy(pos, vel, mass)
            print(f"step {step:4d}: energy {float(e):.10f}, drift {float((e - e0) / abs(e0)):.3e}")
    com = np.sum(mass[:, None] * pos, axis=0) / np.sum(mass)
    print("centre of mass", np.round(com, 8))
    if out_dir:
        np.save(os.path.join(out_dir, "nbody.npy"), np.concatenate([pos, vel], axis=1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
