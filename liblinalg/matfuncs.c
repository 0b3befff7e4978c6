/*
 * liblinalg/matfuncs.c: matrix functions: expm by scaling and squaring,
 * and scipy.linalg's trigonometric and hyperbolic functions built on it.
 *
 * expm is composed of array operations (cusci_linalg_matmul and
 * cusci_linalg_solve, core element-wise functions and reductions), so the
 * one algorithm runs on both backends and a batch of matrices goes through
 * each step as one batched call.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
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

/* The arrays a computation holds, released together. */
typedef struct held {
  cusci_array *a[256]; /* expm keeps about 100 at most */
  int n;
} held;

static cusci_array *keep(held *h, cusci_array *a)
{
  if (a && h->n < (int)(sizeof h->a / sizeof *h->a))
    h->a[h->n++] = a;
  return a;
}

static void release_all(held *h)
{
  for (int i = 0; i < h->n; i++)
    cusci_array_release(h->a[i]);
  h->n = 0;
}

/* *out = x * s (a real scalar), kept in h. */
static cusci_status scale(cusci_ctx *ctx, held *h, const cusci_array *x, double s, cusci_array **out)
{
  *out = NULL;
  TRY(cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(x), cusci_operand_float(s), out));
  keep(h, *out);
  return CUSCI_OK;
}

static cusci_status binop(cusci_ctx *ctx, held *h, cusci_ufunc f, const cusci_array *x, const cusci_array *y, cusci_array **out)
{
  *out = NULL;
  TRY(cusci_ufunc_binary(ctx, f, cusci_operand_array(x), cusci_operand_array(y), out));
  keep(h, *out);
  return CUSCI_OK;
}

static cusci_status mm(cusci_ctx *ctx, held *h, const cusci_array *x, const cusci_array *y, cusci_array **out)
{
  *out = NULL;
  TRY(cusci_linalg_matmul(ctx, x, y, out));
  keep(h, *out);
  return CUSCI_OK;
}

/* sum_i c[i] x[i] + c0 I over the batch (the identity (n, n) broadcast). */
static cusci_status lincomb(cusci_ctx *ctx, held *h, int nt, cusci_array *const *x, const double *c, double c0, const cusci_array *eye,
                            cusci_array **out)
{
  cusci_array *acc = NULL, *t = NULL;
  TRY(scale(ctx, h, eye, c0, &acc));
  for (int i = 0; i < nt; i++) {
    TRY(scale(ctx, h, x[i], c[i], &t));
    TRY(binop(ctx, h, CUSCI_UFUNC_ADD, acc, t, &acc));
  }
  *out = acc;
  return CUSCI_OK;
}

/* The 1-norm (largest column sum of |x|) of each matrix of x (batch, r, n),
 * read into norms[batch] on the host. */
static cusci_status onenorms(cusci_ctx *ctx, held *h, const cusci_array *x, int64_t batch, double *norms)
{
  cusci_array *ab = NULL, *cs = NULL, *mx = NULL, *d = NULL;
  int ax = -2, ax1 = -1;
  TRY(cusci_abs(ctx, x, &ab));
  keep(h, ab);
  TRY(cusci_sum(ctx, ab, &(cusci_reduce_opts){ .naxes = 1, .axes = &ax }, &cs));
  keep(h, cs);
  TRY(cusci_max(ctx, cs, &(cusci_reduce_opts){ .naxes = 1, .axes = &ax1 }, &mx));
  keep(h, mx);
  TRY(cusci_array_astype(ctx, mx, CUSCI_FLOAT64, true, &d));
  keep(h, d);
  return cusci_array_to_host(ctx, d, norms, sizeof *norms * (size_t)batch);
}

/* ||abs(a)^p||_1 for each matrix: the row of ones times abs(a), p times. */
static cusci_status abs_power_norms(cusci_ctx *ctx, held *h, const cusci_array *absa, const cusci_array *ones_row, int p, int64_t batch,
                                    double *norms)
{
  cusci_array *w = cusci_array_retain((cusci_array *)ones_row), *next = NULL;
  cusci_status st = CUSCI_OK;
  for (int i = 0; i < p && st == CUSCI_OK; i++) {
    next = NULL;
    st = cusci_linalg_matmul(ctx, w, absa, &next);
    cusci_array_release(w);
    w = next;
  }
  if (st == CUSCI_OK)
    st = onenorms(ctx, h, w, batch, norms); /* w (batch, 1, n): max |.| */
  cusci_array_release(w);
  return st;
}

