"""CuPy's equivalents of bench/cases-core.c, for compare_cupy.py.

CASES maps a case name to a function that takes the cupy module and returns
a zero-argument callable doing one call (writing into a preallocated output
where CuPy allows it). HOST_TIME names the cases timed on the host clock
without a synchronisation per call, as cusci-bench times them.
"""
import numpy as np

N28 = 1 << 28


def copy_f32(cp):
    a, out = cp.ones(N28, dtype=cp.float32), cp.empty(N28, dtype=cp.float32)
    return lambda: cp.copyto(out, a)


def astype_f64_f32(cp):
    a = cp.ones(N28, dtype=cp.float64)
    return lambda: a.astype(cp.float32)


def pool_alloc_free(cp):
    def f():
        x = cp.empty(1 << 20, dtype=cp.uint8)
        del x
    return f


def cudamalloc_free(cp):
    rt = cp.cuda.runtime
    return lambda: rt.free(rt.malloc(1 << 20))


def launch_empty(cp):
    k = cp.RawKernel(r'extern "C" __global__ void cusci_bench_empty() {}', "cusci_bench_empty")
    return lambda: k((1,), (32,), ())


def _transfer(cp, pinned, h2d):
    n = 256 << 20
    if pinned:
        mem = cp.cuda.alloc_pinned_memory(n)
        host = np.frombuffer(mem, dtype=np.uint8, count=n)
    else:
        host = np.empty(n, dtype=np.uint8)
    host[:] = 0x5A
    dev = cp.empty(n, dtype=cp.uint8)
    if h2d:
        return lambda: dev.set(host)
    return lambda: dev.get(out=host)


def fragmentation(cp):
    pool = cp.get_default_memory_pool()
    state = {"peak_used": 0, "peak_total": 0}

    def f():
        keep = [None] * 16
        for i in range(64):
            big = (64 << 20) * (1 + (i * 5) % 9) + (i << 20)
            t = cp.empty(big, dtype=cp.uint8)
            keep[i % 16] = None
            keep[i % 16] = cp.empty(512 << 10, dtype=cp.uint8)
            state["peak_used"] = max(state["peak_used"], pool.used_bytes())
            state["peak_total"] = max(state["peak_total"], pool.total_bytes())
            del t
        keep.clear()
    f.report = lambda: {"peak_used_MB": state["peak_used"] / 2**20, "peak_total_MB": state["peak_total"] / 2**20,
                        "total_over_used": state["peak_total"] / max(state["peak_used"], 1)}
    return f


CASES = {
    "core.copy_f32_2e28": copy_f32,
    "core.astype_f64_f32_2e28": astype_f64_f32,
    "core.pool_alloc_free_1MB": pool_alloc_free,
    "core.cudamalloc_free_1MB": cudamalloc_free,
    "core.launch_empty_host": launch_empty,
    "core.h2d_pageable_256MB": lambda cp: _transfer(cp, False, True),
    "core.h2d_pinned_256MB": lambda cp: _transfer(cp, True, True),
    "core.d2h_pageable_256MB": lambda cp: _transfer(cp, False, False),
    "core.d2h_pinned_256MB": lambda cp: _transfer(cp, True, False),
    "core.fragmentation": fragmentation,
    "core.fragmentation_vmm": fragmentation,
}
HOST_TIME = {"core.pool_alloc_free_1MB", "core.cudamalloc_free_1MB", "core.launch_empty_host"}
