/*
 * bench/cases-random.c: librandom's benchmark cases. The output array is
 * made once in setup and refilled by every run (no allocation in the loop).
 * Bytes are those written (a generator reads nothing); CuPy's equivalents
 * are in bench/cupy_random.py under the same names.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

typedef struct rstate {
  cusci_random_generator *g;
  cusci_array *out;
} rstate;

typedef enum { U_F32, N_F32, U_F64, N_F64, INT_I64, POIS5, POIS100, GAMMA2_F32, BINOM_F64, XORWOW_U_F32, XORWOW_N_F32 } rkind;

static int setup_kind(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t why_len,
                      rkind kind, int64_t n, cusci_dtype dt)
{
  rstate *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(why, why_len, "no memory");
    return 1;
  }
  cusci_bitgen bg = kind == XORWOW_U_F32 || kind == XORWOW_N_F32 ? CUSCI_BITGEN_XORWOW : CUSCI_BITGEN_PHILOX;
  cusci_status st = cusci_random_generator_create(ctx, bg, 2385, &s->g);
  if (st == CUSCI_OK)
    st = cusci_array_empty(ctx, 1, &n, dt, &s->out);
  if (st != CUSCI_OK) {
    snprintf(why, why_len, "%s", cusci_ctx_last_error(ctx));
    cusci_random_generator_destroy(s->g);
    free(s);
    return 1;
  }
  *bytes = (double)n * (double)cusci_dtype_itemsize(dt);
  *flops = 0;
  *state = s;
  return 0;
}

static void teardown(void *state)
{
  rstate *s = state;
  cusci_array_release(s->out);
  cusci_random_generator_destroy(s->g);
  free(s);
}

#define CASE(NAME, KIND, N, DT, CALL)                                                                    \
  static int setup_##NAME(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t wl) \
  {                                                                                                      \
    return setup_kind(ctx, state, bytes, flops, why, wl, KIND, N, DT);                                   \
  }                                                                                                      \
  static int run_##NAME(cusci_ctx *ctx, void *state)                                                     \
  {                                                                                                      \
    rstate *s = state;                                                                                   \
    int64_t n = cusci_array_size(s->out);                                                                \
    return CALL;                                                                                         \
  }

CASE(uniform_f32, U_F32, INT64_C(1) << 28, CUSCI_FLOAT32, cusci_random_random(ctx, s->g, 1, &n, CUSCI_FLOAT32, &s->out))
CASE(normal_f32, N_F32, INT64_C(1) << 28, CUSCI_FLOAT32,
     cusci_random_standard_normal(ctx, s->g, 1, &n, CUSCI_FLOAT32, &s->out))
CASE(uniform_f64, U_F64, INT64_C(1) << 27, CUSCI_FLOAT64, cusci_random_random(ctx, s->g, 1, &n, CUSCI_FLOAT64, &s->out))
CASE(normal_f64, N_F64, INT64_C(1) << 27, CUSCI_FLOAT64,
     cusci_random_standard_normal(ctx, s->g, 1, &n, CUSCI_FLOAT64, &s->out))
CASE(integers_i64, INT_I64, INT64_C(1) << 26, CUSCI_INT64,
     cusci_random_integers(ctx, s->g, 0, 1000000, false, 1, &n, CUSCI_INT64, &s->out))
CASE(poisson5, POIS5, INT64_C(1) << 26, CUSCI_INT64, cusci_random_poisson(ctx, s->g, 5.0, 1, &n, &s->out))
CASE(poisson100, POIS100, INT64_C(1) << 26, CUSCI_INT64, cusci_random_poisson(ctx, s->g, 100.0, 1, &n, &s->out))
CASE(gamma2_f32, GAMMA2_F32, INT64_C(1) << 26, CUSCI_FLOAT32,
     cusci_random_standard_gamma(ctx, s->g, 2.0, 1, &n, CUSCI_FLOAT32, &s->out))
CASE(binomial, BINOM_F64, INT64_C(1) << 26, CUSCI_INT64, cusci_random_binomial(ctx, s->g, 100, 0.4, 1, &n, &s->out))
CASE(xorwow_uniform_f32, XORWOW_U_F32, INT64_C(1) << 28, CUSCI_FLOAT32,
     cusci_random_random(ctx, s->g, 1, &n, CUSCI_FLOAT32, &s->out))
CASE(xorwow_normal_f32, XORWOW_N_F32, INT64_C(1) << 28, CUSCI_FLOAT32,
     cusci_random_standard_normal(ctx, s->g, 1, &n, CUSCI_FLOAT32, &s->out))

const bench_case bench_cases_random[] = {
  {"random.uniform_f32_2e28", "Philox random() float32, 2^28 elements", setup_uniform_f32, run_uniform_f32, teardown, 0, NULL},
  {"random.standard_normal_f32_2e28", "Philox standard_normal float32, 2^28", setup_normal_f32, run_normal_f32, teardown, 0, NULL},
  {"random.uniform_f64_2e27", "Philox random() float64, 2^27", setup_uniform_f64, run_uniform_f64, teardown, 0, NULL},
  {"random.standard_normal_f64_2e27", "Philox standard_normal float64, 2^27", setup_normal_f64, run_normal_f64, teardown, 0, NULL},
  {"random.integers_i64_2e26", "Philox integers(0, 10^6) int64, 2^26", setup_integers_i64, run_integers_i64, teardown, 0, NULL},
  {"random.poisson5_2e26", "Philox poisson(5) int64, 2^26", setup_poisson5, run_poisson5, teardown, 0, NULL},
  {"random.poisson100_2e26", "Philox poisson(100) int64, 2^26", setup_poisson100, run_poisson100, teardown, 0, NULL},
  {"random.gamma2_f32_2e26", "Philox standard_gamma(2) float32, 2^26", setup_gamma2_f32, run_gamma2_f32, teardown, 0, NULL},
  {"random.binomial_100_0.4_2e26", "Philox binomial(100, 0.4) int64, 2^26", setup_binomial, run_binomial, teardown, 0, NULL},
  {"random.xorwow_uniform_f32_2e28", "cuRAND XORWOW random() float32, 2^28", setup_xorwow_uniform_f32,
   run_xorwow_uniform_f32, teardown, 0, NULL},
  {"random.xorwow_normal_f32_2e28", "cuRAND XORWOW standard_normal float32, 2^28", setup_xorwow_normal_f32,
   run_xorwow_normal_f32, teardown, 0, NULL},
  {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
