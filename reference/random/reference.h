/*
 * reference/random/reference.h: the host backend of librandom: fill n
 * contiguous elements of a distribution, group by group, with the formulas
 * of dists.h. Arguments are already checked.
 */
#ifndef CUSCI_REFERENCE_RANDOM_REFERENCE_H
#define CUSCI_REFERENCE_RANDOM_REFERENCE_H

#include <stdint.h>

#include "reference/random/dists.h"
#include "reference/random/perm.h"
#include "reference/random/rows.h"

/* n real values into dst (float when f32, else double). */
void cusci__rhost_real(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst);
/* n integer values into dst of dtype `dtype` (a cusci_dtype: bool or an
 * integer dtype), wrapping as a cast from int64 does. */
void cusci__rhost_int(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype, int64_t n, void *dst);

/* idx[0..n): 0..n-1 ordered by cusci__rperm_key (w: NULL or n weights);
 * scratch holds 16 n bytes. */
void cusci__rhost_perm(uint64_t key, uint64_t ctr, int64_t n, const double *w, void *scratch, int64_t *idx);
/* out[i] = cusci__rsearch_cdf(cdf, n, u_i) for i < m. */
void cusci__rhost_choice_cdf(uint64_t key, uint64_t ctr, const double *cdf, int64_t n, int64_t m, int64_t *out);

/* rows rows of k values (kind of rows.h) into dst, int64 or double. */
void cusci__rhost_rows(int kind, const double *v, int64_t k, const cusci__rparams *p, uint64_t key, uint64_t ctr,
                       int64_t rows, void *dst);

/* Per-element parameters (see cusci__rgroup_real_arr, cusci__rint_arr). */
void cusci__rhost_real_arr(int dist, const double *pa, const double *pb, uint64_t key, uint64_t ctr, int f32, int64_t n,
                           void *dst);
void cusci__rhost_int_arr(int dist, const double *pa, const int64_t *pn, uint64_t key, uint64_t ctr, int64_t n,
                          int64_t *dst);

#endif
