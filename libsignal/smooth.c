/*
 * libsignal/smooth.c: detrend and wiener of signal.h, made of the core's
 * reductions and arithmetic and of correlate, on either backend.
 */
#include "libsignal/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

/* x's dtype for a result: floats and complex as they are, others
 * float64. */
static cusci_dtype float_dtype(cusci_dtype dt)
{
  return dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64 || dt == CUSCI_COMPLEX64 || dt == CUSCI_COMPLEX128 ? dt : CUSCI_FLOAT64;
}

static int cmp64(const void *a, const void *b)
{
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* In r (contiguous, x's values), segment [b0, b1) along axis less its
 * least-squares line in u = t / n, t = 1 .. n (SciPy's design matrix). */
static cusci_status detrend_segment(cusci_ctx *ctx, cusci_array *r, int axis, int64_t b0, int64_t b1, cusci_dtype dt)
{
  const int nd = cusci_array_ndim(r);
  const int64_t n = b1 - b0;
  int64_t s0[SIG_MAXD], e0[SIG_MAXD], us[SIG_MAXD];
  for (int i = 0; i < nd; i++)
    s0[i] = e0[i] = CUSCI_SLICE_NONE, us[i] = 1;
  s0[axis] = b0, e0[axis] = b1, us[axis] = n;
  cusci_array *seg = NULL, *u = NULL, *ur = NULL, *uy = NULL, *suy = NULL, *sy = NULL, *fit = NULL, *c0 = NULL, *c1 = NULL, *t = NULL;
  CUSCI_TRY(cusci_array_slice(ctx, r, s0, e0, NULL, &seg));
  cusci_status st = CUSCI_OK;
  if (n == 1) {
    /* One point: the line through it (lstsq's least norm fit) leaves 0. */
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(seg), cusci_operand_float(0), &seg);
    cusci_array_release(seg);
    return st;
  }
  /* c0 = (n S_uy - S_u S_y) / (n S_uu - S_u^2), c1 = (S_y - c0 S_u) / n. */
  double *uv = malloc((size_t)n * sizeof *uv), su = 0, suu = 0;
  if (!uv) {
    cusci_array_release(seg);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, "cusci_signal_detrend", "no host memory");
  }
  for (int64_t i = 0; i < n; i++) {
    uv[i] = (double)(i + 1) / (double)n;
    su += uv[i], suu += uv[i] * uv[i];
  }
  const double den = (double)n * suu - su * su;
  const cusci_reduce_opts keep = { 1, &axis, true, 0 };
  st = cusci_array_from_host(ctx, uv, 1, &n, CUSCI_FLOAT64, &u);
  free(uv);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, u, nd, us, &ur);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, seg, ur, &uy);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, uy, &keep, &suy);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, seg, &keep, &sy);
  /* c0 = (n suy - su sy) / den */
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(suy), cusci_operand_float((double)n / den), &c0);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(sy), cusci_operand_float(su / den), &t);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, c0, t, &c0);
  cusci_array_release(t), t = NULL;
  /* c1 = (sy - c0 su) / n */
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(c0), cusci_operand_float(su), &t);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, sy, t, &c1);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(c1), cusci_operand_float((double)n), &c1);
  /* seg -= c0 u + c1 */
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, c0, ur, &fit);
  if (st == CUSCI_OK)
    st = cusci_add(ctx, fit, c1, &fit);
  cusci_array *fc = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, fit, dt, false, &fc);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, seg, fc, &seg);
  cusci_array *all[] = { seg, u, ur, uy, suy, sy, fit, c0, c1, t, fc };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

