/*
 * bench/cases-compute.c: the core's compute cases: the host time of a small
 * ufunc call (the per-call overhead a C program pays), element-wise
 * throughput on 2^28 float32, reductions of 2^28 float32, argmax and
 * cumsum of 2^26 float32. CuPy's equivalents are in
 * bench/cupy_compute.py under the same names.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

typedef struct ustate {
  cusci_array *a, *b, *out, *rows;
} ustate;

static int setup_n(cusci_ctx *ctx, void **state, double *bytes, double *flops, int64_t n, int with_out, char *why,
                   size_t len)
{
  ustate *s = calloc(1, sizeof *s);
  float two = 2.0f;
  if (cusci_array_arange(ctx, 0, (double)n, 1, CUSCI_FLOAT32, &s->a) != CUSCI_OK ||
      cusci_array_full(ctx, 1, &n, CUSCI_FLOAT32, &two, &s->b) != CUSCI_OK ||
      (with_out && cusci_array_empty(ctx, 1, &n, CUSCI_FLOAT32, &s->out) != CUSCI_OK)) {
    snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
    cusci_array_release(s->a);
    cusci_array_release(s->b);
    free(s);
    return 1;
  }
  *bytes = 3.0 * 4.0 * (double)n;
  *flops = (double)n;
  *state = s;
  return 0;
}

static void teardown(void *state)
{
  ustate *s = state;
  cusci_array_release(s->a);
  cusci_array_release(s->b);
  cusci_array_release(s->out);
  cusci_array_release(s->rows);
  free(s);
}

static int setup_1k(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_n(ctx, state, bytes, flops, 1024, 1, why, len);
}

static int setup_2e28(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_n(ctx, state, bytes, flops, (int64_t)1 << 28, 1, why, len);
}

/* add into a preallocated out, as a loop that reuses its buffers does. */
static int run_add(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_add(ctx, s->a, s->b, &s->out);
}

/* add with a fresh output each call, released at once (the pool's path). */
static int run_add_alloc(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  cusci_array *r = NULL;
  cusci_status st = cusci_add(ctx, s->a, s->b, &r);
  cusci_array_release(r);
  return st;
}

static int setup_scalar_2e28(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  int st = setup_2e28(ctx, state, bytes, flops, why, len);
  *bytes = 2.0 * 4.0 * (double)((int64_t)1 << 28); /* one array read, one written */
  return st;
}

/* a * 2.5 with a weak scalar: no device memory for the scalar. */
static int run_mul_scalar(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(s->a), cusci_operand_float(2.5), &s->out);
}

static int run_exp(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_exp(ctx, s->a, &s->out);
}

static int setup_exp_2e28(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  int st = setup_2e28(ctx, state, bytes, flops, why, len);
  *bytes = 2.0 * 4.0 * (double)((int64_t)1 << 28);
  return st;
}

static int setup_sum_2e28(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  int st = setup_n(ctx, state, bytes, flops, (int64_t)1 << 28, 0, why, len);
  *bytes = 4.0 * (double)((int64_t)1 << 28); /* one array read */
  return st;
}

/* The sum into a preallocated 0-d out. */
static int run_sum(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_sum(ctx, s->a, NULL, &s->out);
}

/* Sums of the 2^14 rows of a 2^14 x 2^14 view. */
static int run_sum_rows(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  if (!s->rows) {
    int64_t shape[2] = {1 << 14, 1 << 14};
    cusci_status st = cusci_array_reshape(ctx, s->a, 2, shape, &s->rows);
    if (st != CUSCI_OK)
      return st;
  }
  int ax = 1;
  cusci_reduce_opts o = {1, &ax, false, 0};
  return cusci_sum(ctx, s->rows, &o, &s->out);
}

/* ------------------------------------------- arg-reductions and scans */

/* 2^26 float32 in no order, sin(i) * 1000; the bytes are one read (argmax)
 * or one read and one write (cumsum). */
