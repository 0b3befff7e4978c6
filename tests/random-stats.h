/*
 * tests/random-stats.h: what librandom's tests share: every distribution as
 * a case (a fixture name and a call), and the statistics that judge a
 * sample: moments within bounds from the sample size, a Kolmogorov-Smirnov
 * statistic on SciPy's quantile grid, a chi-square test for counts.
 */
#ifndef CUSCI_TESTS_RANDOM_STATS_H
#define CUSCI_TESTS_RANDOM_STATS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

typedef struct rcase {
  const char *name; /* fixture stem in tests/fixtures/random */
  int discrete;
} rcase;

/* The cases; rs_draw knows how to call each. */
static const rcase rs_cases[] = {
  {"random", 0}, {"uniform", 0}, {"standard_normal", 0}, {"normal", 0}, {"lognormal", 0},
  {"standard_exponential", 0}, {"exponential", 0}, {"laplace", 0}, {"logistic", 0}, {"gumbel", 0},
  {"rayleigh", 0}, {"weibull", 0}, {"pareto", 0}, {"power", 0}, {"triangular", 0},
  {"standard_cauchy", 0}, {"standard_gamma_small", 0}, {"standard_gamma", 0}, {"gamma", 0},
  {"beta_small", 0}, {"beta", 0}, {"chisquare", 0}, {"noncentral_chisquare", 0},
  {"noncentral_chisquare_small", 0}, {"f", 0}, {"noncentral_f", 0}, {"standard_t", 0}, {"wald", 0},
  {"vonmises", 0}, {"vonmises_small", 0},
  {"integers", 1}, {"poisson_small", 1}, {"poisson", 1}, {"poisson_large", 1}, {"binomial_small", 1},
  {"binomial", 1}, {"binomial_high_p", 1}, {"negative_binomial", 1}, {"geometric", 1},
  {"geometric_high_p", 1}, {"logseries", 1}, {"zipf", 1},
  {"hypergeometric", 1}, {"hypergeometric_large", 1},
  {NULL, 0}};

/* Draw case `name` with the parameters of fixtures_random.py. dtype is for
 * the continuous cases (the discrete ones make int64). */
static inline cusci_status rs_draw(cusci_ctx *ctx, cusci_random_generator *g, const char *name, int ndim, const int64_t *sh,
                            cusci_dtype dt, cusci_array **out)
{
#define IS(s) (strcmp(name, s) == 0)
  if (IS("random")) return cusci_random_random(ctx, g, ndim, sh, dt, out);
  if (IS("uniform")) return cusci_random_uniform(ctx, g, -2.385, 7.9, ndim, sh, dt, out);
  if (IS("standard_normal")) return cusci_random_standard_normal(ctx, g, ndim, sh, dt, out);
  if (IS("normal")) return cusci_random_normal(ctx, g, 1.25, 2.385, ndim, sh, dt, out);
  if (IS("lognormal")) return cusci_random_lognormal(ctx, g, 0.3, 0.65, ndim, sh, dt, out);
  if (IS("standard_exponential")) return cusci_random_standard_exponential(ctx, g, ndim, sh, dt, out);
  if (IS("exponential")) return cusci_random_exponential(ctx, g, 2.385, ndim, sh, dt, out);
  if (IS("laplace")) return cusci_random_laplace(ctx, g, 0.7, 1.9, ndim, sh, dt, out);
  if (IS("logistic")) return cusci_random_logistic(ctx, g, -0.4, 1.3, ndim, sh, dt, out);
  if (IS("gumbel")) return cusci_random_gumbel(ctx, g, 0.5, 2.1, ndim, sh, dt, out);
  if (IS("rayleigh")) return cusci_random_rayleigh(ctx, g, 1.7, ndim, sh, dt, out);
  if (IS("weibull")) return cusci_random_weibull(ctx, g, 1.6, ndim, sh, dt, out);
  if (IS("pareto")) return cusci_random_pareto(ctx, g, 3.5, ndim, sh, dt, out);
  if (IS("power")) return cusci_random_power(ctx, g, 2.5, ndim, sh, dt, out);
  if (IS("triangular")) return cusci_random_triangular(ctx, g, -1.2, 0.9, 3.1, ndim, sh, dt, out);
  if (IS("standard_cauchy")) return cusci_random_standard_cauchy(ctx, g, ndim, sh, dt, out);
  if (IS("standard_gamma_small")) return cusci_random_standard_gamma(ctx, g, 0.37, ndim, sh, dt, out);
  if (IS("standard_gamma")) return cusci_random_standard_gamma(ctx, g, 2.385, ndim, sh, dt, out);
  if (IS("gamma")) return cusci_random_gamma(ctx, g, 7.5, 0.6, ndim, sh, dt, out);
  if (IS("beta_small")) return cusci_random_beta(ctx, g, 0.45, 0.8, ndim, sh, dt, out);
  if (IS("beta")) return cusci_random_beta(ctx, g, 2.5, 4.2, ndim, sh, dt, out);
  if (IS("chisquare")) return cusci_random_chisquare(ctx, g, 3.3, ndim, sh, dt, out);
  if (IS("noncentral_chisquare")) return cusci_random_noncentral_chisquare(ctx, g, 4.5, 2.2, ndim, sh, dt, out);
  if (IS("noncentral_chisquare_small")) return cusci_random_noncentral_chisquare(ctx, g, 0.7, 1.6, ndim, sh, dt, out);
  if (IS("f")) return cusci_random_f(ctx, g, 5.5, 9.0, ndim, sh, dt, out);
  if (IS("noncentral_f")) return cusci_random_noncentral_f(ctx, g, 5.5, 12.0, 1.8, ndim, sh, dt, out);
  if (IS("standard_t")) return cusci_random_standard_t(ctx, g, 5.3, ndim, sh, dt, out);
  if (IS("wald")) return cusci_random_wald(ctx, g, 1.4, 2.2, ndim, sh, dt, out);
  if (IS("vonmises")) return cusci_random_vonmises(ctx, g, 0.7, 2.385, ndim, sh, dt, out);
  if (IS("vonmises_small")) return cusci_random_vonmises(ctx, g, -2.5, 0.3, ndim, sh, dt, out);
  if (IS("hypergeometric")) return cusci_random_hypergeometric(ctx, g, 17, 23, 12, ndim, sh, out);
  if (IS("hypergeometric_large")) return cusci_random_hypergeometric(ctx, g, 3000, 7000, 2500, ndim, sh, out);
  if (IS("integers")) return cusci_random_integers(ctx, g, 2, 23, false, ndim, sh, CUSCI_INT64, out);
  if (IS("poisson_small")) return cusci_random_poisson(ctx, g, 3.7, ndim, sh, out);
  if (IS("poisson")) return cusci_random_poisson(ctx, g, 23.5, ndim, sh, out);
  if (IS("poisson_large")) return cusci_random_poisson(ctx, g, 1234.5, ndim, sh, out);
  if (IS("binomial_small")) return cusci_random_binomial(ctx, g, 40, 0.31, ndim, sh, out);
  if (IS("binomial")) return cusci_random_binomial(ctx, g, 500, 0.37, ndim, sh, out);
  if (IS("binomial_high_p")) return cusci_random_binomial(ctx, g, 300, 0.85, ndim, sh, out);
  if (IS("negative_binomial")) return cusci_random_negative_binomial(ctx, g, 4.5, 0.35, ndim, sh, out);
  if (IS("geometric")) return cusci_random_geometric(ctx, g, 0.23, ndim, sh, out);
  if (IS("geometric_high_p")) return cusci_random_geometric(ctx, g, 0.6, ndim, sh, out);
  if (IS("logseries")) return cusci_random_logseries(ctx, g, 0.72, ndim, sh, out);
  if (IS("zipf")) return cusci_random_zipf(ctx, g, 2.3, ndim, sh, out);
#undef IS
  return CUSCI_ERR_INVALID_ARGUMENT;
}

