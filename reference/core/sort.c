/*
 * reference/core/sort.c: sorting and statistics on the host: a stable
 * bottom-up merge sort of positions by key (the order of sort_ops.h),
 * binary searches, and the loops of np.unique, numpy.quantile,
 * numpy.histogram and numpy.bincount.
 */
#include "reference/core/sort.h"

#include <string.h>

#include <cusci/core.h>

#include "reference/core/sort_ops.h"

/* "Less than" of positions i and j of one row. */
typedef int (*less_fn)(const void *row, const uint64_t *keys, int64_t i, int64_t j);

static int less_key(const void *row, const uint64_t *keys, int64_t i, int64_t j)
{
  (void)row;
  return keys[i] < keys[j];
}
static int less_c64(const void *row, const uint64_t *keys, int64_t i, int64_t j)
{
  (void)keys;
  const cusci_c64 *x = row;
  return cusci__complex_less(x[i].re, x[i].im, x[j].re, x[j].im);
}
static int less_c128(const void *row, const uint64_t *keys, int64_t i, int64_t j)
{
  (void)keys;
  const cusci_c128 *x = row;
  return cusci__complex_less(x[i].re, x[i].im, x[j].re, x[j].im);
}

/* Stable merge sort of the positions idx[0..r) (runs of width 1, 2, 4...);
 * a run's element moves ahead of the other's only when strictly less. */
static void merge_sort(int64_t r, int64_t *idx, int64_t *tmp, less_fn less, const void *row, const uint64_t *keys)
{
  int64_t *src = idx, *dst = tmp;
  for (int64_t w = 1; w < r; w *= 2) {
    for (int64_t lo = 0; lo < r; lo += 2 * w) {
      int64_t mid = lo + w < r ? lo + w : r, hi = lo + 2 * w < r ? lo + 2 * w : r;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = less(row, keys, src[j], src[i]) ? src[j++] : src[i++];
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != idx)
    memcpy(idx, src, (size_t)r * sizeof *idx);
}

#define KEYS_(D, T, KT, KEY, K)                                          \
  case CUSCI_##D:                                                        \
    for (int64_t i = 0; i < r; i++)                                      \
      keys[i] = KEY(((const T *)row)[i]);                                \
    break;

/* The value order's one-to-one keys of the float dtypes (sort_ops.h). */
#define VKEYS_(D, T, KEY)                                                \
  case CUSCI_##D:                                                        \
    for (int64_t i = 0; i < r; i++)                                      \
      keys[i] = KEY(((const T *)row)[i]);                                \
    break;

/*
 * Sort each row: by NumPy's key, stably (positions as NumPy's
 * kind='stable'), or with value_order by the one-to-one value keys, which
 * order floats' signed zeros and NaNs too (for integers the two agree).
 */
static void sort_rows(int dtype, int64_t m, int64_t r, const void *in, void *vals, int64_t *idx, void *scratch,
                      int value_order)
{
  size_t isz = cusci_dtype_itemsize((cusci_dtype)dtype);
  uint64_t *keys = scratch;
  int64_t *pos = (int64_t *)(keys + r), *tmp = pos + r;
  less_fn less = dtype == CUSCI_COMPLEX64 ? less_c64 : dtype == CUSCI_COMPLEX128 ? less_c128 : less_key;
  for (int64_t j = 0; j < m; j++) {
    const char *row = (const char *)in + (size_t)(j * r) * isz;
    if (value_order && (dtype == CUSCI_FLOAT16 || dtype == CUSCI_FLOAT32 || dtype == CUSCI_FLOAT64)) {
      switch (dtype) {
        VKEYS_(FLOAT16, cusci_f16, cusci__vkey_f16)
        VKEYS_(FLOAT32, float, cusci__vkey_f32)
        VKEYS_(FLOAT64, double, cusci__vkey_f64)
      }
    } else {
      switch (dtype) {
        CUSCI__SORT_REAL_TYPES(KEYS_)
      default:
        break;
      }
    }
    for (int64_t i = 0; i < r; i++)
      pos[i] = i;
    merge_sort(r, pos, tmp, less, row, keys);
    if (idx)
      memcpy(idx + j * r, pos, (size_t)r * sizeof *pos);
    if (vals)
      for (int64_t i = 0; i < r; i++)
        memcpy((char *)vals + (size_t)(j * r + i) * isz, row + (size_t)pos[i] * isz, isz);
  }
}

void cusci__host_sort_rows(int dtype, int64_t m, int64_t r, const void *in, void *vals, int64_t *idx, void *scratch)
{
  sort_rows(dtype, m, r, in, vals, idx, scratch, 0);
}

void cusci__host_sort_values(int dtype, int64_t m, int64_t r, const void *in, void *vals, void *scratch)
{
  sort_rows(dtype, m, r, in, vals, NULL, scratch, 1);
}

/* First i in [0, n) with !(a[i] < v) (left) or v < a[i] (right). */
#define SEARCH_(D, T, KT, KEY, K)                                                \
  case CUSCI_##D: {                                                              \
    const T *x = a, *y = v;                                                      \
    for (int64_t k = 0; k < nv; k++) {                                           \
      KT key = KEY(y[k]);                                                        \
      int64_t lo = 0, hi = n;                                                    \
      while (lo < hi) {                                                          \
        int64_t mid = lo + (hi - lo) / 2;                                        \
        KT km = KEY(x[mid]);                                                     \
        if (right ? !(key < km) : km < key)                                      \
          lo = mid + 1;                                                          \
        else                                                                     \
          hi = mid;                                                              \
      }                                                                          \
      out[k] = lo;                                                               \
    }                                                                            \
    return;                                                                      \
  }
