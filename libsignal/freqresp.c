/*
 * libsignal/freqresp.c: frequency responses of filters, as scipy.signal's
 * freqz, sosfreqz (freqz_sos), freqz_zpk, freqs, freqs_zpk and
 * group_delay: evaluated on the host in float64 and complex128 (the
 * systems are small), the frequencies and responses returned on the
 * context's device. The numerics are reference/signal/freqresp.c's.
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

enum { DIGITAL = 0, ANALOG };

/* The frequencies of a response: *w (radians per sample, or rad/s for an
 * analog response), *n of them, and *scale (w * scale is what the caller
 * gets back: Hz when fs is given). An analog response's default grid is
 * findfreqs', made by the caller (*w NULL, *n its size). */
static cusci_status grid(cusci_ctx *ctx, const char *fn, const cusci_signal_freqz_opts *o, int kind, bool nyquist_allowed, double **w, int64_t *n,
                         double *scale)
{
  *w = NULL, *n = 0, *scale = 1;
  const cusci_signal_freqz_opts d = {0};
  if (!o)
    o = &d;
  if (o->worN < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "worN %lld is negative", (long long)o->worN);
  if (o->nw < 0 || (o->nw > 0 && !o->w))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "w is %s with nw %lld", o->w ? "given" : "NULL", (long long)o->nw);
  if (o->include_nyquist && !nyquist_allowed)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "include_nyquist is freqz's option alone");
  const double fs = o->fs == 0 ? 2 * M_PI : o->fs;
  if (kind == ANALOG && (o->fs != 0 || o->whole))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "an analog response takes neither fs nor whole (its frequencies are in rad/s)");
  if (!(fs > 0) || !isfinite(fs))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fs %g must be positive and finite", o->fs);
  const int64_t N = o->w ? o->nw : o->worN ? o->worN : kind == ANALOG ? 200 : 512;
  *n = N;
  if (kind == ANALOG && !o->w)
    return CUSCI_OK;
  *w = malloc(sizeof **w * (size_t)(N ? N : 1));
  if (!*w)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld frequencies", (long long)N);
  if (o->w) {
    for (int64_t i = 0; i < N; i++) {
      if (!isfinite(o->w[i])) {
        free(*w), *w = NULL;
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "w[%lld] is not finite (%g)", (long long)i, o->w[i]);
      }
      (*w)[i] = kind == ANALOG ? o->w[i] : 2 * M_PI * o->w[i] / fs;
    }
  } else {
    cusci__sig_linspace(0, o->whole ? 2 * M_PI : M_PI, N, o->include_nyquist && !o->whole, *w);
  }
  *scale = kind == ANALOG ? 1 : fs / (2 * M_PI);
  return CUSCI_OK;
}

/* A 0-d or 1-d coefficient (or root) array's values; NULL is [1] where
 * one_if_null. */
