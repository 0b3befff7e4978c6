/*
 * libsignal/savgol.c: savgol_coeffs and savgol_filter of signal.h.
 *
 * The coefficients are SciPy's: the least-norm solution of A c = y, A the
 * powers 0..polyorder of the window's positions, y the deriv-th unit
 * vector times deriv! / delta^deriv; found here through a QR factorisation
 * (modified Gram-Schmidt) of the transposed, column-scaled A. The filter
 * convolves the signal, extended as the mode asks, with them along axis
 * (the direct convolution of convolve.c with a kernel of extent 1 on the
 * other axes); in mode interp the first and last window_length / 2
 * outputs are instead the values (or derivatives) of the polynomial fitted
 * to the first and last windows, SciPy's _fit_edges_polyfit, applied as a
 * matrix made on the host.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

#include "reference/signal/filter.h"

/*
 * Q (m x n, columns orthonormal) and R (n x n upper) of the m x n matrix
 * V (column-major: V[j * m + i]), m >= n, in place (V becomes Q). false
 * when V's columns are dependent.
 */
static bool mgs(int64_t m, int64_t n, double *V, double *R)
{
  for (int64_t j = 0; j < n; j++) {
    double *vj = V + j * m;
    for (int64_t k = 0; k < j; k++) {
      const double *qk = V + k * m;
      double d = 0;
      for (int64_t i = 0; i < m; i++)
        d += qk[i] * vj[i];
      R[j * n + k] = d;
      for (int64_t i = 0; i < m; i++)
        vj[i] -= d * qk[i];
    }
    double nn = 0;
    for (int64_t i = 0; i < m; i++)
      nn += vj[i] * vj[i];
    nn = sqrt(nn);
    if (!(nn > 1e-13))
      return false;
    R[j * n + j] = nn;
    for (int64_t i = 0; i < m; i++)
      vj[i] /= nn;
  }
  return true;
}

static double falling(int64_t k, int64_t d)
{
  double f = 1;
  for (int64_t i = 0; i < d; i++)
    f *= (double)(k - i);
  return f;
}

/* G = R^-1 Q^T ((p+1) x m, row-major): the polynomial coefficients (in
 * u = (t - c) / s) of the least-squares fit to m samples at t = 0..m-1. */
static bool fit_matrix(int64_t m, int64_t p, double c, double s, double *G)
{
  const int64_t n = p + 1;
  double *V = malloc(sizeof *V * (size_t)(m * n)), *R = calloc((size_t)(n * n), sizeof *R);
  bool good = V && R;
  if (good) {
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < m; i++)
        V[j * m + i] = pow(((double)i - c) / s, (double)j);
    good = mgs(m, n, V, R);
  }
  /* Back substitution, a column of Q^T at a time: R g = q. */
  for (int64_t i = 0; good && i < m; i++)
    for (int64_t r = n - 1; r >= 0; r--) {
      double v = V[r * m + i];
      for (int64_t k = r + 1; k < n; k++)
        v -= R[k * n + r] * G[k * m + i];
      G[r * m + i] = v / R[r * n + r];
    }
  free(V), free(R);
  return good;
}

