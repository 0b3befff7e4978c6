/*
 * libsignal/filter.c: lfilter, sosfilt, their steady states, filtfilt
 * and sosfiltfilt, and the streaming filters of signal.h.
 *
 * Every filter runs through one engine (sig_iir_run): the coefficients
 * checked on the host, divided by a[0] and kept on ctx's device in the
 * compute dtype; the signal C-contiguous as outer x len x inner (len the
 * filter axis); the state contiguous in SciPy's layout of zi, read and
 * left in place. The host's loops (reference/signal/filter.c) and the
 * GPU's kernels (kernels/signal/filter.cu) compute the same expressions,
 * rounded alike, so that a chunked run and a one-shot run, and the two
 * backends, agree bit for bit.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/kit/convert.h>
#include <cusci/kit/dtypes.h>
#include <cusci/signal.h>

#include "kernels/signal/launch.h"
#include "reference/signal/filter.h"

/* ------------------------------------------------ dtypes and coefficients */

/* n elements of dt at raw as complex128, converted as astype converts
 * (kit/convert.h; the kind pasted here, not through CUSCI_CONVERT, where
 * complex.h's I would expand). */
static void widen(cusci_dtype dt, const void *raw, int64_t n, double complex *h)
{
  switch (dt) {
#define CUSCI__SIG_WIDEN_(NAME, T, KIND, arg)                         \
  case CUSCI_##NAME:                                                  \
    for (int64_t i = 0; i < n; i++) {                                 \
      const cusci_c128 v = cusci_to_COMPLEX128_from_##KIND(cusci_load_##NAME(((const T *)raw)[i])); \
      h[i] = CMPLX(v.re, v.im);                                       \
    }                                                                 \
    break;
    CUSCI_TYPES_A(CUSCI__SIG_WIDEN_, 0)
#undef CUSCI__SIG_WIDEN_
  default: break;
  }
}

/* The values of a coefficient array on the host as complex128 (a new
 * malloc'ed array of its size, C order), all finite: one copy from the
 * device, widened here. */
cusci_status cusci__sig_host_values(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, double complex **v)
{
  *v = NULL;
  const int64_t n = cusci_array_size(a);
  const cusci_dtype dt = cusci_array_dtype(a);
  double complex *h = malloc((size_t)(n ? n : 1) * sizeof *h);
  void *raw = malloc((size_t)(n ? n : 1) * cusci_dtype_itemsize(dt));
  cusci_status st = h && raw ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the %lld values of %s", (long long)n, name);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, a, raw, (size_t)n * cusci_dtype_itemsize(dt));
  if (st == CUSCI_OK)
    widen(dt, raw, n, h);
  free(raw);
  for (int64_t i = 0; st == CUSCI_OK && i < n; i++)
    if (!isfinite(creal(h[i])) || !isfinite(cimag(h[i])))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s[%lld] is not finite (%g%+gj)", name, (long long)i, creal(h[i]), cimag(h[i]));
  if (st != CUSCI_OK) {
    free(h);
    return st;
  }
  *v = h;
  return CUSCI_OK;
}

cusci_status cusci__sig_host_reals(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, double **v)
{
  *v = NULL;
  double complex *c = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, name, a, &c));
  const int64_t n = cusci_array_size(a);
  double *r = malloc(sizeof *r * (size_t)(n ? n : 1));
  if (!r) {
    free(c);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the %lld values of %s", (long long)n, name);
  }
  for (int64_t i = 0; i < n; i++)
    r[i] = creal(c[i]);
  free(c);
  *v = r;
  return CUSCI_OK;
}

/* A filter ready to run: its normalised coefficients on the device. */
typedef struct sig_iir {
  bool sos;
  int64_t K;        /* lfilter: the state's length; sos: the sections */
  bool per_channel; /* sos of shape (channels, n_sections, 6) */
  int64_t channels;
  cusci_dtype dt;
  cusci_array *coef;
  double complex *host; /* the same values, complex128 */
  /* In blocks (reference/signal/filter.h) when power is set: A^L, N x N
   * (N = iir_n). */
  cusci_array *power;
} sig_iir;

static void iir_free(sig_iir *f)
{
  cusci_array_release(f->coef);
  cusci_array_release(f->power);
  free(f->host);
  f->coef = NULL, f->power = NULL, f->host = NULL;
}

/* The length of f's state per signal. */
static int64_t iir_n(const sig_iir *f)
{
  return f->sos ? 2 * f->K : f->K;
}

/* Whether f runs in blocks (reference/signal/filter.h): shared
 * coefficients and a state that fits the GPU's registers. */
static bool iir_blockable(const sig_iir *f)
{
  const int64_t N = iir_n(f);
  return N >= 1 && N <= CUSCI__SIG_IIR_MAXN && !(f->per_channel && f->channels > 1);
}

/* The last few filters a context ran, by dtype, form and normalised
 * coefficients: their coefficients on the device and their block power
 * (once made), so that a filter applied call after call is uploaded once
 * and makes its power once. */
enum { FILTERS = 8 };
typedef struct sig_filters {
  struct {
    cusci_dtype dt;
    bool sos, per_channel;
    int64_t K, channels, nc;
    double complex *c;
    cusci_array *coef, *power;
  } e[FILTERS];
  int next;
} sig_filters;

static const char filters_key;

static void filters_destroy(void *state)
{
  sig_filters *p = state;
  for (int i = 0; i < FILTERS; i++)
    free(p->e[i].c), cusci_array_release(p->e[i].coef), cusci_array_release(p->e[i].power);
  free(p);
}

static sig_filters *filters_of(cusci_ctx *ctx)
{
  sig_filters *p = cusci_ctx_ext_get(ctx, &filters_key);
  if (!p && (p = calloc(1, sizeof *p)) && cusci_ctx_ext_set(ctx, &filters_key, p, filters_destroy) != CUSCI_OK) {
    free(p);
    p = NULL;
  }
  return p;
}

/* f's entry (f->host of nc values) in the context's filters, or -1. */
static int filter_entry(const sig_filters *p, const sig_iir *f, int64_t nc)
{
  for (int i = 0; p && i < FILTERS; i++)
    if (p->e[i].coef && p->e[i].dt == f->dt && p->e[i].sos == f->sos && p->e[i].K == f->K && p->e[i].per_channel == f->per_channel &&
        p->e[i].channels == f->channels && p->e[i].nc == nc && !memcmp(p->e[i].c, f->host, sizeof(double complex) * (size_t)nc))
      return i;
  return -1;
}

/* f->coef (nd, shape) from f->host: the context's when it ran the same
 * filter lately (with its power), else uploaded and, when small (call
 * overhead matters there), remembered. */
enum { FILTER_KEPT_VALUES = 4096 };
static cusci_status iir_upload(cusci_ctx *ctx, sig_iir *f, int nd, const int64_t *shape)
{
  int64_t nc = 1;
  for (int i = 0; i < nd; i++)
    nc *= shape[i];
  sig_filters *p = nc <= FILTER_KEPT_VALUES ? filters_of(ctx) : NULL;
  const int i = filter_entry(p, f, nc);
  if (i >= 0) {
    f->coef = cusci_array_retain(p->e[i].coef);
    f->power = cusci_array_retain(p->e[i].power);
    return CUSCI_OK;
  }
  CUSCI_TRY(cusci__sig_upload(ctx, f->host, nd, shape, f->dt, &f->coef));
  double complex *key = p ? malloc(sizeof(double complex) * (size_t)nc) : NULL;
  if (key) {
    const int j = p->next;
    p->next = (j + 1) % FILTERS;
    free(p->e[j].c), cusci_array_release(p->e[j].coef), cusci_array_release(p->e[j].power);
    memcpy(key, f->host, sizeof(double complex) * (size_t)nc);
    p->e[j].dt = f->dt, p->e[j].sos = f->sos, p->e[j].per_channel = f->per_channel, p->e[j].K = f->K, p->e[j].channels = f->channels;
    p->e[j].nc = nc, p->e[j].c = key, p->e[j].coef = cusci_array_retain(f->coef), p->e[j].power = NULL;
  }
  return CUSCI_OK;
}

