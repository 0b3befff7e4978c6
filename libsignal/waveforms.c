/*
 * libsignal/waveforms.c: scipy.signal's sequences made from nothing but
 * their parameters (unit_impulse, max_len_seq, czt_points) and the
 * window checks of the STFT (check_COLA, check_NOLA). Computed on the host
 * (max_len_seq's shift register is sequential; the others are one value or
 * m values), returned on the context's device.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <cusci/signal.h>

#include "reference/signal/design.h"

/* The window of check_COLA and check_NOLA: named (get_window's, periodic)
 * or given (1-d, nperseg values), in a new host array. */
static cusci_status stft_window(cusci_ctx *ctx, const char *fn, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap,
                                double **v)
{
  *v = NULL;
  if (nperseg < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nperseg %lld must be a positive integer", (long long)nperseg);
  if (noverlap >= nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld must be less than nperseg %lld", (long long)noverlap, (long long)nperseg);
  if (noverlap < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "noverlap %lld must be a nonnegative integer", (long long)noverlap);
  if (!window == !win)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "give the window by name or by its values, one of the two");
  if (window)
    return cusci__sig_window_host(ctx, fn, window, nperseg, true, v);
  if (cusci_array_ndim(win) != 1 || cusci_array_size(win) != nperseg)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the window must be 1-D with nperseg = %lld values", (long long)nperseg);
  if (cusci_array_dtype(win) == CUSCI_COMPLEX64 || cusci_array_dtype(win) == CUSCI_COMPLEX128)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "the window must be real");
  return cusci__sig_host_reals(ctx, fn, "win", win, v);
}

/* The sums of the window's values (squares: power 2) over the segments'
 * positions modulo the step: step values into a new host array. */
static double *bin_sums(const double *w, int64_t nperseg, int64_t step, int power)
{
  double *b = calloc((size_t)step, sizeof *b);
  if (!b)
    return NULL;
  for (int64_t s = 0; s < nperseg / step; s++)
    for (int64_t i = 0; i < step; i++) {
      const double v = w[s * step + i];
      b[i] += power == 2 ? v * v : v;
    }
  const int64_t rem = nperseg % step;
  for (int64_t i = 0; i < rem; i++) {
    const double v = w[nperseg - rem + i];
    b[i] += power == 2 ? v * v : v;
  }
  return b;
}

static cusci_status check_overlap(cusci_ctx *ctx, const char *fn, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap,
                                  double tol, bool nola, bool *out)
{
  CUSCI_ENTRY(ctx, fn, out);
  if (!(tol >= 0) || isinf(tol))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "tol %g must be nonnegative and finite", tol);
  double *w;
  CUSCI_TRY(stft_window(ctx, fn, window, win, nperseg, noverlap, &w));
  const int64_t step = nperseg - noverlap;
  double *b = bin_sums(w, nperseg, step, nola ? 2 : 1);
  double *sorted = b ? malloc(sizeof *sorted * (size_t)step) : NULL;
  free(w);
  if (!sorted) {
    free(b);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  }
  memcpy(sorted, b, sizeof *b * (size_t)step);
  qsort(sorted, (size_t)step, sizeof *sorted, cusci__sig_cmp_double);
  if (nola) {
    *out = sorted[0] > tol;
  } else {
    /* numpy.median: the middle value, or the mean of the middle two */
    const double med = step % 2 ? sorted[step / 2] : (sorted[step / 2 - 1] + sorted[step / 2]) / 2;
    double dev = 0;
    for (int64_t i = 0; i < step; i++)
      dev = fmax(dev, fabs(b[i] - med));
    *out = dev < tol;
  }
  free(sorted), free(b);
  return CUSCI_OK;
}

cusci_status cusci_signal_check_COLA(cusci_ctx *ctx, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap, double tol,
                                     bool *out)
{
  return check_overlap(ctx, "cusci_signal_check_COLA", window, win, nperseg, noverlap, tol, false, out);
}

cusci_status cusci_signal_check_NOLA(cusci_ctx *ctx, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap, double tol,
                                     bool *out)
{
  return check_overlap(ctx, "cusci_signal_check_NOLA", window, win, nperseg, noverlap, tol, true, out);
}

cusci_status cusci_signal_unit_impulse(cusci_ctx *ctx, int ndim, const int64_t *shape, const int64_t *idx, bool mid, cusci_dtype dtype,
                                       cusci_array **out)
{
  static const char fn[] = "cusci_signal_unit_impulse";
  CUSCI_ENTRY(ctx, fn, shape, out);
  if (ndim < 1 || ndim > 32)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "ndim %d: an impulse has 1 to 32 dimensions", ndim);
  if (idx && mid)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "give idx or mid, not both");
  int64_t start[32], stop[32], ones[32];
  for (int d = 0; d < ndim; d++) {
    if (shape[d] < 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "shape[%d] %lld: an impulse needs room for its sample", d, (long long)shape[d]);
    int64_t i = mid ? shape[d] / 2 : idx ? idx[d] : 0;
    if (i < 0)
      i += shape[d];
    if (i < 0 || i >= shape[d])
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "idx[%d] %lld is out of bounds for extent %lld", d, (long long)idx[d], (long long)shape[d]);
    start[d] = i, stop[d] = i + 1, ones[d] = 1;
  }
  cusci_array *z = NULL, *one = NULL, *view = NULL;
  cusci_status st = cusci_array_zeros(ctx, ndim, shape, dtype, &z);
  if (st == CUSCI_OK)
    st = cusci_array_ones(ctx, ndim, ones, dtype, &one);
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, z, start, stop, NULL, &view);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, one, &view);
  cusci_array_release(view), cusci_array_release(one);
  if (st == CUSCI_OK)
    return cusci_give_out(ctx, fn, z, out);
  cusci_array_release(z);
  return st;
}

