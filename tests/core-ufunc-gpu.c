/*
 * tests/core-ufunc-gpu.c: the ufuncs, where and clip on the GPU against the
 * host reference, for every (ufunc, dtype) of the NumPy fixtures: contiguous
 * operands (the vector path, with a tail), strided views, broadcasting, a
 * scalar operand, and a large size. Integer results and IEEE arithmetic
 * agree bit for bit; functions of the math libraries within 4 ulp.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/compute-util.h"
#include "tests/signed-zero.h"

static cusci_ctx *gpu, *host;

/* 1 when g (GPU) and h (host) have one dtype and shape and values within
 * the ufunc's tolerance; diagnostics otherwise. */
static int agree(const cusci_array *g, const cusci_array *h, int ulps, const char *what)
{
  return tk_agree(gpu, g, host, h, TK_ULPS(ulps), what);
}

typedef struct variant {
  cusci_operand h1, h2, g1, g2;
  cusci_array *own[4];
} variant;

static void variant_free(variant *v)
{
  for (int i = 0; i < 4; i++)
    cusci_array_release(v->own[i]);
}

/*
 * Complex power is exp(b log a): an error of one rounding in log a, or in
 * the products of b log a, moves the exponent by about eps |b| |log a|, and
 * exp turns that absolute error into a relative one of the same size. The
 * host's and the GPU's log, atan2, exp, cos and sin round differently, so
 * the two results agree within eps (u + 4 |b| |log a|) |result|, with u the
 * ufunc's own tolerance; for a = -0.011 + 0.29i, b = -479.6 + 0.069i both
 * sides are some hundreds of eps from the exact value. The scale comes from
 * the host's own abs(b) * abs(log(a)), element by element.
 */
static int agree_power(const cusci_array *g, const cusci_array *h, const variant *v, int u, const char *what)
{
  cusci_array *la = NULL, *ala = NULL, *ab = NULL, *sc = NULL;
  int good = cusci_ufunc_unary(host, CUSCI_UFUNC_LOG, v->h1, &la) == CUSCI_OK &&
             cusci_ufunc_unary(host, CUSCI_UFUNC_ABS, cusci_operand_array(la), &ala) == CUSCI_OK &&
             cusci_ufunc_unary(host, CUSCI_UFUNC_ABS, v->h2, &ab) == CUSCI_OK &&
             cusci_ufunc_binary(host, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(ab), cusci_operand_array(ala), &sc) ==
                 CUSCI_OK &&
             cusci_array_size(sc) == cusci_array_size(h) && cusci_array_size(g) == cusci_array_size(h) &&
             cusci_array_dtype(g) == cusci_array_dtype(h);
  if (!good) {
    diag("%s: the tolerance's scale |b| |log a| could not be computed", what);
  } else {
    cusci_dtype dt = cusci_array_dtype(h);
    int64_t n = cusci_array_size(h);
    void *gb = tk_to_host(gpu, g), *hb = tk_to_host(host, h), *sb = tk_to_host(host, sc);
    double eps = dt == CUSCI_COMPLEX64 ? 0x1p-23 : 0x1p-52;
    bool single = cusci_array_dtype(sc) == CUSCI_FLOAT32;
    for (int64_t i = 0; i < n && good; i++) {
      /* Elements whose bound is finite compare as a whole; the rest (an
       * infinite or NaN part, or an unbounded scale) by the fixed rule. */
      double w[2], q[2];
      for (int j = 0; j < 2; j++) {
        w[j] = dt == CUSCI_COMPLEX64 ? ((const float *)hb)[2 * i + j] : ((const double *)hb)[2 * i + j];
        q[j] = dt == CUSCI_COMPLEX64 ? ((const float *)gb)[2 * i + j] : ((const double *)gb)[2 * i + j];
      }
      double scale = single ? ((const float *)sb)[i] : ((const double *)sb)[i];
      double tol = (u + 4.0 * scale) * eps;
      if (isfinite(w[0]) && isfinite(w[1]) && isfinite(q[0]) && isfinite(q[1]) && isfinite(tol)) {
        if (hypot(q[0] - w[0], q[1] - w[1]) > tol * hypot(w[0], w[1])) {
          char x[96], y[96];
          diag("%s: element %lld GPU %s host %s, beyond %.3g eps (|b| |log a| = %.4g)", what, (long long)i,
               tk_elem_str(dt, gb, i, x, sizeof x), tk_elem_str(dt, hb, i, y, sizeof y), tol / eps, scale);
          good = 0;
        }
      } else if (tk_first_far(dt, (const char *)gb + i * cusci_dtype_itemsize(dt),
                              (const char *)hb + i * cusci_dtype_itemsize(dt), 1, -u) >= 0) {
        char x[96], y[96];
        diag("%s: element %lld GPU %s host %s", what, (long long)i, tk_elem_str(dt, gb, i, x, sizeof x),
             tk_elem_str(dt, hb, i, y, sizeof y));
        good = 0;
      }
    }
    free(gb);
    free(hb);
    free(sb);
  }
  cusci_array_release(la);
  cusci_array_release(ala);
  cusci_array_release(ab);
  cusci_array_release(sc);
  return good;
}