/* f->power, M = A^L from the coefficients in f->dt, computed on the host
 * by reference/signal/filter.c for both backends (and kept in the
 * context's entry for f); made once, when first needed. */
static cusci_status iir_blocks(cusci_ctx *ctx, const char *fn, sig_iir *f)
{
  const int64_t N = iir_n(f);
  if (f->power || !iir_blockable(f))
    return CUSCI_OK;
  const size_t isz = cusci_dtype_itemsize(f->dt);
  const int64_t nc = cusci_array_size(f->coef), mm[2] = { N, N };
  void *c = malloc(isz * (size_t)nc), *M = malloc(isz * (size_t)(N * N));
  cusci_status st = c && M ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the filter's block power");
  if (st == CUSCI_OK) {
    cusci__sig_pack(f->host, nc, f->dt, c);
    cusci__sig_iir_power(cusci__sig_prec(f->dt), f->sos, f->K, c, M);
    st = cusci_array_from_host(ctx, M, 2, mm, f->dt, &f->power);
  }
  free(c), free(M);
  if (st != CUSCI_OK)
    return st;
  sig_filters *p = nc <= FILTER_KEPT_VALUES ? filters_of(ctx) : NULL;
  const int i = filter_entry(p, f, nc);
  if (i >= 0 && !p->e[i].power)
    p->e[i].power = cusci_array_retain(f->power);
  return CUSCI_OK;
}

static cusci_status vector(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, name, a));
  if (cusci_array_ndim(a) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "%s must be 1-D; it has %d dimensions", name, cusci_array_ndim(a));
  if (cusci_array_size(a) == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s is empty", name);
  return CUSCI_OK;
}

/* lfilter's b and a, padded to K + 1 and divided by a[0]. */
static cusci_status lfilter_coef(cusci_ctx *ctx, const char *fn, const cusci_array *b, const cusci_array *a, cusci_dtype dt, sig_iir *f)
{
  memset(f, 0, sizeof *f);
  CUSCI_TRY(vector(ctx, fn, "b", b));
  CUSCI_TRY(vector(ctx, fn, "a", a));
  const int64_t nb = cusci_array_size(b), na = cusci_array_size(a), K = (na > nb ? na : nb) - 1;
  double complex *vb = NULL, *va = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, "b", b, &vb));
  cusci_status st = cusci__sig_host_values(ctx, fn, "a", a, &va);
  if (st == CUSCI_OK && va[0] == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a[0] is 0: the filter is not defined (SciPy: filter coefficient a[0] == 0 not supported)");
  double complex *c = st == CUSCI_OK ? calloc((size_t)(2 * (K + 1)), sizeof *c) : NULL;
  if (st == CUSCI_OK && !c)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the coefficients");
  if (st == CUSCI_OK) {
    for (int64_t i = 0; i < nb; i++)
      c[i] = vb[i] / va[0];
    for (int64_t i = 0; i < na; i++)
      c[K + 1 + i] = va[i] / va[0];
    const int64_t n = 2 * (K + 1);
    f->K = K, f->dt = dt, f->host = c;
    st = iir_upload(ctx, f, 1, &n);
  }
  free(vb), free(va);
  if (st != CUSCI_OK)
    iir_free(f);
  return st;
}

/* sosfilt's sections: (n_sections, 6) or (channels, n_sections, 6), each
 * a0 = 1. */
static cusci_status sos_coef(cusci_ctx *ctx, const char *fn, const cusci_array *sos, cusci_dtype dt, sig_iir *f)
{
  memset(f, 0, sizeof *f);
  CUSCI_TRY(cusci_check_array(ctx, fn, "sos", sos));
  const int nd = cusci_array_ndim(sos);
  const int64_t *sh = cusci_array_shape(sos);
  char buf[96];
  if ((nd != 2 && nd != 3) || sh[nd - 1] != 6 || sh[nd - 2] < 1 || (nd == 3 && sh[0] < 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos has shape %s; it must be (n_sections, 6) or (channels, n_sections, 6)",
                          cusci_shape_str(nd, sh, buf, sizeof buf));
  double complex *v = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, "sos", sos, &v));
  const int64_t nsec = sh[nd - 2], ch = nd == 3 ? sh[0] : 1;
  for (int64_t r = 0; r < ch * nsec; r++)
    if (v[6 * r + 3] != 1) {
      free(v);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sos[..., %lld, 3] is %g%+gj: every section's a0 must be 1", (long long)(r % nsec),
                            creal(v[6 * r + 3]), cimag(v[6 * r + 3]));
    }
  f->sos = true, f->K = nsec, f->per_channel = nd == 3, f->channels = ch, f->dt = dt, f->host = v;
  cusci_status st = iir_upload(ctx, f, nd, sh);
  if (st != CUSCI_OK)
    iir_free(f);
  return st;
}

/* ------------------------------------------------ the engine */

/* The extents before, along and after axis. */
static void split(int nd, const int64_t *shape, int axis, int64_t *outer, int64_t *len, int64_t *inner)
{
  *outer = 1, *inner = 1, *len = shape[axis];
  for (int i = 0; i < axis; i++)
    *outer *= shape[i];
  for (int i = axis + 1; i < nd; i++)
    *inner *= shape[i];
}

/* A stream's place in its blocks: r0 and the states sa and u (N x lines,
 * f->dt); a call's start has none. */
typedef struct sig_carry {
  int64_t r0;
  bool fresh; /* no sample since the state was set: sa is z, u zero */
  cusci_array *sa, *u;
} sig_carry;

/* y = the filter of x (contiguous, f->dt) along axis, the state z
 * (contiguous, f->dt) read and updated; in blocks when f has them, from
 * cr (a stream's, updated) or from a call's start. */
