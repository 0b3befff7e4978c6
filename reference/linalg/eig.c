/*
 * reference/linalg/eig.c: the host backend of liblinalg's eigenproblems,
 * Schur, Hessenberg and LDL^T forms. LAPACKE in double precision (d and z
 * routines), row-major (LAPACK_ROW_MAJOR; LAPACKE transposes where LAPACK
 * needs it), with SciPy's post-processing written out in C.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include <cusci/kit/dtypes.h>

#include "reference/linalg/eig.h"

static int ld(int64_t n) { return n ? (int)n : 1; }

/* Scale each column of the n x n row-major v to unit 2-norm. */
static void unit_columns(int64_t n, cusci_cdouble *v)
{
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++)
      s += creal(v[i * n + j]) * creal(v[i * n + j]) + cimag(v[i * n + j]) * cimag(v[i * n + j]);
    s = sqrt(s);
    if (s > 0)
      for (int64_t i = 0; i < n; i++)
        v[i * n + j] /= s;
  }
}

/*
 * The complex eigenvectors of real geev / ggev output: a real eigenvalue's
 * vector is its column; a complex pair w[j], w[j+1] = conj(w[j]) (the one
 * with positive imaginary part first) shares columns j and j+1 as
 * v[:, j] = x + i y, v[:, j+1] = x - i y.
 */
static void expand_pairs(int64_t n, const double *wi, const double *x, cusci_cdouble *v)
{
  for (int64_t j = 0; j < n; j++) {
    if (wi[j] != 0 && j + 1 < n) {
      for (int64_t i = 0; i < n; i++) {
        double re = x[i * n + j], im = x[i * n + j + 1];
        v[i * n + j] = CMPLX(re, im);
        v[i * n + j + 1] = CMPLX(re, -im);
      }
      j++;
    } else {
      for (int64_t i = 0; i < n; i++)
        v[i * n + j] = x[i * n + j];
    }
  }
}

int cusci__ref_la_eig(bool cplx, int64_t batch, int64_t n, void *a, void *b, void *w_, void *vl_, void *vr_, cusci__la_fail *fail)
{
  cusci_cdouble *w = w_, *vl = vl_, *vr = vr_;
  size_t nn = (size_t)(n * n);
  char jl = vl ? 'V' : 'N', jr = vr ? 'V' : 'N';
  double *buf = malloc(sizeof(double) * (4 * (size_t)n + 2 * nn + 1));
  cusci_cdouble *cbuf = malloc(sizeof(cusci_cdouble) * ((size_t)n + 1));
  if (!buf || !cbuf) {
    free(buf);
    free(cbuf);
    return LAPACK_WORK_MEMORY_ERROR;
  }
  double *wr = buf, *wi = wr + n, *beta = wi + n, *xl = beta + n, *xr = xl + nn;
  int ret = 0;
  for (int64_t i = 0; i < batch && ret == 0; i++) {
    cusci_cdouble *wi_ = w + i * n, *vli = vl ? vl + i * nn : NULL, *vri = vr ? vr + i * nn : NULL;
    lapack_int info;
    if (cplx) {
      cusci_cdouble *ai = (cusci_cdouble *)a + i * nn, *bi = b ? (cusci_cdouble *)b + i * nn : NULL;
      cusci_cdouble dummy = 0;
      if (bi) {
        info = LAPACKE_zggev(LAPACK_ROW_MAJOR, jl, jr, (int)n, ai, ld(n), bi, ld(n), wi_, cbuf, vli ? vli : &dummy, ld(n),
                             vri ? vri : &dummy, ld(n));
        for (int64_t j = 0; info == 0 && j < n; j++)
          wi_[j] = wi_[j] / cbuf[j];
      } else {
        info = LAPACKE_zgeev(LAPACK_ROW_MAJOR, jl, jr, (int)n, ai, ld(n), wi_, vli ? vli : &dummy, ld(n), vri ? vri : &dummy, ld(n));
      }
    } else {
      double *ai = (double *)a + i * nn, *bi = b ? (double *)b + i * nn : NULL;
      if (bi)
        info = LAPACKE_dggev(LAPACK_ROW_MAJOR, jl, jr, (int)n, ai, ld(n), bi, ld(n), wr, wi, beta, xl, ld(n), xr, ld(n));
      else
        info = LAPACKE_dgeev(LAPACK_ROW_MAJOR, jl, jr, (int)n, ai, ld(n), wr, wi, xl, ld(n), xr, ld(n));
      if (info == 0) {
        for (int64_t j = 0; j < n; j++)
          wi_[j] = bi ? CMPLX(wr[j], wi[j]) / beta[j] : CMPLX(wr[j], wi[j]);
        if (vli)
          expand_pairs(n, wi, xl, vli);
        if (vri)
          expand_pairs(n, wi, xr, vri);
      }
    }
    if (info < 0)
      ret = info;
    else if (info > 0)
      *fail = (cusci__la_fail){ i, info };
    else if (b) {
      if (vli)
        unit_columns(n, vli);
      if (vri)
        unit_columns(n, vri);
    }
    if (info > 0)
      break;
  }
  free(buf);
  free(cbuf);
  return ret;
}

