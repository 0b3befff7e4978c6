/*
 * bench/cases-core.c: the core's benchmark cases: the copy ceiling, astype,
 * the pool against cudaMalloc, host transfers and fragmentation. CuPy's
 * equivalents are in bench/cupy_core.py under the same names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

#ifdef CUSCI_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

typedef struct cstate {
  cusci_pool *vmm_pool; /* set: teardown returns this pool to its upstream */
  cusci_array *a, *out;
  void *host;
  int pinned;
  size_t n;
  size_t peak_used, peak_total;
  int64_t steps;
} cstate;

static int fail(char *why, size_t len, cusci_ctx *ctx, cstate *s)
{
  snprintf(why, len, "%s", cusci_ctx_last_error(ctx));
  if (s) {
    cusci_array_release(s->a);
    cusci_array_release(s->out);
    free(s);
  }
  return 1;
}

static int need_gpu(cusci_ctx *ctx, char *why, size_t len)
{
  if (cusci_ctx_device(ctx) >= 0)
    return 0;
  snprintf(why, len, "needs a GPU");
  return 1;
}

static void teardown(void *state)
{
  cstate *s = state;
  cusci_array_release(s->a);
  cusci_array_release(s->out);
  if (s->vmm_pool)
    cusci_pool_set_vmm(s->vmm_pool, NULL, 0);
  if (s->pinned)
    cusci_host_free_pinned(s->host);
  else
    free(s->host);
  free(s);
}

/* ------------------------------------------- copy and astype, 2^28 */

static int setup_pair(cusci_ctx *ctx, void **state, double *bytes, cusci_dtype from, cusci_dtype to, char *why, size_t len)
{
  cstate *s = calloc(1, sizeof *s);
  int64_t n = (int64_t)1 << 28;
  if (cusci_array_ones(ctx, 1, &n, from, &s->a) != CUSCI_OK || cusci_array_empty(ctx, 1, &n, to, &s->out) != CUSCI_OK)
    return fail(why, len, ctx, s);
  *bytes = (double)n * (double)(cusci_dtype_itemsize(from) + cusci_dtype_itemsize(to));
  *state = s;
  return 0;
}

static int setup_copy(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_pair(ctx, state, bytes, CUSCI_FLOAT32, CUSCI_FLOAT32, why, len);
}

static int run_copy(cusci_ctx *ctx, void *state)
{
  cstate *s = state;
  return cusci_array_copy(ctx, s->a, &s->out);
}

static int setup_astype(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_pair(ctx, state, bytes, CUSCI_FLOAT64, CUSCI_FLOAT32, why, len);
}

static int run_astype(cusci_ctx *ctx, void *state)
{
  cstate *s = state;
  return cusci_array_astype(ctx, s->a, CUSCI_FLOAT32, true, &s->out);
}

/* ------------------------------------------------ allocation, 1 MB */

static int setup_alloc(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  cstate *s = calloc(1, sizeof *s);
  s->n = 1 << 20;
  *state = s;
  return 0;
}

static int run_pool(cusci_ctx *ctx, void *state)
{
  int64_t n = 1 << 20;
  cusci_array *a = NULL;
  cusci_status st = cusci_array_empty(ctx, 1, &n, CUSCI_UINT8, &a);
  cusci_array_release(a);
  return st;
}

/* Cases that call the CUDA runtime themselves: a GPU context and a CUDA
 * build, else 1 and why not. */
static int need_cuda(cusci_ctx *ctx, char *why, size_t len)
{
#ifdef CUSCI_BENCH_CUDA
  return need_gpu(ctx, why, len);
#else
  (void)ctx;
  snprintf(why, len, "built without CUDA");
  return 1;
#endif
}

static int setup_cudamalloc(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  if (need_cuda(ctx, why, len))
    return 1;
  return setup_alloc(ctx, state, bytes, flops, why, len);
}

static int run_cudamalloc(cusci_ctx *ctx, void *state)
{
#ifdef CUSCI_BENCH_CUDA
  void *p = NULL;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess)
    return CUSCI_ERR_OUT_OF_MEMORY;
  cudaFree(p);
#endif
  return CUSCI_OK;
}

