/*
 * reference/signal/lines.c: the host backend's transform steps
 * (reference.h), in double and in float from one body (lines_body.h).
 */
#include "reference/signal/reference.h"

#include <complex.h>
#include <stdlib.h>

#include "reference/signal/dct_map.h"
#include "reference/signal/fft.h"

/* As CUSCI_MAX_NDIM of core.h. */
#define CUSCI__SIG_MAXD 32

#define CUSCI__SIG_BODY "reference/signal/lines_body.h"
#include "reference/signal/precisions.h"

void *cusci__sig_lines_plan(const cusci__sig_lines *l, bool f32)
{
  return f32 ? plan_f(l) : plan_d(l);
}

void cusci__sig_lines_free(const cusci__sig_lines *l, bool f32, void *plan)
{
  if (plan)
    f32 ? plan_free_f(l, plan) : plan_free_d(l, plan);
}

int cusci__sig_lines_run(const cusci__sig_lines *l, bool f32, const void *plan, const void *src, void *dst)
{
  return f32 ? run_f(l, plan, src, dst) : run_d(l, plan, src, dst);
}
