/*
 * tests/core-tails-gpu.c: the core's kernels at the sizes where tails
 * break, with the pool off (every array its own exact allocation) and
 * every output guarded by sentinel bytes on both sides: sizes that are
 * exact multiples of the block (256 threads), of the 16-byte vector widths
 * (16, 8, 4 and 2 elements) and of the reductions' and scans' tiles, one
 * more and one less, and, for the ufuncs, float32 and float64 arrays of
 * 2^20 to 2^28 elements. Each case is compared with the host backend.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/testkit.h"

#include <string.h>

static cusci_ctx *gpu, *host;

/* 1 to 2^20 + 1 around every width a kernel of the core divides by. */
static const int64_t tails[] = {1,    2,    3,     4,     5,     7,     8,     9,     15,           16,      17,
                                31,   32,   33,    255,   256,   257,   1023,  1024,  1025,         4095,    4096,
                                4097, 8191, 65535, 65536, 65537, 65539, 1 << 20, (1 << 20) - 1, (1 << 20) + 1};
#define N_TAILS (int)(sizeof tails / sizeof *tails)

/* One operation: out = f(in[0..nin)) on ctx, *out under the output
 * convention. */
typedef cusci_status (*op_fn)(cusci_ctx *ctx, cusci_array *const *in, cusci_array **out);

typedef struct op_case {
  const char *name;
  op_fn fn;
  int nin;
  cusci_dtype in[3];
  cusci_dtype out; /* the result's dtype */
  double lo, hi;   /* the inputs' range */
  tk_tol tol;
} op_case;

static cusci_status op_add(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_add(c, x[0], x[1], o); }
static cusci_status op_mul(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_multiply(c, x[0], x[1], o); }
static cusci_status op_less(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_less(c, x[0], x[1], o); }
static cusci_status op_sqrt(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_sqrt(c, x[0], o); }
static cusci_status op_neg(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_negative(c, x[0], o); }
static cusci_status op_where(cusci_ctx *c, cusci_array *const *x, cusci_array **o)
{
  return cusci_where(c, x[0], cusci_operand_array(x[1]), cusci_operand_array(x[2]), o);
}
static cusci_status op_clip(cusci_ctx *c, cusci_array *const *x, cusci_array **o)
{
  return cusci_clip(c, x[0], cusci_operand_float(-0.75), cusci_operand_float(1.5), o);
}
static cusci_status op_astype(cusci_ctx *c, cusci_array *const *x, cusci_array **o, cusci_dtype dt)
{
  return cusci_array_astype(c, x[0], dt, true, o);
}
static cusci_status op_to_f32(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return op_astype(c, x, o, CUSCI_FLOAT32); }
static cusci_status op_to_f16(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return op_astype(c, x, o, CUSCI_FLOAT16); }
static cusci_status op_to_c128(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return op_astype(c, x, o, CUSCI_COMPLEX128); }
static cusci_status op_cumsum(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_cumsum(c, x[0], NULL, o); }
static cusci_status op_sort(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_sort(c, x[0], -1, o); }
static cusci_status op_argsort(cusci_ctx *c, cusci_array *const *x, cusci_array **o) { return cusci_argsort(c, x[0], -1, o); }

