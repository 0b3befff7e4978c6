/*
 * liblinalg/qr.c: scipy.linalg.qr, rq and lstsq.
 *
 * qr runs on LAPACKE geqrf / geqp3 + orgqr on the host and on cuSOLVER
 * Xgeqrf + orgqr on a GPU. cuSOLVER has no column-pivoted QR (geqp3), so
 * qr with pivoting on a GPU array is done explicitly on the host: the
 * matrix is copied to the host, factored by LAPACKE geqp3, and Q, R and P
 * are copied back. rq is composed from qr of the flipped conjugate
 * transpose on either backend. lstsq calls LAPACKE's gelsd / gelss / gelsy
 * on the host, and on a GPU solves through an SVD (of the triangular
 * factor of a QR factorization) and two matrix products, with the same
 * rank cutoff.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "liblinalg/qr_internal.h"
#include "reference/linalg/qr.h"

static double eps_of(cusci_dtype dt) { return dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? FLT_EPSILON : DBL_EPSILON; }

static cusci_status lapack_fail(cusci_ctx *ctx, const char *fn, int info)
{
  if (info == -1010 || info == -1011)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "LAPACKE could not allocate its workspace");
  return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "LAPACKE rejected argument %d", -info);
}

/* ------------------------------------------------------------------ qr */

/*
 * The QR factorization on the host buffers of a batch (a C-contiguous
 * copy in the working dtype, read to the host when it lives on a GPU):
 * the host backend, and the explicit host path of pivoted QR on a GPU.
 */
static cusci_status qr_on_host(cusci_ctx *ctx, const char *fn, cusci_array *w, cusci_dtype dt, int64_t batch, int64_t m, int64_t n,
                               int64_t rrows, int64_t qcols, bool pivoting, bool check_finite, void **hq, void **hr, int32_t **hp)
{
  size_t isz = cusci_dtype_itemsize(dt);
  size_t na = (size_t)(batch * m * n), nq = (size_t)(batch * m * qcols), nr = (size_t)(batch * rrows * n), np = (size_t)(batch * n);
  void *ha = cusci__la_on_host(ctx) ? cusci_array_data(w) : malloc(na * isz + 1);
  *hq = malloc(nq * isz + 1);
  *hr = malloc(nr * isz + 1);
  *hp = pivoting ? malloc(np * sizeof(int32_t) + 1) : NULL;
  cusci_status st = CUSCI_OK;
  if (!ha || !*hq || !*hr || (pivoting && !*hp))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the factors");
  if (st == CUSCI_OK && !cusci__la_on_host(ctx))
    st = cusci_array_to_host(ctx, w, ha, na * isz);
  if (st == CUSCI_OK && check_finite && cusci__ref_la_nonfinite(dt, (int64_t)na, ha))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
  if (st == CUSCI_OK && na > 0) {
    int info = cusci__ref_la_qr(dt, batch, m, n, rrows, qcols, ha, *hq, *hr, *hp);
    if (info != 0)
      st = lapack_fail(ctx, fn, info);
  }
  if (st == CUSCI_OK && na == 0) {
    /* An empty matrix: R is empty or zero, Q the identity, P the order. */
    memset(*hr, 0, nr * isz);
    memset(*hq, 0, nq * isz);
    for (int64_t b = 0; b < batch; b++)
      for (int64_t i = 0; i < m && i < qcols; i++)
        memcpy((char *)*hq + (size_t)(b * m * qcols + i * qcols + i) * isz,
               dt == CUSCI_FLOAT32 ? (const void *)&(float){ 1 } : dt == CUSCI_FLOAT64 ? (const void *)&(double){ 1 }
               : dt == CUSCI_COMPLEX64 ? (const void *)(float[2]){ 1, 0 } : (const void *)(double[2]){ 1, 0 }, isz);
    for (int64_t i = 0; pivoting && i < (int64_t)np; i++)
      (*hp)[i] = (int32_t)(i % (n ? n : 1));
  }
  if (!cusci__la_on_host(ctx))
    free(ha);
  if (st != CUSCI_OK) {
    free(*hq), free(*hr), free(*hp);
    *hq = *hr = NULL;
    *hp = NULL;
  }
  return st;
}

