/*
 * reference/signal/lines.c: the host backend's transform steps
 * (reference.h), in double and in float from one body (lines_body.h).
 */
#include "reference/signal/reference.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "reference/signal/dct_map.h"
#include "reference/signal/fft.h"

/* As CUSCI_MAX_NDIM of core.h. */
#define CUSCI__SIG_MAXD 32

#define CUSCI__SIG_BODY "reference/signal/lines_body.h"
#include "reference/signal/precisions.h"

/* A step's plan with the scratch of its runs, made with it, so that a
 * plan's runs allocate nothing. */
typedef struct sig_host_plan {
  void *plan;
  void *scratch;
} sig_host_plan;

void cusci__sig_lines_free(const cusci__sig_lines *l, bool f32, void *plan)
{
  sig_host_plan *h = plan;
  if (!h)
    return;
  if (h->plan)
    f32 ? plan_free_f(l, h->plan) : plan_free_d(l, h->plan);
  free(h->scratch);
  free(h);
}

void *cusci__sig_lines_plan(const cusci__sig_lines *l, bool f32)
{
  sig_host_plan *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  h->plan = f32 ? plan_f(l) : plan_d(l);
  size_t line_bytes;
  if (h->plan)
    h->scratch = malloc(f32 ? scratch_f(l, h->plan, &line_bytes) : scratch_d(l, h->plan, &line_bytes));
  if (!h->scratch) {
    cusci__sig_lines_free(l, f32, h);
    return NULL;
  }
  return h;
}

void cusci__sig_lines_run(const cusci__sig_lines *l, bool f32, void *plan, const void *src, void *dst)
{
  sig_host_plan *h = plan;
  f32 ? run_f(l, h->plan, src, dst, h->scratch) : run_d(l, h->plan, src, dst, h->scratch);
}
