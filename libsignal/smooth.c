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
  SIG_RELEASE(seg, u, ur, uy, suy, sy, fit, c0, c1, t, fc);
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
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "data", nd, axis, &axis));
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
  SIG_RELEASE(ones, sum, mean, sq, sum2, m2, mm, var, nv, d, g, res, low, q);
  return st;
}

/* ------------------------------------------------ symiirorder1 */

/* n doubles as a 1-D array of dt on ctx's device. */
static cusci_status in_dtype(cusci_ctx *ctx, const double *v, int64_t n, cusci_dtype dt, cusci_array **out)
{
  return cusci__sig_upload_real(ctx, v, 1, &n, dt, out);
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
  SIG_RELEASE(x, wa, wr, head, pr, s, x0, y0, b, a, c, zi, rest, y1, y1f, last, ol, zi2, rv, o, r, dst, orv, v0, v1);
  return st;
}

/* ------------------------------------------------ symiirorder2 */

/* sum_k w[k] x[..., at(k), ...] along the last axis of the 1-D or 2-D x,
 * the samples from the start (from_end false: x[k]) or from the end
 * (x[N - 1 - k]), as an array of x's shape with that axis of length 1. */
static cusci_status weighted(cusci_ctx *ctx, cusci_array *x, const double *w, int64_t n, bool from_end, cusci_dtype dt, cusci_array **out)
{
  const int nd = cusci_array_ndim(x), ax = nd - 1;
  const int64_t N = cusci_array_shape(x)[ax];
  int64_t s0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, e0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, st1[2] = { 1, 1 }, ws[2] = { 1, 1 };
  if (from_end)
    s0[ax] = N - 1, e0[ax] = N - 1 - n < 0 ? CUSCI_SLICE_NONE : N - 1 - n, st1[ax] = -1;
  else
    s0[ax] = 0, e0[ax] = n;
  ws[ax] = n;
  const cusci_reduce_opts keep = { 1, &ax, true, 0 };
  cusci_array *part = NULL, *wa = NULL, *wr = NULL, *p = NULL;
  cusci_status st = cusci_array_slice(ctx, x, s0, e0, st1, &part);
  if (st == CUSCI_OK)
    st = in_dtype(ctx, w, n, dt, &wa);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wa, nd, ws, &wr);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, part, wr, &p);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, p, &keep, out);
  cusci_array_release(part), cusci_array_release(wa), cusci_array_release(wr), cusci_array_release(p);
  return st;
}

/* The state of sosfilt's one section [cs 0 0 1 -a2 -a3] that continues
 * from the outputs (i0, i1) (i1 the later): (a3 i0 + a2 i1, a3 i1), as
 * (1, rows, 2) for a 2-D signal or (1, 2) for a 1-D one. */
static cusci_status sos_state(cusci_ctx *ctx, cusci_array *i0, cusci_array *i1, double a2, double a3, int nd, cusci_dtype dt, cusci_array **z)
{
  const int64_t rows = nd == 2 ? cusci_array_shape(i0)[0] : 1;
  int64_t zs[3] = { 1, rows, 2 };
  cusci_array *t0 = NULL, *t1 = NULL, *z0 = NULL, *z1 = NULL, *v0 = NULL, *v1 = NULL;
  cusci_status st = cusci_array_empty(ctx, nd + 1, nd == 2 ? zs : (int64_t[]){ 1, 2 }, dt, z);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(i0), cusci_operand_float(a3), &t0);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(i1), cusci_operand_float(a2), &t1);
  if (st == CUSCI_OK)
    st = cusci_add(ctx, t0, t1, &z0);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(i1), cusci_operand_float(a3), &z1);
  const int zax = nd; /* the last axis of z */
  for (int j = 0; j < 2 && st == CUSCI_OK; j++) {
    int64_t s0[3] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, e0[3] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE };
    s0[zax] = j, e0[zax] = j + 1;
    cusci_array *dst = NULL, *src = NULL;
    st = cusci_array_slice(ctx, *z, s0, e0, NULL, &dst);
    int64_t shp[3] = { 1, rows, 1 };
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, j ? z1 : z0, nd + 1, nd == 2 ? shp : (int64_t[]){ 1, 1 }, &src);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, src, &dst);
    cusci_array_release(dst), cusci_array_release(src);
  }
  SIG_RELEASE(t0, t1, z0, z1, v0, v1);
  if (st != CUSCI_OK) {
    cusci_array_release(*z);
    *z = NULL;
  }
  return st;
}

