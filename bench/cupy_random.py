"""CuPy's equivalents of bench/cases-random.c, for compare_cupy.py.

CASES maps a case name to a function that takes the cupy module and returns
a zero-argument callable doing one call, making an array
of the same size (CuPy allocates from its pool, as cusci reuses `out`).
"""


def _gen(cp):
    return cp.random.default_rng(2385)


def uniform_f32(cp):
    g = _gen(cp)
    return lambda: g.random(1 << 28, dtype=cp.float32)


def standard_normal_f32(cp):
    g = _gen(cp)
    return lambda: g.standard_normal(1 << 28, dtype=cp.float32)


def uniform_f64(cp):
    g = _gen(cp)
    return lambda: g.random(1 << 27, dtype=cp.float64)


def standard_normal_f64(cp):
    g = _gen(cp)
    return lambda: g.standard_normal(1 << 27, dtype=cp.float64)


def integers_i64(cp):
    g = _gen(cp)
    return lambda: g.integers(0, 1000000, size=1 << 26, dtype=cp.int64)


def poisson5(cp):
    g = _gen(cp)
    return lambda: g.poisson(5.0, size=1 << 26)


def poisson100(cp):
    g = _gen(cp)
    return lambda: g.poisson(100.0, size=1 << 26)


def gamma2_f32(cp):
    g = _gen(cp)
    return lambda: g.standard_gamma(2.0, 1 << 26, dtype=cp.float32)


def binomial(cp):
    g = _gen(cp)
    return lambda: g.binomial(100, 0.4, size=1 << 26)


CASES = {
    "random.uniform_f32_2e28": uniform_f32,
    "random.standard_normal_f32_2e28": standard_normal_f32,
    "random.uniform_f64_2e27": uniform_f64,
    "random.standard_normal_f64_2e27": standard_normal_f64,
    "random.integers_i64_2e26": integers_i64,
    "random.poisson5_2e26": poisson5,
    "random.poisson100_2e26": poisson100,
    "random.gamma2_f32_2e26": gamma2_f32,
    "random.binomial_100_0.4_2e26": binomial,
}