/* Run f on both sides; 1 when they agree. */
static int compare(cusci_ufunc f, int nin, variant *v, int ulps, const char *what)
{
  cusci_array *rh = NULL, *rg = NULL;
  cusci_status sh = nin == 2 ? cusci_ufunc_binary(host, f, v->h1, v->h2, &rh) : cusci_ufunc_unary(host, f, v->h1, &rh);
  cusci_status sg = nin == 2 ? cusci_ufunc_binary(gpu, f, v->g1, v->g2, &rg) : cusci_ufunc_unary(gpu, f, v->g1, &rg);
  int good = sh == CUSCI_OK && sg == CUSCI_OK;
  if (!good)
    diag("%s: host %s (%s), GPU %s (%s)", what, cusci_status_name(sh), cusci_ctx_last_error(host),
         cusci_status_name(sg), cusci_ctx_last_error(gpu));
  else if (f == CUSCI_UFUNC_POWER && cusci_dtype_kind(cusci_array_dtype(rh)) == 'c')
    good = agree_power(rg, rh, v, -ulps, what);
  else
    good = agree(rg, rh, ulps, what);
  cusci_array_release(rh);
  cusci_array_release(rg);
  return good;
}

static cusci_array *sliced(cusci_ctx *ctx, cusci_array *a, int64_t start, int64_t stop, int64_t step)
{
  cusci_array *v = NULL;
  cusci_array_slice(ctx, a, &start, &stop, &step, &v);
  return v;
}

static cusci_array *reshaped(cusci_ctx *ctx, cusci_array *a, int nd, const int64_t *shape)
{
  cusci_array *v = NULL;
  cusci_array_reshape(ctx, a, nd, shape, &v);
  return v;
}

