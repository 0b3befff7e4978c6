/*
 * reference/core/sort.h: sorting and statistics on the host. libcore has
 * checked the arguments and made every input contiguous: m rows of r
 * elements, the sorted axis last. Scratch comes from libcore (the pool).
 */
#ifndef CUSCI_REFERENCE_SORT_H
#define CUSCI_REFERENCE_SORT_H

#include <stdint.h>

/* Bytes of scratch cusci__host_sort_rows needs for rows of r elements. */
#define CUSCI__HOST_SORT_SCRATCH(r) ((size_t)(r) * 24 + 64)

/*
 * Stable sort of each row in NumPy's order (sort_ops.h): vals (or NULL)
 * receives the sorted elements, idx (or NULL) their positions in the row.
 */
void cusci__host_sort_rows(int dtype, int64_t m, int64_t r, const void *in, void *vals, int64_t *idx, void *scratch);

/*
 * Sort of the values of each row in cusci_sort's order: NumPy's, with
 * -0.0 before +0.0 and the NaNs last in the order of sort_ops.h's value
 * keys, so that the result is one array whatever the sort's stability.
 * Same scratch as cusci__host_sort_rows.
 */
void cusci__host_sort_values(int dtype, int64_t m, int64_t r, const void *in, void *vals, void *scratch);

/* numpy.searchsorted(a, v, side): out[i] for each of the nv elements of v,
 * a and v of the same dtype, a sorted. */
void cusci__host_searchsorted(int dtype, int64_t n, const void *a, int64_t nv, const void *v, int right, int64_t *out);

/*
 * np.unique's pass over the n sorted elements: gid[i] = the number of the
 * group (run of equal elements) of element i; returns the number of groups.
 */
int64_t cusci__host_unique_mark(int dtype, int64_t n, const void *sorted, int equal_nan, int64_t *gid);
/*
 * The outputs of np.unique from the sorted elements, their positions perm
 * in the input and gid: uniq[g] (first of group g), index[g] (perm of that
 * first element), inverse[perm[i]] = gid[i], counts[g]. Each may be NULL.
 */
void cusci__host_unique_scatter(int dtype, int64_t n, const void *sorted, const int64_t *perm, const int64_t *gid,
                                int64_t ngroups, void *uniq, int64_t *index, int64_t *inverse, int64_t *counts);

/*
 * numpy.quantile over m sorted rows of r elements: out[k * m + j] =
 * quantile q[k] of row j, stored as out_dtype. ct is the computing dtype
 * (0 double, 1 float32, 2 float16; see sort_ops.h).
 */
void cusci__host_quantile_rows(int dtype, int out_dtype, int method, int ct, int64_t m, int64_t r, const void *sorted,
                               int64_t nq, const double *q, void *out);

/*
 * Histogram of n elements over nb bins with edges e[0..nb]: counts[b] += 1
 * (weights NULL) or wsum[b] += w[i] (w of dtype wdtype, as double), both
 * zeroed first.
 */
void cusci__host_histogram(int dtype, int64_t n, const void *a, int64_t nb, const double *edges, int wdtype,
                           const void *w, int64_t *counts, double *wsum);

/* numpy.bincount of n non-negative integers below len: counts or, with
 * weights, wsum (zeroed first). */
void cusci__host_bincount(int dtype, int64_t n, const void *x, int wdtype, const void *w, int64_t len, int64_t *counts,
                          double *wsum);

#endif
