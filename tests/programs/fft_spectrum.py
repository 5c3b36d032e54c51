"""Spectral analysis: a signal of three tones plus noise, a Hann window, np.fft.rfft
power spectrum, the strongest peaks by np.argpartition, a band-stop filter applied in
the frequency domain and inverted with irfft, and a 2-D FFT of an image with fftshift."""

import os
import sys

import numpy as np


def main(out_dir=None):
    rng = np.random.default_rng(31)
    rate, n = 1000.0, 2048
    t = np.arange(n) / rate
    signal = (np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t)
              + 0.25 * np.sin(2 * np.pi * 300 * t) + rng.normal(0.0, 0.2, n))
    window = np.hanning(n)
    spectrum = np.fft.rfft(signal * window)
    freqs = np.fft.rfftfreq(n, 1.0 / rate)
    power = np.abs(spectrum) ** 2
    top = np.argpartition(power, -3)[-3:]
    top = top[np.argsort(-power[top])]
    print("peaks at", np.round(freqs[top], 3).tolist())
    print("total power %.6e" % power.sum())

    band = (freqs > 100) & (freqs < 140)
    filtered_spectrum = np.fft.rfft(signal)
    filtered_spectrum[band] = 0.0
    filtered = np.fft.irfft(filtered_spectrum, n)
    print("removed energy %.6f" % (np.sum(signal ** 2) - np.sum(filtered ** 2)))

    y, x = np.ogrid[-32:32, -32:32]
    image = np.cos(2 * np.pi * (3 * x + 5 * y) / 64.0)
    f2 = np.fft.fftshift(np.fft.fft2(image))
    peak = np.unravel_index(np.argmax(np.abs(f2)), f2.shape)
    print("2-D peak", tuple(int(v) - 32 for v in peak), "magnitude %.4f" % np.abs(f2).max())
    if out_dir:
        np.save(os.path.join(out_dir, "fft_spectrum.npy"), np.round(filtered, 10))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
