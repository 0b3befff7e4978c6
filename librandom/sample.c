/*
 * librandom/sample.c: the sampling functions: argument checks, then the
 * host reference (reference/random) or the kernels (kernels/random) for
 * Philox, or cuRAND for its engines.
 */
#include "librandom/internal.h"

#include <math.h>

#include "reference/random/reference.h"
#include "kernels/random/launch.h"

/* What a call asks for, checked by the caller. */
typedef struct request {
  const char *fn;
  int dist;
  cusci__rparams p;
  bool discrete; /* int64 (or integers' dtype) rather than float */
} request;

static int64_t groups_of(const request *rq, int f32, int64_t n)
{
  int G = cusci__rgroup_size(rq->dist, f32, &rq->p);
  return (n + G - 1) / G;
}

/* Fill the C-contiguous `dst` from Philox at g's counter. */
static cusci_status philox_fill(cusci_ctx *ctx, const request *rq, cusci_random_generator *g, cusci_array *dst)
{
  int64_t n = cusci_array_size(dst);
  cusci_dtype dt = cusci_array_dtype(dst);
  int f32 = dt == CUSCI_FLOAT32;
  void *data = cusci_array_data(dst);
  if (n == 0)
    return CUSCI_OK;
  if (cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST) {
    if (rq->discrete)
      cusci__rhost_int(rq->dist, &rq->p, g->key, g->ctr, (int)dt, n, data);
    else
      cusci__rhost_real(rq->dist, &rq->p, g->key, g->ctr, f32, n, data);
    return CUSCI_OK;
  }
  CUSCI_TRY(cusci_ctx_use_device(ctx, rq->fn));
  void *s = cusci_ctx_stream(ctx);
  if (rq->discrete) {
    int e = cusci__launch_rint(s, rq->dist, &rq->p, g->key, g->ctr, (int)dt, n, data);
    if (e != 0)
      return cusci_ctx_gpu_status(ctx, rq->fn, NULL, e);
    return CUSCI_OK;
  }
  /* The pool hands the scratch on to later work on this stream only, so it
   * may be released as soon as the kernels are queued. */
  size_t need = 0;
  int e = cusci__rreal_scratch(rq->dist, &rq->p, f32, n, &need);
  if (e != 0)
    return cusci_ctx_gpu_status(ctx, rq->fn, NULL, e);
  int64_t bytes = (int64_t)need;
  cusci_array *scratch = NULL;
  if (bytes > 0)
    CUSCI_TRY(cusci_array_empty(ctx, 1, &bytes, CUSCI_UINT8, &scratch));
  e = cusci__launch_rreal(s, rq->dist, &rq->p, g->key, g->ctr, f32, n, data, scratch ? cusci_array_data(scratch) : NULL);
  cusci_array_release(scratch);
  if (e != 0)
    return cusci_ctx_gpu_status(ctx, rq->fn, NULL, e);
  return CUSCI_OK;
}

/* The common body: checks, the output, the fill, the counter. */
static cusci_status sample(cusci_ctx *ctx, const request *rq, cusci_random_generator *g, int ndim,
                           const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  cusci_array *r = NULL, *tmp = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, rq->fn, out, ndim, shape, dtype, &r));
  cusci_array *dst = r;
  cusci_status st = CUSCI_OK;
  /* The kernels store a group of elements at once (16 bytes of float32 or
   * float64): an out that is contiguous but starts at another multiple of
   * its item size (a slice, or memory of the caller's) is filled through
   * a new array, which the pool aligns. */
  if (!cusci_array_is_c_contiguous(r) || (uintptr_t)cusci_array_data(r) % 16 != 0) {
    st = cusci_array_empty(ctx, ndim, shape, dtype, &tmp);
    dst = tmp;
  }
  if (st == CUSCI_OK)
    st = g->curand ? cusci__rcurand_sample(ctx, rq->fn, g, rq->dist, &rq->p, dtype, dst)
                   : philox_fill(ctx, rq, g, dst);
  if (st == CUSCI_OK && tmp)
    st = cusci_array_copy(ctx, tmp, &r);
  cusci_array_release(tmp);
  if (st != CUSCI_OK) {
    if (r != *out)
      cusci_array_release(r);
    return st;
  }
  int64_t n = cusci_array_size(r);
  if (g->curand)
    g->ctr += cusci__rcurand_consumed(g, rq->dist, dtype, n);
  else
    g->ctr += (uint64_t)groups_of(rq, dtype == CUSCI_FLOAT32, n);
  *out = r;
  return CUSCI_OK;
}