static cusci_status iir_run(cusci_ctx *ctx, const char *fn, sig_iir *f, const cusci_array *x, int axis, cusci_array *z, cusci_array *y,
                            sig_carry *cr)
{
  int64_t outer, len, inner;
  split(cusci_array_ndim(x), cusci_array_shape(x), axis, &outer, &len, &inner);
  const int prec = cusci__sig_prec(f->dt);
  const bool pc = f->per_channel && f->channels > 1;
  const void *cf = cusci_array_data(f->coef), *xd = cusci_array_data(x);
  void *yd = cusci_array_data(y), *zd = cusci_array_data(z);
  const int64_t r0 = cr ? cr->r0 : 0;
  void *sa = cr ? cusci_array_data(cr->sa) : NULL, *u = cr ? cusci_array_data(cr->u) : NULL;
  /* One segment of a call's start is the plain recurrence. */
  const bool blocks = iir_blockable(f) && (cr || len > CUSCI__SIG_IIR_BLOCK);
  if (blocks)
    CUSCI_TRY(iir_blocks(ctx, fn, f));
  cusci_status st = CUSCI_OK;
  if (cusci_ctx_device(ctx) >= 0) {
    void *s = cusci_ctx_stream(ctx);
    int code;
    const char *what = f->sos ? "the sosfilt kernel" : "the lfilter kernel";
    if (blocks && len > 0 && outer * inner > 0) {
      const int64_t nseg = cusci__sig_anchor_segments(r0 == CUSCI__SIG_IIR_BLOCK ? 0 : r0, len), ws = (nseg + 1) * iir_n(f) * outer * inner;
      cusci_array *w = NULL;
      CUSCI_TRY(cusci_array_empty(ctx, 1, &ws, f->dt, &w));
      code = cusci__sig_iir_anchored_gpu(s, prec, f->sos, f->K, cf, cusci_array_data(f->power), outer, len, inner, r0, xd, yd, zd, sa, u, cr != NULL,
                                         cr && cr->fresh, cusci_array_data(w));
      cusci_array_release(w);
      what = f->sos ? "the sosfilt kernels (in blocks)" : "the lfilter kernels (in blocks)";
    } else {
      code = f->sos ? cusci__sig_sosfilt_gpu(s, prec, f->K, pc, cf, outer, len, inner, xd, yd, zd)
                    : cusci__sig_lfilter_gpu(s, prec, f->K, cf, outer, len, inner, xd, yd, zd);
    }
    if (code)
      st = cusci_ctx_gpu_status(ctx, fn, what, code);
  } else {
    const cusci__sig_anchor an = { f->power ? cusci_array_data(f->power) : NULL, r0, sa, u, cr != NULL, cr && cr->fresh };
    if (cusci__sig_iir(prec, f->sos, f->K, pc, cf, outer, len, inner, xd, yd, zd, blocks ? &an : NULL))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a line's state");
  }
  if (st == CUSCI_OK && cr && blocks && len > 0 && outer * inner > 0)
    cr->r0 = cusci__sig_anchor_next(r0, len), cr->fresh = false;
  return st;
}

/* The state's shape for a signal of shape (nd, shape) along axis. */
static int state_shape(const sig_iir *f, int nd, const int64_t *shape, int axis, int64_t *zs)
{
  int k = 0;
  if (f->sos)
    zs[k++] = f->K;
  for (int i = 0; i < nd; i++)
    zs[k++] = i == axis ? (f->sos ? 2 : f->K) : shape[i];
  return k;
}

/* The number of signals (lines) of a signal of shape (nd, shape). */
static int64_t lines_of(int nd, const int64_t *shape, int axis)
{
  int64_t o, l, i;
  split(nd, shape, axis, &o, &l, &i);
  return o * i;
}

/* A new contiguous state of f->dt for the signal's shape: zeros, or zi
 * (checked: lfilter's extents of 1 broadcast, as SciPy's; sosfilt's
 * exact). */
static cusci_status make_state(cusci_ctx *ctx, const char *fn, const sig_iir *f, int nd, const int64_t *shape, int axis, const cusci_array *zi,
                               cusci_array **z)
{
  int64_t zs[SIG_MAXD + 1];
  const int zn = state_shape(f, nd, shape, axis, zs);
  if (!zi)
    return cusci_array_zeros(ctx, zn, zs, f->dt, z);
  CUSCI_TRY(cusci_check_array(ctx, fn, "zi", zi));
  const int64_t *gs = cusci_array_shape(zi);
  bool fits = cusci_array_ndim(zi) == zn;
  for (int i = 0; fits && i < zn; i++)
    fits = gs[i] == zs[i] || (!f->sos && gs[i] == 1 && i != axis);
  if (!fits) {
    char want[160], got[160];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "zi has shape %s; with axis %d and an input of this shape it must have shape %s%s",
                          cusci_shape_str(cusci_array_ndim(zi), gs, got, sizeof got), axis, cusci_shape_str(zn, zs, want, sizeof want),
                          f->sos ? "" : " (extents of 1 broadcast)");
  }
  cusci_array *bz = NULL, *c = NULL;
  CUSCI_TRY(cusci_array_broadcast_to(ctx, (cusci_array *)zi, zn, zs, &bz));
  cusci_status st = cusci_array_astype(ctx, bz, f->dt, false, &c);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, c, z);
  cusci_array_release(bz), cusci_array_release(c);
  return st;
}

/* The channels of a per-channel sos against the signal's lines. */
static cusci_status channels_fit(cusci_ctx *ctx, const char *fn, const sig_iir *f, int nd, const int64_t *shape, int axis)
{
  if (!f->per_channel || f->channels == 1)
    return CUSCI_OK;
  const int64_t lines = lines_of(nd, shape, axis);
  if (f->channels != lines)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos has filters for %lld channels; x has %lld signals along axis %d", (long long)f->channels,
                          (long long)lines, axis);
  return CUSCI_OK;
}

/* y = f of x along axis from the state z, which is left as the final
 * state (contiguous, of f->dt and the state's shape). */
static cusci_status filter_with_state(cusci_ctx *ctx, const char *fn, sig_iir *f, const cusci_array *x, int axis, cusci_array *z,
                                      cusci_array **y, sig_carry *cr)
{
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x);
  CUSCI_TRY(cusci_check_out(ctx, fn, y, nd, sh, f->dt, CUSCI_CASTING_NO));
  cusci_array *xc = NULL, *r = NULL;
  cusci_status st = cusci__sig_contiguous(ctx, x, f->dt, &xc);
  /* A given *y is written in place when it is contiguous and not x's
   * memory (the kernels take the two apart). */
  if (st == CUSCI_OK && !(*y && cusci_array_is_c_contiguous(*y) && cusci_array_data(*y) != cusci_array_data(xc)))
    st = cusci_array_empty(ctx, nd, sh, f->dt, &r);
  if (st == CUSCI_OK)
    st = iir_run(ctx, fn, f, xc, axis, z, r ? r : *y, cr);
  if (st == CUSCI_OK && r)
    st = cusci_give_out(ctx, fn, r, y), r = NULL;
  cusci_array_release(xc), cusci_array_release(r);
  return st;
}

/* The whole call of lfilter or sosfilt, f made. */
static cusci_status filter_call(cusci_ctx *ctx, const char *fn, sig_iir *f, const cusci_array *x, int axis, const cusci_array *zi, cusci_array **y,
                                cusci_array **zf)
{
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x);
  int64_t zs[SIG_MAXD + 1];
  const int zn = state_shape(f, nd, sh, axis, zs);
  CUSCI_TRY(channels_fit(ctx, fn, f, nd, sh, axis));
  CUSCI_TRY(cusci_check_out(ctx, fn, y, nd, sh, f->dt, CUSCI_CASTING_NO));
  if (zf)
    CUSCI_TRY(cusci_check_out(ctx, fn, zf, zn, zs, f->dt, CUSCI_CASTING_NO));
  cusci_array *z = NULL;
  cusci_status st = make_state(ctx, fn, f, nd, sh, axis, zi, &z);
  if (st == CUSCI_OK)
    st = filter_with_state(ctx, fn, f, x, axis, z, y, NULL);
  if (st == CUSCI_OK && zf)
    st = cusci_give_out(ctx, fn, z, zf), z = NULL;
  cusci_array_release(z);
  return st;
}

cusci_status cusci_signal_lfilter(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *x, int axis, const cusci_array *zi,
                                  cusci_array **y, cusci_array **zf)
{
  static const char fn[] = "cusci_signal_lfilter";
  CUSCI_ENTRY(ctx, fn, b, a, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, &axis));
  cusci_status st = CUSCI_OK;
  sig_iir f;
  /* zi takes part in the promotion, as in SciPy. */
  const cusci_dtype dts[4] = { cusci_array_dtype(b), cusci_array_dtype(a), cusci_array_dtype(x), zi ? cusci_array_dtype(zi) : CUSCI_FLOAT32 };
  CUSCI_TRY(lfilter_coef(ctx, fn, b, a, cusci__sig_dtype(4, dts), &f));
  st = filter_call(ctx, fn, &f, x, axis, zi, y, zf);
  iir_free(&f);
  return st;
}

