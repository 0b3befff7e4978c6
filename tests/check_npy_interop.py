#!/usr/bin/env python3
"""Check that NumPy reads the files cusci writes.

Run tests/core-npy with CUSCI_NPY_OUT=DIR first; then
    python3 tests/check_npy_interop.py DIR
loads every cusci_<dtype>.npy with numpy.load (dtype, shape, byte order) and
both .npz archives, whose entries must equal the .npy files. Prints TAP.
"""
import os
import sys

import numpy as np

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
         "uint64", "float16", "float32", "float64", "complex64", "complex128"]


def main(d):
    results = []
    arrays = {}
    for n in NAMES:
        try:
            a = np.load(os.path.join(d, "cusci_%s.npy" % n), allow_pickle=False)
            arrays[n] = a
            results.append((a.dtype == np.dtype(n) and a.shape == (5, 1, 3), "numpy.load reads cusci's %s file" % n))
        except Exception as e:
            results.append((False, "numpy.load reads cusci's %s file (%s)" % (n, e)))
    for kind in ("plain", "compressed"):
        try:
            with np.load(os.path.join(d, "cusci_%s.npz" % kind), allow_pickle=False) as z:
                good = sorted(z.files) == sorted(NAMES) and all(
                    np.array_equal(z[n], arrays[n], equal_nan=(np.dtype(n).kind in "fc")) for n in NAMES)
            results.append((good, "numpy.load reads cusci's %s .npz with the same arrays" % kind))
        except Exception as e:
            results.append((False, "numpy.load reads cusci's %s .npz (%s)" % (kind, e)))
    print("1..%d" % len(results))
    for i, (good, what) in enumerate(results, 1):
        print("%sok %d - %s" % ("" if good else "not ", i, what))
    return 0 if all(g for g, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