static int setup_argscan(cusci_ctx *ctx, void **state, double *bytes, double *flops, double passes, char *why,
                         size_t len)
{
  int64_t n = (int64_t)1 << 26;
  ustate *s = calloc(1, sizeof *s);
  cusci_array *i = NULL, *t = NULL;
  cusci_status st = cusci_array_arange(ctx, 0, (double)n, 1, CUSCI_FLOAT32, &i);
  if (st == CUSCI_OK)
    st = cusci_sin(ctx, i, &t);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(t), cusci_operand_float(1000.0), &s->a);
  cusci_array_release(i);
  cusci_array_release(t);
  if (st != CUSCI_OK) {
    snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
    cusci_array_release(s->a);
    free(s);
    return 1;
  }
  *bytes = passes * 4.0 * (double)n;
  *flops = (double)n;
  *state = s;
  return 0;
}

static int setup_argmax_2e26(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_argscan(ctx, state, bytes, flops, 1.0, why, len);
}

static int setup_cumsum_2e26(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_argscan(ctx, state, bytes, flops, 2.0, why, len);
}

/* argmax of the flattened array into a preallocated 0-d int64 out. */
static int run_argmax(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_argmax(ctx, s->a, NULL, &s->out);
}

/* cumsum into a preallocated float32 out (CUB's scan). */
static int run_cumsum(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_cumsum(ctx, s->a, NULL, &s->out);
}

/* ------------------------------------------- sorting and statistics */

/* The argscan cases' input (sin(i) * 1000, 2^26 float32), read once and
 * written once. */
static int setup_sort_2e26(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_argscan(ctx, state, bytes, flops, 2.0, why, len);
}

static int run_sort(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_sort(ctx, s->a, -1, &s->out);
}

static int run_argsort(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_argsort(ctx, s->a, -1, &s->out);
}

static int run_median_q(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_quantile(ctx, s->a, 0.5, NULL, &s->out);
}

static int run_quantile3(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  static const double q[3] = {0.05, 0.5, 0.95};
  return cusci_quantile_n(ctx, s->a, 3, q, NULL, &s->out);
}

static int run_histogram(cusci_ctx *ctx, void *state)
{
  ustate *s = state;
  return cusci_histogram(ctx, s->a, 100, NULL, &s->out, &s->b);
}

const bench_case bench_cases_compute[] = {
  {"compute.add_f32_1K_host", "add of two 1024-element float32 arrays into out, host time per call", setup_1k,
   run_add, teardown, 1, NULL},
  {"compute.add_f32_1K_alloc_host", "add of 1024 float32, a new output per call, host time per call", setup_1k,
   run_add_alloc, teardown, 1, NULL},
  {"compute.add_f32_2e28", "add of two 2^28-element float32 arrays into out", setup_2e28, run_add, teardown, 0, NULL},
  {"compute.mul_scalar_f32_2e28", "2^28 float32 times a Python float into out", setup_scalar_2e28, run_mul_scalar, teardown,
   0, NULL},
  {"compute.exp_f32_2e28", "exp of 2^28 float32 into out", setup_exp_2e28, run_exp, teardown, 0, NULL},
  {"compute.sum_f32_2e28", "sum of 2^28 float32 (accumulated in double)", setup_sum_2e28, run_sum, teardown, 0, NULL},
  {"compute.sum_rows_f32_2e28", "row sums of a 2^14 x 2^14 float32 array", setup_sum_2e28, run_sum_rows, teardown, 0,
   NULL},
  {"compute.argmax_f32_2e26", "argmax of 2^26 float32 (flattened, int64)", setup_argmax_2e26, run_argmax, teardown, 0,
   NULL},
  {"compute.cumsum_f32_2e26", "cumsum of 2^26 float32 into out", setup_cumsum_2e26, run_cumsum, teardown, 0, NULL},
  {"compute.sort_f32_2e26", "sort of 2^26 float32 (keys alone, NaNs last)", setup_sort_2e26, run_sort, teardown, 0,
   NULL},
  {"compute.argsort_f32_2e26", "argsort of 2^26 float32 (stable, int64)", setup_sort_2e26, run_argsort, teardown, 0,
   NULL},
  {"compute.quantile_f32_2e26", "quantile 0.5 of 2^26 float32", setup_sort_2e26, run_median_q, teardown, 0, NULL},
  {"compute.quantile3_f32_2e26", "quantiles 0.05, 0.5, 0.95 of 2^26 float32", setup_sort_2e26, run_quantile3, teardown,
   0, NULL},
  {"compute.histogram_f32_2e26", "histogram of 2^26 float32, 100 bins over min..max", setup_sort_2e26, run_histogram,
   teardown, 0, NULL},
  {NULL, NULL, NULL, NULL, NULL, 0, NULL},
};