static void test_fixtures(void)
{
  for (int f = 0; f < CUSCI_N_UFUNCS; f++) {
    const char *name = cusci_ufunc_name((cusci_ufunc)f);
    cusci_npz *z = cu_archive(host, name);
    if (!z) {
      ok(0, "%s: fixtures load", name);
      continue;
    }
    int nin = cusci_ufunc_nin((cusci_ufunc)f);
    for (int d = 0; d < CUSCI_N_DTYPES; d++) {
      char key[64];
      snprintf(key, sizeof key, "%s_out", cu_dtype_names[d]);
      if (!cusci_npz_get(z, key))
        continue;
      snprintf(key, sizeof key, "%s_x1", cu_dtype_names[d]);
      cusci_array *x1 = cusci_npz_get(z, key);
      snprintf(key, sizeof key, "%s_x2", cu_dtype_names[d]);
      cusci_array *x2 = nin == 2 ? cusci_npz_get(z, key) : x1;
      int ulps = cu_ulps((cusci_ufunc)f, (cusci_dtype)d);
      cusci_array *g1 = tk_copy_to(gpu, host, x1), *g2 = tk_copy_to(gpu, host, x2);
      int good = 1;

      /* Contiguous: 67 elements, the vector path and its tail. */
      variant v = {cusci_operand_array(x1), cusci_operand_array(x2), cusci_operand_array(g1), cusci_operand_array(g2),
                   {NULL}};
      good &= compare((cusci_ufunc)f, nin, &v, ulps, "contiguous");

      /* Strided: x1[0:66:2] with x2[1::2]. */
      variant s;
      memset(&s, 0, sizeof s);
      s.own[0] = sliced(host, x1, 0, 66, 2);
      s.own[1] = sliced(host, x2, 1, 67, 2);
      s.own[2] = sliced(gpu, g1, 0, 66, 2);
      s.own[3] = sliced(gpu, g2, 1, 67, 2);
      s.h1 = cusci_operand_array(s.own[0]);
      s.h2 = cusci_operand_array(s.own[1]);
      s.g1 = cusci_operand_array(s.own[2]);
      s.g2 = cusci_operand_array(s.own[3]);
      good &= compare((cusci_ufunc)f, nin, &s, ulps, "strided");
      variant_free(&s);

      if (nin == 2) {
        /* Broadcast: x1[:60] as 6x10 with x2[:10]. */
        int64_t sh[2] = {6, 10};
        variant b;
        memset(&b, 0, sizeof b);
        cusci_array *t;
        t = sliced(host, x1, 0, 60, 1);
        b.own[0] = reshaped(host, t, 2, sh);
        cusci_array_release(t);
        b.own[1] = sliced(host, x2, 0, 10, 1);
        t = sliced(gpu, g1, 0, 60, 1);
        b.own[2] = reshaped(gpu, t, 2, sh);
        cusci_array_release(t);
        b.own[3] = sliced(gpu, g2, 0, 10, 1);
        b.h1 = cusci_operand_array(b.own[0]);
        b.h2 = cusci_operand_array(b.own[1]);
        b.g1 = cusci_operand_array(b.own[2]);
        b.g2 = cusci_operand_array(b.own[3]);
        good &= compare((cusci_ufunc)f, nin, &b, ulps, "broadcast");
        variant_free(&b);

        /* A scalar second operand: element 9 of x2 as a typed scalar, and a
         * scalar first operand. */
        unsigned char *raw = tk_to_host(host, x2);
        cusci_operand sc = cusci_operand_scalar((cusci_dtype)d, raw + 9 * cusci_dtype_itemsize((cusci_dtype)d));
        free(raw);
        variant c = {cusci_operand_array(x1), sc, cusci_operand_array(g1), sc, {NULL}};
        good &= compare((cusci_ufunc)f, nin, &c, ulps, "array and scalar");
        variant c2 = {sc, cusci_operand_array(x1), sc, cusci_operand_array(g1), {NULL}};
        good &= compare((cusci_ufunc)f, nin, &c2, ulps, "scalar and array");
      }
      ok(good, "GPU %s(%s) agrees with the host", name, cu_dtype_names[d]);
      cusci_array_release(g1);
      cusci_array_release(g2);
    }
    cusci_npz_free(z);
  }
}

/* Random float32/int32 host arrays of n elements. */
static cusci_array *random_array(cusci_ctx *ctx, cusci_dtype dt, int64_t n, uint64_t seed)
{
  double *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++)
    v[i] = (tk_rand_double(&seed) - 0.5) * 200.0;
  cusci_array *d = NULL, *r = NULL;
  cusci_array_from_host(ctx, v, 1, &n, CUSCI_FLOAT64, &d);
  cusci_array_astype(ctx, d, dt, true, &r);
  cusci_array_release(d);
  free(v);
  return r;
}

static void test_large(void)
{
  int64_t n = 1000003;
  static const struct {
    cusci_ufunc f;
    cusci_dtype dt;
  } cases[] = {{CUSCI_UFUNC_ADD, CUSCI_FLOAT32}, {CUSCI_UFUNC_MULTIPLY, CUSCI_INT8},
               {CUSCI_UFUNC_LESS, CUSCI_FLOAT64}, {CUSCI_UFUNC_FLOOR_DIVIDE, CUSCI_INT32},
               {CUSCI_UFUNC_EXP, CUSCI_FLOAT32}, {CUSCI_UFUNC_SIN, CUSCI_FLOAT64},
               {CUSCI_UFUNC_MAXIMUM, CUSCI_FLOAT16}, {CUSCI_UFUNC_DIVIDE, CUSCI_COMPLEX64}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    cusci_array *a = random_array(host, cases[k].dt, n, 11 + k), *b = random_array(host, cases[k].dt, n, 97 + k);
    variant v = {cusci_operand_array(a), cusci_operand_array(b), {0}, {0}, {NULL}};
    v.own[0] = tk_copy_to(gpu, host, a);
    v.own[1] = tk_copy_to(gpu, host, b);
    v.g1 = cusci_operand_array(v.own[0]);
    v.g2 = cusci_operand_array(v.own[1]);
    int nin = cusci_ufunc_nin(cases[k].f);
    ok(compare(cases[k].f, nin, &v, cu_ulps(cases[k].f, cases[k].dt), "large"), "GPU %s(%s), %lld elements",
       cusci_ufunc_name(cases[k].f), cusci_dtype_name(cases[k].dt), (long long)n);
    variant_free(&v);
    cusci_array_release(a);
    cusci_array_release(b);
  }
}