#define SEARCH_C_(D, T, R)                                                        \
  case CUSCI_##D: {                                                               \
    const T *x = a, *y = v;                                                       \
    for (int64_t k = 0; k < nv; k++) {                                            \
      int64_t lo = 0, hi = n;                                                     \
      while (lo < hi) {                                                           \
        int64_t mid = lo + (hi - lo) / 2;                                         \
        int go = right ? !cusci__complex_less(y[k].re, y[k].im, x[mid].re, x[mid].im) \
                       : cusci__complex_less(x[mid].re, x[mid].im, y[k].re, y[k].im); \
        if (go)                                                                   \
          lo = mid + 1;                                                           \
        else                                                                      \
          hi = mid;                                                               \
      }                                                                           \
      out[k] = lo;                                                                \
    }                                                                             \
    return;                                                                       \
  }

void cusci__host_searchsorted(int dtype, int64_t n, const void *a, int64_t nv, const void *v, int right, int64_t *out)
{
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(SEARCH_)
    CUSCI__SORT_COMPLEX_TYPES(SEARCH_C_)
  }
}

/* Whether sorted elements i-1 and i are equal for np.unique: equal keys,
 * except NaNs when !equal_nan. */
#define SAME_(D, T, KT, KEY, K)                                                   \
  case CUSCI_##D: {                                                               \
    const T *x = sorted;                                                          \
    for (int64_t i = 1; i < n; i++) {                                             \
      KT k0 = KEY(x[i - 1]), k1 = KEY(x[i]);                                      \
      int same = k0 == k1 && (equal_nan || k1 != (KT)~(KT)0 || #K[0] != 'F');     \
      g += !same;                                                                 \
      gid[i] = g;                                                                 \
    }                                                                             \
    break;                                                                        \
  }
#define SAME_C_(D, T, R)                                                                             \
  case CUSCI_##D: {                                                                                  \
    const T *x = sorted;                                                                             \
    for (int64_t i = 1; i < n; i++) {                                                                \
      g += !cusci__complex_same(x[i - 1].re, x[i - 1].im, x[i].re, x[i].im, equal_nan);              \
      gid[i] = g;                                                                                    \
    }                                                                                                \
    break;                                                                                           \
  }

int64_t cusci__host_unique_mark(int dtype, int64_t n, const void *sorted, int equal_nan, int64_t *gid)
{
  if (n == 0)
    return 0;
  int64_t g = 0;
  gid[0] = 0;
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(SAME_)
    CUSCI__SORT_COMPLEX_TYPES(SAME_C_)
  }
  return g + 1;
}

void cusci__host_unique_scatter(int dtype, int64_t n, const void *sorted, const int64_t *perm, const int64_t *gid,
                                int64_t ngroups, void *uniq, int64_t *index, int64_t *inverse, int64_t *counts)
{
  size_t isz = cusci_dtype_itemsize((cusci_dtype)dtype);
  (void)ngroups;
  for (int64_t i = 0; i < n; i++) {
    int64_t g = gid[i];
    if (i == 0 || gid[i - 1] != g) {
      if (uniq)
        memcpy((char *)uniq + (size_t)g * isz, (const char *)sorted + (size_t)i * isz, isz);
      if (index)
        index[g] = perm[i];
      if (counts)
        counts[g] = i;
    }
    if (inverse)
      inverse[perm[i]] = g;
    if (counts && (i == n - 1 || gid[i + 1] != g))
      counts[g] = i + 1 - counts[g];
  }
}

