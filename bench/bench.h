/*
 * bench/bench.h: a benchmark case, as cusci-bench runs it.
 *
 * Each module adds a NULL-terminated table of cases in bench/cases-<module>.c
 * and registers it in bench/main.c. cusci-bench calls setup once, run a few
 * times to warm up, then times loops of run calls, each loop ended by one
 * cusci_ctx_synchronize, with events on the context's stream (a host clock
 * on a host context), and prints one JSON line per case.
 */
#ifndef CUSCI_BENCH_H
#define CUSCI_BENCH_H

#include <cusci/cusci.h>

typedef struct bench_case {
  const char *name; /* "core.astype_f64_f32", <module>.<what> */
  const char *desc; /* one line */
  /*
   * Make the inputs; *state is passed to run and teardown. Set *bytes to
   * the bytes one call must move through device memory (each input read
   * once, each output written once) and *flops to its floating-point
   * operations, 0 where not meaningful. Returns 0, or nonzero to skip the
   * case (e.g. no GPU) with a reason in `why`.
   */
  int (*setup)(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t why_len);
  /* One call of the operation measured; returns a cusci_status. */
  int (*run)(cusci_ctx *ctx, void *state);
  void (*teardown)(void *state);
  /* When nonzero, time the host side of a call (no synchronisation per
   * call): the per-call overhead that a C program pays. */
  int host_time;
  /* Optional: extra JSON fields (",\"ratio\": 1.02") about the run, written
   * after timing, e.g. memory held over memory used. */
  void (*report)(cusci_ctx *ctx, void *state, char *json, size_t len);
} bench_case;

#endif
