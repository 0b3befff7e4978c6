/*
 * libsignal/plan.c: a transform as a list of steps and its run.
 *
 * A request (sig_key) becomes steps along its axes, each reading one
 * buffer and writing another: STAGE (crop or pad with zeros, convert the
 * dtype, conjugate) where the next transform needs it, then the transform
 * along one axis (complex, real-to-complex, complex-to-real, DCT/DST).
 * Intermediate results alternate between the buffers WA and WB; the last
 * step writes the result, and one pass at the end applies the norm's
 * scale (and hfft's conjugate). The same steps run on the host (the
 * lines of reference/signal/reference.h) and on cuFFT, which gets the
 * advanced layout of each step: one batch dimension, or a short loop over
 * a second one, or else copies with the axis last (TA, TB). The DCT/DST
 * on a GPU extends each row (DA), takes its real transform (DB) and reads
 * the result from it (kernels/signal).
 */
#include "libsignal/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/kit/dtypes.h>

#include "kernels/signal/launch.h"
#include "reference/signal/dct_map.h"
#include "reference/signal/reference.h"

/* ------------------------------------------------------------ building */

static size_t view_bytes(const sig_view *v, int ndim)
{
  size_t n = cusci_dtype_itemsize(v->dt);
  for (int i = 0; i < ndim; i++)
    n *= (size_t)v->shape[i];
  return n;
}

static void contiguous(sig_view *v, int ndim)
{
  int64_t st = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    v->strides[i] = st;
    st *= v->shape[i] ? v->shape[i] : 1;
  }
}

typedef struct builder {
  cusci_fft_plan *p;
  sig_view cur;
  int cap;
} builder;

static sig_step *push(builder *b)
{
  cusci_fft_plan *p = b->p;
  sig_step *st = &p->steps[p->nsteps++];
  memset(st, 0, sizeof *st);
  st->src = b->cur;
  st->dst = b->cur;
  st->dst.buf = b->cur.buf == SIG_WA ? SIG_WB : SIG_WA;
  st->loops = 1;
  return st;
}

/* STAGE to length len along axis (-1: no change) and dtype dt. */
static void stage(builder *b, int axis, int64_t len, cusci_dtype dt, bool conj)
{
  sig_step *st = push(b);
  st->op = SIG_STAGE;
  st->conj = conj;
  if (axis >= 0)
    st->dst.shape[axis] = len;
  st->dst.dt = dt;
  contiguous(&st->dst, b->p->key.ndim);
  b->cur = st->dst;
}

static void stage_if(builder *b, int axis, int64_t len, cusci_dtype dt)
{
  if (b->cur.dt != dt || b->cur.shape[axis] != len)
    stage(b, axis, len, dt, false);
}

static sig_step *transform(builder *b, int op, int axis, int64_t n, int64_t outlen, cusci_dtype outdt)
{
  sig_step *st = push(b);
  st->op = op;
  st->axis = axis;
  st->n = n;
  st->dst.shape[axis] = outlen;
  st->dst.dt = outdt;
  contiguous(&st->dst, b->p->key.ndim);
  b->cur = st->dst;
  return st;
}

/* The DCT/DST's scale along one axis of length n and its orthogonalising
 * factors, for the transform of type t (the inverse's type already
 * swapped) run forward (inverse false) or as an inverse. */
static double dct_axis(sig_step *st, int t, bool sine, int64_t n, int norm, bool inverse)
{
  const double f = t == 1 ? (sine ? 2.0 * (double)(n + 1) : 2.0 * (double)(n - 1)) : 2.0 * (double)n;
  st->pre0 = st->preN = st->post0 = st->postN = 1.0;
  if (norm == CUSCI_FFT_ORTHO) {
    const double r = sqrt(2.0);
    if (!sine && t == 1)
      st->pre0 = st->preN = r, st->post0 = st->postN = 1.0 / r;
    else if (!sine && t == 2)
      st->post0 = 1.0 / r;
    else if (!sine && t == 3)
      st->pre0 = r;
    else if (sine && t == 2)
      st->postN = 1.0 / r;
    else if (sine && t == 3)
      st->preN = r;
    return 1.0 / sqrt(f);
  }
  if (norm == CUSCI_FFT_BACKWARD)
    return inverse ? 1.0 / f : 1.0;
  return inverse ? 1.0 : 1.0 / f;
}

