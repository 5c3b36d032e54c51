"""lazyarr's benchmark suite: each workload as NumPy, lazyarr and hand-written jax.jit.

Run it with `python -m benchmarks` from the repository root; see README.md.
"""
