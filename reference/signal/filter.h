/*
 * reference/signal/filter.h: the host backend's IIR filters (lfilter's
 * transposed direct form II and sosfilt's cascade of second-order
 * sections) and direct convolution, on C-contiguous arrays of one of the
 * four SDCZ dtypes (0 float32, 1 float64, 2 complex64, 3 complex128: the
 * `prec` below). The GPU kernels (kernels/signal/filter.cu) compute the
 * same expressions in the same order.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_FILTER_H
#define CUSCI_REFERENCE_SIGNAL_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/kit/dtypes.h>

enum { CUSCI__SIG_F32 = 0, CUSCI__SIG_F64, CUSCI__SIG_C64, CUSCI__SIG_C128 };
/* The direct convolution of integers: uint64 arithmetic modulo 2^64, which
 * the integer dtypes' own wrap-around is the image of. */
enum { CUSCI__SIG_U64 = 4 };

/*
 * lfilter (sos false) along the middle axis of x and y (outer x len x
 * inner): K the order, coef b[0..K] then a[0..K], both divided by a[0]
 * (a[0] = 1 is not read); z the state (outer x K x inner), read as zi and
 * left as zf. For every sample, as SciPy's lfilter:
 *   y = z[0] + b[0] x;  z[k] = z[k + 1] + b[k + 1] x - a[k + 1] y;
 *   z[K - 1] = b[K] x - a[K] y.
 * sosfilt (sos true): K sections [b0 b1 b2 1 a1 a2] (coef: K x 6, or with
 * per_channel one such block per line, lines numbered o * inner + i), z
 * the state (K x outer x 2 x inner), as SciPy's _sosfilt:
 *   v' = b0 v + z0;  z0 = b1 v - a1 v' + z1;  z1 = b2 v - a2 v'.
 * y may be x here (not on the GPU). 0, or -1 when memory for a line's
 * state runs out.
 *
 * an NULL: the plain recurrence. Otherwise the form parallel in time that
 * the GPU computes, which a stream continues exactly (N = K, or 2 K for
 * sosfilt, at most CUSCI__SIG_IIR_MAXN; not per channel). The signal is
 * cut into blocks of L = CUSCI__SIG_IIR_BLOCK samples counted from its
 * start; s_b, the state where block b starts, is u_b + M s_{b-1}, where
 * u_b is the state after block b - 1 run from a zero state and M =
 * A^L is what L samples of zeros do to a state (cusci__sig_iir_power), and
 * s_0 = zi; each block's outputs are the recurrence run from s_b, and zf
 * is the state after the last sample so run. The first call of a signal
 * has r0 = 0 and an->sa = an->u = NULL; a stream keeps sa (s_b of the
 * block it is in) and u (that block's zero-start state) in arrays of N x
 * lines ([k * lines + line]), sets carry (and fresh on its first call,
 * when sa is zi and u zero), and passes r0 = cusci__sig_anchor_next of the
 * previous call's.
 */
#define CUSCI__SIG_IIR_BLOCK 256
#define CUSCI__SIG_IIR_MAXN 16
typedef struct cusci__sig_anchor {
  const void *M; /* N x N, row-major, of the element type */
  int64_t r0;    /* the current block's samples before this call, 0 to L */
  void *sa, *u;
  bool carry;
  bool fresh; /* a stream's first call: sa and u written, not read */
} cusci__sig_anchor;
int cusci__sig_iir(int prec, bool sos, int64_t K, bool per_channel, const void *coef, int64_t outer, int64_t len, int64_t inner, const void *x,
                   void *y, void *z, const cusci__sig_anchor *an);
/* M = A^L for the filter, N x N of its element type: L samples of zeros
 * from each unit state. */
void cusci__sig_iir_power(int prec, bool sos, int64_t K, const void *coef, void *M);
/* The block's samples done after a call of len samples that found r0. */
static inline int64_t cusci__sig_anchor_next(int64_t r0, int64_t len)
{
  const int64_t L = CUSCI__SIG_IIR_BLOCK;
  if (len == 0)
    return r0;
  if (r0 == L)
    r0 = 0;
  return len <= L - r0 ? r0 + len : (len - (L - r0) - 1) % L + 1;
}
/* The segments of a call of len >= 1 samples from r0 < L: the first to the
 * current block's end, then a block each. */
