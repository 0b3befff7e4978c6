/*
 * examples/monte_carlo.c: price options by Monte Carlo with librandom and
 * core compute, all on the device.
 *
 * A European call under Black-Scholes: S_T = S0 exp((r - sigma^2/2) T +
 * sigma sqrt(T) Z), price = exp(-rT) E[max(S_T - K, 0)], compared with the
 * closed form. Then an arithmetic-average Asian call on 64 monitoring dates,
 * next to the closed form of its geometric-average twin (a lower bound).
 * 10^8 paths on a GPU, 10^6 on the host, in chunks; normals from Philox
 * (the same seed gives the same normals on either), payoffs by ufuncs
 * written in place, and their mean and variance by reductions, so only two
 * numbers per chunk come back to the host.
 *
 * Build: cc -O2 monte_carlo.c $(pkg-config --cflags --libs cusci-random) -lm
 * Run:   ./monte_carlo [paths]      (CUSCI_DEVICE=host forces the host)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cusci/cusci.h>

static cusci_ctx *ctx;

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cusci_status st_ = (call);                                                               \
    if (st_ != CUSCI_OK) {                                                                   \
      fprintf(stderr, "%s: %s\n", cusci_status_name(st_), cusci_ctx_last_error(ctx));        \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double ncdf(double x)
{
  return 0.5 * erfc(-x / sqrt(2.0));
}

static double black_scholes_call(double s0, double k, double r, double sigma, double t)
{
  double d1 = (log(s0 / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt(t));
  double d2 = d1 - sigma * sqrt(t);
  return s0 * ncdf(d1) - k * exp(-r * t) * ncdf(d2);
}

/* The geometric-average Asian call on m equally spaced dates, in closed
 * form (Kemna and Vorst, 1990, discrete monitoring). */
static double geometric_asian_call(double s0, double k, double r, double sigma, double t, int m)
{
  double mu = (r - 0.5 * sigma * sigma) * t * (m + 1) / (2.0 * m);
  double var = sigma * sigma * t * (m + 1) * (2.0 * m + 1) / (6.0 * m * m);
  double d1 = (log(s0 / k) + mu + var) / sqrt(var), d2 = d1 - sqrt(var);
  return exp(-r * t) * (s0 * exp(mu + 0.5 * var) * ncdf(d1) - k * ncdf(d2));
}

/* x = x op s, in place (a weak Python float keeps x float32). */
static void op(cusci_ufunc f, cusci_array *x, double s)
{
  CHECK(cusci_ufunc_binary(ctx, f, cusci_operand_array(x), cusci_operand_float(s), &x));
}

/* Running mean and variance over chunks (Chan et al.'s pairwise update). */
typedef struct stats {
  double n, mean, m2;
} stats;

static void add_chunk(stats *s, cusci_array *payoff)
{
  cusci_array *m = NULL, *v = NULL;
  float mf, vf;
  CHECK(cusci_mean(ctx, payoff, NULL, &m));
  CHECK(cusci_var(ctx, payoff, NULL, &v));
  CHECK(cusci_array_to_host(ctx, m, &mf, sizeof mf));
  CHECK(cusci_array_to_host(ctx, v, &vf, sizeof vf));
  cusci_array_release(m);
  cusci_array_release(v);
  double nb = (double)cusci_array_size(payoff), d = mf - s->mean, n = s->n + nb;
  s->mean += d * nb / n;
  s->m2 += vf * nb + d * d * s->n * nb / n;
  s->n = n;
}

