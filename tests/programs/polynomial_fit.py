"""Polynomial tools: noisy samples of a cubic fitted by np.polyfit of several degrees,
residuals compared, the roots of the fit by np.roots, the derivative and integral by
np.polyder/np.polyint, a np.poly1d object, and a Chebyshev fit from
numpy.polynomial."""

import os
import sys

import numpy as np
from numpy.polynomial import Chebyshev


def main(out_dir=None):
    rng = np.random.default_rng(9)
    x = np.linspace(-2.0, 2.0, 41)
    truth = np.array([1.0, -0.5, -2.0, 0.7])
    y = np.polyval(truth, x) + rng.normal(0.0, 0.05, x.size)
    for degree in (1, 2, 3, 5):
        coef = np.polyfit(x, y, degree)
        rms = np.sqrt(np.mean((np.polyval(coef, x) - y) ** 2))
        print(f"degree {degree}: rms {rms:.6f}")
    cubic = np.polyfit(x, y, 3)
    print("cubic", np.round(cubic, 4).tolist())
    roots = np.sort_complex(np.roots(cubic))
    print("roots", [complex(round(r.real, 4), round(r.imag, 4)) for r in roots])
    p = np.poly1d(cubic)
    print("poly1d order", p.order, "p(1)=%.6f" % p(1.0), "p'(1)=%.6f" % p.deriv()(1.0))
    area = np.polyint(cubic)
    print("integral -1..1 %.6f" % (np.polyval(area, 1.0) - np.polyval(area, -1.0)))
    cheb = Chebyshev.fit(x, y, 3)
    print("chebyshev", np.round(cheb.convert().coef, 4).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "polynomial_fit.npy"),
                np.concatenate([cubic, np.polyder(cubic), cheb(x)]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