static inline int64_t cusci__sig_anchor_segments(int64_t r0, int64_t len)
{
  const int64_t L = CUSCI__SIG_IIR_BLOCK;
  return len <= L - r0 ? 1 : 1 + (len - (L - r0) + L - 1) / L;
}
/*
 * Direct n-d convolution, out = in1 * in2 over the window of the full
 * result that starts at `start` (per axis) and has out's shape: out[j] =
 * the sum over k of in2[k] in1[start + j - k], the terms in C order of k
 * over the box where both indices are inside. All three C-contiguous of
 * ndim (1 to 32) dims; prec one of the four, or CUSCI__SIG_U64.
 */
void cusci__sig_convolve(int prec, int ndim, const int64_t *shape1, const void *in1, const int64_t *shape2, const void *in2,
                         const int64_t *start, const int64_t *oshape, void *out);
/*
 * upfirdn along the middle axis: x upsampled by `up` (up - 1 zeros after
 * each sample), filtered by h (nh taps), downsampled by `down`. x (outer x
 * n x inner) holds the inputs j0 .. j0 + n - 1 of a signal of ntot; y
 * (outer x nout x inner) gets the outputs i0 .. i0 + nout - 1: y[i] = the
 * sum over the taps k = t mod up, t mod up + up, ... <= t (from the first
 * whose input is at most ntot - 1) of h[k] x[(t - k) / up], t = i down.
 * The whole signal at once is i0 = j0 = 0, ntot = n and nout = ((n - 1)
 * up + nh - 1) / down + 1; a stream's chunk needs x to reach back to the
 * inputs its first output reads.
 */
void cusci__sig_upfirdn(int prec, int64_t nh, const void *h, int64_t outer, int64_t n, int64_t inner, const void *x, int64_t up, int64_t down,
                        int64_t i0, int64_t j0, int64_t ntot, int64_t nout, void *y);
/* The extensions: np.pad's constant, wrap and symmetric (convolve2d's
 * fill, wrap and symm), and ndimage's mirror (the edge not repeated) and
 * nearest (the edge repeated). */
enum { CUSCI__SIG_PAD_FILL = 0, CUSCI__SIG_PAD_WRAP, CUSCI__SIG_PAD_SYMM, CUSCI__SIG_PAD_MIRROR, CUSCI__SIG_PAD_NEAREST };
/* The index along an axis of n elements that position p - before of the
 * padded axis takes (-1: the fill value). */
CUSCI_HD int64_t cusci__sig_pad_index(int mode, int64_t p, int64_t before, int64_t n)
{
  int64_t q = p - before;
  if (q >= 0 && q < n)
    return q;
  if (mode == CUSCI__SIG_PAD_FILL)
    return -1;
  if (mode == CUSCI__SIG_PAD_WRAP)
    return ((q % n) + n) % n;
  if (mode == CUSCI__SIG_PAD_NEAREST)
    return q < 0 ? 0 : n - 1;
  if (mode == CUSCI__SIG_PAD_MIRROR) {
    if (n == 1)
      return 0;
    q = ((q % (2 * n - 2)) + 2 * n - 2) % (2 * n - 2);
    return q < n ? q : 2 * n - 2 - q;
  }
  q = ((q % (2 * n)) + 2 * n) % (2 * n);
  return q < n ? q : 2 * n - 1 - q;
}
/*
 * x (C-contiguous, shape) padded by before[d] and after[d] along each axis
 * as mode (fill: the value fill, complex for the complex dtypes) into y
 * (C-contiguous, of the padded shape).
 */
void cusci__sig_pad(int prec, int ndim, const int64_t *shape, const int64_t *before, const int64_t *oshape, int mode, double fill_re, double fill_im,
                    const void *x, void *y);
/*
 * order_filter (and medfilt, its median): each element the rank-th
 * smallest (from 0) of its window (ks per axis, odd), zeros outside the
 * array (SciPy's rank_filter in mode constant), the window's elements
 * those where mask (uint8, ks's shape in C order; NULL: all) is not 0:
 * x and y C-contiguous of one of the 10 integer and float dtypes
 * (int8 .. uint64, float32, float64; `dt` as the enum). 0, or -1 when
 * memory for a window runs out or dt is another.
 */
int cusci__sig_order(int dt, int ndim, const int64_t *shape, const int64_t *ks, const uint8_t *mask, int64_t rank, const void *x, void *y);

#endif