/* Al-Mohy and Higham's ell(A, m): the extra squarings that keep the
 * backward error of the [m/m] Pade approximant at unit roundoff u. */
static int ell(double abs_pow_norm, double anorm, double c_recip, double u, int m)
{
  if (abs_pow_norm == 0 || anorm == 0)
    return 0;
  double alpha = abs_pow_norm / (anorm * c_recip);
  double v = ceil(log2(alpha / u) / (2.0 * m));
  return v > 0 ? (int)v : 0;
}

/*
 * expm of w (batch, n, n) in its dtype: Al-Mohy and Higham 2009,
 * Algorithm 6.1 with exact 1-norms of the powers, the degree m and the
 * scaling s taken as the largest any matrix of the batch needs.
 */
static cusci_status expm_batch(cusci_ctx *ctx, const char *fn, cusci_array *w, int64_t batch, int64_t n, cusci_array **out)
{
  static const double theta[5] = { 1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1, 2.097847961257068e0, 4.25 };
  /* 1 / |c_{2m+1}| = (2m)! (2m+1)! / (m!)^2, m = 3, 5, 7, 9, 13. */
  static const double c_recip[5] = { 100800.0, 10059033600.0, 4487938430976000.0, 5914384781877411840000.0,
                                     113250775606021113483283660800000000.0 };
  static const double b3[] = { 120, 60, 12, 1 };
  static const double b5[] = { 30240, 15120, 3360, 420, 30, 1 };
  static const double b7[] = { 17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1 };
  static const double b9[] = { 17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1. };
  static const double b13[] = { 64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
                                10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1. };
  cusci_dtype dt = cusci_array_dtype(w);
  double u = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? ldexp(1.0, -24) : ldexp(1.0, -53);
  held h = { .n = 0 };
  double *nrm = malloc(sizeof *nrm * (size_t)(6 * batch));
  if (!nrm)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  double *anorm = nrm, *d4 = nrm + batch, *d6 = nrm + 2 * batch, *d8 = nrm + 3 * batch, *d10 = nrm + 4 * batch, *tmp = nrm + 5 * batch;
  int64_t sq[2] = { n, n }, rowshape[3] = { batch, 1, n };
  cusci_array *eye = NULL, *ones = NULL, *absa = NULL, *A2, *A4, *A6, *A8 = NULL, *A10 = NULL, *U = NULL, *V = NULL, *P, *Q, *X = NULL;
  cusci_status st = CUSCI_OK;
  int m = 3, s = 0, mi = 0;
#define CK(expr)              \
  do {                        \
    st = (expr);              \
    if (st != CUSCI_OK)       \
      goto done;              \
  } while (0)
  {
    /* The identity and a row of ones, on the host then copied. */
    size_t isz = cusci_dtype_itemsize(dt);
    unsigned char *hb = calloc((size_t)(n * n + n), isz);
    if (!hb)
      CK(cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory"));
    for (int64_t i = 0; i < n * n + n; i++) {
      if (i >= n * n || i % (n + 1) == 0) {
        if (dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64)
          *(float *)(hb + (size_t)i * isz) = 1.0f;
        else
          *(double *)(hb + (size_t)i * isz) = 1.0;
      }
    }
    st = cusci_array_from_host(ctx, hb, 2, sq, dt, &eye);
    cusci_dtype rt = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
    cusci_array *o1 = NULL;
    if (st == CUSCI_OK) {
      double one = 1.0;
      float onef = 1.0f;
      st = cusci_array_full(ctx, 3, rowshape, rt, rt == CUSCI_FLOAT32 ? (const void *)&onef : (const void *)&one, &o1);
    }
    free(hb);
    keep(&h, eye);
    ones = keep(&h, o1);
    CK(st);
  }
  CK(onenorms(ctx, &h, w, batch, anorm));
  for (int64_t i = 0; i < batch; i++)
    if (!isfinite(anorm[i]))
      CK(cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs"));
  CK(cusci_abs(ctx, w, &absa));
  keep(&h, absa);
  CK(mm(ctx, &h, w, w, &A2));
  CK(mm(ctx, &h, A2, A2, &A4));
  CK(mm(ctx, &h, A4, A2, &A6));
  CK(onenorms(ctx, &h, A4, batch, d4));
  CK(onenorms(ctx, &h, A6, batch, d6));
  for (int64_t i = 0; i < batch; i++) {
    d4[i] = pow(d4[i], 0.25);
    d6[i] = pow(d6[i], 1.0 / 6);
  }
  /* Each matrix's degree (0..3 for 3, 5, 7, 9, 4 for 13); the batch takes
   * the largest. */
  bool need8 = false;
  int deg[4] = { 3, 5, 7, 9 };
  for (int64_t i = 0; i < batch; i++) {
    double eta1 = fmax(d4[i], d6[i]);
    tmp[i] = eta1; /* kept for the test below */
  }
  mi = 0;
  for (int j = 0; j < 2 && mi == j; j++) {
    /* degrees 3 and 5: eta = max(d4, d6) */
    bool all = true;
    for (int64_t i = 0; i < batch; i++)
      all = all && tmp[i] < theta[j];
    if (!all) {
      mi = j + 1;
      continue;
    }
    CK(abs_power_norms(ctx, &h, absa, ones, 2 * deg[j] + 1, batch, d10)); /* d10 as scratch */
    for (int64_t i = 0; i < batch && all; i++)
      all = ell(d10[i], anorm[i], c_recip[j], u, deg[j]) == 0;
    if (!all)
      mi = j + 1;
  }
  if (mi >= 2) {
    need8 = true;
    CK(mm(ctx, &h, A4, A4, &A8));
    CK(onenorms(ctx, &h, A8, batch, d8));
    for (int64_t i = 0; i < batch; i++) {
      d8[i] = pow(d8[i], 0.125);
      tmp[i] = fmax(d6[i], d8[i]); /* eta3 */
    }
    for (int j = 2; j < 4 && mi == j; j++) {
      bool all = true;
      for (int64_t i = 0; i < batch; i++)
        all = all && tmp[i] < theta[j];
      if (!all) {
        mi = j + 1;
        continue;
      }
      CK(abs_power_norms(ctx, &h, absa, ones, 2 * deg[j] + 1, batch, d10));
      for (int64_t i = 0; i < batch && all; i++)
        all = ell(d10[i], anorm[i], c_recip[j], u, deg[j]) == 0;
      if (!all)
        mi = j + 1;
    }
  }
  (void)need8;
  if (mi == 4) {
    /* Degree 13 with s = max over the batch of each matrix's s. */
    CK(mm(ctx, &h, A4, A6, &A10));
    CK(onenorms(ctx, &h, A10, batch, d10));
    cusci_array *pw = NULL;
    double *ap = malloc(sizeof *ap * (size_t)batch);
    if (!ap)
      CK(cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory"));
    st = abs_power_norms(ctx, &h, absa, ones, 27, batch, ap);
    (void)pw;
    for (int64_t i = 0; st == CUSCI_OK && i < batch; i++) {
      double eta4 = fmax(d8[i], pow(d10[i], 0.1));
      double eta5 = fmin(tmp[i], eta4);
      int si = eta5 == 0 ? 0 : (int)fmax(ceil(log2(eta5 / theta[4])), 0);
      /* abs(2^-si A)^27 scales by 2^(-27 si), ||2^-si A|| by 2^-si. */
      si += ell(ldexp(ap[i], -27 * si), ldexp(anorm[i], -si), c_recip[4], u, 13);
      s = si > s ? si : s;
    }
    free(ap);
    CK(st);
    m = 13;
  } else {
    m = deg[mi];
  }

  /* U (odd part) and V (even part) of the Pade approximant. */
  if (m == 13) {
    double s2 = ldexp(1.0, -2 * s), s4 = ldexp(1.0, -4 * s), s6 = ldexp(1.0, -6 * s), s1 = ldexp(1.0, -s);
    cusci_array *B2, *B4, *B6, *B1, *t1, *t2;
    CK(scale(ctx, &h, A2, s2, &B2));
    CK(scale(ctx, &h, A4, s4, &B4));
    CK(scale(ctx, &h, A6, s6, &B6));
    CK(scale(ctx, &h, w, s1, &B1));
    const double *b = b13;
    cusci_array *x3[3] = { B6, B4, B2 };
    double cu1[3] = { b[13], b[11], b[9] }, cu2[3] = { b[7], b[5], b[3] };
    double cv1[3] = { b[12], b[10], b[8] }, cv2[3] = { b[6], b[4], b[2] };
    /* U = B1 (B6 (b13 B6 + b11 B4 + b9 B2) + b7 B6 + b5 B4 + b3 B2 + b1 I) */
    CK(lincomb(ctx, &h, 3, x3, cu1, 0.0, eye, &t1));
    CK(mm(ctx, &h, B6, t1, &t1));
    CK(lincomb(ctx, &h, 3, x3, cu2, b[1], eye, &t2));
    CK(binop(ctx, &h, CUSCI_UFUNC_ADD, t1, t2, &t1));
    CK(mm(ctx, &h, B1, t1, &U));
    /* V = B6 (b12 B6 + b10 B4 + b8 B2) + b6 B6 + b4 B4 + b2 B2 + b0 I */
    CK(lincomb(ctx, &h, 3, x3, cv1, 0.0, eye, &t1));
    CK(mm(ctx, &h, B6, t1, &t1));
    CK(lincomb(ctx, &h, 3, x3, cv2, b[0], eye, &t2));
    CK(binop(ctx, &h, CUSCI_UFUNC_ADD, t1, t2, &V));
  } else {
    const double *b = m == 3 ? b3 : m == 5 ? b5 : m == 7 ? b7 : b9;
    cusci_array *pw[4] = { A2, A4, A6, A8 };
    int np = (m - 1) / 2; /* even powers A2 .. A^(m-1) */
    double cu[4], cv[4];
    for (int i = 0; i < np; i++) {
      cu[i] = b[2 * i + 3];
      cv[i] = b[2 * i + 2];
    }
    cusci_array *t1;
    CK(lincomb(ctx, &h, np, pw, cu, b[1], eye, &t1));
    CK(mm(ctx, &h, w, t1, &U));
    CK(lincomb(ctx, &h, np, pw, cv, b[0], eye, &V));
  }
  /* (V - U) X = V + U, then s squarings. */
  CK(binop(ctx, &h, CUSCI_UFUNC_SUBTRACT, V, U, &Q));
  CK(binop(ctx, &h, CUSCI_UFUNC_ADD, V, U, &P));
  CK(cusci_linalg_solve(ctx, Q, P, &(cusci_linalg_solve_opts){ .no_check_finite = true }, &X));
  for (int i = 0; i < s; i++) {
    cusci_array *Y = NULL;
    st = cusci_linalg_matmul(ctx, X, X, &Y);
    cusci_array_release(X);
    X = Y;
    CK(st);
  }
  *out = X;
  X = NULL;
done:
#undef CK
  cusci_array_release(X);
  release_all(&h);
  free(nrm);
  return st;
}

/* Checks of a square a; w = a as a C-contiguous (batch, n, n) copy in the
 * working dtype (complex when `cplx`). */
static cusci_status square_work(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool cplx, cusci_array **w, int64_t *batch, int64_t *n,
                                cusci_dtype *dt)
{
  TRY(cusci__la_check_square(ctx, fn, "a", a));
  int nd = cusci_array_ndim(a);
  const int64_t *sh = cusci_array_shape(a);
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), dt));
  cusci_dtype wt = cplx ? cusci_dtype_complex_of(*dt) : *dt;
  *n = sh[nd - 1];
  *batch = cusci__la_prod(nd - 2, sh);
  int64_t shape3[3] = { *batch, *n, *n };
  cusci_array *c = NULL;
  *w = NULL;
  TRY(cusci_array_astype(ctx, (cusci_array *)a, wt, true, &c));
  cusci_status st = cusci_array_reshape(ctx, c, 3, shape3, w);
  cusci_array_release(c);
  return st;
}

