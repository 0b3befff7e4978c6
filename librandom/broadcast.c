/*
 * librandom/broadcast.c: the distributions whose parameters may be arrays
 * broadcast against the output shape (NumPy's array arguments): uniform,
 * normal, lognormal, exponential, gamma, beta, poisson, binomial. Each
 * parameter is broadcast and copied as float64 (binomial's n as int64) on
 * the context's device, checked element by element on the host, then the
 * samplers of the scalar calls run with one parameter set per element.
 */
#include "librandom/internal.h"

#include <math.h>
#include <stdlib.h>

#include "reference/random/reference.h"
#include "kernels/random/launch.h"

typedef struct param {
  const char *name;
  cusci_array *dev; /* broadcast, contiguous, float64 or int64 */
  void *host;       /* the same values on the host */
  bool own_host;
} param;

static void param_free(param *p)
{
  cusci_array_release(p->dev);
  if (p->own_host)
    free(p->host);
  p->dev = NULL;
  p->host = NULL;
}

static cusci_status param_load(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int ndim,
                               const int64_t *shape, cusci_dtype dt, param *p)
{
  p->name = name;
  p->dev = NULL;
  p->host = NULL;
  p->own_host = false;
  CUSCI_TRY(cusci_check_array(ctx, fn, name, a));
  char k = cusci_dtype_kind(cusci_array_dtype(a));
  if (dt == CUSCI_INT64 ? (k != 'i' && k != 'u') : (k != 'f' && k != 'i' && k != 'u'))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s has dtype %s, expected %s", name,
                          cusci_dtype_name(cusci_array_dtype(a)), dt == CUSCI_INT64 ? "an integer dtype" : "a real dtype");
  cusci_array *view = NULL;
  CUSCI_TRY(cusci_array_broadcast_to(ctx, (cusci_array *)a, ndim, shape, &view));
  cusci_status st = cusci_array_astype(ctx, view, dt, true, &p->dev);
  cusci_array_release(view);
  if (st != CUSCI_OK)
    return st;
  if (cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST) {
    p->host = cusci_array_data(p->dev);
    return CUSCI_OK;
  }
  size_t bytes = cusci_array_nbytes(p->dev);
  p->host = malloc(bytes ? bytes : 1);
  p->own_host = true;
  st = p->host ? cusci_array_to_host(ctx, p->dev, p->host, bytes)
               : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory to check %s", name);
  if (st != CUSCI_OK)
    param_free(p);
  return st;
}

/* Every element of a float64 parameter passes `ok`, or CUSCI_ERR_VALUE. */
#define EACH(P, N, COND, RULE)                                                                          \
  do {                                                                                                  \
    const double *v_ = (const double *)(P).host;                                                        \
    for (int64_t i_ = 0; i_ < (N); i_++) {                                                              \
      double x = v_[i_];                                                                                \
      if (!(COND))                                                                                      \
        return fail_at(ctx, fn, (P).name, i_, x, RULE);                                                 \
    }                                                                                                   \
  } while (0)

static cusci_status fail_at(cusci_ctx *ctx, const char *fn, const char *name, int64_t i, double x, const char *rule)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s has %g at flat index %lld, expected %s", name, x, (long long)i,
                        rule);
}

static int64_t out_size(int ndim, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  return n;
}