/* A parameter check: `ok` or CUSCI_ERR_VALUE naming the parameter. */
#define NEED(ok, name, value, rule)                                                                  \
  do {                                                                                               \
    if (!(ok))                                                                                       \
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, rq.fn, "%s = %g, expected %s", name, (double)(value), rule); \
  } while (0)

#define BEGIN(DIST, DISCRETE) \
  request rq = {.fn = __func__, .dist = CUSCI__RD_##DIST, .discrete = DISCRETE}; \
  CUSCI_TRY(cusci__rcheck_sample(ctx, rq.fn, rq.dist, rq.discrete, g, ndim, shape, dtype, out))
#define FINISH return sample(ctx, &rq, g, ndim, shape, dtype, out)

#define NOTNAN(x, name) NEED(!isnan(x), name, x, "a number")
#define FINITE(x, name) NEED(isfinite(x), name, x, "a finite number")
#define NONNEG(x, name) NEED((x) >= 0 && !isinf(x), name, x, ">= 0 and finite")
#define POS(x, name) NEED((x) > 0 && !isinf(x), name, x, "> 0 and finite")

cusci_status cusci_random_random(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(RANDOM, false);
  rq.p.a = 0.0;
  rq.p.b = 1.0;
  FINISH;
}

cusci_status cusci_random_uniform(cusci_ctx *ctx, cusci_random_generator *g, double low, double high, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(UNIFORM, false);
  FINITE(low, "low");
  FINITE(high, "high");
  NEED(isfinite(high - low), "high - low", high - low, "a finite range");
  rq.p.a = low;
  rq.p.b = high;
  FINISH;
}

cusci_status cusci_random_standard_normal(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(STANDARD_NORMAL, false);
  rq.p.b = 1.0;
  FINISH;
}

cusci_status cusci_random_normal(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(NORMAL, false);
  FINITE(loc, "loc");
  NONNEG(scale, "scale");
  rq.p.a = loc;
  rq.p.b = scale;
  FINISH;
}

cusci_status cusci_random_lognormal(cusci_ctx *ctx, cusci_random_generator *g, double mean, double sigma, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(LOGNORMAL, false);
  FINITE(mean, "mean");
  NONNEG(sigma, "sigma");
  rq.p.a = mean;
  rq.p.b = sigma;
  FINISH;
}

cusci_status cusci_random_standard_exponential(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(STANDARD_EXPONENTIAL, false);
  FINISH;
}

cusci_status cusci_random_exponential(cusci_ctx *ctx, cusci_random_generator *g, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(EXPONENTIAL, false);
  NONNEG(scale, "scale");
  rq.p.a = scale;
  FINISH;
}

#define LOC_SCALE(NAME, DIST)                                                                                  \
  cusci_status cusci_random_##NAME(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, \
                                   const int64_t *shape, cusci_dtype dtype, cusci_array **out)                 \
  {                                                                                                            \
    BEGIN(DIST, false);                                                                                        \
    FINITE(loc, "loc");                                                                                        \
    NONNEG(scale, "scale");                                                                                    \
    rq.p.a = loc;                                                                                              \
    rq.p.b = scale;                                                                                            \
    FINISH;                                                                                                    \
  }
LOC_SCALE(laplace, LAPLACE)
LOC_SCALE(logistic, LOGISTIC)
LOC_SCALE(gumbel, GUMBEL)

cusci_status cusci_random_rayleigh(cusci_ctx *ctx, cusci_random_generator *g, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(RAYLEIGH, false);
  NONNEG(scale, "scale");
  rq.p.a = scale;
  FINISH;
}

cusci_status cusci_random_weibull(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(WEIBULL, false);
  NONNEG(a, "a");
  rq.p.a = a;
  FINISH;
}

cusci_status cusci_random_pareto(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(PARETO, false);
  POS(a, "a");
  rq.p.a = a;
  FINISH;
}

cusci_status cusci_random_power(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(POWER, false);
  POS(a, "a");
  rq.p.a = a;
  FINISH;
}

