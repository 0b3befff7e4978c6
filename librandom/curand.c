/*
 * librandom/curand.c: cuRAND's engines behind cusci's generator, on the GPU.
 *
 * On a host context (in a build with CUDA) the engines are cuRAND's host
 * generators, which need no GPU.
 *
 * cuRAND makes uniforms on (0, 1], normals, log-normals and Poisson
 * variates; cusci turns its uniforms into numpy's [0, 1) (1 - u, then
 * scaled for uniform) and its uint32 Poisson counts into int64. The other
 * distributions are Philox's alone.
 */
#include "librandom/internal.h"

#ifdef CUSCI_HAVE_CUDA

#include <string.h>

#include <cuda_runtime_api.h>
#include <curand.h>

#include "kernels/random/launch.h"

static cusci_status curand_fail(cusci_ctx *ctx, const char *fn, const char *what, curandStatus_t s)
{
  return cusci_ctx_gpu_status(ctx, fn, what, CUSCI_GPU_CODE(CUSCI_GPU_CURAND, (int)s));
}

static curandRngType_t rng_type(cusci_bitgen kind)
{
  switch (kind) {
  case CUSCI_BITGEN_XORWOW: return CURAND_RNG_PSEUDO_XORWOW;
  case CUSCI_BITGEN_MRG32K3A: return CURAND_RNG_PSEUDO_MRG32K3A;
  case CUSCI_BITGEN_MTGP32: return CURAND_RNG_PSEUDO_MTGP32;
  case CUSCI_BITGEN_MT19937: return CURAND_RNG_PSEUDO_MT19937;
  case CUSCI_BITGEN_SOBOL32: return CURAND_RNG_QUASI_SOBOL32;
  default: return CURAND_RNG_QUASI_SCRAMBLED_SOBOL32;
  }
}

static bool quasi(cusci_bitgen kind)
{
  return kind == CUSCI_BITGEN_SOBOL32 || kind == CUSCI_BITGEN_SCRAMBLED_SOBOL32;
}

cusci_status cusci__rcurand_create(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  int dev = cusci_ctx_device(ctx);
  curandGenerator_t h;
  curandStatus_t s;
  if (dev == CUSCI_DEVICE_HOST) { /* cuRAND's host generator: the same engines on the CPU */
    s = curandCreateGeneratorHost(&h, rng_type(g->kind));
    if (s != CURAND_STATUS_SUCCESS)
      return curand_fail(ctx, fn, "curandCreateGeneratorHost", s);
  } else {
    CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
    s = curandCreateGenerator(&h, rng_type(g->kind));
    if (s != CURAND_STATUS_SUCCESS)
      return curand_fail(ctx, fn, "curandCreateGenerator", s);
  }
  g->curand = h;
  g->device = dev;
  cusci_status st = cusci__rcurand_seek(ctx, fn, g);
  if (st != CUSCI_OK) {
    curandDestroyGenerator(h);
    g->curand = NULL;
  }
  return st;
}

void cusci__rcurand_destroy(cusci_random_generator *g)
{
  if (g->device == CUSCI_DEVICE_HOST) {
    curandDestroyGenerator((curandGenerator_t)g->curand);
    g->curand = NULL;
    return;
  }
  int cur = -1;
  cudaGetDevice(&cur);
  cudaSetDevice(g->device);
  curandDestroyGenerator((curandGenerator_t)g->curand);
  if (cur >= 0)
    cudaSetDevice(cur);
  g->curand = NULL;
}

