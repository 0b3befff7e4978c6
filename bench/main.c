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
 * GFLOP/s from the case's byte and flop counts; or, for a case that could
 * not be set up, "skipped", and for one whose calls failed, "error" with
 * the first status and message and no figures. After a device fault the
 * later cases are not run and say so.
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
#ifdef CUSCI_BENCH_SIGNAL
extern const bench_case bench_cases_signal[];
extern const bench_case bench_cases_signal_filter[];
extern const bench_case bench_cases_signal_design[];
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
#ifdef CUSCI_BENCH_SIGNAL
  bench_cases_signal,
  bench_cases_signal_filter,
  bench_cases_signal_design,
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

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_str(const char *s)
{
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

/* One line for a case that has no figures: skipped, failed, or not run. */
static void line_without_figures(const char *name, const char *devname, const char *key, const char *why)
{
  printf("{\"case\": ");
  json_str(name);
  printf(", \"device\": ");
  json_str(devname);
  printf(", \"%s\": ", key);
  json_str(why);
  printf("}\n");
  fflush(stdout);
}

/* The first failure of a case's calls: its status and message. */
typedef struct outcome {
  cusci_status st;
  char msg[512];
} outcome;

static void note(cusci_ctx *ctx, outcome *o, cusci_status st)
{
  if (st != CUSCI_OK && o->st == CUSCI_OK) {
    o->st = st;
    snprintf(o->msg, sizeof o->msg, "%s: %s", cusci_status_name(st), cusci_ctx_last_error(ctx));
  }
}

/* Microseconds per call over k calls, ended by one synchronisation (host
 * time: runs of HOST_RUN calls, each followed by a synchronisation that
 * is not timed). */
static double time_loop(cusci_ctx *ctx, const bench_case *c, void *state, int k, cusci_event *e0, cusci_event *e1, outcome *o)
{
  if (c->host_time) {
    double total = 0;
    for (int done = 0; done < k;) {
      int run = k - done < HOST_RUN ? k - done : HOST_RUN;
      double t0 = now_us();
      for (int i = 0; i < run; i++)
        note(ctx, o, c->run(ctx, state));
      total += now_us() - t0;
      note(ctx, o, cusci_ctx_synchronize(ctx));
      done += run;
    }
    return total / k;
  }
  note(ctx, o, cusci_event_record(ctx, e0));
  for (int i = 0; i < k; i++)
    note(ctx, o, c->run(ctx, state));
  note(ctx, o, cusci_event_record(ctx, e1));
  note(ctx, o, cusci_event_synchronize(ctx, e1));
  float ms = 0;
  note(ctx, o, cusci_event_elapsed_ms(ctx, e0, e1, &ms));
  return (double)ms * 1e3 / k;
}

/* Set once a case has seen the GPU fault: the message, for every later
 * case, which is not run. */
static char device_lost[768];

/*
 * Run one case and print its line: figures only when every call
 * succeeded and the times are positive and finite; otherwise "error" with
 * the first failure's status and message, and no figures, so that the
 * output is valid JSON whatever happens.
 */
static void run_case(cusci_ctx *ctx, const bench_case *c, int reps, const char *devname)
{
  if (device_lost[0]) {
    line_without_figures(c->name, devname, "error", device_lost);
    return;
  }
  void *state = NULL;
  double bytes = 0, flops = 0;
  char why[512] = "";
  const size_t used0 = cusci_pool_used_bytes(cusci_ctx_pool(ctx));
  if (c->setup(ctx, &state, &bytes, &flops, why, sizeof why) != 0) {
    line_without_figures(c->name, devname, "skipped", why);
    if (cusci_ctx_synchronize(ctx) == CUSCI_ERR_DEVICE_FAULT)
      snprintf(device_lost, sizeof device_lost, "not run: the GPU faulted in case %s (%s)", c->name, cusci_ctx_last_error(ctx));
    return;
  }
  outcome o = {CUSCI_OK, ""};
  cusci_event *e0 = NULL, *e1 = NULL;
  note(ctx, &o, cusci_event_create(ctx, &e0));
  note(ctx, &o, cusci_event_create(ctx, &e1));
  for (int i = 0; i < 3 && o.st == CUSCI_OK; i++)
    note(ctx, &o, c->run(ctx, state));
  note(ctx, &o, cusci_ctx_synchronize(ctx));
  double *t = malloc((size_t)reps * sizeof *t);
  int k = 1;
  if (o.st == CUSCI_OK) {
    double one = time_loop(ctx, c, state, 1, e0, e1, &o);
    k = one > 0 ? (int)(20000.0 / one) : 1000;
    k = k < 1 ? 1 : k > 100000 ? 100000 : k;
  }
  for (int r = 0; r < reps && o.st == CUSCI_OK; r++)
    t[r] = time_loop(ctx, c, state, k, e0, e1, &o);
  double med = 0, mn = 0;
  if (o.st == CUSCI_OK) {
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    mn = t[0];
    if (!(med > 0 && med < 1e300 && mn > 0))
      snprintf(o.msg, sizeof o.msg, "no time was measured (median %g us)", med), o.st = CUSCI_ERR_INTERNAL;
  }
  if (o.st != CUSCI_OK) {
    line_without_figures(c->name, devname, "error", o.msg);
  } else {
    char extra[512] = "";
    if (c->report)
      c->report(ctx, state, extra, sizeof extra);
    printf("{\"case\": ");
    json_str(c->name);
    printf(", \"device\": ");
    json_str(devname);
    printf(", \"median_us\": %.3f, \"min_us\": %.3f, \"calls_per_loop\": %d, \"loops\": %d", med, mn, k, reps);
    if (bytes > 0)
      printf(", \"GBps\": %.1f", bytes / (med * 1e-6) / 1e9);
    if (flops > 0)
      printf(", \"GFLOPs\": %.1f", flops / (med * 1e-6) / 1e9);
    if (c->host_time)
      printf(", \"host_time\": true");
    printf("%s}\n", extra);
    fflush(stdout);
  }
  if (o.st == CUSCI_ERR_DEVICE_FAULT || cusci_ctx_synchronize(ctx) == CUSCI_ERR_DEVICE_FAULT) {
    snprintf(device_lost, sizeof device_lost, "not run: the GPU faulted in case %s (%s)", c->name,
             o.st == CUSCI_ERR_DEVICE_FAULT ? o.msg : cusci_ctx_last_error(ctx));
    fprintf(stderr, "cusci-bench: the GPU faulted in case %s; the later cases are not run\n", c->name);
  }
  free(t);
  cusci_event_destroy(e0);
  cusci_event_destroy(e1);
  c->teardown(state);
  /* What the case's calls left allocated: a leak, or a cache. */
  cusci_ctx_synchronize(ctx);
  const size_t used1 = cusci_pool_used_bytes(cusci_ctx_pool(ctx));
  if (used1 > used0)
    fprintf(stderr, "cusci-bench: case %s left %zu bytes of the pool in use (%zu before it, %zu after)\n", c->name, used1 - used0, used0, used1);
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