static cusci_status coef(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *x, bool one_if_null, double complex **v, int64_t *n)
{
  *v = NULL, *n = 0;
  if (!x && one_if_null) {
    *v = malloc(sizeof **v);
    if (!*v)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
    **v = 1, *n = 1;
    return CUSCI_OK;
  }
  if (!x)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL", name);
  CUSCI_TRY(cusci_check_array(ctx, fn, name, x));
  if (cusci_array_ndim(x) > 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions; it takes 1", name, cusci_array_ndim(x));
  *n = cusci_array_size(x);
  return cusci__sig_host_values(ctx, fn, name, x, v);
}

/* w * scale and h (complex) or gd (real) to the caller. */
static cusci_status give(cusci_ctx *ctx, const char *fn, double *w, int64_t n, double scale, const double complex *h, const double *gd,
                         cusci_array **ow, cusci_array **oh)
{
  for (int64_t i = 0; i < n; i++)
    w[i] = w[i] * scale;
  cusci_array *rw = NULL, *rh = NULL;
  cusci_status st = cusci__sig_upload_real(ctx, w, 1, &n, CUSCI_FLOAT64, &rw);
  if (st == CUSCI_OK)
    st = h ? cusci__sig_upload(ctx, h, 1, &n, CUSCI_COMPLEX128, &rh) : cusci__sig_upload_real(ctx, gd, 1, &n, CUSCI_FLOAT64, &rh);
  return cusci__sig_give_two(ctx, fn, st, rw, ow, rh, oh);
}

/* A response of two coefficient (or root) arrays: what says which. */
typedef enum { FREQZ = 0, FREQZ_ZPK, FREQS, FREQS_ZPK, GROUP_DELAY } response;

static cusci_status respond(cusci_ctx *ctx, const char *fn, response what, const cusci_array *x, const cusci_array *y, double k,
                            const cusci_signal_freqz_opts *opts, cusci_array **ow, cusci_array **oh)
{
  const bool zpk = what == FREQZ_ZPK || what == FREQS_ZPK, analog = what == FREQS || what == FREQS_ZPK;
  if (zpk && !isfinite(k))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "k is not finite (%g)", k);
  double complex *u = NULL, *v = NULL, *h = NULL, *rts = NULL;
  double *w = NULL, *gd = NULL, scale = 1;
  int64_t nu = 0, nv = 0, n = 0;
  cusci_status st = coef(ctx, fn, zpk ? "z" : "b", x, false, &u, &nu);
  if (st == CUSCI_OK)
    st = coef(ctx, fn, zpk ? "p" : "a", y, !zpk, &v, &nv);
  if (st == CUSCI_OK && !zpk && nv == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a is empty");
  if (st == CUSCI_OK)
    st = grid(ctx, fn, opts, analog ? ANALOG : DIGITAL, what == FREQZ, &w, &n, &scale);
  if (st == CUSCI_OK && analog && !w) {
    /* findfreqs: the roots of b and a, or z and p themselves */
    w = malloc(sizeof *w * (size_t)(n ? n : 1));
    rts = malloc(sizeof *rts * (size_t)(nu + nv + 2));
    double *re = malloc(sizeof *re * (size_t)(nu + nv + 2));
    if (!w || !rts || !re)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld frequencies", (long long)n);
    int64_t nz = nu, np = nv;
    const double complex *zz = u, *pp = v;
    if (st == CUSCI_OK && !zpk) {
      for (int64_t i = 0; i < nu + nv && st == CUSCI_OK; i++) {
        const double complex c = i < nu ? u[i] : v[i - nu];
        if (cimag(c) != 0)
          st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "complex coefficients need their frequencies given (opts.w): findfreqs takes real ones");
        re[i] = creal(c);
      }
      int rc = st == CUSCI_OK ? cusci__sig_roots(re, nu, rts, &nz) : 0;
      if (rc == 0 && st == CUSCI_OK)
        rc = cusci__sig_roots(re + nu, nv, rts + nz, &np);
      if (rc)
        st = cusci__sig_design_fail(ctx, fn, rc);
      zz = rts, pp = rts + nz;
    }
    if (st == CUSCI_OK)
      cusci__sig_findfreqs(pp, np, zz, nz, n, w);
    free(re);
  }
  if (st == CUSCI_OK) {
    if (what == GROUP_DELAY)
      gd = malloc(sizeof *gd * (size_t)(n ? n : 1));
    else
      h = malloc(sizeof *h * (size_t)(n ? n : 1));
    if (!gd && !h)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld values", (long long)n);
  }
  if (st == CUSCI_OK) {
    switch (what) {
    case FREQZ: cusci__sig_freqz(u, nu, v, nv, w, n, h); break;
    case FREQZ_ZPK: cusci__sig_freqz_zpk(u, nu, v, nv, k, w, n, h); break;
    case FREQS: cusci__sig_freqs(u, nu, v, nv, w, n, h); break;
    case FREQS_ZPK: cusci__sig_freqs_zpk(u, nu, v, nv, k, w, n, h); break;
    case GROUP_DELAY: {
      const int rc = cusci__sig_group_delay(u, nu, v, nv, w, n, gd);
      if (rc)
        st = cusci__sig_design_fail(ctx, fn, rc);
      break;
    }
    }
  }
  if (st == CUSCI_OK)
    st = give(ctx, fn, w, n, scale, h, gd, ow, oh);
  free(u), free(v), free(h), free(rts), free(w), free(gd);
  return st;
}

