/*
 * libsignal/check.c: a transform's request checked and normalised into
 * the key its plan and the cache use: the dtype, the axes and the lengths
 * by scipy.fft's rules.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <stdlib.h>

#include <cusci/kit/dtypes.h>

#include "reference/signal/filter.h"

#include <string.h>

static bool real_only(int kind)
{
  return kind == CUSCI_FFT_KIND_RFFT || kind == CUSCI_FFT_KIND_IHFFT || kind >= SIG_DCT;
}

static bool c2r(int kind)
{
  return kind == CUSCI_FFT_KIND_IRFFT || kind == CUSCI_FFT_KIND_HFFT;
}

cusci_status cusci__sig_key(cusci_ctx *ctx, const char *fn, int kind, int type, int ndim, const int64_t *shape, const int64_t *strides,
                            cusci_dtype dtype, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, sig_key *key)
{
  memset(key, 0, sizeof *key);
  if (norm != CUSCI_FFT_BACKWARD && norm != CUSCI_FFT_ORTHO && norm != CUSCI_FFT_FORWARD)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "norm %d is none of CUSCI_FFT_BACKWARD, _ORTHO and _FORWARD", (int)norm);
  if (kind >= SIG_DCT && (type < 1 || type > 4))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "type %d: the DCT and DST have types 1 to 4", type);
  if (!cusci_dtype_valid(dtype))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "dtype %d is outside cusci_dtype", (int)dtype);
  if (cusci_dtype_kind(dtype) == 'c' && real_only(kind))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "x is %s: this transform takes real input", cusci_dtype_name(dtype));
  if (ndim < 0 || ndim > SIG_MAXD)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "ndim %d is outside 0..%d", ndim, SIG_MAXD);
  if (naxes < 0 || naxes > ndim)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "%d axes for an array of %d dimensions", naxes, ndim);
  key->kind = kind;
  key->type = kind >= SIG_DCT ? type : 0;
  key->norm = (int)norm;
  key->ndim = ndim;
  key->dtype = dtype;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "extent %lld of axis %d is negative", (long long)shape[i], i);
    key->shape[i] = shape[i];
  }
  int64_t st = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    key->strides[i] = strides ? strides[i] : st;
    st *= shape[i] ? shape[i] : 1;
  }
  /* The axes: every one, the last naxes, or those given. */
  int na = naxes == 0 && !axes && !s ? ndim : naxes;
  if (na == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, ndim ? "no axis to transform" : "x is 0-d: it has no axis to transform");
  bool seen[SIG_MAXD] = {false};
  for (int i = 0; i < na; i++) {
    int a = axes ? axes[i] : ndim - na + i;
    if (a < -ndim || a >= ndim)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", a, ndim);
    if (a < 0)
      a += ndim;
    if (seen[a])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is given twice: the axes must be unique", a);
    seen[a] = true;
    key->axes[i] = a;
  }
  key->naxes = na;
  /* The lengths: given, or the input's (-1 or s NULL). */
  for (int i = 0; i < na; i++) {
    int64_t m = shape[key->axes[i]], n = s ? s[i] : -1;
    if (n < -1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid number of data points (%lld) along axis %d", (long long)n, key->axes[i]);
    if (n == -1)
      n = c2r(kind) && i == na - 1 ? 2 * (m - 1) : m;
    if (n < 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid number of data points (%lld) along axis %d%s", (long long)n, key->axes[i],
                            c2r(kind) && i == na - 1 && (!s || s[i] == -1) ? " (2 * (m - 1) for an input of length m = 1 or 0)" : "");
    if (kind >= SIG_DCT && type == 1 && (kind == SIG_DCT || kind == SIG_IDCT) && n < 2)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the DCT-I of %lld point along axis %d is undefined: it needs at least 2", (long long)n,
                            key->axes[i]);
    key->s[i] = n;
  }
  return CUSCI_OK;
}