int cusci__ref_la_schur(bool cplx, int64_t batch, int64_t n, void *a, void *z, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n);
  double *wr = malloc(sizeof(cusci_cdouble) * (2 * (size_t)n + 1));
  if (!wr)
    return LAPACK_WORK_MEMORY_ERROR;
  int ret = 0;
  for (int64_t i = 0; i < batch; i++) {
    lapack_int sdim = 0, info;
    if (cplx)
      info = LAPACKE_zgees(LAPACK_ROW_MAJOR, 'V', 'N', NULL, (int)n, (cusci_cdouble *)a + i * nn, ld(n), &sdim, (cusci_cdouble *)wr, (cusci_cdouble *)z + i * nn,
                           ld(n));
    else
      info = LAPACKE_dgees(LAPACK_ROW_MAJOR, 'V', 'N', NULL, (int)n, (double *)a + i * nn, ld(n), &sdim, wr, wr + n, (double *)z + i * nn,
                           ld(n));
    if (info < 0) {
      ret = info;
      break;
    }
    if (info > 0) {
      *fail = (cusci__la_fail){ i, info };
      break;
    }
  }
  free(wr);
  return ret;
}

/*
 * rsf2csf: for m = n-1 down to 1, a nonzero subdiagonal t[m, m-1] marks a
 * 2x2 block of a complex pair. With mu = lambda - t[m, m] for an eigenvalue
 * lambda of the block, r = |(mu, t[m, m-1])|, c = mu / r, s = t[m, m-1] / r,
 * the rotation G = [[conj(c), s], [-s, c]] applied as G t (rows m-1, m),
 * t G^H (columns m-1, m) and z G^H zeroes t[m, m-1] and keeps z t z^H.
 */
void cusci__ref_la_rsf2csf(int64_t batch, int64_t n, void *t_, void *z_)
{
  cusci_cdouble *t = t_, *z = z_;
  const double eps = 2.220446049250313e-16;
  for (int64_t b = 0; b < batch; b++) {
    cusci_cdouble *T = t + b * n * n, *Z = z + b * n * n;
    for (int64_t m = n - 1; m > 0; m--) {
      cusci_cdouble p = T[(m - 1) * n + m - 1], q = T[(m - 1) * n + m], r_ = T[m * n + m - 1], s_ = T[m * n + m];
      if (cabs(r_) <= eps * (cabs(p) + cabs(s_))) {
        T[m * n + m - 1] = 0;
        continue;
      }
      /* The first eigenvalue zgeev gives for [[p, q], [r, s]] (SciPy's
       * choice, so that the rotations agree with SciPy's). */
      cusci_cdouble blk[4] = { p, q, r_, s_ }, ev[2] = { 0, 0 }, dummy = 0;
      if (LAPACKE_zgeev(LAPACK_ROW_MAJOR, 'N', 'N', 2, blk, 2, ev, &dummy, 1, &dummy, 1) != 0)
        ev[0] = (p + s_) / 2 + csqrt((p - s_) * (p - s_) / 4 + q * r_);
      cusci_cdouble mu = ev[0] - s_;
      double r = hypot(cabs(mu), cabs(r_));
      cusci_cdouble c = mu / r, s = r_ / r;
      /* Rows m-1 and m, columns m-1..n-1: G t. */
      for (int64_t j = m - 1; j < n; j++) {
        cusci_cdouble x = T[(m - 1) * n + j], y = T[m * n + j];
        T[(m - 1) * n + j] = conj(c) * x + s * y;
        T[m * n + j] = -s * x + c * y;
      }
      /* Columns m-1 and m, rows 0..m: t G^H; G^H = [[c, -conj(s)], [conj(s), conj(c)]]. */
      for (int64_t i = 0; i <= m; i++) {
        cusci_cdouble x = T[i * n + m - 1], y = T[i * n + m];
        T[i * n + m - 1] = x * c + y * conj(s);
        T[i * n + m] = -x * conj(s) + y * conj(c);
      }
      for (int64_t i = 0; i < n; i++) {
        cusci_cdouble x = Z[i * n + m - 1], y = Z[i * n + m];
        Z[i * n + m - 1] = x * c + y * conj(s);
        Z[i * n + m] = -x * conj(s) + y * conj(c);
      }
      T[m * n + m - 1] = 0;
    }
  }
}

