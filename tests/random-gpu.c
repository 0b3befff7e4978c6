/*
 * tests/random-gpu.c: the GPU against the host: for every distribution and
 * both float dtypes, the same seed gives the same bits on sizes 1, 7, 4099
 * and 2^20 + 3 and into strided views, call after call (normals also on
 * tens of millions of elements); cuRAND's engines
 * by their moments, state round trips and failures.
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/random-stats.h"

static cusci_ctx *gpu, *host;

static void same_bits(const char *name, cusci_dtype dt)
{
  static const int64_t sizes[] = {1, 7, 4099, (INT64_C(1) << 20) + 3};
  cusci_random_generator *gh = NULL, *gg = NULL;
  cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 424242, &gh);
  cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 424242, &gg);
  int64_t bad_at = -1;
  int64_t bad_n = 0;
  cusci_status sth = CUSCI_OK, stg = CUSCI_OK;
  /* One generator through all sizes: each call goes on from the last. */
  for (int s = 0; s < 4 && bad_at < 0; s++) {
    int64_t n = sizes[s];
    cusci_array *a = NULL, *b = NULL;
    sth = rs_draw(host, gh, name, 1, &n, dt, &a);
    stg = rs_draw(gpu, gg, name, 1, &n, dt, &b);
    if (sth != CUSCI_OK || stg != CUSCI_OK) {
      bad_at = 0;
      bad_n = n;
    } else {
      void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
      int64_t m = tk_first_mismatch(cusci_array_dtype(a), y, x, NULL, n);
      if (m >= 0) {
        char e1[64], e2[64];
        diag("%s n = %lld: element %lld is %s on the GPU, %s on the host", name, (long long)n, (long long)m,
             tk_elem_str(cusci_array_dtype(a), y, m, e1, sizeof e1), tk_elem_str(cusci_array_dtype(a), x, m, e2, sizeof e2));
        bad_at = m;
        bad_n = n;
      }
      free(x), free(y);
    }
    cusci_array_release(a), cusci_array_release(b);
  }
  ok(bad_at < 0, "%s %s: GPU and host bit for bit on sizes 1, 7, 4099, 2^20+3 (%s %s)", name,
     cusci_dtype_name(dt), cusci_status_name(sth), stg ? cusci_ctx_last_error(gpu) : "");
  (void)bad_n;

  /* A strided view as out, on the GPU, against the host's. */
  int64_t big[2] = {40, 30}, sh[2] = {13, 10};
  cusci_array *base = NULL, *view = NULL, *want = NULL, *got = NULL;
  cusci_dtype odt = cusci_dtype_kind(dt) == 'f' && strcmp(name, "integers") && !strstr(name, "poisson") ? dt : CUSCI_INT64;
  for (const rcase *c = rs_cases; c->name; c++)
    if (!strcmp(c->name, name) && c->discrete)
      odt = CUSCI_INT64;
  cusci_array_zeros(gpu, 2, big, odt, &base);
  cusci_array_slice(gpu, base, (const int64_t[]){-2, 2}, (const int64_t[]){CUSCI_SLICE_NONE, CUSCI_SLICE_NONE},
                    (const int64_t[]){-3, 3}, &view);
  stg = rs_draw(gpu, gg, name, 2, sh, dt, &view);
  sth = rs_draw(host, gh, name, 2, sh, dt, &want);
  cusci_array_copy(gpu, view, &got);
  void *x = tk_to_host(host, want), *y = tk_to_host(gpu, got);
  ok(stg == CUSCI_OK && sth == CUSCI_OK && tk_first_mismatch(odt, y, x, NULL, 130) < 0,
     "%s %s: into a reversed strided view on the GPU, as on the host (%s)", name, cusci_dtype_name(dt),
     stg ? cusci_ctx_last_error(gpu) : "");
  free(x), free(y);
  cusci_array_release(base), cusci_array_release(view), cusci_array_release(want), cusci_array_release(got);
  cusci_random_generator_destroy(gh);
  cusci_random_generator_destroy(gg);
}

