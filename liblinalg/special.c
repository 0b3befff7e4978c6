/*
 * liblinalg/special.c: scipy.linalg's special matrices. Each is built on
 * the host in plain loops (the definitions are SciPy's documented ones) and
 * copied to the context's device in one transfer; vector inputs are read
 * back to the host first, with leading batch axes as SciPy 1.17 allows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA, before any cusci header */
#endif

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"

static const double PI = 3.14159265358979323846;

/* One or two vector inputs (..., len) in dtype dt, broadcast to a common
 * batch and copied to the host in C order. */
typedef struct vecs {
  int nb;                       /* batch axes */
  int64_t bshape[CUSCI_MAX_NDIM + 2];
  int64_t batch;                /* product of bshape */
  int64_t len[2];               /* length of each vector */
  void *host[2];                /* batch * len[i] elements of dt, or NULL */
} vecs;

static void vecs_free(vecs *v)
{
  free(v->host[0]);
  free(v->host[1]);
}

static cusci_status vec_check(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, name, a));
  if (cusci_array_ndim(a) < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s is 0-d, expected a vector (..., n)", name);
  return CUSCI_OK;
}

/* Read n (1 or 2) vectors, the second optional (NULL), into v. */
static cusci_status vecs_read(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, cusci_dtype dt, vecs *v)
{
  memset(v, 0, sizeof *v);
  const cusci_array *in[2] = { a, b };
  int na = cusci_array_ndim(a), nb = b ? cusci_array_ndim(b) : 1;
  TRY(cusci__la_broadcast_batch(ctx, fn, na - 1, cusci_array_shape(a), b ? nb - 1 : 0, b ? cusci_array_shape(b) : NULL, &v->nb, v->bshape));
  v->batch = 1;
  for (int i = 0; i < v->nb; i++)
    v->batch *= v->bshape[i];
  for (int k = 0; k < 2 && in[k]; k++) {
    int nd = cusci_array_ndim(in[k]);
    v->len[k] = cusci_array_shape(in[k])[nd - 1];
    int64_t shape[CUSCI_MAX_NDIM + 2];
    memcpy(shape, v->bshape, sizeof *shape * (size_t)v->nb);
    shape[v->nb] = v->len[k];
    cusci_array *bc = NULL, *c = NULL;
    cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)in[k], v->nb + 1, shape, &bc);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, bc, dt, true, &c);
    cusci_array_release(bc);
    size_t bytes = (size_t)(v->batch * v->len[k]) * cusci_dtype_itemsize(dt);
    if (st == CUSCI_OK) {
      v->host[k] = malloc(bytes ? bytes : 1);
      st = v->host[k] ? cusci_array_to_host(ctx, c, v->host[k], bytes)
                      : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", bytes);
    }
    cusci_array_release(c);
    if (st != CUSCI_OK) {
      vecs_free(v);
      return st;
    }
  }
  return CUSCI_OK;
}

/* Copy a host result (C order) to the device and hand it over; frees buf. */
static cusci_status upload(cusci_ctx *ctx, const char *fn, void *buf, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out)
{
  cusci_array *r = NULL;
  cusci_status st = cusci_array_from_host(ctx, buf, ndim, shape, dt, &r);
  free(buf);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, r, out);
}

static void *alloc_result(cusci_ctx *ctx, const char *fn, int64_t n, cusci_dtype dt, cusci_status *st)
{
  size_t bytes = (size_t)n * cusci_dtype_itemsize(dt);
  void *p = calloc(bytes ? bytes : 1, 1);
  *st = p ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", bytes);
  return p;
}

/* An n >= 0 extent for a square matrix of itemsize isz, or an error. */
static cusci_status check_n(cusci_ctx *ctx, const char *fn, int64_t n, size_t isz)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n is %lld, expected n >= 0", (long long)n);
  int64_t shape[2] = { n, n };
  return cusci_check_shape(ctx, fn, "n", 2, shape, isz);
}

/*
 * toeplitz, circulant and hankel copy elements of their inputs, so they are
 * written once over bytes and keep any dtype. `kind` picks the element:
 * T[i, j] = c[i - j] (i >= j) or r[j - i]; C[i, j] = c[(i - j) mod n];
 * H[i, j] = c[i + j] (i + j < m) or r[i + j - m + 1].
 */
enum { TOEPLITZ, CIRCULANT, HANKEL };