cusci_status cusci__rcurand_seek(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  curandGenerator_t h = (curandGenerator_t)g->curand;
  curandStatus_t s;
  if (cusci_ctx_device(ctx) != g->device)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "g is a cuRAND generator of device %d, ctx is on %d",
                          g->device, cusci_ctx_device(ctx));
  CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  if (!quasi(g->kind)) {
    s = curandSetPseudoRandomGeneratorSeed(h, g->seed);
    if (s != CURAND_STATUS_SUCCESS)
      return curand_fail(ctx, fn, "curandSetPseudoRandomGeneratorSeed", s);
  }
  if (g->ctr != 0 && (g->kind == CUSCI_BITGEN_MTGP32 || g->kind == CUSCI_BITGEN_MT19937))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND's %s engine cannot seek to an offset",
                          g->kind == CUSCI_BITGEN_MTGP32 ? "MTGP32" : "MT19937");
  if (g->kind != CUSCI_BITGEN_MTGP32 && g->kind != CUSCI_BITGEN_MT19937) {
    s = curandSetGeneratorOffset(h, g->ctr);
    if (s != CURAND_STATUS_SUCCESS)
      return curand_fail(ctx, fn, "curandSetGeneratorOffset", s);
  }
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
  curandGenerator_t h = (curandGenerator_t)g->curand;
  size_t n = (size_t)cusci_array_size(dst);
  bool f32 = dtype == CUSCI_FLOAT32;
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
  bool host = g->device == CUSCI_DEVICE_HOST;
  curandStatus_t s = host ? CURAND_STATUS_SUCCESS : curandSetStream(h, (cudaStream_t)cusci_ctx_stream(ctx));
  if (s != CURAND_STATUS_SUCCESS)
    return curand_fail(ctx, fn, "curandSetStream", s);
  /* Pseudo-random normals come in pairs: an odd count is made one longer
   * in scratch memory. Poisson counts come as uint32. The pool hands the
   * scratch on to later work on this stream only, so it may be released as
   * soon as the engine's work is queued. */
  bool normal = dist == CUSCI__RD_STANDARD_NORMAL || dist == CUSCI__RD_NORMAL || dist == CUSCI__RD_LOGNORMAL;
  cusci_array *scratch = NULL;
  void *buf = cusci_array_data(dst);
  if (dist == CUSCI__RD_POISSON || (normal && !quasi(g->kind) && (n & 1))) {
    int64_t m = (int64_t)n + 1;
    cusci_dtype sd = dist == CUSCI__RD_POISSON ? CUSCI_UINT32 : dtype;
    CUSCI_TRY(cusci_array_empty(ctx, 1, &m, sd, &scratch));
    buf = cusci_array_data(scratch);
  }
  size_t gen_n = (normal && !quasi(g->kind) && (n & 1)) ? n + 1 : n;
  double mean = dist == CUSCI__RD_STANDARD_NORMAL ? 0.0 : p->a;
  double sd = dist == CUSCI__RD_STANDARD_NORMAL ? 1.0 : p->b;
  const char *what = "curandGenerate";
  switch (dist) {
  case CUSCI__RD_RANDOM:
  case CUSCI__RD_UNIFORM:
    what = "curandGenerateUniform";
    s = f32 ? curandGenerateUniform(h, buf, n) : curandGenerateUniformDouble(h, buf, n);
    if (s == CURAND_STATUS_SUCCESS && host) { /* the flip of kernels/random/sample.cu, on the host */
      double lo = dist == CUSCI__RD_RANDOM ? 0.0 : p->a, span = dist == CUSCI__RD_RANDOM ? 1.0 : p->b - p->a;
      bool unit = lo == 0.0 && span == 1.0;
      for (size_t i = 0; i < n; i++) {
        if (f32) {
          float v = (float)(lo + span * (1.0 - (double)((float *)buf)[i]));
          ((float *)buf)[i] = unit && v >= 1.0f ? 0x1.fffffep-1f : v;
        } else {
          double v = lo + span * (1.0 - ((double *)buf)[i]);
          ((double *)buf)[i] = unit && v >= 1.0 ? 0x1.fffffffffffffp-1 : v;
        }
      }
    } else if (s == CURAND_STATUS_SUCCESS) {
      double lo = dist == CUSCI__RD_RANDOM ? 0.0 : p->a, span = dist == CUSCI__RD_RANDOM ? 1.0 : p->b - p->a;
      int e = cusci__launch_rflip(cusci_ctx_stream(ctx), f32, (int64_t)n, buf, lo, span);
      if (e != 0) {
        cusci_array_release(scratch);
        return cusci_ctx_gpu_status(ctx, fn, NULL, e);
      }
    }
    break;
  case CUSCI__RD_LOGNORMAL:
    what = "curandGenerateLogNormal";
    s = f32 ? curandGenerateLogNormal(h, buf, gen_n, (float)mean, (float)sd)
            : curandGenerateLogNormalDouble(h, buf, gen_n, mean, sd);
    break;
  case CUSCI__RD_POISSON:
    what = "curandGeneratePoisson";
    s = curandGeneratePoisson(h, buf, n, p->a);
    break;
  default:
    what = "curandGenerateNormal";
    s = f32 ? curandGenerateNormal(h, buf, gen_n, (float)mean, (float)sd)
            : curandGenerateNormalDouble(h, buf, gen_n, mean, sd);
    break;
  }
  cusci_status st = CUSCI_OK;
  if (s != CURAND_STATUS_SUCCESS) {
    st = curand_fail(ctx, fn, what, s);
  } else if (scratch && dist == CUSCI__RD_POISSON) {
    cusci_array *view = NULL;
    int64_t start = 0, stop = (int64_t)n;
    st = cusci_array_slice(ctx, scratch, &start, &stop, NULL, &view);
    if (st == CUSCI_OK)
      st = cusci_array_astype(ctx, view, CUSCI_INT64, true, &dst);
    cusci_array_release(view);
  } else if (scratch && host) {
    memcpy(cusci_array_data(dst), buf, n * cusci_dtype_itemsize(dtype));
  } else if (scratch) {
    cudaError_t e = cudaMemcpyAsync(cusci_array_data(dst), buf, n * cusci_dtype_itemsize(dtype),
                                    cudaMemcpyDeviceToDevice, (cudaStream_t)cusci_ctx_stream(ctx));
    if (e != cudaSuccess)
      st = cusci_ctx_gpu_status(ctx, fn, "cudaMemcpyAsync", (int)e);
  }
  cusci_array_release(scratch);
  return st;
}

#else /* no CUDA */

uint64_t cusci__rcurand_consumed(const cusci_random_generator *g, int dist, cusci_dtype dtype, int64_t n)
{
  (void)g, (void)dist, (void)dtype;
  return (uint64_t)n;
}

cusci_status cusci__rcurand_create(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  (void)g;
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND engines need a build with CUDA");
}

void cusci__rcurand_destroy(cusci_random_generator *g)
{
  g->curand = NULL;
}

cusci_status cusci__rcurand_seek(cusci_ctx *ctx, const char *fn, cusci_random_generator *g)
{
  (void)g;
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND engines need a build with CUDA");
}

cusci_status cusci__rcurand_sample(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int dist,
                                   const cusci__rparams *p, cusci_dtype dtype, cusci_array *dst)
{
  (void)g, (void)dist, (void)p, (void)dtype, (void)dst;
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND engines need a build with CUDA");
}

#endif