/* The steps of p's key, the result's shape and dtype, the scale. */
static void build(cusci_fft_plan *p)
{
  const sig_key *k = &p->key;
  const int nd = k->ndim, na = k->naxes, last = k->axes[na - 1];
  cusci_dtype in = k->dtype;
  cusci_dtype wr = in == CUSCI_FLOAT16 || in == CUSCI_FLOAT32 || in == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
  cusci_dtype wc = wr == CUSCI_FLOAT32 ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
  builder b = { p, { SIG_IN, in, { 0 }, { 0 } }, 0 };
  memcpy(b.cur.shape, k->shape, sizeof k->shape);
  memcpy(b.cur.strides, k->strides, sizeof k->strides);
  double total = 1.0;
  for (int i = 0; i < na; i++)
    total *= (double)k->s[i];
  bool scaled = false; /* whether the norm scales this direction */
  p->scale = 1.0;
  switch (k->kind) {
  case CUSCI_FFT_KIND_FFT:
  case CUSCI_FFT_KIND_IFFT: {
    const int sign = k->kind == CUSCI_FFT_KIND_FFT ? -1 : 1;
    for (int i = 0; i < na; i++) {
      stage_if(&b, k->axes[i], k->s[i], wc);
      transform(&b, SIG_C2C, k->axes[i], k->s[i], k->s[i], wc)->sign = sign;
    }
    scaled = k->norm == (sign < 0 ? CUSCI_FFT_FORWARD : CUSCI_FFT_BACKWARD);
    p->odt = wc;
    break;
  }
  case CUSCI_FFT_KIND_RFFT:
  case CUSCI_FFT_KIND_IHFFT:
    stage_if(&b, last, k->s[na - 1], wr);
    transform(&b, SIG_R2C, last, k->s[na - 1], k->s[na - 1] / 2 + 1, wc);
    for (int i = 0; i < na - 1; i++) {
      stage_if(&b, k->axes[i], k->s[i], wc);
      transform(&b, SIG_C2C, k->axes[i], k->s[i], k->s[i], wc)->sign = -1;
    }
    /* ihfftn is conj(rfftn) with the norm's direction reversed. */
    p->conj_out = k->kind == CUSCI_FFT_KIND_IHFFT;
    scaled = k->norm == (p->conj_out ? CUSCI_FFT_BACKWARD : CUSCI_FFT_FORWARD);
    p->odt = wc;
    break;
  case CUSCI_FFT_KIND_IRFFT:
  case CUSCI_FFT_KIND_HFFT:
    /* hfftn is irfftn of conj(x) with the norm's direction reversed. */
    if (k->kind == CUSCI_FFT_KIND_HFFT)
      stage(&b, -1, 0, wc, true);
    for (int i = 0; i < na - 1; i++) {
      stage_if(&b, k->axes[i], k->s[i], wc);
      transform(&b, SIG_C2C, k->axes[i], k->s[i], k->s[i], wc)->sign = 1;
    }
    /* Always a copy: cuFFT's complex-to-real transform overwrites it. */
    stage(&b, last, k->s[na - 1] / 2 + 1, wc, false);
    p->steps[p->nsteps - 1].herm = k->s[na - 1];
    transform(&b, SIG_C2R, last, k->s[na - 1], k->s[na - 1], wr);
    scaled = k->norm == (k->kind == CUSCI_FFT_KIND_HFFT ? CUSCI_FFT_FORWARD : CUSCI_FFT_BACKWARD);
    p->odt = wr;
    break;
  default: {
    const bool sine = k->kind == SIG_DST || k->kind == SIG_IDST, inverse = k->kind == SIG_IDCT || k->kind == SIG_IDST;
    const int t = inverse && (k->type == 2 || k->type == 3) ? 5 - k->type : k->type;
    for (int i = 0; i < na; i++) {
      stage_if(&b, k->axes[i], k->s[i], wr);
      sig_step *st = transform(&b, SIG_DCTSTEP, k->axes[i], k->s[i], k->s[i], wr);
      st->type = t;
      st->sine = sine;
      p->scale *= dct_axis(st, t, sine, k->s[i], k->norm, inverse);
    }
    p->odt = wr;
    total = 1.0;
  }
  }
  if (k->kind < SIG_DCT)
    p->scale = k->norm == CUSCI_FFT_ORTHO ? 1.0 / sqrt(total) : scaled ? 1.0 / total : 1.0;
  memcpy(p->oshape, b.cur.shape, sizeof p->oshape);
  p->steps[p->nsteps - 1].dst.buf = SIG_OUT;
  for (int i = 0; i < p->nsteps; i++) {
    const sig_view *d = &p->steps[i].dst;
    size_t n = view_bytes(d, nd);
    if (d->buf != SIG_OUT && n > p->bytes[d->buf])
      p->bytes[d->buf] = n;
  }
}

