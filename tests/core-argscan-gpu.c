/*
 * tests/core-argscan-gpu.c: arg-reductions, scans, complex min/max and
 * complex clip on the GPU against the host: the fixture inputs over every
 * function and axis case, strided and reversed views, and large arrays
 * (many chunks, CUB's scan, batched scans). Indices and integer scans
 * exactly, complex min/max and clip exactly (they pick elements), float
 * scans within the tolerance of tests/core-argscan.c, and large float32
 * scans of small integers exactly (every partial sum is exact). Prints
 * "1..0 # SKIP no CUDA device" where there is none.
 */
#define ARGSCAN_GPU
#include "tests/core-argscan.c"

static cusci_ctx *gpu, *host;

/* fn on the host and the GPU agree within tol (0: exactly). */
static int agree(as_fn fn, const cusci_array *h, const cusci_array *g, const cusci_reduce_opts *o, double tol,
                 const char *what)
{
  cusci_array *rh = NULL, *rg = NULL;
  cusci_status sh = fn(host, h, o, &rh), sg = fn(gpu, g, o, &rg);
  return tk_both(host, sh, rh, gpu, sg, rg, (tk_tol){tol, tol, tol, 0}, true, what);
}

static void fixture_cases(void)
{
  cusci_npz *z = cu_archive(host, "argscan");
  for (size_t f = 0; z && f < sizeof fns / sizeof *fns; f++)
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      cusci_array *x = input_of(z, f, d);
      char key[96];
      snprintf(key, sizeof key, "%s_%s_all", fns[f].name, cu_dtype_names[d]);
      if (!x || !cusci_npz_get(z, key))
        continue;
      cusci_array *g = tk_copy_to(gpu, host, x);
      double tol = is_scan(fns[f].name) ? scan_tol(cusci_array_dtype(x)) : 0;
      int good = 1;
      for (size_t a = 0; a < sizeof axes / sizeof *axes; a++)
        good &= agree(fns[f].fn, x, g, &axes[a].opts, tol, axes[a].code);
      /* Strided and reversed: x[:, ::2, ::-1], flattened and along the last axis. */
      int64_t step[3] = {1, 2, -1};
      cusci_array *hv = NULL, *gv = NULL;
      cusci_array_slice(host, x, NULL, NULL, step, &hv);
      cusci_array_slice(gpu, g, NULL, NULL, step, &gv);
      good &= agree(fns[f].fn, hv, gv, &axes[0].opts, tol, "strided, flattened");
      good &= agree(fns[f].fn, hv, gv, &axes[3].opts, tol, "strided, last axis");
      ok(good, "GPU %s(%s) agrees with the host over all axis cases", fns[f].name, cu_dtype_names[d]);
      cusci_array_release(hv);
      cusci_array_release(gv);
      cusci_array_release(g);
    }
  cusci_npz_free(z);
}

static void clip_cases(void)
{
  cusci_npz *z = cu_archive(host, "argscan");
  for (int c = 0; z && c < 2; c++) {
    cusci_array *a = cusci_npz_get(z, c ? "clip_complex128_a" : "clip_complex64_a");
    cusci_array *lo = cusci_npz_get(z, c ? "clip_complex128_lo" : "clip_complex64_lo");
    cusci_array *ga = tk_copy_to(gpu, host, a), *glo = tk_copy_to(gpu, host, lo), *rh = NULL, *rg = NULL;
    cusci_operand hi = cusci_operand_complex(1.25, 0.5);
    cusci_status sh = cusci_clip(host, a, cusci_operand_array(lo), hi, &rh);
    cusci_status sg = cusci_clip(gpu, ga, cusci_operand_array(glo), hi, &rg);
    int good = sh == CUSCI_OK && sg == CUSCI_OK;
    if (good) {
      void *p = tk_to_host(gpu, rg), *q = tk_to_host(host, rh);
      good = tk_first_mismatch(cusci_array_dtype(rh), p, q, NULL, cusci_array_size(rh)) < 0;
      free(p);
      free(q);
    } else {
      diag("host %s GPU %s: %s", cusci_status_name(sh), cusci_status_name(sg), cusci_ctx_last_error(gpu));
    }
    ok(good, "GPU clip of %s with array bounds agrees with the host exactly", c ? "complex128" : "complex64");
    cusci_array *arrs[] = {ga, glo, rh, rg};
    for (size_t i = 0; i < 4; i++)
      cusci_array_release(arrs[i]);
  }
  cusci_npz_free(z);
}