cusci_status cusci_linalg_qr(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_qr_opts *opts, cusci_array **q, cusci_array **r,
                             cusci_array **p)
{
  static const char fn[] = "cusci_linalg_qr";
  cusci_linalg_qr_opts o = opts ? *opts : (cusci_linalg_qr_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  if ((int)o.mode < 0 || o.mode > CUSCI_LINALG_QR_ECONOMIC)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "mode %d is not full, r or economic", (int)o.mode);
  bool want_q = o.mode != CUSCI_LINALG_QR_R;
  if (!r || (want_q && !q) || (o.pivoting && !p))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "an output pointer is NULL (q%s, r%s)", want_q ? "" : " unless mode is r",
                          o.pivoting ? " and p" : "");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nb], n = sh[nb + 1], K = m < n ? m : n, batch = cusci__la_prod(nb, sh);
  int64_t qcols = !want_q ? 0 : o.mode == CUSCI_LINALG_QR_FULL ? m : K;
  int64_t rrows = o.mode == CUSCI_LINALG_QR_ECONOMIC ? K : m;
  if (cusci__la_on_host(ctx) && (m > INT32_MAX || n > INT32_MAX || (m > 0 && n > INT32_MAX / m) || (m > 0 && qcols > INT32_MAX / m)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix exceeds LAPACK's int on the host", (long long)m, (long long)n);
  int64_t qs[CUSCI_MAX_NDIM], rs[CUSCI_MAX_NDIM], ps[CUSCI_MAX_NDIM];
  memcpy(qs, sh, sizeof *sh * (size_t)nb);
  memcpy(rs, sh, sizeof *sh * (size_t)nb);
  memcpy(ps, sh, sizeof *sh * (size_t)nb);
  qs[nb] = m, qs[nb + 1] = qcols;
  rs[nb] = rrows, rs[nb + 1] = n;
  ps[nb] = n;
  if (want_q)
    TRY(cusci_check_out(ctx, fn, q, nd, qs, dt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, r, nd, rs, dt, CUSCI_CASTING_NO));
  if (o.pivoting)
    TRY(cusci_check_out(ctx, fn, p, nb + 1, ps, CUSCI_INT32, CUSCI_CASTING_NO));

  cusci_array *w = NULL, *rq = NULL, *rr = NULL, *rp = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)a, dt, true, &w);
  if (st == CUSCI_OK && (cusci__la_on_host(ctx) || o.pivoting || batch * m * n == 0)) {
    void *hq = NULL, *hr = NULL;
    int32_t *hp = NULL;
    st = qr_on_host(ctx, fn, w, dt, batch, m, n, rrows, qcols, o.pivoting, !o.no_check_finite, &hq, &hr, &hp);
    if (st == CUSCI_OK && want_q)
      st = cusci_array_from_host(ctx, hq, nd, qs, dt, &rq);
    if (st == CUSCI_OK)
      st = cusci_array_from_host(ctx, hr, nd, rs, dt, &rr);
    if (st == CUSCI_OK && o.pivoting)
      st = cusci_array_from_host(ctx, hp, nb + 1, ps, CUSCI_INT32, &rp);
    free(hq), free(hr), free(hp);
  } else if (st == CUSCI_OK) {
    if (qcols > 0)
      st = cusci__la_check_int(ctx, fn, "cuSOLVER's orgqr", m, qcols);
    if (st == CUSCI_OK && want_q)
      st = cusci_array_empty(ctx, nd, qs, dt, &rq);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, nd, rs, dt, &rr);
    bool nonfinite = false;
    if (st == CUSCI_OK)
      CUSCI__LA_GPU(st, ctx, fn, batch, o.no_check_finite ? 0 : CUSCI__LA_WORDS, NULL, &nonfinite, cusci__launch_la_qr, dt, !o.no_check_finite,
                    batch, m, n, rrows, qcols, cusci_array_data(w), want_q ? cusci_array_data(rq) : NULL, cusci_array_data(rr));
    if (st == CUSCI_OK && nonfinite)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
  }
  cusci_array_release(w);
  return cusci__la_give_all(ctx, fn, st, 3, (cusci_array *[]){ rq, rr, rp },
                            (cusci_array **[]){ want_q ? q : NULL, r, o.pivoting ? p : NULL });
}