/* ------------------------------------------------------------ cuFFT */

static bool single(cusci_dtype dt)
{
  return dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64;
}

static void need(cusci_fft_plan *p, int buf, size_t n)
{
  if (n > p->bytes[buf])
    p->bytes[buf] = n;
}

/* The view with `axis` moved last, C-contiguous. */
static void axis_last(const sig_view *v, int ndim, int axis, sig_view *t)
{
  *t = *v;
  int j = 0;
  for (int i = 0; i < ndim; i++)
    if (i != axis)
      t->shape[j++] = v->shape[i];
  t->shape[ndim - 1] = v->shape[axis];
  contiguous(t, ndim);
}

static int64_t lines_of(const sig_view *v, int ndim, int axis)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    if (i != axis)
      n *= v->shape[i];
  return n;
}

static int gpu_op(int op)
{
  return op == SIG_C2C ? CUSCI__SIG_C2C : op == SIG_R2C ? CUSCI__SIG_R2C : CUSCI__SIG_C2R;
}

/* The cuFFT plan of a transform step and the buffers it needs. */
static cusci_status gpu_step(cusci_ctx *ctx, const char *fn, cusci_fft_plan *p, sig_step *st)
{
  const int nd = p->key.ndim, ax = st->axis;
  const bool f32 = single(st->dst.dt) || (st->op == SIG_C2R && single(st->src.dt));
  int64_t batch = 1, istride = 1, ostride = 1, idist, odist, n = st->n;
  int op;
  if (st->op != SIG_DCTSTEP && n == 1) {
    st->trivial = true;
    return CUSCI_OK;
  }
  if (st->op == SIG_DCTSTEP) {
    /* Rows with the axis last, their extensions, the real transform. */
    const int64_t len = cusci__dct_len(st->type, st->sine, n), rows = lines_of(&st->src, nd, ax);
    bool direct = ax == nd - 1 && st->src.buf != SIG_IN;
    for (int i = 0; i < nd && direct; i++)
      direct = st->src.strides[i] == st->dst.strides[i];
    st->trans = !direct;
    if (st->trans) {
      need(p, SIG_TA, view_bytes(&st->src, nd));
      need(p, SIG_TB, view_bytes(&st->dst, nd));
    }
    const size_t rsz = cusci_dtype_itemsize(st->dst.dt);
    need(p, SIG_DA, (size_t)(rows * len) * rsz);
    need(p, SIG_DB, (size_t)(rows * (len / 2 + 1)) * 2 * rsz);
    op = CUSCI__SIG_R2C;
    n = len, batch = rows, idist = len, odist = len / 2 + 1;
  } else {
    int64_t ext[SIG_MAXD], si[SIG_MAXD], so[SIG_MAXD];
    int nb = 0;
    bool ok = st->src.strides[ax] > 0;
    for (int i = 0; i < nd; i++) {
      if (i == ax || st->src.shape[i] == 1)
        continue;
      const int64_t e = st->src.shape[i], a = st->src.strides[i], c = st->dst.strides[i];
      if (a <= 0)
        ok = false;
      if (nb && si[nb - 1] == a * e && so[nb - 1] == c * e) {
        ext[nb - 1] *= e, si[nb - 1] = a, so[nb - 1] = c;
      } else {
        ext[nb] = e, si[nb] = a, so[nb] = c;
        nb++;
      }
    }
    const int64_t inlen = st->src.shape[ax], outlen = st->dst.shape[ax];
    idist = inlen, odist = outlen;
    istride = st->src.strides[ax], ostride = st->dst.strides[ax];
    if (ok && nb == 1) {
      batch = ext[0], idist = si[0], odist = so[0];
    } else if (ok && nb == 2 && ext[0] <= 64) {
      st->loops = ext[0], st->lin = si[0], st->lout = so[0];
      batch = ext[1], idist = si[1], odist = so[1];
    } else if (!(ok && nb == 0)) {
      st->trans = true;
      batch = lines_of(&st->src, nd, ax);
      istride = ostride = 1, idist = inlen, odist = outlen;
      need(p, SIG_TA, view_bytes(&st->src, nd));
      need(p, SIG_TB, view_bytes(&st->dst, nd));
    }
    op = gpu_op(st->op);
  }
  int code = cusci__sig_cufft_plan(op, f32, n, batch, istride, idist, ostride, odist, &st->handle, &st->work);
  if (code)
    return cusci_ctx_gpu_status(ctx, fn, "cufftMakePlanMany64", code);
  st->has_handle = true;
  if (st->work > p->work)
    p->work = st->work;
  return CUSCI_OK;
}

