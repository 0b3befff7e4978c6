#!/usr/bin/env python3
"""Prove cusci's DLPack export and import against CuPy and PyTorch, on a GPU.

    python3 tests/check_dlpack.py BUILD/libcore/.libs/libcusci-core.so
    python3 tests/check_dlpack.py --host BUILD/libcore/.libs/libcusci-core.so


Through ctypes on the shared library:
  - cusci arrays of several dtypes (and a strided view) go to
    cupy.from_dlpack and torch.from_dlpack, both as the versioned
    ("dltensor_versioned") and the legacy ("dltensor") capsule, through an
    object with __dlpack__ and __dlpack_device__; values must match and the
    data pointer must be cusci's (no copy). The cusci handle is released
    first, so the consumer's array must keep the memory alive.
  - CuPy and PyTorch arrays' __dlpack__() capsules are imported into cusci;
    a cusci op on them must give the consumer's values, the pointer must be
    the producer's, and an in-place cusci op must be seen by the producer.
With --host, the same plumbing runs on a host context against
numpy.from_dlpack and numpy's __dlpack__ (no GPU needed).
Prints one PASS or FAIL line per check and exits 1 when any failed (2 when
the script cannot start: no library, no GPU, no CuPy or PyTorch).
"""
import ctypes
import gc
import sys

import numpy as np

# cusci_dtype values (include/cusci/core.h), by NumPy name.
DTYPES = {"bool": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "uint8": 5, "uint16": 6, "uint32": 7,
          "uint64": 8, "float16": 9, "float32": 10, "float64": 11, "complex64": 12, "complex128": 13}
UFUNC_MULTIPLY = None  # found by name below
STREAM_NONE = ctypes.c_void_p(2**64 - 1)  # CUSCI_DL_STREAM_NONE, (void *)-1
KDLCUDA = 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor)))]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))),
    ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

# ---------------------------------------------------------------- capsules

pyapi = ctypes.pythonapi
pyapi.PyCapsule_New.restype = ctypes.py_object
pyapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
pyapi.PyCapsule_IsValid.restype = ctypes.c_int
pyapi.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
pyapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
pyapi.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
pyapi.PyCapsule_GetName.restype = ctypes.c_char_p
pyapi.PyCapsule_GetName.argtypes = [ctypes.py_object]
pyapi.PyCapsule_SetName.restype = ctypes.c_int
pyapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

# Capsule names must outlive the capsules: module-level constants.
NAME_V = b"dltensor_versioned"
NAME_L = b"dltensor"
USED_V = b"used_dltensor_versioned"
USED_L = b"used_dltensor"
DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@DESTRUCTOR
def capsule_destructor_v(cap):
    # A capsule no consumer took still owns the tensor: delete it.
    if pyapi.PyCapsule_IsValid(cap, NAME_V):
        t = ctypes.cast(pyapi.PyCapsule_GetPointer(cap, NAME_V), ctypes.POINTER(DLManagedTensorVersioned))
        if t.contents.deleter:
            t.contents.deleter(t)


@DESTRUCTOR
def capsule_destructor_l(cap):
    if pyapi.PyCapsule_IsValid(cap, NAME_L):
        t = ctypes.cast(pyapi.PyCapsule_GetPointer(cap, NAME_L), ctypes.POINTER(DLManagedTensor))
        if t.contents.deleter:
            t.contents.deleter(t)


# ------------------------------------------------------------------ cusci