cusci_status cusci_signal_symiirorder2(cusci_ctx *ctx, const cusci_array *input, double r, double omega, double precision, cusci_array **out)
{
  static const char fn[] = "cusci_signal_symiirorder2";
  CUSCI_ENTRY(ctx, fn, input, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "input", input));
  if (!(r < 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "r is %g: it must be less than 1", r);
  if (cusci_dtype_is_complex(cusci_array_dtype(input)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "input is %s: symiirorder2 takes real input", cusci_dtype_name(cusci_array_dtype(input)));
  const int nd = cusci_array_ndim(input);
  if (nd < 1 || nd > 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "input has %d dimensions: it must be 1-D or 2-D", nd);
  const cusci_dtype dt = float_dtype(cusci_array_dtype(input));
  const int ax = nd - 1;
  const int64_t N = cusci_array_shape(input)[ax];
  if (!(precision > 0 && precision < 1))
    precision = cusci_dtype_is_single(dt) ? 1e-6 : 1e-11;
  const double rsq = r * r, a2 = 2 * r * cos(omega), a3 = -rsq, cs = 1 - 2 * r * cos(omega) + rsq;
  /* SciPy's starts (its symiirorder2_ic_fwd and _bwd). Forward: the
   * causal impulse response hc(k) = cs r^k sin(omega (k + 1)) / sin(omega)
   * on the mirror-symmetric extension, up to the first |hc(K)| below the
   * precision; backward: the two-sided response hs(k) of both passes, up to
   * the first term whose square is below it. */
  const double sw = sin(omega);
#define HC(k) (cs * pow(r, (double)(k)) * sin(omega * (double)((k) + 1)) / sw)
  const double c0 = cs * cs * (1 + rsq) / (1 - rsq) / (1 - 2 * rsq * cos(2 * omega) + rsq * rsq), gam = (1 - rsq) / (1 + rsq) / tan(omega);
#define HS(k) (c0 * pow(rsq, fabs((double)(k)) / 2) * (cos(omega * fabs((double)(k))) + gam * sin(omega * fabs((double)(k)))))
  int64_t K = 2;
  while (K < N + 1 && !(fabs(HC(K)) < precision))
    K++;
  int64_t M0 = 0, M1 = 0;
  while (M0 < N && !(pow(HS(M0) + HS(M0 + 1), 2) < precision))
    M0++;
  while (M1 < N && !(pow(HS(M1 - 1) + HS(M1 + 2), 2) < precision))
    M1++;
  if (K > N || M0 >= N || M1 >= N || N < 3)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                          "the sums for the symmetric boundaries do not converge within the signal's %lld samples (r %g, omega %g, precision %g)",
                          (long long)N, r, omega, precision);
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, cusci_array_shape(input), dt, CUSCI_CASTING_NO));
  double *w = malloc(sizeof *w * (size_t)(N + 2));
  if (!w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *x = NULL, *f0 = NULL, *f1 = NULL, *b0 = NULL, *b1 = NULL, *z = NULL, *sos = NULL, *rest = NULL, *yf = NULL, *yv = NULL, *v = NULL,
              *rv = NULL, *y = NULL, *res = NULL, *dst = NULL, *yrv = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)input, dt, false, &x);
  /* ic_fwd[0]: x0 (hc0 + hc1), x[k] hc(k + 1) to k = K - 1; ic_fwd[1]:
   * x0 (hc1 + hc2), x1 (hc0 + hc3), x[k] hc(k + 2) to k = K - 2. */
  w[0] = HC(0) + HC(1);
  for (int64_t k = 1; k < K; k++)
    w[k] = HC(k + 1);
  if (st == CUSCI_OK)
    st = weighted(ctx, x, w, K, false, dt, &f0);
  w[0] = HC(1) + HC(2), w[1] = HC(0) + HC(3);
  for (int64_t k = 2; k < K - 1; k++)
    w[k] = HC(k + 2);
  if (st == CUSCI_OK)
    st = weighted(ctx, x, w, K - 1, false, dt, &f1);
  /* ic_bwd[0] (for sample N - 1): x[N-1-m] (hs(m) + hs(m + 1)), m to M0;
   * ic_bwd[1] (N - 2): x[N-1-m] (hs(m - 1) + hs(m + 2)), m to M1. */
  for (int64_t m = 0; m <= M0; m++)
    w[m] = HS(m) + HS(m + 1);
  if (st == CUSCI_OK)
    st = weighted(ctx, x, w, M0 + 1, true, dt, &b0);
  for (int64_t m = 0; m <= M1; m++)
    w[m] = HS(m - 1) + HS(m + 2);
  if (st == CUSCI_OK)
    st = weighted(ctx, x, w, M1 + 1, true, dt, &b1);
