/*
 * tests/core-sort.c: sorting and statistics on the host against NumPy:
 * sort (NumPy's values, signed zeros and NaNs in the documented order) and
 * argsort (stable) of 14 dtypes along each axis and flattened,
 * unique with every output, searchsorted both sides, quantile over 13
 * methods, percentile, median, NaN slices, histogram (equal bins, a range,
 * weights, density, given edges), bincount; the output convention; every
 * error status.
 */
#include "tests/compute-util.h"

static const char *const axis_codes[] = {"m1", "0", "1", "none"};
static const int axis_vals[] = {-1, 0, 1, CUSCI_AXIS_NONE};
static const char *const methods[] = {"linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
                                      "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                                      "hazen", "weibull", "median_unbiased", "normal_unbiased"};
static const double qs[] = {0.0, 0.25, 0.5, 0.9, 1.0};

#ifndef SORT_GPU
/* got against want: same dtype and shape, values exactly (ulps 0; NaN
 * matches NaN) or within ulps. Releases got. */
static int same(cusci_ctx *ctx, cusci_status st, cusci_array **gotp, const cusci_array *want, int ulps,
                const char *what)
{
  if (!want) {
    diag("%s: no fixture", what);
    cusci_array_release(*gotp);
    return 0;
  }
  return tk_both(ctx, CUSCI_OK, cusci_array_retain((cusci_array *)want), ctx, st, *gotp, TK_ULPS(ulps), false, what);
}
#endif

/* ------------------------------------------ cusci_sort's value order */

/*
 * A float element's bits (w bits wide) and the parts the documented order
 * reads: 0 for a number, 1 for a NaN with the sign bit clear, 2 for one
 * with it set.
 */
static uint64_t vo_bits(cusci_dtype dt, const void *p, int64_t i)
{
  if (dt == CUSCI_FLOAT16)
    return ((const uint16_t *)p)[i];
  if (dt == CUSCI_FLOAT32)
    return ((const uint32_t *)p)[i];
  return ((const uint64_t *)p)[i];
}

static int vo_class(cusci_dtype dt, uint64_t b)
{
  int w = (int)cusci_dtype_itemsize(dt) * 8, p = dt == CUSCI_FLOAT16 ? 10 : dt == CUSCI_FLOAT32 ? 23 : 52;
  uint64_t mant = (1ull << p) - 1, expo = ((w == 64 ? ~0ull : (1ull << w) - 1) >> (p + 1)) << p;
  if ((b & expo) != expo || !(b & mant))
    return 0;
  return (b >> (w - 1)) & 1 ? 2 : 1;
}

static double vo_value(cusci_dtype dt, uint64_t b)
{
  unsigned char buf[8];
  if (dt == CUSCI_FLOAT16) {
    uint16_t h = (uint16_t)b;
    memcpy(buf, &h, 2);
  } else if (dt == CUSCI_FLOAT32) {
    uint32_t f = (uint32_t)b;
    memcpy(buf, &f, 4);
  } else {
    memcpy(buf, &b, 8);
  }
  return tk_float_part(dt, buf);
}

/*
 * Whether a before b is allowed in cusci_sort's order (compute.h): numbers
 * by value, -0.0 before +0.0; then the NaNs with the sign bit clear by
 * increasing bits; then those with it set by decreasing bits.
 */
static int vo_ordered(cusci_dtype dt, uint64_t a, uint64_t b)
{
  int ca = vo_class(dt, a), cb = vo_class(dt, b);
  if (ca != cb)
    return ca < cb;
  if (ca == 1)
    return a <= b;
  if (ca == 2)
    return a >= b;
  double va = vo_value(dt, a), vb = vo_value(dt, b);
  if (va != vb)
    return va < vb;
  return va != 0 || signbit(va) >= signbit(vb);
}

static int cmp_u64(const void *x, const void *y)
{
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/*
 * A sorted float row (host memory) against its input: a permutation of
 * the input's bit patterns, each neighbour pair in the documented order.
 * Returns the first bad index, or -1.
 */
static int64_t vo_check(cusci_dtype dt, const void *in, const void *sorted, int64_t n)
{
  for (int64_t i = 1; i < n; i++)
    if (!vo_ordered(dt, vo_bits(dt, sorted, i - 1), vo_bits(dt, sorted, i)))
      return i;
  uint64_t *a = malloc((size_t)(n ? n : 1) * sizeof *a), *b = malloc((size_t)(n ? n : 1) * sizeof *b);
  for (int64_t i = 0; i < n; i++) {
    a[i] = vo_bits(dt, in, i);
    b[i] = vo_bits(dt, sorted, i);
  }
  qsort(a, (size_t)n, sizeof *a, cmp_u64);
  qsort(b, (size_t)n, sizeof *b, cmp_u64);
  int64_t bad = -1;
  for (int64_t i = 0; i < n && bad < 0; i++)
    if (a[i] != b[i])
      bad = i;
  free(a);
  free(b);
  return bad;
}

/*
 * n elements of a float dtype (host) full of what the order must place:
 * NaNs of both signs and many payloads, signed zeros, infinities,
 * subnormals, ties. float16 with n = 65536 holds every bit pattern once.
 */
static cusci_array *vo_zoo(cusci_ctx *c, cusci_dtype dt, int nd, const int64_t *shape, uint64_t seed)
{
  int64_t n = 1;
  for (int d = 0; d < nd; d++)
    n *= shape[d];
  size_t isz = cusci_dtype_itemsize(dt);
  unsigned char *buf = malloc((size_t)n * isz);
  int p = dt == CUSCI_FLOAT16 ? 10 : dt == CUSCI_FLOAT32 ? 23 : 52;
  int w = (int)isz * 8;
  uint64_t sign = 1ull << (w - 1), expo = ((sign - 1) >> p) << p, mant = (1ull << p) - 1;
  for (int64_t i = 0; i < n; i++) {
    uint64_t b, u = tk_rand(&seed);
    if (dt == CUSCI_FLOAT16 && n == 65536) {
      b = (uint64_t)((i * 40503) & 0xffff); /* an odd multiplier: every pattern once */
    } else {
      switch (u % 8) {
      case 0: b = expo | ((u >> 8) & mant) | 1; break;                 /* NaN, some payload */
      case 1: b = sign | expo | ((u >> 8) & mant) | 1; break;          /* negative NaN */
      case 2: b = (u >> 8) & 1 ? sign : 0; break;                      /* -0.0 or +0.0 */
      case 3: b = ((u >> 8) & 1 ? sign : 0) | ((u >> 9) % 4 ? ((u >> 12) % 9) : expo); break; /* subnormal, inf */
      case 4: b = expo | (1ull << (p - 1)) | ((u >> 8) % 3 ? sign : 0); break; /* the quiet NaNs, ties */
      default: b = u >> (64 - w); break;                                /* any pattern */
      }
    }
    if (isz == 2) {
      uint16_t h = (uint16_t)b;
      memcpy(buf + i * isz, &h, 2);
    } else if (isz == 4) {
      uint32_t f = (uint32_t)b;
      memcpy(buf + i * isz, &f, 4);
    } else {
      memcpy(buf + i * isz, &b, 8);
    }
  }
  cusci_array *a = NULL;
  cusci_array_from_host(c, buf, nd, shape, dt, &a);
  free(buf);
  return a;
}

#ifndef SORT_GPU
static cusci_ctx *ctx;
static cusci_npz *z;

static cusci_array *fx(const char *fmt, const char *a, const char *b)
{
  char key[128];
  snprintf(key, sizeof key, fmt, a, b);
  return cusci_npz_get(z, key);
}

static void test_sort(void)
{
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    const char *dn = cu_dtype_names[d];
    cusci_array *x = fx("x_%s%s", dn, "");
    if (!x)
      continue;
    for (int a = 0; a < 4; a++) {
      cusci_array *s = NULL, *i = NULL;
      char what[96];
      snprintf(what, sizeof what, "sort %s axis %s", dn, axis_codes[a]);
      ok(same(ctx, cusci_sort(ctx, x, axis_vals[a], &s), &s, fx("vsort_%s_%s", dn, axis_codes[a]), 0, what), "%s",
         what);
      snprintf(what, sizeof what, "argsort %s axis %s", dn, axis_codes[a]);
      ok(same(ctx, cusci_argsort(ctx, x, axis_vals[a], &i), &i, fx("argsort_%s_%s", dn, axis_codes[a]), 0, what),
         "%s", what);
    }
  }
}

/* cusci_sort's order of zeros and NaNs, on hand-picked and random bits. */
static void test_value_order(void)
{
  static const uint32_t in32[] = {0x7fc00005u, 0xffc00000u, 0x7f800000u, 0x80000000u, 0x3fc00000u, 0x7fc00000u,
                                  0xff800000u, 0x00000000u, 0xffc00003u, 0x80000000u, 0xc0100000u, 0x7f800001u,
                                  0xff800001u, 0x00000000u};
  static const uint32_t want32[] = {0xff800000u, 0xc0100000u, 0x80000000u, 0x80000000u, 0x00000000u, 0x00000000u,
                                    0x3fc00000u, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fc00005u, 0xffc00003u,
                                    0xffc00000u, 0xff800001u};
  int64_t n = 14;
  cusci_array *a = NULL, *s = NULL;
  cusci_array_from_host(ctx, in32, 1, &n, CUSCI_FLOAT32, &a);
  int good = cusci_sort(ctx, a, -1, &s) == CUSCI_OK;
  if (good) {
    void *g = tk_to_host(ctx, s);
    good = !memcmp(g, want32, sizeof want32);
    free(g);
  }
  ok(good, "float32 sort: -inf, numbers, -0.0 before +0.0, +inf, positive NaNs by payload up, negative ones down");
  cusci_array_release(a);
  cusci_array_release(s);
  const cusci_dtype fdt[3] = {CUSCI_FLOAT16, CUSCI_FLOAT32, CUSCI_FLOAT64};
  for (int k = 0; k < 3; k++) {
    int64_t len = fdt[k] == CUSCI_FLOAT16 ? 65536 : 20011;
    cusci_array *x = vo_zoo(ctx, fdt[k], 1, &len, 31 + (uint64_t)k), *y = NULL;
    int64_t bad = -2;
    if (cusci_sort(ctx, x, -1, &y) == CUSCI_OK) {
      void *xi = tk_to_host(ctx, x), *yo = tk_to_host(ctx, y);
      bad = vo_check(fdt[k], xi, yo, len);
      free(xi);
      free(yo);
    }
    ok(bad == -1, "%s sort of %lld patterns (NaNs, signed zeros): a permutation in the documented order (%lld)",
       cusci_dtype_name(fdt[k]), (long long)len, (long long)bad);
    cusci_array_release(x);
    cusci_array_release(y);
  }
}

static void test_unique(void)
{
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    const char *dn = cu_dtype_names[d];
    cusci_array *x = fx("x_%s%s", dn, "");
    if (!x)
      continue;
    cusci_array *u = NULL, *ix = NULL, *inv = NULL, *cnt = NULL;
    cusci_unique_opts o = {true, true, true, false};
    cusci_status st = cusci_unique(ctx, x, &o, &u, &ix, &inv, &cnt);
    int good = same(ctx, st, &u, fx("unique_%s%s", dn, ""), 0, "unique");
    good &= st == CUSCI_OK && same(ctx, st, &ix, fx("unique_%s%s", dn, "_index"), 0, "index");
    good &= st == CUSCI_OK && same(ctx, st, &inv, fx("unique_%s%s", dn, "_inverse"), 0, "inverse");
    good &= st == CUSCI_OK && same(ctx, st, &cnt, fx("unique_%s%s", dn, "_counts"), 0, "counts");
    ok(good, "unique %s with index, inverse and counts", dn);
    u = NULL;
    cusci_unique_opts o2 = {.nan_distinct = true};
    st = cusci_unique(ctx, fx("xz_%s%s", dn, ""), &o2, &u, NULL, NULL, NULL);
    ok(same(ctx, st, &u, fx("uniquenan_%s%s", dn, ""), 0, "equal_nan=False"), "unique %s, equal_nan=False", dn);
  }
}