cusci_status cusci_linalg_expm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_expm";
  cusci_array *w = NULL, *e = NULL, *res = NULL;
  int64_t batch, n;
  cusci_dtype dt;
  TRY(square_work(ctx, fn, a, false, &w, &batch, &n, &dt));
  cusci_status st = cusci_check_out(ctx, fn, out, cusci_array_ndim(a), cusci_array_shape(a), dt, CUSCI_CASTING_NO);
  if (st == CUSCI_OK && batch * n > 0)
    st = expm_batch(ctx, fn, w, batch, n, &e);
  else if (st == CUSCI_OK)
    e = cusci_array_retain(w);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, e, cusci_array_ndim(a), cusci_array_shape(a), &res);
  cusci_array_release(w);
  cusci_array_release(e);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, res, out);
}

enum { F_COS, F_SIN, F_TAN, F_COSH, F_SINH, F_TANH };

/*
 * The trigonometric and hyperbolic functions through expm, as SciPy's:
 * e = expm(z a) and e' = expm(-z a) with z = i (trigonometric) or 1
 * (hyperbolic); cos = (e + e') / 2, sin = (e - e') / 2i, cosh = (e + e') / 2,
 * sinh = (e - e') / 2; tan and tanh solve cos x = sin, cosh x = sinh.
 * A real a gives a real result (the real part).
 */