/* ------------------------------------------- users' own kernels */

/*
 * A fused ElementwiseKernel, z = a*x + y*y - 1 on 2^26 float32, against the
 * chain of four ufunc calls that computes the same (each a pass over
 * memory). Both count the bytes of the fused kernel (x, y read, z
 * written), so that their GB/s compare as times.
 */
typedef struct kstate {
  cusci_array *x, *y, *z, *t1, *t2;
  cusci_elementwise_kernel *k;
} kstate;

static void teardown_kernel(void *state)
{
  kstate *s = state;
  cusci_array_release(s->x);
  cusci_array_release(s->y);
  cusci_array_release(s->z);
  cusci_array_release(s->t1);
  cusci_array_release(s->t2);
  cusci_elementwise_kernel_destroy(s->k);
  free(s);
}

static int setup_fused_2e26(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  int64_t n = (int64_t)1 << 26;
  kstate *s = calloc(1, sizeof *s);
  float two = 2.0f;
  cusci_status st = cusci_array_arange(ctx, 0, (double)n, 1, CUSCI_FLOAT32, &s->x);
  if (st == CUSCI_OK)
    st = cusci_array_full(ctx, 1, &n, CUSCI_FLOAT32, &two, &s->y);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 1, &n, CUSCI_FLOAT32, &s->z);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 1, &n, CUSCI_FLOAT32, &s->t1);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 1, &n, CUSCI_FLOAT32, &s->t2);
  if (st == CUSCI_OK)
    st = cusci_elementwise_kernel_create(ctx, "T x, T y, T a", "T z", "z = a * x + y * y - 1", "fused", NULL, &s->k);
  if (st != CUSCI_OK) {
    snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
    teardown_kernel(s);
    return 1;
  }
  *bytes = 3.0 * 4.0 * (double)n;
  *flops = 4.0 * (double)n;
  *state = s;
  return 0;
}

static int run_fused(cusci_ctx *ctx, void *state)
{
  kstate *s = state;
  cusci_operand in[3] = {cusci_operand_array(s->x), cusci_operand_array(s->y), cusci_operand_float(2.5)};
  return cusci_elementwise_kernel_call(ctx, s->k, 3, in, 1, &s->z);
}

static int run_chain(cusci_ctx *ctx, void *state)
{
  kstate *s = state;
  cusci_status st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_MULTIPLY, cusci_operand_array(s->x), cusci_operand_float(2.5),
                                       &s->t1);
  if (st == CUSCI_OK)
    st = cusci_multiply(ctx, s->y, s->y, &s->t2);
  if (st == CUSCI_OK)
    st = cusci_add(ctx, s->t1, s->t2, &s->t1);
  if (st == CUSCI_OK)
    st = cusci_ufunc_binary(ctx, CUSCI_UFUNC_SUBTRACT, cusci_operand_array(s->t1), cusci_operand_int(1), &s->z);
  return st;
}

const bench_case bench_cases_kernel[] = {
  {"compute.ewk_fused_f32_2e26", "ElementwiseKernel z = a*x + y*y - 1 on 2^26 float32 into out", setup_fused_2e26,
   run_fused, teardown_kernel, 0, NULL},
  {"compute.ewk_chain_f32_2e26", "the same as four ufunc calls (multiply, multiply, add, subtract) into out",
   setup_fused_2e26, run_chain, teardown_kernel, 0, NULL},
  {NULL, NULL, NULL, NULL, NULL, 0, NULL},
};
