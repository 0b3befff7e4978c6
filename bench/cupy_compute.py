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


CASES = {
    "compute.add_f32_1K_host": lambda cp: add_into(cp, 1024),
    "compute.add_f32_1K_alloc_host": lambda cp: add_alloc(cp, 1024),
    "compute.add_f32_2e28": lambda cp: add_into(cp, N28),
    "compute.mul_scalar_f32_2e28": mul_scalar,
    "compute.exp_f32_2e28": exp,
    "compute.sum_f32_2e28": sum_all,
    "compute.sum_rows_f32_2e28": sum_rows,
}
HOST_TIME = {"compute.add_f32_1K_host", "compute.add_f32_1K_alloc_host"}