static void test_searchsorted(void)
{
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    const char *dn = cu_dtype_names[d];
    cusci_array *a = fx("ss_a_%s%s", dn, ""), *v = fx("ss_v_%s%s", dn, "");
    if (!a || !v)
      continue;
    cusci_array *l = NULL, *r = NULL;
    ok(same(ctx, cusci_searchsorted(ctx, a, v, CUSCI_SIDE_LEFT, &l), &l, fx("ss_%s%s", dn, "_left"), 0, "left"),
       "searchsorted %s left", dn);
    ok(same(ctx, cusci_searchsorted(ctx, a, v, CUSCI_SIDE_RIGHT, &r), &r, fx("ss_%s%s", dn, "_right"), 0, "right"),
       "searchsorted %s right", dn);
  }
  cusci_array *r = NULL;
  ok(same(ctx, cusci_searchsorted(ctx, cusci_npz_get(z, "ssmix_a"), cusci_npz_get(z, "ssmix_v"), CUSCI_SIDE_RIGHT, &r),
          &r, cusci_npz_get(z, "ssmix_right"), 0, "mixed"),
     "searchsorted of float64 values in int8 (promoted), NaN last");
}

static void test_quantiles(void)
{
  int ax1 = 1;
  int ax02[2] = {0, 2}, ax2 = 2;
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    const char *dn = cu_dtype_names[d];
    cusci_array *x = fx("qx_%s%s", dn, "");
    if (!x)
      continue;
    int good1 = 1, goodn = 1;
    for (int m = 0; m < 13; m++) {
      cusci_quantile_opts all = {.method = (cusci_quantile_method)m};
      cusci_quantile_opts one = {1, &ax1, false, (cusci_quantile_method)m};
      cusci_array *q = NULL, *qn = NULL;
      char what[96];
      snprintf(what, sizeof what, "quantile %s %s", dn, methods[m]);
      good1 &= same(ctx, cusci_quantile(ctx, x, 0.3, &all, &q), &q, fx("q_%s_%s", dn, methods[m]), 0, what);
      goodn &= same(ctx, cusci_quantile_n(ctx, x, 5, qs, &one, &qn), &qn, fx("qn_%s_%s", dn, methods[m]), 0, what);
    }
    ok(good1, "quantile(%s, 0.3), 13 methods, exactly", dn);
    ok(goodn, "quantile(%s, 5 q, axis 1), 13 methods, exactly", dn);
    cusci_quantile_opts pk = {2, ax02, true, 0};
    cusci_array *p = NULL, *md = NULL, *m1 = NULL, *m2 = NULL;
    ok(same(ctx, cusci_percentile(ctx, x, 37.5, &pk, &p), &p, fx("pct_%s%s", dn, ""), 0, "percentile"),
       "percentile(%s, 37.5, axes (0, 2), keepdims)", dn);
    ok(same(ctx, cusci_median(ctx, x, NULL, &md), &md, fx("median_%s%s", dn, "_all"), 0, "median"), "median(%s)", dn);
    cusci_reduce_opts r1 = {1, &ax1, false, 0}, r2 = {1, &ax2, false, 0};
    ok(same(ctx, cusci_median(ctx, x, &r1, &m1), &m1, fx("median_%s%s", dn, "_1"), 0, "median 1"),
       "median(%s, axis 1), even count", dn);
    ok(same(ctx, cusci_median(ctx, x, &r2, &m2), &m2, fx("median_%s%s", dn, "_2"), 0, "median 2"),
       "median(%s, axis 2), odd count", dn);
  }
  cusci_array *xn = cusci_npz_get(z, "qnan_f32"), *q = NULL, *m = NULL;
  cusci_quantile_opts one = {1, &ax1, false, 0};
  double q2[2] = {0.2, 0.8};
  ok(same(ctx, cusci_quantile_n(ctx, xn, 2, q2, &one, &q), &q, cusci_npz_get(z, "qnan_f32_linear"), 0, "nan"),
     "a slice with a NaN gives NaN (quantile)");
  cusci_reduce_opts r1 = {1, &ax1, false, 0};
  ok(same(ctx, cusci_median(ctx, xn, &r1, &m), &m, cusci_npz_get(z, "qnan_f32_median"), 0, "nan"),
     "a slice with a NaN gives NaN (median)");
  cusci_array *b = cusci_npz_get(z, "qbool"), *bl = NULL, *bm = NULL;
  cusci_quantile_opts low = {1, &ax1, false, CUSCI_QUANTILE_LOWER};
  ok(same(ctx, cusci_quantile(ctx, b, 0.6, &low, &bl), &bl, cusci_npz_get(z, "qbool_lower"), 0, "bool"),
     "quantile of bool, method lower");
  ok(same(ctx, cusci_median(ctx, b, &r1, &bm), &bm, cusci_npz_get(z, "qbool_median"), 0, "bool"), "median of bool");
}