cusci_status cusci_signal_savgol_coeffs(cusci_ctx *ctx, int64_t window_length, int64_t polyorder, int64_t deriv, double delta, cusci_array **out)
{
  static const char fn[] = "cusci_signal_savgol_coeffs";
  CUSCI_ENTRY(ctx, fn, out);
  if (window_length < 1 || polyorder < 0 || polyorder >= window_length)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "polyorder %lld and window_length %lld: polyorder must be less than window_length",
                          (long long)polyorder, (long long)window_length);
  if (deriv < 0 || !(delta > 0 || delta < 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "deriv %lld and delta %g: deriv must be at least 0 and delta not 0", (long long)deriv, delta);
  const int64_t W = window_length, n = polyorder + 1;
  double *coef = calloc((size_t)W, sizeof *coef), *G = malloc(sizeof *G * (size_t)(n * W));
  cusci_status st = coef && G ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK && deriv <= polyorder) {
    /* Positions x = -pos .. W - 1 - pos, reversed for convolution (use
     * "conv"); with u = x / h, c_k = h^-k (the scaled system's least-norm
     * solution): c = Q R^-T (D^-1 y), Q R the QR of A'^T = V(u). The same
     * as fit_matrix's G^T applied to the unit vector, G = R^-1 Q^T. */
    const double pos = W % 2 ? (double)(W / 2) : (double)(W / 2) - 0.5;
    const double h = fmax(pos, (double)W - 1 - pos) > 0 ? fmax(pos, (double)W - 1 - pos) : 1;
    double *V = malloc(sizeof *V * (size_t)(W * n)), *R = calloc((size_t)(n * n), sizeof *R), *z = calloc((size_t)n, sizeof *z);
    if (!V || !R || !z)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    if (st == CUSCI_OK) {
      for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < W; i++) {
          const double x = (double)(W - 1 - i) - pos; /* reversed */
          V[j * W + i] = pow(x / h, (double)j);
        }
      if (!mgs(W, n, V, R))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the least-squares system is singular");
    }
    if (st == CUSCI_OK) {
      /* y' = D^-1 y (D = diag(h^k), A = D A'): deriv! / delta^deriv at
       * deriv, over h^deriv. */
      double yv = falling(deriv, deriv) / pow(delta, (double)deriv) / pow(h, (double)deriv);
      /* R^T z = y' (forward substitution). */
      for (int64_t r = 0; r < n; r++) {
        double v = r == deriv ? yv : 0;
        for (int64_t k = 0; k < r; k++)
          v -= R[r * n + k] * z[k];
        z[r] = v / R[r * n + r];
      }
      for (int64_t i = 0; i < W; i++) {
        double v = 0;
        for (int64_t j = 0; j < n; j++)
          v += V[j * W + i] * z[j];
        coef[i] = v;
      }
    }
    free(V), free(R), free(z);
  }
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, coef, 1, &W, CUSCI_FLOAT64, &r);
  free(coef), free(G);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

/* dst (E along axis) = M (host, E x W) applied to the window xw (W along
 * axis). */
static cusci_status apply_rows(cusci_ctx *ctx, const double *M, int64_t E, int64_t W, cusci_array *xw, int axis, cusci_dtype dt, cusci_array *dst)
{
  double complex *C = malloc(sizeof *C * (size_t)(E * W));
  if (!C)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, "cusci_signal_savgol_filter", "no host memory");
  for (int64_t i = 0; i < E * W; i++)
    C[i] = M[i];
  cusci_array *sum = NULL;
  cusci_status st = cusci__sig_apply_matrix(ctx, C, E, W, xw, axis, dt, &sum);
  free(C);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, sum, &dst);
  cusci_array_release(sum);
  return st;
}

/* SciPy's _fit_edges_polyfit: y's first and last W / 2 samples along axis
 * from the polynomial of degree p fitted to x's first and last W. */
static cusci_status fit_edges(cusci_ctx *ctx, const char *fn, cusci_array *x, cusci_array *y, int axis, int64_t W, int64_t p, int64_t deriv,
                              double delta, cusci_dtype dt)
{
  const int64_t half = W / 2, n = cusci_array_shape(x)[axis], np1 = p + 1;
  const double c = (double)(W - 1) / 2, s = c > 0 ? c : 1;
  double *G = malloc(sizeof *G * (size_t)(np1 * W)), *M = calloc((size_t)((half ? half : 1) * W), sizeof *M);
  cusci_status st = G && M ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK && !fit_matrix(W, p, c, s, G))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "the edge fit of degree %lld over %lld samples is singular", (long long)p, (long long)W);
  for (int side = 0; side < 2 && st == CUSCI_OK && half > 0; side++) {
    /* Rows: the evaluation points t (0 .. half-1, or W-half .. W-1). */
    for (int64_t e = 0; e < half; e++) {
      const double t = (double)(side ? W - half + e : e), u = (t - c) / s;
      for (int64_t j = 0; j < W; j++) {
        double v = 0;
        for (int64_t k = deriv; k <= p; k++)
          v += G[k * W + j] * falling(k, deriv) * pow(u, (double)(k - deriv));
        M[e * W + j] = v / pow(s, (double)deriv) / pow(delta, (double)deriv);
      }
    }
    cusci_array *xw = NULL, *dst = NULL;
    st = cusci__sig_along(ctx, x, axis, side ? n - W : 0, side ? n : W, 1, &xw);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, y, axis, side ? n - half : 0, side ? n : half, 1, &dst);
    if (st == CUSCI_OK)
      st = apply_rows(ctx, M, half, W, xw, axis, dt, dst);
    cusci_array_release(xw), cusci_array_release(dst);
  }
  free(G), free(M);
  return st;
}