static double *to_doubles(cusci_array *a)
{
  cusci_array *d = NULL;
  cusci_array_astype(gpu, a, CUSCI_FLOAT64, true, &d);
  double *x = tk_to_host(gpu, d);
  cusci_array_release(d);
  return x;
}

static void curand_engines(void)
{
  static const struct { cusci_bitgen kind; const char *name; int seeks; } kinds[] = {
    {CUSCI_BITGEN_XORWOW, "XORWOW", 1}, {CUSCI_BITGEN_MRG32K3A, "MRG32k3a", 1}, {CUSCI_BITGEN_MTGP32, "MTGP32", 0},
    {CUSCI_BITGEN_MT19937, "MT19937", 0}, {CUSCI_BITGEN_SOBOL32, "Sobol32", 1},
    {CUSCI_BITGEN_SCRAMBLED_SOBOL32, "scrambled Sobol32", 1}};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    cusci_random_generator *g = NULL;
    cusci_status st = cusci_random_generator_create(gpu, kinds[k].kind, 2385, &g);
    if (!ok(st == CUSCI_OK, "%s: create (%s)", kinds[k].name, cusci_ctx_last_error(gpu))) {
      skip(5, "no generator");
      continue;
    }
    int64_t n = 100001;
    cusci_array *u = NULL, *z = NULL, *p = NULL;
    cusci_status s1 = cusci_random_random(gpu, g, 1, &n, CUSCI_FLOAT32, &u);
    cusci_status s2 = cusci_random_normal(gpu, g, 1.5, 2.0, 1, &n, CUSCI_FLOAT64, &z);
    cusci_status s3 = cusci_random_poisson(gpu, g, 4.5, 1, &n, &p);
    if (!ok(s1 == CUSCI_OK && s2 == CUSCI_OK && s3 == CUSCI_OK, "%s: random, normal (odd n), poisson (%s)",
            kinds[k].name, cusci_ctx_last_error(gpu))) {
      skip(3, "no sample");
    } else {
      double *x = to_doubles(u), *y = to_doubles(z), *w = to_doubles(p);
      double mx = 0, my = 0, vy = 0, mw = 0;
      int in = 1;
      for (int64_t i = 0; i < n; i++) {
        mx += x[i], my += y[i], mw += w[i];
        in &= x[i] >= 0 && x[i] < 1;
      }
      mx /= n, my /= n, mw /= n;
      for (int64_t i = 0; i < n; i++)
        vy += (y[i] - my) * (y[i] - my);
      vy /= n - 1;
      ok(in && fabs(mx - 0.5) < 6 * sqrt(1.0 / 12 / n), "%s: random in [0, 1), mean %.5f", kinds[k].name, mx);
      ok(fabs(my - 1.5) < 6 * 2.0 / sqrt(n) && fabs(vy - 4.0) < 6 * 4.0 * sqrt(2.0 / n),
         "%s: normal(1.5, 2) mean %.4f variance %.4f", kinds[k].name, my, vy);
      ok(fabs(mw - 4.5) < 6 * sqrt(4.5 / n), "%s: poisson(4.5) mean %.4f", kinds[k].name, mw);
      free(x), free(y), free(w);
    }
    /* State: save, draw, restore, draw again. */
    unsigned char blob[CUSCI_RANDOM_STATE_BYTES];
    cusci_random_generator_get_state(gpu, g, blob, sizeof blob);
    cusci_array *a = NULL, *b = NULL;
    int64_t m = 1000;
    cusci_random_random(gpu, g, 1, &m, CUSCI_FLOAT64, &a);
    st = cusci_random_generator_set_state(gpu, g, blob, sizeof blob);
    if (kinds[k].seeks) {
      cusci_random_random(gpu, g, 1, &m, CUSCI_FLOAT64, &b);
      double *x = to_doubles(a), *y = b ? to_doubles(b) : NULL;
      ok(st == CUSCI_OK && y && !memcmp(x, y, (size_t)m * sizeof *x), "%s: state round trip (%s)", kinds[k].name,
         cusci_status_name(st));
      free(x), free(y);
    } else {
      ok(st == CUSCI_ERR_NOT_SUPPORTED, "%s: an offset cannot be restored: %s", kinds[k].name, cusci_status_name(st));
    }
    cusci_array_release(a), cusci_array_release(b);
    cusci_array_release(u), cusci_array_release(z), cusci_array_release(p);
    cusci_array *o = NULL;
    st = cusci_random_gamma(gpu, g, 2.0, 1.0, 1, &n, CUSCI_FLOAT32, &o);
    ok(st == CUSCI_ERR_NOT_SUPPORTED && !o, "%s: gamma is Philox's alone: %s", kinds[k].name, cusci_status_name(st));
    cusci_random_generator_destroy(g);
  }
  /* A cuRAND generator with a host context. */
  cusci_random_generator *g = NULL;
  cusci_random_generator_create(gpu, CUSCI_BITGEN_XORWOW, 1, &g);
  cusci_array *o = NULL;
  int64_t n = 4;
  cusci_status st = cusci_random_random(host, g, 1, &n, CUSCI_FLOAT32, &o);
  ok(st == CUSCI_ERR_DEVICE && !o, "a GPU's cuRAND generator with a host context: %s", cusci_status_name(st));
  cusci_random_generator_destroy(g);
}

