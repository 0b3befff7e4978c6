/*
 * liblinalg/cholesky.c: scipy.linalg.cholesky, cho_factor and cho_solve.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA */
#endif

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"
#include "kernels/linalg/launch.h"
#include "reference/linalg/reference.h"

/* scipy.linalg.cholesky (and cho_factor). */
cusci_status cusci__la_cholesky_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool lower, cusci_array **out)
{
  cusci__la_square in;
  TRY(cusci__la_square_input(ctx, fn, "a", a, false, &in));
  TRY(cusci_check_out(ctx, fn, out, in.nd, in.sh, in.dt, CUSCI_CASTING_NO));
  cusci_array *w = NULL;
  cusci_status st = cusci__la_work_copy(ctx, a, in.dt, &w);
  bool nonfinite = false;
  cusci__la_fail f = { 0, 0 };
  int info = 0;
  if (st == CUSCI_OK && in.batch > 0 && in.n > 0) {
    if (cusci__la_on_host(ctx)) {
      nonfinite = cusci__la_host_nonfinite(w);
      if (!nonfinite)
        info = cusci__ref_la_cholesky(in.dt, in.batch, in.n, lower, cusci_array_data(w), &f);
    } else {
      CUSCI__LA_GPU(st, ctx, fn, in.batch, CUSCI__LA_WORDS, &f, &nonfinite, cusci__launch_la_cholesky, in.dt, true, in.batch, in.n, lower,
                    cusci_array_data(w));
    }
  }
  st = cusci__la_outcome(ctx, fn, st, info, nonfinite, f, CUSCI__LA_FAIL_NOT_PD, in.nd - 2, in.sh);
  return cusci__la_give_all(ctx, fn, st, 1, &w, &out);
}

/* scipy.linalg.cho_factor: the Cholesky factor, other triangle zero. */
cusci_status cusci_linalg_cho_factor(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **c)
{
  return cusci__la_cholesky_impl(ctx, "cusci_linalg_cho_factor", a, lower, c);
}

/* scipy.linalg.cho_solve: potrs with the factor from cho_factor. */
cusci_status cusci_linalg_cho_solve(cusci_ctx *ctx, const cusci_array *c, bool lower, const cusci_array *b, cusci_array **x)
{
  cusci_linalg_solve_opts o = { .assume_a = CUSCI_LINALG_ASSUME_POS, .lower = lower };
  return cusci__la_solve_impl(ctx, "cusci_linalg_cho_solve", c, b, &o, CUSCI__LA_FACTORED, 0, false, x);
}

cusci_status cusci_linalg_cholesky(cusci_ctx *ctx, const cusci_array *a, bool lower, cusci_array **out)
{
  return cusci__la_cholesky_impl(ctx, "cusci_linalg_cholesky", a, lower, out);
}
