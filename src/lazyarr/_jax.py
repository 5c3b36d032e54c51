"""jax interop: `__jax_array__` and a pytree registration.

- `jnp.asarray(x)`, `jnp.array(x)` and `x + jax_array` (jax's operators) take a
  lazyarr array through `__jax_array__`: on the XLA backend its computed buffer (a
  jax.Array, no copy), else `jnp.asarray` of its host value, under the user's own jax
  configuration (lazyarr's programs enable 64-bit types for themselves only).
- `jax.jit(f)(x)`: jax no longer calls `__jax_array__` while tracing, so lazyarr's
  array is registered, when jax is imported, as a pytree whose one leaf is that jax
  array: inside `f` it is a jax tracer, as a NumPy array would be.
- DLPack both ways is `Array.__dlpack__` and `lazyarr.from_dlpack`.
"""

from __future__ import annotations

import sys

import numpy as np

from ._array import Array
from ._hooks import when_imported


def _jax():
    """jax, which its caller (jax itself, or the import hook) has imported already: the
    core imports no backend library."""
    return sys.modules["jax"]


def jax_array(x):
    """`x`'s computed value as a jax.Array."""
    jax = _jax()
    jnp = jax.numpy
    value = x._value_buffer()
    if isinstance(value, jax.Array):
        return value
    return jnp.asarray(np.asarray(value))


def register() -> None:
    jax = _jax()
    jax.tree_util.register_pytree_node(Array, lambda x: ((jax_array(x),), None),
                                       lambda aux, leaves: leaves[0])


def install() -> None:
    when_imported("jax", register)