cusci_status cusci_signal_freqz(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts, cusci_array **w,
                                cusci_array **h)
{
  static const char fn[] = "cusci_signal_freqz";
  CUSCI_ENTRY(ctx, fn, b, w, h);
  return respond(ctx, fn, FREQZ, b, a, 1, opts, w, h);
}

cusci_status cusci_signal_freqz_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, const cusci_signal_freqz_opts *opts,
                                    cusci_array **w, cusci_array **h)
{
  static const char fn[] = "cusci_signal_freqz_zpk";
  CUSCI_ENTRY(ctx, fn, z, p, w, h);
  return respond(ctx, fn, FREQZ_ZPK, z, p, k, opts, w, h);
}

cusci_status cusci_signal_freqs(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts, cusci_array **w,
                                cusci_array **h)
{
  static const char fn[] = "cusci_signal_freqs";
  CUSCI_ENTRY(ctx, fn, b, a, w, h);
  return respond(ctx, fn, FREQS, b, a, 1, opts, w, h);
}

cusci_status cusci_signal_freqs_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, const cusci_signal_freqz_opts *opts,
                                    cusci_array **w, cusci_array **h)
{
  static const char fn[] = "cusci_signal_freqs_zpk";
  CUSCI_ENTRY(ctx, fn, z, p, w, h);
  return respond(ctx, fn, FREQS_ZPK, z, p, k, opts, w, h);
}

cusci_status cusci_signal_group_delay(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts,
                                      cusci_array **w, cusci_array **gd)
{
  static const char fn[] = "cusci_signal_group_delay";
  CUSCI_ENTRY(ctx, fn, b, w, gd);
  return respond(ctx, fn, GROUP_DELAY, b, a, 1, opts, w, gd);
}

static cusci_status sos_response(cusci_ctx *ctx, const char *fn, const cusci_array *sos, const cusci_signal_freqz_opts *opts, cusci_array **ow,
                                 cusci_array **oh)
{
  CUSCI_ENTRY(ctx, fn, sos, ow, oh);
  CUSCI_TRY(cusci_check_array(ctx, fn, "sos", sos));
  const int nd = cusci_array_ndim(sos);
  const int64_t *sh = cusci_array_shape(sos);
  if (nd != 2 || sh[1] != 6)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos must be (n_sections, 6)");
  if (sh[0] == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sos has no sections");
  const int64_t nsec = sh[0];
  double complex *c = NULL, *h = NULL;
  double *s = NULL, *w = NULL, scale = 1;
  int64_t n = 0;
  cusci_status st = cusci__sig_host_values(ctx, fn, "sos", sos, &c);
  if (st == CUSCI_OK && cusci_dtype_kind(cusci_array_dtype(sos)) == 'c')
    st = cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "sos is complex: it takes real sections");
  if (st == CUSCI_OK && !(s = malloc(sizeof *s * (size_t)(6 * nsec))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int64_t i = 0; st == CUSCI_OK && i < 6 * nsec; i++) {
    s[i] = creal(c[i]);
    if (i % 6 == 3 && s[i] != 1)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sos[%lld, 3] is %g; every section's a0 must be 1", (long long)(i / 6), s[i]);
  }
  if (st == CUSCI_OK)
    st = grid(ctx, fn, opts, DIGITAL, false, &w, &n, &scale);
  if (st == CUSCI_OK && !(h = malloc(sizeof *h * (size_t)(n ? n : 1))))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld values", (long long)n);
  if (st == CUSCI_OK) {
    cusci__sig_sosfreqz(s, nsec, w, n, h);
    st = give(ctx, fn, w, n, scale, h, NULL, ow, oh);
  }
  free(c), free(s), free(w), free(h);
  return st;
}

cusci_status cusci_signal_sosfreqz(cusci_ctx *ctx, const cusci_array *sos, const cusci_signal_freqz_opts *opts, cusci_array **w, cusci_array **h)
{
  return sos_response(ctx, "cusci_signal_sosfreqz", sos, opts, w, h);
}

cusci_status cusci_signal_freqz_sos(cusci_ctx *ctx, const cusci_array *sos, const cusci_signal_freqz_opts *opts, cusci_array **w, cusci_array **h)
{
  return sos_response(ctx, "cusci_signal_freqz_sos", sos, opts, w, h);
}
