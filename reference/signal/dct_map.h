/*
 * reference/signal/dct_map.h: where the DCT and DST of type 1 to 4 put
 * their input in the symmetric extension whose Fourier transform they are,
 * and where they read their output, for the host (fft_body.h) and the GPU
 * (kernels/signal) alike. For n inputs x_j the extension u has length
 * cusci__dct_len; x_j goes to u[at] with at = cusci__dct_in(j), weighted by
 * cusci__dct_in_weight, and mirrored to u[len - at] with the sign
 * cusci__dct_mirror (unless at is 0 or len / 2); y_k is the real part
 * (DCT) or minus the imaginary part (DST) of the transform at
 * cusci__dct_out(k). Every index read lies in 0 .. len / 2, so the real
 * transform of u serves.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_DCT_MAP_H
#define CUSCI_REFERENCE_SIGNAL_DCT_MAP_H

#include <stdint.h>

#include <cusci/kit/dtypes.h>

CUSCI_HD int64_t cusci__dct_len(int type, int sine, int64_t n)
{
  return type == 1 ? (sine ? 2 * (n + 1) : 2 * (n - 1)) : type == 4 ? 8 * n : 4 * n;
}

CUSCI_HD int64_t cusci__dct_in(int type, int sine, int64_t j)
{
  return type == 2 || type == 4 ? 2 * j + 1 : sine ? j + 1 : j;
}

/* The DST-III's last input lands on u[n] and on its mirror u[3n], which
 * the transform counts both: half of it each. */
CUSCI_HD double cusci__dct_in_weight(int type, int sine, int64_t j, int64_t n)
{
  return type == 3 && sine && j == n - 1 ? 0.5 : 1.0;
}

CUSCI_HD double cusci__dct_mirror(int sine)
{
  return sine ? -1.0 : 1.0;
}

CUSCI_HD int64_t cusci__dct_out(int type, int sine, int64_t k)
{
  return type == 1 || type == 2 ? (sine ? k + 1 : k) : 2 * k + 1;
}

#endif