cusci_status cusci_signal_detrend(cusci_ctx *ctx, const cusci_array *data, int axis, cusci_signal_trend type, int nbp, const int64_t *bp,
                                  cusci_array **out)
{
  static const char fn[] = "cusci_signal_detrend";
  CUSCI_ENTRY(ctx, fn, data, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "data", data));
  if (type != CUSCI_SIGNAL_TREND_LINEAR && type != CUSCI_SIGNAL_TREND_CONSTANT)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "trend type %d is not linear or constant", (int)type);
  const int nd = cusci_array_ndim(data);
  if (nd < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "data is 0-d: there is no axis");
  if (axis < -nd || axis >= nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", axis, nd);
  axis = axis < 0 ? axis + nd : axis;
  if (nbp < 0 || (nbp > 0 && !bp))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "bp is NULL with %d breakpoints", nbp);
  const cusci_dtype dt = float_dtype(cusci_array_dtype(data));
  const int64_t N = cusci_array_shape(data)[axis];
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, cusci_array_shape(data), dt, CUSCI_CASTING_NO));
  if (type == CUSCI_SIGNAL_TREND_CONSTANT) {
    const cusci_reduce_opts keep = { 1, &axis, true, 0 };
    cusci_array *m = NULL, *mc = NULL;
    cusci_status st = cusci_mean(ctx, data, &keep, &m);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, m, dt, false, &mc);
    if (st == CUSCI_OK)
      st = cusci_subtract(ctx, data, mc, out);
    cusci_array_release(m), cusci_array_release(mc);
    return st;
  }
  /* The breakpoints with 0 and N, sorted, each once. */
  int64_t *b = malloc(sizeof *b * (size_t)(nbp + 2));
  if (!b)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  int nb = 0;
  b[nb++] = 0, b[nb++] = N;
  for (int i = 0; i < nbp; i++) {
    if (bp[i] > N || bp[i] < 0) {
      free(b);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "breakpoint %lld: breakpoints must be from 0 to the length along axis, %lld", (long long)bp[i],
                            (long long)N);
    }
    b[nb++] = bp[i];
  }
  qsort(b, (size_t)nb, sizeof *b, cmp64);
  cusci_array *r = NULL, *c = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)data, dt, false, &c);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, c, &r);
  for (int i = 0; st == CUSCI_OK && i + 1 < nb; i++)
    if (b[i + 1] > b[i])
      st = detrend_segment(ctx, r, axis, b[i], b[i + 1], dt);
  free(b);
  cusci_array_release(c);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out), r = NULL;
  cusci_array_release(r);
  return st;
}

cusci_status cusci_signal_wiener(cusci_ctx *ctx, const cusci_array *im, int nk, const int64_t *mysize, const double *noise, cusci_array **out)
{
  static const char fn[] = "cusci_signal_wiener";
  CUSCI_ENTRY(ctx, fn, im, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "im", im));
  const int nd = cusci_array_ndim(im);
  if (nd < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "im is 0-d");
  if (mysize && nk != 1 && nk != nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%d window sizes for an array of %d dimensions (give 1 or %d)", nk, nd, nd);
  int64_t ws[SIG_MAXD];
  double size = 1;
  for (int i = 0; i < nd; i++) {
    ws[i] = mysize ? mysize[nk == 1 ? 0 : i] : 3;
    if (ws[i] < 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "mysize[%d] is %lld: each must be at least 1", i, (long long)ws[i]);
    size *= (double)ws[i];
  }
  /* SciPy's: the local mean and variance over the window (correlate with
   * ones, same mode), the noise their variance's mean unless given, then
   * (im - mean) (1 - noise / var) + mean, or the mean where var < noise. */
  cusci_array *ones = NULL, *sum = NULL, *mean = NULL, *sq = NULL, *sum2 = NULL, *m2 = NULL, *mm = NULL, *var = NULL, *nv = NULL, *d = NULL,
              *g = NULL, *res = NULL, *low = NULL, *q = NULL;
  cusci_status st = cusci_array_ones(ctx, nd, ws, CUSCI_FLOAT64, &ones);
  if (st == CUSCI_OK)
    st = cusci_signal_correlate(ctx, im, ones, CUSCI_SIGNAL_SAME, CUSCI_SIGNAL_AUTO, &sum);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(sum), cusci_operand_float(size), &mean);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, im, im, &sq);
  if (st == CUSCI_OK)
    st = cusci_signal_correlate(ctx, sq, ones, CUSCI_SIGNAL_SAME, CUSCI_SIGNAL_AUTO, &sum2);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_array(sum2), cusci_operand_float(size), &m2);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, mean, mean, &mm);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, m2, mm, &var);
  double nz = noise ? *noise : 0;
  if (st == CUSCI_OK && !noise) {
    st = cusci_mean(ctx, var, NULL, &nv);
    double v = 0;
    cusci_array *nd64 = NULL;
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, nv, CUSCI_FLOAT64, false, &nd64);
    if (st == CUSCI_OK)
      st = cusci_array_to_host(ctx, nd64, &v, sizeof v);
    cusci_array_release(nd64);
    nz = v;
  }
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, im, mean, &d);
  /* 1 - noise / var */
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_float(nz), cusci_operand_array(var), &q);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_SUBTRACT, cusci_operand_float(1), cusci_operand_array(q), &g);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, d, g, &res);
  if (st == CUSCI_OK)
    st = cusci_add(ctx, res, mean, &res);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_LESS, cusci_operand_array(var), cusci_operand_float(nz), &low);
  if (st == CUSCI_OK)
    st = cusci_where(ctx, low, cusci_operand_array(mean), cusci_operand_array(res), out);
  cusci_array *all[] = { ones, sum, mean, sq, sum2, m2, mm, var, nv, d, g, res, low, q };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

