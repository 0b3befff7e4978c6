/*
 * libsignal/resampler.c: the streaming upfirdn and resample_poly of
 * signal.h, their polyphase state a few inputs per signal.
 *
 * A chunk's outputs are those whose every input has come (output i reads
 * inputs up to floor(i down / up)); the rest, the filter's tail after the
 * last input, comes from finish. Each output is computed by the kernel of
 * upfirdn from the history of the last inputs and the chunk, the same sum
 * in the same order as the one-shot call, so that the outputs end to end
 * are the one-shot call's, bit for bit. resample_poly's are upfirdn's with
 * SciPy's filter, less its first `remove` outputs and past ceil(n up /
 * down).
 */
#include "libsignal/internal.h"

#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

#include "kernels/signal/launch.h"
#include "reference/signal/filter.h"

struct cusci_signal_resampler {
  cusci_dtype dt;
  cusci_array *h;       /* the taps, dt, contiguous */
  int64_t nh, up, down;
  int ndim, axis;
  int64_t shape[SIG_MAXD]; /* a chunk's, 0 along axis */
  int64_t outer, inner;
  int64_t H;            /* inputs kept */
  cusci_array *hist;    /* outer x H x inner: inputs n_seen - H .. n_seen - 1 */
  int64_t n_seen, i_next;
  bool finished;
  /* resample_poly: outputs before `skip` dropped, none past skip + the
   * total's ceil(n up / down); upfirdn: skip 0 and no cap. */
  bool poly;
  int64_t skip;
};


/* Outputs lo .. hi - 1 (global) from buf (outer x len x inner, the inputs
 * from j0), ntot inputs in all, into a new array of the chunk's shape. */
static cusci_status emit(cusci_ctx *ctx, const char *fn, cusci_signal_resampler *r, cusci_array *buf, int64_t j0, int64_t ntot, int64_t lo,
                         int64_t hi, cusci_array **out)
{
  int64_t os[SIG_MAXD];
  memcpy(os, r->shape, sizeof(int64_t) * (size_t)r->ndim);
  os[r->axis] = hi > lo ? hi - lo : 0;
  cusci_array *y = NULL;
  CUSCI_TRY(cusci_array_empty(ctx, r->ndim, os, r->dt, &y));
  cusci_status st = CUSCI_OK;
  const int64_t lines = r->outer * r->inner, len = lines > 0 ? cusci_array_size(buf) / lines : 0;
  if (hi > lo && lines > 0) {
    if (cusci_ctx_device(ctx) >= 0) {
      int code = cusci__sig_upfirdn_gpu(cusci_ctx_stream(ctx), cusci__sig_prec(r->dt), r->nh, cusci_array_data(r->h), r->outer, len, r->inner,
                                        cusci_array_data(buf), r->up, r->down, lo, j0, ntot, hi - lo, cusci_array_data(y));
      if (code)
        st = cusci_ctx_gpu_status(ctx, fn, "the upfirdn kernel", code);
    } else {
      cusci__sig_upfirdn(cusci__sig_prec(r->dt), r->nh, cusci_array_data(r->h), r->outer, len, r->inner, cusci_array_data(buf), r->up, r->down, lo, j0, ntot,
                         hi - lo, cusci_array_data(y));
    }
  }
  if (st != CUSCI_OK) {
    cusci_array_release(y);
    return st;
  }
  *out = y;
  return CUSCI_OK;
}

/* The last output of a signal of n inputs: upfirdn's natural length, or
 * for resample_poly skip + ceil(n up / down). */
static int64_t end_of(const cusci_signal_resampler *r, int64_t n)
{
  if (n == 0)
    return 0;
  if (r->poly)
    return r->skip + n * r->up / r->down + (n * r->up % r->down != 0);
  return ((n - 1) * r->up + r->nh - 1) / r->down + 1;
}