static cusci_status fill(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int dist, bool discrete,
                         const param *a, const param *b, int ndim, const int64_t *shape, cusci_dtype dtype,
                         cusci_array **out)
{
  cusci_array *r = NULL, *tmp = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, ndim, shape, dtype, &r));
  cusci_array *dst = r;
  cusci_status st = CUSCI_OK;
  if (!cusci_array_is_c_contiguous(r)) {
    st = cusci_array_empty(ctx, ndim, shape, dtype, &tmp);
    dst = tmp;
  }
  int64_t n = cusci_array_size(r);
  int f32 = dtype == CUSCI_FLOAT32;
  bool host = cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST;
  const double *pa = a ? (const double *)cusci_array_data(a->dev) : NULL;
  const void *pb = b ? cusci_array_data(b->dev) : NULL;
  if (st == CUSCI_OK && n > 0) {
    if (host) {
      if (discrete) /* binomial: a = p, b = n (int64) */
        cusci__rhost_int_arr(dist, pa, pb, g->key, g->ctr, n, cusci_array_data(dst));
      else
        cusci__rhost_real_arr(dist, pa, pb, g->key, g->ctr, f32, n, cusci_array_data(dst));
    } else {
      st = cusci_ctx_use_device(ctx, fn);
      if (st == CUSCI_OK) {
        int e = discrete ? cusci__launch_rint_arr(cusci_ctx_stream(ctx), dist, pa, pb, g->key, g->ctr, n, cusci_array_data(dst))
                         : cusci__launch_rreal_arr(cusci_ctx_stream(ctx), dist, pa, pb, g->key, g->ctr, f32, n,
                                                   cusci_array_data(dst));
        if (e != 0)
          st = cusci_ctx_gpu_status(ctx, fn, NULL, e);
      }
    }
  }
  if (st == CUSCI_OK && tmp)
    st = cusci_array_copy(ctx, tmp, &r);
  cusci_array_release(tmp);
  if (st != CUSCI_OK) {
    if (r != *out)
      cusci_array_release(r);
    return st;
  }
  cusci__rparams none = {0};
  int G = discrete ? 1 : cusci__rgroup_size(dist, f32, &none);
  g->ctr += (uint64_t)((n + G - 1) / G);
  *out = r;
  return CUSCI_OK;
}

/* A two-parameter real distribution: load, check, fill, free. */
#define TWO(DIST, NA, A, NB, B)                                                          \
  const char *fn = __func__;                                                                          \
  CUSCI_TRY(cusci__rcheck_array_params(ctx, fn, g, ndim, shape, dtype, false, out));                                     \
  int64_t n = out_size(ndim, shape);                                                                  \
  param pa_, pb_;                                                                                     \
  CUSCI_TRY(param_load(ctx, fn, NA, A, ndim, shape, CUSCI_FLOAT64, &pa_));                           \
  cusci_status st_ = param_load(ctx, fn, NB, B, ndim, shape, CUSCI_FLOAT64, &pb_);                    \
  if (st_ != CUSCI_OK) {                                                                              \
    param_free(&pa_);                                                                                 \
    return st_;                                                                                       \
  }                                                                                                   \
  st_ = check2(ctx, fn, &pa_, &pb_, n, CUSCI__RD_##DIST);                                            \
  if (st_ == CUSCI_OK)                                                                                \
    st_ = fill(ctx, fn, g, CUSCI__RD_##DIST, false, &pa_, &pb_, ndim, shape, dtype, out);             \
  param_free(&pa_);                                                                                   \
  param_free(&pb_);                                                                                   \
  return st_;

/* NumPy's domains, per element. */
static cusci_status check2(cusci_ctx *ctx, const char *fn, const param *a, const param *b, int64_t n, int dist)
{
  switch (dist) {
  case CUSCI__RD_UNIFORM: {
    EACH(*a, n, isfinite(x), "finite values");
    EACH(*b, n, isfinite(x), "finite values");
    const double *lo = a->host, *hi = b->host;
    for (int64_t i = 0; i < n; i++)
      if (!isfinite(hi[i] - lo[i]))
        return fail_at(ctx, fn, "high - low", i, hi[i] - lo[i], "a finite range");
    return CUSCI_OK;
  }
  case CUSCI__RD_NORMAL:
  case CUSCI__RD_LOGNORMAL:
    EACH(*a, n, isfinite(x), "finite values");
    EACH(*b, n, x >= 0 && !isinf(x), ">= 0 and finite");
    return CUSCI_OK;
  case CUSCI__RD_GAMMA:
    EACH(*a, n, x >= 0 && !isinf(x), ">= 0 and finite");
    EACH(*b, n, x >= 0 && !isinf(x), ">= 0 and finite");
    return CUSCI_OK;
  default: /* BETA */
    EACH(*a, n, x > 0 && !isinf(x), "> 0 and finite");
    EACH(*b, n, x > 0 && !isinf(x), "> 0 and finite");
    return CUSCI_OK;
  }
}

cusci_status cusci_random_uniform_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *low, const cusci_array *high, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  TWO(UNIFORM, "low", low, "high", high)
}

cusci_status cusci_random_normal_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *loc, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  TWO(NORMAL, "loc", loc, "scale", scale)
}