/* ------------------------------------------------------------ plans */

void cusci__sig_plan_free(cusci_fft_plan *p)
{
  if (!p)
    return;
  for (int i = 0; i < p->nsteps; i++) {
    sig_step *st = &p->steps[i];
    if (st->has_handle)
      cusci__sig_cufft_destroy(st->handle);
    if (st->host) {
      cusci__sig_lines l = { .op = st->op - SIG_C2C, .n = st->n, .type = st->type, .sine = st->sine };
      cusci__sig_lines_free(&l, single(st->dst.dt) || (st->op == SIG_C2R && single(st->src.dt)), st->host);
    }
  }
  free(p->steps);
  free(p);
}

cusci_status cusci__sig_plan(cusci_ctx *ctx, const char *fn, const sig_key *key, cusci_fft_plan **plan)
{
  *plan = NULL;
  cusci_fft_plan *p = calloc(1, sizeof *p);
  if (p)
    p->steps = calloc((size_t)(3 * key->naxes + 2), sizeof *p->steps);
  if (!p || !p->steps) {
    free(p);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a plan");
  }
  p->ctx = ctx;
  p->gpu = cusci_ctx_device(ctx) >= 0;
  p->key = *key;
  build(p);
  cusci_status st = p->gpu ? cusci_ctx_use_device(ctx, fn) : CUSCI_OK;
  for (int i = 0; i < p->nsteps && st == CUSCI_OK; i++) {
    sig_step *s = &p->steps[i];
    if (s->op == SIG_STAGE)
      continue;
    if (p->gpu) {
      st = gpu_step(ctx, fn, p, s);
    } else {
      cusci__sig_lines l = { .op = s->op - SIG_C2C, .n = s->n, .type = s->type, .sine = s->sine };
      s->host = cusci__sig_lines_plan(&l, single(s->dst.dt) || (s->op == SIG_C2R && single(s->src.dt)));
      if (!s->host)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the plan of a transform of length %lld", (long long)s->n);
    }
  }
  if (st != CUSCI_OK) {
    cusci__sig_plan_free(p);
    return st;
  }
  size_t at = 0;
  for (int b = SIG_WA; b < SIG_NBUF; b++) {
    p->off[b] = at;
    at += (p->bytes[b] + 255) / 256 * 256;
  }
  p->stage_bytes = at;
  *plan = p;
  return CUSCI_OK;
}