static void test_where_clip(void)
{
  int64_t shape[2] = {37, 41}, row = 41;
  cusci_array *c = random_array(host, CUSCI_INT16, 37 * 41, 5), *x = random_array(host, CUSCI_FLOAT32, 37 * 41, 6),
              *y = random_array(host, CUSCI_FLOAT64, 41, 7);
  cusci_array *c2 = reshaped(host, c, 2, shape), *x2 = reshaped(host, x, 2, shape);
  cusci_array *gc = tk_copy_to(gpu, host, c2), *gx = tk_copy_to(gpu, host, x2), *gy = tk_copy_to(gpu, host, y);
  (void)row;
  cusci_array *rh = NULL, *rg = NULL;
  cusci_status sh = cusci_where(host, c2, cusci_operand_array(x2), cusci_operand_array(y), &rh);
  cusci_status sg = cusci_where(gpu, gc, cusci_operand_array(gx), cusci_operand_array(gy), &rg);
  ok(sh == CUSCI_OK && sg == CUSCI_OK && agree(rg, rh, 0, "where"), "GPU where(int16 cond, float32, float64 row)");
  cusci_array_release(rh);
  cusci_array_release(rg);
  rh = rg = NULL;
  sh = cusci_where(host, c2, cusci_operand_int(-3), cusci_operand_array(x2), &rh);
  sg = cusci_where(gpu, gc, cusci_operand_int(-3), cusci_operand_array(gx), &rg);
  ok(sh == CUSCI_OK && sg == CUSCI_OK && agree(rg, rh, 0, "where scalar"), "GPU where(cond, -3, float32)");
  cusci_array_release(rh);
  cusci_array_release(rg);
  rh = rg = NULL;
  sh = cusci_clip(host, x2, cusci_operand_float(-20.5), cusci_operand_array(y), &rh);
  sg = cusci_clip(gpu, gx, cusci_operand_float(-20.5), cusci_operand_array(gy), &rg);
  ok(sh == CUSCI_OK && sg == CUSCI_OK && agree(rg, rh, 0, "clip"), "GPU clip(float32, -20.5, float64 row)");
  cusci_array_release(rh);
  cusci_array_release(rg);

  /* In place on the GPU, and an out of a wider dtype. */
  cusci_array *same = gx, *hsame = x2;
  cusci_ufunc_binary(host, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(x2), cusci_operand_float(3.0), &hsame);
  sg = cusci_ufunc_binary(gpu, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(gx), cusci_operand_float(3.0), &same);
  ok(sg == CUSCI_OK && same == gx && hsame == x2 && agree(gx, x2, 0, "in place"), "GPU in place: x *= 3.0");
  cusci_array *o = NULL;
  cusci_array_empty(gpu, 2, shape, CUSCI_COMPLEX128, &o);
  cusci_array *o2 = o;
  rh = NULL;
  cusci_array *oh = NULL;
  cusci_array_empty(host, 2, shape, CUSCI_COMPLEX128, &oh);
  rh = oh;
  cusci_sqrt(host, x2, &rh);
  sg = cusci_sqrt(gpu, gx, &o2);
  ok(sg == CUSCI_OK && o2 == o && agree(o, oh, 4, "out complex128"), "GPU sqrt(float32) into a complex128 out");
  cusci_array_release(o);
  cusci_array_release(oh);

  /* Scalars only, on the GPU: a 0-d device array. */
  cusci_array *r = NULL;
  sg = cusci_ufunc_binary(gpu, CUSCI_UFUNC_POWER, cusci_operand_int(3), cusci_operand_int(5), &r);
  int64_t v = 0;
  ok(sg == CUSCI_OK && cusci_array_device(r) == 0 && cusci_array_ndim(r) == 0 &&
         cusci_array_to_host(gpu, r, &v, sizeof v) == CUSCI_OK && v == 243,
     "GPU power(3, 5) of two Python ints: a 0-d int64 243 on the device");
  cusci_array_release(r);

  cusci_array *arrs[] = {c, x, y, c2, x2, gc, gx, gy};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  test_fixtures();
  test_large();
  test_where_clip();
  sz_ufunc_cases(gpu, "GPU");
  ok(cusci_ctx_synchronize(gpu) == CUSCI_OK, "no asynchronous error");
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