/* ------------------------------------------------------------------ rq */

/* x^H over the last two axes, or J x^H J when flip (J the reversal): a
 * C-contiguous array. */
static cusci_status conj_t(cusci_ctx *ctx, cusci_array *x, bool flip, cusci_array **out)
{
  int nd = cusci_array_ndim(x);
  int64_t start[CUSCI_MAX_NDIM], stop[CUSCI_MAX_NDIM], step[CUSCI_MAX_NDIM];
  int axes[CUSCI_MAX_NDIM];
  for (int i = 0; i < nd; i++) {
    start[i] = stop[i] = CUSCI_SLICE_NONE;
    step[i] = flip && i >= nd - 2 ? -1 : 1;
    axes[i] = i;
  }
  axes[nd - 2] = nd - 1;
  axes[nd - 1] = nd - 2;
  cusci_array *f = NULL, *t = NULL;
  *out = NULL;
  cusci_status st = cusci_array_slice(ctx, x, start, stop, step, &f);
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, f, axes, &t);
  if (st == CUSCI_OK)
    st = cusci_dtype_is_complex(cusci_array_dtype(t)) ? cusci_conj(ctx, t, out) : cusci_array_ascontiguousarray(ctx, t, out);
  cusci_array_release(f);
  cusci_array_release(t);
  return st;
}

/*
 * scipy.linalg.rq: A = R Q. With B = J A^H J (J the reversals of the
 * matching sizes) and B = Q1 R1 its QR factorization,
 * A = (J R1^H J)(J Q1^H J): R = J R1^H J is upper trapezoidal in RQ's
 * sense (zero where j < i + n - m) and Q = J Q1^H J has orthonormal rows.
 */
cusci_status cusci_linalg_rq(cusci_ctx *ctx, const cusci_array *a, const cusci_linalg_rq_opts *opts, cusci_array **r, cusci_array **q)
{
  static const char fn[] = "cusci_linalg_rq";
  cusci_linalg_rq_opts o = opts ? *opts : (cusci_linalg_rq_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  if ((int)o.mode < 0 || o.mode > CUSCI_LINALG_QR_ECONOMIC)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "mode %d is not full, r or economic", (int)o.mode);
  bool want_q = o.mode != CUSCI_LINALG_QR_R;
  if (!r || (want_q && !q))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "an output pointer is NULL");
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a), nb = nd - 2;
  const int64_t *sh = cusci_array_shape(a);
  int64_t m = sh[nb], n = sh[nb + 1], K = m < n ? m : n;
  int64_t k = o.mode == CUSCI_LINALG_QR_ECONOMIC ? K : n;
  int64_t rs[CUSCI_MAX_NDIM], qs[CUSCI_MAX_NDIM];
  memcpy(rs, sh, sizeof *sh * (size_t)nb);
  memcpy(qs, sh, sizeof *sh * (size_t)nb);
  rs[nb] = m, rs[nb + 1] = k;
  qs[nb] = k, qs[nb + 1] = n;
  TRY(cusci_check_out(ctx, fn, r, nd, rs, dt, CUSCI_CASTING_NO));
  if (want_q)
    TRY(cusci_check_out(ctx, fn, q, nd, qs, dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL, *b = NULL, *q1 = NULL, *r1 = NULL, *rr = NULL, *rq = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)a, dt, false, &w);
  if (st == CUSCI_OK)
    st = conj_t(ctx, w, true, &b);
  /* Mode r needs only R1, which is full mode's. */
  cusci_linalg_qr_opts qo = { .mode = o.mode, .no_check_finite = o.no_check_finite };
  if (st == CUSCI_OK)
    st = cusci_linalg_qr(ctx, b, &qo, want_q ? &q1 : NULL, &r1, NULL);
  if (st == CUSCI_OK)
    st = conj_t(ctx, r1, true, &rr);
  if (st == CUSCI_OK && want_q)
    st = conj_t(ctx, q1, true, &rq);
  cusci_array_release(w), cusci_array_release(b), cusci_array_release(q1), cusci_array_release(r1);
  return cusci__la_give_all(ctx, fn, st, 2, (cusci_array *[]){ rr, rq }, (cusci_array **[]){ r, want_q ? q : NULL });
}

