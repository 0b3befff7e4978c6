/*
 * liblinalg/funm.c: the API layer of the Schur-based matrix functions
 * sqrtm, logm and funm.
 *
 * cuSOLVER has no Schur decomposition, and these functions are built on
 * one, so every input is staged to the host in double precision, computed
 * by reference/linalg/funm.c, and the result copied to the context's
 * device (include/cusci/linalg.h says so for each function). logm's error
 * estimate calls cusci_linalg_expm on the context's device.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/kit/dtypes.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "reference/linalg/funm.h"

enum { FN_SQRTM, FN_LOGM, FN_FUNM };

/* ||e_b - a_b||_1 / ||a_b||_1 for each of the batch matrices (complex e,
 * a real or complex): logm's estimate. */
static void logm_errest(bool cplx, int64_t batch, int64_t n, const cusci_cdouble *e, const void *a, double *errest)
{
  for (int64_t b = 0; b < batch; b++) {
    double nd = 0, na = 0;
    for (int64_t j = 0; j < n; j++) {
      double cd = 0, ca = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t k = b * n * n + i * n + j;
        cusci_cdouble av = cplx ? ((const cusci_cdouble *)a)[k] : ((const double *)a)[k];
        cd += cabs(e[k] - av);
        ca += cabs(av);
      }
      nd = cd > nd || isnan(cd) ? cd : nd;
      na = ca > na ? ca : na;
    }
    errest[b] = nd / na;
  }
}

static cusci_status schur_fun(cusci_ctx *ctx, const char *fn, int which, const cusci_array *a, cusci_linalg_funm_fn f, void *user,
                              cusci_array **out, cusci_array **errest)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  if (which == FN_FUNM && !f)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "func is NULL");
  /* Computed on the host whatever the device (staged). */
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, true, &in));
  cusci_dtype dt = in.dt;
  int nd = in.nd, nb = nd - 2;
  const int64_t *sh = in.sh;
  int64_t n = in.n, batch = in.batch;
  /* The outputs' shapes and devices now; their dtypes once the result's is
   * known (either of the real and complex one passes here). */
  if (*out && cusci_array_dtype(*out) != dt)
    TRY(cusci_check_out(ctx, fn, out, nd, sh, cusci_dtype_complex_of(dt), CUSCI_CASTING_NO));
  else
    TRY(cusci_check_out(ctx, fn, out, nd, sh, dt, CUSCI_CASTING_NO));
  if (errest)
    TRY(cusci_check_out(ctx, fn, errest, nb, sh, CUSCI_FLOAT64, CUSCI_CASTING_NO));

  bool cplx = cusci_dtype_is_complex(dt);
  size_t nn = (size_t)(batch * n * n);
  void *ha = NULL;
  cusci_cdouble *x = malloc(sizeof *x * (nn ? nn : 1));
  double *est = calloc((size_t)(batch ? batch : 1), sizeof *est);
  cusci_status st = x && est ? cusci__la_host_copy(ctx, fn, a, cplx ? CUSCI_COMPLEX128 : CUSCI_FLOAT64, &ha, NULL)
                             : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  bool nonfinite = st == CUSCI_OK && cusci__ref_la_nonfinite(cplx ? CUSCI_COMPLEX128 : CUSCI_FLOAT64, (int64_t)nn, ha);
  cusci__la_fail fail = { 0, 0 };
  bool neg_real = false;
  int info = 0;
  if (st == CUSCI_OK && !nonfinite && nn > 0) {
    if (which == FN_SQRTM)
      info = cusci__ref_la_sqrtm(cplx, batch, n, ha, x, &neg_real, errest ? est : NULL, &fail);
    else if (which == FN_LOGM)
      info = cusci__ref_la_logm(cplx, batch, n, ha, x, &fail);
    else
      info = cusci__ref_la_funm(cplx, batch, n, ha, f, user, cusci_dtype_is_single(dt) ? 1.1920928955078125e-07 : 2.220446049250313e-16, x,
                                errest ? est : NULL, &fail);
  }
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, fail, CUSCI__LA_FAIL_EIG, nb, sh);

  /* Real input keeps a real result where SciPy does. */
  bool real = !cplx;
  if (st == CUSCI_OK && real) {
    if (which == FN_SQRTM)
      real = !neg_real;
    else {
      double tol = cusci_dtype_is_single(dt) ? 1e3 * 1.1920928955078125e-07 : 1e6 * 2.220446049250313e-16;
      for (size_t i = 0; i < nn && real; i++)
        real = fabs(cimag(x[i])) <= tol;
    }
  }
  cusci_dtype rdt = real ? dt : cusci_dtype_complex_of(dt);
  if (st == CUSCI_OK && *out && cusci_array_dtype(*out) != rdt) {
    if (real && cusci_array_dtype(*out) == cusci_dtype_complex_of(dt))
      real = false, rdt = cusci_dtype_complex_of(dt);
    else
      st = cusci_check_out(ctx, fn, out, nd, sh, rdt, CUSCI_CASTING_NO);
  }
  cusci_array *res = NULL, *eres = NULL;
  if (st == CUSCI_OK) {
    if (real) {
      double *xr = (double *)x; /* in place: element i's real part moves to slot i */
      for (size_t i = 0; i < nn; i++)
        xr[i] = creal(x[i]);
      st = cusci__la_put(ctx, xr, nd, sh, CUSCI_FLOAT64, rdt, &res);
    } else {
      st = cusci__la_put(ctx, x, nd, sh, CUSCI_COMPLEX128, rdt, &res);
    }
  }
  if (st == CUSCI_OK && errest) {
    if (which == FN_LOGM && nn > 0) {
      cusci_array *e = NULL;
      void *he = NULL;
      st = cusci_linalg_expm(ctx, res, &e);
      if (st == CUSCI_OK)
        st = cusci__la_host_copy(ctx, fn, e, CUSCI_COMPLEX128, &he, NULL);
      cusci_array_release(e);
      if (st == CUSCI_OK)
        logm_errest(cplx, batch, n, he, ha, est);
      free(he);
    }
    if (st == CUSCI_OK)
      st = cusci__la_put(ctx, est, nb, sh, CUSCI_FLOAT64, CUSCI_FLOAT64, &eres);
  }
  free(ha), free(x), free(est);
  return cusci__la_give_all(ctx, fn, st, 2, (cusci_array *[]){ eres, res }, (cusci_array **[]){ errest, out });
}

/* scipy.linalg.sqrtm (on the host for either device). */
cusci_status cusci_linalg_sqrtm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out, cusci_array **errest)
{
  return schur_fun(ctx, "cusci_linalg_sqrtm", FN_SQRTM, a, NULL, NULL, out, errest);
}

/* scipy.linalg.logm (on the host for either device). */
cusci_status cusci_linalg_logm(cusci_ctx *ctx, const cusci_array *a, cusci_array **out, cusci_array **errest)
{
  return schur_fun(ctx, "cusci_linalg_logm", FN_LOGM, a, NULL, NULL, out, errest);
}

/* scipy.linalg.funm (on the host for either device; f runs on the host). */
cusci_status cusci_linalg_funm(cusci_ctx *ctx, const cusci_array *a, cusci_linalg_funm_fn f, void *user, cusci_array **out, cusci_array **errest)
{
  return schur_fun(ctx, "cusci_linalg_funm", FN_FUNM, a, f, user, out, errest);
}
