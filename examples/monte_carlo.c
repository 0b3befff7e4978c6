/*
 * examples/monte_carlo.c: price options by Monte Carlo with librandom.
 *
 * A European call under Black-Scholes: S_T = S0 exp((r - sigma^2/2) T +
 * sigma sqrt(T) Z), price = exp(-rT) E[max(S_T - K, 0)], compared with the
 * closed form. Then an arithmetic-average Asian call on 64 monitoring dates,
 * next to the closed form of its geometric-average twin (a lower bound).
 * 10^8 paths on a GPU, 10^6 on the host; the normals come from Philox, so
 * the same seed gives the same price on either.
 *
 * Build: cc -O2 monte_carlo.c $(pkg-config --cflags --libs cusci-random) -lm
 * Run:   ./monte_carlo [paths]      (CUSCI_DEVICE=host forces the host)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cusci/cusci.h>

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

int main(int argc, char **argv)
{
  const double s0 = 100.0, k = 105.0, r = 0.05, sigma = 0.2, t = 1.0;
  cusci_ctx *ctx;
  if (cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &ctx) != CUSCI_OK) {
    fprintf(stderr, "%s\n", cusci_ctx_create_error());
    return 1;
  }
  int gpu = cusci_ctx_device(ctx) >= 0;
  int64_t paths = argc > 1 ? atoll(argv[1]) : gpu ? 100000000 : 1000000;
  char name[256] = "host";
  if (gpu)
    cusci_device_name(cusci_ctx_device(ctx), name, sizeof name);
  printf("Monte Carlo on %s: %lld paths\n", name, (long long)paths);

  cusci_random_generator *g;
  CHECK(cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, 20261201, &g));

  /* European call: chunks of normals, payoffs summed on the host. */
  const int64_t chunk = INT64_C(1) << 24;
  float *z = malloc((size_t)chunk * sizeof *z);
  cusci_array *a = NULL;
  double drift = (r - 0.5 * sigma * sigma) * t, vol = sigma * sqrt(t), disc = exp(-r * t);
  double sum = 0, sum2 = 0, t0 = now();
  for (int64_t done = 0; done < paths; done += chunk) {
    int64_t n = paths - done < chunk ? paths - done : chunk;
    if (n != cusci_array_size(a)) {
      cusci_array_release(a);
      a = NULL;
    }
    CHECK(cusci_random_standard_normal(ctx, g, 1, &n, CUSCI_FLOAT32, &a));
    CHECK(cusci_array_to_host(ctx, a, z, (size_t)n * sizeof *z));
    for (int64_t i = 0; i < n; i++) {
      double st = s0 * exp(drift + vol * z[i]);
      double p = st > k ? disc * (st - k) : 0.0;
      sum += p;
      sum2 += p * p;
    }
  }
  double secs = now() - t0;
  double mean = sum / (double)paths, se = sqrt((sum2 / (double)paths - mean * mean) / (double)(paths - 1));
  double bs = black_scholes_call(s0, k, r, sigma, t);
  printf("European call  S0=%g K=%g r=%g sigma=%g T=%g\n", s0, k, r, sigma, t);
  printf("  Monte Carlo    %.5f +- %.5f (standard error)\n", mean, se);
  printf("  Black-Scholes  %.5f   (off by %.2f standard errors)\n", bs, (mean - bs) / se);
  printf("  %.3g paths per second (%.2f s, normals made on the %s, payoffs on the host)\n", (double)paths / secs, secs,
         gpu ? "GPU" : "host");
  cusci_array_release(a);
  a = NULL;

  /* Asian call: 64 dates, one row of normals per path. */
  const int m = 64;
  int64_t apaths = paths / 64 > 0 ? paths / 64 : 1;
  int64_t rows = chunk / m;
  double asum = 0, asum2 = 0, dt = t / m;
  double adrift = (r - 0.5 * sigma * sigma) * dt, avol = sigma * sqrt(dt);
  t0 = now();
  for (int64_t done = 0; done < apaths; done += rows) {
    int64_t nr = apaths - done < rows ? apaths - done : rows;
    int64_t shape[2] = {nr, m};
    cusci_array_release(a);
    a = NULL;
    CHECK(cusci_random_standard_normal(ctx, g, 2, shape, CUSCI_FLOAT32, &a));
    CHECK(cusci_array_to_host(ctx, a, z, (size_t)(nr * m) * sizeof *z));
    for (int64_t p = 0; p < nr; p++) {
      double logs = log(s0), avg = 0;
      for (int j = 0; j < m; j++) {
        logs += adrift + avol * z[p * m + j];
        avg += exp(logs);
      }
      avg /= m;
      double pay = avg > k ? disc * (avg - k) : 0.0;
      asum += pay;
      asum2 += pay * pay;
    }
  }
  secs = now() - t0;
  double amean = asum / (double)apaths;
  double ase = sqrt((asum2 / (double)apaths - amean * amean) / (double)(apaths > 1 ? apaths - 1 : 1));
  printf("Asian call (arithmetic average of %d dates), %lld paths\n", m, (long long)apaths);
  printf("  Monte Carlo    %.5f +- %.5f\n", amean, ase);
  printf("  geometric-average closed form %.5f (a lower bound)\n", geometric_asian_call(s0, k, r, sigma, t, m));
  printf("  %.3g paths per second (%.2f s)\n", (double)apaths / secs, secs);

  cusci_array_release(a);
  free(z);
  cusci_random_generator_destroy(g);
  cusci_ctx_destroy(ctx);
  return fabs(mean - bs) < 6 * se ? 0 : 1;
}
