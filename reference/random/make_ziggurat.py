#!/usr/bin/env python3
"""Write reference/random/ziggurat.h: the tables of the ziggurat method for
standard normals (Marsaglia and Tsang, "The ziggurat method for generating
random variables", J. Stat. Software 5(8), 2000), 256 layers.

Layer i (0..255) has width x[i] and lies between f(x[i]) and f(x[i+1]),
f(x) = exp(-x^2/2); x[1] = r is where the tail starts, x[0] = v / f(r) the
width that gives the base strip (rectangle plus tail) the area v of every
layer, x[256] = 0. A draw m (52 bits for float64, 23 for float32) of layer
i gives x = m * x[i] 2^-bits, accepted at once when m < k[i] =
floor(x[i+1] / x[i] 2^bits), i.e. when x lies under the next layer.

    python3 reference/random/make_ziggurat.py > reference/random/ziggurat.h
"""
import math

N = 256
R = 3.6541528853610088  # the tail's start for 256 layers


def f(x):
    return math.exp(-0.5 * x * x)


def main():
    v = R * f(R) + math.sqrt(math.pi / 2) * math.erfc(R / math.sqrt(2))
    x = [0.0] * (N + 1)
    x[0] = v / f(R)
    x[1] = R
    for i in range(1, N - 1):
        x[i + 1] = math.sqrt(-2.0 * math.log(v / x[i] + f(x[i])))
    closure = x[N - 1] * (1.0 - f(x[N - 1]))
    assert abs(closure - v) < 1e-9 * v, (closure, v)
    x[N] = 0.0
    k64 = [int(math.floor(x[i + 1] / x[i] * 2.0**52)) for i in range(N)]
    w64 = [x[i] * 2.0**-52 for i in range(N)]
    k32 = [int(math.floor(x[i + 1] / x[i] * 2.0**23)) for i in range(N)]
    w32 = [x[i] * 2.0**-23 for i in range(N)]
    fi = [f(x[i]) for i in range(N + 1)]

    def rows(vals, fmt, per):
        out = []
        for j in range(0, len(vals), per):
            out.append("  " + " ".join(fmt(t) + "," for t in vals[j:j + per]))
        return " \\\n".join(out)

    def flt32(t):  # the float32 nearest t, as a hex literal
        import struct
        return float.hex(struct.unpack("f", struct.pack("f", t))[0]) + "f"

    print("/*")
    print(" * reference/random/ziggurat.h: tables of the ziggurat method for normals,")
    print(" * 256 layers, r = %r. Made by reference/random/make_ziggurat.py;" % R)
    print(" * do not edit.")
    print(" */")
    print("#ifndef CUSCI_REFERENCE_RANDOM_ZIGGURAT_H")
    print("#define CUSCI_REFERENCE_RANDOM_ZIGGURAT_H")
    print()
    print("#include <stdint.h>")
    print()
    print("#define CUSCI__ZIG_R %s" % float.hex(R))
    print("#define CUSCI__ZIG_INV_R %s" % float.hex(1.0 / R))
    print()
    print("#define CUSCI__ZIG_K64 \\")
    print(rows(k64, lambda t: "UINT64_C(%d)" % t, 4))
    print("#define CUSCI__ZIG_W64 \\")
    print(rows(w64, float.hex, 4))
    print("#define CUSCI__ZIG_K32 \\")
    print(rows(k32, lambda t: "UINT32_C(%d)" % t, 6))
    print("#define CUSCI__ZIG_W32 \\")
    print(rows(w32, flt32, 4))
    print("#define CUSCI__ZIG_F \\")
    print(rows(fi, float.hex, 4))
    print()
    print("#endif /* CUSCI_REFERENCE_RANDOM_ZIGGURAT_H */")


if __name__ == "__main__":
    main()
