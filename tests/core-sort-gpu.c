/*
 * tests/core-sort-gpu.c: sorting and statistics on the GPU against the
 * host: every dtype through sort and argsort (one long row: the radix
 * sort; many rows: the segmented sort; a strided view; the flattened
 * array), unique with every output, searchsorted, every quantile method
 * and median, histograms and bincount. argsort is stable on both; sort
 * and the quantiles use the value order, which fixes where signed zeros
 * and NaNs go, so sorts, positions, counts and quantiles must agree
 * exactly; sorted NaNs bit for bit on inputs full of NaN payloads of both
 * signs. Sums of weights (atomic, in another order) within 1e-12
 * relative. Inputs have ties, NaNs of both signs, -0.0 and +0.0. Prints
 * "1..0 # SKIP no CUDA device" where there is none.
 */
#define SORT_GPU
#include "tests/core-sort.c"

static cusci_ctx *gpu, *host;

/* A host array of `shape` and dtype dt with ties, NaNs and signed zeros. */
static cusci_array *make_input(cusci_dtype dt, int nd, const int64_t *shape, uint64_t seed)
{
  int64_t n = 1;
  for (int d = 0; d < nd; d++)
    n *= shape[d];
  double *v = malloc((size_t)(n ? n : 1) * sizeof *v), *im = malloc((size_t)(n ? n : 1) * sizeof *im);
  for (int64_t i = 0; i < n; i++) {
    double u = tk_rand_double(&seed);
    v[i] = floor((u - 0.4) * 200.0) * 0.625; /* many ties */
    if (i % 97 == 5)
      v[i] = (u - 0.5) * 1e5;
    im[i] = floor(tk_rand_double(&seed) * 6) - 3;
    if (cusci_dtype_kind(dt) == 'f' || cusci_dtype_kind(dt) == 'c') {
      if (i % 53 == 7)
        v[i] = NAN;
      if (i % 59 == 11)
        v[i] = -NAN;
      if (i % 41 == 3)
        v[i] = -0.0;
      if (i % 43 == 4)
        v[i] = 0.0;
      if (i % 61 == 9)
        im[i] = NAN;
    }
  }
  cusci_array *d = NULL, *r = NULL;
  if (cusci_dtype_kind(dt) == 'c') {
    double *c = malloc((size_t)(n ? n : 1) * 2 * sizeof *c);
    for (int64_t i = 0; i < n; i++) {
      c[2 * i] = v[i];
      c[2 * i + 1] = im[i];
    }
    cusci_array_from_host(host, c, nd, shape, CUSCI_COMPLEX128, &d);
    free(c);
  } else {
    cusci_array_from_host(host, v, nd, shape, CUSCI_FLOAT64, &d);
  }
  cusci_array_astype(host, d, dt, true, &r);
  cusci_array_release(d);
  free(v);
  free(im);
  return r;
}

/* The host's and the GPU's results agree (exactly for ulps 0). */
static int agree(cusci_status sh, cusci_array **rhp, cusci_status sg, cusci_array **rgp, int ulps, const char *what)
{
  return tk_both(host, sh, *rhp, gpu, sg, *rgp, TK_ULPS(ulps), false, what);
}

static void sort_case(cusci_dtype dt, int nd, const int64_t *shape, int axis, bool strided, const char *what)
{
  cusci_array *h = make_input(dt, nd, shape, 11 + (uint64_t)dt * 7 + (uint64_t)shape[0]);
  cusci_array *g = tk_copy_to(gpu, host, h);
  if (strided) {
    int64_t step[2] = {2, -1};
    cusci_array *hv = NULL, *gv = NULL;
    cusci_array_slice(host, h, NULL, NULL, step, &hv);
    cusci_array_slice(gpu, g, NULL, NULL, step, &gv);
    cusci_array_release(h);
    cusci_array_release(g);
    h = hv;
    g = gv;
  }
  cusci_array *sh = NULL, *sg = NULL, *ah = NULL, *ag = NULL;
  int good = agree(cusci_sort(host, h, axis, &sh), &sh, cusci_sort(gpu, g, axis, &sg), &sg, 0, "sort");
  good &= agree(cusci_argsort(host, h, axis, &ah), &ah, cusci_argsort(gpu, g, axis, &ag), &ag, 0, "argsort");
  ok(good, "GPU sort and argsort of %s, %s, agree exactly", cusci_dtype_name(dt), what);
  cusci_array_release(h);
  cusci_array_release(g);
}

/*
 * cusci_sort of floats full of NaN payloads of both signs, signed zeros
 * and infinities: the GPU's bits equal the host's, and every GPU row is a
 * permutation of its input in the documented order.
 */