static void large_cases(void)
{
  int64_t n = ((int64_t)1 << 22) + 3, shape2[2] = {1021, 4099}; /* 1021 x 4099 < n */
  uint64_t seed = 5;
  double *v = malloc((size_t)n * sizeof *v);
  int64_t *vp = malloc((size_t)n * sizeof *vp);
  /* Small integers as float: every partial sum is exact in float32. */
  for (int64_t i = 0; i < n; i++)
    v[i] = (double)(int)(tk_rand_double(&seed) * 7.0) - 3.0;
  v[n / 3] = 1000.0;  /* the maximum, also at 2n/3: the first wins */
  v[2 * n / 3] = 1000.0;
  v[n - 2] = -1000.0; /* the minimum, near the end */
  cusci_array *d = NULL, *hf = NULL, *hi = NULL, *hu = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &d);
  cusci_array_astype(host, d, CUSCI_FLOAT32, true, &hf);
  cusci_array_astype(host, d, CUSCI_INT32, true, &hi);
  cusci_array_astype(host, d, CUSCI_UINT8, true, &hu);
  cusci_array *gd = tk_copy_to(gpu, host, d), *gf = tk_copy_to(gpu, host, hf), *gi = tk_copy_to(gpu, host, hi), *gu = tk_copy_to(gpu, host, hu);
  ok(agree(cusci_argmax, hf, gf, NULL, 0, "argmax f32"), "GPU argmax of %lld float32 (tie: the first)", (long long)n);
  ok(agree(cusci_argmin, hi, gi, NULL, 0, "argmin i32"), "GPU argmin of %lld int32", (long long)n);
  ok(agree(cusci_cumsum, hf, gf, NULL, 0, "cumsum f32"), "GPU cumsum of %lld float32 (CUB), exactly", (long long)n);
  ok(agree(cusci_cumsum, hi, gi, NULL, 0, "cumsum i32"), "GPU cumsum of %lld int32 into int64, exactly", (long long)n);
  ok(agree(cusci_cumsum, hu, gu, NULL, 0, "cumsum u8"), "GPU cumsum of %lld uint8 into uint64, exactly", (long long)n);
  /* Products of nonzero small integers wrap modulo 2^64 soon: exact too. */
  for (int64_t i = 0; i < n; i++)
    vp[i] = (v[i] == 0 || fabs(v[i]) > 3) ? 2 : (int64_t)v[i];
  cusci_array *hp = NULL;
  cusci_array_from_host(host, vp, 1, &n, CUSCI_INT64, &hp);
  cusci_array *gp = tk_copy_to(gpu, host, hp);
  ok(agree(cusci_cumprod, hp, gp, NULL, 0, "cumprod i64"), "GPU cumprod of %lld int64 (wrapping), exactly", (long long)n);
  ok(agree(cusci_cumsum, d, gd, NULL, 0, "cumsum f64"), "GPU cumsum of %lld float64, exactly", (long long)n);
  /* A NaN: argmax finds it; nanargmax and nancumsum skip it. */
  v[12345] = NAN;
  cusci_array *dn = NULL, *hn = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &dn);
  cusci_array_astype(host, dn, CUSCI_FLOAT32, true, &hn);
  cusci_array *gn = tk_copy_to(gpu, host, hn);
  ok(agree(cusci_argmax, hn, gn, NULL, 0, "argmax nan"), "GPU argmax finds the NaN");
  ok(agree(cusci_nanargmax, hn, gn, NULL, 0, "nanargmax"), "GPU nanargmax skips it");
  ok(agree(cusci_nancumsum, hn, gn, NULL, 0, "nancumsum"), "GPU nancumsum of %lld float32 (CUB), exactly", (long long)n);
  ok(agree(cusci_cumsum, hn, gn, NULL, 0, "cumsum nan"), "GPU cumsum propagates the NaN");

  /* Batches: a 1021 x 4099 view, along rows (segments), along columns
   * (strided), flattened (one segment, many chunks); float16 and complex
   * take the three-phase scan. */
  int64_t m = shape2[0] * shape2[1], z0 = 0, z1 = m;
  int ax1v = 1, ax0v = 0;
  cusci_reduce_opts r1 = {1, &ax1v, false, 0}, r0 = {1, &ax0v, false, 0};
  cusci_array *hs = NULL, *gs = NULL, *h2 = NULL, *g2 = NULL, *hh = NULL, *gh = NULL, *hc = NULL, *gc = NULL;
  cusci_array_slice(host, hf, &z0, &z1, NULL, &hs);
  cusci_array_slice(gpu, gf, &z0, &z1, NULL, &gs);
  cusci_array_reshape(host, hs, 2, shape2, &h2);
  cusci_array_reshape(gpu, gs, 2, shape2, &g2);
  ok(agree(cusci_cumsum, h2, g2, &r1, 0, "rows"), "GPU cumsum along rows of 1021x4099 float32");
  ok(agree(cusci_cumsum, h2, g2, &r0, 0, "columns"), "GPU cumsum down columns of 1021x4099 float32");
  ok(agree(cusci_argmax, h2, g2, &r1, 0, "argmax rows"), "GPU argmax along rows of 1021x4099 float32");
  ok(agree(cusci_argmin, h2, g2, &r0, 0, "argmin columns"), "GPU argmin down columns of 1021x4099 float32");
  cusci_array_astype(host, h2, CUSCI_FLOAT16, true, &hh);
  cusci_array_astype(gpu, g2, CUSCI_FLOAT16, true, &gh);
  ok(agree(cusci_cumsum, hh, gh, &r1, 0, "f16 rows"), "GPU cumsum along rows of float16 (exact sums)");
  cusci_array_astype(host, h2, CUSCI_COMPLEX64, true, &hc);
  cusci_array_astype(gpu, g2, CUSCI_COMPLEX64, true, &gc);
  ok(agree(cusci_cumsum, hc, gc, NULL, 0, "c64 flat"), "GPU cumsum of %lld complex64, flattened", (long long)m);
  ok(agree(cusci_max, hc, gc, &r0, 0, "c64 max"), "GPU max down columns of complex64");
  cusci_array *ht = NULL, *gt = NULL;
  cusci_array_transpose(host, h2, NULL, &ht);
  cusci_array_transpose(gpu, g2, NULL, &gt);
  ok(agree(cusci_cumsum, ht, gt, NULL, 0, "transposed flat"), "GPU cumsum of a transposed view, flattened");
  /* Random float64 values: within a relative 1e-9 of the running sum. */
  for (int64_t i = 0; i < n; i++)
    v[i] = tk_rand_double(&seed) * 2.0 - 0.7;
  cusci_array *dr = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &dr);
  cusci_array *gr = tk_copy_to(gpu, host, dr);
  ok(agree(cusci_cumsum, dr, gr, NULL, 1e-9, "cumsum f64 random"), "GPU cumsum of %lld random float64", (long long)n);
  ok(cusci_ctx_synchronize(gpu) == CUSCI_OK, "no asynchronous error");
  cusci_array *arrs[] = {d, hf, hi, hu, hp, gp, gd, gf, gi, gu, dn, hn, gn, hs, gs, h2, g2, hh, gh, hc, gc, ht, gt, dr, gr};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
  free(v);
  free(vp);
}