/* ------------------------------------------------- the accurate SVD */

cusci_status cusci__la_svd_accurate(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_array **u, cusci_array **s, cusci_array **vh)
{
  if (cusci__la_on_host(ctx))
    return cusci_linalg_svd(ctx, a, false, true, u, s, vh);
  int nd = cusci_array_ndim(a);
  int64_t m = cusci_array_shape(a)[nd - 2], n = cusci_array_shape(a)[nd - 1];
  cusci_linalg_qr_opts qo = { .mode = CUSCI_LINALG_QR_ECONOMIC };
  cusci_array *b = NULL, *q = NULL, *r = NULL, *rh = NULL, *u1 = NULL, *v1h = NULL, *v1 = NULL, *v = NULL;
  cusci_status st = CUSCI_OK;
  (void)fn;
  if (m >= n) {
    /* a = Q R, R = Ur S Vh: a = (Q Ur) S Vh. */
    st = cusci_linalg_qr(ctx, a, &qo, &q, &r, NULL);
    if (st == CUSCI_OK)
      st = cusci_linalg_svd(ctx, r, true, true, &u1, s, vh);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, q, u1, u);
  } else {
    /* a^H = Q R, R^H = U1 S V1^H: a = U1 S (Q V1)^H. */
    st = conj_t(ctx, (cusci_array *)a, false, &b);
    if (st == CUSCI_OK)
      st = cusci_linalg_qr(ctx, b, &qo, &q, &r, NULL);
    if (st == CUSCI_OK)
      st = conj_t(ctx, r, false, &rh);
    if (st == CUSCI_OK)
      st = cusci_linalg_svd(ctx, rh, true, true, u, s, &v1h);
    if (st == CUSCI_OK)
      st = conj_t(ctx, v1h, false, &v1);
    if (st == CUSCI_OK)
      st = cusci_linalg_matmul(ctx, q, v1, &v);
    if (st == CUSCI_OK)
      st = conj_t(ctx, v, false, vh);
  }
  cusci_array *rel[] = { b, q, r, rh, u1, v1h, v1, v };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);
  if (st != CUSCI_OK) {
    cusci_array_release(*u), cusci_array_release(*s), cusci_array_release(*vh);
    *u = *s = *vh = NULL;
  }
  return st;
}

/* --------------------------------------------------------------- lstsq */

/* True when any element of x is inf or NaN (on x's device). */
static cusci_status any_nonfinite(cusci_ctx *ctx, cusci_array *x, bool *bad)
{
  cusci_array *f = NULL, *all = NULL;
  bool ok = true;
  cusci_status st = cusci_isfinite(ctx, x, &f);
  if (st == CUSCI_OK)
    st = cusci_all(ctx, f, NULL, &all);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, all, &ok, sizeof ok);
  cusci_array_release(f), cusci_array_release(all);
  *bad = !ok;
  return st;
}