cusci_status cusci_signal_sosfilt(cusci_ctx *ctx, const cusci_array *sos, const cusci_array *x, int axis, const cusci_array *zi, cusci_array **y,
                                  cusci_array **zf)
{
  static const char fn[] = "cusci_signal_sosfilt";
  CUSCI_ENTRY(ctx, fn, sos, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, &axis));
  cusci_status st = CUSCI_OK;
  sig_iir f;
  const cusci_dtype dts[3] = { cusci_array_dtype(sos), cusci_array_dtype(x), zi ? cusci_array_dtype(zi) : CUSCI_FLOAT32 };
  CUSCI_TRY(sos_coef(ctx, fn, sos, cusci__sig_dtype(3, dts), &f));
  st = filter_call(ctx, fn, &f, x, axis, zi, y, zf);
  iir_free(&f);
  return st;
}

/* ------------------------------------------------ steady states */

/* lfilter_zi of normalised b, a (c: b[0..K], a[0..K]) into zi[0..K-1]:
 * the state of a unit step's steady state, y = G = sum(b) / sum(a), from
 * z[K-1] = b[K] - a[K] G and z[k] = z[k+1] + b[k+1] - a[k+1] G (the
 * solution of SciPy's (I - A^T) zi = b[1:] - a[1:] b[0]). */
static bool steady(int64_t K, const double complex *c, double complex *zi)
{
  double complex sb = 0, sa = 0;
  for (int64_t i = 0; i <= K; i++)
    sb += c[i], sa += c[K + 1 + i];
  if (sa == 0)
    return false;
  const double complex G = sb / sa;
  double complex acc = 0;
  for (int64_t k = K - 1; k >= 0; k--) {
    acc += c[k + 1] - c[K + 1 + k + 1] * G;
    zi[k] = acc;
  }
  return true;
}

/* sosfilt_zi of sections v (nsec x 6) into zi (nsec x 2). */
static bool sos_steady(int64_t nsec, const double complex *v, double complex *zi)
{
  double complex scale = 1;
  for (int64_t q = 0; q < nsec; q++) {
    const double complex *s = v + 6 * q, c[6] = { s[0], s[1], s[2], s[3], s[4], s[5] };
    double complex z[2];
    if (!steady(2, c, z))
      return false;
    zi[2 * q] = scale * z[0], zi[2 * q + 1] = scale * z[1];
    scale *= (s[0] + s[1] + s[2]) / (s[3] + s[4] + s[5]);
  }
  return true;
}

static cusci_status no_steady(cusci_ctx *ctx, const char *fn)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "sum(a) is 0: the filter has no steady state for a step (I - A is singular)");
}

cusci_status cusci_signal_lfilter_zi(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **zi)
{
  static const char fn[] = "cusci_signal_lfilter_zi";
  CUSCI_ENTRY(ctx, fn, b, a, zi);
  sig_iir f;
  CUSCI_TRY(lfilter_coef(ctx, fn, b, a, cusci__sig_dtype(2, (cusci_dtype[]){ cusci_array_dtype(b), cusci_array_dtype(a) }), &f));
  cusci_status st = CUSCI_OK;
  double complex *z = malloc((size_t)(f.K ? f.K : 1) * sizeof *z);
  if (!z)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  else if (!steady(f.K, f.host, z))
    st = no_steady(ctx, fn);
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_upload(ctx, z, 1, &f.K, f.dt, &r);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, zi);
  free(z);
  iir_free(&f);
  return st;
}

cusci_status cusci_signal_sosfilt_zi(cusci_ctx *ctx, const cusci_array *sos, cusci_array **zi)
{
  static const char fn[] = "cusci_signal_sosfilt_zi";
  CUSCI_ENTRY(ctx, fn, sos, zi);
  sig_iir f;
  CUSCI_TRY(sos_coef(ctx, fn, sos, cusci__sig_dtype(1, (cusci_dtype[]){ cusci_array_dtype(sos) }), &f));
  cusci_status st = CUSCI_OK;
  if (f.per_channel)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos must be (n_sections, 6) here, as SciPy's");
  double complex *z = st == CUSCI_OK ? malloc((size_t)(2 * f.K) * sizeof *z) : NULL;
  if (st == CUSCI_OK && !z)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  else if (st == CUSCI_OK && !sos_steady(f.K, f.host, z))
    st = no_steady(ctx, fn);
  cusci_array *r = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_upload(ctx, z, 2, (int64_t[]){ f.K, 2 }, f.dt, &r);
  if (st == CUSCI_OK)
    st = cusci_give_out(ctx, fn, r, zi);
  free(z);
  iir_free(&f);
  return st;
}

/* ------------------------------------------------ filtfilt */

/* x (contiguous, len along axis) extended by n at each end as padtype:
 * SciPy's odd_ext (2 x[0] - x[n:0:-1], ...), even_ext (x[n:0:-1], ...)
 * and const_ext (x[0] n times, ...). */
static cusci_status extend(cusci_ctx *ctx, cusci_array *x, int axis, int64_t n, cusci_signal_padtype pad, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  const int64_t len = cusci_array_shape(x)[axis];
  int64_t es[SIG_MAXD];
  memcpy(es, cusci_array_shape(x), sizeof(int64_t) * (size_t)nd);
  es[axis] = len + 2 * n;
  cusci_array *e = NULL, *mid = NULL;
  CUSCI_TRY(cusci_array_empty(ctx, nd, es, cusci_array_dtype(x), &e));
  cusci_status st = cusci__sig_along(ctx, e, axis, n, n + len, 1, &mid);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, x, &mid);
  cusci_array_release(mid);
  for (int side = 0; side < 2 && st == CUSCI_OK && n > 0; side++) {
    /* The end sample, the mirrored samples and the part of e they fill. */
    cusci_array *end = NULL, *mir = NULL, *dst = NULL, *twice = NULL;
    const int64_t at = side ? len - 1 : 0;
    st = cusci__sig_along(ctx, x, axis, at, at + 1, 1, &end);
    if (st == CUSCI_OK)
      st = cusci__sig_along(ctx, e, axis, side ? n + len : 0, side ? 2 * n + len : n, 1, &dst);
    if (st == CUSCI_OK && pad != CUSCI_SIGNAL_PAD_CONSTANT)
      st = side ? cusci__sig_along(ctx, x, axis, len - 2, len - 2 - n, -1, &mir) : cusci__sig_along(ctx, x, axis, n, 0, -1, &mir);
    if (st == CUSCI_OK) {
      if (pad == CUSCI_SIGNAL_PAD_CONSTANT) {
        cusci_array *b = NULL;
        st = cusci_array_broadcast_to(ctx, end, nd, cusci_array_shape(dst), &b);
        if (st == CUSCI_OK)
          st = cusci_array_copy(ctx, b, &dst);
        cusci_array_release(b);
      } else if (pad == CUSCI_SIGNAL_PAD_EVEN) {
        st = cusci_array_copy(ctx, mir, &dst);
      } else {
        st = cusci_add(ctx, end, end, &twice);
        if (st == CUSCI_OK)
          st = cusci_subtract(ctx, twice, mir, &dst);
      }
    }
    cusci_array_release(end), cusci_array_release(mir), cusci_array_release(dst), cusci_array_release(twice);
  }
  if (st != CUSCI_OK) {
    cusci_array_release(e);
    e = NULL;
  }
  *out = e;
  return st;
}