static cusci_status structured(cusci_ctx *ctx, const char *fn, int kind, const cusci_array *c, const cusci_array *r, cusci_array **out)
{
  TRY(vec_check(ctx, fn, "c", c));
  if (r)
    TRY(vec_check(ctx, fn, "r", r));
  cusci_dtype dt = cusci_array_dtype(c);
  if (r)
    TRY(cusci_promote_types(dt, cusci_array_dtype(r), &dt));
  vecs v;
  int64_t shape[CUSCI_MAX_NDIM + 2];
  {
    /* Check the output before any transfer. */
    int na = cusci_array_ndim(c), nr = r ? cusci_array_ndim(r) : 1, nb;
    int64_t bs[CUSCI_MAX_NDIM + 2];
    TRY(cusci__la_broadcast_batch(ctx, fn, na - 1, cusci_array_shape(c), r ? nr - 1 : 0, r ? cusci_array_shape(r) : NULL, &nb, bs));
    int64_t m = cusci_array_shape(c)[na - 1];
    int64_t n = kind == CIRCULANT ? m : r ? cusci_array_shape(r)[nr - 1] : m;
    memcpy(shape, bs, sizeof *bs * (size_t)nb);
    shape[nb] = m;
    shape[nb + 1] = n;
    TRY(cusci_check_shape(ctx, fn, "the result", nb + 2, shape, cusci_dtype_itemsize(dt)));
    TRY(cusci_check_out(ctx, fn, out, nb + 2, shape, dt, CUSCI_CASTING_NO));
  }
  TRY(vecs_read(ctx, fn, c, r, dt, &v));
  int64_t m = v.len[0], n = kind == CIRCULANT ? m : r ? v.len[1] : m;
  size_t isz = cusci_dtype_itemsize(dt);
  cusci_status st;
  char *res = alloc_result(ctx, fn, v.batch * m * n, dt, &st);
  if (!res) {
    vecs_free(&v);
    return st;
  }
  for (int64_t b = 0; b < v.batch; b++) {
    const char *cb = (const char *)v.host[0] + (size_t)(b * m) * isz;
    const char *rb = r ? (const char *)v.host[1] + (size_t)(b * n) * isz : NULL;
    char *o = res + (size_t)(b * m * n) * isz;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        char *dst = o + (size_t)(i * n + j) * isz;
        const char *src = NULL;
        if (kind == CIRCULANT) {
          src = cb + (size_t)(((i - j) % m + m) % m) * isz;
        } else if (kind == TOEPLITZ) {
          if (i >= j) {
            src = cb + (size_t)(i - j) * isz;
          } else if (rb) {
            src = rb + (size_t)(j - i) * isz;
          } else {
            /* r = conj(c): the element of c, its imaginary part negated. */
            memcpy(dst, cb + (size_t)(j - i) * isz, isz);
            if (dt == CUSCI_COMPLEX64)
              ((float *)dst)[1] = -((float *)dst)[1];
            else if (dt == CUSCI_COMPLEX128)
              ((double *)dst)[1] = -((double *)dst)[1];
            continue;
          }
        } else if (i + j < m) {
          src = cb + (size_t)(i + j) * isz;
        } else if (rb) {
          src = rb + (size_t)(i + j - m + 1) * isz;
        }
        if (src)
          memcpy(dst, src, isz); /* else zero (hankel with r NULL) */
      }
  }
  vecs_free(&v);
  return upload(ctx, fn, res, v.nb + 2, shape, dt, out);
}

cusci_status cusci_linalg_toeplitz(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, cusci_array **out)
{
  return structured(ctx, "cusci_linalg_toeplitz", TOEPLITZ, c, r, out);
}

cusci_status cusci_linalg_circulant(cusci_ctx *ctx, const cusci_array *c, cusci_array **out)
{
  return structured(ctx, "cusci_linalg_circulant", CIRCULANT, c, NULL, out);
}

cusci_status cusci_linalg_hankel(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, cusci_array **out)
{
  return structured(ctx, "cusci_linalg_hankel", HANKEL, c, r, out);
}

/*
 * companion: the first row is -a[1:] / a[0], the first subdiagonal ones;
 * the characteristic polynomial of the result is a / a[0].
 */