/*
 * Products through infinities and overflow: a parallel scan groups the
 * products differently from NumPy's left-to-right loop, and the grouping
 * decides whether a part is infinite or NaN. The GPU redoes such runs left
 * to right, so it agrees with the host part for part.
 */
static void nonfinite_product_cases(void)
{
  int64_t n = 300006; /* 7 x 42858 */
  uint64_t seed = 11;
  double *c = malloc((size_t)n * 2 * sizeof *c), *r = malloc((size_t)n * sizeof *r);
  /* Unit-modulus complex values (the running product stays near 1), a NaN
   * early (nancumprod skips it, cumprod propagates it), -inf + 0j in a
   * later chunk. */
  for (int64_t i = 0; i < n; i++) {
    double t = tk_rand_double(&seed) * 6.283185307179586;
    c[2 * i] = cos(t);
    c[2 * i + 1] = sin(t);
  }
  c[2 * 1001] = NAN;
  c[2 * 200003] = -INFINITY;
  c[2 * 200003 + 1] = 0.0;
  /* 0, then factors whose pairwise products overflow: left to right every
   * result is 0; grouped, 0 * inf would be NaN. */
  r[0] = 0.0;
  for (int64_t i = 1; i < n; i++)
    r[i] = 1e200 * (1.0 + tk_rand_double(&seed));
  cusci_array *hc = NULL, *hr = NULL, *hc64 = NULL, *hr32 = NULL;
  cusci_array_from_host(host, c, 1, &n, CUSCI_COMPLEX128, &hc);
  cusci_array_from_host(host, r, 1, &n, CUSCI_FLOAT64, &hr);
  cusci_array_astype(host, hc, CUSCI_COMPLEX64, true, &hc64);
  cusci_array_astype(host, hr, CUSCI_FLOAT32, true, &hr32);
  cusci_array *gc = tk_copy_to(gpu, host, hc), *gr = tk_copy_to(gpu, host, hr), *gc64 = tk_copy_to(gpu, host, hc64), *gr32 = tk_copy_to(gpu, host, hr32);
  ok(agree(cusci_nancumprod, hc, gc, NULL, 1e-9, "nancumprod c128"),
     "GPU nancumprod of %lld complex128 through -inf + 0j: the host's infinite and NaN parts", (long long)n);
  ok(agree(cusci_cumprod, hc, gc, NULL, 1e-9, "cumprod c128"), "GPU cumprod of complex128 through a NaN");
  ok(agree(cusci_nancumprod, hc64, gc64, NULL, 1e-3, "nancumprod c64"),
     "GPU nancumprod of complex64 through -inf + 0j: the host's infinite and NaN parts");
  /* A tolerance of 1e-300 compares NaN with NaN whatever their bits. */
  ok(agree(cusci_cumprod, hr, gr, NULL, 1e-300, "cumprod f64 overflow"),
     "GPU cumprod of 0 then 1e200s (float64, CUB): 0 throughout, as left to right");
  ok(agree(cusci_cumprod, hr32, gr32, NULL, 1e-300, "cumprod f32 overflow"),
     "GPU cumprod of 0 then infinities (float32): the host's NaN from 0 * inf");
  /* Along an axis of a batch, reversed: the three-phase scan per segment. */
  int64_t shape[2] = {7, n / 7}, step[2] = {1, -1};
  cusci_array *hv = NULL, *gv = NULL, *hvr = NULL, *gvr = NULL;
  cusci_array_reshape(host, hc, 2, shape, &hv);
  cusci_array_reshape(gpu, gc, 2, shape, &gv);
  cusci_array_slice(host, hv, NULL, NULL, step, &hvr);
  cusci_array_slice(gpu, gv, NULL, NULL, step, &gvr);
  int ax = 1;
  cusci_reduce_opts o = {1, &ax, false, 0};
  ok(agree(cusci_nancumprod, hvr, gvr, &o, 1e-9, "nancumprod rows reversed"),
     "GPU nancumprod along reversed rows of 7x%lld complex128 through -inf + 0j", (long long)(n / 7));
  cusci_array *arrs[] = {hc, hr, hc64, hr32, gc, gr, gc64, gr32, hv, gv, hvr, gvr};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
  free(c);
  free(r);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  fixture_cases();
  clip_cases();
  large_cases();
  nonfinite_product_cases();
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