/* The state zi0 (the steady state, f->dt) scaled by each signal's sample
 * at `at` of s along axis: the initial state of a pass. */
static cusci_status scaled_state(cusci_ctx *ctx, const sig_iir *f, const cusci_array *zi0, cusci_array *s, int axis, int64_t at,
                                 cusci_array **z)
{
  const int nd = cusci_array_ndim(s);
  cusci_array *x0 = NULL, *zr = NULL, *x0r = NULL, *p = NULL;
  CUSCI_TRY(cusci__sig_along(ctx, s, axis, at, at + 1, 1, &x0));
  /* zi0 as (K or 2 at axis, 1 elsewhere), after the sections for sos; the
   * sample as (1, its shape) for sos. */
  int64_t zsh[SIG_MAXD + 1], xs[SIG_MAXD + 1];
  int k = 0;
  if (f->sos)
    zsh[k++] = f->K, xs[0] = 1;
  for (int i = 0; i < nd; i++) {
    zsh[k + i] = i == axis ? (f->sos ? 2 : f->K) : 1;
    xs[(f->sos ? 1 : 0) + i] = cusci_array_shape(x0)[i];
  }
  cusci_status st = cusci_array_reshape(ctx, (cusci_array *)zi0, k + nd, zsh, &zr);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, x0, k + nd, xs, &x0r);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, zr, x0r, &p);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, p, z);
  cusci_array_release(x0), cusci_array_release(zr), cusci_array_release(x0r), cusci_array_release(p);
  return st;
}

/* ------------------------------------------------ Gustafsson's method */

/* lfilter of n samples (complex, host) through the normalised c (b, a:
 * K + 1 each) from state z (K values, changed), in place. */
static void host_lfilter(int64_t K, const double complex *c, double complex *x, int64_t n, int64_t stride, double complex *z)
{
  const double complex *b = c, *a = c + K + 1;
  for (int64_t t = 0; t < n; t++) {
    const double complex xn = x[t * stride], yn = z[0] + b[0] * xn;
    for (int64_t k = 0; k + 1 < K; k++)
      z[k] = z[k + 1] + b[k + 1] * xn - a[k + 1] * yn;
    z[K - 1] = b[K] * xn - a[K] * yn;
    x[t * stride] = yn;
  }
}

/* The least-squares solver of the n x m matrix A (column-major, complex,
 * n >= m, full column rank): P = R^-1 Q^H (m x n, row-major) by modified
 * Gram-Schmidt. false when the columns are dependent. */
static bool pinv_mgs(int64_t n, int64_t m, double complex *A, double complex *P)
{
  double complex *R = calloc((size_t)(m * m), sizeof *R);
  if (!R)
    return false;
  bool good = true;
  for (int64_t j = 0; j < m && good; j++) {
    double complex *aj = A + j * n;
    for (int64_t k = 0; k < j; k++) {
      const double complex *qk = A + k * n;
      double complex d = 0;
      for (int64_t i = 0; i < n; i++)
        d += conj(qk[i]) * aj[i];
      R[k * m + j] = d;
      for (int64_t i = 0; i < n; i++)
        aj[i] -= d * qk[i];
    }
    double nn = 0;
    for (int64_t i = 0; i < n; i++)
      nn += creal(aj[i]) * creal(aj[i]) + cimag(aj[i]) * cimag(aj[i]);
    nn = sqrt(nn);
    good = nn > 1e-300;
    R[j * m + j] = nn;
    for (int64_t i = 0; good && i < n; i++)
      aj[i] /= nn;
  }
  /* P = R^-1 Q^H: for each column i, back substitution of R p = conj(q_i). */
  for (int64_t i = 0; good && i < n; i++)
    for (int64_t r = m - 1; r >= 0; r--) {
      double complex v = conj(A[r * n + i]);
      for (int64_t k = r + 1; k < m; k++)
        v -= R[r * m + k] * P[k * n + i];
      P[r * n + i] = v / R[r * m + r];
    }
  free(R);
  return good;
}

/* out[..., j at axis, ...] = sum_t in[..., t, ...] C[j * n + t] for the
 * rows j < rows of the host matrix C (rows x n), in along axis of n
 * samples: a new array with rows along axis. */
cusci_status cusci__sig_apply_matrix(cusci_ctx *ctx, const double complex *C, int64_t rows, int64_t n, cusci_array *in, int axis, cusci_dtype dt,
                                     cusci_array **out)
{
  const int nd = cusci_array_ndim(in);
  int64_t xs[SIG_MAXD + 1], cs[SIG_MAXD + 1];
  for (int i = 0, k = 0; i < nd; i++) {
    if (i == axis) {
      xs[k] = 1, cs[k] = rows, k++;
      xs[k] = n, cs[k] = n, k++;
    } else {
      xs[k] = cusci_array_shape(in)[i], cs[k] = 1, k++;
    }
  }
  const int64_t cnt = rows * n;
  const int red = axis + 1;
  const cusci_reduce_opts opts = { 1, &red, false, 0 };
  cusci_array *c = NULL, *cr = NULL, *xr = NULL, *p = NULL;
  cusci_status st = cusci__sig_upload(ctx, C, 1, &cnt, dt, &c);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, c, nd + 1, cs, &cr);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, in, nd + 1, xs, &xr);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, cr, xr, &p);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, p, &opts, out);
  SIG_RELEASE(c, cr, xr, p);
  return st;
}

/* The filter of x (contiguous, f->dt) along axis from zero state, reversed
 * first when rev_in and reversed back when rev_out: a new array. */
static cusci_status pass(cusci_ctx *ctx, const char *fn, sig_iir *f, cusci_array *x, int axis, bool rev_in, bool rev_out, cusci_array **out)
{
  const int nd = cusci_array_ndim(x);
  cusci_array *v = NULL, *in = NULL, *z = NULL, *y = NULL, *w = NULL;
  cusci_status st = rev_in ? cusci__sig_along(ctx, x, axis, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, -1, &v) : CUSCI_OK;
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, v ? v : x, &in);
  if (st == CUSCI_OK)
    st = make_state(ctx, fn, f, nd, cusci_array_shape(x), axis, NULL, &z);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(x), f->dt, &y);
  if (st == CUSCI_OK)
    st = iir_run(ctx, fn, f, in, axis, z, y, NULL);
  if (st == CUSCI_OK && rev_out)
    st = cusci__sig_along(ctx, y, axis, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, -1, &w);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, w ? w : y, out);
  SIG_RELEASE(v, in, z, y, w);
  return st;
}

/*
 * filtfilt by Gustafsson's method (F. Gustafsson, Determining the initial
 * states in forward-backward filtering, IEEE Trans. Signal Processing 44,
 * 1996), as SciPy's _filtfilt_gust with the whole impulse response (irlen
 * None): the initial states of the forward and the backward pass that
 * make forward-backward and backward-forward filtering agree in the least
 * squares sense, from the observability matrix O of the filter (its
 * response to a unit state), S (the filter of O reversed), M = [S^R - O,
 * O^R - S] and W = [S^R, O^R]; y = y_fb + W M^+ (y_bf - y_fb). M^+ and W
 * are made on the host, the filter passes and the products on ctx.
 */