/* The elementwise cases, whose result has the inputs' shape. */
static const op_case elementwise[] = {
  {"add float32", op_add, 2, {CUSCI_FLOAT32, CUSCI_FLOAT32}, CUSCI_FLOAT32, -3.7, 2.9, {0, 0, 0, 0}},
  {"add float64", op_add, 2, {CUSCI_FLOAT64, CUSCI_FLOAT64}, CUSCI_FLOAT64, -3.7, 2.9, {0, 0, 0, 0}},
  {"multiply int8", op_mul, 2, {CUSCI_INT8, CUSCI_INT8}, CUSCI_INT8, -100, 100, {0, 0, 0, 0}},
  {"multiply uint16", op_mul, 2, {CUSCI_UINT16, CUSCI_UINT16}, CUSCI_UINT16, 0, 60000, {0, 0, 0, 0}},
  {"multiply complex128", op_mul, 2, {CUSCI_COMPLEX128, CUSCI_COMPLEX128}, CUSCI_COMPLEX128, -2.3, 1.9, {0, 1e-6, 1e-15, 0}},
  {"less float32 (bool out)", op_less, 2, {CUSCI_FLOAT32, CUSCI_FLOAT32}, CUSCI_BOOL, -1.3, 1.1, {0, 0, 0, 0}},
  {"sqrt float32", op_sqrt, 1, {CUSCI_FLOAT32}, CUSCI_FLOAT32, 0.01, 9.7, {0, 2e-7, 0, 0}},
  {"negative int64", op_neg, 1, {CUSCI_INT64}, CUSCI_INT64, -1e15, 1e15, {0, 0, 0, 0}},
  {"where float64", op_where, 3, {CUSCI_BOOL, CUSCI_FLOAT64, CUSCI_FLOAT64}, CUSCI_FLOAT64, -1.5, 1.7, {0, 0, 0, 0}},
  {"clip float32", op_clip, 1, {CUSCI_FLOAT32}, CUSCI_FLOAT32, -2.1, 2.3, {0, 0, 0, 0}},
  {"astype float64 -> float32", op_to_f32, 1, {CUSCI_FLOAT64}, CUSCI_FLOAT32, -7.3e5, 3.1e5, {0, 0, 0, 0}},
  {"astype float32 -> float16", op_to_f16, 1, {CUSCI_FLOAT32}, CUSCI_FLOAT16, -7e4, 7e4, {0, 0, 0, 0}},
  {"astype int16 -> complex128", op_to_c128, 1, {CUSCI_INT16}, CUSCI_COMPLEX128, -3e4, 3e4, {0, 0, 0, 0}},
  {"cumsum float64", op_cumsum, 1, {CUSCI_FLOAT64}, CUSCI_FLOAT64, -1.1, 1.3, {0, 0, 1e-12, 0}},
  {"cumsum int32", op_cumsum, 1, {CUSCI_INT32}, CUSCI_INT64, -1000, 1000, {0, 0, 0, 0}},
  {"sort float32", op_sort, 1, {CUSCI_FLOAT32}, CUSCI_FLOAT32, -5.5, 5.5, {0, 0, 0, 0}},
  {"argsort int64", op_argsort, 1, {CUSCI_INT64}, CUSCI_INT64, -50, 50, {0, 0, 0, 0}},
};

/* f on n elements on both backends; the GPU's output guarded. */
static int run_case(const op_case *c, int ndim, const int64_t *shape, uint64_t *seed, char *why, size_t len)
{
  cusci_array *h[3] = {NULL}, *g[3] = {NULL}, *rh = NULL;
  tk_guard gd;
  int good = 0;
  for (int i = 0; i < c->nin; i++) {
    h[i] = tk_random(host, ndim, shape, c->in[i], c->lo, c->hi, seed);
    g[i] = tk_copy_to(gpu, host, h[i]);
  }
  if (!tk_guard_make(gpu, ndim, shape, c->out, 4096, &gd)) {
    snprintf(why, len, "no guard");
  } else {
    cusci_status sh = c->fn(host, h, &rh), sg = c->fn(gpu, g, &gd.out);
    if (sh != CUSCI_OK || sg != CUSCI_OK)
      snprintf(why, len, "host %s, GPU %s: %s", cusci_status_name(sh), cusci_status_name(sg), cusci_ctx_last_error(gpu));
    else if (!tk_guard_intact(&gd, c->name))
      snprintf(why, len, "a write outside the output");
    else if (!tk_agree(gpu, gd.out, host, rh, c->tol, c->name))
      snprintf(why, len, "GPU and host differ");
    else
      good = 1;
  }
  tk_guard_free(&gd);
  for (int i = 0; i < 3; i++)
    cusci_array_release(h[i]), cusci_array_release(g[i]);
  cusci_array_release(rh);
  return good;
}

static void elementwise_tails(void)
{
  uint64_t seed = 2385;
  for (size_t k = 0; k < sizeof elementwise / sizeof *elementwise; k++) {
    const op_case *c = &elementwise[k];
    char why[512] = "";
    int64_t bad = 0;
    for (int s = 0; s < N_TAILS && !bad; s++)
      if (!run_case(c, 1, &tails[s], &seed, why, sizeof why))
        bad = tails[s];
    ok(!bad, "%s: GPU = host, guards intact, at %d sizes from 1 to 2^20 + 1%s%s", c->name, N_TAILS, bad ? ": " : "", why);
    if (bad)
      diag("first failing size %lld", (long long)bad);
  }
}

/* Reductions and arg-reductions over the last axis and over all axes of
 * (3, n) and (n, 3): the tiles of the row and column paths. */