cusci_status cusci_linalg_companion(cusci_ctx *ctx, const cusci_array *a, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_companion";
  TRY(vec_check(ctx, fn, "a", a));
  cusci_dtype dt;
  TRY(cusci__la_work_dtype(ctx, fn, "a", cusci_array_dtype(a), &dt));
  int nd = cusci_array_ndim(a);
  int64_t n = cusci_array_shape(a)[nd - 1];
  if (n < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a has %lld coefficients along its last axis, expected at least 2", (long long)n);
  int64_t shape[CUSCI_MAX_NDIM + 2];
  memcpy(shape, cusci_array_shape(a), sizeof *shape * (size_t)(nd - 1));
  shape[nd - 1] = n - 1;
  shape[nd] = n - 1;
  TRY(cusci_check_out(ctx, fn, out, nd + 1, shape, dt, CUSCI_CASTING_NO));
  vecs v;
  TRY(vecs_read(ctx, fn, a, NULL, CUSCI_COMPLEX128, &v));
  const double complex *c = v.host[0];
  for (int64_t b = 0; b < v.batch; b++)
    if (c[b * n] == 0) {
      vecs_free(&v);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the first coefficient a[..., 0] is zero (batch index %lld)", (long long)b);
    }
  cusci_status st;
  int64_t m = n - 1;
  double complex *res = alloc_result(ctx, fn, v.batch * m * m, CUSCI_COMPLEX128, &st);
  if (!res) {
    vecs_free(&v);
    return st;
  }
  for (int64_t b = 0; b < v.batch; b++) {
    double complex *o = res + b * m * m;
    for (int64_t j = 0; j < m; j++)
      o[j] = -c[b * n + j + 1] / c[b * n];
    for (int64_t i = 1; i < m; i++)
      o[i * m + i - 1] = 1;
  }
  vecs_free(&v);
  /* Computed in complex128; the caller's dtype is one astype away. */
  cusci_array *r = NULL, *rc = NULL;
  st = cusci_array_from_host(ctx, res, nd + 1, shape, CUSCI_COMPLEX128, &r);
  free(res);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, r, dt, false, &rc);
  cusci_array_release(r);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, rc, out);
}

/* leslie: the first row is f, the first subdiagonal s. */
cusci_status cusci_linalg_leslie(cusci_ctx *ctx, const cusci_array *f, const cusci_array *s, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_leslie";
  TRY(vec_check(ctx, fn, "f", f));
  TRY(vec_check(ctx, fn, "s", s));
  cusci_dtype dt;
  TRY(cusci_promote_types(cusci_array_dtype(f), cusci_array_dtype(s), &dt));
  int nf = cusci_array_ndim(f), ns = cusci_array_ndim(s);
  int64_t n = cusci_array_shape(f)[nf - 1];
  if (n < 1 || cusci_array_shape(s)[ns - 1] != n - 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "f has %lld elements and s %lld: s must have one less, f at least one", (long long)n,
                          (long long)cusci_array_shape(s)[ns - 1]);
  int nb;
  int64_t shape[CUSCI_MAX_NDIM + 2];
  TRY(cusci__la_broadcast_batch(ctx, fn, nf - 1, cusci_array_shape(f), ns - 1, cusci_array_shape(s), &nb, shape));
  shape[nb] = n;
  shape[nb + 1] = n;
  TRY(cusci_check_out(ctx, fn, out, nb + 2, shape, dt, CUSCI_CASTING_NO));
  vecs v;
  TRY(vecs_read(ctx, fn, f, s, dt, &v));
  size_t isz = cusci_dtype_itemsize(dt);
  cusci_status st;
  char *res = alloc_result(ctx, fn, v.batch * n * n, dt, &st);
  if (!res) {
    vecs_free(&v);
    return st;
  }
  for (int64_t b = 0; b < v.batch; b++) {
    char *o = res + (size_t)(b * n * n) * isz;
    memcpy(o, (char *)v.host[0] + (size_t)(b * n) * isz, (size_t)n * isz);
    for (int64_t i = 1; i < n; i++)
      memcpy(o + (size_t)(i * n + i - 1) * isz, (char *)v.host[1] + (size_t)(b * (n - 1) + i - 1) * isz, isz);
  }
  vecs_free(&v);
  return upload(ctx, fn, res, nb + 2, shape, dt, out);
}

cusci_status cusci_linalg_hilbert(cusci_ctx *ctx, int64_t n, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_hilbert";
  TRY(check_n(ctx, fn, n, 8));
  int64_t shape[2] = { n, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, CUSCI_FLOAT64, CUSCI_CASTING_NO));
  cusci_status st;
  double *h = alloc_result(ctx, fn, n * n, CUSCI_FLOAT64, &st);
  if (!h)
    return st;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      h[i * n + j] = 1.0 / (double)(i + j + 1);
  return upload(ctx, fn, h, 2, shape, CUSCI_FLOAT64, out);
}

