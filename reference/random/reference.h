/*
 * reference/random/reference.h: the host backend of librandom: fill n
 * contiguous elements of a distribution, group by group, with the formulas
 * of dists.h. Arguments are already checked.
 */
#ifndef CUSCI_REFERENCE_RANDOM_REFERENCE_H
#define CUSCI_REFERENCE_RANDOM_REFERENCE_H

#include <stdint.h>

#include "reference/random/dists.h"

/* n real values into dst (float when f32, else double). */
void cusci__rhost_real(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst);
/* n integer values into dst of dtype `dtype` (a cusci_dtype: bool or an
 * integer dtype), wrapping as a cast from int64 does. */
void cusci__rhost_int(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype, int64_t n, void *dst);

#endif