static void reduction_tails(void)
{
  static const struct {
    const char *name;
    cusci_status (*fn)(cusci_ctx *, const cusci_array *, const cusci_reduce_opts *, cusci_array **);
    cusci_dtype dt;
    double tol;
  } red[] = {{"sum", cusci_sum, CUSCI_FLOAT32, 2e-5}, {"sum", cusci_sum, CUSCI_INT64, 0}, {"max", cusci_max, CUSCI_FLOAT64, 0},
             {"mean", cusci_mean, CUSCI_COMPLEX64, 2e-5}, {"argmax", cusci_argmax, CUSCI_FLOAT32, 0},
             {"argmin", cusci_argmin, CUSCI_INT16, 0}, {"nansum", cusci_nansum, CUSCI_FLOAT64, 1e-12}};
  static const int last[1] = {-1}, first[1] = {0};
  const cusci_reduce_opts axes[3] = {{0, NULL, false, 0}, {1, last, false, 0}, {1, first, false, 0}};
  uint64_t seed = 77;
  for (size_t r = 0; r < sizeof red / sizeof *red; r++) {
    int64_t bad = 0;
    char why[256] = "";
    for (int s = 0; s < N_TAILS && !bad; s++) {
      for (int shape_kind = 0; shape_kind < 2 && !bad; shape_kind++) {
        int64_t sh[2] = {shape_kind ? tails[s] : 3, shape_kind ? 3 : tails[s]};
        cusci_array *h = tk_random(host, 2, sh, red[r].dt, -2.2, 2.6, &seed), *g = tk_copy_to(gpu, host, h);
        for (int a = 0; a < 3 && !bad; a++) {
          cusci_array *rh = NULL, *rg = NULL;
          cusci_status sh_ = red[r].fn(host, h, &axes[a], &rh), sg = red[r].fn(gpu, g, &axes[a], &rg);
          tk_tol tol = {red[r].tol, red[r].tol, red[r].tol, 0};
          if (sh_ != CUSCI_OK || sg != CUSCI_OK || !tk_agree(gpu, rg, host, rh, tol, red[r].name)) {
            bad = tails[s];
            snprintf(why, sizeof why, " (shape %lldx%lld, axes case %d: %s)", (long long)sh[0], (long long)sh[1], a,
                     sg != CUSCI_OK ? cusci_ctx_last_error(gpu) : "values differ");
          }
          cusci_array_release(rh), cusci_array_release(rg);
        }
        cusci_array_release(h), cusci_array_release(g);
      }
    }
    ok(!bad, "%s %s over (3, n) and (n, 3), all axes, last, first: GPU = host at %d sizes%s", red[r].name,
       cusci_dtype_name(red[r].dt), N_TAILS, why);
  }
}

/* Creation kernels write whole outputs: full, arange, linspace, eye. */
static void creation_tails(void)
{
  int64_t bad = 0;
  char why[256] = "";
  for (int s = 0; s < N_TAILS && !bad; s++) {
    int64_t n = tails[s];
    static const cusci_dtype dts[] = {CUSCI_UINT8, CUSCI_INT16, CUSCI_FLOAT32, CUSCI_FLOAT64, CUSCI_COMPLEX128};
    for (size_t d = 0; d < sizeof dts / sizeof *dts && !bad; d++) {
      tk_guard g;
      cusci_array *want = NULL;
      const double v[2] = {0.375, -1.25};
      unsigned char one[16];
      memset(one, 0, sizeof one);
      switch (dts[d]) {
      case CUSCI_UINT8: one[0] = 0x5a; break;
      case CUSCI_INT16: one[0] = 0x12, one[1] = 0x34; break;
      case CUSCI_FLOAT32: { float f = 0.375f; memcpy(one, &f, 4); break; }
      case CUSCI_FLOAT64: memcpy(one, v, 8); break;
      default: memcpy(one, v, 16);
      }
      int made = tk_guard_make(gpu, 1, &n, dts[d], 4096, &g);
      cusci_status sg = made ? cusci_array_full(gpu, 1, &n, dts[d], one, &g.out) : CUSCI_ERR_INTERNAL;
      cusci_status sh = cusci_array_full(host, 1, &n, dts[d], one, &want);
      if (sg != CUSCI_OK || sh != CUSCI_OK || !tk_guard_intact(&g, "full") || !tk_agree(gpu, g.out, host, want, TK_EXACT, "full")) {
        bad = n;
        snprintf(why, sizeof why, " (full %s: %s)", cusci_dtype_name(dts[d]), cusci_ctx_last_error(gpu));
      }
      tk_guard_free(&g);
      cusci_array_release(want);
      want = NULL;
      if (bad || cusci_dtype_kind(dts[d]) == 'c')
        continue;
      cusci_array *gl = NULL, *ga = NULL, *hl = NULL, *ha = NULL;
      cusci_status s1 = cusci_array_linspace(gpu, -2.5, 7.125, n, true, dts[d], &gl);
      cusci_status s2 = cusci_array_linspace(host, -2.5, 7.125, n, true, dts[d], &hl);
      cusci_status s3 = cusci_array_arange(gpu, 3, 3 + (double)n, 1, dts[d], &ga);
      cusci_status s4 = cusci_array_arange(host, 3, 3 + (double)n, 1, dts[d], &ha);
      if (s1 || s2 || s3 || s4 || !tk_agree(gpu, gl, host, hl, TK_EXACT, "linspace") || !tk_agree(gpu, ga, host, ha, TK_EXACT, "arange")) {
        bad = n;
        snprintf(why, sizeof why, " (linspace/arange %s)", cusci_dtype_name(dts[d]));
      }
      cusci_array_release(gl), cusci_array_release(ga), cusci_array_release(hl), cusci_array_release(ha);
    }
  }
  ok(!bad, "full (5 dtypes, guarded), linspace and arange (4 dtypes): GPU = host at %d sizes%s", N_TAILS, why);
}