class Cusci:
    def __init__(self, path, device=0):
        L = ctypes.CDLL(path)
        vp, i32, i64p = ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)
        sig = {
            "cusci_ctx_create": (i32, [i32, ctypes.POINTER(vp)]),
            "cusci_ctx_destroy": (None, [vp]),
            "cusci_ctx_create_error": (ctypes.c_char_p, []),
            "cusci_ctx_last_error": (ctypes.c_char_p, [vp]),
            "cusci_ctx_stream": (vp, [vp]),
            "cusci_ctx_synchronize": (i32, [vp]),
            "cusci_array_from_host": (i32, [vp, vp, i32, i64p, i32, ctypes.POINTER(vp)]),
            "cusci_array_to_host": (i32, [vp, vp, vp, ctypes.c_size_t]),
            "cusci_array_data": (vp, [vp]),
            "cusci_array_ndim": (i32, [vp]),
            "cusci_array_strides": (i64p, [vp]),
            "cusci_array_release": (None, [vp]),
            "cusci_array_transpose": (i32, [vp, vp, ctypes.POINTER(i32), ctypes.POINTER(vp)]),
            "cusci_multiply": (i32, [vp, vp, vp, ctypes.POINTER(vp)]),
            "cusci_array_to_dlpack_versioned": (i32, [vp, vp, vp, ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned))]),
            "cusci_array_to_dlpack": (i32, [vp, vp, vp, ctypes.POINTER(ctypes.POINTER(DLManagedTensor))]),
            "cusci_array_from_dlpack_versioned": (i32, [vp, vp, vp, ctypes.POINTER(vp)]),
            "cusci_array_from_dlpack": (i32, [vp, vp, vp, ctypes.POINTER(vp)]),
        }
        for name, (res, args) in sig.items():
            f = getattr(L, name)
            f.restype, f.argtypes = res, args
            setattr(self, name[len("cusci_"):], f)
        self.ctx = vp()
        if self.ctx_create(device, ctypes.byref(self.ctx)) != 0:
            raise RuntimeError("no context on device %d: %s" % (device, self.ctx_create_error().decode()))

    def err(self):
        return self.ctx_last_error(self.ctx).decode()

    def check(self, st, what):
        if st != 0:
            raise RuntimeError("%s: status %d: %s" % (what, st, self.err()))

    def stream(self):
        return self.ctx_stream(self.ctx) or 0

    def from_numpy(self, a):
        a = np.ascontiguousarray(a)
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        out = ctypes.c_void_p()
        self.check(self.array_from_host(self.ctx, a.ctypes.data, a.ndim, shape, DTYPES[a.dtype.name],
                                        ctypes.byref(out)), "cusci_array_from_host")
        return out

    def to_numpy(self, arr, shape, dtype):
        h = np.empty(shape, dtype=dtype)
        self.check(self.array_to_host(self.ctx, arr, h.ctypes.data, h.nbytes), "cusci_array_to_host")
        return h

    def square(self, arr, inplace=False):
        out = ctypes.c_void_p(arr.value if inplace else None)
        self.check(self.multiply(self.ctx, arr, arr, ctypes.byref(out)), "cusci_multiply")
        return out


class Exported:
    """A cusci array offered through the array API's DLPack protocol."""

    def __init__(self, cs, arr, versioned=True, device=(KDLCUDA, 0)):
        self.cs, self.arr, self.versioned, self.device = cs, arr, versioned, device
        self.produced = None

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("cusci exports without copies")
        # The array API: None means CUDA's legacy default stream (1) on CUDA
        # and no stream on the CPU; -1 asks for no synchronisation.
        if self.device[0] != KDLCUDA:
            s = ctypes.c_void_p(None)
        else:
            s = 1 if stream is None else stream
            s = STREAM_NONE if s == -1 else ctypes.c_void_p(s)
        # A consumer that names no max_version reads only the legacy form.
        if self.versioned and max_version is not None and max_version[0] >= 1:
            self.produced = "dltensor_versioned"
            t = ctypes.POINTER(DLManagedTensorVersioned)()
            self.cs.check(self.cs.array_to_dlpack_versioned(self.cs.ctx, self.arr, s, ctypes.byref(t)),
                          "cusci_array_to_dlpack_versioned")
            return pyapi.PyCapsule_New(ctypes.cast(t, ctypes.c_void_p), NAME_V,
                                       ctypes.cast(capsule_destructor_v, ctypes.c_void_p))
        self.produced = "dltensor"
        t = ctypes.POINTER(DLManagedTensor)()
        self.cs.check(self.cs.array_to_dlpack(self.cs.ctx, self.arr, s, ctypes.byref(t)), "cusci_array_to_dlpack")
        return pyapi.PyCapsule_New(ctypes.cast(t, ctypes.c_void_p), NAME_L,
                                   ctypes.cast(capsule_destructor_l, ctypes.c_void_p))


