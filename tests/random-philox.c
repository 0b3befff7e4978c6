/*
 * tests/random-philox.c: the generator on the host: Philox4x32-10 against
 * Random123's known answers, reproducibility, the counter layout (calls
 * concatenate, advance skips), state blobs, spawned children, views as
 * outputs, and integers over every dtype.
 */
#include "config.h"

#include <math.h>

#include "reference/random/philox.h"
#include "tests/random-stats.h"

static cusci_ctx *ctx;

static void kat(void)
{
  /* Random123 1.09, kat_vectors: philox4x32 10 rounds. */
  static const uint32_t ctr[3][4] = {{0, 0, 0, 0},
                                     {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                     {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                      {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                      {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  for (int t = 0; t < 3; t++) {
    uint32_t out[4];
    cusci__philox4x32_10(ctr[t], key[t], out);
    ok(!memcmp(out, want[t], sizeof out), "Philox4x32-10 known answer %d: %08x %08x %08x %08x", t, out[0], out[1],
       out[2], out[3]);
    cusci__philox_rk rk = cusci__philox_round_keys((uint64_t)key[t][0] | ((uint64_t)key[t][1] << 32));
    cusci__philox4x32_10_rk(ctr[t], &rk, out);
    ok(!memcmp(out, want[t], sizeof out), "Philox4x32-10 from round keys, known answer %d", t);
  }
}

static cusci_random_generator *gen(uint64_t seed)
{
  cusci_random_generator *g = NULL;
  if (cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, seed, &g) != CUSCI_OK) {
    printf("Bail out! no generator: %s\n", cusci_ctx_last_error(ctx));
    exit(1);
  }
  return g;
}

static double *draw_f64(cusci_random_generator *g, int64_t n)
{
  cusci_array *a = NULL;
  if (cusci_random_random(ctx, g, 1, &n, CUSCI_FLOAT64, &a) != CUSCI_OK)
    return NULL;
  double *x = tk_to_host(ctx, a);
  cusci_array_release(a);
  return x;
}

static void reproducible(void)
{
  cusci_random_generator *a = gen(2385), *b = gen(2385), *c = gen(2386);
  double *x = draw_f64(a, 1001), *y = draw_f64(b, 1001), *z = draw_f64(c, 1001);
  ok(x && y && !memcmp(x, y, 1001 * sizeof *x), "the same seed gives the same numbers");
  int same = 0;
  for (int i = 0; i < 1001; i++)
    same += x[i] == z[i];
  ok(same < 3, "another seed gives other numbers (%d equal)", same);
  int in = 1;
  for (int i = 0; i < 1001; i++)
    in &= x[i] >= 0 && x[i] < 1;
  ok(in, "random() lies in [0, 1)");
  free(x), free(y), free(z);
  /* Two calls of 500 and 501 float64 uniforms (groups of two) continue one
   * call of 1001 only where the first ends on a group boundary: 500 does. */
  cusci_random_generator *d = gen(2385);
  double *p = draw_f64(d, 500), *q = draw_f64(d, 501);
  cusci_random_generator *e = gen(2385);
  x = draw_f64(e, 1001);
  cusci_random_generator_destroy(e);
  ok(!memcmp(p, x, 500 * sizeof *p) && !memcmp(q, x + 500, 501 * sizeof *q), "calls continue one another");
  free(p), free(q), free(x);
  cusci_random_generator_destroy(a);
  cusci_random_generator_destroy(b);
  cusci_random_generator_destroy(c);
  cusci_random_generator_destroy(d);
}

static void advance_and_state(void)
{
  cusci_random_generator *a = gen(77), *b = gen(77);
  double *x = draw_f64(a, 600); /* 300 counter steps */
  cusci_random_generator_advance(ctx, b, 300);
  double *y = draw_f64(a, 99), *z = draw_f64(b, 99);
  ok(!memcmp(y, z, 99 * sizeof *y), "advance(300) skips a call of 600 float64 uniforms");
  free(x), free(y), free(z);

  unsigned char blob[CUSCI_RANDOM_STATE_BYTES + 8];
  ok(cusci_random_generator_get_state(ctx, a, blob, sizeof blob) == CUSCI_OK, "get_state");
  /* Through a file, as a user would keep it. */
  FILE *f = tmpfile();
  unsigned char back[CUSCI_RANDOM_STATE_BYTES];
  int io = f && fwrite(blob, 1, CUSCI_RANDOM_STATE_BYTES, f) == CUSCI_RANDOM_STATE_BYTES && fseek(f, 0, SEEK_SET) == 0 &&
           fread(back, 1, sizeof back, f) == sizeof back;
  if (f)
    fclose(f);
  cusci_array *p = NULL, *q = NULL;
  int64_t n = 333;
  cusci_random_gamma(ctx, a, 2.385, 1.5, 1, &n, CUSCI_FLOAT32, &p);
  cusci_random_generator *c = gen(1);
  cusci_status st = cusci_random_generator_set_state(ctx, c, back, sizeof back);
  ok(io && st == CUSCI_OK, "set_state from a file's bytes");
  cusci_random_gamma(ctx, c, 2.385, 1.5, 1, &n, CUSCI_FLOAT32, &q);
  float *pp = tk_to_host(ctx, p), *qq = tk_to_host(ctx, q);
  ok(!memcmp(pp, qq, (size_t)n * sizeof *pp), "the restored generator goes on where the saved one was");
  free(pp), free(qq);
  cusci_array_release(p);
  cusci_array_release(q);
  cusci_random_generator_destroy(a);
  cusci_random_generator_destroy(b);
  cusci_random_generator_destroy(c);
}

static void spawn(void)
{
  cusci_random_generator *g = gen(99), *kids[4] = {0}, *more[1] = {0};
  ok(cusci_random_generator_spawn(ctx, g, 4, kids) == CUSCI_OK, "spawn 4 children");
  cusci_random_generator_spawn(ctx, g, 1, more);
  enum { M = 20000 };
  double *x[6];
  x[0] = draw_f64(g, M);
  for (int i = 0; i < 4; i++)
    x[i + 1] = draw_f64(kids[i], M);
  x[5] = draw_f64(more[0], M);
  /* Pearson correlation of every pair: independent streams stay within
   * 5 / sqrt(M) of zero. */
  double worst = 0;
  for (int i = 0; i < 6; i++)
    for (int j = i + 1; j < 6; j++) {
      double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
      for (int k = 0; k < M; k++) {
        sx += x[i][k], sy += x[j][k];
        sxy += x[i][k] * x[j][k], sxx += x[i][k] * x[i][k], syy += x[j][k] * x[j][k];
      }
      double r = (sxy - sx * sy / M) / sqrt((sxx - sx * sx / M) * (syy - sy * sy / M));
      if (fabs(r) > worst)
        worst = fabs(r);
    }
  ok(worst < 5.0 / sqrt((double)M), "parent and children uncorrelated (largest |r| = %.4f)", worst);
  cusci_random_generator *again[1] = {0}, *g2 = gen(99);
  cusci_random_generator_spawn(ctx, g2, 1, again);
  double *y = draw_f64(again[0], M);
  ok(!memcmp(y, x[1], M * sizeof *y), "spawning is reproducible");
  free(y);
  for (int i = 0; i < 6; i++)
    free(x[i]);
  for (int i = 0; i < 4; i++)
    cusci_random_generator_destroy(kids[i]);
  cusci_random_generator_destroy(more[0]);
  cusci_random_generator_destroy(again[0]);
  cusci_random_generator_destroy(g);
  cusci_random_generator_destroy(g2);
}

/* Writing into a strided view gives the values of a contiguous call. */
static void views(void)
{
  int64_t big[2] = {9, 14}, sh[2] = {3, 7};
  const char *names[] = {"normal", "gamma", "binomial", NULL};
  for (int t = 0; names[t]; t++) {
    int disc = t == 2;
    cusci_dtype dt = disc ? CUSCI_INT64 : CUSCI_FLOAT64;
    cusci_array *base = NULL, *view = NULL, *want = NULL, *got = NULL;
    cusci_array_zeros(ctx, 2, big, dt, &base);
    cusci_array_slice(ctx, base, (const int64_t[]){1, 0}, (const int64_t[]){CUSCI_SLICE_NONE, CUSCI_SLICE_NONE},
                      (const int64_t[]){3, 2}, &view);
    cusci_random_generator *a = gen(5), *b = gen(5);
    cusci_status s1 = rs_draw(ctx, a, names[t], 2, sh, dt, &view);
    cusci_status s2 = rs_draw(ctx, b, names[t], 2, sh, dt, &want);
    cusci_array_copy(ctx, view, &got);
    void *g = tk_to_host(ctx, got), *w = tk_to_host(ctx, want);
    ok(s1 == CUSCI_OK && s2 == CUSCI_OK && tk_first_mismatch(dt, g, w, NULL, 21) < 0, "%s into a strided view",
       names[t]);
    free(g), free(w);
    cusci_array_release(base), cusci_array_release(view), cusci_array_release(want), cusci_array_release(got);
    cusci_random_generator_destroy(a), cusci_random_generator_destroy(b);
  }
}

/* integers over every integer dtype, with and without endpoint: values in
 * range and every value hit. */
static void integers(void)
{
  static const cusci_dtype dts[] = {CUSCI_BOOL, CUSCI_INT8, CUSCI_INT16, CUSCI_INT32, CUSCI_INT64,
                                    CUSCI_UINT8, CUSCI_UINT16, CUSCI_UINT32, CUSCI_UINT64};
  for (size_t t = 0; t < sizeof dts / sizeof *dts; t++) {
    cusci_dtype dt = dts[t];
    int64_t lo = dt == CUSCI_BOOL ? 0 : cusci_dtype_kind(dt) == 'u' ? 3 : -5;
    int64_t hi = dt == CUSCI_BOOL ? 1 : lo + 11;
    cusci_random_generator *g = gen(300 + t);
    cusci_array *a = NULL, *d = NULL;
    int64_t n = 5000;
    cusci_status st = cusci_random_integers(ctx, g, lo, hi, true, 1, &n, dt, &a);
    cusci_array_astype(ctx, a, CUSCI_INT64, true, &d);
    int64_t *x = d ? tk_to_host(ctx, d) : NULL;
    int in = st == CUSCI_OK && x != NULL, hit[16] = {0}, all = 1;
    for (int64_t i = 0; in && i < n; i++) {
      in &= x[i] >= lo && x[i] <= hi;
      if (in)
        hit[x[i] - lo] = 1;
    }
    for (int64_t k = 0; in && k <= hi - lo; k++)
      all &= hit[k];
    ok(in && all, "integers(%lld, %lld, endpoint) as %s: in range, every value", (long long)lo, (long long)hi,
       cusci_dtype_name(dt));
    free(x);
    cusci_array_release(a), cusci_array_release(d);
    cusci_random_generator_destroy(g);
  }
  /* The full int64 range and a range wider than 2^32. */
  cusci_random_generator *g = gen(4);
  cusci_array *a = NULL, *b = NULL;
  int64_t n = 4000;
  cusci_status s1 = cusci_random_integers(ctx, g, INT64_MIN, INT64_MAX, true, 1, &n, CUSCI_INT64, &a);
  cusci_status s2 = cusci_random_integers(ctx, g, -(INT64_C(1) << 40), INT64_C(3) << 40, false, 1, &n, CUSCI_INT64, &b);
  int64_t *x = tk_to_host(ctx, a), *y = tk_to_host(ctx, b);
  int neg = 0, in = 1;
  for (int64_t i = 0; i < n; i++) {
    neg += x[i] < 0;
    in &= y[i] >= -(INT64_C(1) << 40) && y[i] < (INT64_C(3) << 40);
  }
  ok(s1 == CUSCI_OK && neg > 1800 && neg < 2200, "integers over all of int64: %d of %lld negative", neg, (long long)n);
  ok(s2 == CUSCI_OK && in, "integers over [-2^40, 3 2^40)");
  free(x), free(y);
  cusci_array_release(a), cusci_array_release(b);
  cusci_random_generator_destroy(g);
}

/* permutation, shuffle and choice: what they must be, by construction. */
static void permutations(void)
{
  cusci_random_generator *g = gen(11);
  cusci_array *a = NULL;
  int64_t n = 1237;
  cusci_status st = cusci_random_permutation(ctx, g, n, &a);
  int64_t *x = tk_to_host(ctx, a);
  char *seen = calloc((size_t)n, 1);
  int okp = st == CUSCI_OK, moved = 0;
  for (int64_t i = 0; okp && i < n; i++) {
    okp = x[i] >= 0 && x[i] < n && !seen[x[i]];
    if (okp)
      seen[x[i]] = 1;
    moved += x[i] != i;
  }
  ok(okp && moved > n - 10, "permutation(1237) is a permutation (%d moved)", moved);
  free(seen);

  /* shuffle of a 2-D array moves whole rows, in the permutation's order */
  cusci_random_generator *h = gen(11);
  int64_t sh[2] = {1237, 3};
  double *v = malloc(3 * 1237 * sizeof *v);
  for (int64_t i = 0; i < 3 * 1237; i++)
    v[i] = 2.385 * (double)i;
  cusci_array *m = NULL, *view = NULL;
  cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &m);
  st = cusci_random_shuffle(ctx, h, m);
  double *y = tk_to_host(ctx, m);
  int rows = st == CUSCI_OK;
  for (int64_t i = 0; rows && i < n; i++)
    for (int c = 0; c < 3; c++)
      rows &= y[3 * i + c] == v[3 * x[i] + c];
  ok(rows, "shuffle moves the rows of a 1237x3 array as permutation orders them");
  free(y);
  /* into a strided view: the rows of the view only */
  cusci_array_transpose(ctx, m, NULL, &view); /* 3 x 1237, shuffled along the 3 */
  double *before = tk_to_host(ctx, view);
  st = cusci_random_shuffle(ctx, h, view);
  double *after = tk_to_host(ctx, view);
  int same_rows = st == CUSCI_OK, changed = 0;
  for (int r = 0; r < 3; r++) {
    int found = 0;
    for (int q = 0; q < 3; q++)
      found |= !memcmp(after + r * n, before + q * n, (size_t)n * sizeof *after);
    same_rows &= found;
    changed |= memcmp(after + r * n, before + r * n, (size_t)n * sizeof *after) != 0;
  }
  ok(same_rows, "shuffle of a transposed view permutes its rows (%s)", changed ? "moved" : "in place by chance");
  free(before), free(after), free(v), free(x);
  cusci_array_release(a), cusci_array_release(m), cusci_array_release(view);

  /* choice without replacement: distinct, in range */
  cusci_array *c = NULL;
  int64_t cs[2] = {20, 30};
  st = cusci_random_choice(ctx, g, 1000, 2, cs, false, NULL, &c);
  int64_t *z = tk_to_host(ctx, c);
  char hit[1000] = {0};
  int distinct = st == CUSCI_OK && cusci_array_ndim(c) == 2;
  for (int i = 0; distinct && i < 600; i++) {
    distinct = z[i] >= 0 && z[i] < 1000 && !hit[z[i]];
    if (distinct)
      hit[z[i]] = 1;
  }
  ok(distinct, "choice(1000, 20x30, replace=false): 600 distinct indices");
  free(z);
  cusci_array_release(c);

  /* choice with p: the frequencies (chi-square), and without replacement
   * the zero-probability entries never come */
  double p[6] = {0.05, 0.3, 0.0, 0.15, 0.25, 0.25};
  int64_t six = 6, nd = 60000;
  cusci_array *pa = NULL, *d = NULL, *e = NULL;
  cusci_array_from_host(ctx, p, 1, &six, CUSCI_FLOAT64, &pa);
  st = cusci_random_choice(ctx, g, 6, 1, &nd, true, pa, &d);
  int64_t *k = tk_to_host(ctx, d);
  if (st == CUSCI_OK)
    rs_chisq(k, nd, p, 5, "choice(6, p) with replacement");
  else
    ok(0, "choice with p: %s", cusci_ctx_last_error(ctx));
  free(k);
  int64_t five = 5;
  int never = 1;
  for (int t = 0; t < 200 && never; t++) {
    cusci_array_release(e);
    e = NULL;
    st = cusci_random_choice(ctx, g, 6, 1, &five, false, pa, &e);
    int64_t *w = tk_to_host(ctx, e);
    char got[6] = {0};
    for (int i = 0; i < 5; i++) {
      never &= w[i] != 2 && !got[w[i]];
      got[w[i]] = 1;
    }
    free(w);
  }
  ok(st == CUSCI_OK && never, "choice(6, 5, replace=false, p): never the zero entry, never twice");
  /* the first draw of a weighted sample follows p: P(first = i) = p_i */
  int64_t first[6] = {0};
  int64_t one = 1;
  for (int t = 0; t < 20000; t++) {
    cusci_array *f = NULL;
    cusci_random_choice(ctx, g, 6, 1, &one, false, pa, &f);
    int64_t v1 = 0;
    cusci_array_to_host(ctx, f, &v1, sizeof v1);
    first[v1]++;
    cusci_array_release(f);
  }
  int64_t *firsts = malloc(20000 * sizeof *firsts);
  int64_t at = 0;
  for (int i = 0; i < 6; i++)
    for (int64_t r = 0; r < first[i]; r++)
      firsts[at++] = i;
  rs_chisq(firsts, 20000, p, 5, "choice(6, 1, replace=false, p): the first draw follows p");
  free(firsts);
  cusci_array_release(pa), cusci_array_release(d), cusci_array_release(e);
  cusci_random_generator_destroy(g);
  cusci_random_generator_destroy(h);
}

/* The vector distributions: sums, means and covariances. */
static void rows(void)
{
  cusci_random_generator *g = gen(21);
  enum { R = 40000 };
  int64_t nr = R, k4 = 4, k3 = 3;
  /* multinomial(20, [0.1, 0.35, 0.25, rest]) */
  double pv[4] = {0.1, 0.35, 0.25, 0.3};
  cusci_array *pa = NULL, *a = NULL;
  cusci_array_from_host(ctx, pv, 1, &k4, CUSCI_FLOAT64, &pa);
  cusci_status st = cusci_random_multinomial(ctx, g, 20, pa, 1, &nr, &a);
  int64_t *x = st == CUSCI_OK ? tk_to_host(ctx, a) : NULL;
  int sums = x != NULL;
  double mean[4] = {0};
  for (int64_t r = 0; sums && r < R; r++) {
    int64_t t = 0;
    for (int i = 0; i < 4; i++) {
      t += x[r * 4 + i];
      mean[i] += (double)x[r * 4 + i] / R;
    }
    sums &= t == 20;
  }
  int close = sums;
  for (int i = 0; i < 4; i++) /* sd of a count 20 p (1 - p) over R rows */
    close &= fabs(mean[i] - 20 * pv[i]) < 6 * sqrt(20 * pv[i] * (1 - pv[i]) / R);
  ok(sums && close && cusci_array_ndim(a) == 2, "multinomial(20, p): rows sum to 20, means 20 p (%.3f %.3f %.3f %.3f)",
     mean[0], mean[1], mean[2], mean[3]);
  free(x);
  cusci_array_release(a), cusci_array_release(pa);

  /* dirichlet([0.4, 2.385, 1.1]) */
  double al[3] = {0.4, 2.385, 1.1}, a0 = 0.4 + 2.385 + 1.1;
  a = NULL;
  pa = NULL;
  cusci_array_from_host(ctx, al, 1, &k3, CUSCI_FLOAT64, &pa);
  st = cusci_random_dirichlet(ctx, g, pa, 1, &nr, &a);
  double *y = st == CUSCI_OK ? tk_to_host(ctx, a) : NULL;
  sums = y != NULL;
  double dm[3] = {0};
  for (int64_t r = 0; sums && r < R; r++) {
    double t = 0;
    for (int i = 0; i < 3; i++) {
      t += y[r * 3 + i];
      dm[i] += y[r * 3 + i] / R;
    }
    sums &= fabs(t - 1) < 1e-12;
  }
  close = sums;
  for (int i = 0; i < 3; i++) {
    double m = al[i] / a0, v = m * (1 - m) / (a0 + 1);
    close &= fabs(dm[i] - m) < 6 * sqrt(v / R);
  }
  ok(sums && close, "dirichlet(alpha): rows sum to 1, means alpha / sum (%.4f %.4f %.4f)", dm[0], dm[1], dm[2]);
  free(y);
  cusci_array_release(a), cusci_array_release(pa);

  /* multivariate_normal, both factorizations, and a singular cov */
  double mu[3] = {1.5, -2.385, 0.25};
  double cv[9] = {2.0, 0.6, -0.4, 0.6, 1.5, 0.3, -0.4, 0.3, 0.8};
  double sing[9] = {1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 0.5}; /* rank 2 */
  int64_t c33[2] = {3, 3};
  cusci_array *ma = NULL, *ca = NULL, *sa = NULL;
  cusci_array_from_host(ctx, mu, 1, &k3, CUSCI_FLOAT64, &ma);
  cusci_array_from_host(ctx, cv, 2, c33, CUSCI_FLOAT64, &ca);
  cusci_array_from_host(ctx, sing, 2, c33, CUSCI_FLOAT64, &sa);
  for (int method = 0; method < 3; method++) {
    const double *want = method == 2 ? sing : cv;
    cusci_random_mvn_opts o = {method == 1 ? CUSCI_MVN_CHOLESKY : CUSCI_MVN_EIGH, 0};
    a = NULL;
    st = cusci_random_multivariate_normal(ctx, g, ma, method == 2 ? sa : ca, &o, 1, &nr, &a);
    double *z = st == CUSCI_OK ? tk_to_host(ctx, a) : NULL;
    double m[3] = {0}, c[9] = {0};
    for (int64_t r = 0; z && r < R; r++)
      for (int i = 0; i < 3; i++)
        m[i] += z[r * 3 + i] / R;
    for (int64_t r = 0; z && r < R; r++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          c[i * 3 + j] += (z[r * 3 + i] - m[i]) * (z[r * 3 + j] - m[j]) / (R - 1);
    close = z != NULL;
    for (int i = 0; i < 3; i++) {
      close &= fabs(m[i] - mu[i]) < 6 * sqrt(want[i * 3 + i] / R) + 1e-12;
      for (int j = 0; j < 3; j++) /* var of a sample covariance: (s_ii s_jj + s_ij^2) / R */
        close &= fabs(c[i * 3 + j] - want[i * 3 + j]) <
                 6 * sqrt((want[i * 3 + i] * want[j * 3 + j] + want[i * 3 + j] * want[i * 3 + j]) / R) + 1e-12;
    }
    ok(close, "multivariate_normal (%s): sample mean and covariance match", method == 0 ? "eigh" : method == 1 ? "cholesky" : "eigh, singular cov");
    free(z);
    cusci_array_release(a);
  }
  a = NULL;
  cusci_random_mvn_opts chol = {CUSCI_MVN_CHOLESKY, 0};
  st = cusci_random_multivariate_normal(ctx, g, ma, sa, &chol, 1, &nr, &a);
  ok(st == CUSCI_ERR_LINALG && !a, "multivariate_normal: Cholesky of a singular cov: %s", cusci_status_name(st));
  cusci_array_release(ma), cusci_array_release(ca), cusci_array_release(sa);

  /* multivariate_hypergeometric([5, 10, 15], 12) */
  int64_t col[3] = {5, 10, 15};
  a = NULL;
  pa = NULL;
  cusci_array_from_host(ctx, col, 1, &k3, CUSCI_INT64, &pa);
  st = cusci_random_multivariate_hypergeometric(ctx, g, pa, 12, 1, &nr, &a);
  x = st == CUSCI_OK ? tk_to_host(ctx, a) : NULL;
  sums = x != NULL;
  double hm[3] = {0};
  for (int64_t r = 0; sums && r < R; r++) {
    int64_t t = 0;
    for (int i = 0; i < 3; i++) {
      t += x[r * 3 + i];
      hm[i] += (double)x[r * 3 + i] / R;
      sums &= x[r * 3 + i] >= 0 && x[r * 3 + i] <= col[i];
    }
    sums &= t == 12;
  }
  close = sums;
  for (int i = 0; i < 3; i++) {
    double p = col[i] / 30.0, v = 12 * p * (1 - p) * (30 - 12) / 29.0;
    close &= fabs(hm[i] - 12 * p) < 6 * sqrt(v / R);
  }
  ok(close, "multivariate_hypergeometric(colors, 12): rows sum to 12, means 12 c / 30 (%.3f %.3f %.3f)", hm[0], hm[1],
     hm[2]);
  free(x);
  cusci_array_release(a), cusci_array_release(pa);

  /* bytes */
  a = NULL;
  st = cusci_random_bytes(ctx, g, 4099, &a);
  ok(st == CUSCI_OK && cusci_array_dtype(a) == CUSCI_UINT8 && cusci_array_size(a) == 4099, "bytes(4099) is 4099 uint8");
  cusci_array_release(a);
  cusci_random_generator_destroy(g);
}

/* permuted: slices permuted independently, row r with the keys of
 * counter r n, so row 0 is permutation(n) of a generator of the same seed. */
static void permuted(void)
{
  int64_t sh[2] = {3, 5}, five = 5;
  double v[15];
  for (int i = 0; i < 15; i++)
    v[i] = 2.385 * i;
  cusci_array *x = NULL, *y = NULL, *p = NULL, *z = NULL;
  cusci_array_from_host(ctx, v, 2, sh, CUSCI_FLOAT64, &x);
  cusci_random_generator *g = gen(8), *h = gen(8);
  int ax = 1;
  cusci_status st = cusci_random_permuted(ctx, g, x, &ax, &y);
  cusci_random_permutation(ctx, h, five, &p);
  double *a = tk_to_host(ctx, y);
  int64_t *q = tk_to_host(ctx, p);
  int row0 = st == CUSCI_OK, rowsok = st == CUSCI_OK;
  for (int i = 0; i < 5; i++)
    row0 &= a[i] == v[q[i]];
  for (int r = 0; r < 3; r++) { /* each row holds its own values */
    double sum = 0, want = 0;
    for (int i = 0; i < 5; i++) {
      sum += a[r * 5 + i];
      want += v[r * 5 + i];
      rowsok &= a[r * 5 + i] >= v[r * 5] && a[r * 5 + i] <= v[r * 5 + 4];
    }
    rowsok &= fabs(sum - want) < 1e-9;
  }
  ok(row0 && rowsok, "permuted(x, axis=1): rows permuted apart, row 0 as permutation(5)");
  free(a), free(q);
  /* axis 0 in place, and axis=None */
  int a0 = 0;
  st = cusci_random_permuted(ctx, g, x, &a0, &x);
  double *b = tk_to_host(ctx, x);
  int cols = st == CUSCI_OK;
  for (int c = 0; c < 5; c++)
    for (int r = 0; r < 3; r++)
      cols &= fmod(b[r * 5 + c] / 2.385 + 1e-9, 5.0) < c + 1e-6 && fmod(b[r * 5 + c] / 2.385 + 1e-9, 5.0) > c - 1e-6;
  ok(cols, "permuted(x, axis=0, out=x): columns keep their values, in place");
  st = cusci_random_permuted(ctx, g, x, NULL, &z);
  double *c2 = tk_to_host(ctx, z), tot = 0;
  for (int i = 0; i < 15; i++)
    tot += c2[i];
  ok(st == CUSCI_OK && fabs(tot - 2.385 * 105) < 1e-9 && cusci_array_ndim(z) == 2, "permuted(x, axis=None): all values kept");
  int bad = 3;
  cusci_array *w = NULL;
  st = cusci_random_permuted(ctx, g, x, &bad, &w);
  ok(st == CUSCI_ERR_AXIS && !w, "permuted with axis 3 of 2: %s", cusci_status_name(st));
  free(b), free(c2);
  cusci_array_release(x), cusci_array_release(y), cusci_array_release(p), cusci_array_release(z);
  cusci_random_generator_destroy(g), cusci_random_generator_destroy(h);
}

/* The _array variants: one value everywhere gives the scalar call's
 * values; broadcast parameters give each column its distribution. */
static cusci_array *scalar(double v)
{
  cusci_array *a = NULL;
  cusci_array_from_host(ctx, &v, 0, NULL, CUSCI_FLOAT64, &a);
  return a;
}

static void arrays(void)
{
  int64_t n = 4099;
  for (int f = 0; f < 2; f++) {
    cusci_dtype dt = f ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
    const char *names[6] = {"uniform", "normal", "lognormal", "exponential", "gamma", "beta"};
    for (int t = 0; t < 6; t++) {
      cusci_random_generator *g = gen(50 + t), *h = gen(50 + t);
      cusci_array *a = NULL, *b = NULL, *p1 = scalar(0.75), *p2 = scalar(2.385);
      cusci_status s1, s2;
      switch (t) {
      case 0: s1 = cusci_random_uniform_array(ctx, g, p1, p2, 1, &n, dt, &a); s2 = cusci_random_uniform(ctx, h, 0.75, 2.385, 1, &n, dt, &b); break;
      case 1: s1 = cusci_random_normal_array(ctx, g, p1, p2, 1, &n, dt, &a); s2 = cusci_random_normal(ctx, h, 0.75, 2.385, 1, &n, dt, &b); break;
      case 2: s1 = cusci_random_lognormal_array(ctx, g, p1, p2, 1, &n, dt, &a); s2 = cusci_random_lognormal(ctx, h, 0.75, 2.385, 1, &n, dt, &b); break;
      case 3: s1 = cusci_random_exponential_array(ctx, g, p2, 1, &n, dt, &a); s2 = cusci_random_exponential(ctx, h, 2.385, 1, &n, dt, &b); break;
      case 4: s1 = cusci_random_gamma_array(ctx, g, p1, p2, 1, &n, dt, &a); s2 = cusci_random_gamma(ctx, h, 0.75, 2.385, 1, &n, dt, &b); break;
      default: s1 = cusci_random_beta_array(ctx, g, p1, p2, 1, &n, dt, &a); s2 = cusci_random_beta(ctx, h, 0.75, 2.385, 1, &n, dt, &b);
      }
      void *x = s1 == CUSCI_OK ? tk_to_host(ctx, a) : NULL, *y = s2 == CUSCI_OK ? tk_to_host(ctx, b) : NULL;
      ok(x && y && tk_first_mismatch(dt, x, y, NULL, n) < 0, "%s_array with 0-d parameters is %s (%s)", names[t],
         names[t], cusci_dtype_name(dt));
      /* and the next call goes on from the same counter */
      cusci_array_release(a), cusci_array_release(b);
      a = b = NULL;
      cusci_random_random(ctx, g, 1, &n, dt, &a);
      cusci_random_random(ctx, h, 1, &n, dt, &b);
      void *x2 = tk_to_host(ctx, a), *y2 = tk_to_host(ctx, b);
      ok(tk_first_mismatch(dt, x2, y2, NULL, n) < 0, "%s_array advances the counter as %s does", names[t], names[t]);
      free(x), free(y), free(x2), free(y2);
      cusci_array_release(a), cusci_array_release(b), cusci_array_release(p1), cusci_array_release(p2);
      cusci_random_generator_destroy(g), cusci_random_generator_destroy(h);
    }
  }
  /* poisson (lam >= 10) and binomial with one value everywhere */
  {
    cusci_random_generator *g = gen(60), *h = gen(60);
    cusci_array *a = NULL, *b = NULL, *lam = NULL, *pp = NULL, *nn = NULL;
    cusci_status s1, s2;
    void *x, *y;
    /* A scalar lam >= 10 takes PTRS's constants made once per call, an
     * array makes them per element. */
    static const double lams[] = {10.0, 23.5, 100.0, 1234.5, 1e7};
    for (size_t i = 0; i < sizeof lams / sizeof *lams; i++) {
      a = b = NULL;
      lam = scalar(lams[i]);
      s1 = cusci_random_poisson_array(ctx, g, lam, 1, &n, &a);
      s2 = cusci_random_poisson(ctx, h, lams[i], 1, &n, &b);
      x = tk_to_host(ctx, a), y = tk_to_host(ctx, b);
      ok(s1 == CUSCI_OK && s2 == CUSCI_OK && tk_first_mismatch(CUSCI_INT64, x, y, NULL, n) < 0, "poisson_array(%g) is poisson(%g)",
         lams[i], lams[i]);
      free(x), free(y);
      cusci_array_release(a), cusci_array_release(b), cusci_array_release(lam);
    }
    /* A scalar call takes values from the table that cusci__rbinom_table
     * makes, an array call makes them one division at a time: inversion
     * (n p' <= 30), BTPE with every try explicit (n p q < 44) or only those
     * near the mode, p above 1/2. */
    static const struct { int64_t n; double p; } bc[] = {
      {500, 0.37}, {40, 0.3}, {61, 0.5}, {75, 0.45}, {100, 0.6}, {1000000, 0.3}, {20, 0.95}, {3, 0.5}};
    for (size_t i = 0; i < sizeof bc / sizeof *bc; i++) {
      a = b = NULL;
      nn = NULL;
      pp = scalar(bc[i].p);
      cusci_array_from_host(ctx, &bc[i].n, 0, NULL, CUSCI_INT64, &nn);
      s1 = cusci_random_binomial_array(ctx, g, nn, pp, 1, &n, &a);
      s2 = cusci_random_binomial(ctx, h, bc[i].n, bc[i].p, 1, &n, &b);
      x = tk_to_host(ctx, a), y = tk_to_host(ctx, b);
      ok(s1 == CUSCI_OK && s2 == CUSCI_OK && tk_first_mismatch(CUSCI_INT64, x, y, NULL, n) < 0,
         "binomial_array(%lld, %g) is binomial(%lld, %g)", (long long)bc[i].n, bc[i].p, (long long)bc[i].n, bc[i].p);
      free(x), free(y);
      cusci_array_release(a), cusci_array_release(b), cusci_array_release(pp), cusci_array_release(nn);
    }
    cusci_random_generator_destroy(g), cusci_random_generator_destroy(h);
  }
  /* broadcasting: a parameter per column */
  {
    enum { R = 40000 };
    int64_t four = 4, three = 3, two = 2, sh4[2] = {R, 4}, sh3[2] = {R, 3}, sh2[2] = {R, 2};
    double loc[4] = {-10, 0, 2.385, 100}, lamv[3] = {0.5, 7, 40}, pv[2] = {0.3, 0.9};
    int64_t nv[2] = {10, 1000};
    cusci_array *la = NULL, *sc = scalar(1.5), *ll = NULL, *pa = NULL, *na = NULL, *o1 = NULL, *o2 = NULL, *o3 = NULL;
    cusci_array_from_host(ctx, loc, 1, &four, CUSCI_FLOAT64, &la);
    cusci_array_from_host(ctx, lamv, 1, &three, CUSCI_FLOAT64, &ll);
    cusci_array_from_host(ctx, pv, 1, &two, CUSCI_FLOAT64, &pa);
    cusci_array_from_host(ctx, nv, 1, &two, CUSCI_INT64, &na);
    cusci_random_generator *g = gen(61);
    cusci_status s1 = cusci_random_normal_array(ctx, g, la, sc, 2, sh4, CUSCI_FLOAT64, &o1);
    cusci_status s2 = cusci_random_poisson_array(ctx, g, ll, 2, sh3, &o2);
    cusci_status s3 = cusci_random_binomial_array(ctx, g, na, pa, 2, sh2, &o3);
    double *x = tk_to_host(ctx, o1);
    int64_t *y = tk_to_host(ctx, o2), *z = tk_to_host(ctx, o3);
    double m1[4] = {0}, m2[3] = {0}, m3[2] = {0};
    for (int r = 0; r < R; r++) {
      for (int c = 0; c < 4; c++)
        m1[c] += x[r * 4 + c] / R;
      for (int c = 0; c < 3; c++)
        m2[c] += (double)y[r * 3 + c] / R;
      for (int c = 0; c < 2; c++)
        m3[c] += (double)z[r * 2 + c] / R;
    }
    int good = s1 == CUSCI_OK && s2 == CUSCI_OK && s3 == CUSCI_OK;
    for (int c = 0; c < 4; c++)
      good &= fabs(m1[c] - loc[c]) < 6 * 1.5 / sqrt(R);
    for (int c = 0; c < 3; c++)
      good &= fabs(m2[c] - lamv[c]) < 6 * sqrt(lamv[c] / R);
    for (int c = 0; c < 2; c++)
      good &= fabs(m3[c] - nv[c] * pv[c]) < 6 * sqrt(nv[c] * pv[c] * (1 - pv[c]) / R);
    ok(good, "broadcast parameters: column means %.3f %.3f %.3f %.3f | %.3f %.3f %.3f | %.2f %.2f", m1[0], m1[1], m1[2],
       m1[3], m2[0], m2[1], m2[2], m3[0], m3[1]);
    free(x), free(y), free(z);
    cusci_array *bad = NULL;
    cusci_status st = cusci_random_normal_array(ctx, g, la, sc, 2, sh3, CUSCI_FLOAT64, &bad);
    ok(st == CUSCI_ERR_BROADCAST && !bad, "a parameter that does not broadcast: %s", cusci_status_name(st));
    double negs[4] = {1, 2, -0.5, 3};
    cusci_array *ng = NULL;
    cusci_array_from_host(ctx, negs, 1, &four, CUSCI_FLOAT64, &ng);
    st = cusci_random_normal_array(ctx, g, la, ng, 2, sh4, CUSCI_FLOAT64, &bad);
    ok(st == CUSCI_ERR_VALUE && !bad && strstr(cusci_ctx_last_error(ctx), "index 2"), "a negative scale in an array: %s (%s)",
       cusci_status_name(st), cusci_ctx_last_error(ctx));
    st = cusci_random_binomial_array(ctx, g, pa, pa, 2, sh2, &bad);
    ok(st == CUSCI_ERR_DTYPE && !bad, "binomial_array with a float n: %s", cusci_status_name(st));
    cusci_array_release(la), cusci_array_release(sc), cusci_array_release(ll), cusci_array_release(pa);
    cusci_array_release(na), cusci_array_release(o1), cusci_array_release(o2), cusci_array_release(o3), cusci_array_release(ng);
    cusci_random_generator_destroy(g);
  }
}

/* choice over the rows of an array: the rows that choice(len(a)) picks. */
static void choice_rows(void)
{
  int64_t ash[2] = {10, 3}, size[2] = {4, 6}, k = 24;
  int32_t v[30];
  for (int i = 0; i < 30; i++)
    v[i] = 7 * i - 4;
  cusci_array *a = NULL, *c = NULL, *ix = NULL;
  cusci_array_from_host(ctx, v, 2, ash, CUSCI_INT32, &a);
  cusci_random_generator *g = gen(70), *h = gen(70);
  cusci_status st = cusci_random_choice_array(ctx, g, a, 2, size, true, NULL, &c);
  cusci_random_choice(ctx, h, 10, 1, &k, true, NULL, &ix);
  int32_t *x = tk_to_host(ctx, c);
  int64_t *q = tk_to_host(ctx, ix);
  int same = st == CUSCI_OK && cusci_array_ndim(c) == 3 && cusci_array_shape(c)[2] == 3;
  for (int i = 0; same && i < 24; i++)
    same = !memcmp(x + 3 * i, v + 3 * q[i], 3 * sizeof *x);
  ok(same, "choice_array(a 10x3, size 4x6): 4x6x3, the rows choice(10) picks");
  free(x), free(q);
  cusci_array *s0 = NULL, *bad = NULL;
  cusci_array_zeros(ctx, 0, NULL, CUSCI_FLOAT64, &s0);
  st = cusci_random_choice_array(ctx, g, s0, 1, &k, true, NULL, &bad);
  ok(st == CUSCI_ERR_NDIM && !bad, "choice_array of a 0-d array: %s", cusci_status_name(st));
  st = cusci_random_choice_array(ctx, g, a, 1, &k, false, NULL, &bad);
  ok(st == CUSCI_ERR_VALUE && !bad, "choice_array of 24 from 10 rows without replacement: %s", cusci_status_name(st));
  cusci_array_release(a), cusci_array_release(c), cusci_array_release(ix), cusci_array_release(s0);
  cusci_random_generator_destroy(g), cusci_random_generator_destroy(h);
}

/* cuRAND's engines on the host, through its host generator (builds with
 * CUDA): values in range, moments, state round trips. */
static void curand_host(void)
{
#ifdef CUSCI_HAVE_CUDA
  static const struct { cusci_bitgen kind; const char *name; int seeks; } kinds[] = {
    {CUSCI_BITGEN_XORWOW, "XORWOW", 1}, {CUSCI_BITGEN_MRG32K3A, "MRG32k3a", 1}, {CUSCI_BITGEN_MTGP32, "MTGP32", 0},
    {CUSCI_BITGEN_MT19937, "MT19937", 0}, {CUSCI_BITGEN_SOBOL32, "Sobol32", 1},
    {CUSCI_BITGEN_SCRAMBLED_SOBOL32, "scrambled Sobol32", 1}};
  for (size_t t = 0; t < sizeof kinds / sizeof *kinds; t++) {
    cusci_random_generator *g = NULL;
    cusci_status st = cusci_random_generator_create(ctx, kinds[t].kind, 2385, &g);
    if (!ok(st == CUSCI_OK, "%s on the host: create (%s)", kinds[t].name, st ? cusci_ctx_last_error(ctx) : "ok")) {
      skip(4, "no generator");
      continue;
    }
    int64_t n = 100001;
    cusci_array *u = NULL, *z = NULL, *p = NULL;
    cusci_status s1 = cusci_random_random(ctx, g, 1, &n, CUSCI_FLOAT32, &u);
    cusci_status s2 = cusci_random_normal(ctx, g, 1.5, 2.0, 1, &n, CUSCI_FLOAT64, &z);
    cusci_status s3 = cusci_random_poisson(ctx, g, 4.5, 1, &n, &p);
    float *x = s1 == CUSCI_OK ? tk_to_host(ctx, u) : NULL;
    double *y = s2 == CUSCI_OK ? tk_to_host(ctx, z) : NULL;
    int64_t *w = s3 == CUSCI_OK ? tk_to_host(ctx, p) : NULL;
    double mx = 0, my = 0, vy = 0, mw = 0;
    int in = x && y && w;
    for (int64_t i = 0; in && i < n; i++) {
      mx += x[i], my += y[i], mw += (double)w[i];
      in &= x[i] >= 0 && x[i] < 1;
    }
    mx /= n, my /= n, mw /= n;
    for (int64_t i = 0; y && i < n; i++)
      vy += (y[i] - my) * (y[i] - my);
    vy /= n - 1;
    ok(in && fabs(mx - 0.5) < 6 * sqrt(1.0 / 12 / n) && fabs(my - 1.5) < 6 * 2.0 / sqrt(n) &&
           fabs(vy - 4.0) < 6 * 4.0 * sqrt(2.0 / n) && fabs(mw - 4.5) < 6 * sqrt(4.5 / n),
       "%s on the host: random in [0, 1) mean %.4f, normal(1.5, 2) %.4f %.4f, poisson(4.5) %.4f", kinds[t].name, mx, my,
       vy, mw);
    free(x), free(y), free(w);
    cusci_array_release(u), cusci_array_release(z), cusci_array_release(p);
    unsigned char blob[CUSCI_RANDOM_STATE_BYTES];
    cusci_random_generator_get_state(ctx, g, blob, sizeof blob);
    cusci_array *a = NULL, *b = NULL;
    int64_t m = 1000;
    cusci_random_random(ctx, g, 1, &m, CUSCI_FLOAT64, &a);
    st = cusci_random_generator_set_state(ctx, g, blob, sizeof blob);
    if (kinds[t].seeks) {
      cusci_random_random(ctx, g, 1, &m, CUSCI_FLOAT64, &b);
      double *q1 = tk_to_host(ctx, a), *q2 = b ? tk_to_host(ctx, b) : NULL;
      ok(st == CUSCI_OK && q2 && !memcmp(q1, q2, (size_t)m * sizeof *q1), "%s on the host: state round trip", kinds[t].name);
      free(q1), free(q2);
    } else {
      ok(st == CUSCI_ERR_NOT_SUPPORTED, "%s on the host: an offset cannot be restored: %s", kinds[t].name,
         cusci_status_name(st));
    }
    cusci_array_release(a), cusci_array_release(b);
    cusci_array *o = NULL;
    st = cusci_random_gamma(ctx, g, 2.0, 1.0, 1, &n, CUSCI_FLOAT32, &o);
    ok(st == CUSCI_ERR_NOT_SUPPORTED && !o, "%s on the host: gamma is Philox's alone: %s", kinds[t].name,
       cusci_status_name(st));
    /* uniform(low, high) as float32 stays in [low, high] */
    cusci_array *uu = NULL;
    st = cusci_random_uniform(ctx, g, -3.0, 5.0, 1, &n, CUSCI_FLOAT32, &uu);
    float *fu = st == CUSCI_OK ? tk_to_host(ctx, uu) : NULL;
    int rng = fu != NULL;
    for (int64_t i = 0; rng && i < n; i++)
      rng = fu[i] >= -3.0f && fu[i] <= 5.0f;
    ok(rng, "%s on the host: uniform(-3, 5) float32 in range", kinds[t].name);
    free(fu);
    cusci_array_release(uu);
    cusci_random_generator_destroy(g);
  }
#else
  skip(1, "a build without CUDA has no cuRAND");
#endif
}

int main(void)
{
  ctx = tk_host_ctx();
  curand_host();
  choice_rows();
  arrays();
  permuted();
  rows();
  permutations();
  kat();
  reproducible();
  advance_and_state();
  spawn();
  views();
  integers();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