static void value_order_case(cusci_dtype dt, int64_t m, int64_t r, const char *what)
{
  int64_t shape[2] = {m, r};
  cusci_array *h = vo_zoo(host, dt, 2, shape, 3 + (uint64_t)dt * 5 + (uint64_t)m), *g = tk_copy_to(gpu, host, h);
  cusci_array *sh = NULL, *sg = NULL;
  cusci_status s1 = cusci_sort(host, h, -1, &sh), s2 = cusci_sort(gpu, g, -1, &sg);
  int good = s1 == CUSCI_OK && s2 == CUSCI_OK;
  if (!good)
    diag("host %s, GPU %s (%s)", cusci_status_name(s1), cusci_status_name(s2), cusci_ctx_last_error(gpu));
  if (good) {
    size_t isz = cusci_dtype_itemsize(dt);
    unsigned char *in = tk_to_host(host, h), *bh = tk_to_host(host, sh), *bg = tk_to_host(gpu, sg);
    int64_t bad = -1;
    for (int64_t i = 0; i < m * r && bad < 0; i++)
      if (memcmp(bh + (size_t)i * isz, bg + (size_t)i * isz, isz))
        bad = i;
    if (bad >= 0)
      diag("%s: element %lld differs from the host's", what, (long long)bad);
    good = bad < 0;
    for (int64_t j = 0; j < m && good; j++) {
      int64_t b = vo_check(dt, in + (size_t)(j * r) * isz, bg + (size_t)(j * r) * isz, r);
      if (b >= 0)
        diag("%s: row %lld out of order or not a permutation at %lld", what, (long long)j, (long long)b);
      good = b < 0;
    }
    free(in);
    free(bh);
    free(bg);
  }
  ok(good, "GPU sort of %s NaN payloads and signed zeros, %s: the host's bits, in order", cusci_dtype_name(dt), what);
  cusci_array_release(h);
  cusci_array_release(g);
  cusci_array_release(sh);
  cusci_array_release(sg);
}

