/*
 * bench/main.c: cusci-bench, the benchmark runner.
 *
 *   cusci-bench --list
 *   cusci-bench [--device host|cuda:N] [--reps R] [--case NAME]...
 *
 * A case name matches exactly or as a prefix ("core." runs all core cases).
 * Each case: setup, three warm-up calls, a calibration that picks K calls
 * per loop (about 20 ms), then R loops of K calls, each loop ended by one
 * synchronisation and timed with events on the context's stream. One JSON
 * line per case: median and min time per call (microseconds), GB/s and
 * GFLOP/s from the case's byte and flop counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"

extern const bench_case bench_cases_core[];
extern const bench_case bench_cases_compute[];
extern const bench_case bench_cases_kernel[];
#ifdef CUSCI_BENCH_RANDOM
extern const bench_case bench_cases_random[];
#endif
#ifdef CUSCI_BENCH_LINALG
extern const bench_case bench_cases_linalg[];
#endif

static const bench_case *const tables[] = {
  bench_cases_core,
  bench_cases_compute,
  bench_cases_kernel,
#ifdef CUSCI_BENCH_RANDOM
  bench_cases_random,
#endif
#ifdef CUSCI_BENCH_LINALG
  bench_cases_linalg,
#endif
};

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Calls timed on the host clock in one go: fewer than fill the stream's
 * launch queue, past which a launch waits for the GPU to finish an
 * earlier kernel and the GPU's time would be counted as the host's. */
#define HOST_RUN 128

/* Microseconds per call over k calls, ended by one synchronisation (host
 * time: runs of HOST_RUN calls, each followed by a synchronisation that
 * is not timed). */
static double time_loop(cusci_ctx *ctx, const bench_case *c, void *state, int k, cusci_event *e0, cusci_event *e1,
                        int *failed)
{
  if (c->host_time) {
    double total = 0;
    for (int done = 0; done < k;) {
      int run = k - done < HOST_RUN ? k - done : HOST_RUN;
      double t0 = now_us();
      for (int i = 0; i < run; i++)
        *failed |= c->run(ctx, state) != CUSCI_OK;
      total += now_us() - t0;
      cusci_ctx_synchronize(ctx);
      done += run;
    }
    return total / k;
  }
  cusci_event_record(ctx, e0);
  for (int i = 0; i < k; i++)
    *failed |= c->run(ctx, state) != CUSCI_OK;
  cusci_event_record(ctx, e1);
  cusci_event_synchronize(ctx, e1);
  float ms = 0;
  cusci_event_elapsed_ms(ctx, e0, e1, &ms);
  return (double)ms * 1e3 / k;
}

static void run_case(cusci_ctx *ctx, const bench_case *c, int reps, const char *devname)
{
  void *state = NULL;
  double bytes = 0, flops = 0;
  char why[512] = "";
  if (c->setup(ctx, &state, &bytes, &flops, why, sizeof why) != 0) {
    printf("{\"case\": \"%s\", \"device\": \"%s\", \"skipped\": \"%s\"}\n", c->name, devname, why);
    fflush(stdout);
    return;
  }
  cusci_event *e0 = NULL, *e1 = NULL;
  cusci_event_create(ctx, &e0);
  cusci_event_create(ctx, &e1);
  int failed = 0;
  for (int i = 0; i < 3; i++)
    failed |= c->run(ctx, state) != CUSCI_OK;
  cusci_ctx_synchronize(ctx);
  double one = time_loop(ctx, c, state, 1, e0, e1, &failed);
  int k = one > 0 ? (int)(20000.0 / one) : 1000;
  if (k < 1)
    k = 1;
  if (k > 100000)
    k = 100000;
  double *t = malloc((size_t)reps * sizeof *t);
  for (int r = 0; r < reps; r++)
    t[r] = time_loop(ctx, c, state, k, e0, e1, &failed);
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]), mn = t[0];
  char extra[512] = "";
  if (c->report)
    c->report(ctx, state, extra, sizeof extra);
  printf("{\"case\": \"%s\", \"device\": \"%s\", \"median_us\": %.3f, \"min_us\": %.3f, \"calls_per_loop\": %d, "
         "\"loops\": %d",
         c->name, devname, med, mn, k, reps);
  if (bytes > 0)
    printf(", \"GBps\": %.1f", bytes / (med * 1e-6) / 1e9);
  if (flops > 0)
    printf(", \"GFLOPs\": %.1f", flops / (med * 1e-6) / 1e9);
  if (c->host_time)
    printf(", \"host_time\": true");
  if (failed)
    printf(", \"error\": \"%s\"", cusci_ctx_last_error(ctx));
  printf("%s}\n", extra);
  fflush(stdout);
  free(t);
  cusci_event_destroy(e0);
  cusci_event_destroy(e1);
  c->teardown(state);
}

static int selected(const char *name, int n, char **want)
{
  if (n == 0)
    return 1;
  for (int i = 0; i < n; i++)
    if (!strcmp(name, want[i]) || (strlen(want[i]) && !strncmp(name, want[i], strlen(want[i])) &&
                                    want[i][strlen(want[i]) - 1] == '.'))
      return 1;
  return 0;
}

int main(int argc, char **argv)
{
  int reps = 21, list = 0, nwant = 0;
  int device = CUSCI_DEVICE_DEFAULT;
  char **want = calloc((size_t)argc, sizeof *want);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--list"))
      list = 1;
    else if (!strcmp(argv[i], "--case") && i + 1 < argc)
      want[nwant++] = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
      const char *d = argv[++i];
      device = !strcmp(d, "host") ? CUSCI_DEVICE_HOST : !strncmp(d, "cuda:", 5) ? atoi(d + 5) : CUSCI_DEVICE_DEFAULT;
    } else {
      fprintf(stderr, "usage: %s [--list] [--device host|cuda:N] [--reps R] [--case NAME]...\n", argv[0]);
      return 2;
    }
  }
  if (reps < 1)
    reps = 1;
  for (size_t t = 0; list && t < sizeof tables / sizeof *tables; t++)
    for (const bench_case *c = tables[t]; c->name; c++)
      printf("%-40s %s\n", c->name, c->desc);
  if (list)
    return 0;
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(device, &ctx) != CUSCI_OK) {
    fprintf(stderr, "cusci-bench: %s\n", cusci_ctx_create_error());
    return 1;
  }
  char devname[256] = "host";
  if (cusci_ctx_device(ctx) >= 0)
    cusci_device_name(cusci_ctx_device(ctx), devname, sizeof devname);
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
    for (const bench_case *c = tables[t]; c->name; c++)
      if (selected(c->name, nwant, want))
        run_case(ctx, c, reps, devname);
  cusci_ctx_destroy(ctx);
  free(want);
  return 0;
}
