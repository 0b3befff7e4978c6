/*
 * liblinalg/solvers.c: scipy.linalg's structured solvers: solve_banded,
 * solveh_banded, solve_toeplitz and solve_circulant. Arguments are checked
 * here, C-contiguous working copies made in the working dtype, then the
 * host backend (reference/linalg/solvers.c) or the CUDA one
 * (kernels/linalg/solvers.cu) does the work.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "reference/linalg/reference.h"
#include "kernels/linalg/launch.h"


static cusci_status check_arr(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int min_ndim, int max_ndim)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, name, a));
  int nd = cusci_array_ndim(a);
  if (nd < min_ndim || nd > max_ndim) {
    if (min_ndim == max_ndim)
      return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions, expected %d", name, nd, min_ndim);
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "%s has %d dimensions, expected %d to %d", name, nd, min_ndim, max_ndim);
  }
  return CUSCI_OK;
}

static bool host_nonfinite(cusci_array *a)
{
  return cusci__ref_la_nonfinite(cusci_array_dtype(a), cusci_array_size(a), cusci_array_data(a));
}

/*
 * A band matrix ab (..., rows, n) and b (..., n, k) or (n,): both broadcast
 * to the common batch and copied C-contiguous in dtype dt. xshape gets the
 * result's shape (xnd axes).
 */
static cusci_status band_operands(cusci_ctx *ctx, const char *fn, const cusci_array *ab, const cusci_array *b, int64_t rows, cusci_dtype *dtp,
                                  cusci_array **wab, cusci_array **wb, int *nbp, int64_t *bshape, int64_t *np, int64_t *kp, int *xnd,
                                  int64_t *xshape)
{
  TRY(check_arr(ctx, fn, "ab", ab, 2, CUSCI_MAX_NDIM));
  TRY(check_arr(ctx, fn, "b", b, 1, CUSCI_MAX_NDIM));
  cusci_dtype da, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "ab", cusci_array_dtype(ab), &da));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(da, db, &dt));
  int na = cusci_array_ndim(ab), nbd = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(ab), *sb = cusci_array_shape(b);
  int64_t n = sa[na - 1];
  if (sa[na - 2] != rows)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "ab has %lld rows, expected %lld (the number of diagonals)", (long long)sa[na - 2],
                          (long long)rows);
  bool vec = nbd == 1;
  int64_t bn = vec ? sb[0] : sb[nbd - 2], k = vec ? 1 : sb[nbd - 1];
  if (bn != n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "ab has %lld columns and b %lld rows: they must be equal", (long long)n, (long long)bn);
  if (cusci__la_on_host(ctx) && (n > INT_MAX / (rows + rows + 1) || k > INT_MAX || (n > 0 && k > INT_MAX / n)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "the system exceeds LAPACK's int on the host");
  int nb;
  TRY(cusci__la_broadcast_batch(ctx, fn, na - 2, sa, vec ? 0 : nbd - 2, sb, &nb, bshape));
  if (nb + 2 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", nb + 2);
  memcpy(xshape, bshape, sizeof *xshape * (size_t)nb);
  xshape[nb] = n;
  if (!vec)
    xshape[nb + 1] = k;
  *xnd = nb + (vec ? 1 : 2);
  int64_t shape[CUSCI_MAX_NDIM + 2];
  memcpy(shape, bshape, sizeof *shape * (size_t)nb);
  shape[nb] = rows;
  shape[nb + 1] = n;
  cusci_array *v = NULL, *b2 = NULL;
  *wab = *wb = NULL;
  cusci_status st = cusci_array_broadcast_to(ctx, (cusci_array *)ab, nb + 2, shape, &v);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, v, dt, true, wab);
  cusci_array_release(v);
  v = NULL;
  shape[nb] = n;
  shape[nb + 1] = k;
  int64_t col[2] = { n, 1 };
  if (st == CUSCI_OK)
    st = vec ? cusci_array_reshape(ctx, (cusci_array *)b, 2, col, &b2) : cusci_array_ascontiguousarray(ctx, (cusci_array *)b, &b2);
  if (st == CUSCI_OK)
    st = cusci_array_broadcast_to(ctx, b2, nb + 2, shape, &v);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, v, dt, true, wb);
  cusci_array_release(v);
  cusci_array_release(b2);
  if (st != CUSCI_OK) {
    cusci_array_release(*wab);
    cusci_array_release(*wb);
    *wab = *wb = NULL;
    return st;
  }
  *dtp = dt;
  *nbp = nb;
  *np = n;
  *kp = k;
  return CUSCI_OK;
}