static cusci_status make(cusci_ctx *ctx, const char *fn, const cusci_array *h, const double *hv, int64_t nhv, int64_t up, int64_t down, int ndim,
                         const int64_t *shape, int axis, cusci_dtype dtype, bool poly, int64_t skip, cusci_signal_resampler **out)
{
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 1));
  int ax;
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "the chunk", ndim, axis, &ax));
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  cusci_signal_resampler *r = calloc(1, sizeof *r);
  if (!r)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  r->dt = cusci__sig_dtype(h ? 2 : 1, (cusci_dtype[]){ dtype, h ? cusci_array_dtype(h) : dtype });
  r->up = up, r->down = down, r->ndim = ndim, r->axis = ax, r->poly = poly, r->skip = skip;
  memcpy(r->shape, shape, sizeof(int64_t) * (size_t)ndim);
  r->shape[ax] = 0;
  r->outer = r->inner = 1;
  for (int i = 0; i < ax; i++)
    r->outer *= shape[i];
  for (int i = ax + 1; i < ndim; i++)
    r->inner *= shape[i];
  cusci_status st = CUSCI_OK;
  if (h) {
    st = cusci__sig_contiguous(ctx, h, r->dt, &r->h);
  } else {
    st = cusci__sig_upload_real(ctx, hv, 1, &nhv, r->dt, &r->h);
  }
  r->nh = r->h ? cusci_array_size(r->h) : 0;
  /* Inputs kept: enough for the earliest output of the next chunk. */
  r->H = (down + r->nh + up - 1) / up + 2;
  int64_t hs[3] = { r->outer, r->H, r->inner };
  if (st == CUSCI_OK)
    st = cusci_array_zeros(ctx, 3, hs, r->dt, &r->hist);
  if (st != CUSCI_OK) {
    cusci_signal_resampler_destroy(r);
    return st;
  }
  *out = r;
  return CUSCI_OK;
}

cusci_status cusci_signal_resampler_create_upfirdn(cusci_ctx *ctx, const cusci_array *h, int64_t up, int64_t down, int ndim, const int64_t *shape,
                                                   int axis, cusci_dtype dtype, cusci_signal_resampler **out)
{
  static const char fn[] = "cusci_signal_resampler_create_upfirdn";
  CUSCI_ENTRY(ctx, fn, h, out);
  *out = NULL;
  CUSCI_TRY(cusci_check_array(ctx, fn, "h", h));
  if (cusci_array_ndim(h) != 1 || cusci_array_size(h) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "h must be 1-D and not empty");
  if (up < 1 || down < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "up is %lld and down %lld: both must be at least 1", (long long)up, (long long)down);
  return make(ctx, fn, h, NULL, 0, up, down, ndim, shape, axis, dtype, false, 0, out);
}

cusci_status cusci_signal_resampler_create_poly(cusci_ctx *ctx, int64_t up, int64_t down, int ndim, const int64_t *shape, int axis, cusci_dtype dtype,
                                                cusci_signal_resampler **out)
{
  static const char fn[] = "cusci_signal_resampler_create_poly";
  CUSCI_ENTRY(ctx, fn, out);
  *out = NULL;
  if (up < 1 || down < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "up is %lld and down %lld: both must be at least 1", (long long)up, (long long)down);
  const int64_t g = cusci__sig_gcd(up, down);
  up /= g, down /= g;
  /* resample_poly's filter, times up below (as the one-shot call). Equal
   * rates: the one tap 1. */
  const bool same = up == 1 && down == 1;
  int64_t nh = 1, remove = 0;
  double *hv = same ? calloc(1, sizeof *hv) : cusci__sig_poly_taps(up, down, NULL, 0, &nh, &remove);
  if (!hv)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (same)
    hv[0] = 1;
  /* SciPy rounds the taps to x's dtype and then multiplies by up in it. */
  const bool single = dtype == CUSCI_FLOAT32 || dtype == CUSCI_COMPLEX64 || dtype == CUSCI_FLOAT16;
  for (int64_t i = 0; i < nh && !same; i++)
    hv[i] = single ? (double)((float)hv[i] * (float)up) : hv[i] * (double)up;
  cusci_status st = make(ctx, fn, NULL, hv, nh, up, down, ndim, shape, axis, dtype, true, remove, out);
  free(hv);
  return st;
}

