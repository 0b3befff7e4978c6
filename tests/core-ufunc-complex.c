/*
 * tests/core-ufunc-complex.c: the complex transcendental ufuncs and power
 * against NumPy on their special values (tests/fixtures/compute/
 * complex_special.npz): zeros of both signs, infinities, NaN, huge and
 * tiny parts, both sides of each branch cut. Where a result part is NaN,
 * infinite or zero, cusci must give the same (an infinity or zero with
 * NumPy's sign, except where C's Annex G leaves the sign unspecified);
 * finite results agree within 16 eps of |result| (complex64 within 16 of
 * its eps: cusci evaluates in double, NumPy in float). Near cancellation
 * points (log1p and expm1 near 0, log near |z| = 1, the inverse functions
 * near +-1 and +-i) cusci is checked against mpmath within 4 eps. On a GPU
 * (skipped without one), every grid is computed on the GPU and compared
 * with the host under the same rules.
 */
#include "tests/compute-util.h"

static const char *const unary_names[] = {"sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                                          "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                                          "tanh", "arcsinh", "arccosh", "arctanh", "rint", "power", NULL};

static cusci_ctx *H; /* the host context, for reading results */

static cusci_ufunc ufunc_named(const char *name)
{
  for (int f = 0; f < CUSCI_N_UFUNCS; f++)
    if (strcmp(cusci_ufunc_name((cusci_ufunc)f), name) == 0)
      return (cusci_ufunc)f;
  return CUSCI_N_UFUNCS;
}

/*
 * Parts whose sign of zero or infinity Annex G leaves unspecified ("+-0",
 * "+-inf", "NaN +- i0"): the sign is not compared there. Recognised by the
 * input's non-finite parts, per function.
 */
static bool sign_free(const char *name, double xr, double xi, int part)
{
  bool rinf = isinf(xr), iinf = isinf(xi), rnan = isnan(xr), inan = isnan(xi);
  const char *n = name;
  if (!strcmp(n, "exp") || !strcmp(n, "exp2") || !strcmp(n, "expm1"))
    return (rinf && (iinf || inan)) || (rnan && xi == 0 && part == 1);
  if (!strcmp(n, "sinh") || !strcmp(n, "cosh") || !strcmp(n, "sin") || !strcmp(n, "cos"))
    return rinf || iinf || rnan || inan;
  if (!strcmp(n, "tanh") || !strcmp(n, "tan"))
    return (rinf || iinf) && part == (strcmp(n, "tan") ? 1 : 0);
  if (!strcmp(n, "arcsinh") || !strcmp(n, "arcsin") || !strcmp(n, "arctanh") || !strcmp(n, "arctan"))
    return rnan || inan;
  if (!strcmp(n, "arccos") || !strcmp(n, "arccosh"))
    return (rinf && inan) || (rnan && iinf);
  if (!strcmp(n, "sqrt"))
    return rinf && inan;
  return false;
}

/* The first element of n where got and want differ under the rules above,
 * or -1; eps_mult eps of the dtype for finite results. */
static int64_t first_bad(const char *name, cusci_dtype dt, const cusci_array *x, const cusci_array *got,
                         const cusci_array *want, double eps_mult)
{
  bool c64 = dt == CUSCI_COMPLEX64;
  double eps = (c64 ? 0x1p-23 : 0x1p-52) * eps_mult;
  int64_t n = cusci_array_size(want);
  void *gb = tk_to_host(H, got), *wb = tk_to_host(H, want), *xb = tk_to_host(H, x);
  int64_t bad = -1;
  for (int64_t i = 0; i < n && bad < 0; i++) {
    double g[2], w[2], xv[2];
    for (int j = 0; j < 2; j++) {
      g[j] = c64 ? ((float *)gb)[2 * i + j] : ((double *)gb)[2 * i + j];
      w[j] = c64 ? ((float *)wb)[2 * i + j] : ((double *)wb)[2 * i + j];
      xv[j] = c64 ? ((float *)xb)[2 * i + j] : ((double *)xb)[2 * i + j];
    }
    bool special = false;
    for (int j = 0; j < 2; j++) {
      if (isnan(w[j]) || isnan(g[j])) {
        special = true;
        if (isnan(w[j]) != isnan(g[j]))
          bad = i;
      } else if (isinf(w[j]) || isinf(g[j])) {
        special = true;
        if (!(isinf(w[j]) && isinf(g[j]) && (signbit(w[j]) == signbit(g[j]) || sign_free(name, xv[0], xv[1], j))))
          bad = i;
      } else if (w[j] == 0 && g[j] == 0 && signbit(w[j]) != signbit(g[j]) && !sign_free(name, xv[0], xv[1], j)) {
        /* A signed zero of a special case: only where the input is special
         * or the result exact; rounding may legitimately give either. */
        if (!isfinite(xv[0]) || !isfinite(xv[1]) || xv[0] == 0 || xv[1] == 0)
          bad = i;
      }
    }
    if (bad < 0 && !special && hypot(g[0] - w[0], g[1] - w[1]) > eps * hypot(w[0], w[1]) &&
        hypot(g[0] - w[0], g[1] - w[1]) > (c64 ? 1e-44 : 1e-320))
      bad = i;
  }
  free(gb);
  free(wb);
  free(xb);
  return bad;
}