cusci_status cusci_random_triangular(cusci_ctx *ctx, cusci_random_generator *g, double left, double mode, double right, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(TRIANGULAR, false);
  FINITE(left, "left");
  FINITE(mode, "mode");
  FINITE(right, "right");
  NEED(left <= mode, "mode", mode, ">= left");
  NEED(mode <= right, "mode", mode, "<= right");
  NEED(left < right, "right", right, "> left");
  NEED(isfinite(right - left), "right - left", right - left, "a finite range");
  rq.p.a = left;
  rq.p.b = mode;
  rq.p.c = right;
  FINISH;
}

cusci_status cusci_random_standard_cauchy(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(STANDARD_CAUCHY, false);
  FINISH;
}

cusci_status cusci_random_standard_gamma(cusci_ctx *ctx, cusci_random_generator *g, double shape_k, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(STANDARD_GAMMA, false);
  NONNEG(shape_k, "shape");
  rq.p.a = shape_k;
  FINISH;
}

cusci_status cusci_random_gamma(cusci_ctx *ctx, cusci_random_generator *g, double shape_k, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(GAMMA, false);
  NONNEG(shape_k, "shape");
  NONNEG(scale, "scale");
  rq.p.a = shape_k;
  rq.p.b = scale;
  FINISH;
}

cusci_status cusci_random_beta(cusci_ctx *ctx, cusci_random_generator *g, double a, double b, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(BETA, false);
  POS(a, "a");
  POS(b, "b");
  rq.p.a = a;
  rq.p.b = b;
  FINISH;
}

cusci_status cusci_random_chisquare(cusci_ctx *ctx, cusci_random_generator *g, double df, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(CHISQUARE, false);
  POS(df, "df");
  rq.p.a = df;
  FINISH;
}

cusci_status cusci_random_noncentral_chisquare(cusci_ctx *ctx, cusci_random_generator *g, double df, double nonc, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(NONCENTRAL_CHISQUARE, false);
  POS(df, "df");
  NONNEG(nonc, "nonc");
  rq.p.a = df;
  rq.p.b = nonc;
  FINISH;
}

cusci_status cusci_random_f(cusci_ctx *ctx, cusci_random_generator *g, double dfnum, double dfden, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(F, false);
  POS(dfnum, "dfnum");
  POS(dfden, "dfden");
  rq.p.a = dfnum;
  rq.p.b = dfden;
  FINISH;
}

cusci_status cusci_random_noncentral_f(cusci_ctx *ctx, cusci_random_generator *g, double dfnum, double dfden, double nonc, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(NONCENTRAL_F, false);
  POS(dfnum, "dfnum");
  POS(dfden, "dfden");
  NONNEG(nonc, "nonc");
  rq.p.a = dfnum;
  rq.p.b = nonc;
  rq.p.c = dfden;
  FINISH;
}

cusci_status cusci_random_standard_t(cusci_ctx *ctx, cusci_random_generator *g, double df, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(STANDARD_T, false);
  POS(df, "df");
  rq.p.a = df;
  FINISH;
}

cusci_status cusci_random_wald(cusci_ctx *ctx, cusci_random_generator *g, double mean, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(WALD, false);
  POS(mean, "mean");
  POS(scale, "scale");
  rq.p.a = mean;
  rq.p.b = scale;
  FINISH;
}

cusci_status cusci_random_vonmises(cusci_ctx *ctx, cusci_random_generator *g, double mu, double kappa, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(VONMISES, false);
  FINITE(mu, "mu");
  NONNEG(kappa, "kappa");
  rq.p.a = mu;
  rq.p.b = kappa;
  FINISH;
}

/* ------------------------------------------------------------ discrete */

/* The range of an integer dtype, as int64 (uint64's top clipped). */
static void dtype_bounds(cusci_dtype dt, int64_t *lo, int64_t *hi)
{
  switch (dt) {
  case CUSCI_BOOL: *lo = 0; *hi = 1; break;
  case CUSCI_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
  case CUSCI_INT16: *lo = INT16_MIN; *hi = INT16_MAX; break;
  case CUSCI_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
  case CUSCI_UINT8: *lo = 0; *hi = UINT8_MAX; break;
  case CUSCI_UINT16: *lo = 0; *hi = UINT16_MAX; break;
  case CUSCI_UINT32: *lo = 0; *hi = UINT32_MAX; break;
  case CUSCI_UINT64: *lo = 0; *hi = INT64_MAX; break;
  default: *lo = INT64_MIN; *hi = INT64_MAX; break;
  }
}