int cusci__ref_la_hessenberg(bool cplx, int64_t batch, int64_t n, void *a, void *q)
{
  size_t nn = (size_t)(n * n), isz = cplx ? sizeof(cusci_cdouble) : sizeof(double);
  void *tau = malloc(isz * ((size_t)n + 1));
  if (!tau)
    return LAPACK_WORK_MEMORY_ERROR;
  int ret = 0;
  for (int64_t i = 0; i < batch && ret == 0; i++) {
    char *ai = (char *)a + i * nn * isz, *qi = q ? (char *)q + i * nn * isz : NULL;
    lapack_int info = 0;
    if (n > 1)
      info = cplx ? LAPACKE_zgehrd(LAPACK_ROW_MAJOR, (int)n, 1, (int)n, (cusci_cdouble *)ai, ld(n), tau)
                  : LAPACKE_dgehrd(LAPACK_ROW_MAJOR, (int)n, 1, (int)n, (double *)ai, ld(n), tau);
    if (info == 0 && qi) {
      memcpy(qi, ai, nn * isz);
      if (n > 1)
        info = cplx ? LAPACKE_zunghr(LAPACK_ROW_MAJOR, (int)n, 1, (int)n, (cusci_cdouble *)qi, ld(n), tau)
                    : LAPACKE_dorghr(LAPACK_ROW_MAJOR, (int)n, 1, (int)n, (double *)qi, ld(n), tau);
      else if (n == 1)
        cplx ? (void)(*(cusci_cdouble *)qi = 1) : (void)(*(double *)qi = 1);
    }
    /* Below the subdiagonal gehrd leaves its reflectors: zero them. */
    for (int64_t r = 2; r < n; r++)
      memset(ai + (size_t)(r * n) * isz, 0, (size_t)(r - 1) * isz);
    ret = info;
  }
  free(tau);
  return ret;
}

/* ------------------------------------------------------------------ ldl */

/* SciPy's reading of LAPACK's Bunch-Kaufman pivots (1-based ipiv): swap[k]
 * is the row that row k was exchanged with, piv[k] is 1 or 2 at the start
 * of each 1x1 or 2x2 block (in the scan's order) and 0 elsewhere. */
static int ldl_sanitize(int64_t n, const lapack_int *ipiv, bool lower, int64_t *swap, int *piv)
{
  for (int64_t k = 0; k < n; k++)
    swap[k] = k, piv[k] = 0;
  int64_t x = lower ? 1 : -1, y = lower ? 0 : -1;
  bool skip = false;
  for (int64_t s = 0; s < n; s++) {
    int64_t k = lower ? s : n - 1 - s;
    if (skip) {
      skip = false;
      continue;
    }
    int64_t v = ipiv[k];
    if (v > 0) {
      if (v != k + 1)
        swap[k] = swap[v - 1];
      piv[k] = 1;
    } else if (v < 0 && k + x >= 0 && k + x < n && v == ipiv[k + x]) {
      if (-v != k + 2)
        swap[k + x] = swap[-v - 1];
      piv[k + y] = 2;
      skip = true;
    } else {
      return 1;
    }
  }
  return 0;
}

