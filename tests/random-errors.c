/*
 * tests/random-errors.c: bad input to librandom: each gets its status and
 * a message, and a failed call leaves *out as it was and the generator
 * where it was.
 */
#include "config.h"

#include "tests/random-stats.h"

static cusci_ctx *ctx;
static cusci_random_generator *g;

/* A failed call: the status, a message naming the function, *out still
 * NULL, and the generator unmoved. */
#define BAD(want, call, what)                                                                          \
  do {                                                                                                 \
    unsigned char before_[CUSCI_RANDOM_STATE_BYTES], after_[CUSCI_RANDOM_STATE_BYTES];                 \
    cusci_random_generator_get_state(ctx, g, before_, sizeof before_);                                 \
    cusci_array *out = NULL;                                                                           \
    cusci_ctx_clear_error(ctx);                                                                        \
    cusci_status st_ = (call);                                                                         \
    cusci_random_generator_get_state(ctx, g, after_, sizeof after_);                                   \
    ok(st_ == (want) && out == NULL && strstr(cusci_ctx_last_error(ctx), "cusci_random_") &&           \
           !memcmp(before_, after_, sizeof before_),                                                   \
       "%s: %s (%s)", what, cusci_status_name(st_), cusci_ctx_last_error(ctx));                        \
    cusci_array_release(out);                                                                          \
  } while (0)