/* The floor under any call that launches a kernel: cudaLaunchKernel of an
 * empty kernel (loaded from PTX) on the context's stream, host time. */
#ifdef CUSCI_BENCH_CUDA
static const char empty_ptx[] = ".version 7.0\n.target sm_52\n.address_size 64\n"
                                ".visible .entry cusci_bench_empty()\n{\n\tret;\n}\n";
static cudaLibrary_t empty_lib;
static cudaKernel_t empty_kernel;
#endif

static int setup_launch(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  if (need_cuda(ctx, why, len))
    return 1;
#ifdef CUSCI_BENCH_CUDA
  if (!empty_kernel && (cudaLibraryLoadData(&empty_lib, empty_ptx, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess ||
                        cudaLibraryGetKernel(&empty_kernel, empty_lib, "cusci_bench_empty") != cudaSuccess)) {
    snprintf(why, len, "could not load the empty kernel");
    return 1;
  }
#endif
  return setup_alloc(ctx, state, bytes, flops, why, len);
}

static int run_launch(cusci_ctx *ctx, void *state)
{
  (void)state;
#ifdef CUSCI_BENCH_CUDA
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  if (cudaLaunchKernel((const void *)empty_kernel, grid, block, NULL, 0, (cudaStream_t)cusci_ctx_stream(ctx)) != cudaSuccess)
    return CUSCI_ERR_CUDA;
#endif
  return CUSCI_OK;
}

/* ----------------------------------------------- transfers, 256 MB */

static int setup_transfer(cusci_ctx *ctx, void **state, double *bytes, int pinned, char *why, size_t len)
{
  if (need_gpu(ctx, why, len))
    return 1;
  cstate *s = calloc(1, sizeof *s);
  s->n = (size_t)256 << 20;
  s->pinned = pinned;
  if (pinned) {
    if (cusci_host_alloc_pinned(s->n, &s->host) != CUSCI_OK) {
      snprintf(why, len, "no pinned memory");
      free(s);
      return 1;
    }
  } else {
    s->host = malloc(s->n);
  }
  memset(s->host, 0x5a, s->n); /* touch every page */
  int64_t n = (int64_t)s->n;
  if (cusci_array_empty(ctx, 1, &n, CUSCI_UINT8, &s->a) != CUSCI_OK)
    return fail(why, len, ctx, s);
  *bytes = (double)s->n;
  *state = s;
  return 0;
}

static int setup_h2d_pageable(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_transfer(ctx, state, bytes, 0, why, len);
}

static int setup_h2d_pinned(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  return setup_transfer(ctx, state, bytes, 1, why, len);
}

static int run_h2d(cusci_ctx *ctx, void *state)
{
  cstate *s = state;
  int64_t n = (int64_t)s->n;
  return cusci_array_from_host(ctx, s->host, 1, &n, CUSCI_UINT8, &s->a);
}

static int run_d2h(cusci_ctx *ctx, void *state)
{
  cstate *s = state;
  return cusci_array_to_host(ctx, s->a, s->host, s->n);
}

/* --------------------------------------------------- fragmentation */

/*
 * A loop of the kind that makes a caching allocator hold far more than it
 * uses: large temporaries of changing, mostly growing sizes, each followed
 * by a small result that is kept (16 of them live at a time).
 */
static int setup_frag(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  cstate *s = calloc(1, sizeof *s);
  cusci_pool_free_all_blocks(cusci_ctx_pool(ctx));
  *state = s;
  return 0;
}

/* The same loop with the device pool's large requests in virtual memory. */
static int setup_frag_vmm(cusci_ctx *ctx, void **state, double *bytes, double *flops, char *why, size_t len)
{
  if (need_gpu(ctx, why, len))
    return 1;
  cusci_vmm_ops ops;
  size_t total = 0;
  cusci_pool *p = cusci_ctx_pool(ctx);
  cusci_device_memory(cusci_ctx_device(ctx), NULL, &total);
  cusci_ctx_synchronize(ctx);
  if (cusci_vmm_builtin(cusci_ctx_device(ctx), &ops) != CUSCI_OK || cusci_pool_set_vmm(p, &ops, 2 * total) != CUSCI_OK) {
    snprintf(why, len, "no virtual memory: %s", cusci_pool_last_error(p));
    return 1;
  }
  cstate *s = calloc(1, sizeof *s);
  s->vmm_pool = p;
  *state = s;
  return 0;
}

static void frag_track(cusci_ctx *ctx, cstate *s)
{
  cusci_pool *p = cusci_ctx_pool(ctx);
  if (cusci_pool_used_bytes(p) > s->peak_used)
    s->peak_used = cusci_pool_used_bytes(p);
  if (cusci_pool_total_bytes(p) > s->peak_total)
    s->peak_total = cusci_pool_total_bytes(p);
}

static int run_frag(cusci_ctx *ctx, void *state)
{
  cstate *s = state;
  cusci_array *keep[16] = {NULL};
  cusci_status st = CUSCI_OK;
  int scale = cusci_ctx_device(ctx) >= 0 ? 1 : 16; /* smaller on the host */
  for (int64_t i = 0; i < 64 && st == CUSCI_OK; i++, s->steps++) {
    int64_t big = ((64 << 20) * (1 + (i * 5) % 9) + (i << 20)) / scale, small = (512 << 10) / scale;
    cusci_array *t = NULL;
    st = cusci_array_empty(ctx, 1, &big, CUSCI_UINT8, &t);
    if (st == CUSCI_OK) {
      cusci_array_release(keep[i % 16]);
      keep[i % 16] = NULL;
      st = cusci_array_empty(ctx, 1, &small, CUSCI_UINT8, &keep[i % 16]);
    }
    frag_track(ctx, s);
    cusci_array_release(t);
  }
  for (int i = 0; i < 16; i++)
    cusci_array_release(keep[i]);
  return st;
}

static void report_frag(cusci_ctx *ctx, void *state, char *json, size_t len)
{
  cstate *s = state;
  snprintf(json, len, ", \"peak_used_MB\": %.1f, \"peak_total_MB\": %.1f, \"total_over_used\": %.3f",
           s->peak_used / 1048576.0, s->peak_total / 1048576.0,
           s->peak_used ? (double)s->peak_total / (double)s->peak_used : 0.0);
}

const bench_case bench_cases_core[] = {
  {"core.copy_f32_2e28", "device-to-device copy of 2^28 float32 (the ceiling)", setup_copy, run_copy, teardown, 0, NULL},
  {"core.astype_f64_f32_2e28", "astype float64 -> float32, 2^28 elements", setup_astype, run_astype, teardown, 0, NULL},
  {"core.pool_alloc_free_1MB", "array of 1 MB from the pool and released (host time)", setup_alloc, run_pool, teardown,
   1, NULL},
  {"core.cudamalloc_free_1MB", "cudaMalloc + cudaFree of 1 MB (host time)", setup_cudamalloc, run_cudamalloc, teardown,
   1, NULL},
  {"core.launch_empty_host", "cudaLaunchKernel of an empty kernel (host time): the floor of a launching call", setup_launch,
   run_launch, teardown, 1, NULL},
  {"core.h2d_pageable_256MB", "from_host of 256 MB of malloc'ed memory", setup_h2d_pageable, run_h2d, teardown, 0, NULL},
  {"core.h2d_pinned_256MB", "from_host of 256 MB of pinned memory", setup_h2d_pinned, run_h2d, teardown, 0, NULL},
  {"core.d2h_pageable_256MB", "to_host of 256 MB into malloc'ed memory", setup_h2d_pageable, run_d2h, teardown, 0, NULL},
  {"core.d2h_pinned_256MB", "to_host of 256 MB into pinned memory", setup_h2d_pinned, run_d2h, teardown, 0, NULL},
  {"core.fragmentation", "64 temporaries of changing sizes with small results kept: pool held / used",
   setup_frag, run_frag, teardown, 0, report_frag},
  {"core.fragmentation_vmm", "the fragmentation loop with large blocks in virtual memory (CUDA VMM)", setup_frag_vmm,
   run_frag, teardown, 0, report_frag},
  {NULL, NULL, NULL, NULL, NULL, 0, NULL},
};