static cusci_status gust(cusci_ctx *ctx, const char *fn, sig_iir *f, const cusci_array *x, int axis, cusci_array **y)
{
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x), n = sh[axis], K = f->K;
  CUSCI_TRY(cusci_check_out(ctx, fn, y, nd, sh, f->dt, CUSCI_CASTING_NO));
  if (K == 0) {
    /* No state: the filter is the scalar (b0 / a0)^2. */
    const double complex g = f->host[0] * f->host[0];
    cusci_array *xc = NULL, *gs = NULL;
    cusci_status st = cusci__sig_contiguous(ctx, x, f->dt, &xc);
    if (st == CUSCI_OK)
      st = cusci__sig_upload(ctx, &g, 0, NULL, f->dt, &gs);
    if (st == CUSCI_OK)
      st = cusci_multiply(ctx, xc, gs, y);
    SIG_RELEASE(xc, gs);
    return st;
  }
  if (n < 2 * K)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "x has %lld samples along axis %d: Gustafsson's method needs at least twice the order, %lld",
                          (long long)n, axis, (long long)(2 * K));
  double complex *O = calloc((size_t)(n * K), sizeof *O), *S = calloc((size_t)(n * K), sizeof *S), *z = calloc((size_t)K, sizeof *z);
  double complex *M = malloc(sizeof *M * (size_t)(n * 2 * K)), *P = malloc(sizeof *P * (size_t)(2 * K * n)), *W = malloc(sizeof *W * (size_t)(2 * K * n));
  cusci_status st = O && S && z && M && P && W ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for Gustafsson's matrices");
  if (st == CUSCI_OK) {
    /* O: column 0 the response to the unit state, column k that delayed by
     * k (column-major, n rows). S: each column of O reversed, filtered. */
    z[0] = 1;
    host_lfilter(K, f->host, O, n, 1, z);
    for (int64_t k = 1; k < K; k++)
      for (int64_t i = k; i < n; i++)
        O[k * n + i] = O[i - k];
    for (int64_t k = 0; k < K; k++) {
      for (int64_t i = 0; i < n; i++)
        S[k * n + i] = O[k * n + n - 1 - i];
      memset(z, 0, sizeof *z * (size_t)K);
      host_lfilter(K, f->host, S + k * n, n, 1, z);
    }
    /* M = [S^R - O, O^R - S] (column-major n x 2K); W^T = [S^R, O^R]^T
     * (2K x n, row-major) for cusci__sig_apply_matrix. */
    for (int64_t k = 0; k < K; k++)
      for (int64_t i = 0; i < n; i++) {
        const double complex sr = S[k * n + n - 1 - i], orr = O[k * n + n - 1 - i];
        M[k * n + i] = sr - O[k * n + i];
        M[(K + k) * n + i] = orr - S[k * n + i];
        W[k * n + i] = sr;
        W[(K + k) * n + i] = orr;
      }
    if (!pinv_mgs(n, 2 * K, M, P))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "Gustafsson's system for this filter and length is rank deficient");
  }
  cusci_array *xc = NULL, *yf = NULL, *yfb = NULL, *yb = NULL, *ybf = NULL, *d = NULL, *ic = NULL, *wic = NULL, *wt = NULL, *r = NULL;
  if (st == CUSCI_OK)
    st = cusci__sig_contiguous(ctx, x, f->dt, &xc);
  /* y_fb: forward, then backward; y_bf: backward, then forward. */
  if (st == CUSCI_OK)
    st = pass(ctx, fn, f, xc, axis, false, false, &yf);
  if (st == CUSCI_OK)
    st = pass(ctx, fn, f, yf, axis, true, true, &yfb);
  if (st == CUSCI_OK)
    st = pass(ctx, fn, f, xc, axis, true, true, &yb);
  if (st == CUSCI_OK)
    st = pass(ctx, fn, f, yb, axis, false, false, &ybf);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, ybf, yfb, &d);
  /* ic = M^+ delta (2K along axis); wic = W ic (n along axis). */
  if (st == CUSCI_OK)
    st = cusci__sig_apply_matrix(ctx, P, 2 * K, n, d, axis, f->dt, &ic);
  if (st == CUSCI_OK) {
    /* W as n x 2K row-major: W[t][j] = column j of [S^R, O^R] at t. */
    for (int64_t t = 0; t < n; t++)
      for (int64_t j = 0; j < 2 * K; j++)
        P[t * 2 * K + j] = W[j * n + t];
    st = cusci__sig_apply_matrix(ctx, P, n, 2 * K, ic, axis, f->dt, &wic);
  }
  if (st == CUSCI_OK)
    st = cusci_add(ctx, yfb, wic, &r);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, r, y);
  free(O), free(S), free(z), free(M), free(P), free(W);
  SIG_RELEASE(xc, yf, yfb, yb, ybf, d, ic, wic, wt, r);
  return st;
}

/* The default padding: 3 taps, as SciPy's _validate_pad. */
static cusci_status filtfilt_run(cusci_ctx *ctx, const char *fn, sig_iir *f, const double complex *zi_host, int64_t ntaps, const cusci_array *x,
                                 int axis, const cusci_signal_filtfilt_opts *opts, cusci_array **y)
{
  cusci_signal_filtfilt_opts o = opts ? *opts : (cusci_signal_filtfilt_opts){ CUSCI_SIGNAL_PAD_ODD, 0, false };
  if (o.gust && f->sos)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "gust (Gustafsson's method) is filtfilt's, not sosfiltfilt's (as SciPy's)");
  if (o.gust) {
    CUSCI_TRY(channels_fit(ctx, fn, f, cusci_array_ndim(x), cusci_array_shape(x), axis));
    return gust(ctx, fn, f, x, axis, y);
  }
  if ((int)o.padtype < 0 || o.padtype > CUSCI_SIGNAL_PAD_NONE)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "padtype %d is not one of odd, even, constant and none", (int)o.padtype);
  if (o.padlen < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "padlen is %lld; it must be 0 (the default) or more", (long long)o.padlen);
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x), len = sh[axis];
  const int64_t edge = o.padtype == CUSCI_SIGNAL_PAD_NONE ? 0 : o.padlen ? o.padlen : 3 * ntaps;
  if (len <= edge)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "x has %lld samples along axis %d: it must have more than padlen, which is %lld",
                          (long long)len, axis, (long long)edge);
  CUSCI_TRY(channels_fit(ctx, fn, f, nd, sh, axis));
  CUSCI_TRY(cusci_check_out(ctx, fn, y, nd, sh, f->dt, CUSCI_CASTING_NO));
  const int64_t zn = iir_n(f);
  cusci_array *xc = NULL, *ext = NULL, *zi0 = NULL, *z = NULL, *y1 = NULL, *rev = NULL, *rc = NULL, *y2 = NULL, *back = NULL, *core = NULL;
  cusci_status st = cusci__sig_contiguous(ctx, x, f->dt, &xc);
  if (st == CUSCI_OK)
    st = extend(ctx, xc, axis, edge, o.padtype, &ext);
  if (st == CUSCI_OK)
    st = f->sos ? cusci__sig_upload(ctx, zi_host, 2, (int64_t[]){ f->K, 2 }, f->dt, &zi0) : cusci__sig_upload(ctx, zi_host, 1, &zn, f->dt, &zi0);
  /* Forward from the steady state of the first sample. */
  if (st == CUSCI_OK)
    st = scaled_state(ctx, f, zi0, ext, axis, 0, &z);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, nd, cusci_array_shape(ext), f->dt, &y1);
  if (st == CUSCI_OK)
    st = iir_run(ctx, fn, f, ext, axis, z, y1, NULL);
  cusci_array_release(z), z = NULL;
  /* Backward from the steady state of the last output. */
  if (st == CUSCI_OK)
    st = scaled_state(ctx, f, zi0, y1, axis, cusci_array_shape(y1)[axis] - 1, &z);
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, y1, axis, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE, -1, &rev);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, rev, &rc);
  if (st == CUSCI_OK)
    st = iir_run(ctx, fn, f, rc, axis, z, y1, NULL);
  /* y1 now holds the backward pass: reversed, the padding cut. */
  if (st == CUSCI_OK)
    st = cusci__sig_along(ctx, y1, axis, cusci_array_shape(y1)[axis] - 1 - edge, edge - 1 < 0 ? CUSCI_SLICE_NONE : edge - 1, -1, &core);
  if (st == CUSCI_OK)
    st = *y ? cusci_array_copy(ctx, core, y) : cusci_array_copy(ctx, core, &back);
  if (st == CUSCI_OK && back)
    *y = back, back = NULL;
  SIG_RELEASE(xc, ext, zi0, z, y1, rev, rc, y2, back, core);
  return st;
}

