/*
 * librandom/curand.c: cuRAND's engines behind cusci's generator, on the GPU.
 *
 * On a host context (in a build with CUDA) the engines are cuRAND's host
 * generators, which need no GPU. The cuRAND calls are kernels/random's
 * (curand.cu); this file holds the generator's state, the scratch and the
 * messages. A build without CUDA has the launchers' stand-ins, and no
 * cuRAND engine on the host either.
 *
 * cuRAND makes uniforms on (0, 1], normals, log-normals and Poisson
 * variates; cusci turns its uniforms into numpy's [0, 1) (1 - u, then
 * scaled for uniform) and its uint32 Poisson counts into int64. The other
 * distributions are Philox's alone.
 */
#include "librandom/internal.h"

#include "kernels/random/launch.h"

static bool quasi(cusci_bitgen kind)
{
  return kind == CUSCI_BITGEN_SOBOL32 || kind == CUSCI_BITGEN_SCRAMBLED_SOBOL32;
}

cusci_status cusci__rcurand_create(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  int dev = cusci_ctx_device(ctx);
  if (dev != CUSCI_DEVICE_HOST)
    CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  void *h = NULL;
  const char *what = NULL;
  int e = cusci__rengine_create((int)g->kind, dev, &h, &what);
  if (CUSCI_GPU_CODE_LIB(e) == CUSCI_GPU_NO_CUDA) /* the stand-in: no cuRAND, not even on the host */
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND engines need a build with CUDA");
  if (e != 0)
    return cusci_ctx_gpu_status(ctx, fn, what, e);
  g->curand = h;
  g->device = dev;
  cusci_status st = cusci__rcurand_seek(ctx, fn, g);
  if (st != CUSCI_OK)
    cusci__rcurand_destroy(g);
  return st;
}

void cusci__rcurand_destroy(cusci_random_generator *g)
{
  (void)cusci__rengine_destroy(g->curand, g->device);
  g->curand = NULL;
}

cusci_status cusci__rcurand_seek(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  if (cusci_ctx_device(ctx) != g->device)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "g is a cuRAND generator of device %d, ctx is on %d",
                          g->device, cusci_ctx_device(ctx));
  CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  const char *what = NULL;
  int e = cusci__rengine_seek(g->curand, (int)g->kind, g->seed, g->ctr, &what);
  if (e != 0)
    return cusci_ctx_gpu_status(ctx, fn, what, e);
  if (g->ctr != 0 && (g->kind == CUSCI_BITGEN_MTGP32 || g->kind == CUSCI_BITGEN_MT19937))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND's %s engine cannot seek to an offset",
                          g->kind == CUSCI_BITGEN_MTGP32 ? "MTGP32" : "MT19937");
  return CUSCI_OK;
}

uint64_t cusci__rcurand_consumed(const cusci_random_generator *g, int dist, cusci_dtype dtype, int64_t n)
{
  uint64_t m = (uint64_t)n + 1; /* normals come in pairs */
  if (quasi(g->kind))
    return m; /* one point per value */
  if (dist == CUSCI__RD_POISSON)
    return 4 * m;
  return dtype == CUSCI_FLOAT64 ? 2 * m : m;
}

cusci_status cusci__rcurand_sample(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int dist,
                                   const cusci__rparams *p, cusci_dtype dtype, cusci_array *dst)
{
  int64_t n = cusci_array_size(dst);
  switch (dist) {
  case CUSCI__RD_RANDOM: case CUSCI__RD_UNIFORM: case CUSCI__RD_STANDARD_NORMAL:
  case CUSCI__RD_NORMAL: case CUSCI__RD_LOGNORMAL: case CUSCI__RD_POISSON:
    break;
  default:
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND's engines do not make this distribution; use CUSCI_BITGEN_PHILOX");
  }
  if (n == 0)
    return CUSCI_OK;
  CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  if (g->reseek) {
    CUSCI_TRY(cusci__rcurand_seek(ctx, fn, g));
    g->reseek = false;
  }
  /* Pseudo-random normals come in pairs: an odd count is made one longer
   * in scratch memory. Poisson counts come as uint32. The pool hands the
   * scratch on to later work on this stream only, so it may be released as
   * soon as the engine's work is queued. */
  bool normal = dist == CUSCI__RD_STANDARD_NORMAL || dist == CUSCI__RD_NORMAL || dist == CUSCI__RD_LOGNORMAL;
  int64_t m = normal && !quasi(g->kind) && (n & 1) ? n + 1 : n;
  cusci_array *scratch = NULL;
  void *buf = cusci_array_data(dst);
  if (dist == CUSCI__RD_POISSON || m > n) {
    int64_t len = n + 1;
    cusci_dtype sd = dist == CUSCI__RD_POISSON ? CUSCI_UINT32 : dtype;
    CUSCI_TRY(cusci_array_empty(ctx, 1, &len, sd, &scratch));
    buf = cusci_array_data(scratch);
  }
  const char *what = NULL;
  int e = cusci__launch_rengine(cusci_ctx_stream(ctx), g->curand, g->device, dist, p, dtype == CUSCI_FLOAT32, n, m, buf,
                                cusci_array_data(dst), &what);
  cusci_status st = e != 0 ? cusci_ctx_gpu_status(ctx, fn, what, e) : CUSCI_OK;
  if (st == CUSCI_OK && dist == CUSCI__RD_POISSON) {
    cusci_array *view = NULL;
    int64_t start = 0;
    st = cusci_array_slice(ctx, scratch, &start, &n, NULL, &view);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, view, CUSCI_INT64, true, &dst);
    cusci_array_release(view);
  }
  cusci_array_release(scratch);
  return st;
}