/* The end of a solver: the status, then x (wb) reshaped to xshape. */
static cusci_status finish(cusci_ctx *ctx, const char *fn, cusci_status st, int info, bool nonfinite, cusci__la_fail f, int kind, int nb,
                           const int64_t *bshape, cusci_array *wb, int xnd, const int64_t *xshape, cusci_array **x)
{
  cusci_array *res = NULL;
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, kind, nb, bshape);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, wb, xnd, xshape, &res);
  cusci_array_release(wb);
  if (st != CUSCI_OK)
    return st;
  return cusci_give_out(ctx, fn, res, x);
}

/* scipy.linalg.solve_banded: LAPACKE gtsv / gbsv; a banded LU kernel. */
cusci_status cusci_linalg_solve_banded(cusci_ctx *ctx, int64_t l, int64_t u, const cusci_array *ab, const cusci_array *b,
                                       const cusci_linalg_banded_opts *opts, cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solve_banded";
  cusci_linalg_banded_opts o = opts ? *opts : (cusci_linalg_banded_opts){ 0 };
  if (!ctx)
    return CUSCI_ERR_NULL_POINTER;
  if (l < 0 || u < 0 || l > INT_MAX / 4 || u > INT_MAX / 4)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "(l, u) = (%lld, %lld): the numbers of diagonals must be in 0 .. 2^29", (long long)l,
                          (long long)u);
  cusci_dtype dt;
  cusci_array *wab, *wb;
  int nb, xnd;
  int64_t bshape[CUSCI_MAX_NDIM + 2], xshape[CUSCI_MAX_NDIM + 2], n, k;
  TRY(band_operands(ctx, fn, ab, b, l + u + 1, &dt, &wab, &wb, &nb, bshape, &n, &k, &xnd, xshape));
  cusci_status st = cusci_check_out(ctx, fn, x, xnd, xshape, dt, CUSCI_CASTING_NO);
  int64_t batch = cusci__la_prod(nb, bshape);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0 && k > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = !o.no_check_finite && (host_nonfinite(wab) || host_nonfinite(wb));
      if (!nonfinite)
        info = cusci__ref_la_gbsv(dt, batch, n, k, l, u, cusci_array_data(wab), cusci_array_data(wb), &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_band, dt, CUSCI__LA_BANDED, !o.no_check_finite, batch,
                    n, k, l, u, false, cusci_array_data(wab), cusci_array_data(wb));
    }
  }
  cusci_array_release(wab);
  return finish(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_SINGULAR, nb, bshape, wb, xnd, xshape, x);
}

/* scipy.linalg.solveh_banded: LAPACKE pbsv; a banded Cholesky kernel. */
cusci_status cusci_linalg_solveh_banded(cusci_ctx *ctx, const cusci_array *ab, const cusci_array *b, const cusci_linalg_banded_opts *opts,
                                        cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solveh_banded";
  cusci_linalg_banded_opts o = opts ? *opts : (cusci_linalg_banded_opts){ 0 };
  TRY(check_arr(ctx, fn, "ab", ab, 2, CUSCI_MAX_NDIM));
  int64_t rows = cusci_array_shape(ab)[cusci_array_ndim(ab) - 2];
  if (rows < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "ab has no rows: it must hold at least the diagonal");
  int64_t u = rows - 1;
  cusci_dtype dt;
  cusci_array *wab, *wb;
  int nb, xnd;
  int64_t bshape[CUSCI_MAX_NDIM + 2], xshape[CUSCI_MAX_NDIM + 2], n, k;
  TRY(band_operands(ctx, fn, ab, b, rows, &dt, &wab, &wb, &nb, bshape, &n, &k, &xnd, xshape));
  cusci_status st = cusci_check_out(ctx, fn, x, xnd, xshape, dt, CUSCI_CASTING_NO);
  int64_t batch = cusci__la_prod(nb, bshape);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && batch > 0 && n > 0 && k > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = !o.no_check_finite && (host_nonfinite(wab) || host_nonfinite(wb));
      if (!nonfinite)
        info = cusci__ref_la_pbsv(dt, batch, n, k, u, o.lower, cusci_array_data(wab), cusci_array_data(wb), &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_band, dt, CUSCI__LA_POS, !o.no_check_finite, batch, n,
                    k, o.lower ? u : 0, o.lower ? 0 : u, o.lower, cusci_array_data(wab), cusci_array_data(wb));
    }
  }
  cusci_array_release(wab);
  return finish(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_NOT_PD, nb, bshape, wb, xnd, xshape, x);
}

