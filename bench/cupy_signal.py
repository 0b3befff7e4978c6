"""CuPy's equivalents of bench/cases-signal.c, for compare_cupy.py.

CASES maps a case name to a function that takes the cupy module and returns
a zero-argument callable doing one call (CuPy's plan cache warm after the
warm-up, as cusci's). The signal.cufft_* rows are cuFFT called directly
from C and have no CuPy twin.
"""


def _c64(cp, rows, n):
    x = cp.ones((rows, n), dtype=cp.complex64)
    return x if rows > 1 else x[0]


def _fft(rows, n):
    def make(cp):
        x = _c64(cp, rows, n)
        return lambda: cp.fft.fft(x)
    return make


def rfft_4096(cp):
    x = cp.ones((4096, 4096), dtype=cp.float32)
    return lambda: cp.fft.rfft(x)


CASES = {
    "signal.fft_c64_2e24": _fft(1, 1 << 24),
    "signal.rfft_f32_4096x4096": rfft_4096,
    "signal.fft_c64_1024_host": _fft(1, 1024),
    "signal.fft_c64_2e20": _fft(1, 1 << 20),
    "signal.fft_c64_2e20p7": _fft(1, (1 << 20) + 7),
    "signal.fft_c64_3e13": _fft(1, 1594323),
    "signal.fft_c64_1e6": _fft(1, 1000000),
}
HOST_TIME = {"signal.fft_c64_1024_host"}