/* Normals on arrays large enough that each warp of the second normal
 * kernel reads many rounds of the first one's marks (more than 64 on a
 * GPU of 132 multiprocessors) and finds more marked elements at once than
 * its queue holds. */
static void big_normals(cusci_dtype dt)
{
  int64_t n = dt == CUSCI_FLOAT32 ? 70000001 : 35000001;
  cusci_random_generator *gh = NULL, *gg = NULL;
  cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 77, &gh);
  cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 77, &gg);
  cusci_array *a = NULL, *b = NULL;
  cusci_status sth = cusci_random_standard_normal(host, gh, 1, &n, dt, &a);
  cusci_status stg = cusci_random_standard_normal(gpu, gg, 1, &n, dt, &b);
  int64_t m = -1;
  if (sth == CUSCI_OK && stg == CUSCI_OK) {
    void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
    m = tk_first_mismatch(dt, y, x, NULL, n);
    if (m >= 0) {
      char e1[64], e2[64];
      diag("element %lld is %s on the GPU, %s on the host", (long long)m, tk_elem_str(dt, y, m, e1, sizeof e1),
           tk_elem_str(dt, x, m, e2, sizeof e2));
    }
    free(x), free(y);
  }
  ok(sth == CUSCI_OK && stg == CUSCI_OK && m < 0, "standard_normal %s: GPU and host bit for bit on %lld elements (%s)",
     cusci_dtype_name(dt), (long long)n, stg ? cusci_ctx_last_error(gpu) : cusci_status_name(sth));
  cusci_array_release(a), cusci_array_release(b);
  cusci_random_generator_destroy(gh);
  cusci_random_generator_destroy(gg);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  for (const rcase *c = rs_cases; c->name; c++) {
    same_bits(c->name, CUSCI_FLOAT64);
    if (!c->discrete)
      same_bits(c->name, CUSCI_FLOAT32);
  }
  big_normals(CUSCI_FLOAT32);
  big_normals(CUSCI_FLOAT64);
  /* integers as every integer dtype. */
  static const cusci_dtype dts[] = {CUSCI_BOOL, CUSCI_INT8, CUSCI_UINT16, CUSCI_INT32, CUSCI_UINT64};
  for (size_t t = 0; t < sizeof dts / sizeof *dts; t++) {
    cusci_random_generator *gh = NULL, *gg = NULL;
    cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 9 + t, &gh);
    cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 9 + t, &gg);
    int64_t n = 100003, hi = dts[t] == CUSCI_BOOL ? 1 : 100;
    cusci_array *a = NULL, *b = NULL;
    cusci_random_integers(host, gh, 0, hi, true, 1, &n, dts[t], &a);
    cusci_random_integers(gpu, gg, 0, hi, true, 1, &n, dts[t], &b);
    void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
    ok(tk_first_mismatch(dts[t], y, x, NULL, n) < 0, "integers as %s: GPU and host bit for bit", cusci_dtype_name(dts[t]));
    free(x), free(y);
    cusci_array_release(a), cusci_array_release(b);
    cusci_random_generator_destroy(gh), cusci_random_generator_destroy(gg);
  }
  /* permutation, shuffle and choice: the host's results on the GPU. */
  {
    cusci_random_generator *gh = NULL, *gg = NULL;
    cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 31, &gh);
    cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 31, &gg);
    static const int64_t ns[] = {1, 7, 4099, (INT64_C(1) << 20) + 3};
    for (int s = 0; s < 4; s++) {
      cusci_array *a = NULL, *b = NULL;
      cusci_random_permutation(host, gh, ns[s], &a);
      cusci_status st = cusci_random_permutation(gpu, gg, ns[s], &b);
      void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
      ok(st == CUSCI_OK && tk_first_mismatch(CUSCI_INT64, y, x, NULL, ns[s]) < 0, "permutation(%lld): GPU as host (%s)",
         (long long)ns[s], cusci_ctx_last_error(gpu));
      free(x), free(y);
      cusci_array_release(a), cusci_array_release(b);
    }
    double p[7] = {0.1, 0.2, 0.05, 0.0, 0.3, 0.15, 0.2};
    int64_t seven = 7, m = 100003, five = 5;
    cusci_array *ph = NULL, *pg = NULL;
    cusci_array_from_host(host, p, 1, &seven, CUSCI_FLOAT64, &ph);
    cusci_array_from_host(gpu, p, 1, &seven, CUSCI_FLOAT64, &pg);
    for (int mode = 0; mode < 4; mode++) {
      bool replace = mode & 1;
      int withp = mode & 2;
      int64_t size = replace ? m : withp ? five : 4099;
      cusci_array *a = NULL, *b = NULL;
      cusci_random_choice(host, gh, withp ? 7 : 10007, 1, &size, replace, withp ? ph : NULL, &a);
      cusci_status st = cusci_random_choice(gpu, gg, withp ? 7 : 10007, 1, &size, replace, withp ? pg : NULL, &b);
      void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
      ok(st == CUSCI_OK && tk_first_mismatch(CUSCI_INT64, y, x, NULL, size) < 0, "choice (replace %d, p %d): GPU as host",
         (int)replace, withp ? 1 : 0);
      free(x), free(y);
      cusci_array_release(a), cusci_array_release(b);
    }
    cusci_array_release(ph), cusci_array_release(pg);
    /* shuffle of rows of 12 bytes (int32 x 3) and of a strided view */
    int64_t sh[2] = {50001, 3};
    int32_t *v = malloc(3 * 50001 * sizeof *v);
    for (int i = 0; i < 3 * 50001; i++)
      v[i] = i * 7 - 3;
    cusci_array *a = NULL, *b = NULL, *bt = NULL, *at = NULL;
    cusci_array_from_host(host, v, 2, sh, CUSCI_INT32, &a);
    cusci_array_from_host(gpu, v, 2, sh, CUSCI_INT32, &b);
    cusci_random_shuffle(host, gh, a);
    cusci_status st = cusci_random_shuffle(gpu, gg, b);
    cusci_array_transpose(host, a, NULL, &at);
    cusci_array_transpose(gpu, b, NULL, &bt);
    cusci_random_shuffle(host, gh, at);
    cusci_status st2 = cusci_random_shuffle(gpu, gg, bt);
    void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
    ok(st == CUSCI_OK && st2 == CUSCI_OK && tk_first_mismatch(CUSCI_INT32, y, x, NULL, 3 * 50001) < 0,
       "shuffle of 50001 rows and of a transposed view: GPU as host");
    free(x), free(y), free(v);
    cusci_array_release(a), cusci_array_release(b), cusci_array_release(at), cusci_array_release(bt);
    /* choice over the rows of an array */
    {
      int64_t ash[2] = {1000, 5}, csz = 7001;
      double *cv = malloc(5000 * sizeof *cv);
      for (int i = 0; i < 5000; i++)
        cv[i] = 2.385 * i;
      cusci_array *ca = NULL, *cb = NULL, *ra = NULL, *rb = NULL;
      cusci_array_from_host(host, cv, 2, ash, CUSCI_FLOAT64, &ca);
      cusci_array_from_host(gpu, cv, 2, ash, CUSCI_FLOAT64, &cb);
      cusci_random_choice_array(host, gh, ca, 1, &csz, true, NULL, &ra);
      cusci_status sc = cusci_random_choice_array(gpu, gg, cb, 1, &csz, true, NULL, &rb);
      void *u = tk_to_host(host, ra), *w = tk_to_host(gpu, rb);
      ok(sc == CUSCI_OK && tk_first_mismatch(CUSCI_FLOAT64, w, u, NULL, 5 * csz) < 0, "choice_array: GPU as host");
      free(u), free(w), free(cv);
      cusci_array_release(ca), cusci_array_release(cb), cusci_array_release(ra), cusci_array_release(rb);
    }
    /* permuted along each axis and along none, on a 2-D int32 array */
    int64_t psh[2] = {37, 1021};
    int32_t *pv = malloc(37 * 1021 * sizeof *pv);
    for (int i = 0; i < 37 * 1021; i++)
      pv[i] = 3 * i + 1;
    cusci_array *ph2 = NULL, *pg2 = NULL;
    cusci_array_from_host(host, pv, 2, psh, CUSCI_INT32, &ph2);
    cusci_array_from_host(gpu, pv, 2, psh, CUSCI_INT32, &pg2);
    for (int t = 0; t < 3; t++) {
      int ax = t;
      cusci_array *ra = NULL, *rb = NULL;
      cusci_random_permuted(host, gh, ph2, t < 2 ? &ax : NULL, &ra);
      cusci_status sp = cusci_random_permuted(gpu, gg, pg2, t < 2 ? &ax : NULL, &rb);
      void *u = tk_to_host(host, ra), *w = tk_to_host(gpu, rb);
      ok(sp == CUSCI_OK && tk_first_mismatch(CUSCI_INT32, w, u, NULL, 37 * 1021) < 0, "permuted (axis %s): GPU as host",
         t == 0 ? "0" : t == 1 ? "1" : "None");
      free(u), free(w);
      cusci_array_release(ra), cusci_array_release(rb);
    }
    free(pv);
    cusci_array_release(ph2), cusci_array_release(pg2);
    cusci_random_generator_destroy(gh), cusci_random_generator_destroy(gg);
  }
  /* the vector distributions: the host's rows on the GPU */
  {
    cusci_random_generator *gh = NULL, *gg = NULL;
    cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 77, &gh);
    cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 77, &gg);
    int64_t k4 = 4, c44[2] = {4, 4}, sz[2] = {301, 7};
    double pv[4] = {0.1, 0.35, 0.25, 0.3}, al[4] = {0.4, 2.385, 1.1, 0.05}, mu[4] = {1, -2, 0.5, 3};
    double cv[16] = {2.0, 0.6, -0.4, 0.1, 0.6, 1.5, 0.3, 0.0, -0.4, 0.3, 0.8, 0.2, 0.1, 0.0, 0.2, 1.0};
    int64_t col[4] = {50, 10, 150, 7};
    cusci_array *ph = NULL, *pg = NULL, *ah = NULL, *ag = NULL, *mh = NULL, *mg = NULL, *ch = NULL, *cg = NULL,
                *colh = NULL, *colg = NULL;
    cusci_array_from_host(host, pv, 1, &k4, CUSCI_FLOAT64, &ph);
    cusci_array_from_host(gpu, pv, 1, &k4, CUSCI_FLOAT64, &pg);
    cusci_array_from_host(host, al, 1, &k4, CUSCI_FLOAT64, &ah);
    cusci_array_from_host(gpu, al, 1, &k4, CUSCI_FLOAT64, &ag);
    cusci_array_from_host(host, mu, 1, &k4, CUSCI_FLOAT64, &mh);
    cusci_array_from_host(gpu, mu, 1, &k4, CUSCI_FLOAT64, &mg);
    cusci_array_from_host(host, cv, 2, c44, CUSCI_FLOAT64, &ch);
    cusci_array_from_host(gpu, cv, 2, c44, CUSCI_FLOAT64, &cg);
    cusci_array_from_host(host, col, 1, &k4, CUSCI_INT64, &colh);
    cusci_array_from_host(gpu, col, 1, &k4, CUSCI_INT64, &colg);
    const char *names[5] = {"multinomial", "dirichlet", "multivariate_normal eigh", "multivariate_normal cholesky",
                            "multivariate_hypergeometric"};
    for (int t = 0; t < 5; t++) {
      cusci_array *a = NULL, *b = NULL;
      cusci_status s1 = CUSCI_OK, s2 = CUSCI_OK;
      cusci_random_mvn_opts o = {t == 3 ? CUSCI_MVN_CHOLESKY : CUSCI_MVN_EIGH, 0};
      switch (t) {
      case 0:
        s1 = cusci_random_multinomial(host, gh, 1000, ph, 2, sz, &a);
        s2 = cusci_random_multinomial(gpu, gg, 1000, pg, 2, sz, &b);
        break;
      case 1:
        s1 = cusci_random_dirichlet(host, gh, ah, 2, sz, &a);
        s2 = cusci_random_dirichlet(gpu, gg, ag, 2, sz, &b);
        break;
      case 2:
      case 3:
        s1 = cusci_random_multivariate_normal(host, gh, mh, ch, &o, 2, sz, &a);
        s2 = cusci_random_multivariate_normal(gpu, gg, mg, cg, &o, 2, sz, &b);
        break;
      default:
        s1 = cusci_random_multivariate_hypergeometric(host, gh, colh, 100, 2, sz, &a);
        s2 = cusci_random_multivariate_hypergeometric(gpu, gg, colg, 100, 2, sz, &b);
      }
      int same = s1 == CUSCI_OK && s2 == CUSCI_OK;
      if (same) {
        void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
        same = tk_first_mismatch(cusci_array_dtype(a), y, x, NULL, cusci_array_size(a)) < 0;
        free(x), free(y);
      }
      ok(same, "%s: GPU rows as host rows (%s)", names[t], s2 ? cusci_ctx_last_error(gpu) : "");
      cusci_array_release(a), cusci_array_release(b);
    }
    cusci_array_release(ph), cusci_array_release(pg), cusci_array_release(ah), cusci_array_release(ag);
    cusci_array_release(mh), cusci_array_release(mg), cusci_array_release(ch), cusci_array_release(cg);
    cusci_array_release(colh), cusci_array_release(colg);
    cusci_random_generator_destroy(gh), cusci_random_generator_destroy(gg);
  }
  /* the _array variants with broadcast parameters: GPU as host */
  {
    int64_t three = 3, sh[2] = {4099, 3};
    double av[3] = {0.5, 2.385, 17.0}, bv[3] = {1.5, 0.25, 3.0}, pv[3] = {0.1, 0.5, 0.97};
    int64_t nv[3] = {7, 400, 12345};
    cusci_array *ah = NULL, *ag = NULL, *bh = NULL, *bg = NULL, *ph = NULL, *pg = NULL, *nh = NULL, *ng = NULL;
    cusci_array_from_host(host, av, 1, &three, CUSCI_FLOAT64, &ah);
    cusci_array_from_host(gpu, av, 1, &three, CUSCI_FLOAT64, &ag);
    cusci_array_from_host(host, bv, 1, &three, CUSCI_FLOAT64, &bh);
    cusci_array_from_host(gpu, bv, 1, &three, CUSCI_FLOAT64, &bg);
    cusci_array_from_host(host, pv, 1, &three, CUSCI_FLOAT64, &ph);
    cusci_array_from_host(gpu, pv, 1, &three, CUSCI_FLOAT64, &pg);
    cusci_array_from_host(host, nv, 1, &three, CUSCI_INT64, &nh);
    cusci_array_from_host(gpu, nv, 1, &three, CUSCI_INT64, &ng);
    const char *names[8] = {"uniform", "normal", "lognormal", "exponential", "gamma", "beta", "poisson", "binomial"};
    for (int t = 0; t < 8; t++)
      for (int f = 0; f < (t < 6 ? 2 : 1); f++) {
        cusci_dtype dt = f ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
        cusci_random_generator *gh = NULL, *gg = NULL;
        cusci_random_generator_create(host, CUSCI_BITGEN_PHILOX, 90 + t, &gh);
        cusci_random_generator_create(gpu, CUSCI_BITGEN_PHILOX, 90 + t, &gg);
        cusci_array *a = NULL, *b = NULL;
        cusci_status s1 = CUSCI_OK, s2 = CUSCI_OK;
        switch (t) {
        case 0: s1 = cusci_random_uniform_array(host, gh, ah, bh, 2, sh, dt, &a); s2 = cusci_random_uniform_array(gpu, gg, ag, bg, 2, sh, dt, &b); break;
        case 1: s1 = cusci_random_normal_array(host, gh, ah, bh, 2, sh, dt, &a); s2 = cusci_random_normal_array(gpu, gg, ag, bg, 2, sh, dt, &b); break;
        case 2: s1 = cusci_random_lognormal_array(host, gh, ah, bh, 2, sh, dt, &a); s2 = cusci_random_lognormal_array(gpu, gg, ag, bg, 2, sh, dt, &b); break;
        case 3: s1 = cusci_random_exponential_array(host, gh, ah, 2, sh, dt, &a); s2 = cusci_random_exponential_array(gpu, gg, ag, 2, sh, dt, &b); break;
        case 4: s1 = cusci_random_gamma_array(host, gh, ah, bh, 2, sh, dt, &a); s2 = cusci_random_gamma_array(gpu, gg, ag, bg, 2, sh, dt, &b); break;
        case 5: s1 = cusci_random_beta_array(host, gh, ah, bh, 2, sh, dt, &a); s2 = cusci_random_beta_array(gpu, gg, ag, bg, 2, sh, dt, &b); break;
        case 6: s1 = cusci_random_poisson_array(host, gh, ah, 2, sh, &a); s2 = cusci_random_poisson_array(gpu, gg, ag, 2, sh, &b); break;
        default: s1 = cusci_random_binomial_array(host, gh, nh, ph, 2, sh, &a); s2 = cusci_random_binomial_array(gpu, gg, ng, pg, 2, sh, &b);
        }
        int same = s1 == CUSCI_OK && s2 == CUSCI_OK;
        if (same) {
          void *x = tk_to_host(host, a), *y = tk_to_host(gpu, b);
          same = tk_first_mismatch(cusci_array_dtype(a), y, x, NULL, cusci_array_size(a)) < 0;
          free(x), free(y);
        }
        ok(same, "%s_array %s, broadcast parameters: GPU as host (%s)", names[t], t < 6 ? cusci_dtype_name(dt) : "int64",
           s2 ? cusci_ctx_last_error(gpu) : "");
        cusci_array_release(a), cusci_array_release(b);
        cusci_random_generator_destroy(gh), cusci_random_generator_destroy(gg);
      }
    cusci_array_release(ah), cusci_array_release(ag), cusci_array_release(bh), cusci_array_release(bg);
    cusci_array_release(ph), cusci_array_release(pg), cusci_array_release(nh), cusci_array_release(ng);
  }
  curand_engines();
  cusci_ctx_destroy(host);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