/* ------------------------------------------------ symiirorder1 */

/* n doubles as a 1-D array of dt on ctx's device. */
static cusci_status in_dtype(cusci_ctx *ctx, const double *v, int64_t n, cusci_dtype dt, cusci_array **out)
{
  cusci_array *h = NULL;
  CUSCI_TRY(cusci_array_from_host(ctx, v, 1, &n, CUSCI_FLOAT64, &h));
  cusci_status st = cusci_array_astype(ctx, h, dt, true, out);
  cusci_array_release(h);
  return st;
}

cusci_status cusci_signal_symiirorder1(cusci_ctx *ctx, const cusci_array *input, double c0, double z1, double precision, cusci_array **out)
{
  static const char fn[] = "cusci_signal_symiirorder1";
  CUSCI_ENTRY(ctx, fn, input, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "input", input));
  if (!(fabs(z1) < 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "|z1| is %g: it must be less than 1", fabs(z1));
  const int nd = cusci_array_ndim(input);
  if (nd < 1 || nd > 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "input has %d dimensions: it must be 1-D or 2-D", nd);
  const cusci_dtype dt = float_dtype(cusci_array_dtype(input));
  const int64_t N = cusci_array_shape(input)[nd - 1];
  /* SciPy's default precision: 1e-6 in single precision, 1e-11 in double. */
  if (!(precision > 0 && precision < 1))
    precision = cusci_dtype_is_single(dt) ? 1e-6 : 1e-11;
  /* The mirror-symmetric start: y0 = x0 + sum z1^(k+1) x[k], up to the
   * first power below the precision, which the signal must reach. */
  int64_t K = 0;
  double pw = z1;
  while (K < N && !(fabs(pw) < precision))
    pw *= z1, K++;
  if (K >= N)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                          "the sum for the symmetric boundary does not converge within the signal's %lld samples (z1 %g, precision %g)", (long long)N, z1,
                          precision);
  K++;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, cusci_array_shape(input), dt, CUSCI_CASTING_NO));
  const int ax = nd - 1;
  double *w = malloc(sizeof *w * (size_t)K);
  if (!w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  pw = z1;
  for (int64_t k = 0; k < K; k++)
    w[k] = pw, pw *= z1;
  int64_t ws[2] = { 1, 1 };
  ws[ax] = K;
  const int64_t one = 1;
  const double bv[1] = { 1 }, av[2] = { 1, -z1 }, cv[1] = { c0 };
  const int64_t two = 2;
  const cusci_reduce_opts keep = { 1, &ax, true, 0 };
  cusci_array *x = NULL, *wa = NULL, *wr = NULL, *head = NULL, *pr = NULL, *s = NULL, *x0 = NULL, *y0 = NULL, *b = NULL, *a = NULL, *c = NULL,
              *zi = NULL, *rest = NULL, *y1 = NULL, *y1f = NULL, *last = NULL, *ol = NULL, *zi2 = NULL, *rv = NULL, *o = NULL, *r = NULL, *dst = NULL,
              *orv = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)input, dt, false, &x);
  if (st == CUSCI_OK)
    st = in_dtype(ctx, w, K, dt, &wa);
  free(w);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wa, nd, ws, &wr);
  int64_t s0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, e0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE };
  /* y0 = x0 + sum(w x[:K]) */
  e0[ax] = K;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, x, s0, e0, NULL, &head);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, head, wr, &pr);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, pr, &keep, &s);
  e0[ax] = 1;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, x, s0, e0, NULL, &x0);
  if (st == CUSCI_OK)
    st = cusci_add(ctx, x0, s, &y0);
  /* y1 = [y0, lfilter(1, [1, -z1], x[1:], zi = y0 z1)] */
  /* The coefficients in the signal's dtype, as SciPy's. */
  if (st == CUSCI_OK)
    st = in_dtype(ctx, bv, one, dt, &b);
  if (st == CUSCI_OK)
    st = in_dtype(ctx, av, two, dt, &a);
  if (st == CUSCI_OK)
    st = in_dtype(ctx, cv, one, dt, &c);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(y0), cusci_operand_float(z1), &zi);
  s0[ax] = 1, e0[ax] = CUSCI_SLICE_NONE;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, x, s0, e0, NULL, &rest);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(x), dt, &y1f);
  cusci_array *v0 = NULL, *v1 = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y1f, s0, e0, NULL, &v1);
  if (st == CUSCI_OK)
    st = cusci_signal_lfilter(ctx, b, a, rest, ax, zi, &y1, NULL);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, y1, &v1);
  s0[ax] = CUSCI_SLICE_NONE, e0[ax] = 1;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y1f, s0, e0, NULL, &v0);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, y0, &v0);
  /* out_last = -c0 / (z1 - 1) y1[-1]; out = [reverse(lfilter(c0, [1, -z1],
   * y1[-2::-1], zi = out_last z1)), out_last] */
  s0[ax] = N - 1, e0[ax] = N;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y1f, s0, e0, NULL, &last);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(last), cusci_operand_float(-c0 / (z1 - 1.0)), &ol);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(ol), cusci_operand_float(z1), &zi2);
  int64_t st1[2] = { 1, 1 };
  st1[ax] = -1, s0[ax] = N - 2, e0[ax] = CUSCI_SLICE_NONE;
  if (st == CUSCI_OK && N >= 2)
    st = cusci_array_slice(ctx, y1f, s0, e0, st1, &rv);
  if (st == CUSCI_OK && N >= 2)
    st = cusci_signal_lfilter(ctx, c, a, rv, ax, zi2, &o, NULL);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(x), dt, &r);
  s0[ax] = N - 2, e0[ax] = CUSCI_SLICE_NONE;
  if (st == CUSCI_OK && N >= 2)
    st = cusci_array_slice(ctx, o, (int64_t[]){ CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, (int64_t[]){ CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, st1, &orv);
  s0[ax] = CUSCI_SLICE_NONE, e0[ax] = N - 1;
  if (st == CUSCI_OK && N >= 2)
    st = cusci_array_slice(ctx, r, s0, e0, NULL, &dst);
  if (st == CUSCI_OK && N >= 2)
    st = cusci_array_copy(ctx, orv, &dst);
  cusci_array_release(dst), dst = NULL;
  s0[ax] = N - 1, e0[ax] = N;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, r, s0, e0, NULL, &dst);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, ol, &dst);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out), r = NULL;
  cusci_array *all[] = { x, wa, wr, head, pr, s, x0, y0, b, a, c, zi, rest, y1, y1f, last, ol, zi2, rv, o, r, dst, orv, v0, v1 };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}