/* ------------------------------------------------------------ running */

typedef struct runner {
  cusci_ctx *ctx;
  const char *fn;
  cusci_fft_plan *p;
  char *base[SIG_NBUF];
  void *work;
} runner;

static cusci_status wrap(runner *r, const sig_view *v, cusci_array **a)
{
  *a = NULL;
  return cusci_array_wrap(r->ctx, r->base[v->buf], r->p->key.ndim, v->shape, v->strides, v->dt, a);
}

static cusci_status gpu(runner *r, const char *what, int code)
{
  return code ? cusci_ctx_gpu_status(r->ctx, r->fn, what, code) : CUSCI_OK;
}

/* Zeros over the whole of view v (C-contiguous). */
static cusci_status zero(runner *r, const sig_view *v)
{
  size_t n = view_bytes(v, r->p->key.ndim);
  if (!r->p->gpu) {
    memset(r->base[v->buf], 0, n);
    return CUSCI_OK;
  }
  return gpu(r, "cudaMemsetAsync", cusci__sig_zero(cusci_ctx_stream(r->ctx), r->base[v->buf], n));
}

/* The elements of v (C-contiguous) times scale, conjugated when conj. */
static cusci_status scale(runner *r, const sig_view *v, double s, bool conj)
{
  const bool cx = cusci_dtype_kind(v->dt) == 'c', f32 = single(v->dt);
  int64_t n = 1;
  for (int i = 0; i < r->p->key.ndim; i++)
    n *= v->shape[i];
  if (r->p->gpu)
    return gpu(r, "the scale kernel", cusci__sig_scale(cusci_ctx_stream(r->ctx), f32, cx, n, r->base[v->buf], s, conj && cx));
  if (f32) {
    float *x = (float *)r->base[v->buf];
    for (int64_t i = 0; i < (cx ? 2 * n : n); i++)
      x[i] = (conj && cx && (i & 1) ? -1.0f : 1.0f) * ((float)s * x[i]);
  } else {
    double *x = (double *)r->base[v->buf];
    for (int64_t i = 0; i < (cx ? 2 * n : n); i++)
      x[i] = (conj && cx && (i & 1) ? -1.0 : 1.0) * (s * x[i]);
  }
  return CUSCI_OK;
}

/* Copy the view src into dst (same dtype), both as arrays of the plan's
 * rank, through core's copy; perm: view src through this permutation
 * first (transposing copies), or NULL. */
static cusci_status copy_view(runner *r, const sig_view *src, const int *sperm, const sig_view *dst, const int *dperm)
{
  cusci_array *a = NULL, *b = NULL, *at = NULL, *bt = NULL;
  cusci_status st = wrap(r, src, &a);
  if (st == CUSCI_OK)
    st = wrap(r, dst, &b);
  if (st == CUSCI_OK && sperm)
    st = cusci_array_transpose(r->ctx, a, sperm, &at);
  if (st == CUSCI_OK && dperm)
    st = cusci_array_transpose(r->ctx, b, dperm, &bt);
  if (st == CUSCI_OK) {
    cusci_array *o = bt ? bt : b;
    st = cusci_array_copy(r->ctx, at ? at : a, &o);
  }
  cusci_array_release(a), cusci_array_release(b), cusci_array_release(at), cusci_array_release(bt);
  return st;
}