/* Binomial coefficient C(n, k) exactly in 128 bits (0 outside 0..n). */
static unsigned __int128 binom(int64_t n, int64_t k)
{
  if (k < 0 || k > n)
    return 0;
  if (k > n - k)
    k = n - k;
  unsigned __int128 r = 1;
  for (int64_t i = 1; i <= k; i++)
    r = r * (unsigned __int128)(n - k + i) / (unsigned __int128)i;
  return r;
}

/*
 * invhilbert: inv(H)[i, j] = (-1)^(i+j) (i+j+1) C(n+i, n-j-1) C(n+j, n-i-1)
 * C(i+j, i)^2 (the closed form SciPy uses), exactly in 128-bit integers.
 * Without exact it is rounded to float64; the product can pass 2^128 only
 * far beyond where float64 has any accurate digit left (n > 30), and is
 * then computed in long double.
 */
cusci_status cusci_linalg_invhilbert(cusci_ctx *ctx, int64_t n, bool exact, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_invhilbert";
  TRY(check_n(ctx, fn, n, 8));
  if (exact && n > 14)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "exact with n = %lld: the entries do not fit int64 beyond n = 14", (long long)n);
  cusci_dtype dt = exact ? CUSCI_INT64 : CUSCI_FLOAT64;
  int64_t shape[2] = { n, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, dt, CUSCI_CASTING_NO));
  cusci_status st;
  void *h = alloc_result(ctx, fn, n * n, dt, &st);
  if (!h)
    return st;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      double sign = (i + j) % 2 ? -1.0 : 1.0;
      if (n <= 30) {
        unsigned __int128 c = binom(i + j, i);
        unsigned __int128 v = (unsigned __int128)(i + j + 1) * binom(n + i, n - j - 1) * binom(n + j, n - i - 1) * c * c;
        if (exact)
          ((int64_t *)h)[i * n + j] = (int64_t)sign * (int64_t)v;
        else
          ((double *)h)[i * n + j] = sign * (double)v;
      } else {
        long double c = expl(lgammal(i + j + 1.0L) - 2 * lgammal(i + 1.0L));
        long double v = (long double)(i + j + 1) * expl(lgammal(n + i + 1.0L) - lgammal(n - j + 0.0L) - lgammal(i + j + 2.0L)) *
                        expl(lgammal(n + j + 1.0L) - lgammal(n - i + 0.0L) - lgammal(i + j + 2.0L)) * c * c;
        ((double *)h)[i * n + j] = sign * (double)v;
      }
    }
  return upload(ctx, fn, h, 2, shape, dt, out);
}

/*
 * pascal: symmetric S[i, j] = C(i + j, i), lower L[i, j] = C(i, j), upper
 * L^T; built by Pascal's rule, exactly in uint64 (to n = 33) or in float64.
 */
cusci_status cusci_linalg_pascal(cusci_ctx *ctx, int64_t n, cusci_linalg_pascal_kind kind, bool exact, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_pascal";
  TRY(check_n(ctx, fn, n, 8));
  if ((int)kind < 0 || kind > CUSCI_LINALG_PASCAL_UPPER)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "kind is %d, not a cusci_linalg_pascal_kind", (int)kind);
  if (exact && n > 33)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "exact with n = %lld: the entries do not fit uint64 beyond n = 33", (long long)n);
  cusci_dtype dt = exact ? CUSCI_UINT64 : CUSCI_FLOAT64;
  int64_t shape[2] = { n, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, dt, CUSCI_CASTING_NO));
  cusci_status st;
  void *p = alloc_result(ctx, fn, n * n, dt, &st);
  if (!p)
    return st;
  uint64_t *u = p;
  double *d = p;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      int64_t k = i * n + j;
      if (kind == CUSCI_LINALG_PASCAL_SYMMETRIC) {
        if (i == 0 || j == 0) {
          if (exact)
            u[k] = 1;
          else
            d[k] = 1;
        } else if (exact) {
          u[k] = u[k - n] + u[k - 1];
        } else {
          d[k] = d[k - n] + d[k - 1];
        }
      } else {
        /* lower: L[i, j] = L[i-1, j-1] + L[i-1, j] (Pascal's rule); upper
         * is its transpose, built by the same rule along the columns. */
        bool lower = kind == CUSCI_LINALG_PASCAL_LOWER;
        int64_t r = lower ? i : j, c = lower ? j : i;
        int64_t above = lower ? k - n : k - 1, corner = k - n - 1; /* (r-1, c), (r-1, c-1) */
        if (c > r || c == 0 || c == r) {
          if (exact)
            u[k] = c > r ? 0 : 1;
          else
            d[k] = c > r ? 0 : 1;
        } else if (exact) {
          u[k] = u[above] + u[corner];
        } else {
          d[k] = d[above] + d[corner];
        }
      }
    }
  return upload(ctx, fn, p, 2, shape, dt, out);
}

