/*
 * tests/core-reduce-gpu.c: reductions on the GPU against the host: the
 * fixture inputs over every function and axes case, a strided view, and
 * large arrays (the multi-block path). Integers exactly; floating point
 * within the tolerance of tests/core-reduce.c, since the GPU sums in a
 * tree and the host in a loop. Prints "1..0 # SKIP no CUDA device" where
 * there is none.
 */
#define REDUCE_GPU
#include "tests/core-reduce.c"

static cusci_ctx *gpu, *host;

static int agree(reduce_fn fn, const cusci_array *h, const cusci_array *g, const cusci_reduce_opts *o, bool isvar,
                 const char *what)
{
  cusci_array *rh = NULL, *rg = NULL;
  cusci_status sh = fn(host, h, o, &rh), sg = fn(gpu, g, o, &rg);
  double tol = rel_tol(cusci_array_dtype(h), isvar);
  return tk_both(host, sh, rh, gpu, sg, rg, (tk_tol){tol, tol, tol, 0}, false, what);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  cusci_npz *z = cu_archive(host, "reduce");
  for (size_t f = 0; z && f < sizeof fns / sizeof *fns; f++)
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      char key[96];
      snprintf(key, sizeof key, "%s_%s", fns[f].name[0] == 'n' ? "xn" : "x", cu_dtype_names[d]);
      cusci_array *x = cusci_npz_get(z, key);
      if (!x) {
        snprintf(key, sizeof key, "x_%s", cu_dtype_names[d]);
        x = cusci_npz_get(z, key);
      }
      snprintf(key, sizeof key, "%s_%s_all", fns[f].name, cu_dtype_names[d]);
      if (!x || !cusci_npz_get(z, key))
        continue;
      cusci_array *g = tk_copy_to(gpu, host, x);
      bool isvar = !strcmp(fns[f].name, "var") || !strcmp(fns[f].name, "std");
      int good = 1;
      for (size_t a = 0; a < sizeof axes / sizeof *axes; a++)
        good &= agree(fns[f].fn, x, g, &axes[a].opts, isvar, axes[a].code);
      /* A strided view: x[:, ::2, ::-1]. */
      int64_t step[3] = {1, 2, -1};
      cusci_array *hv = NULL, *gv = NULL;
      cusci_array_slice(host, x, NULL, NULL, step, &hv);
      cusci_array_slice(gpu, g, NULL, NULL, step, &gv);
      good &= agree(fns[f].fn, hv, gv, &axes[2].opts, isvar, "strided");
      ok(good, "GPU %s(%s) agrees with the host over all axes cases", fns[f].name, cu_dtype_names[d]);
      cusci_array_release(hv);
      cusci_array_release(gv);
      cusci_array_release(g);
    }
  cusci_npz_free(z);

  /* Large: 2^22 + 3 float32 and int64, all axes (many chunks) and rows. */
  int64_t n = ((int64_t)1 << 22) + 3, shape2[2] = {1021, 4099}; /* 1021 x 4099 < n */
  uint64_t seed = 3;
  double *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++)
    v[i] = tk_rand_double(&seed) * 2.0 - 0.7;
  cusci_array *d = NULL, *hf = NULL, *hi = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &d);
  cusci_array_astype(host, d, CUSCI_FLOAT32, true, &hf);
  for (int64_t i = 0; i < n; i++)
    v[i] = v[i] * 1e15;
  cusci_array *d2 = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &d2);
  cusci_array_astype(host, d2, CUSCI_INT64, true, &hi);
  cusci_array *gf = tk_copy_to(gpu, host, hf), *gi = tk_copy_to(gpu, host, hi);
  ok(agree(cusci_sum, hf, gf, NULL, false, "sum f32"), "GPU sum of %lld float32", (long long)n);
  ok(agree(cusci_max, hf, gf, NULL, false, "max f32"), "GPU max of %lld float32", (long long)n);
  ok(agree(cusci_sum, hi, gi, NULL, false, "sum i64"), "GPU sum of %lld int64, exactly", (long long)n);
  ok(agree(cusci_std, hf, gf, NULL, true, "std f32"), "GPU std of %lld float32", (long long)n);
  cusci_array *hf2 = NULL, *gf2 = NULL;
  int64_t m = shape2[0] * shape2[1];
  cusci_array *hs = NULL, *gs = NULL;
  int64_t z0 = 0, z1 = m;
  cusci_array_slice(host, hf, &z0, &z1, NULL, &hs);
  cusci_array_slice(gpu, gf, &z0, &z1, NULL, &gs);
  cusci_array_reshape(host, hs, 2, shape2, &hf2);
  cusci_array_reshape(gpu, gs, 2, shape2, &gf2);
  int ax1v = 1, ax0v = 0;
  cusci_reduce_opts r1 = {1, &ax1v, false, 0}, r0 = {1, &ax0v, false, 0};
  ok(agree(cusci_sum, hf2, gf2, &r1, false, "rows"), "GPU sum over rows of 1021x4099 float32");
  ok(agree(cusci_mean, hf2, gf2, &r0, false, "columns"), "GPU mean over columns of 1021x4099 float32");
  sz_reduce_cases(gpu, "GPU");
  ok(cusci_ctx_synchronize(gpu) == CUSCI_OK, "no asynchronous error");
  cusci_array *arrs[] = {d, d2, hf, hi, gf, gi, hf2, gf2, hs, gs};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
  free(v);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