static cusci_status trig(cusci_ctx *ctx, const char *fn, const cusci_array *a, int f, cusci_array **out)
{
  bool trigf = f <= F_TAN;
  cusci_array *w = NULL;
  int64_t batch, n;
  cusci_dtype dt;
  TRY(square_work(ctx, fn, a, trigf, &w, &batch, &n, &dt));
  cusci_status st = cusci_check_out(ctx, fn, out, cusci_array_ndim(a), cusci_array_shape(a), dt, CUSCI_CASTING_NO);
  held h = { .n = 0 };
  keep(&h, w);
  cusci_array *za = NULL, *mza = NULL, *e1 = NULL, *e2 = NULL, *c = NULL, *sn = NULL, *r = NULL, *res = NULL, *part = NULL;
  if (st == CUSCI_OK && batch * n == 0)
    r = cusci_array_retain(w), keep(&h, r);
  else if (st == CUSCI_OK) {
    cusci_operand z = trigf ? cusci_operand_complex(0, 1) : cusci_operand_float(1);
    cusci_operand mz = trigf ? cusci_operand_complex(0, -1) : cusci_operand_float(-1);
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(w), z, &za);
    keep(&h, za);
    if (st == CUSCI_OK)
      st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(w), mz, &mza);
    keep(&h, mza);
    if (st == CUSCI_OK)
      st = expm_batch(ctx, fn, za, batch, n, &e1);
    keep(&h, e1);
    if (st == CUSCI_OK)
      st = expm_batch(ctx, fn, mza, batch, n, &e2);
    keep(&h, e2);
    bool want_c = f == F_COS || f == F_TAN || f == F_COSH || f == F_TANH;
    bool want_s = f != F_COS && f != F_COSH;
    if (st == CUSCI_OK && want_c) {
      st = binop(ctx, &h, CUSCI_UFUNC_ADD, e1, e2, &c);
      if (st == CUSCI_OK)
        st = scale(ctx, &h, c, 0.5, &c);
    }
    if (st == CUSCI_OK && want_s) {
      st = binop(ctx, &h, CUSCI_UFUNC_SUBTRACT, e1, e2, &sn);
      if (st == CUSCI_OK && trigf) { /* / 2i = * (-i / 2) */
        cusci_array *t = NULL;
        st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(sn), cusci_operand_complex(0, -0.5), &t);
        sn = keep(&h, t);
      } else if (st == CUSCI_OK) {
        st = scale(ctx, &h, sn, 0.5, &sn);
      }
    }
    if (st == CUSCI_OK) {
      if (f == F_TAN || f == F_TANH) {
        st = cusci_linalg_solve(ctx, c, sn, &(cusci_linalg_solve_opts){ .no_check_finite = true }, &r);
        keep(&h, r);
      } else {
        r = want_c ? c : sn;
      }
    }
  }
  /* Back to a's working dtype: the real part for a real a. */
  if (st == CUSCI_OK && trigf && dt != cusci_array_dtype(r)) {
    st = cusci_real(ctx, r, &part);
    keep(&h, part);
    r = part;
  }
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, r, dt, true, &res);
  cusci_array *res2 = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, res, cusci_array_ndim(a), cusci_array_shape(a), &res2);
  cusci_array_release(res);
  release_all(&h);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, res2, out);
}

cusci_status cusci_linalg_cosm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_cosm", a, F_COS, out); }
cusci_status cusci_linalg_sinm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_sinm", a, F_SIN, out); }
cusci_status cusci_linalg_tanm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_tanm", a, F_TAN, out); }
cusci_status cusci_linalg_coshm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_coshm", a, F_COSH, out); }
cusci_status cusci_linalg_sinhm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_sinhm", a, F_SINH, out); }
cusci_status cusci_linalg_tanhm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out) { return trig(ctx, "cusci_linalg_tanhm", a, F_TANH, out); }