def import_capsule(cs, cap, stream):
    """cusci's array over a producer's capsule; the capsule is marked used."""
    name = pyapi.PyCapsule_GetName(cap)
    ptr = pyapi.PyCapsule_GetPointer(ctypes.c_void_p(id(cap)), name)
    out = ctypes.c_void_p()
    if name == NAME_V:
        cs.check(cs.array_from_dlpack_versioned(cs.ctx, ptr, stream, ctypes.byref(out)),
                 "cusci_array_from_dlpack_versioned")
        pyapi.PyCapsule_SetName(cap, USED_V)
    elif name == NAME_L:
        cs.check(cs.array_from_dlpack(cs.ctx, ptr, stream, ctypes.byref(out)), "cusci_array_from_dlpack")
        pyapi.PyCapsule_SetName(cap, USED_L)
    else:
        raise RuntimeError("unexpected capsule name %r" % name)
    return out, name.decode()


# ------------------------------------------------------------------ checks

failures = 0


def report(good, what, detail=""):
    global failures
    if not good:
        failures += 1
    print("%s: %s%s" % ("PASS" if good else "FAIL", what, (" (%s)" % detail) if detail else ""), flush=True)


def attempt(what, fn):
    try:
        fn()
    except Exception as e:  # one failing check must not hide the others
        report(False, what, "%s: %s" % (type(e).__name__, e))


def sample(dtype, shape):
    n = int(np.prod(shape))
    base = (np.arange(n) * 2.385 - 7.25).reshape(shape)
    if dtype == "bool":
        return (np.arange(n) % 3 == 1).reshape(shape)
    if dtype.startswith("complex"):
        return (base + 1j * (0.5 - base)).astype(dtype)
    if dtype.startswith("uint"):
        return (np.arange(n) * 7 + 3).reshape(shape).astype(dtype)
    return base.astype(dtype)


def export_checks(cs, cp, torch):
    shape = (3, 5)
    for lib in ("cupy", "torch"):
        for versioned in (True, False):
            for dt in ("float32", "float64", "float16", "complex64", "complex128", "int32", "int64", "uint8", "bool"):
                form = "versioned" if versioned else "legacy"
                what = "cusci -> %s.from_dlpack, %s, %s" % (lib, form, dt)

                def run():
                    want = sample(dt, shape)
                    arr = cs.from_numpy(want)
                    ptr = cs.array_data(arr)
                    ex = Exported(cs, arr, versioned)
                    if lib == "cupy":
                        x = cp.from_dlpack(ex)
                        cs.array_release(arr)  # the consumer's array keeps the memory alive
                        gc.collect()
                        got, xptr = cp.asnumpy(x), x.data.ptr
                    else:
                        x = torch.from_dlpack(ex)
                        cs.array_release(arr)
                        gc.collect()
                        got, xptr = x.cpu().numpy(), x.data_ptr()
                    good = got.shape == shape and str(got.dtype) == dt and np.array_equal(got, want) and xptr == ptr
                    report(good, what + " [%s]" % ex.produced, "" if good else "pointer %#x vs cusci %#x, values equal %s" %
                           (xptr, ptr, np.array_equal(got, want)))
                    del x
                    gc.collect()

                attempt(what, run)

    # A strided view: the transpose of a 3x5 array, exported with its strides.
    for lib in ("cupy", "torch"):
        what = "cusci transposed view -> %s: element strides, values, no copy" % lib

        def run_view():
            want = sample("float64", shape)
            arr = cs.from_numpy(want)
            tr = ctypes.c_void_p()
            axes = (ctypes.c_int * 2)(1, 0)
            cs.check(cs.array_transpose(cs.ctx, arr, axes, ctypes.byref(tr)), "cusci_array_transpose")
            cs.array_release(arr)
            ptr = cs.array_data(tr)
            ex = Exported(cs, tr)
            if lib == "cupy":
                x = cp.from_dlpack(ex)
                good = x.strides == (8, 40) and np.array_equal(cp.asnumpy(x), want.T) and x.data.ptr == ptr
            else:
                x = torch.from_dlpack(ex)
                good = x.stride() == (1, 5) and np.array_equal(x.cpu().numpy(), want.T) and x.data_ptr() == ptr
            cs.array_release(tr)
            report(good, what)

        attempt(what, run_view)

    # A consumer on its own stream: the export orders it after cusci's work.
    what = "cusci -> cupy.from_dlpack on a non-default CuPy stream"

    def run_stream():
        want = sample("float32", (1 << 20,))
        arr = cs.from_numpy(want)
        sq = cs.square(arr)  # queued on cusci's stream
        with cp.cuda.Stream(non_blocking=True):
            x = cp.from_dlpack(Exported(cs, sq))
            y = x * 2  # on the CuPy stream, after the export's event
            got = cp.asnumpy(y)
        cs.array_release(arr)
        cs.array_release(sq)
        report(np.array_equal(got, want * want * 2), what)

    attempt(what, run_stream)


