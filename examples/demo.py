"""A NumPy program, unchanged but for its import, run lazily by lazyarr.

Every line below on the rod's 100,000 points records work; nothing is computed until
`print` needs the values (or a cut bounds the pending graph), and then the pending
graph runs as one program. Operations on small arrays (at most 32,768 elements, on the
CPU) are computed at once through NumPy instead, where recording would cost more.
"""

import lazyarr as np

# Heat flowing along a rod: both ends held at 0, a hot spot in the middle.
n = 100_000
u = np.zeros(n)
u = np.where(np.abs(np.arange(n) - n // 2) < 5, 100.0, u)
for _ in range(200):
    u = u + 0.25 * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    u = np.concatenate([np.zeros(1), u[1:-1], np.zeros(1)])

# Normalise the columns of a small matrix built from the result.
m = np.stack([u, u ** 2, np.sqrt(u)], axis=1)
z = (m - m.mean(axis=0)) / m.std(axis=0)

print("peak temperature:", u.max())
print("column spreads after normalising:", z.std(axis=0).round(12))
# What lazyarr did: the recorded operations ran in a few flushes. Most are cuts (cause
# "size"): the loop's pending graph is evaluated every 60 or so operations, at the same
# place of the loop body, so the same few programs repeat; the rest are the two prints.
# On the CPU they run on the NumPy interpreter first, while XLA compiles the repeating
# ones in the background. np.report() would list them by line.
stats = np.stats()
causes = ", ".join(f"{n} {cause}" for cause, n in sorted(stats["flushes"].items()))
print(f"lazyarr: {stats['nodes_evaluated']} recorded operations ran in "
      f"{stats['flushes_total']} flushes ({causes}); {stats['compiles']} programs compiled, "
      f"{stats['disk_cache_hits']} loaded from the disk cache; {stats['eager_ops']} small "
      "operations computed at once")