static void stats_case(cusci_dtype dt)
{
  int64_t shape[2] = {29, 2003}, n1 = 4001;
  cusci_array *h = make_input(dt, 2, shape, 5 + (uint64_t)dt), *g = tk_copy_to(gpu, host, h);
  const char *dn = cusci_dtype_name(dt);
  /* unique with every output */
  cusci_array *uh[4] = {NULL}, *ug[4] = {NULL};
  cusci_unique_opts all = {true, true, true, false};
  cusci_status sh = cusci_unique(host, h, &all, &uh[0], &uh[1], &uh[2], &uh[3]);
  cusci_status sg = cusci_unique(gpu, g, &all, &ug[0], &ug[1], &ug[2], &ug[3]);
  int good = 1;
  for (int k = 0; k < 4; k++)
    good &= agree(sh, &uh[k], sg, &ug[k], 0, "unique");
  ok(good, "GPU unique of %s with index, inverse and counts", dn);
  cusci_unique_opts nd = {.nan_distinct = true};
  cusci_array *u1 = NULL, *u2 = NULL;
  ok(agree(cusci_unique(host, h, &nd, &u1, NULL, NULL, NULL), &u1, cusci_unique(gpu, g, &nd, &u2, NULL, NULL, NULL), &u2,
           0, "unique"),
     "GPU unique of %s, equal_nan=False", dn);
  /* searchsorted of h's values in a sorted row */
  cusci_array *row = make_input(dt, 1, &n1, 99), *rs = NULL, *rg = NULL;
  cusci_sort(host, row, -1, &rs);
  rg = tk_copy_to(gpu, host, rs);
  for (int side = 0; side < 2; side++) {
    cusci_array *a = NULL, *b = NULL;
    ok(agree(cusci_searchsorted(host, rs, h, (cusci_side)side, &a), &a,
             cusci_searchsorted(gpu, rg, g, (cusci_side)side, &b), &b, 0, "searchsorted"),
       "GPU searchsorted of %s, side %s", dn, side ? "right" : "left");
  }
  cusci_array_release(row);
  cusci_array_release(rs);
  cusci_array_release(rg);
  if (cusci_dtype_kind(dt) != 'c' && dt != CUSCI_BOOL) {
    int ax1 = 1, ax0 = 0;
    good = 1;
    for (int m = 0; m < 13; m++) {
      cusci_quantile_opts o1 = {1, &ax1, false, (cusci_quantile_method)m}, o0 = {1, &ax0, true, (cusci_quantile_method)m};
      cusci_array *a = NULL, *b = NULL, *c = NULL, *d = NULL;
      good &= agree(cusci_quantile_n(host, h, 5, qs, &o1, &a), &a, cusci_quantile_n(gpu, g, 5, qs, &o1, &b), &b, 0,
                    methods[m]);
      good &= agree(cusci_quantile(host, h, 0.37, &o0, &c), &c, cusci_quantile(gpu, g, 0.37, &o0, &d), &d, 0,
                    methods[m]);
    }
    ok(good, "GPU quantiles of %s, 13 methods, both axes, exactly", dn);
    cusci_array *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    cusci_reduce_opts r1 = {1, &ax1, false, 0};
    good = agree(cusci_median(host, h, NULL, &a), &a, cusci_median(gpu, g, NULL, &b), &b, 0, "median");
    good &= agree(cusci_median(host, h, &r1, &c), &c, cusci_median(gpu, g, &r1, &d), &d, 0, "median rows");
    ok(good, "GPU median of %s, all and rows", dn);
    /* histograms; the NaN-free rows for the automatic range */
    cusci_histogram_opts rg2 = {.has_range = true, .range = {-20.5, 33.25}};
    cusci_array *hh = NULL, *hg = NULL, *eh = NULL, *eg = NULL;
    cusci_status s1 = cusci_histogram(host, h, 37, &rg2, &hh, &eh), s2 = cusci_histogram(gpu, g, 37, &rg2, &hg, &eg);
    good = agree(s1, &hh, s2, &hg, 0, "hist") & agree(s1, &eh, s2, &eg, 0, "edges");
    cusci_array *w = make_input(CUSCI_FLOAT64, 2, shape, 1234), *wg = tk_copy_to(gpu, host, w), *wabs = NULL, *wgabs = NULL;
    cusci_abs(host, w, &wabs);
    cusci_abs(gpu, wg, &wgabs);
    cusci_histogram_opts ow = {.has_range = true, .range = {-20.5, 33.25}, .weights = wabs},
                         owg = {.has_range = true, .range = {-20.5, 33.25}, .weights = wgabs};
    hh = hg = NULL;
    good &= agree(cusci_histogram(host, h, 3000, &ow, &hh, NULL), &hh, cusci_histogram(gpu, g, 3000, &owg, &hg, NULL),
                  &hg, 64, "weighted, 3000 bins (global atomics)");
    ok(good, "GPU histogram of %s: counts and edges exactly, weights within 64 ulp", dn);
    cusci_array_release(w);
    cusci_array_release(wg);
    cusci_array_release(wabs);
    cusci_array_release(wgabs);
  }
  cusci_array_release(h);
  cusci_array_release(g);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  int64_t one_row[1] = {200003}, rows[2] = {37, 1001}, cube[3] = {6, 7, 333}, wide[2] = {3000, 5};
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    cusci_dtype dt = (cusci_dtype)d;
    sort_case(dt, 1, one_row, -1, false, "one row of 200003 (radix sort)");
    sort_case(dt, 2, rows, -1, false, "37 rows of 1001 (segmented sort)");
    sort_case(dt, 3, cube, 1, false, "6x7x333 along axis 1");
    sort_case(dt, 2, wide, 0, true, "a strided view along axis 0");
    sort_case(dt, 3, cube, CUSCI_AXIS_NONE, false, "flattened");
  }
  const cusci_dtype fdt[3] = {CUSCI_FLOAT16, CUSCI_FLOAT32, CUSCI_FLOAT64};
  for (int k = 0; k < 3; k++) {
    value_order_case(fdt[k], 1, 65536, "one row of 65536 (radix sort; float16: every pattern)");
    value_order_case(fdt[k], 64, 1024, "64 rows of 1024 (segmented sort)");
    value_order_case(fdt[k], 3, 300007, "3 rows of 300007 (segmented, large segments)");
    value_order_case(fdt[k], 1, 3000017, "one row of 3000017 (radix sort, onesweep)");
    value_order_case(fdt[k], 1000, 7, "1000 rows of 7");
  }
  for (int d = 0; d < CUSCI_N_DTYPES; d++)
    stats_case((cusci_dtype)d);

  /* bincount: counts exactly, weights within 1e-12 relative. */
  int64_t n = 1 << 20;
  int64_t *xv = malloc((size_t)n * sizeof *xv);
  double *wv = malloc((size_t)n * sizeof *wv);
  uint64_t seed = 77;
  for (int64_t i = 0; i < n; i++) {
    xv[i] = (int64_t)(tk_rand_double(&seed) * tk_rand_double(&seed) * 5000);
    wv[i] = tk_rand_double(&seed) - 0.25;
  }
  cusci_array *xh = NULL, *wh = NULL;
  cusci_array_from_host(host, xv, 1, &n, CUSCI_INT64, &xh);
  cusci_array_from_host(host, wv, 1, &n, CUSCI_FLOAT64, &wh);
  cusci_array *xg = tk_copy_to(gpu, host, xh), *wg = tk_copy_to(gpu, host, wh), *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  ok(agree(cusci_bincount(host, xh, NULL, 7000, &a), &a, cusci_bincount(gpu, xg, NULL, 7000, &b), &b, 0, "bincount"),
     "GPU bincount of 2^20 values, minlength 7000");
  ok(agree(cusci_bincount(host, xh, wh, 0, &c), &c, cusci_bincount(gpu, xg, wg, 0, &d), &d, 4096, "weights"),
     "GPU bincount with weights (sums in another order)");
  ok(cusci_ctx_synchronize(gpu) == CUSCI_OK, "no asynchronous error");
  cusci_array *arrs[] = {xh, wh, xg, wg};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
  free(xv);
  free(wv);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