cusci_status cusci_random_lognormal_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *mean, const cusci_array *sigma, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  TWO(LOGNORMAL, "mean", mean, "sigma", sigma)
}

cusci_status cusci_random_gamma_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *shape_k, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  TWO(GAMMA, "shape", shape_k, "scale", scale)
}

cusci_status cusci_random_beta_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *a, const cusci_array *b, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  TWO(BETA, "a", a, "b", b)
}

cusci_status cusci_random_exponential_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_array_params(ctx, fn, g, ndim, shape, dtype, false, out));
  int64_t n = out_size(ndim, shape);
  param pa;
  CUSCI_TRY(param_load(ctx, fn, "scale", scale, ndim, shape, CUSCI_FLOAT64, &pa));
  cusci_status st = CUSCI_OK;
  const double *v = pa.host;
  for (int64_t i = 0; i < n && st == CUSCI_OK; i++)
    if (!(v[i] >= 0 && !isinf(v[i])))
      st = fail_at(ctx, fn, "scale", i, v[i], ">= 0 and finite");
  if (st == CUSCI_OK)
    st = fill(ctx, fn, g, CUSCI__RD_EXPONENTIAL, false, &pa, NULL, ndim, shape, dtype, out);
  param_free(&pa);
  return st;
}

cusci_status cusci_random_poisson_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *lam, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_array_params(ctx, fn, g, ndim, shape, CUSCI_INT64, true, out));
  int64_t n = out_size(ndim, shape);
  param pa;
  CUSCI_TRY(param_load(ctx, fn, "lam", lam, ndim, shape, CUSCI_FLOAT64, &pa));
  cusci_status st = CUSCI_OK;
  const double *v = pa.host;
  for (int64_t i = 0; i < n && st == CUSCI_OK; i++)
    if (!(v[i] >= 0 && v[i] <= 9.2e18))
      st = fail_at(ctx, fn, "lam", i, v[i], "in [0, 9.2e18]");
  if (st == CUSCI_OK)
    st = fill(ctx, fn, g, CUSCI__RD_POISSON, true, &pa, NULL, ndim, shape, CUSCI_INT64, out);
  param_free(&pa);
  return st;
}

cusci_status cusci_random_binomial_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *n_trials, const cusci_array *p, int ndim, const int64_t *shape, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_array_params(ctx, fn, g, ndim, shape, CUSCI_INT64, true, out));
  int64_t n = out_size(ndim, shape);
  param pp, pn;
  CUSCI_TRY(param_load(ctx, fn, "p", p, ndim, shape, CUSCI_FLOAT64, &pp));
  cusci_status st = param_load(ctx, fn, "n", n_trials, ndim, shape, CUSCI_INT64, &pn);
  if (st != CUSCI_OK) {
    param_free(&pp);
    return st;
  }
  const double *pv = pp.host;
  const int64_t *nv = pn.host;
  for (int64_t i = 0; i < n && st == CUSCI_OK; i++) {
    if (!(pv[i] >= 0 && pv[i] <= 1))
      st = fail_at(ctx, fn, "p", i, pv[i], "in [0, 1]");
    else if (nv[i] < 0)
      st = fail_at(ctx, fn, "n", i, (double)nv[i], ">= 0");
  }
  if (st == CUSCI_OK)
    st = fill(ctx, fn, g, CUSCI__RD_BINOMIAL, true, &pp, &pn, ndim, shape, CUSCI_INT64, out);
  param_free(&pp);
  param_free(&pn);
  return st;
}
