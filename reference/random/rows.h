/*
 * reference/random/rows.h: the distributions whose draws are vectors
 * (multinomial, dirichlet, multivariate_normal, multivariate_hypergeometric),
 * one row of k values per group, for the host and the GPU alike. Row g reads
 * only the Philox stream at counter ctr + g (see philox.h). `v` holds the
 * row parameters (k of them; for multivariate_normal the mean, then the
 * lower-triangular k x k factor L with cov = L L^T, row-major), in the
 * memory of the side that runs.
 */
#ifndef CUSCI_REFERENCE_RANDOM_ROWS_H
#define CUSCI_REFERENCE_RANDOM_ROWS_H

#include "reference/random/dists.h"

enum { CUSCI__RROW_MULTINOMIAL, CUSCI__RROW_DIRICHLET, CUSCI__RROW_MVN, CUSCI__RROW_MVHYPER };

/* 1 when the row is int64, 0 when double. */
CUSCI_HD int cusci__rrow_discrete(int kind)
{
  return kind == CUSCI__RROW_MULTINOMIAL || kind == CUSCI__RROW_MVHYPER;
}

/*
 * One row. multinomial (n = p->n, v = pvals): conditional binomials,
 * x_i ~ Binomial(n - sum x_<i, p_i / (1 - sum p_<i)), the last taking the
 * rest. dirichlet (v = alpha): gammas over their sum. multivariate_normal:
 * mean + L z. multivariate_hypergeometric (n = nsample, v = colors, total
 * p->a): conditional hypergeometrics, NumPy's "marginals" method.
 */
CUSCI_HD void cusci__rrow(int kind, const double *v, int64_t k, const cusci__rparams *p, uint64_t key, uint64_t lo,
                          double *xr, int64_t *xi)
{
  cusci__rsampler r;
  cusci__rstream_init(&r.s, key, lo);
  switch (kind) {
  case CUSCI__RROW_MULTINOMIAL: {
    int64_t left = p->n;
    double rest = 1.0;
    for (int64_t i = 0; i < k - 1; i++) {
      int64_t x = 0;
      if (left > 0 && rest > 0) {
        double q = v[i] / rest;
        q = q < 0 ? 0 : q > 1 ? 1 : q;
        x = cusci__rbinomial(&r, left, q);
      }
      xi[i] = x;
      left -= x;
      rest -= v[i];
    }
    if (k > 0)
      xi[k - 1] = left;
    return;
  }
  case CUSCI__RROW_DIRICHLET: {
    double sum = 0;
    for (int64_t i = 0; i < k; i++) {
      xr[i] = cusci__rgamma(&r, v[i]);
      sum += xr[i];
    }
    if (sum > 0) {
      for (int64_t i = 0; i < k; i++)
        xr[i] /= sum;
    } else {
      /* every gamma underflowed (tiny alphas): the mass goes to one
       * coordinate, chosen with probabilities alpha / sum(alpha) */
      double tot = 0;
      for (int64_t i = 0; i < k; i++)
        tot += v[i];
      double u = cusci__ru(&r) * tot, c = 0;
      int64_t pick = k - 1;
      for (int64_t i = 0; i < k; i++) {
        c += v[i];
        if (u < c) {
          pick = i;
          break;
        }
      }
      for (int64_t i = 0; i < k; i++)
        xr[i] = i == pick ? 1.0 : 0.0;
    }
    return;
  }
  case CUSCI__RROW_MVN: {
    /* z into the row, then x = mean + L z in place from the last entry
     * up: x_i needs z_j for j <= i only, since L is lower triangular. */
    const double *L = v + k;
    for (int64_t j = 0; j < k; j++)
      xr[j] = cusci__rnorm(&r);
    for (int64_t i = k - 1; i >= 0; i--) {
      double s = 0;
      for (int64_t j = 0; j <= i; j++)
        s += L[i * k + j] * xr[j];
      xr[i] = v[i] + s;
    }
    return;
  }
  default: { /* CUSCI__RROW_MVHYPER */
    int64_t need = p->n;
    double remaining = p->a;
    for (int64_t i = 0; i < k - 1; i++) {
      int64_t good = (int64_t)v[i];
      remaining -= v[i];
      int64_t x = need > 0 ? cusci__rhypergeometric(&r, good, (int64_t)remaining, need) : 0;
      xi[i] = x;
      need -= x;
    }
    if (k > 0)
      xi[k - 1] = need;
    return;
  }
  }
}

#endif