/*
 * The SVD route of lstsq (the GPU path), for a batch: with A = U diag(s)
 * V^H (the accurate SVD, so that the rank is decided on exact small
 * values), x = V diag(s+) U^H b, s+ = 1/s for s > cond * s[0], else 0,
 * which is the minimum-norm least-squares solution gelsd computes; the rank
 * is the count of s kept. a (B, m, n), b (B, m, k) in dtype dt; x
 * (B, n, k), s (B, K), rank[B] on the host.
 */
static cusci_status lstsq_svd(cusci_ctx *ctx, const char *fn, cusci_array *a, cusci_array *b, double cond, cusci_array **x, cusci_array **s,
                              int64_t *rank)
{
  cusci_dtype dt = cusci_array_dtype(a), rt = cusci_dtype_real_of(dt);
  int64_t B = cusci_array_shape(a)[0], m = cusci_array_shape(a)[1], n = cusci_array_shape(a)[2], K = m < n ? m : n;
  cusci_array *u = NULL, *vh = NULL, *uh = NULL, *v = NULL, *c = NULL, *d = NULL, *cd = NULL, *s64 = NULL;
  cusci_status st = cusci__la_svd_accurate(ctx, fn, a, &u, s, &vh);
  double *hs = malloc(sizeof *hs * (size_t)(B * K + 1)), *dv = malloc(sizeof *dv * (size_t)(B * K + 1));
  if (st == CUSCI_OK && (!hs || !dv))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, *s, CUSCI_FLOAT64, true, &s64);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, s64, hs, sizeof *hs * (size_t)(B * K));
  for (int64_t i = 0; st == CUSCI_OK && i < B; i++) {
    rank[i] = 0;
    for (int64_t j = 0; j < K; j++) {
      bool keep = hs[i * K + j] > cond * hs[i * K];
      dv[i * K + j] = keep ? 1.0 / hs[i * K + j] : 0.0;
      rank[i] += keep;
    }
  }
  int64_t dshape[3] = { B, K, 1 };
  cusci_array *d64 = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, dv, 3, dshape, CUSCI_FLOAT64, &d64);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, d64, rt, false, &d);
  cusci_array_release(d64);
  free(hs), free(dv);
  if (st == CUSCI_OK)
    st = conj_t(ctx, u, false, &uh);
  if (st == CUSCI_OK)
    st = conj_t(ctx, vh, false, &v);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, uh, b, &c);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, c, d, &cd);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, v, cd, x);
  cusci_array *all[] = { u, vh, uh, v, c, d, cd, s64 };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    cusci_array_release(all[i]);
  return st;
}

/* sum |r|^2 over axis -2 of r (B, rows, k): (B, k), real. */
static cusci_status sum_sq_rows(cusci_ctx *ctx, cusci_array *r, cusci_array **out)
{
  cusci_array *ab = NULL, *sq = NULL;
  int ax = 1;
  cusci_status st = cusci_abs(ctx, r, &ab);
  if (st == CUSCI_OK)
    st = cusci_square(ctx, ab, &sq);
  if (st == CUSCI_OK)
    st = cusci_sum(ctx, sq, &(cusci_reduce_opts){ .naxes = 1, .axes = &ax }, out);
  cusci_array_release(ab), cusci_array_release(sq);
  return st;
}

/* An array of shape `batch` + tail (ntail extents) from r, a copy. */
static cusci_status reshape_out(cusci_ctx *ctx, cusci_array *r, int nb, const int64_t *bshape, int ntail, const int64_t *tail, cusci_array **out)
{
  int64_t shape[CUSCI_MAX_NDIM + 2];
  memcpy(shape, bshape, sizeof *shape * (size_t)nb);
  memcpy(shape + nb, tail, sizeof *shape * (size_t)ntail);
  cusci_array *v = NULL;
  cusci_status st = cusci_array_reshape(ctx, r, nb + ntail, shape, &v);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, v, out);
  cusci_array_release(v);
  return st;
}