cusci_status cusci_signal_filtfilt(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *x, int axis,
                                   const cusci_signal_filtfilt_opts *opts, cusci_array **y)
{
  static const char fn[] = "cusci_signal_filtfilt";
  CUSCI_ENTRY(ctx, fn, b, a, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, &axis));
  cusci_status st = CUSCI_OK;
  sig_iir f;
  CUSCI_TRY(lfilter_coef(ctx, fn, b, a, cusci__sig_dtype(3, (cusci_dtype[]){ cusci_array_dtype(b), cusci_array_dtype(a), cusci_array_dtype(x) }), &f));
  double complex *zi = malloc((size_t)(f.K ? f.K : 1) * sizeof *zi);
  if (!zi)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  else if (!steady(f.K, f.host, zi))
    st = no_steady(ctx, fn);
  if (st == CUSCI_OK)
    st = filtfilt_run(ctx, fn, &f, zi, f.K + 1, x, axis, opts, y);
  free(zi);
  iir_free(&f);
  return st;
}

cusci_status cusci_signal_sosfiltfilt(cusci_ctx *ctx, const cusci_array *sos, const cusci_array *x, int axis, const cusci_signal_filtfilt_opts *opts,
                                      cusci_array **y)
{
  static const char fn[] = "cusci_signal_sosfiltfilt";
  CUSCI_ENTRY(ctx, fn, sos, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  CUSCI_TRY(cusci__sig_axis(ctx, fn, "x", cusci_array_ndim(x), axis, &axis));
  cusci_status st = CUSCI_OK;
  sig_iir f;
  CUSCI_TRY(sos_coef(ctx, fn, sos, cusci__sig_dtype(2, (cusci_dtype[]){ cusci_array_dtype(sos), cusci_array_dtype(x) }), &f));
  if (f.per_channel && f.channels > 1) {
    iir_free(&f);
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "sos must be (n_sections, 6) for sosfiltfilt");
  }
  /* SciPy's taps: 2 n_sections + 1, less the sections of order one (b2
   * and a2 both 0), counted as the smaller of the two counts. */
  int64_t nb2 = 0, na2 = 0;
  for (int64_t q = 0; q < f.K; q++)
    nb2 += f.host[6 * q + 2] == 0, na2 += f.host[6 * q + 5] == 0;
  const int64_t ntaps = 2 * f.K + 1 - (nb2 < na2 ? nb2 : na2);
  double complex *zi = malloc((size_t)(2 * f.K) * sizeof *zi);
  if (!zi)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  else if (!sos_steady(f.K, f.host, zi))
    st = no_steady(ctx, fn);
  if (st == CUSCI_OK)
    st = filtfilt_run(ctx, fn, &f, zi, ntaps, x, axis, opts, y);
  free(zi);
  iir_free(&f);
  return st;
}

/* ------------------------------------------------ streaming */

struct cusci_signal_filter {
  sig_iir f;
  int ndim, axis;
  int64_t shape[SIG_MAXD];
  cusci_array *z;
  sig_carry carry; /* its place in the blocks, when f has them */
};

static cusci_status stream_make(cusci_ctx *ctx, const char *fn, sig_iir *f, int ndim, const int64_t *shape, int axis, const cusci_array *zi,
                                cusci_signal_filter **out)
{
  cusci_status st = cusci_check_shape(ctx, fn, "shape", ndim, shape, 1);
  int ax = 0;
  if (st == CUSCI_OK)
    st = cusci__sig_axis(ctx, fn, "the chunk", ndim, axis, &ax);
  if (st == CUSCI_OK)
    st = channels_fit(ctx, fn, f, ndim, shape, ax);
  cusci_signal_filter *s = st == CUSCI_OK ? calloc(1, sizeof *s) : NULL;
  if (st == CUSCI_OK && !s)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the filter");
  if (st == CUSCI_OK) {
    s->f = *f, s->ndim = ndim, s->axis = ax;
    memcpy(s->shape, shape, sizeof(int64_t) * (size_t)ndim);
    s->shape[ax] = 0;
    st = make_state(ctx, fn, f, ndim, s->shape, ax, zi, &s->z);
  }
  if (st == CUSCI_OK)
    st = iir_blocks(ctx, fn, &s->f);
  if (st == CUSCI_OK && s->f.power) {
    const int64_t cs[2] = { iir_n(&s->f), lines_of(ndim, shape, ax) };
    s->carry.fresh = true;
    st = cusci_array_zeros(ctx, 2, cs, s->f.dt, &s->carry.sa);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, 2, cs, s->f.dt, &s->carry.u);
  }
  if (st != CUSCI_OK) {
    iir_free(s ? &s->f : f);
    if (s)
      cusci_array_release(s->z), cusci_array_release(s->carry.sa), cusci_array_release(s->carry.u);
    free(s);
    return st;
  }
  *out = s;
  return CUSCI_OK;
}

static cusci_status stream_dtype(cusci_ctx *ctx, const char *fn, cusci_dtype dtype, cusci_dtype *dt)
{
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  *dt = dtype;
  return CUSCI_OK;
}

cusci_status cusci_signal_filter_create_lfilter(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, int ndim, const int64_t *shape, int axis,
                                                cusci_dtype dtype, const cusci_array *zi, cusci_signal_filter **out)
{
  static const char fn[] = "cusci_signal_filter_create_lfilter";
  CUSCI_ENTRY(ctx, fn, b, a, out);
  *out = NULL;
  cusci_dtype dt;
  CUSCI_TRY(stream_dtype(ctx, fn, dtype, &dt));
  sig_iir f;
  CUSCI_TRY(lfilter_coef(ctx, fn, b, a, cusci__sig_dtype(3, (cusci_dtype[]){ cusci_array_dtype(b), cusci_array_dtype(a), dt }), &f));
  return stream_make(ctx, fn, &f, ndim, shape, axis, zi, out);
}

cusci_status cusci_signal_filter_create_sosfilt(cusci_ctx *ctx, const cusci_array *sos, int ndim, const int64_t *shape, int axis, cusci_dtype dtype,
                                                const cusci_array *zi, cusci_signal_filter **out)
{
  static const char fn[] = "cusci_signal_filter_create_sosfilt";
  CUSCI_ENTRY(ctx, fn, sos, out);
  *out = NULL;
  cusci_dtype dt;
  CUSCI_TRY(stream_dtype(ctx, fn, dtype, &dt));
  sig_iir f;
  CUSCI_TRY(sos_coef(ctx, fn, sos, cusci__sig_dtype(2, (cusci_dtype[]){ cusci_array_dtype(sos), dt }), &f));
  return stream_make(ctx, fn, &f, ndim, shape, axis, zi, out);
}