cusci_status cusci__sig_axis(cusci_ctx *ctx, const char *fn, const char *name, int nd, int axis, int *out)
{
  if (nd < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s is 0-d: there is no axis", name);
  if (axis < -nd || axis >= nd)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for an array of %d dimensions", axis, nd);
  *out = axis < 0 ? axis + nd : axis;
  return CUSCI_OK;
}

cusci_status cusci__sig_contiguous(cusci_ctx *ctx, const cusci_array *x, cusci_dtype dt, cusci_array **out)
{
  cusci_array *c = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)x, dt, false, &c));
  cusci_status st = cusci_array_ascontiguousarray(ctx, c, out);
  cusci_array_release(c);
  return st;
}

cusci_status cusci__sig_along(cusci_ctx *ctx, cusci_array *a, int axis, int64_t start, int64_t stop, int64_t step, cusci_array **out)
{
  int64_t s0[SIG_MAXD], e0[SIG_MAXD], st[SIG_MAXD];
  for (int i = 0; i < cusci_array_ndim(a); i++)
    s0[i] = e0[i] = CUSCI_SLICE_NONE, st[i] = 1;
  s0[axis] = start, e0[axis] = stop, st[axis] = step;
  return cusci_array_slice(ctx, a, s0, e0, st, out);
}

cusci_dtype cusci__sig_dtype(int n, const cusci_dtype *dts)
{
  bool cx = false, dbl = false;
  for (int i = 0; i < n; i++) {
    const cusci_dtype d = dts[i];
    cx |= cusci_dtype_is_complex(d);
    dbl |= d == CUSCI_FLOAT64 || d == CUSCI_COMPLEX128 || !cusci_dtype_is_inexact(d);
  }
  return cx ? (dbl ? CUSCI_COMPLEX128 : CUSCI_COMPLEX64) : (dbl ? CUSCI_FLOAT64 : CUSCI_FLOAT32);
}

int cusci__sig_prec(cusci_dtype dt)
{
  return dt == CUSCI_FLOAT32 ? CUSCI__SIG_F32 : dt == CUSCI_FLOAT64 ? CUSCI__SIG_F64 : dt == CUSCI_COMPLEX64 ? CUSCI__SIG_C64 : dt == CUSCI_UINT64 ? CUSCI__SIG_U64
                                                                                                                                : CUSCI__SIG_C128;
}

int64_t cusci__sig_gcd(int64_t a, int64_t b)
{
  while (b) {
    const int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

void cusci__sig_pack(const double _Complex *v, int64_t n, cusci_dtype dt, void *out)
{
  unsigned char *buf = out;
  for (int64_t i = 0; i < n; i++) {
    const double re = creal(v[i]), im = cimag(v[i]);
    switch (dt) {
    case CUSCI_FLOAT32: ((float *)buf)[i] = (float)re; break;
    case CUSCI_FLOAT64: ((double *)buf)[i] = re; break;
    case CUSCI_COMPLEX64: ((float *)buf)[2 * i] = (float)re, ((float *)buf)[2 * i + 1] = (float)im; break;
    default: ((double *)buf)[2 * i] = re, ((double *)buf)[2 * i + 1] = im; break;
    }
  }
}

cusci_status cusci__sig_upload(cusci_ctx *ctx, const double _Complex *v, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  const size_t isz = cusci_dtype_itemsize(dt);
  unsigned char *buf = malloc(isz * (size_t)(n ? n : 1));
  if (!buf)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, "libsignal", "no host memory for %lld values", (long long)n);
  cusci__sig_pack(v, n, dt, buf);
  cusci_status st = cusci_array_from_host(ctx, buf, ndim, shape, dt, out);
  free(buf);
  return st;
}

cusci_status cusci__sig_upload_real(cusci_ctx *ctx, const double *v, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  double _Complex *c = malloc(sizeof *c * (size_t)(n ? n : 1));
  if (!c)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, "libsignal", "no host memory for %lld values", (long long)n);
  for (int64_t i = 0; i < n; i++)
    c[i] = v[i];
  cusci_status st = cusci__sig_upload(ctx, c, ndim, shape, dt, out);
  free(c);
  return st;
}

cusci_status cusci__sig_give_real(cusci_ctx *ctx, const char *fn, cusci_status st, const double *v, int64_t n, cusci_array **out)
{
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_upload_real(ctx, v, 1, &n, CUSCI_FLOAT64, &r);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, out);
  return st;
}