static inline int rs_cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* sqrt(n) max_k |F_n(q_k) - k/1000| over SciPy's quantiles q (999 of them):
 * the Kolmogorov-Smirnov statistic seen on that grid. x is sorted. */
static inline double rs_ks_grid(const double *x, int64_t n, const double *q)
{
  double d = 0;
  int64_t i = 0;
  for (int k = 1; k <= 999; k++) {
    while (i < n && x[i] <= q[k - 1])
      i++;
    double e = fabs((double)i / (double)n - k / 1000.0);
    if (e > d)
      d = e;
  }
  return d * sqrt((double)n);
}

/* Mean and variance within 6 standard errors of the exact ones; m holds
 * mean, variance, fourth central moment (NaN: not checked). */
static inline void rs_moments(const double *x, int64_t n, const double *m, const char *what)
{
  double s = 0, s2 = 0;
  for (int64_t i = 0; i < n; i++)
    s += x[i];
  double mean = s / (double)n;
  for (int64_t i = 0; i < n; i++)
    s2 += (x[i] - mean) * (x[i] - mean);
  double var = s2 / (double)(n - 1);
  if (isnan(m[0]) || isnan(m[1])) {
    skip(2, "infinite moments");
    return;
  }
  double tol_m = 6.0 * sqrt(m[1] / (double)n);
  ok(fabs(mean - m[0]) <= tol_m, "%s: mean %.6g, exact %.6g (tolerance %.3g)", what, mean, m[0], tol_m);
  if (isnan(m[2])) {
    skip(1, "infinite fourth moment");
    return;
  }
  double tol_v = 6.0 * sqrt((m[2] - m[1] * m[1]) / (double)n);
  ok(fabs(var - m[1]) <= tol_v, "%s: variance %.6g, exact %.6g (tolerance %.3g)", what, var, m[1], tol_v);
}

/*
 * Chi-square of integer counts against the mass function pmf[0..K]: bins
 * merged left to right until each expects at least 20, the tail past K in
 * the last bin. Passes below the (1 - 1e-6) quantile of chi-square with the
 * bins' degrees of freedom (Wilson-Hilferty).
 */
static inline void rs_chisq(const int64_t *x, int64_t n, const double *pmf, int64_t K, const char *what)
{
  int64_t *cnt = calloc((size_t)K + 2, sizeof *cnt);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    if (x[i] < 0)
      bad++;
    else
      cnt[x[i] <= K ? x[i] : K + 1]++;
  }
  double stat = 0, e = 0, rest = 1.0;
  int64_t o = 0;
  int bins = 0;
  for (int64_t k = 0; k <= K + 1; k++) {
    double pk = k <= K ? pmf[k] : (rest > 0 ? rest : 0);
    if (k <= K)
      rest -= pmf[k];
    e += pk * (double)n;
    o += cnt[k];
    if (e >= 20.0 || k == K + 1) {
      if (e > 0) {
        stat += ((double)o - e) * ((double)o - e) / e;
        bins++;
      }
      e = 0;
      o = 0;
    }
  }
  int dof = bins - 1;
  double z = 4.753, h = 2.0 / (9.0 * dof);
  double crit = dof * pow(1.0 - h + z * sqrt(h), 3.0);
  ok(bad == 0 && stat < crit, "%s: chi-square %.1f over %d dof (limit %.1f)", what, stat, dof, crit);
  free(cnt);
}

#endif