/* dft: m[j, k] = exp(-2 pi i jk / n), the angle taken from jk mod n so that
 * it stays exact, times 1, 1/sqrt(n) or 1/n. */
cusci_status cusci_linalg_dft(cusci_ctx *ctx, int64_t n, cusci_linalg_dft_scale scale, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_dft";
  TRY(check_n(ctx, fn, n, 16));
  if ((int)scale < 0 || scale > CUSCI_LINALG_DFT_SCALE_N)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "scale is %d, not a cusci_linalg_dft_scale", (int)scale);
  int64_t shape[2] = { n, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, CUSCI_COMPLEX128, CUSCI_CASTING_NO));
  cusci_status st;
  double complex *m = alloc_result(ctx, fn, n * n, CUSCI_COMPLEX128, &st);
  if (!m)
    return st;
  double f = scale == CUSCI_LINALG_DFT_SCALE_SQRTN ? 1.0 / sqrt((double)n) : scale == CUSCI_LINALG_DFT_SCALE_N ? 1.0 / (double)n : 1.0;
  for (int64_t j = 0; j < n; j++)
    for (int64_t k = 0; k < n; k++) {
      double t = -2.0 * PI * (double)((j * k) % n) / (double)n;
      m[j * n + k] = f * (cos(t) + I * sin(t));
    }
  return upload(ctx, fn, m, 2, shape, CUSCI_COMPLEX128, out);
}

/* hadamard: H[i, j] = (-1)^popcount(i & j), Sylvester's construction. */
cusci_status cusci_linalg_hadamard(cusci_ctx *ctx, int64_t n, cusci_dtype dtype, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_hadamard";
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  if (n < 1 || (n & (n - 1)) != 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n is %lld, expected a positive power of 2", (long long)n);
  TRY(check_n(ctx, fn, n, 8));
  int64_t shape[2] = { n, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, dtype, CUSCI_CASTING_NO));
  cusci_status st;
  int64_t *h = alloc_result(ctx, fn, n * n, CUSCI_INT64, &st);
  if (!h)
    return st;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      h[i * n + j] = __builtin_popcountll((unsigned long long)(i & j)) % 2 ? -1 : 1;
  cusci_array *r = NULL, *rc = NULL;
  st = cusci_array_from_host(ctx, h, 2, shape, CUSCI_INT64, &r);
  free(h);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, r, dtype, false, &rc);
  cusci_array_release(r);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, rc, out);
}

/* helmert: row 0 is 1/sqrt(n); row i >= 1 is 1/sqrt(i(i+1)) on its first i
 * entries and -i/sqrt(i(i+1)) on entry i. Without full, row 0 is left out. */
cusci_status cusci_linalg_helmert(cusci_ctx *ctx, int64_t n, bool full, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_helmert";
  CUSCI_ENTRY_CTX(ctx, fn);
  if (n < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n is %lld, expected n >= 1", (long long)n);
  TRY(check_n(ctx, fn, n, 8));
  int64_t rows = full ? n : n - 1, shape[2] = { rows, n };
  TRY(cusci_check_out(ctx, fn, out, 2, shape, CUSCI_FLOAT64, CUSCI_CASTING_NO));
  cusci_status st;
  double *h = alloc_result(ctx, fn, rows * n, CUSCI_FLOAT64, &st);
  if (!h)
    return st;
  for (int64_t r = 0; r < rows; r++) {
    int64_t i = full ? r : r + 1;
    for (int64_t j = 0; j < n; j++) {
      if (i == 0)
        h[r * n + j] = 1.0 / sqrt((double)n);
      else if (j < i)
        h[r * n + j] = 1.0 / sqrt((double)(i * (i + 1)));
      else if (j == i)
        h[r * n + j] = -(double)i / sqrt((double)(i * (i + 1)));
    }
  }
  return upload(ctx, fn, h, 2, shape, CUSCI_FLOAT64, out);
}