cusci_status cusci_signal_filter_process(cusci_ctx *ctx, cusci_signal_filter *s, const cusci_array *x, cusci_array **y)
{
  static const char fn[] = "cusci_signal_filter_process";
  CUSCI_ENTRY(ctx, fn, s, x, y);
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (cusci_array_device(s->z) != cusci_ctx_device(ctx))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "the filter was made on device %d, the context is on %d", cusci_array_device(s->z),
                          cusci_ctx_device(ctx));
  const int nd = cusci_array_ndim(x);
  const int64_t *sh = cusci_array_shape(x);
  bool fits = nd == s->ndim;
  for (int i = 0; fits && i < nd; i++)
    fits = i == s->axis || sh[i] == s->shape[i];
  if (!fits) {
    char got[160], want[160];
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "the chunk has shape %s; the filter takes chunks of shape %s, any length along axis %d",
                          cusci_shape_str(nd, sh, got, sizeof got), cusci_shape_str(s->ndim, s->shape, want, sizeof want), s->axis);
  }
  return filter_with_state(ctx, fn, &s->f, x, s->axis, s->z, y, &s->carry);
}

cusci_status cusci_signal_filter_state(cusci_ctx *ctx, const cusci_signal_filter *s, cusci_array **zf)
{
  static const char fn[] = "cusci_signal_filter_state";
  CUSCI_ENTRY(ctx, fn, s, zf);
  return cusci_array_copy(ctx, s->z, zf);
}

cusci_status cusci_signal_filter_reset(cusci_ctx *ctx, cusci_signal_filter *s, const cusci_array *zi)
{
  static const char fn[] = "cusci_signal_filter_reset";
  CUSCI_ENTRY(ctx, fn, s);
  cusci_array *z = NULL;
  CUSCI_TRY(make_state(ctx, fn, &s->f, s->ndim, s->shape, s->axis, zi, &z));
  cusci_array_release(s->z);
  s->z = z;
  s->carry.r0 = 0, s->carry.fresh = true;
  return CUSCI_OK;
}

void cusci_signal_filter_destroy(cusci_signal_filter *s)
{
  if (!s)
    return;
  iir_free(&s->f);
  cusci_array_release(s->z);
  cusci_array_release(s->carry.sa), cusci_array_release(s->carry.u);
  free(s);
}

/* ------------------------------------------------ lfiltic and deconvolve */

cusci_status cusci_signal_lfiltic(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *y, const cusci_array *x,
                                  cusci_array **zi)
{
  static const char fn[] = "cusci_signal_lfiltic";
  CUSCI_ENTRY(ctx, fn, b, a, y, zi);
  CUSCI_TRY(vector(ctx, fn, "b", b));
  CUSCI_TRY(vector(ctx, fn, "a", a));
  CUSCI_TRY(cusci_check_array(ctx, fn, "y", y));
  if (x)
    CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  const cusci_dtype dts[4] = { cusci_array_dtype(b), cusci_array_dtype(a), cusci_array_dtype(y), x ? cusci_array_dtype(x) : CUSCI_FLOAT32 };
  const cusci_dtype dt = cusci__sig_dtype(4, dts);
  const int64_t N = cusci_array_size(a) - 1, M = cusci_array_size(b) - 1, K = M > N ? M : N, ny = cusci_array_size(y), nx = x ? cusci_array_size(x) : 0;
  double complex *vb = NULL, *va = NULL, *vy = NULL, *vx = NULL, *z = NULL;
  cusci_status st = cusci__sig_host_values(ctx, fn, "b", b, &vb);
  if (st == CUSCI_OK)
    st = cusci__sig_host_values(ctx, fn, "a", a, &va);
  if (st == CUSCI_OK)
    st = cusci__sig_host_values(ctx, fn, "y", y, &vy);
  if (st == CUSCI_OK && x)
    st = cusci__sig_host_values(ctx, fn, "x", x, &vx);
  if (st == CUSCI_OK && va[0] == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a[0] is 0: the first a coefficient must not be");
  if (st == CUSCI_OK && !(z = calloc((size_t)(K ? K : 1), sizeof *z)))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK) {
    /* SciPy's: zi[m] = sum(b[m+1:] x[:M-m]) - sum(a[m+1:] y[:N-m]), x and
     * y padded with zeros, then divided by a[0]. */
    for (int64_t m = 0; m < M; m++)
      for (int64_t j = 0; j < M - m; j++)
        z[m] += vb[m + 1 + j] * (j < nx ? vx[j] : 0);
    for (int64_t m = 0; m < N; m++) {
      double complex s = 0;
      for (int64_t j = 0; j < N - m; j++)
        s += va[m + 1 + j] * (j < ny ? vy[j] : 0);
      z[m] -= s;
    }
    if (va[0] != 1)
      for (int64_t m = 0; m < K; m++)
        z[m] /= va[0];
    cusci_array *r = NULL;
    st = cusci__sig_upload(ctx, z, 1, &K, dt, &r);
    if (st == CUSCI_OK)
      st = cusci_give_out(ctx, fn, r, zi);
  }
  free(vb), free(va), free(vy), free(vx), free(z);
  return st;
}

cusci_status cusci_signal_deconvolve(cusci_ctx *ctx, const cusci_array *signal, const cusci_array *divisor, cusci_array **quot, cusci_array **rem)
{
  static const char fn[] = "cusci_signal_deconvolve";
  CUSCI_ENTRY(ctx, fn, signal, divisor, quot, rem);
  CUSCI_TRY(vector(ctx, fn, "signal", signal));
  CUSCI_TRY(vector(ctx, fn, "divisor", divisor));
  const int64_t N = cusci_array_size(signal), D = cusci_array_size(divisor);
  if (D > N) {
    /* No quotient; the remainder is the signal. */
    const int64_t zero = 0;
    cusci_array *q = NULL, *r = NULL;
    CUSCI_TRY(cusci_array_empty(ctx, 1, &zero, CUSCI_FLOAT64, &q));
    const cusci_status st = cusci_array_copy(ctx, signal, &r);
    return cusci__sig_give_two(ctx, fn, st, q, quot, r, rem);
  }
  /* SciPy's: the quotient is the filter num / den of an impulse of
   * N - D + 1 samples, the remainder num - den * quot. */
  const int64_t n = N - D + 1;
  cusci_array *imp = NULL, *q = NULL, *c = NULL, *r = NULL;
  cusci_status st = cusci_array_zeros(ctx, 1, &n, CUSCI_FLOAT64, &imp);
  if (st == CUSCI_OK) {
    const double one = 1;
    cusci_array *first = NULL;
    st = cusci_array_slice(ctx, imp, (int64_t[]){ 0 }, (int64_t[]){ 1 }, NULL, &first);
    cusci_array *src = NULL;
    if (st == CUSCI_OK)
      st = cusci_array_from_host(ctx, &one, 1, (int64_t[]){ 1 }, CUSCI_FLOAT64, &src);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, src, &first);
    cusci_array_release(first), cusci_array_release(src);
  }
  if (st == CUSCI_OK)
    st = cusci_signal_lfilter(ctx, signal, divisor, imp, 0, NULL, &q, NULL);
  if (st == CUSCI_OK)
    st = cusci_signal_convolve(ctx, divisor, q, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_AUTO, &c);
  if (st == CUSCI_OK)
    st = cusci_subtract(ctx, signal, c, &r);
  cusci_array_release(imp), cusci_array_release(c);
  return cusci__sig_give_two(ctx, fn, st, q, quot, r, rem);
}