static cusci_status run_stage(runner *r, const sig_step *s)
{
  const int nd = r->p->key.ndim;
  bool pad = false;
  int64_t stop[SIG_MAXD];
  for (int i = 0; i < nd; i++) {
    stop[i] = s->src.shape[i] < s->dst.shape[i] ? s->src.shape[i] : s->dst.shape[i];
    pad |= s->dst.shape[i] > s->src.shape[i];
  }
  if (pad)
    CUSCI_TRY(zero(r, &s->dst));
  bool none = false;
  for (int i = 0; i < nd; i++)
    none |= stop[i] == 0;
  if (none)
    return CUSCI_OK; /* nothing to copy: an empty input padded */
  cusci_array *a = NULL, *b = NULL, *av = NULL, *bv = NULL;
  cusci_status st = wrap(r, &s->src, &a);
  if (st == CUSCI_OK)
    st = wrap(r, &s->dst, &b);
  if (st == CUSCI_OK)
    st = cusci_array_slice(r->ctx, a, NULL, stop, NULL, &av);
  if (st == CUSCI_OK)
    st = cusci_array_slice(r->ctx, b, NULL, stop, NULL, &bv);
  if (st == CUSCI_OK)
    st = cusci_array_astype(r->ctx, av, s->dst.dt, true, &bv);
  cusci_array_release(a), cusci_array_release(b), cusci_array_release(av), cusci_array_release(bv);
  if (st == CUSCI_OK && s->conj)
    st = scale(r, &s->dst, 1.0, true);
  if (st == CUSCI_OK && s->herm && r->p->gpu) {
    const int ax = r->p->steps[(s - r->p->steps) + 1].axis;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < nd; i++)
      *(i < ax ? &outer : &inner) *= i == ax ? 1 : s->dst.shape[i];
    st = gpu(r, "the Hermitian kernel",
             cusci__sig_hermitian(cusci_ctx_stream(r->ctx), single(s->dst.dt), outer, s->dst.shape[ax], inner, s->herm % 2 ? -1 : s->herm / 2,
                                  r->base[s->dst.buf]));
  }
  return st;
}

static cusci_status run_host(runner *r, const sig_step *s)
{
  const int nd = r->p->key.ndim;
  cusci__sig_lines l = { .op = s->op - SIG_C2C, .sign = s->sign, .type = s->type, .sine = s->sine, .n = s->n, .ndim = nd,
                         .axis = s->axis, .shape = s->src.shape, .sstr = s->src.strides, .dstr = s->dst.strides, .scale = 1.0,
                         .pre0 = s->pre0, .preN = s->preN, .post0 = s->post0, .postN = s->postN };
  if (lines_of(&s->src, nd, s->axis) == 0)
    return CUSCI_OK;
  const bool f32 = single(s->dst.dt) || (s->op == SIG_C2R && single(s->src.dt));
  cusci__sig_lines_run(&l, f32, s->host, r->base[s->src.buf], r->base[s->dst.buf]);
  return CUSCI_OK;
}

/* The permutation that moves axis last, and its inverse. */
static void perms(int nd, int axis, int *fwd, int *inv)
{
  int j = 0;
  for (int i = 0; i < nd; i++)
    if (i != axis)
      fwd[j++] = i;
  fwd[nd - 1] = axis;
  for (int i = 0; i < nd; i++)
    inv[fwd[i]] = i;
}