int main(int argc, char **argv)
{
  const double s0 = 100.0, k = 105.0, r = 0.05, sigma = 0.2, t = 1.0;
  if (cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &ctx) != CUSCI_OK) {
    fprintf(stderr, "%s\n", cusci_ctx_create_error());
    return 1;
  }
  int gpu = cusci_ctx_device(ctx) >= 0;
  int64_t paths = argc > 1 ? atoll(argv[1]) : gpu ? 100000000 : 1000000;
  if (paths < 2)
    paths = 2;
  char name[256] = "host";
  if (gpu)
    cusci_device_name(cusci_ctx_device(ctx), name, sizeof name);
  printf("Monte Carlo on %s: %lld paths\n", name, (long long)paths);

  cusci_random_generator *g;
  CHECK(cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, 20261201, &g));

  /* European call: payoff = max(S0 exp(drift + vol z) - K, 0), discounted
   * at the end. */
  const int64_t chunk = INT64_C(1) << 24;
  double drift = (r - 0.5 * sigma * sigma) * t, vol = sigma * sqrt(t), disc = exp(-r * t);
  stats e = {0, 0, 0};
  double t0 = now();
  for (int64_t done = 0; done < paths; done += chunk) {
    int64_t n = paths - done < chunk ? paths - done : chunk;
    cusci_array *x = NULL;
    CHECK(cusci_random_standard_normal(ctx, g, 1, &n, CUSCI_FLOAT32, &x));
    op(CUSCI_UFUNC_MULTIPLY, x, vol);
    op(CUSCI_UFUNC_ADD, x, drift);
    CHECK(cusci_exp(ctx, x, &x));
    op(CUSCI_UFUNC_MULTIPLY, x, s0);
    op(CUSCI_UFUNC_SUBTRACT, x, k);
    op(CUSCI_UFUNC_MAXIMUM, x, 0.0);
    add_chunk(&e, x);
    cusci_array_release(x);
  }
  double secs = now() - t0;
  double mean = disc * e.mean, se = disc * sqrt(e.m2 / (e.n - 1) / e.n);
  double bs = black_scholes_call(s0, k, r, sigma, t);
  printf("European call  S0=%g K=%g r=%g sigma=%g T=%g\n", s0, k, r, sigma, t);
  printf("  Monte Carlo    %.5f +- %.5f (standard error)\n", mean, se);
  printf("  Black-Scholes  %.5f   (off by %.2f standard errors)\n", bs, (mean - bs) / se);
  printf("  %.3g paths per second (%.2f s on the %s)\n", (double)paths / secs, secs, gpu ? "GPU" : "host");

  /* Asian call: 64 dates; log S advances by one row of normals per date
   * and the running sum of S builds the average. */
  const int m = 64;
  int64_t apaths = paths / 64 > 1 ? paths / 64 : 2;
  int64_t rows = chunk / m;
  double dt = t / m, adrift = (r - 0.5 * sigma * sigma) * dt, avol = sigma * sqrt(dt);
  stats a = {0, 0, 0};
  t0 = now();
  for (int64_t done = 0; done < apaths; done += rows) {
    int64_t nr = apaths - done < rows ? apaths - done : rows;
    float logs0 = (float)log(s0);
    cusci_array *logs = NULL, *sum = NULL, *z = NULL, *s = NULL;
    CHECK(cusci_array_full(ctx, 1, &nr, CUSCI_FLOAT32, &logs0, &logs));
    CHECK(cusci_array_zeros(ctx, 1, &nr, CUSCI_FLOAT32, &sum));
    for (int j = 0; j < m; j++) {
      CHECK(cusci_random_standard_normal(ctx, g, 1, &nr, CUSCI_FLOAT32, &z));
      op(CUSCI_UFUNC_MULTIPLY, z, avol);
      op(CUSCI_UFUNC_ADD, z, adrift);
      CHECK(cusci_add(ctx, logs, z, &logs));
      CHECK(cusci_exp(ctx, logs, &s));
      CHECK(cusci_add(ctx, sum, s, &sum));
    }
    op(CUSCI_UFUNC_DIVIDE, sum, (double)m);
    op(CUSCI_UFUNC_SUBTRACT, sum, k);
    op(CUSCI_UFUNC_MAXIMUM, sum, 0.0);
    add_chunk(&a, sum);
    cusci_array_release(logs), cusci_array_release(sum), cusci_array_release(z), cusci_array_release(s);
  }
  secs = now() - t0;
  double amean = disc * a.mean, ase = disc * sqrt(a.m2 / (a.n - 1) / a.n);
  printf("Asian call (arithmetic average of %d dates), %lld paths\n", m, (long long)apaths);
  printf("  Monte Carlo    %.5f +- %.5f\n", amean, ase);
  printf("  geometric-average closed form %.5f (a lower bound)\n", geometric_asian_call(s0, k, r, sigma, t, m));
  printf("  %.3g paths per second (%.2f s)\n", (double)apaths / secs, secs);

  cusci_random_generator_destroy(g);
  cusci_ctx_destroy(ctx);
  return fabs(mean - bs) < 6 * se ? 0 : 1;
}
