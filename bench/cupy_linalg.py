"""CuPy's equivalents of bench/cases-linalg.c, for compare_cupy.py.

CASES maps a case name to a function that takes the cupy module and returns
a zero-argument callable doing one call. The inputs match cusci-bench's in
shape, dtype and kind (well conditioned, symmetric positive definite where
the case needs it), not value by value.
"""
import numpy as np

N4K = 4096
NB = 100000


def _rand(cp, shape, dtype, shift=0.0, spd=False):
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, shape)
    n = shape[-1]
    if spd:
        a = (a + np.swapaxes(a, -1, -2)) / 2 + n * np.eye(n)
    elif shift:
        a = a + shift * np.eye(n)
    return cp.asarray(a.astype(dtype))


def matmul_f32_8192(cp):
    a = _rand(cp, (8192, 8192), np.float32)
    b = _rand(cp, (8192, 8192), np.float32)
    c = cp.empty_like(a)
    return lambda: cp.matmul(a, b, out=c)


def solve_f64_4096(cp):
    a = _rand(cp, (N4K, N4K), np.float64, shift=2.0 * N4K)
    b = _rand(cp, (N4K,), np.float64)
    return lambda: cp.linalg.solve(a, b)


def cholesky_f64_4096(cp):
    a = _rand(cp, (N4K, N4K), np.float64, spd=True)
    return lambda: cp.linalg.cholesky(a)


def lu_factor_f64_4096(cp):
    import cupyx.scipy.linalg as csl
    a = _rand(cp, (N4K, N4K), np.float64, shift=2.0 * N4K)
    return lambda: csl.lu_factor(a)


def eigh_f64_4096(cp):
    a = _rand(cp, (N4K, N4K), np.float64, spd=True)
    return lambda: cp.linalg.eigh(a)


def svd_f32_2048(cp):
    a = _rand(cp, (2048, 2048), np.float32)
    return lambda: cp.linalg.svd(a, full_matrices=False)


def solve_batched_8x8_f64(cp):
    a = _rand(cp, (NB, 8, 8), np.float64, shift=16.0)
    b = _rand(cp, (NB, 8, 1), np.float64)
    return lambda: cp.linalg.solve(a, b)


def inv_batched_8x8_f64(cp):
    a = _rand(cp, (NB, 8, 8), np.float64, shift=16.0)
    return lambda: cp.linalg.inv(a)


def det_batched_8x8_f64(cp):
    a = _rand(cp, (NB, 8, 8), np.float64, shift=16.0)
    return lambda: cp.linalg.det(a)


def qr_f64_4096(cp):
    a = _rand(cp, (N4K, N4K), np.float64)
    return lambda: cp.linalg.qr(a)


def lstsq_f64_4096x512(cp):
    a = _rand(cp, (N4K, 512), np.float64)
    b = _rand(cp, (N4K,), np.float64)
    return lambda: cp.linalg.lstsq(a, b, rcond=None)


def solve_batched_16x16_f64(cp):
    a = _rand(cp, (NB, 16, 16), np.float64, shift=32.0)
    b = _rand(cp, (NB, 16, 1), np.float64)
    return lambda: cp.linalg.solve(a, b)


def solve_batched_32x32_f64(cp):
    a = _rand(cp, (NB, 32, 32), np.float64, shift=64.0)
    b = _rand(cp, (NB, 32, 1), np.float64)
    return lambda: cp.linalg.solve(a, b)


def inv_batched_16x16_f64(cp):
    a = _rand(cp, (NB, 16, 16), np.float64, shift=32.0)
    return lambda: cp.linalg.inv(a)


def inv_batched_32x32_f64(cp):
    a = _rand(cp, (NB, 32, 32), np.float64, shift=64.0)
    return lambda: cp.linalg.inv(a)


def expm_f64_1024(cp):
    import cupyx.scipy.linalg as csl
    a = _rand(cp, (1024, 1024), np.float64, shift=0.0)
    return lambda: csl.expm(a)


def solve_toeplitz_f64_4096(cp):
    # CuPy has no Levinson solver: where cupyx.scipy.linalg lacks
    # solve_toeplitz, the dense solve of the Toeplitz matrix stands in.
    import cupyx.scipy.linalg as csl
    c = np.array([2.0] + [0.5 / (i * i) for i in range(1, N4K)])
    c = cp.asarray(c)
    b = _rand(cp, (N4K,), np.float64)
    if hasattr(csl, "solve_toeplitz"):
        return lambda: csl.solve_toeplitz(c, b)
    return lambda: cp.linalg.solve(csl.toeplitz(c), b)


def eig_f64_1024(cp):
    # CuPy has no eig for general matrices (cupy.linalg has eigh only).
    raise NotImplementedError("CuPy has no eig for general matrices")


def eigh_top10_f64_4096(cp):
    # CuPy's eigh has no subset_by_index: the full decomposition, then the
    # top 10 pairs, is what a CuPy user does.
    a = _rand(cp, (N4K, N4K), np.float64, spd=True)

    def top10():
        w, v = cp.linalg.eigh(a)
        return w[-10:], v[:, -10:]
    return top10


def sqrtm_f64_512(cp):
    # cupyx.scipy.linalg has no sqrtm (CuPy 14).
    import cupyx.scipy.linalg as csl
    if hasattr(csl, "sqrtm"):
        a = _rand(cp, (512, 512), np.float64, shift=32.0)
        return lambda: csl.sqrtm(a)
    raise NotImplementedError("CuPy has no sqrtm (cupyx.scipy.linalg lacks it)")


def logm_f64_512(cp):
    # cupyx.scipy.linalg has no logm (CuPy 14).
    import cupyx.scipy.linalg as csl
    if hasattr(csl, "logm"):
        a = _rand(cp, (512, 512), np.float64, shift=32.0)
        return lambda: csl.logm(a)
    raise NotImplementedError("CuPy has no logm (cupyx.scipy.linalg lacks it)")


CASES = {"linalg." + f.__name__: f for f in (
    matmul_f32_8192, solve_f64_4096, cholesky_f64_4096, lu_factor_f64_4096, eigh_f64_4096, svd_f32_2048,
    solve_batched_8x8_f64, inv_batched_8x8_f64, det_batched_8x8_f64, qr_f64_4096, lstsq_f64_4096x512,
    solve_batched_16x16_f64, solve_batched_32x32_f64, inv_batched_16x16_f64, inv_batched_32x32_f64,
    expm_f64_1024, solve_toeplitz_f64_4096, eig_f64_1024, eigh_top10_f64_4096,
    sqrtm_f64_512, logm_f64_512)}