/* One matrix: ldu (LAPACK's factors) becomes lu, d gets the blocks. */
#define LDL_POST(T, CONJ)                                                                  \
  {                                                                                        \
    T *lu = (T *)a + i * nn, *dd = (T *)d + i * nn;                                        \
    memset(dd, 0, nn * sizeof(T));                                                         \
    for (int64_t k = 0; k < n; k++)                                                        \
      dd[k * n + k] = lu[k * n + k];                                                       \
    int64_t blk = 0;                                                                       \
    int64_t x = lower ? 1 : 0, y = lower ? 0 : 1;                                          \
    for (int64_t k = 0; k < n; k++) {                                                      \
      if (piv[k] == 0)                                                                     \
        continue;                                                                          \
      if (piv[k] == 2) {                                                                   \
        T off = lu[(blk + x) * n + blk + y];                                               \
        dd[(blk + x) * n + blk + y] = off;                                                 \
        dd[(blk + y) * n + blk + x] = herm ? CONJ(off) : off;                              \
        lu[(blk + x) * n + blk + y] = 0;                                                   \
      }                                                                                    \
      blk += piv[k];                                                                       \
    }                                                                                      \
    for (int64_t r = 0; r < n; r++)                                                        \
      for (int64_t c = 0; c < n; c++)                                                      \
        if (r == c)                                                                        \
          lu[r * n + c] = 1;                                                               \
        else if (lower ? c > r : c < r)                                                    \
          lu[r * n + c] = 0;                                                               \
    /* Undo the interchanges, last first for lower, first first for upper. */             \
    for (int64_t k = 0; k < n; k++)                                                        \
      p[k] = k;                                                                            \
    for (int64_t s = 0; s < n; s++) {                                                      \
      int64_t k = lower ? n - 1 - s : s, sk = swap[k];                                     \
      if (sk == k)                                                                         \
        continue;                                                                          \
      int64_t cs = lower ? k : 0, ce = lower ? n : k + 1;                                  \
      if (piv[k] == (lower ? 0 : 2)) {                                                     \
        if (lower)                                                                         \
          cs -= 1;                                                                         \
        else                                                                               \
          ce += 1;                                                                         \
      }                                                                                    \
      for (int64_t c = cs; c < ce; c++) {                                                  \
        T tmp = lu[sk * n + c];                                                            \
        lu[sk * n + c] = lu[k * n + c];                                                    \
        lu[k * n + c] = tmp;                                                               \
      }                                                                                    \
      int64_t tp = p[sk];                                                                  \
      p[sk] = p[k];                                                                        \
      p[k] = tp;                                                                           \
    }                                                                                      \
  }

static double conj_d(double x) { return x; }

int cusci__ref_la_ldl(bool cplx, bool lower, bool hermitian, int64_t batch, int64_t n, void *a, void *d, int64_t *perm)
{
  size_t nn = (size_t)(n * n);
  lapack_int *ipiv = malloc(sizeof *ipiv * ((size_t)n + 1));
  int64_t *swap = malloc(sizeof *swap * ((size_t)n + 1)), *p = malloc(sizeof *p * ((size_t)n + 1));
  int *piv = malloc(sizeof *piv * ((size_t)n + 1));
  int ret = 0;
  if (!ipiv || !swap || !p || !piv)
    ret = LAPACK_WORK_MEMORY_ERROR;
  bool herm = cplx && hermitian;
  char uplo = lower ? 'L' : 'U';
  for (int64_t i = 0; i < batch && ret == 0; i++) {
    lapack_int info;
    if (!cplx)
      info = LAPACKE_dsytrf(LAPACK_ROW_MAJOR, uplo, (int)n, (double *)a + i * nn, ld(n), ipiv);
    else if (hermitian)
      info = LAPACKE_zhetrf(LAPACK_ROW_MAJOR, uplo, (int)n, (cusci_cdouble *)a + i * nn, ld(n), ipiv);
    else
      info = LAPACKE_zsytrf(LAPACK_ROW_MAJOR, uplo, (int)n, (cusci_cdouble *)a + i * nn, ld(n), ipiv);
    if (info < 0) {
      ret = info;
      break;
    }
    /* info > 0: d is exactly singular, which SciPy does not report. */
    if (ldl_sanitize(n, ipiv, lower, swap, piv)) {
      ret = 1;
      break;
    }
    if (cplx)
      LDL_POST(cusci_cdouble, conj)
    else
      LDL_POST(double, conj_d)
    /* perm = argsort(p): p is a permutation, so its inverse. */
    for (int64_t k = 0; k < n; k++)
      perm[i * n + p[k]] = k;
  }
  free(ipiv);
  free(swap);
  free(p);
  free(piv);
  return ret;
}

/* ------------------------------------------------------------ eigh_ex */

static char range_char(int kind) { return kind == 1 ? 'I' : kind == 2 ? 'V' : 'A'; }