/* Sorting's other kernels: searchsorted, unique, histogram, bincount. */
static void sort_tails(void)
{
  uint64_t seed = 991;
  int64_t bad = 0;
  const char *what = "";
  for (int s = 0; s < N_TAILS && !bad; s++) {
    int64_t n = tails[s];
    cusci_array *ha = tk_random(host, 1, &n, CUSCI_FLOAT64, -4, 4, &seed), *hs = NULL, *hv = NULL;
    cusci_sort(host, ha, -1, &hs);
    int64_t nv = n + 3;
    hv = tk_random(host, 1, &nv, CUSCI_FLOAT64, -5, 5, &seed);
    cusci_array *gs = tk_copy_to(gpu, host, hs), *gv = tk_copy_to(gpu, host, hv), *ga = tk_copy_to(gpu, host, ha);
    cusci_array *r[2] = {NULL, NULL};
    if (cusci_searchsorted(host, hs, hv, CUSCI_SIDE_RIGHT, &r[0]) || cusci_searchsorted(gpu, gs, gv, CUSCI_SIDE_RIGHT, &r[1]) ||
        !tk_agree(gpu, r[1], host, r[0], TK_EXACT, "searchsorted"))
      bad = n, what = "searchsorted";
    cusci_array_release(r[0]), cusci_array_release(r[1]);
    cusci_array *hi = tk_random(host, 1, &n, CUSCI_INT32, 0, 97, &seed), *gi = tk_copy_to(gpu, host, hi);
    cusci_array *u[2] = {NULL, NULL}, *inv[2] = {NULL, NULL}, *cnt[2] = {NULL, NULL};
    const cusci_unique_opts uo = {.return_inverse = true, .return_counts = true};
    if (!bad && (cusci_unique(host, hi, &uo, &u[0], NULL, &inv[0], &cnt[0]) || cusci_unique(gpu, gi, &uo, &u[1], NULL, &inv[1], &cnt[1]) ||
                 !tk_agree(gpu, u[1], host, u[0], TK_EXACT, "unique") || !tk_agree(gpu, inv[1], host, inv[0], TK_EXACT, "inverse") ||
                 !tk_agree(gpu, cnt[1], host, cnt[0], TK_EXACT, "counts")))
      bad = n, what = "unique";
    cusci_array *h[2] = {NULL, NULL}, *e[2] = {NULL, NULL}, *b[2] = {NULL, NULL};
    if (!bad && (cusci_histogram(host, ha, 37, NULL, &h[0], &e[0]) || cusci_histogram(gpu, ga, 37, NULL, &h[1], &e[1]) ||
                 !tk_agree(gpu, h[1], host, h[0], TK_EXACT, "histogram")))
      bad = n, what = "histogram";
    if (!bad && (cusci_bincount(host, hi, NULL, 0, &b[0]) || cusci_bincount(gpu, gi, NULL, 0, &b[1]) ||
                 !tk_agree(gpu, b[1], host, b[0], TK_EXACT, "bincount")))
      bad = n, what = "bincount";
    for (int i = 0; i < 2; i++)
      cusci_array_release(u[i]), cusci_array_release(inv[i]), cusci_array_release(cnt[i]), cusci_array_release(h[i]),
          cusci_array_release(e[i]), cusci_array_release(b[i]);
    cusci_array_release(ha), cusci_array_release(hs), cusci_array_release(hv), cusci_array_release(gs);
    cusci_array_release(gv), cusci_array_release(ga), cusci_array_release(hi), cusci_array_release(gi);
  }
  ok(!bad, "searchsorted, unique (inverse, counts), histogram, bincount: GPU = host at %d sizes%s%s", N_TAILS,
     bad ? ", failing: " : "", what);
}

