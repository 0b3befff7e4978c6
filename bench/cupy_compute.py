"""CuPy's equivalents of bench/cases-compute.c, for compare_cupy.py (see
cupy_core.py for the conventions)."""
N28 = 1 << 28


def _pair(cp, n):
    return cp.arange(n, dtype=cp.float32), cp.full(n, 2.0, dtype=cp.float32), cp.empty(n, dtype=cp.float32)


def add_into(cp, n):
    a, b, out = _pair(cp, n)
    return lambda: cp.add(a, b, out=out)


def add_alloc(cp, n):
    a, b, _ = _pair(cp, n)
    return lambda: cp.add(a, b)


def mul_scalar(cp):
    a, _, out = _pair(cp, N28)
    return lambda: cp.multiply(a, 2.5, out=out)


def exp(cp):
    a, _, out = _pair(cp, N28)
    return lambda: cp.exp(a, out=out)


def sum_all(cp):
    a = cp.arange(N28, dtype=cp.float32)
    out = cp.empty((), dtype=cp.float32)
    return lambda: cp.sum(a, out=out)


def sum_rows(cp):
    a = cp.arange(N28, dtype=cp.float32).reshape(1 << 14, 1 << 14)
    out = cp.empty(1 << 14, dtype=cp.float32)
    return lambda: cp.sum(a, axis=1, out=out)


def argmax(cp):
    a = cp.sin(cp.arange(1 << 26, dtype=cp.float32)) * cp.float32(1000.0)
    out = cp.empty((), dtype=cp.int64)
    return lambda: cp.argmax(a, out=out)


def cumsum(cp):
    a = cp.sin(cp.arange(1 << 26, dtype=cp.float32)) * cp.float32(1000.0)
    out = cp.empty(1 << 26, dtype=cp.float32)
    return lambda: cp.cumsum(a, out=out)


N26 = 1 << 26


def _noise(cp):
    return cp.sin(cp.arange(N26, dtype=cp.float32)) * cp.float32(1000.0)


def sort(cp):
    a = _noise(cp)
    return lambda: cp.sort(a)


def argsort(cp):
    a = _noise(cp)
    return lambda: cp.argsort(a)


def quantile(cp, q):
    a = _noise(cp)
    q = cp.asarray(q) if isinstance(q, list) else q
    return lambda: cp.quantile(a, q)


def histogram(cp):
    a = _noise(cp)
    return lambda: cp.histogram(a, 100)


CASES = {
    "compute.add_f32_1K_host": lambda cp: add_into(cp, 1024),
    "compute.add_f32_1K_alloc_host": lambda cp: add_alloc(cp, 1024),
    "compute.add_f32_2e28": lambda cp: add_into(cp, N28),
    "compute.mul_scalar_f32_2e28": mul_scalar,
    "compute.exp_f32_2e28": exp,
    "compute.sum_f32_2e28": sum_all,
    "compute.sum_rows_f32_2e28": sum_rows,
    "compute.argmax_f32_2e26": argmax,
    "compute.cumsum_f32_2e26": cumsum,
    "compute.sort_f32_2e26": sort,
    "compute.argsort_f32_2e26": argsort,
    "compute.quantile_f32_2e26": lambda cp: quantile(cp, 0.5),
    "compute.quantile3_f32_2e26": lambda cp: quantile(cp, [0.05, 0.5, 0.95]),
    "compute.histogram_f32_2e26": histogram,
}
HOST_TIME = {"compute.add_f32_1K_host", "compute.add_f32_1K_alloc_host"}


# Users' own kernels: a fused ElementwiseKernel against the chain of ufuncs.
N26_EWK = 1 << 26


def _ewk_inputs(cp):
    x = cp.arange(N26_EWK, dtype=cp.float32)
    y = cp.full(N26_EWK, 2.0, dtype=cp.float32)
    return x, y, cp.empty_like(x)


def ewk_fused(cp):
    x, y, z = _ewk_inputs(cp)
    k = cp.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y * y - 1", "fused")
    a = cp.float32(2.5)
    return lambda: k(x, y, a, z)


def ewk_chain(cp):
    x, y, z = _ewk_inputs(cp)
    t1, t2 = cp.empty_like(x), cp.empty_like(x)

    def run():
        cp.multiply(x, 2.5, out=t1)
        cp.multiply(y, y, out=t2)
        cp.add(t1, t2, out=t1)
        cp.subtract(t1, 1, out=z)

    return run


CASES.update({
    "compute.ewk_fused_f32_2e26": ewk_fused,
    "compute.ewk_chain_f32_2e26": ewk_chain,
})