static cusci_status run_gpu(runner *r, const sig_step *s)
{
  const int nd = r->p->key.ndim;
  void *stream = cusci_ctx_stream(r->ctx);
  if (lines_of(&s->src, nd, s->axis) == 0)
    return CUSCI_OK;
  if (s->trivial) {
    /* One point: X_0 = x_0, as a real or complex value. */
    cusci_array *a = NULL, *b = NULL;
    cusci_status st = wrap(r, &s->src, &a);
    if (st == CUSCI_OK)
      st = wrap(r, &s->dst, &b);
    if (st == CUSCI_OK)
      st = cusci_array_astype(r->ctx, a, s->dst.dt, true, &b);
    cusci_array_release(a), cusci_array_release(b);
    return st;
  }
  int fwd[SIG_MAXD], inv[SIG_MAXD];
  perms(nd, s->axis, fwd, inv);
  sig_view ta, tb;
  axis_last(&s->src, nd, s->axis, &ta);
  axis_last(&s->dst, nd, s->axis, &tb);
  ta.buf = SIG_TA, tb.buf = SIG_TB;
  if (s->trans)
    CUSCI_TRY(copy_view(r, &s->src, fwd, &ta, NULL));
  const char *in = s->trans ? r->base[SIG_TA] : r->base[s->src.buf];
  char *out = s->trans ? r->base[SIG_TB] : r->base[s->dst.buf];
  const bool f32 = single(s->dst.dt) || (s->op == SIG_C2R && single(s->src.dt));
  if (s->op == SIG_DCTSTEP) {
    const int64_t len = cusci__dct_len(s->type, s->sine, s->n), rows = lines_of(&s->src, nd, s->axis);
    CUSCI_TRY(gpu(r, "the DCT extension kernel",
                  cusci__sig_dct_extend(stream, f32, s->type, s->sine, rows, s->n, len, in, r->base[SIG_DA], s->pre0, s->preN)));
    CUSCI_TRY(gpu(r, "cufftExec", cusci__sig_cufft_exec(stream, s->handle, CUSCI__SIG_R2C, f32, -1, r->work, r->base[SIG_DA], r->base[SIG_DB])));
    CUSCI_TRY(gpu(r, "the DCT extraction kernel",
                  cusci__sig_dct_extract(stream, f32, s->type, s->sine, rows, s->n, len, r->base[SIG_DB], out, 1.0, s->post0, s->postN)));
  } else {
    const size_t isz = cusci_dtype_itemsize(s->src.dt), osz = cusci_dtype_itemsize(s->dst.dt);
    for (int64_t l = 0; l < s->loops; l++)
      CUSCI_TRY(gpu(r, "cufftExec",
                    cusci__sig_cufft_exec(stream, s->handle, gpu_op(s->op), f32, s->sign, r->work, in + (size_t)(l * s->lin) * isz,
                                    out + (size_t)(l * s->lout) * osz)));
  }
  if (s->trans)
    CUSCI_TRY(copy_view(r, &tb, NULL, &s->dst, fwd));
  return CUSCI_OK;
}

cusci_status cusci__sig_run(cusci_ctx *ctx, const char *fn, cusci_fft_plan *p, const cusci_array *x, void *stage, void *work, cusci_array **out)
{
  const int nd = p->key.ndim;
  cusci_array *res = NULL, *held = NULL;
  CUSCI_TRY(cusci_check_out(ctx, fn, out, nd, p->oshape, p->odt, CUSCI_CASTING_NO));
  if (*out && cusci_array_is_c_contiguous(*out))
    res = cusci_array_retain(*out);
  else
    CUSCI_TRY(cusci_array_empty(ctx, nd, p->oshape, p->odt, &res));
  cusci_status st = CUSCI_OK;
  if (!stage && p->stage_bytes)
    st = cusci_workspace_take(ctx, fn, NULL, 0, p->stage_bytes, &stage, &held);
  runner r = { ctx, fn, p, { 0 }, work };
  r.base[SIG_IN] = cusci_array_data(x);
  r.base[SIG_OUT] = cusci_array_data(res);
  for (int b = SIG_WA; b < SIG_NBUF; b++)
    r.base[b] = (char *)stage + p->off[b];
  bool empty = cusci_array_size(res) == 0;
  for (int i = 0; i < p->nsteps && st == CUSCI_OK && !empty; i++) {
    const sig_step *s = &p->steps[i];
    st = s->op == SIG_STAGE ? run_stage(&r, s) : p->gpu ? run_gpu(&r, s) : run_host(&r, s);
  }
  if (st == CUSCI_OK && !empty && (p->scale != 1.0 || p->conj_out)) {
    sig_view o = p->steps[p->nsteps - 1].dst;
    st = scale(&r, &o, p->scale, p->conj_out);
  }
  cusci_array_release(held);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  if (res == *out) {
    cusci_array_release(res);
    return CUSCI_OK;
  }
  return cusci_give_out(ctx, fn, res, out);
}