/* Store a double as the quantile's result type (ct: 0 double, 1 float, 2 half). */
static void store_ct(int ct, void *out, int64_t k, double v)
{
  if (ct == 1)
    ((float *)out)[k] = (float)v;
  else if (ct == 2)
    ((cusci_f16 *)out)[k] = cusci_double_to_half(v);
  else
    ((double *)out)[k] = v;
}

/*
 * One quantile of a sorted row. Discrete methods copy the element; the
 * others interpolate with b - a rounded in the data's dtype (integers wrap,
 * as NumPy's subtraction of two elements does). A row that ends in NaN
 * gives that NaN.
 */
#define QUANT_(D, T, KT, KEY, K)                                                                      \
  case CUSCI_##D: {                                                                                   \
    const T *row = (const T *)sorted + j * r;                                                         \
    int nan_row = #K[0] == 'F' && KEY(row[r - 1]) == (KT)~(KT)0;                                      \
    int64_t lo, hi;                                                                                   \
    double g;                                                                                         \
    if (method == CUSCI__Q_MEDIAN) {                                                                  \
      lo = (r - 1) / 2;                                                                               \
      hi = r / 2;                                                                                     \
      g = 0;                                                                                          \
    } else {                                                                                          \
      cusci__q_position(method, r, q[k], &lo, &hi, &g);                                               \
    }                                                                                                 \
    if (nan_row)                                                                                      \
      lo = hi = r - 1;                                                                                \
    if (discrete) {                                                                                   \
      ((T *)out)[k * m + j] = row[lo];                                                                \
      break;                                                                                          \
    }                                                                                                 \
    double a = (double)cusci_load_##D(row[lo]), b = (double)cusci_load_##D(row[hi]), diff;          \
    if (nan_row) {                                                                                    \
      store_ct(ct, out, k * m + j, a);                                                                \
      break;                                                                                          \
    }                                                                                                 \
    if (method == CUSCI__Q_MEDIAN) {                                                                  \
      store_ct(ct, out, k * m + j, cusci__q_median(ct, a, b, r % 2));                                 \
      break;                                                                                          \
    }                                                                                                 \
    if (#K[0] == 'F')                                                                                 \
      diff = cusci__q_round(dct, b - a);                                                              \
    else                                                                                              \
      diff = (double)(T)((uint64_t)row[hi] - (uint64_t)row[lo]);                                      \
    store_ct(ct, out, k * m + j, cusci__q_lerp(ct, a, b, diff, g));                                   \
    break;                                                                                            \
  }

void cusci__host_quantile_rows(int dtype, int out_dtype, int method, int ct, int64_t m, int64_t r, const void *sorted,
                               int64_t nq, const double *q, void *out)
{
  (void)out_dtype;
  int discrete = cusci__q_discrete(method);
  int dct = dtype == CUSCI_FLOAT16 ? 2 : dtype == CUSCI_FLOAT32 ? 1 : 0; /* the data's own dtype */
  for (int64_t k = 0; k < nq; k++)
    for (int64_t j = 0; j < m; j++)
      switch (dtype) {
        CUSCI__SORT_REAL_TYPES(QUANT_)
      }
}

/* An element of a real dtype as a double. */
#define LOADD_(D, T, KT, KEY, K) \
  case CUSCI_##D:                \
    return (double)cusci_load_##D(((const T *)p)[i]);
static double load_double(int dtype, const void *p, int64_t i)
{
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(LOADD_)
  }
  return 0;
}

void cusci__host_histogram(int dtype, int64_t n, const void *a, int64_t nb, const double *edges, int wdtype,
                           const void *w, int64_t *counts, double *wsum)
{
  if (w)
    memset(wsum, 0, (size_t)nb * sizeof *wsum);
  else
    memset(counts, 0, (size_t)nb * sizeof *counts);
  for (int64_t i = 0; i < n; i++) {
    int64_t b = cusci__hist_bin(edges, nb, load_double(dtype, a, i));
    if (b < 0)
      continue;
    if (w)
      wsum[b] += load_double(wdtype, w, i);
    else
      counts[b]++;
  }
}

void cusci__host_bincount(int dtype, int64_t n, const void *x, int wdtype, const void *w, int64_t len, int64_t *counts,
                          double *wsum)
{
  if (w)
    memset(wsum, 0, (size_t)len * sizeof *wsum);
  else
    memset(counts, 0, (size_t)len * sizeof *counts);
  for (int64_t i = 0; i < n; i++) {
    int64_t b = (int64_t)load_double(dtype, x, i);
    if (dtype == CUSCI_INT64)
      b = ((const int64_t *)x)[i];
    else if (dtype == CUSCI_UINT64)
      b = (int64_t)((const uint64_t *)x)[i];
    if (w)
      wsum[b] += load_double(wdtype, w, i);
    else
      counts[b]++;
  }
}
