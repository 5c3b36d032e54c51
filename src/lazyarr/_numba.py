"""numba interop through its extension API, registered when numba is imported.

- `@njit` functions accept lazyarr arrays: an argument is typed as NumPy's array of
  its dtype, dimensions and layout, and unboxed from `x.__array__()`, the writable host
  buffer shared with `x` (see `_shared`), so the compiled code's writes are seen by `x`
  at its next read. A 0-d result (a NumPy scalar's stand-in) is typed as that scalar.
- Under `python -m lazyarr`, the user's `numpy` is a facade module; numba types it as
  NumPy itself, so compiled code calls NumPy's functions (`np.empty_like`) as numba
  knows them.

lazyarr never imports numba itself: `install()` puts a hook on the import of numba
(see `_hooks`).
"""

from __future__ import annotations

from ._array import Array
from ._facade import NumpyFacade
from ._hooks import when_imported

_registered = False


def register() -> None:
    """Register lazyarr's types with numba (once)."""
    global _registered
    if _registered:
        return
    _registered = True
    from numba import types
    from numba.core import cgutils
    from numba.core.extending import (NativeValue, box, lower_cast, models, register_model,
                                      typeof_impl, unbox)
    from numba.np.numpy_support import from_dtype


    class LazyArrayType(types.Array):
        """A lazyarr array argument: NumPy's array type, unboxed from __array__()."""

        def __init__(self, dtype, ndim, layout, readonly=False):
            name = f"lazyarr.Array({dtype}, {ndim}d, {layout}{', readonly' if readonly else ''})"
            super().__init__(dtype, ndim, layout, readonly=readonly, name=name)

        @property
        def key(self):
            return (super().key, "lazyarr")

        def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
            # what operations derive from it (slices, copies) are NumPy's arrays
            return types.Array(self.dtype if dtype is None else dtype,
                               self.ndim if ndim is None else ndim,
                               self.layout if layout is None else layout,
                               readonly=not self.mutable if readonly is None else readonly)

        def plain(self):
            return types.Array(self.dtype, self.ndim, self.layout, readonly=not self.mutable)

    register_model(LazyArrayType)(models.ArrayModel)

    @typeof_impl.register(Array)
    def _typeof_array(value, context):
        dtype = from_dtype(value.dtype)
        if value._scalar:
            return dtype
        flags = value.flags
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return LazyArrayType(dtype, value.ndim, layout, readonly=not flags.writeable)

    @unbox(LazyArrayType)
    def _unbox_array(typ, obj, c):
        plain = typ.plain()
        host = c.pyapi.call_method(obj, "__array__", ())
        value_ptr = cgutils.alloca_once(c.builder, c.context.get_value_type(plain))
        error_ptr = cgutils.alloca_once_value(c.builder, cgutils.true_bit)
        with c.builder.if_then(cgutils.is_not_null(c.builder, host)):
            native = c.unbox(plain, host)
            c.pyapi.decref(host)  # the unboxed array's meminfo holds its own reference
            c.builder.store(native.value, value_ptr)
            c.builder.store(native.is_error, error_ptr)
        return NativeValue(c.builder.load(value_ptr), is_error=c.builder.load(error_ptr))

    @box(LazyArrayType)
    def _box_array(typ, value, c):
        return c.box(typ.plain(), value)

    @lower_cast(LazyArrayType, types.Array)
    def _cast_array(context, builder, fromty, toty, value):
        return value

    @typeof_impl.register(NumpyFacade)
    def _typeof_facade(value, context):
        return types.Module(value.__lazyarr_source__[0])


def install() -> None:
    when_imported("numba", register)