/*
 * The ufuncs' vector path on large arrays: 2^20 to 2^28 elements of
 * float32 and float64 (1 GiB and 2 GiB at the top; 2^22 under
 * compute-sanitizer, tk_top_log2), made on the GPU by
 * linspace, guarded, and compared with the host on their first and last
 * 65536 elements (the host computes those from the same inputs).
 */
static void large_ufuncs(void)
{
  static const cusci_dtype dts[2] = {CUSCI_FLOAT32, CUSCI_FLOAT64};
  const int top = tk_top_log2(28);
  for (int d = 0; d < 2; d++) {
    int64_t bad = 0;
    char why[256] = "";
    for (int e = 20; e <= top && !bad; e += 2) {
      int64_t n = INT64_C(1) << e;
      cusci_array *x = NULL, *y = NULL;
      tk_guard g;
      if (cusci_array_linspace(gpu, -3.3, 4.9, n, false, dts[d], &x) || cusci_array_linspace(gpu, 2.2, -0.7, n, true, dts[d], &y) ||
          !tk_guard_make(gpu, 1, &n, dts[d], 1 << 16, &g)) {
        bad = n;
        snprintf(why, sizeof why, " (%s)", cusci_ctx_last_error(gpu));
        cusci_array_release(x), cusci_array_release(y);
        break;
      }
      cusci_status st = cusci_multiply(gpu, x, y, &g.out);
      if (st != CUSCI_OK || !tk_guard_intact(&g, "multiply") || !tk_guard_all_written(&g, "multiply")) {
        bad = n;
        snprintf(why, sizeof why, " (%s)", st ? cusci_ctx_last_error(gpu) : "guards");
      }
      for (int end = 0; end < 2 && !bad; end++) {
        int64_t w = 65536, at = end ? n - w : 0;
        const int64_t start[1] = {at}, stop[1] = {at + w};
        cusci_array *xs = NULL, *ys = NULL, *gs = NULL, *hx = NULL, *hy = NULL, *hr = NULL, *gc = NULL;
        cusci_array_slice(gpu, x, start, stop, NULL, &xs);
        cusci_array_slice(gpu, y, start, stop, NULL, &ys);
        cusci_array_slice(gpu, g.out, start, stop, NULL, &gs);
        hx = tk_copy_to(host, gpu, xs), hy = tk_copy_to(host, gpu, ys), gc = tk_copy_to(host, gpu, gs);
        if (cusci_multiply(host, hx, hy, &hr) != CUSCI_OK || !tk_agree(host, gc, host, hr, TK_EXACT, "multiply window")) {
          bad = n;
          snprintf(why, sizeof why, " (the %s window)", end ? "last" : "first");
        }
        cusci_array_release(xs), cusci_array_release(ys), cusci_array_release(gs), cusci_array_release(hx);
        cusci_array_release(hy), cusci_array_release(hr), cusci_array_release(gc);
      }
      tk_guard_free(&g);
      cusci_array_release(x), cusci_array_release(y);
    }
    ok(!bad, "multiply %s at 2^20, 2^22, ..., 2^%d: guards intact, every element written, ends = host%s", cusci_dtype_name(dts[d]),
       top, why);
  }
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  ok(tk_pool_off(gpu) && !cusci_pool_caching(cusci_ctx_pool(gpu)), "the GPU's pool is off: every array its own allocation");
  elementwise_tails();
  reduction_tails();
  creation_tails();
  sort_tails();
  large_ufuncs();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