cusci_status cusci_random_integers(cusci_ctx *ctx, cusci_random_generator *g, int64_t low, int64_t high, bool endpoint, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  BEGIN(INTEGERS, true);
  if (endpoint ? low > high : low >= high)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, rq.fn, "low = %lld, high = %lld: expected low %s high",
                          (long long)low, (long long)high, endpoint ? "<=" : "<");
  int64_t top = endpoint ? high : high - 1, dlo, dhi;
  dtype_bounds(dtype, &dlo, &dhi);
  if (low < dlo || top > dhi)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, rq.fn, "[%lld, %lld] is outside the range of %s", (long long)low,
                          (long long)top, cusci_dtype_name(dtype));
  rq.p.lo = low;
  rq.p.range = (uint64_t)top - (uint64_t)low;
  FINISH;
}

#define DISCRETE(DIST) \
  const cusci_dtype dtype = CUSCI_INT64; \
  BEGIN(DIST, true)

cusci_status cusci_random_poisson(cusci_ctx *ctx, cusci_random_generator *g, double lam, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(POISSON);
  NEED(lam >= 0 && lam <= 9.2e18, "lam", lam, "in [0, 9.2e18]");
  rq.p.a = lam;
  if (lam < 10.0)
    cusci__rpoisson_table(&rq.p);
  else
    cusci__rptrs_init(&rq.p.ptrs, lam);
  FINISH;
}

cusci_status cusci_random_binomial(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, double p, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(BINOMIAL);
  NEED(n >= 0, "n", (double)n, ">= 0");
  NEED(p >= 0 && p <= 1, "p", p, "in [0, 1]");
  rq.p.n = n;
  rq.p.a = p;
  cusci__rbinom_init(&rq.p.binom, n, p);
  cusci__rbinom_table(&rq.p.binom, rq.p.binom_tab);
  FINISH;
}

cusci_status cusci_random_negative_binomial(cusci_ctx *ctx, cusci_random_generator *g, double n, double p, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(NEGATIVE_BINOMIAL);
  POS(n, "n");
  NEED(p > 0 && p <= 1, "p", p, "in (0, 1]");
  rq.p.a = n;
  rq.p.b = p;
  FINISH;
}

cusci_status cusci_random_geometric(cusci_ctx *ctx, cusci_random_generator *g, double p, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(GEOMETRIC);
  NEED(p > 0 && p <= 1, "p", p, "in (0, 1]");
  rq.p.a = p;
  FINISH;
}

cusci_status cusci_random_logseries(cusci_ctx *ctx, cusci_random_generator *g, double p, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(LOGSERIES);
  NEED(p >= 0 && p < 1, "p", p, "in [0, 1)");
  rq.p.a = p;
  FINISH;
}

cusci_status cusci_random_zipf(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(ZIPF);
  NEED(a > 1 && !isinf(a), "a", a, "> 1 and finite");
  rq.p.a = a;
  FINISH;
}

cusci_status cusci_random_hypergeometric(cusci_ctx *ctx, cusci_random_generator *g, int64_t ngood, int64_t nbad, int64_t nsample, int ndim, const int64_t *shape, cusci_array **out)
{
  DISCRETE(HYPERGEOMETRIC);
  NEED(ngood >= 0, "ngood", (double)ngood, ">= 0");
  NEED(nbad >= 0, "nbad", (double)nbad, ">= 0");
  NEED(nsample >= 0, "nsample", (double)nsample, ">= 0");
  NEED(ngood <= 1000000000 - nbad, "ngood + nbad", (double)ngood + (double)nbad, "at most 10^9");
  NEED(nsample <= ngood + nbad, "nsample", (double)nsample, "at most ngood + nbad");
  rq.p.lo = ngood;
  rq.p.range = (uint64_t)nbad;
  rq.p.n = nsample;
  FINISH;
}

cusci_status cusci_random_bytes(cusci_ctx *ctx, cusci_random_generator *g, int64_t length, cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, __func__);
  if (length < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, __func__, "length = %lld is negative", (long long)length);
  return cusci_random_integers(ctx, g, 0, 255, true, 1, &length, CUSCI_UINT8, out);
}