/* Primitive polynomials' taps for 2 to 32 bits, as SciPy's. */
static const int mls_taps[33][3] = {
  [2] = {1},          [3] = {2},           [4] = {3},          [5] = {3},          [6] = {5},          [7] = {6},
  [8] = {7, 6, 1},    [9] = {5},           [10] = {7},         [11] = {9},         [12] = {11, 10, 4}, [13] = {12, 11, 8},
  [14] = {13, 12, 2}, [15] = {14},         [16] = {15, 13, 4}, [17] = {14},        [18] = {11},        [19] = {18, 17, 14},
  [20] = {17},        [21] = {19},         [22] = {21},        [23] = {18},        [24] = {23, 22, 17}, [25] = {22},
  [26] = {25, 24, 20}, [27] = {26, 25, 22}, [28] = {25},       [29] = {27},        [30] = {29, 28, 7}, [31] = {28},
  [32] = {31, 30, 10}};

cusci_status cusci_signal_max_len_seq(cusci_ctx *ctx, int nbits, const int8_t *state, int64_t length, int ntaps, const int *taps,
                                      cusci_array **seq, int8_t *state_out)
{
  static const char fn[] = "cusci_signal_max_len_seq";
  CUSCI_ENTRY(ctx, fn, seq);
  if (nbits < 1 || nbits > 62)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nbits %d must lie in [1, 62] (2 to 32 without taps)", nbits);
  int t[64], nt = 0;
  if (!taps) {
    if (nbits < 2 || nbits > 32)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nbits %d must be between 2 and 32 if taps is NULL", nbits);
    for (int i = 0; i < 3 && mls_taps[nbits][i]; i++)
      t[nt++] = mls_taps[nbits][i];
  } else {
    /* numpy.unique, largest first */
    if (ntaps < 1 || ntaps > 64)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ntaps %d: taps must be non-empty (at most 64)", ntaps);
    for (int i = 0; i < ntaps; i++) {
      if (taps[i] < 0 || taps[i] > nbits)
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "taps[%d] %d: taps must lie between zero and nbits (inclusive)", i, taps[i]);
      bool seen = false;
      for (int j = 0; j < nt; j++)
        seen |= t[j] == taps[i];
      if (!seen)
        t[nt++] = taps[i];
    }
    for (int i = 1; i < nt; i++)
      for (int j = i; j > 0 && t[j] > t[j - 1]; j--) {
        const int s = t[j];
        t[j] = t[j - 1], t[j - 1] = s;
      }
  }
  if (length == CUSCI_SIGNAL_MLS_FULL)
    length = (INT64_C(1) << nbits) - 1;
  if (length < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "length %lld must be greater than or equal to 0", (long long)length);
  int8_t *reg = malloc((size_t)nbits);
  int8_t *s = malloc(length ? (size_t)length : 1);
  if (!reg || !s) {
    free(reg), free(s);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld values", (long long)length);
  }
  bool any = false;
  for (int i = 0; i < nbits; i++) {
    reg[i] = state ? state[i] != 0 : 1;
    any |= reg[i];
  }
  if (!any) {
    free(reg), free(s);
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "state must not be all zeros");
  }
  /* the shift register as a ring buffer from idx */
  int idx = 0;
  for (int64_t i = 0; i < length; i++) {
    int8_t fb = reg[idx];
    s[i] = fb;
    for (int k = 0; k < nt; k++)
      fb ^= reg[(t[k] + idx) % nbits];
    reg[idx] = fb;
    idx = (idx + 1) % nbits;
  }
  if (state_out)
    for (int i = 0; i < nbits; i++)
      state_out[i] = reg[(i + idx) % nbits];
  cusci_array *r = NULL;
  cusci_status st = cusci_array_from_host(ctx, s, 1, &length, CUSCI_INT8, &r);
  free(reg), free(s);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, seq);
  return st;
}

cusci_status cusci_signal_czt_points(cusci_ctx *ctx, int64_t m, const double *w, const double *a, cusci_array **out)
{
  static const char fn[] = "cusci_signal_czt_points";
  CUSCI_ENTRY(ctx, fn, out);
  if (m < 1 || m > (INT64_C(1) << 40))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "m %lld: the number of points must be a positive integer", (long long)m);
  const double complex A = a ? CMPLX(a[0], a[1]) : 1.0;
  const double complex W = w ? CMPLX(w[0], w[1]) : 0;
  if (!isfinite(creal(A)) || !isfinite(cimag(A)) || (w && (!isfinite(creal(W)) || !isfinite(cimag(W)) || W == 0)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a and w must be finite, w nonzero");
  double complex *v = malloc(sizeof *v * (size_t)m);
  if (!v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld points", (long long)m);
  /* a w^-k with w^-k = exp(-k log w): |w|^-k and the angle times k, each
   * exact for its k (no running product) */
  const double lr = log(cabs(W)), th = carg(W);
  for (int64_t k = 0; k < m; k++) {
    double complex z;
    if (!w) {
      const double ph = 2 * M_PI * (double)k / (double)m;
      z = CMPLX(cos(ph), sin(ph));
    } else {
      const double mag = exp(-(double)k * lr), ph = -(double)k * th;
      z = CMPLX(mag * cos(ph), mag * sin(ph));
    }
    v[k] = cusci__sig_np_mul(A, z);
  }
  const cusci_status st = cusci__sig_upload(ctx, v, 1, &m, CUSCI_COMPLEX128, out);
  free(v);
  return st;
}