/* scipy.linalg.solve_toeplitz: Levinson-Durbin, O(n^2) a column. */
cusci_status cusci_linalg_solve_toeplitz(cusci_ctx *ctx, const cusci_array *c, const cusci_array *r, const cusci_array *b, bool no_check_finite,
                                         cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solve_toeplitz";
  TRY(check_arr(ctx, fn, "c", c, 1, 1));
  if (r)
    TRY(check_arr(ctx, fn, "r", r, 1, 1));
  TRY(check_arr(ctx, fn, "b", b, 1, 2));
  cusci_dtype dc, dr, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "c", cusci_array_dtype(c), &dc));
  TRY(cusci__la_work_dtype(ctx, fn, "r", cusci_array_dtype(r ? r : c), &dr));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(dc, dr, &dt));
  TRY(cusci_promote_types(dt, db, &dt));
  int64_t n = cusci_array_shape(c)[0];
  const int64_t *sb = cusci_array_shape(b);
  int nbd = cusci_array_ndim(b);
  int64_t k = nbd == 2 ? sb[1] : 1;
  if ((r && cusci_array_shape(r)[0] != n) || sb[0] != n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "c has %lld elements, r %lld and b %lld rows: they must be equal", (long long)n,
                          (long long)(r ? cusci_array_shape(r)[0] : n), (long long)sb[0]);
  TRY(cusci_check_out(ctx, fn, x, nbd, sb, dt, CUSCI_CASTING_NO));
  cusci_array *wc = NULL, *wr = NULL, *wb = NULL, *cc = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)c, dt, true, &wc);
  /* r NULL: conj(c), a Hermitian T (SciPy's). */
  if (st == CUSCI_OK)
    st = r ? cusci_array_astype(ctx, (cusci_array *)r, dt, true, &wr) : cusci_conj(ctx, wc, &wr);
  if (st == CUSCI_OK && !cusci_array_is_c_contiguous(wr)) {
    st = cusci_array_ascontiguousarray(ctx, wr, &cc);
    cusci_array_release(wr);
    wr = cc;
  }
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, (cusci_array *)b, dt, true, &wb);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && n > 0 && k > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = !no_check_finite && (host_nonfinite(wc) || host_nonfinite(wr) || host_nonfinite(wb));
      if (!nonfinite)
        info = cusci__ref_la_levinson(dt, n, k, cusci_array_data(wc), cusci_array_data(wr), cusci_array_data(wb), &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, 1, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_levinson, dt, !no_check_finite, n, k, cusci_array_data(wc),
                    cusci_array_data(wr), cusci_array_data(wb));
    }
  }
  cusci_array_release(wc);
  cusci_array_release(wr);
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_TOEPLITZ, 0, NULL);
  return cusci__la_give_all(ctx, fn, st, 1, &wb, &x);
}

/* In-place unnormalised C2C transform of x (n, k) complex along axis 0 on
 * the GPU: a cuFFT plan with its work area from the pool, waited for
 * before the plan goes. */