int main(void)
{
  ctx = tk_host_ctx();
  cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, 1, &g);
  int64_t sh[1] = {10}, neg[1] = {-1};
  const double nan = NAN, inf = INFINITY;
  const cusci_dtype F = CUSCI_FLOAT64;

  /* Pointers, shapes, dtypes. */
  {
    cusci_array *out = NULL;
    ok(cusci_random_random(NULL, g, 1, sh, F, &out) == CUSCI_ERR_NULL_POINTER, "ctx NULL");
  }
  BAD(CUSCI_ERR_NULL_POINTER, cusci_random_random(ctx, NULL, 1, sh, F, &out), "g NULL");
  {
    cusci_status st = cusci_random_random(ctx, g, 1, sh, F, NULL);
    ok(st == CUSCI_ERR_NULL_POINTER, "out NULL: %s", cusci_status_name(st));
  }
  BAD(CUSCI_ERR_NULL_POINTER, cusci_random_random(ctx, g, 1, NULL, F, &out), "shape NULL");
  BAD(CUSCI_ERR_NDIM, cusci_random_random(ctx, g, 33, sh, F, &out), "ndim 33");
  BAD(CUSCI_ERR_NDIM, cusci_random_random(ctx, g, -1, sh, F, &out), "ndim -1");
  BAD(CUSCI_ERR_SHAPE, cusci_random_random(ctx, g, 1, neg, F, &out), "a negative extent");
  BAD(CUSCI_ERR_OVERFLOW, cusci_random_random(ctx, g, 2, ((int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40}), F, &out),
      "a size that overflows");
  BAD(CUSCI_ERR_DTYPE, cusci_random_random(ctx, g, 1, sh, CUSCI_INT32, &out), "random as int32");
  BAD(CUSCI_ERR_DTYPE, cusci_random_normal(ctx, g, 0, 1, 1, sh, CUSCI_FLOAT16, &out), "normal as float16");
  BAD(CUSCI_ERR_DTYPE, cusci_random_normal(ctx, g, 0, 1, 1, sh, (cusci_dtype)99, &out), "a dtype outside the enum");
  BAD(CUSCI_ERR_DTYPE, cusci_random_integers(ctx, g, 0, 5, false, 1, sh, CUSCI_FLOAT64, &out), "integers as float64");

  /* NumPy's domains. */
  BAD(CUSCI_ERR_VALUE, cusci_random_normal(ctx, g, 0, -1, 1, sh, F, &out), "normal scale < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_normal(ctx, g, nan, 1, 1, sh, F, &out), "normal loc NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_normal(ctx, g, 0, nan, 1, sh, F, &out), "normal scale NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_uniform(ctx, g, 0, inf, 1, sh, F, &out), "uniform high inf");
  BAD(CUSCI_ERR_VALUE, cusci_random_uniform(ctx, g, -1.7e308, 1.7e308, 1, sh, F, &out), "uniform range overflows");
  BAD(CUSCI_ERR_VALUE, cusci_random_lognormal(ctx, g, 0, -0.5, 1, sh, F, &out), "lognormal sigma < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_exponential(ctx, g, -2.385, 1, sh, F, &out), "exponential scale < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_laplace(ctx, g, 0, -1, 1, sh, F, &out), "laplace scale < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_logistic(ctx, g, 0, nan, 1, sh, F, &out), "logistic scale NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_gumbel(ctx, g, inf, 1, 1, sh, F, &out), "gumbel loc inf");
  BAD(CUSCI_ERR_VALUE, cusci_random_rayleigh(ctx, g, -1, 1, sh, F, &out), "rayleigh scale < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_weibull(ctx, g, -1, 1, sh, F, &out), "weibull a < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_pareto(ctx, g, 0, 1, sh, F, &out), "pareto a = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_power(ctx, g, -3, 1, sh, F, &out), "power a < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_triangular(ctx, g, 0, 2, 1, 1, sh, F, &out), "triangular mode > right");
  BAD(CUSCI_ERR_VALUE, cusci_random_triangular(ctx, g, 1, 1, 1, 1, sh, F, &out), "triangular left = right");
  BAD(CUSCI_ERR_VALUE, cusci_random_standard_gamma(ctx, g, -0.1, 1, sh, F, &out), "standard_gamma shape < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_gamma(ctx, g, 2, -1, 1, sh, F, &out), "gamma scale < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_beta(ctx, g, 0, 1, 1, sh, F, &out), "beta a = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_beta(ctx, g, 1, nan, 1, sh, F, &out), "beta b NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_chisquare(ctx, g, 0, 1, sh, F, &out), "chisquare df = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_noncentral_chisquare(ctx, g, 2, -1, 1, sh, F, &out), "noncentral_chisquare nonc < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_f(ctx, g, 1, 0, 1, sh, F, &out), "f dfden = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_noncentral_f(ctx, g, 1, 2, nan, 1, sh, F, &out), "noncentral_f nonc NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_standard_t(ctx, g, -2, 1, sh, F, &out), "standard_t df < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_wald(ctx, g, 1, 0, 1, sh, F, &out), "wald scale = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_poisson(ctx, g, -1, 1, sh, &out), "poisson lam < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_poisson(ctx, g, nan, 1, sh, &out), "poisson lam NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_poisson(ctx, g, 1e20, 1, sh, &out), "poisson lam too large");
  BAD(CUSCI_ERR_VALUE, cusci_random_binomial(ctx, g, 10, 1.5, 1, sh, &out), "binomial p > 1");
  BAD(CUSCI_ERR_VALUE, cusci_random_binomial(ctx, g, -1, 0.5, 1, sh, &out), "binomial n < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_negative_binomial(ctx, g, 3, 0, 1, sh, &out), "negative_binomial p = 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_geometric(ctx, g, -0.1, 1, sh, &out), "geometric p < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_logseries(ctx, g, 1, 1, sh, &out), "logseries p = 1");
  BAD(CUSCI_ERR_VALUE, cusci_random_zipf(ctx, g, 1, 1, sh, &out), "zipf a = 1");
  BAD(CUSCI_ERR_VALUE, cusci_random_integers(ctx, g, 5, 5, false, 1, sh, CUSCI_INT64, &out), "integers low = high");
  BAD(CUSCI_ERR_VALUE, cusci_random_integers(ctx, g, 6, 5, true, 1, sh, CUSCI_INT64, &out), "integers low > high, endpoint");
  BAD(CUSCI_ERR_VALUE, cusci_random_integers(ctx, g, 0, 300, false, 1, sh, CUSCI_UINT8, &out), "integers past uint8");
  BAD(CUSCI_ERR_VALUE, cusci_random_integers(ctx, g, -1, 3, false, 1, sh, CUSCI_UINT32, &out), "integers below uint32");

  /* permutation, shuffle, choice. */
  {
    double pbad[3] = {0.2, 0.3, 0.4}, pneg[3] = {0.6, -0.1, 0.5}, pzero[3] = {0.5, 0.0, 0.5};
    int64_t three = 3, two = 2;
    cusci_array *pb = NULL, *pn = NULL, *pz = NULL, *pi = NULL;
    cusci_array_from_host(ctx, pbad, 1, &three, F, &pb);
    cusci_array_from_host(ctx, pneg, 1, &three, F, &pn);
    cusci_array_from_host(ctx, pzero, 1, &three, F, &pz);
    cusci_array_from_host(ctx, (int32_t[]){1, 1, 1}, 1, &three, CUSCI_INT32, &pi);
    BAD(CUSCI_ERR_VALUE, cusci_random_permutation(ctx, g, -1, &out), "permutation of -1");
    BAD(CUSCI_ERR_VALUE, cusci_random_choice(ctx, g, 3, 1, &two, true, pb, &out), "choice: p sums to 0.9");
    BAD(CUSCI_ERR_VALUE, cusci_random_choice(ctx, g, 3, 1, &two, true, pn, &out), "choice: a negative p");
    BAD(CUSCI_ERR_VALUE, cusci_random_choice(ctx, g, 3, 1, ((int64_t[]){3}), false, pz, &out),
        "choice: fewer non-zero p than size, without replacement");
    BAD(CUSCI_ERR_VALUE, cusci_random_choice(ctx, g, 3, 1, ((int64_t[]){4}), false, NULL, &out),
        "choice: a sample larger than the population without replacement");
    BAD(CUSCI_ERR_SHAPE, cusci_random_choice(ctx, g, 4, 1, &two, true, pz, &out), "choice: p of another length");
    BAD(CUSCI_ERR_DTYPE, cusci_random_choice(ctx, g, 3, 1, &two, true, pi, &out), "choice: an integer p");
    BAD(CUSCI_ERR_VALUE, cusci_random_choice(ctx, g, -2, 1, &two, true, NULL, &out), "choice: a < 0");
    cusci_array *scalar = NULL;
    cusci_array_zeros(ctx, 0, NULL, F, &scalar);
    cusci_status st = cusci_random_shuffle(ctx, g, scalar);
    ok(st == CUSCI_ERR_NDIM, "shuffle of a 0-d array: %s", cusci_status_name(st));
    st = cusci_random_shuffle(ctx, g, NULL);
    ok(st == CUSCI_ERR_NULL_POINTER, "shuffle of NULL: %s", cusci_status_name(st));
    cusci_array_release(scalar);
    cusci_array_release(pb), cusci_array_release(pn), cusci_array_release(pz), cusci_array_release(pi);
  }

  /* vonmises, hypergeometric and the vector distributions. */
  BAD(CUSCI_ERR_VALUE, cusci_random_vonmises(ctx, g, 0, -1, 1, sh, F, &out), "vonmises kappa < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_vonmises(ctx, g, nan, 1, 1, sh, F, &out), "vonmises mu NaN");
  BAD(CUSCI_ERR_VALUE, cusci_random_hypergeometric(ctx, g, 5, 5, 11, 1, sh, &out), "hypergeometric nsample > ngood + nbad");
  BAD(CUSCI_ERR_VALUE, cusci_random_hypergeometric(ctx, g, -1, 5, 1, 1, sh, &out), "hypergeometric ngood < 0");
  BAD(CUSCI_ERR_VALUE, cusci_random_hypergeometric(ctx, g, 600000000, 600000000, 1, 1, sh, &out),
      "hypergeometric ngood + nbad > 10^9");
  BAD(CUSCI_ERR_VALUE, cusci_random_bytes(ctx, g, -1, &out), "bytes(-1)");
  {
    int64_t two = 2, three = 3, c22[2] = {2, 2}, c23[2] = {2, 3};
    cusci_array *p3 = NULL, *alpha = NULL, *m2 = NULL, *notpsd = NULL, *asym = NULL, *c2x3 = NULL, *colors = NULL,
                *fcol = NULL, *eye = NULL;
    cusci_array_from_host(ctx, (double[]){0.7, 0.6, 0.1}, 1, &three, F, &p3);
    cusci_array_from_host(ctx, (double[]){1.0, 0.0, 2.0}, 1, &three, F, &alpha);
    cusci_array_from_host(ctx, (double[]){0.0, 1.0}, 1, &two, F, &m2);
    cusci_array_from_host(ctx, (double[]){1.0, 2.0, 2.0, 1.0}, 2, c22, F, &notpsd);
    cusci_array_from_host(ctx, (double[]){1.0, 0.5, 0.2, 1.0}, 2, c22, F, &asym);
    cusci_array_from_host(ctx, (double[]){1, 0, 0, 0, 1, 0}, 2, c23, F, &c2x3);
    cusci_array_from_host(ctx, (int64_t[]){3, 4}, 1, &two, CUSCI_INT64, &colors);
    cusci_array_from_host(ctx, (double[]){3, 4}, 1, &two, F, &fcol);
    cusci_array_from_host(ctx, (double[]){1, 0, 0, 1}, 2, c22, F, &eye);
    cusci_random_mvn_opts chol = {CUSCI_MVN_CHOLESKY, 0}, bad_method = {(cusci_random_mvn_method)7, 0};
    BAD(CUSCI_ERR_VALUE, cusci_random_multinomial(ctx, g, 5, p3, 1, sh, &out), "multinomial: sum(pvals[:-1]) > 1");
    BAD(CUSCI_ERR_VALUE, cusci_random_multinomial(ctx, g, -5, p3, 1, sh, &out), "multinomial: n < 0");
    BAD(CUSCI_ERR_NULL_POINTER, cusci_random_multinomial(ctx, g, 5, NULL, 1, sh, &out), "multinomial: pvals NULL");
    BAD(CUSCI_ERR_NDIM, cusci_random_multinomial(ctx, g, 5, eye, 1, sh, &out), "multinomial: 2-D pvals");
    BAD(CUSCI_ERR_VALUE, cusci_random_dirichlet(ctx, g, alpha, 1, sh, &out), "dirichlet: alpha with a 0");
    BAD(CUSCI_ERR_VALUE, cusci_random_multivariate_normal(ctx, g, m2, notpsd, NULL, 1, sh, &out),
        "multivariate_normal: cov not positive semidefinite");
    BAD(CUSCI_ERR_LINALG, cusci_random_multivariate_normal(ctx, g, m2, notpsd, &chol, 1, sh, &out),
        "multivariate_normal: Cholesky of an indefinite cov");
    BAD(CUSCI_ERR_VALUE, cusci_random_multivariate_normal(ctx, g, m2, asym, NULL, 1, sh, &out),
        "multivariate_normal: cov not symmetric");
    BAD(CUSCI_ERR_SHAPE, cusci_random_multivariate_normal(ctx, g, m2, c2x3, NULL, 1, sh, &out),
        "multivariate_normal: cov 2x3");
    BAD(CUSCI_ERR_INVALID_ARGUMENT, cusci_random_multivariate_normal(ctx, g, m2, eye, &bad_method, 1, sh, &out),
        "multivariate_normal: an unknown method");
    BAD(CUSCI_ERR_VALUE, cusci_random_multivariate_hypergeometric(ctx, g, colors, 8, 1, sh, &out),
        "multivariate_hypergeometric: nsample > sum(colors)");
    BAD(CUSCI_ERR_DTYPE, cusci_random_multivariate_hypergeometric(ctx, g, fcol, 2, 1, sh, &out),
        "multivariate_hypergeometric: float colors");
    cusci_array_release(p3), cusci_array_release(alpha), cusci_array_release(m2), cusci_array_release(notpsd);
    cusci_array_release(asym), cusci_array_release(c2x3), cusci_array_release(colors), cusci_array_release(fcol);
    cusci_array_release(eye);
  }

  /* *out that does not fit: shape, dtype. */
  {
    cusci_array *o = NULL;
    cusci_array_empty(ctx, 1, (const int64_t[]){11}, F, &o);
    cusci_array *keep = o;
    cusci_status st = cusci_random_random(ctx, g, 1, sh, F, &o);
    ok(st == CUSCI_ERR_SHAPE && o == keep, "*out of another shape: %s", cusci_status_name(st));
    st = cusci_random_random(ctx, g, 1, (const int64_t[]){11}, CUSCI_FLOAT32, &o);
    ok(st == CUSCI_ERR_DTYPE && o == keep, "*out of another dtype: %s", cusci_status_name(st));
    cusci_array_release(o);
  }

  /* Generators and states. */
  {
    cusci_random_generator *h = NULL;
    cusci_status st = cusci_random_generator_create(ctx, (cusci_bitgen)42, 1, &h);
    ok(st == CUSCI_ERR_INVALID_ARGUMENT && !h, "an unknown bit generator: %s", cusci_status_name(st));
    st = cusci_random_generator_create(ctx, CUSCI_BITGEN_XORWOW, 1, &h);
#ifdef CUSCI_HAVE_CUDA
    ok(st == CUSCI_OK && h, "a cuRAND engine on the host, through cuRAND's host generator: %s", cusci_status_name(st));
#else
    ok(st == CUSCI_ERR_NOT_SUPPORTED && !h, "a cuRAND engine in a build without CUDA: %s", cusci_status_name(st));
#endif
    cusci_random_generator_destroy(h);
    h = NULL;
    st = cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, 1, NULL);
    ok(st == CUSCI_ERR_NULL_POINTER, "create with out NULL");
    unsigned char blob[CUSCI_RANDOM_STATE_BYTES];
    st = cusci_random_generator_get_state(ctx, g, blob, 10);
    ok(st == CUSCI_ERR_BUFFER_TOO_SMALL, "get_state into 10 bytes: %s", cusci_status_name(st));
    cusci_random_generator_get_state(ctx, g, blob, sizeof blob);
    st = cusci_random_generator_set_state(ctx, g, blob, 47);
    ok(st == CUSCI_ERR_BUFFER_TOO_SMALL, "set_state from 47 bytes: %s", cusci_status_name(st));
    blob[0] ^= 1;
    st = cusci_random_generator_set_state(ctx, g, blob, sizeof blob);
    ok(st == CUSCI_ERR_FORMAT, "set_state from a blob that is not one: %s", cusci_status_name(st));
    blob[0] ^= 1;
    blob[12] = 3; /* another kind */
    st = cusci_random_generator_set_state(ctx, g, blob, sizeof blob);
    ok(st == CUSCI_ERR_VALUE, "set_state from another kind's blob: %s", cusci_status_name(st));
    cusci_random_generator *kids[2] = {0};
    st = cusci_random_generator_spawn(ctx, g, -1, kids);
    ok(st == CUSCI_ERR_INVALID_ARGUMENT, "spawn -1: %s", cusci_status_name(st));
    st = cusci_random_generator_spawn(ctx, g, 2, NULL);
    ok(st == CUSCI_ERR_NULL_POINTER, "spawn into NULL: %s", cusci_status_name(st));
    st = cusci_random_generator_advance(ctx, NULL, 3);
    ok(st == CUSCI_ERR_NULL_POINTER, "advance NULL: %s", cusci_status_name(st));
    cusci_random_generator_destroy(NULL);
    ok(1, "destroy(NULL) is a no-op");
  }

  cusci_random_generator_destroy(g);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
