/*
 * reference/random/perm.h: the sort keys behind permutation, shuffle and
 * choice, for the host and the GPU alike (C11 and CUDA C++).
 *
 * A random permutation of n is the order of n random keys (Philox at
 * counter ctr + i, one 64-bit word), ties broken by the index: a sort, not
 * a Fisher-Yates walk, so that the GPU can make it in parallel and still
 * give the host's permutation. Sampling k of n without replacement with
 * weights w takes the k smallest keys E_i / w_i with E_i standard
 * exponential (Efraimidis and Spirakis, "Weighted random sampling with a
 * reservoir", Inf. Process. Lett. 97(5), 2006, in its exponential form);
 * a zero weight gives +inf and is never drawn first. Both kinds of key are
 * ordered as unsigned 64-bit integers (positive doubles order as their bits).
 */
#ifndef CUSCI_REFERENCE_RANDOM_PERM_H
#define CUSCI_REFERENCE_RANDOM_PERM_H

#include <stdint.h>

#include "reference/random/philox.h"
#include "reference/random/rmath.h"

CUSCI_HD uint64_t cusci__rperm_key(uint64_t key, uint64_t ctr, int64_t i, const double *w)
{
  cusci__rstream s;
  cusci__rstream_init(&s, key, ctr + (uint64_t)i);
  uint64_t x = cusci__next_u64(&s);
  if (!w)
    return x;
  double e = -cusci__rlog(((double)(x >> 11) + 0.5) * (1.0 / 9007199254740992.0));
  double k = w[i] > 0 ? e / w[i] : CUSCI__INF;
  return cusci_double_bits(k);
}

/* Index of the first cdf[j] > u * total over j in [0, n), by bisection;
 * n - 1 when rounding leaves none (cdf non-decreasing, cdf[n-1] = total). */
CUSCI_HD int64_t cusci__rsearch_cdf(const double *cdf, int64_t n, double u)
{
  double t = u * cdf[n - 1];
  int64_t lo = 0, hi = n - 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] > t)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* The uniform of output i of choice with probabilities: 53 bits of the
 * block at counter ctr + i. */
CUSCI_HD double cusci__rchoice_u(uint64_t key, uint64_t ctr, int64_t i)
{
  cusci__rstream s;
  cusci__rstream_init(&s, key, ctr + (uint64_t)i);
  return cusci__next_double(&s);
}

#endif
