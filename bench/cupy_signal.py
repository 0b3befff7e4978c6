"""CuPy's equivalents of bench/cases-signal.c, for compare_cupy.py.

CASES maps a case name to a function that takes the cupy module and returns
a zero-argument callable doing one call (CuPy's plan cache warm after the
warm-up, as cusci's). The signal.cufft_* rows are cuFFT called directly
from C, and signal.sosfilt_stream_* is cusci's streaming filter, which
CuPy lacks: they have no CuPy twin.
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


_B = [2.395964410377617e-05, 0.00019167715283020936, 0.0006708700349057328, 0.0013417400698114655,
      0.001677175087264332, 0.0013417400698114655, 0.0006708700349057328, 0.00019167715283020936,
      2.395964410377617e-05]
_A = [1.0, -4.784514894995809, 10.445041065534665, -13.457719890241556, 11.12933103916398,
      -6.025260397297651, 2.0792738030118767, -0.4172171569897821, 0.03720010070484524]
_SOS = [[2.395964410377617e-05, 4.791928820755234e-05, 2.395964410377617e-05, 1.0, -1.0263514742610553, 0.26864019099379005],
        [1.0, 2.0, 1.0, 1.0, -1.0868584613628944, 0.343430940165366],
        [1.0, 2.0, 1.0, 1.0, -1.2197253651240232, 0.5076634651740437],
        [1.0, 2.0, 1.0, 1.0, -1.4515795942478362, 0.794251053241888]]


def _filt(which, rows, n):
    def make(cp):
        import cupyx.scipy.signal as S
        b, a, sos = cp.asarray(_B), cp.asarray(_A), cp.asarray(_SOS)
        x = cp.ones((rows, n)) if rows > 1 else cp.ones(n)
        if which == "lfilter":
            return lambda: S.lfilter(b, a, x)
        if which == "filtfilt":
            return lambda: S.filtfilt(b, a, x)
        return lambda: S.sosfilt(sos, x)
    return make


def _conv(which, n, m):
    def make(cp):
        import cupyx.scipy.signal as S
        x, h = cp.ones(n), cp.ones(m)
        if which == "fft":
            return lambda: S.fftconvolve(x, h)
        if which == "oa":
            return lambda: S.oaconvolve(x, h)
        return lambda: S.convolve(x, h, method="direct")
    return make


def resample_poly(cp):
    import cupyx.scipy.signal as S
    x = cp.ones(1 << 24)
    return lambda: S.resample_poly(x, 3, 2)


def medfilt(cp):
    import cupyx.scipy.signal as S
    x = cp.ones(1 << 22)
    return lambda: S.medfilt(x, 5)


def welch(cp):
    import cupyx.scipy.signal as S
    x = cp.ones(1 << 24)
    return lambda: S.welch(x, nperseg=1024)


def spectrogram(cp):
    import cupyx.scipy.signal as S
    x = cp.ones(1 << 24)
    return lambda: S.spectrogram(x)


def stft_istft(cp):
    import cupyx.scipy.signal as S
    x = cp.ones(1 << 24)
    return lambda: S.istft(S.stft(x)[2])


def _butter(count):
    def make(cp):
        import cupyx.scipy.signal as S
        if count == 1:
            return lambda: S.butter(8, 0.2, output="sos")
        # CuPy designs one filter a call
        wn = [0.05 + 0.9 * i / count for i in range(count)]
        return lambda: [S.butter(8, w, output="sos") for w in wn]
    return make


CASES = {
    "signal.welch_f64_2e24_1024": welch,
    "signal.spectrogram_f64_2e24": spectrogram,
    "signal.stft_istft_f64_2e24": stft_istft,
    "signal.butter8_sos_host": _butter(1),
    "signal.butter8_sos_bank1000_host": _butter(1000),
    "signal.lfilter_f64_256x65536": _filt("lfilter", 256, 65536),
    "signal.sosfilt_f64_256x65536": _filt("sosfilt", 256, 65536),
    "signal.filtfilt_f64_256x65536": _filt("filtfilt", 256, 65536),
    "signal.sosfilt_f64_2e24": _filt("sosfilt", 1, 1 << 24),
    "signal.sosfilt_f64_1x4096_host": _filt("sosfilt", 1, 4096),
    "signal.sosfilt_f64_1x4096": _filt("sosfilt", 1, 4096),
    "signal.sosfilt_f64_1x200": _filt("sosfilt", 1, 200),
    "signal.sosfilt_f64_4096x200": _filt("sosfilt", 4096, 200),
    "signal.fftconvolve_f64_2e22_2e12": _conv("fft", 1 << 22, 4096),
    "signal.oaconvolve_f64_2e22_2e12": _conv("oa", 1 << 22, 4096),
    "signal.convolve_direct_f64_2e20_64": _conv("direct", 1 << 20, 64),
    "signal.resample_poly_f64_2e24_3_2": resample_poly,
    "signal.medfilt_f64_2e22_k5": medfilt,
    "signal.fft_c64_2e24": _fft(1, 1 << 24),
    "signal.rfft_f32_4096x4096": rfft_4096,
    "signal.fft_c64_1024_host": _fft(1, 1024),
    "signal.fft_c64_2e20": _fft(1, 1 << 20),
    "signal.fft_c64_2e20p7": _fft(1, (1 << 20) + 7),
    "signal.fft_c64_3e13": _fft(1, 1594323),
    "signal.fft_c64_1e6": _fft(1, 1000000),
}
HOST_TIME = {"signal.fft_c64_1024_host", "signal.sosfilt_f64_1x4096_host"}