def import_checks(cs, cp, torch):
    shape = (4, 6)
    for lib in ("cupy", "torch"):
        for versioned in (True, False):
            form = "versioned" if versioned else "legacy"
            what = "%s.__dlpack__ -> cusci, %s: values, pointer, in-place write seen by %s" % (lib, form, lib)

            def run():
                host = sample("float64", shape)
                if lib == "cupy":
                    x = cp.asarray(host)
                    kw = {"max_version": (1, 0)} if versioned else {}
                    cap = x.__dlpack__(stream=cs.stream(), **kw)
                    xptr = x.data.ptr
                else:
                    x = torch.from_numpy(host).cuda()
                    kw = {"max_version": (1, 0)} if versioned else {}
                    try:
                        cap = x.__dlpack__(stream=cs.stream(), **kw)
                    except TypeError:  # a PyTorch without max_version
                        cap = x.__dlpack__(stream=cs.stream())
                    xptr = x.data_ptr()
                # The producer ordered its stream before ours: no further sync.
                arr, name = import_capsule(cs, cap, STREAM_NONE)
                del cap
                same = cs.array_data(arr) == xptr
                sq = cs.square(arr)
                got = cs.to_numpy(sq, shape, "float64")
                cs.array_release(sq)
                cs.square(arr, inplace=True)
                cs.check(cs.ctx_synchronize(cs.ctx), "cusci_ctx_synchronize")
                seen = cp.asnumpy(x) if lib == "cupy" else x.cpu().numpy()
                cs.array_release(arr)  # calls the producer's deleter
                gc.collect()
                good = same and np.array_equal(got, host * host) and np.array_equal(seen, host * host)
                report(good, what + " [%s]" % name, "" if good else "pointer same %s, op %s, write seen %s" %
                       (same, np.array_equal(got, host * host), np.array_equal(seen, host * host)))

            attempt(what, run)

    # A strided CuPy view, and cusci ordering itself after the producer's stream.
    what = "cupy strided view -> cusci, producer's stream passed to the import"

    def run_view():
        host = sample("float32", (6, 8))
        with cp.cuda.Stream(non_blocking=True) as s:
            base = cp.asarray(host)
            v = base[1::2, ::3]
            v2 = v * 1  # keep a reference copy to compare
            cap = v.__dlpack__(stream=s.ptr)
            arr, name = import_capsule(cs, cap, ctypes.c_void_p(s.ptr))
            del cap
            want = cp.asnumpy(v2)
        st = cs.array_strides(arr)
        strides = tuple(st[i] for i in range(cs.array_ndim(arr)))
        got = cs.to_numpy(arr, want.shape, "float32")
        good = strides == (16, 3) and np.array_equal(got, want) and cs.array_data(arr) == v.data.ptr
        cs.array_release(arr)
        report(good, what + " [%s]" % name, "" if good else "strides %s" % (strides,))

    attempt(what, run_view)

    # A negative stride. CuPy 14's export divides the byte stride by an
    # unsigned itemsize, so x[:, ::-3] of float32 leaves with a stride of
    # 2^62 - 3 elements rather than -3. Whatever the producer wrote, cusci
    # must either give the right view (a correct export) or refuse the
    # tensor with CUSCI_ERR_OVERFLOW and leave the capsule unused (CuPy's
    # capsule destructor then frees it); never an array over a wild stride.
    for versioned in (True, False):
        what = "cupy negative-stride view -> cusci, %s" % ("versioned" if versioned else "legacy")

        def run_negative():
            host = sample("float32", (6, 8))
            base = cp.asarray(host)
            v = base[1::2, ::-3]
            want = cp.asnumpy(v)
            if versioned:
                cap = v.__dlpack__(stream=cs.stream(), max_version=(1, 0))
            else:
                cap = v.__dlpack__(stream=cs.stream())
            name = pyapi.PyCapsule_GetName(cap)
            ptr = pyapi.PyCapsule_GetPointer(ctypes.c_void_p(id(cap)), name)
            kind = DLManagedTensorVersioned if name == NAME_V else DLManagedTensor
            t = ctypes.cast(ptr, ctypes.POINTER(kind)).contents.dl_tensor
            exported = tuple(t.strides[i] for i in range(t.ndim))
            out = ctypes.c_void_p()
            imp = cs.array_from_dlpack_versioned if name == NAME_V else cs.array_from_dlpack
            st = imp(cs.ctx, ptr, STREAM_NONE, ctypes.byref(out))
            if exported == (16, -3):
                good = st == 0
                if good:
                    pyapi.PyCapsule_SetName(cap, USED_V if name == NAME_V else USED_L)
                    sv = cs.array_strides(out)
                    got = cs.to_numpy(out, want.shape, "float32")
                    good = (sv[0], sv[1]) == (16, -3) and np.array_equal(got, want)
                    cs.array_release(out)
                detail = "" if good else "status %d %s" % (st, cs.err() if st else "")
            else:
                good = st == 6 and not out.value  # CUSCI_ERR_OVERFLOW, nothing made
                detail = "CuPy exported strides %s; cusci: status %d%s" % (
                    exported, st, (" (%s)" % cs.err()) if st else ", an array was made")
            del cap
            gc.collect()
            report(good, what + " [%s]" % name.decode(), detail)

        attempt(what, run_negative)

    # A 0-d and a size-0 array.
    for case, host in (("0-d", np.array(2.385)), ("size-0", np.zeros((0, 3)))):
        what = "cupy %s array -> cusci" % case

        def run_edge():
            x = cp.asarray(host)
            arr, name = import_capsule(cs, x.__dlpack__(stream=cs.stream()), STREAM_NONE)
            got = cs.to_numpy(arr, host.shape, "float64")
            good = cs.array_ndim(arr) == host.ndim and np.array_equal(got, host)
            cs.array_release(arr)
            report(good, what)

        attempt(what, run_edge)