static cusci_status gpu_fft(cusci_ctx *ctx, const char *fn, int dt, int64_t n, int64_t k, bool inverse, void *x)
{
  CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  void *plan = NULL;
  size_t bytes = 0;
  int code = cusci__launch_la_fft_plan(dt, n, k, &plan, &bytes);
  if (code)
    return cusci_ctx_gpu_status(ctx, fn, "cufftMakePlanMany64", code);
  cusci_array *work = NULL;
  int64_t nb = (int64_t)(bytes ? bytes : 1);
  cusci_status st = cusci_array_empty(ctx, 1, &nb, CUSCI_UINT8, &work);
  if (st == CUSCI_OK) {
    code = cusci__launch_la_fft(plan, cusci_ctx_stream(ctx), cusci_array_data(work), dt, inverse, x);
    st = code ? cusci_ctx_gpu_status(ctx, fn, "cufftExec", code) : cusci_ctx_synchronize(ctx);
  }
  cusci__launch_la_fft_free(plan);
  cusci_array_release(work);
  return st;
}

/*
 * scipy.linalg.solve_circulant: C = F^-1 diag(fft(c)) F, so
 * x = ifft(fft(b) / fft(c)) along b's first axis. fft(c) is made on the
 * host (n values) to apply SciPy's singular and tol rules there; b's
 * transforms run on the context's device.
 */