/*
 * scipy.linalg.lstsq, batched as SciPy 1.17: a (..., M, N), b (M,) or
 * (..., M, K) with the batch axes broadcast. The host runs the LAPACK
 * driver asked for on each matrix; the GPU the SVD route above (for every
 * driver: gelsy's complete orthogonal factorization gives the same
 * minimum-norm solution). Residues are sum |b - a x|^2 per column when
 * M > N and every rank is N (gelsd and gelss only, as SciPy), else an
 * empty (..., 0) array of x's dtype.
 */
cusci_status cusci_linalg_lstsq(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, const cusci_linalg_lstsq_opts *opts, cusci_array **x,
                                cusci_array **residues, cusci_array **rank, cusci_array **s)
{
  static const char fn[] = "cusci_linalg_lstsq";
  cusci_linalg_lstsq_opts o = opts ? *opts : (cusci_linalg_lstsq_opts){ 0 };
  TRY(cusci__la_check_input(ctx, fn, "a", a, 2));
  TRY(cusci__la_check_input(ctx, fn, "b", b, 1));
  if (!x || !residues || !rank)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "x, residues and rank must not be NULL");
  if ((int)o.lapack_driver < 0 || o.lapack_driver > CUSCI_LINALG_LSTSQ_GELSY)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "lapack_driver %d is not gelsd, gelss or gelsy", (int)o.lapack_driver);
  bool gelsy = o.lapack_driver == CUSCI_LINALG_LSTSQ_GELSY;
  if (!gelsy && !s)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "s must not be NULL for gelsd and gelss");
  if (o.has_cond && isnan(o.cond))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "cond is NaN");
  int na = cusci_array_ndim(a), nbd = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  bool vec = nbd == 1;
  int64_t m = sa[na - 2], n = sa[na - 1], k = vec ? 1 : sb[nbd - 1], K = m < n ? m : n, mx = m > n ? m : n;
  int64_t bm = vec ? sb[0] : sb[nbd - 2];
  if (bm != m)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a and b should have the same number of rows (%lld != %lld)", (long long)m, (long long)bm);
  int nb;
  int64_t bshape[CUSCI_MAX_NDIM + 2];
  TRY(cusci__la_broadcast_batch(ctx, fn, na - 2, sa, vec ? 0 : nbd - 2, sb, &nb, bshape));
  if (nb + 2 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the batch has %d dimensions", nb);
  int64_t B = 1;
  for (int i = 0; i < nb; i++)
    B *= bshape[i];
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  cusci_dtype rt = cusci_dtype_real_of(dt);
  if (cusci__la_on_host(ctx) && (mx > INT32_MAX || k > INT32_MAX || (mx > 0 && (n > INT32_MAX / mx || k > INT32_MAX / mx))))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "the problem exceeds LAPACK's int on the host");
  if (m == 0 || n == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a of shape (..., %lld, %lld) is empty", (long long)m, (long long)n);
  double cond = o.has_cond && o.cond >= 0 ? o.cond : eps_of(dt);
  int64_t xs[CUSCI_MAX_NDIM], ss[CUSCI_MAX_NDIM];
  memcpy(xs, bshape, sizeof *xs * (size_t)nb);
  memcpy(ss, bshape, sizeof *ss * (size_t)nb);
  xs[nb] = n, xs[nb + 1] = k;
  ss[nb] = K;
  TRY(cusci_check_out(ctx, fn, x, nb + (vec ? 1 : 2), xs, dt, CUSCI_CASTING_NO));
  if (!gelsy)
    TRY(cusci_check_out(ctx, fn, s, nb + 1, ss, rt, CUSCI_CASTING_NO));
  TRY(cusci_check_out(ctx, fn, rank, nb, bshape, CUSCI_INT64, CUSCI_CASTING_NO));

  /* a (B, m, n) and b (B, m, k), C-contiguous in dt. */
  int64_t a3[3] = { B, m, n }, b3[3] = { B, m, k }, abig[CUSCI_MAX_NDIM], bbig[CUSCI_MAX_NDIM];
  memcpy(abig, bshape, sizeof *abig * (size_t)nb);
  memcpy(bbig, bshape, sizeof *bbig * (size_t)nb);
  abig[nb] = m, abig[nb + 1] = n;
  bbig[nb] = m, bbig[nb + 1] = k;
  cusci_array *ta = NULL, *tb = NULL, *ba = NULL, *bb = NULL, *ca = NULL, *cb = NULL, *wa = NULL, *wb = NULL;
  int64_t bcol[2] = { m, 1 };
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)a, dt, false, &ta);
  if (st == CUSCI_OK)
    st = vec ? cusci_array_reshape(ctx, (cusci_array *)b, 2, bcol, &tb) : cusci_array_astype(ctx, (cusci_array *)b, dt, false, &tb);
  if (st == CUSCI_OK && vec) {
    cusci_array *t2 = NULL;
    st = cusci_array_astype(ctx, tb, dt, false, &t2);
    cusci_array_release(tb);
    tb = t2;
  }
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, ta, nb + 2, abig, &ba);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, tb, nb + 2, bbig, &bb);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, ba, &ca);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, bb, &cb);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, ca, 3, a3, &wa);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, cb, 3, b3, &wb);
  cusci_array_release(ta), cusci_array_release(tb), cusci_array_release(ba), cusci_array_release(bb);
  cusci_array_release(ca), cusci_array_release(cb);

  int64_t *rk = malloc(sizeof *rk * (size_t)(B + 1));
  if (st == CUSCI_OK && !rk)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *rx = NULL, *rs = NULL, *rr = NULL;
  bool full_rank = true;
  if (cusci__la_on_host(ctx) && st == CUSCI_OK) {
    size_t isz = cusci_dtype_itemsize(dt), rsz = cusci_dtype_itemsize(rt);
    if (!o.no_check_finite &&
        (cusci__ref_la_nonfinite(dt, B * m * n, cusci_array_data(wa)) || cusci__ref_la_nonfinite(dt, B * m * k, cusci_array_data(wb))))
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
    int64_t xs3[3] = { B, n, k }, ss2[2] = { B, K }, rs2[2] = { B, k }, bbs[2] = { mx, k };
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, 3, xs3, dt, &rx);
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, 2, ss2, rt, &rs);
    if (st == CUSCI_OK)
      st = cusci_array_zeros(ctx, 2, rs2, rt, &rr);
    cusci_array *work = NULL;
    if (st == CUSCI_OK)
      st = cusci_array_empty(ctx, 2, bbs, dt, &work);
    for (int64_t i = 0; st == CUSCI_OK && i < B; i++) {
      char *w = cusci_array_data(work);
      memset(w, 0, (size_t)(mx * k) * isz);
      memcpy(w, (char *)cusci_array_data(wb) + (size_t)(i * m * k) * isz, (size_t)(m * k) * isz);
      cusci__la_fail f = { 0, 0 };
      int info = cusci__ref_la_lstsq(dt, (int)o.lapack_driver, cond, m, n, k, (char *)cusci_array_data(wa) + (size_t)(i * m * n) * isz, w,
                                     (char *)cusci_array_data(rs) + (size_t)(i * K) * rsz, &rk[i], &f);
      if (info != 0)
        st = lapack_fail(ctx, fn, info);
      else if (f.info > 0)
        st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "SVD did not converge in Linear Least Squares (%lld singular values)%s", (long long)f.info,
                            B > 1 ? " in a matrix of the batch" : "");
      if (st != CUSCI_OK)
        break;
      memcpy((char *)cusci_array_data(rx) + (size_t)(i * n * k) * isz, w, (size_t)(n * k) * isz);
      full_rank = full_rank && rk[i] == n;
      /* The rows below n that gelsd and gelss leave in b hold the residual. */
      for (int64_t j = 0; j < k && m > n; j++) {
        double r2 = 0;
        for (int64_t r = n; r < m; r++) {
          const char *e = w + (size_t)(r * k + j) * isz;
          switch (dt) {
          case CUSCI_FLOAT32:
            r2 += (double)*(const float *)e * *(const float *)e;
            break;
          case CUSCI_FLOAT64:
            r2 += *(const double *)e * *(const double *)e;
            break;
          case CUSCI_COMPLEX64:
            r2 += (double)((const float *)e)[0] * ((const float *)e)[0] + (double)((const float *)e)[1] * ((const float *)e)[1];
            break;
          default:
            r2 += ((const double *)e)[0] * ((const double *)e)[0] + ((const double *)e)[1] * ((const double *)e)[1];
          }
        }
        if (rt == CUSCI_FLOAT32)
          ((float *)cusci_array_data(rr))[i * k + j] = (float)r2;
        else
          ((double *)cusci_array_data(rr))[i * k + j] = r2;
      }
    }
    cusci_array_release(work);
  } else if (st == CUSCI_OK) {
    if (!o.no_check_finite) {
      bool bad = false, bad2 = false;
      st = any_nonfinite(ctx, wa, &bad);
      if (st == CUSCI_OK)
        st = any_nonfinite(ctx, wb, &bad2);
      if (st == CUSCI_OK && (bad || bad2))
        st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
    }
    if (st == CUSCI_OK)
      st = lstsq_svd(ctx, fn, wa, wb, cond, &rx, &rs, rk);
    for (int64_t i = 0; st == CUSCI_OK && i < B; i++)
      full_rank = full_rank && rk[i] == n;
    if (st == CUSCI_OK && !gelsy && m > n && full_rank) {
      cusci_array *ax_ = NULL, *d = NULL;
      st = cusci_linalg_matmul(ctx, wa, rx, &ax_);
      if (st == CUSCI_OK)
        st = cusci_subtract(ctx, wb, ax_, &d);
      if (st == CUSCI_OK)
        st = sum_sq_rows(ctx, d, &rr);
      cusci_array_release(ax_), cusci_array_release(d);
    }
  }
  cusci_array_release(wa), cusci_array_release(wb);
  /* x, residues, rank and s in SciPy's shapes. */
  cusci_array *fx = NULL, *fr = NULL, *fk = NULL, *fs = NULL;
  bool resid = !gelsy && m > n && full_rank;
  if (st == CUSCI_OK)
    st = reshape_out(ctx, rx, nb, bshape, vec ? 1 : 2, xs + nb, &fx);
  if (st == CUSCI_OK) {
    if (resid) {
      st = reshape_out(ctx, rr, nb, bshape, vec ? 0 : 1, &k, &fr);
    } else {
      int64_t es[CUSCI_MAX_NDIM];
      memcpy(es, bshape, sizeof *es * (size_t)nb);
      es[nb] = 0;
      st = cusci_array_empty(ctx, nb + 1, es, dt, &fr);
    }
  }
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, rk, nb, bshape, CUSCI_INT64, &fk);
  if (st == CUSCI_OK && !gelsy)
    st = reshape_out(ctx, rs, nb, bshape, 1, &K, &fs);
  free(rk);
  cusci_array_release(rx), cusci_array_release(rr), cusci_array_release(rs);
  if (st == CUSCI_OK && *residues) {
    /* A caller's residues array must match what comes back. */
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, residues, cusci_array_ndim(fr), cusci_array_shape(fr), cusci_array_dtype(fr), &chk);
  }
  return cusci__la_give_all(ctx, fn, st, 4, (cusci_array *[]){ fx, fr, fk, fs },
                            (cusci_array **[]){ x, residues, rank, gelsy ? NULL : s });
}