def host_checks(cs):
    """The capsule plumbing on a host context, against NumPy."""
    for versioned in (True, False):
        for dt in ("float64", "float16", "complex64", "int16", "uint32", "bool"):
            what = "host: cusci -> numpy.from_dlpack, %s, %s" % ("versioned" if versioned else "legacy", dt)

            def run():
                want = sample(dt, (3, 5))
                arr = cs.from_numpy(want)
                ptr = cs.array_data(arr)
                ex = Exported(cs, arr, versioned, device=(1, 0))
                x = np.from_dlpack(ex)
                cs.array_release(arr)
                good = np.array_equal(x, want) and x.dtype == want.dtype and x.ctypes.data == ptr
                good = good and ex.produced == ("dltensor_versioned" if versioned else "dltensor")
                if versioned:  # writable: flags 0 (NumPy makes legacy imports read-only)
                    good = good and x.flags.writeable
                report(good, what)

            attempt(what, run)
        what = "host: numpy.__dlpack__ -> cusci, %s: values, pointer, in-place write" % (
            "versioned" if versioned else "legacy")

        def run_import():
            x = sample("float64", (4, 6))[:, ::-2]
            want = x * x
            cap = x.__dlpack__(max_version=(1, 0)) if versioned else x.__dlpack__()
            arr, name = import_capsule(cs, cap, STREAM_NONE)
            del cap
            same = cs.array_data(arr) == x.ctypes.data
            sq = cs.square(arr)
            got = cs.to_numpy(sq, x.shape, "float64")
            cs.array_release(sq)
            cs.square(arr, inplace=True)
            cs.array_release(arr)
            good = same and np.array_equal(got, want) and np.array_equal(x, want)
            report(good, what + " [%s]" % name)

        attempt(what, run_import)

    # A stride that reaches beyond 2^63 bytes (as CuPy 14 exports a negative
    # one) is refused; the same tensor with its stride -3 is a view.
    what = "host: a tensor whose stride reaches beyond 2^63 bytes is refused, -3 accepted"

    def run_wild():
        buf = sample("float32", (48,))
        shape, strides = (ctypes.c_int64 * 2)(3, 3), (ctypes.c_int64 * 2)(16, 2**62 - 3)
        m = DLManagedTensor()
        t = m.dl_tensor
        t.data, t.device, t.ndim, t.dtype = buf.ctypes.data, DLDevice(1, 0), 2, DLDataType(2, 32, 1)
        t.shape, t.strides, t.byte_offset = shape, strides, 6 * 4
        out = ctypes.c_void_p()
        st = cs.array_from_dlpack(cs.ctx, ctypes.addressof(m), STREAM_NONE, ctypes.byref(out))
        refused = st == 6 and not out.value and "stride" in cs.err()
        strides[1] = -3
        st2 = cs.array_from_dlpack(cs.ctx, ctypes.addressof(m), STREAM_NONE, ctypes.byref(out))
        good = refused and st2 == 0
        if st2 == 0:
            got = cs.to_numpy(out, (3, 3), "float32")
            want = np.array([[buf[6 + 16 * i - 3 * j] for j in range(3)] for i in range(3)], np.float32)
            good = good and np.array_equal(got, want)
            cs.array_release(out)  # the tensor has no deleter
        report(good, what, "" if good else "statuses %d and %d" % (st, st2))

    attempt(what, run_wild)


def main():

    args = sys.argv[1:]
    host = bool(args) and args[0] == "--host"
    if host:
        args = args[1:]
    if len(args) != 1:
        print(__doc__)
        return 2
    if host:
        cs = Cusci(args[0], -1)
        host_checks(cs)
        cs.ctx_destroy(cs.ctx)
        print("FAIL: %d check(s) failed" % failures if failures else "PASS: all checks")
        return 1 if failures else 0
    try:
        import cupy as cp
        import torch
        cs = Cusci(args[0])
    except Exception as e:
        print("FAIL: cannot start: %s: %s" % (type(e).__name__, e))
        return 2
    print("# cupy %s, torch %s, numpy %s" % (cp.__version__, torch.__version__, np.__version__))
    export_checks(cs, cp, torch)
    import_checks(cs, cp, torch)
    gc.collect()
    cs.ctx_destroy(cs.ctx)
    if failures:
        print("FAIL: %d check(s) failed" % failures)
    else:
        print("PASS: all checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