cusci_status cusci_signal_resampler_process(cusci_ctx *ctx, cusci_signal_resampler *r, const cusci_array *x, cusci_array **y)
{
  static const char fn[] = "cusci_signal_resampler_process";
  CUSCI_ENTRY(ctx, fn, r, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (r->finished)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the stream was finished: reset it for a new signal");
  if (cusci_array_device(r->hist) != cusci_ctx_device(ctx))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "the resampler was made on device %d, the context is on %d", cusci_array_device(r->hist),
                          cusci_ctx_device(ctx));
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x);
  bool fits = nd == r->ndim;
  for (int i = 0; fits && i < nd; i++)
    fits = i == r->axis || sh[i] == r->shape[i];
  if (!fits) {
    char got[160], want[160];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the chunk has shape %s; the resampler takes chunks of shape %s, any length along axis %d",
                          cusci_shape_str(nd, sh, got, sizeof got), cusci_shape_str(r->ndim, r->shape, want, sizeof want), r->axis);
  }
  const int64_t L = sh[r->axis], n = r->n_seen + L, H = r->H;
  /* buf = [history, chunk] as outer x (H + L) x inner. */
  int64_t bs[3] = { r->outer, H + L, r->inner }, cs[3] = { r->outer, L, r->inner };
  cusci_array *xc = NULL, *x3 = NULL, *buf = NULL, *dh = NULL, *dc = NULL, *nh = NULL;
  cusci_status st = cusci__sig_contiguous(ctx, x, r->dt, &xc);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, xc, 3, cs, &x3);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 3, bs, r->dt, &buf);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, buf, 1, 0, H, 1, &dh);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, r->hist, &dh);
  if (st == CUSCI_OK && L > 0)
    st = cusci__sig_along(ctx, buf, 1, H, H + L, 1, &dc);
  if (st == CUSCI_OK && L > 0)
    st = cusci_array_copy(ctx, x3, &dc);
  /* The outputs every input of which has come, within the signal's end. */
  int64_t hi = n ? (n * r->up - 1) / r->down + 1 : 0;
  const int64_t cap = end_of(r, n);
  hi = hi < cap ? hi : cap;
  int64_t lo = r->i_next > r->skip ? r->i_next : r->skip;
  cusci_array *out = NULL;
  if (st == CUSCI_OK)
    st = emit(ctx, fn, r, buf, r->n_seen - H, n, lo, hi > lo ? hi : lo, &out);
  /* The last H inputs kept. */
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, buf, 1, L, L + H, 1, &nh);
  cusci_array *keep = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, nh, &keep);
  if (st == CUSCI_OK) {
    cusci_array_release(r->hist);
    r->hist = keep, keep = NULL;
    r->n_seen = n;
    r->i_next = hi > lo ? hi : lo;
    st = cusci_give_out(ctx, fn, out, y), out = NULL;
  }
  SIG_RELEASE(xc, x3, buf, dh, dc, nh, out, keep);
  return st;
}

cusci_status cusci_signal_resampler_finish(cusci_ctx *ctx, cusci_signal_resampler *r, cusci_array **y)
{
  static const char fn[] = "cusci_signal_resampler_finish";
  CUSCI_ENTRY(ctx, fn, r, y);
  if (r->finished)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the stream was finished already: reset it for a new signal");
  const int64_t hi = end_of(r, r->n_seen), lo = r->i_next > r->skip ? r->i_next : r->skip;
  cusci_array *out = NULL;
  CUSCI_TRY(emit(ctx, fn, r, r->hist, r->n_seen - r->H, r->n_seen, lo, hi > lo ? hi : lo, &out));
  r->finished = true;
  r->i_next = hi > lo ? hi : lo;
  return cusci_give_out(ctx, fn, out, y);
}

cusci_status cusci_signal_resampler_reset(cusci_ctx *ctx, cusci_signal_resampler *r)
{
  static const char fn[] = "cusci_signal_resampler_reset";
  CUSCI_ENTRY(ctx, fn, r);
  int64_t hs[3] = { r->outer, r->H, r->inner };
  cusci_array *z = NULL;
  CUSCI_TRY(cusci_array_zeros(ctx, 3, hs, r->dt, &z));
  cusci_array_release(r->hist);
  r->hist = z;
  r->n_seen = r->i_next = 0;
  r->finished = false;
  return CUSCI_OK;
}

void cusci_signal_resampler_destroy(cusci_signal_resampler *r)
{
  if (!r)
    return;
  cusci_array_release(r->h);
  cusci_array_release(r->hist);
  free(r);
}
