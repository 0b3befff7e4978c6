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


CASES = {
    "compute.add_f32_1K_host": lambda cp: add_into(cp, 1024),
    "compute.add_f32_1K_alloc_host": lambda cp: add_alloc(cp, 1024),
    "compute.add_f32_2e28": lambda cp: add_into(cp, N28),
    "compute.mul_scalar_f32_2e28": mul_scalar,
    "compute.exp_f32_2e28": exp,
}
HOST_TIME = {"compute.add_f32_1K_host", "compute.add_f32_1K_alloc_host"}