cusci_status cusci_signal_savgol_filter(cusci_ctx *ctx, const cusci_array *x, int64_t window_length, int64_t polyorder, int64_t deriv, double delta,
                                        int axis, cusci_signal_savgol_mode mode, double cval, cusci_array **out)
{
  static const char fn[] = "cusci_signal_savgol_filter";
  CUSCI_ENTRY(ctx, fn, x, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  const cusci_dtype xt = cusci_array_dtype(x);
  if (cusci_dtype_is_complex(xt))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is %s: savgol_filter takes real input", cusci_dtype_name(xt));
  if ((int)mode < 0 || mode > CUSCI_SIGNAL_SAVGOL_WRAP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mode %d is not one of interp, mirror, constant, nearest and wrap", (int)mode);
  const int nd = cusci_array_ndim(x);
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", nd, axis, &axis));
  const int64_t n = cusci_array_shape(x)[axis], W = window_length;
  if (mode == CUSCI_SIGNAL_SAVGOL_INTERP && W > n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "window_length %lld is longer than x along axis (%lld), which mode interp needs it not to be",
                          (long long)W, (long long)n);
  const cusci_dtype dt = xt == CUSCI_FLOAT32 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, cusci_array_shape(x), dt, CUSCI_CASTING_NO));
  cusci_array *c = NULL, *cd = NULL, *k = NULL, *xe = NULL, *full = NULL, *v = NULL, *y = NULL, *xc = NULL;
  cusci_status st = cusci_signal_savgol_coeffs(ctx, W, polyorder, deriv, delta, &c);
  int64_t ks[SIG_MAXD], before[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    ks[i] = i == axis ? W : 1, before[i] = i == axis ? W : 0;
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, c, dt, true, &cd);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, cd, nd, ks, &k);
  /* ndimage's convolve1d: y[i] = the full convolution of the extended x
   * at i + W / 2; x extended by W each side, so valid[i + W / 2 + 1]. */
  static const int pads[] = { CUSCI__SIG_PAD_FILL, CUSCI__SIG_PAD_MIRROR, CUSCI__SIG_PAD_FILL, CUSCI__SIG_PAD_NEAREST, CUSCI__SIG_PAD_WRAP };
  if (st == CUSCI_OK)
    st = cusci__sig_pad_array(ctx, fn, x, dt, before, before, pads[mode], mode == CUSCI_SIGNAL_SAVGOL_CONSTANT ? cval : 0, &xe);
  if (st == CUSCI_OK)
    st = cusci_signal_convolve(ctx, xe, k, CUSCI_SIGNAL_VALID, CUSCI_SIGNAL_DIRECT, &full);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, full, axis, W / 2 + 1, W / 2 + 1 + n, 1, &v);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, v, &y);
  if (st == CUSCI_OK && mode == CUSCI_SIGNAL_SAVGOL_INTERP) {
    st = cusci_array_astype(ctx, (cusci_array *)x, dt, false, &xc);
    if (st == CUSCI_OK)
      st = fit_edges(ctx, fn, xc, y, axis, W, polyorder, deriv, delta, dt);
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, y, out), y = NULL;
  SIG_RELEASE(c, cd, k, xe, full, v, y, xc);
  return st;
}