static void test_histogram(void)
{
  cusci_array *x = cusci_npz_get(z, "hx"), *w = cusci_npz_get(z, "hw"), *x32 = cusci_npz_get(z, "hx32"),
              *w32 = cusci_npz_get(z, "hw32"), *xi = cusci_npz_get(z, "hxi"), *ed = cusci_npz_get(z, "hedges");
  cusci_array *h = NULL, *e = NULL;
  cusci_status st = cusci_histogram(ctx, x, 10, NULL, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_f64_10"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_f64_10_edges"), 0, "edges"),
     "histogram(float64, 10): counts and edges exactly");
  h = e = NULL;
  cusci_histogram_opts rg = {.has_range = true, .range = {-2.3, 4.1}};
  st = cusci_histogram(ctx, x, 7, &rg, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_f64_range"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_f64_range_edges"), 0, "edges"),
     "histogram(float64, 7, range)");
  h = NULL;
  cusci_histogram_opts wo = {.weights = w};
  ok(same(ctx, cusci_histogram(ctx, x, 9, &wo, &h, NULL), &h, cusci_npz_get(z, "hist_f64_w"), 8, "weights"),
     "histogram with float64 weights");
  h = NULL;
  cusci_histogram_opts dn = {.density = true};
  ok(same(ctx, cusci_histogram(ctx, x, 12, &dn, &h, NULL), &h, cusci_npz_get(z, "hist_f64_density"), 8, "density"),
     "histogram with density");
  h = NULL;
  cusci_histogram_opts wd = {.weights = w, .density = true};
  ok(same(ctx, cusci_histogram(ctx, x, 12, &wd, &h, NULL), &h, cusci_npz_get(z, "hist_f64_wdensity"), 64, "wdensity"),
     "histogram with weights and density");
  h = e = NULL;
  st = cusci_histogram(ctx, x32, 13, NULL, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_f32_13"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_f32_13_edges"), 0, "edges"),
     "histogram(float32, 13): float32 edges computed as NumPy's linspace");
  h = e = NULL;
  cusci_histogram_opts rg32 = {.has_range = true, .range = {-0.1, 3.3}};
  st = cusci_histogram(ctx, x32, 6, &rg32, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_f32_range"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_f32_range_edges"), 0, "edges"),
     "histogram(float32, 6, range)");
  h = NULL;
  cusci_histogram_opts wo32 = {.weights = w32};
  ok(same(ctx, cusci_histogram(ctx, x32, 5, &wo32, &h, NULL), &h, cusci_npz_get(z, "hist_f32_w32"), 2, "w32"),
     "histogram with float32 weights gives float32");
  h = e = NULL;
  st = cusci_histogram(ctx, xi, 8, NULL, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_i16_8"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_i16_8_edges"), 0, "edges"),
     "histogram(int16, 8): float64 edges");
  h = NULL;
  ok(same(ctx, cusci_histogram_edges(ctx, xi, ed, NULL, &h, NULL), &h, cusci_npz_get(z, "hist_i16_edges"), 0, "edges"),
     "histogram of int16 over given edges (a repeated edge)");
  h = NULL;
  ok(same(ctx, cusci_histogram_edges(ctx, x, ed, NULL, &h, NULL), &h, cusci_npz_get(z, "hist_f64_edges"), 0, "edges"),
     "histogram of float64 over given edges");
  h = e = NULL;
  st = cusci_histogram(ctx, cusci_npz_get(z, "hconst"), 4, NULL, &h, &e);
  ok(same(ctx, st, &h, cusci_npz_get(z, "hist_const"), 0, "counts") &&
         same(ctx, st, &e, cusci_npz_get(z, "hist_const_edges"), 0, "edges"),
     "histogram of a constant: the range widened by 0.5");
  h = NULL;
  cusci_histogram_opts rgn = {.has_range = true, .range = {-1.0, 2.0}};
  ok(same(ctx, cusci_histogram(ctx, cusci_npz_get(z, "hxn"), 4, &rgn, &h, NULL), &h, cusci_npz_get(z, "hist_nan_range"),
          0, "nan"),
     "histogram with a range ignores NaN");

  cusci_array *bx = cusci_npz_get(z, "bx"), *bw = cusci_npz_get(z, "bw"), *b = NULL;
  ok(same(ctx, cusci_bincount(ctx, bx, NULL, 0, &b), &b, cusci_npz_get(z, "bincount"), 0, "bincount"), "bincount");
  b = NULL;
  ok(same(ctx, cusci_bincount(ctx, bx, NULL, 50, &b), &b, cusci_npz_get(z, "bincount_min"), 0, "min"),
     "bincount with minlength");
  b = NULL;
  ok(same(ctx, cusci_bincount(ctx, bx, bw, 0, &b), &b, cusci_npz_get(z, "bincount_w"), 8, "w"),
     "bincount with weights");
  b = NULL;
  ok(same(ctx, cusci_bincount(ctx, cusci_npz_get(z, "bu"), NULL, 0, &b), &b, cusci_npz_get(z, "bincount_u8"), 0, "u8"),
     "bincount of uint8");
}