int cusci__ref_la_eigh_ex(bool cplx, int64_t batch, int64_t n, bool upper, cusci__la_range r, int type, void *a, void *b, double *w,
                          void *v, int64_t *m, cusci__la_fail *fail)
{
  size_t nn = (size_t)(n * n), isz = cplx ? sizeof(cusci_cdouble) : sizeof(double);
  char jobz = v ? 'V' : 'N', uplo = upper ? 'U' : 'L', range = range_char(r.kind);
  lapack_int *iw = malloc(sizeof *iw * (2 * (size_t)n + 2));
  void *z = malloc(isz * (nn + 1));
  if (!iw || !z) {
    free(iw);
    free(z);
    return LAPACK_WORK_MEMORY_ERROR;
  }
  lapack_int il = (lapack_int)(r.lo + 1), iu = (lapack_int)(r.hi + 1);
  int ret = 0;
  for (int64_t i = 0; i < batch; i++) {
    char *ai = (char *)a + i * nn * isz, *bi = b ? (char *)b + i * nn * isz : NULL, *vi = v ? (char *)v + i * nn * isz : NULL;
    double *wi = w + i * n;
    lapack_int info, mm = (lapack_int)n;
    if (bi && r.kind == 0) {
      info = cplx ? LAPACKE_zhegvd(LAPACK_ROW_MAJOR, type, jobz, uplo, (int)n, (cusci_cdouble *)ai, ld(n), (cusci_cdouble *)bi, ld(n), wi)
                  : LAPACKE_dsygvd(LAPACK_ROW_MAJOR, type, jobz, uplo, (int)n, (double *)ai, ld(n), (double *)bi, ld(n), wi);
      if (vi && info == 0)
        memcpy(vi, ai, nn * isz);
    } else if (bi) {
      info = cplx ? LAPACKE_zhegvx(LAPACK_ROW_MAJOR, type, jobz, range, uplo, (int)n, (cusci_cdouble *)ai, ld(n), (cusci_cdouble *)bi, ld(n), r.vlo,
                                   r.vhi, il, iu, 0.0, &mm, wi, (cusci_cdouble *)z, ld(n), iw)
                  : LAPACKE_dsygvx(LAPACK_ROW_MAJOR, type, jobz, range, uplo, (int)n, (double *)ai, ld(n), (double *)bi, ld(n), r.vlo,
                                   r.vhi, il, iu, 0.0, &mm, wi, (double *)z, ld(n), iw);
      if (vi && info == 0)
        memcpy(vi, z, nn * isz);
    } else {
      info = cplx ? LAPACKE_zheevr(LAPACK_ROW_MAJOR, jobz, range, uplo, (int)n, (cusci_cdouble *)ai, ld(n), r.vlo, r.vhi, il, iu, 0.0, &mm, wi,
                                   (cusci_cdouble *)z, ld(n), iw)
                  : LAPACKE_dsyevr(LAPACK_ROW_MAJOR, jobz, range, uplo, (int)n, (double *)ai, ld(n), r.vlo, r.vhi, il, iu, 0.0, &mm, wi,
                                   (double *)z, ld(n), iw);
      if (vi && info == 0)
        memcpy(vi, z, nn * isz);
    }
    if (info < 0) {
      ret = info;
      break;
    }
    if (info > 0) {
      *fail = (cusci__la_fail){ i, info };
      break;
    }
    m[i] = mm;
  }
  free(iw);
  free(z);
  return ret;
}

int cusci__ref_la_eigh_tridiagonal(int64_t batch, int64_t n, const double *d, const double *e, cusci__la_range r, double *w, double *z,
                                   int64_t *m, cusci__la_fail *fail)
{
  double *dd = malloc(sizeof *dd * ((size_t)n + 1)), *ee = malloc(sizeof *ee * ((size_t)n + 1));
  lapack_int *isuppz = malloc(sizeof *isuppz * (2 * (size_t)n + 2));
  int ret = 0;
  if (!dd || !ee || !isuppz)
    ret = LAPACK_WORK_MEMORY_ERROR;
  double dummy = 0;
  for (int64_t i = 0; i < batch && ret == 0; i++) {
    memcpy(dd, d + i * n, sizeof *dd * (size_t)n);
    if (n > 1)
      memcpy(ee, e + i * (n - 1), sizeof *ee * (size_t)(n - 1));
    ee[n > 0 ? n - 1 : 0] = 0;
    lapack_int mm = 0, tryrac = 1;
    lapack_int info = LAPACKE_dstemr(LAPACK_ROW_MAJOR, z ? 'V' : 'N', range_char(r.kind), (int)n, dd, ee, r.vlo, r.vhi, (int)(r.lo + 1),
                                     (int)(r.hi + 1), &mm, w + i * n, z ? z + i * n * n : &dummy, ld(n), ld(n), isuppz, &tryrac);
    if (info < 0)
      ret = info;
    else if (info > 0)
      *fail = (cusci__la_fail){ i, info };
    if (info != 0)
      break;
    m[i] = mm;
  }
  free(dd);
  free(ee);
  free(isuppz);
  return ret;
}