#undef HC
#undef HS
  free(w);
  /* Forward: y_fwd = [ic_fwd, sosfilt(x[2:], zi from ic_fwd)]. */
  const double sv[6] = { cs, 0, 0, 1, -a2, -a3 };
  if (st == CUSCI_OK)
    st = in_dtype(ctx, sv, 6, dt, &v);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, v, 2, (int64_t[]){ 1, 6 }, &sos);
  if (st == CUSCI_OK)
    st = sos_state(ctx, f0, f1, a2, a3, nd, dt, &z);
  int64_t s0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, e0[2] = { CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, st1[2] = { 1, 1 };
  s0[ax] = 2;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, x, s0, e0, NULL, &rest);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(x), dt, &yf);
  for (int j = 0; j < 3 && st == CUSCI_OK; j++) {
    s0[ax] = j == 2 ? 2 : j, e0[ax] = j == 2 ? CUSCI_SLICE_NONE : j + 1;
    cusci_array *d = NULL, *t = NULL;
    st = cusci_array_slice(ctx, yf, s0, e0, NULL, &d);
    if (st == CUSCI_OK)
      st = j == 2 ? cusci_signal_sosfilt(ctx, sos, rest, ax, z, &t, NULL) : CUSCI_OK;
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, j == 0 ? f0 : j == 1 ? f1 : t, &d);
    cusci_array_release(d), cusci_array_release(t);
  }
  cusci_array_release(z), z = NULL;
  /* Backward: y = sosfilt(y_fwd[N-3::-1], zi from (ic_bwd[0], ic_bwd[1]));
   * out = [reverse(y), ic_bwd[1], ic_bwd[0]]. */
  if (st == CUSCI_OK)
    st = sos_state(ctx, b0, b1, a2, a3, nd, dt, &z);
  s0[ax] = N - 3, e0[ax] = CUSCI_SLICE_NONE, st1[ax] = -1;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, yf, s0, e0, st1, &rv);
  if (st == CUSCI_OK)
    st = cusci_signal_sosfilt(ctx, sos, rv, ax, z, &y, NULL);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(x), dt, &res);
  s0[ax] = CUSCI_SLICE_NONE, e0[ax] = CUSCI_SLICE_NONE;
  if (st == CUSCI_OK)
    st = cusci_array_slice(ctx, y, s0, e0, st1, &yrv);
  for (int j = 0; j < 3 && st == CUSCI_OK; j++) {
    s0[ax] = j == 0 ? 0 : N - 3 + j, e0[ax] = j == 0 ? N - 2 : N - 2 + j;
    st = cusci_array_slice(ctx, res, s0, e0, NULL, &dst);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, j == 0 ? yrv : j == 1 ? b1 : b0, &dst);
    cusci_array_release(dst), dst = NULL;
  }
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, res, out), res = NULL;
  SIG_RELEASE(x, f0, f1, b0, b1, z, sos, rest, yf, yv, v, rv, y, res, dst, yrv);
  return st;
}