static void test_errors(void)
{
  int64_t shape[2] = {3, 4}, zero[2] = {3, 0}, n5 = 5;
  cusci_array *a = NULL, *c = NULL, *out = NULL, *e = NULL, *i2 = NULL, *neg = NULL, *s0 = NULL;
  cusci_array_ones(ctx, 2, shape, CUSCI_FLOAT32, &a);
  cusci_array_ones(ctx, 2, shape, CUSCI_COMPLEX64, &c);
  cusci_array_ones(ctx, 2, zero, CUSCI_FLOAT64, &e);
  cusci_array_ones(ctx, 2, shape, CUSCI_INT32, &i2);
  cusci_array_empty(ctx, 0, NULL, CUSCI_FLOAT64, &s0);
  int32_t nv[5] = {1, 2, -3, 4, 0};
  cusci_array_from_host(ctx, nv, 1, &n5, CUSCI_INT32, &neg);
  is_int(cusci_sort(NULL, a, -1, &out), CUSCI_ERR_NULL_POINTER, "sort: ctx NULL");
  is_int(cusci_sort(ctx, NULL, -1, &out), CUSCI_ERR_NULL_POINTER, "sort: a NULL");
  is_int(cusci_argsort(ctx, a, -1, NULL), CUSCI_ERR_NULL_POINTER, "argsort: out NULL");
  is_int(cusci_sort(ctx, a, 2, &out), CUSCI_ERR_AXIS, "sort: axis 2 of a 2-d array");
  is_int(cusci_argsort(ctx, a, -3, &out), CUSCI_ERR_AXIS, "argsort: axis -3 of a 2-d array");
  is_int(cusci_sort(ctx, s0, -1, &out), CUSCI_ERR_AXIS, "sort: axis -1 of a 0-d array");
  cusci_array *o = a;
  is_int(cusci_argsort(ctx, a, -1, &o), CUSCI_ERR_DTYPE, "argsort into a float32 out: CUSCI_ERR_DTYPE");
  is_int(cusci_sort(ctx, a, CUSCI_AXIS_NONE, &o), CUSCI_ERR_SHAPE, "flattened sort into a 3x4 out: CUSCI_ERR_SHAPE");
  is_int(cusci_unique(ctx, a, NULL, NULL, NULL, NULL, NULL), CUSCI_ERR_NULL_POINTER, "unique: unique NULL");
  cusci_unique_opts ri = {.return_inverse = true};
  is_int(cusci_unique(ctx, a, &ri, &out, NULL, NULL, NULL), CUSCI_ERR_NULL_POINTER, "unique: inverse NULL when asked");
  is_int(cusci_searchsorted(ctx, a, a, CUSCI_SIDE_LEFT, &out), CUSCI_ERR_NDIM, "searchsorted: 2-d a");
  is_int(cusci_searchsorted(ctx, neg, a, (cusci_side)7, &out), CUSCI_ERR_INVALID_ARGUMENT, "searchsorted: side 7");
  is_int(cusci_quantile(ctx, a, 1.5, NULL, &out), CUSCI_ERR_VALUE, "quantile: q 1.5");
  is_int(cusci_quantile(ctx, a, NAN, NULL, &out), CUSCI_ERR_VALUE, "quantile: q NaN");
  is_int(cusci_percentile(ctx, a, -1, NULL, &out), CUSCI_ERR_VALUE, "percentile: q -1");
  double bad_q[2] = {50, 101};
  is_int(cusci_percentile_n(ctx, a, 2, bad_q, NULL, &out), CUSCI_ERR_VALUE, "percentile: q 101");
  is_int(cusci_quantile_n(ctx, a, -2, bad_q, NULL, &out), CUSCI_ERR_INVALID_ARGUMENT, "quantile_n: nq -2");
  is_int(cusci_quantile_n(ctx, a, 2, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, "quantile_n: q NULL");
  is_int(cusci_quantile(ctx, c, 0.5, NULL, &out), CUSCI_ERR_DTYPE, "quantile of complex");
  int ax3 = 3, ax1 = 1;
  cusci_quantile_opts q3 = {1, &ax3, false, 0}, qm = {.method = (cusci_quantile_method)99},
                      q1 = {1, &ax1, false, 0};
  is_int(cusci_quantile(ctx, a, 0.5, &q3, &out), CUSCI_ERR_AXIS, "quantile: axis 3");
  is_int(cusci_quantile(ctx, a, 0.5, &qm, &out), CUSCI_ERR_INVALID_ARGUMENT, "quantile: method 99");
  is_int(cusci_quantile(ctx, e, 0.5, &q1, &out), CUSCI_ERR_VALUE, "quantile over an empty axis");
  is_int(cusci_median(ctx, e, NULL, &out), CUSCI_ERR_VALUE, "median of an empty array");
  cusci_array *b = NULL;
  cusci_array_ones(ctx, 1, &n5, CUSCI_BOOL, &b);
  is_int(cusci_quantile(ctx, b, 0.5, NULL, &out), CUSCI_ERR_DTYPE, "linear quantile of bool");
  is_int(cusci_histogram(ctx, a, 0, NULL, &out, NULL), CUSCI_ERR_VALUE, "histogram: 0 bins");
  cusci_histogram_opts r1 = {.has_range = true, .range = {2, 1}}, r2 = {.has_range = true, .range = {0, INFINITY}},
                       wbad = {.weights = neg};
  is_int(cusci_histogram(ctx, a, 4, &r1, &out, NULL), CUSCI_ERR_VALUE, "histogram: range [2, 1]");
  is_int(cusci_histogram(ctx, a, 4, &r2, &out, NULL), CUSCI_ERR_VALUE, "histogram: infinite range");
  is_int(cusci_histogram(ctx, a, 4, &wbad, &out, NULL), CUSCI_ERR_SHAPE, "histogram: weights of another shape");
  is_int(cusci_histogram(ctx, c, 4, NULL, &out, NULL), CUSCI_ERR_DTYPE, "histogram of complex");
  double ev[4] = {0, 1, 0.5, 2};
  int64_t n4 = 4;
  cusci_array *edges = NULL;
  cusci_array_from_host(ctx, ev, 1, &n4, CUSCI_FLOAT64, &edges);
  is_int(cusci_histogram_edges(ctx, a, edges, NULL, &out, NULL), CUSCI_ERR_VALUE, "histogram: edges not monotonic");
  is_int(cusci_histogram_edges(ctx, a, a, NULL, &out, NULL), CUSCI_ERR_NDIM, "histogram: 2-d edges");
  float nanv[3] = {1, NAN, 2};
  int64_t n3 = 3;
  cusci_array *xn = NULL;
  cusci_array_from_host(ctx, nanv, 1, &n3, CUSCI_FLOAT32, &xn);
  is_int(cusci_histogram(ctx, xn, 4, NULL, &out, NULL), CUSCI_ERR_VALUE, "histogram: automatic range with a NaN");
  is_int(cusci_bincount(ctx, neg, NULL, 0, &out), CUSCI_ERR_VALUE, "bincount of a negative value");
  is_int(cusci_bincount(ctx, i2, NULL, 0, &out), CUSCI_ERR_NDIM, "bincount of a 2-d array");
  is_int(cusci_bincount(ctx, xn, NULL, 0, &out), CUSCI_ERR_DTYPE, "bincount of float32");
  is_int(cusci_bincount(ctx, b, xn, 0, &out), CUSCI_ERR_SHAPE, "bincount: weights of another length");
  is_int(cusci_bincount(ctx, b, NULL, -1, &out), CUSCI_ERR_VALUE, "bincount: minlength -1");
  ok(out == NULL, "no failing call allocated an output");

  /* Edge cases that succeed. */
  cusci_array *r = NULL;
  is_int(cusci_sort(ctx, e, -1, &r), CUSCI_OK, "sort of a 3x0 array");
  ok(r && cusci_array_size(r) == 0 && cusci_array_ndim(r) == 2, "is 3x0");
  cusci_array_release(r);
  r = NULL;
  is_int(cusci_sort(ctx, s0, CUSCI_AXIS_NONE, &r), CUSCI_OK, "flattened sort of a 0-d array");
  ok(r && cusci_array_ndim(r) == 1 && cusci_array_size(r) == 1, "is 1-d of one element");
  cusci_array_release(r);
  r = NULL;
  cusci_array *ix = NULL, *inv = NULL, *cnt = NULL;
  cusci_unique_opts all = {true, true, true, false};
  is_int(cusci_unique(ctx, e, &all, &r, &ix, &inv, &cnt), CUSCI_OK, "unique of an empty array");
  ok(r && cusci_array_size(r) == 0 && cusci_array_size(ix) == 0 && cusci_array_ndim(inv) == 2 &&
         cusci_array_size(cnt) == 0,
     "gives empty outputs, inverse of the input's shape");
  cusci_array *arrs1[] = {r, ix, inv, cnt};
  for (int k = 0; k < 4; k++)
    cusci_array_release(arrs1[k]);
  r = NULL;
  is_int(cusci_bincount(ctx, e, NULL, 3, &r), CUSCI_ERR_NDIM, "bincount of a 3x0 array: CUSCI_ERR_NDIM");
  cusci_array *e1 = NULL;
  int64_t z0 = 0;
  cusci_array_empty(ctx, 1, &z0, CUSCI_INT64, &e1);
  is_int(cusci_bincount(ctx, e1, NULL, 3, &r), CUSCI_OK, "bincount of an empty array, minlength 3");
  ok(r && cusci_array_size(r) == 3 && ((int64_t *)cusci_array_data(r))[2] == 0, "is three zeros");
  cusci_array_release(r);
  r = NULL;
  cusci_array *he = NULL;
  is_int(cusci_histogram(ctx, e1, 2, NULL, &r, &he), CUSCI_OK, "histogram of an empty array");
  ok(he && ((double *)cusci_array_data(he))[2] == 1.0, "over NumPy's default range (0, 1)");
  cusci_array_release(r);
  cusci_array_release(he);
  /* A given out of the right shape and dtype is written in place. */
  cusci_array *given = NULL;
  cusci_array_empty(ctx, 2, shape, CUSCI_INT64, &given);
  o = given;
  is_int(cusci_argsort(ctx, i2, 0, &o), CUSCI_OK, "argsort into a given out");
  ok(o == given, "the given out is the result");
  cusci_array *arrs[] = {a, c, e, i2, neg, s0, b, edges, xn, e1, given};
  for (size_t k = 0; k < sizeof arrs / sizeof *arrs; k++)
    cusci_array_release(arrs[k]);
}

int main(void)
{
  ctx = tk_host_ctx();
  z = cu_archive(ctx, "sort");
  if (z) {
    test_sort();
    test_value_order();
    test_unique();
    test_searchsorted();
    test_quantiles();
    test_histogram();
    cusci_npz_free(z);
  } else {
    ok(0, "sort fixtures load");
  }
  test_errors();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
#endif