static void report(int64_t bad, const cusci_array *x, const cusci_array *got, const cusci_array *want)
{
  if (bad < 0)
    return;
  char a[96], b[96], c[96];
  cusci_dtype dt = cusci_array_dtype(x);
  void *xb = tk_to_host(H, x), *gb = tk_to_host(H, got), *wb = tk_to_host(H, want);
  diag("element %lld: x %s got %s want %s", (long long)bad, tk_elem_str(dt, xb, bad, a, sizeof a),
       tk_elem_str(dt, gb, bad, b, sizeof b), tk_elem_str(dt, wb, bad, c, sizeof c));
  free(xb);
  free(gb);
  free(wb);
}

static cusci_array *apply(cusci_ctx *ctx, cusci_ufunc f, cusci_array *x1, cusci_array *x2)
{
  cusci_array *out = NULL;
  cusci_status st = x2 ? cusci_ufunc_binary(ctx, f, cusci_operand_array(x1), cusci_operand_array(x2), &out)
                       : cusci_ufunc_unary(ctx, f, cusci_operand_array(x1), &out);
  if (st != CUSCI_OK)
    diag("%s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
  return out;
}

static cusci_array *copy_to(cusci_ctx *ctx, cusci_ctx *from, const cusci_array *a)
{
  void *buf = tk_to_host(from, a);
  cusci_array *r = NULL;
  cusci_array_from_host(ctx, buf, cusci_array_ndim(a), cusci_array_shape(a), cusci_array_dtype(a), &r);
  free(buf);
  return r;
}

static void test_special(cusci_ctx *host, cusci_ctx *gpu, cusci_npz *z)
{
  static const cusci_dtype dts[2] = {CUSCI_COMPLEX64, CUSCI_COMPLEX128};
  for (int k = 0; unary_names[k]; k++) {
    const char *name = unary_names[k];
    cusci_ufunc f = ufunc_named(name);
    for (int d = 0; d < 2; d++) {
      const char *dn = cusci_dtype_name(dts[d]);
      char key[96];
      cusci_array *x1, *x2 = NULL, *want;
      if (f == CUSCI_UFUNC_POWER) {
        snprintf(key, sizeof key, "power_%s_x1", dn);
        x1 = cusci_npz_get(z, key);
        snprintf(key, sizeof key, "power_%s_x2", dn);
        x2 = cusci_npz_get(z, key);
      } else {
        snprintf(key, sizeof key, "%s_%s_x", name, dn);
        x1 = cusci_npz_get(z, key);
      }
      snprintf(key, sizeof key, "%s_%s_out", name, dn);
      want = cusci_npz_get(z, key);
      if (!x1 || !want || (f == CUSCI_UFUNC_POWER && !x2)) {
        ok(0, "%s(%s): fixtures present", name, dn);
        continue;
      }
      cusci_array *got = apply(host, f, x1, x2);
      int64_t bad = got ? first_bad(name, dts[d], x1, got, want, 16) : 0;
      ok(got && bad < 0, "%s(%s) special values and extremes match NumPy (%lld points)", name, dn,
         (long long)cusci_array_size(x1));
      if (got)
        report(bad, x1, got, want);
      if (gpu && got) {
        cusci_array *g1 = copy_to(gpu, host, x1), *g2 = x2 ? copy_to(gpu, host, x2) : NULL;
        cusci_array *gg = apply(gpu, f, g1, g2), *gh = gg ? copy_to(host, gpu, gg) : NULL;
        int64_t gbad = gh ? first_bad(name, dts[d], x1, gh, got, 16) : 0;
        ok(gh && gbad < 0, "GPU %s(%s) special values and extremes match the host", name, dn);
        if (gh)
          report(gbad, x1, gh, got);
        cusci_array_release(gh);
        cusci_array_release(gg);
        cusci_array_release(g1);
        cusci_array_release(g2);
      }
      cusci_array_release(got);
    }
  }
}

static void test_small(cusci_ctx *host, cusci_ctx *gpu, cusci_npz *z)
{
  static const char *const names[] = {"log1p", "expm1", "log", "arcsin", "arccos", "arctanh", "arcsinh", NULL};
  for (int k = 0; names[k]; k++) {
    char key[96];
    snprintf(key, sizeof key, "%s_small_x", names[k]);
    cusci_array *x = cusci_npz_get(z, key);
    snprintf(key, sizeof key, "%s_small_out", names[k]);
    cusci_array *want = cusci_npz_get(z, key);
    if (!x || !want) {
      ok(0, "%s near cancellation: fixtures present", names[k]);
      continue;
    }
    cusci_ufunc f = ufunc_named(names[k]);
    cusci_array *got = apply(host, f, x, NULL);
    int64_t bad = got ? first_bad(names[k], CUSCI_COMPLEX128, x, got, want, 4) : 0;
    ok(got && bad < 0, "%s near its cancellation points: within 4 eps of the exact value", names[k]);
    if (got)
      report(bad, x, got, want);
    if (gpu && got) {
      cusci_array *g1 = copy_to(gpu, host, x), *gg = apply(gpu, f, g1, NULL), *gh = gg ? copy_to(host, gpu, gg) : NULL;
      int64_t gbad = gh ? first_bad(names[k], CUSCI_COMPLEX128, x, gh, want, 8) : 0;
      ok(gh && gbad < 0, "GPU %s near its cancellation points: within 8 eps of the exact value", names[k]);
      if (gh)
        report(gbad, x, gh, want);
      cusci_array_release(gh);
      cusci_array_release(gg);
      cusci_array_release(g1);
    }
    cusci_array_release(got);
  }
}

/* Identities that need no reference: exp(log z) = z, sin^2 + cos^2 = 1,
 * z^2 by power equals z*z exactly, z^-1 is 1/z. */
static void test_identities(cusci_ctx *ctx)
{
  int64_t n = 5;
  double v[10] = {2.385, -0.75, -1.5, 3.25, 0.125, -0.0625, -40.5, 12.0, 1e-3, 7.5};
  cusci_array *zz = NULL, *lz = NULL, *elz = NULL, *p2 = NULL, *sq = NULL, *pm1 = NULL, *rec = NULL;
  cusci_array_from_host(ctx, v, 1, &n, CUSCI_COMPLEX128, &zz);
  cusci_log(ctx, zz, &lz);
  cusci_exp(ctx, lz, &elz);
  double back[10] = {0}, a[10] = {0}, b[10] = {0};
  cusci_array_to_host(ctx, elz, back, sizeof back);
  int good = 1;
  for (int i = 0; i < 5; i++)
    good &= hypot(back[2 * i] - v[2 * i], back[2 * i + 1] - v[2 * i + 1]) <= 8e-16 * hypot(v[2 * i], v[2 * i + 1]);
  ok(good, "exp(log z) = z for complex128");
  cusci_ufunc_binary(ctx, CUSCI_UFUNC_POWER, cusci_operand_array(zz), cusci_operand_int(2), &p2);
  cusci_multiply(ctx, zz, zz, &sq);
  cusci_array_to_host(ctx, p2, a, sizeof a);
  cusci_array_to_host(ctx, sq, b, sizeof b);
  ok(p2 && memcmp(a, b, sizeof a) == 0, "power(z, 2) is z*z exactly, as NumPy's unrolled square");
  cusci_ufunc_binary(ctx, CUSCI_UFUNC_POWER, cusci_operand_array(zz), cusci_operand_int(-1), &pm1);
  cusci_ufunc_binary(ctx, CUSCI_UFUNC_DIVIDE, cusci_operand_int(1), cusci_operand_array(zz), &rec);
  cusci_array_to_host(ctx, pm1, a, sizeof a);
  cusci_array_to_host(ctx, rec, b, sizeof b);
  good = pm1 && rec;
  for (int i = 0; i < 10 && good; i++)
    good &= fabs(a[i] - b[i]) <= 4e-16 * fabs(b[i]);
  ok(good, "power(z, -1) is 1/z");
  cusci_array *cbrt_out = NULL, *fl = NULL;
  is_int(cusci_cbrt(ctx, zz, &cbrt_out), CUSCI_ERR_DTYPE, "cbrt of complex: CUSCI_ERR_DTYPE, as NumPy");
  ok(strstr(cusci_ctx_last_error(ctx), "cbrt does not accept complex128") != NULL, "the message says so (%s)",
     cusci_ctx_last_error(ctx));
  is_int(cusci_floor(ctx, zz, &fl), CUSCI_ERR_DTYPE, "floor of complex: CUSCI_ERR_DTYPE");
  cusci_dtype rt;
  ok(cusci_ufunc_result_type(CUSCI_UFUNC_SQRT, CUSCI_COMPLEX64, CUSCI_COMPLEX64, &rt) == CUSCI_OK &&
         rt == CUSCI_COMPLEX64,
     "result type of sqrt(complex64) is complex64");
  cusci_array *arr[] = {zz, lz, elz, p2, sq, pm1, rec};
  for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
    cusci_array_release(arr[i]);
}

int main(void)
{
  cusci_ctx *host = tk_host_ctx();
  H = host;
  cusci_npz *z = cu_archive(host, "complex_special");
  int n = 0;
  cusci_device_count(&n);
  cusci_ctx *gpu = NULL;
  if (n > 0 && cusci_ctx_create(0, &gpu) != CUSCI_OK)
    gpu = NULL;
  if (!gpu)
    diag("no CUDA device: GPU comparisons skipped");
  if (z) {
    test_special(host, gpu, z);
    test_small(host, gpu, z);
    cusci_npz_free(z);
  } else {
    ok(0, "complex_special fixtures load");
  }
  test_identities(host);
  if (gpu) {
    test_identities(gpu);
    cusci_ctx_destroy(gpu);
  } else {
    skip(1, "no CUDA device");
  }
  cusci_ctx_destroy(host);
  return done_testing();
}