cusci_status cusci_linalg_solve_circulant(cusci_ctx *ctx, const cusci_array *c, const cusci_array *b, const cusci_linalg_circulant_opts *opts,
                                          cusci_array **x)
{
  static const char fn[] = "cusci_linalg_solve_circulant";
  cusci_linalg_circulant_opts o = opts ? *opts : (cusci_linalg_circulant_opts){ 0 };
  TRY(check_arr(ctx, fn, "c", c, 1, 1));
  TRY(check_arr(ctx, fn, "b", b, 1, 2));
  if ((int)o.singular < 0 || o.singular > CUSCI_LINALG_SINGULAR_LSTSQ)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "singular is %d, not a cusci_linalg_singular", (int)o.singular);
  if (isnan(o.tol))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "tol is NaN");
  cusci_dtype dc, db, dt;
  TRY(cusci__la_work_dtype(ctx, fn, "c", cusci_array_dtype(c), &dc));
  TRY(cusci__la_work_dtype(ctx, fn, "b", cusci_array_dtype(b), &db));
  TRY(cusci_promote_types(dc, db, &dt));
  bool cplx = cusci_dtype_is_complex(dt);
  cusci_dtype ct = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
  int64_t n = cusci_array_shape(c)[0];
  int nbd = cusci_array_ndim(b);
  const int64_t *sb = cusci_array_shape(b);
  int64_t k = nbd == 2 ? sb[1] : 1;
  if (sb[0] != n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "c has %lld elements and b %lld rows: they must be equal", (long long)n, (long long)sb[0]);
  TRY(cusci_check_out(ctx, fn, x, nbd, sb, dt, CUSCI_CASTING_NO));
  if (n == 0 || k == 0) {
    cusci_array *res = NULL;
    TRY(cusci_array_empty(ctx, nbd, sb, dt, &res));
    return cusci_give_out(ctx, fn, res, x);
  }
  /* The eigenvalues fft(c), on the host in complex128. */
  double complex *lam = malloc(sizeof *lam * (size_t)n);
  if (!lam)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *hc = NULL, *wb = NULL, *bt = NULL, *scale = NULL, *prodv = NULL, *res = NULL;
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)c, CUSCI_COMPLEX128, true, &hc);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, hc, lam, sizeof *lam * (size_t)n);
  if (st == CUSCI_OK && !o.no_check_finite) {
    bool bad = false;
    for (int64_t i = 0; i < n; i++)
      bad = bad || !isfinite(creal(lam[i])) || !isfinite(cimag(lam[i]));
    cusci_array *wbb = NULL;
    if (!bad && (st = cusci_array_astype(ctx, (cusci_array *)b, ct, true, &wbb)) == CUSCI_OK) {
      cusci_array *fin = NULL, *all = NULL;
      st = cusci_isfinite(ctx, wbb, &fin);
      if (st == CUSCI_OK)
        st = cusci_all(ctx, fin, NULL, &all);
      bool okv = true;
      if (st == CUSCI_OK)
        st = cusci_array_to_host(ctx, all, &okv, sizeof okv);
      bad = !okv;
      cusci_array_release(fin);
      cusci_array_release(all);
    }
    cusci_array_release(wbb);
    if (st == CUSCI_OK && bad)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "array must not contain infs or NaNs");
  }
  if (st == CUSCI_OK && cusci__ref_la_dft(n, 1, false, lam) != 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the DFT");
  if (st == CUSCI_OK) {
    double amax = 0;
    for (int64_t i = 0; i < n; i++)
      amax = fmax(amax, cabs(lam[i]));
    double eps = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 ? FLT_EPSILON : DBL_EPSILON;
    double tol = o.tol > 0 ? o.tol : amax * (double)n * eps;
    /* 1 / (n lam), the inverse transform's 1/n folded in; 0 where lam is
     * (near) zero under lstsq, as SciPy's. */
    for (int64_t i = 0; i < n && st == CUSCI_OK; i++) {
      if (cabs(lam[i]) <= tol) {
        if (o.singular == CUSCI_LINALG_SINGULAR_RAISE)
          st = cusci_ctx_fail(ctx, CUSCI_ERR_LINALG, fn, "near singular circulant matrix (eigenvalue %lld has |.| %.3g <= tol %.3g)",
                              (long long)i, cabs(lam[i]), tol);
        lam[i] = 0;
      } else {
        lam[i] = 1 / (lam[i] * (double)n);
      }
    }
  }
  int64_t col[2] = { n, 1 };
  if (st == CUSCI_OK)
    st = cusci_array_from_host(ctx, lam, 2, col, CUSCI_COMPLEX128, &scale);
  if (st == CUSCI_OK && ct == CUSCI_COMPLEX64) {
    cusci_array *s2 = NULL;
    st = cusci_array_astype(ctx, scale, ct, true, &s2);
    cusci_array_release(scale);
    scale = s2;
  }
  /* b as (n, k) complex, transformed in place along axis 0. */
  int64_t bshape2[2] = { n, k };
  cusci_array *b2 = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, (cusci_array *)b, 2, bshape2, &b2);
  if (st == CUSCI_OK)
    st = cusci_array_astype(ctx, b2, cusci__la_on_host(ctx) ? CUSCI_COMPLEX128 : ct, true, &wb);
  cusci_array_release(b2);
  if (st == CUSCI_OK)
    st = cusci__la_on_host(ctx) ? (cusci__ref_la_dft(n, k, false, cusci_array_data(wb)) ? cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory")
                                                                            : CUSCI_OK)
                      : gpu_fft(ctx, fn, ct, n, k, false, cusci_array_data(wb));
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, wb, scale, &prodv);
  if (st == CUSCI_OK)
    st = cusci__la_on_host(ctx) ? (cusci__ref_la_dft(n, k, true, cusci_array_data(prodv)) ? cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory")
                                                                               : CUSCI_OK)
                      : gpu_fft(ctx, fn, ct, n, k, true, cusci_array_data(prodv));
  /* The inverse DFT of the host divides by n: undo the 1/n folded in. */
  if (st == CUSCI_OK && cusci__la_on_host(ctx)) {
    double complex *p = cusci_array_data(prodv);
    for (int64_t i = 0; i < n * k; i++)
      p[i] *= (double)n;
  }
  if (st == CUSCI_OK) {
    cusci_array *part = NULL;
    if (cplx)
      part = cusci_array_retain(prodv);
    else
      st = cusci_real(ctx, prodv, &part);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, part, dt, true, &bt);
    cusci_array_release(part);
  }
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, bt, nbd, sb, &res);
  free(lam);
  cusci_array_release(hc);
  cusci_array_release(wb);
  cusci_array_release(scale);
  cusci_array_release(prodv);
  cusci_array_release(bt);
  return cusci__la_give_all(ctx, fn, st, 1, &res, &x);
}
