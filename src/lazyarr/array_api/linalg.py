"""The standard's `linalg` extension: lazyarr.linalg, with `eig` and `eigvals` always
complex as the standard asks (NumPy's are real when every eigenvalue is real)."""

from numpy.linalg import LinAlgError  # noqa: F401

from .._api import NAMESPACES
from .._api.linalg import EigResult, eig_parts
from ._standard import copy_namespace as _copy_namespace, standardized


def eig(x, /):
    """Eigenvalues and right eigenvectors, complex64 for float32 input, else complex128."""
    return standardized(EigResult(*eig_parts("eig", x, vectors=True, always_complex=True)))


def eigvals(x, /):
    """Eigenvalues, complex64 for float32 input, else complex128."""
    return standardized(eig_parts("eigvals", x, vectors=False, always_complex=True)[0])


_copy_namespace(NAMESPACES["linalg"], globals(), {"eig": eig, "eigvals": eigvals})
