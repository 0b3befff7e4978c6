/*
 * kernels/random/curand.cu: cuRAND's engines behind librandom's cuRAND
 * generators, on a GPU or through cuRAND's host generator: create,
 * destroy, seed and seek, and the values of one call.
 *
 * cuRAND makes uniforms on (0, 1], normals, log-normals and Poisson
 * variates. Its uniforms become numpy's [0, 1) here (1 - u, then scaled for
 * uniform), by one formula on the GPU and on the host. Compiled with
 * -fmad=false and the host's -ffp-contract=off, so that both round alike.
 */
#include <cuda_runtime.h>
#include <curand.h>
#include <stdint.h>
#include <string.h>

#include <cusci/random.h>

#include "kernels/random/common.cuh"
#include "kernels/random/launch.h"

namespace {

curandRngType_t rng_type(int kind)
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

bool quasi(int kind)
{
  return kind == CUSCI_BITGEN_SOBOL32 || kind == CUSCI_BITGEN_SCRAMBLED_SOBOL32;
}

int code(curandStatus_t s)
{
  return CUSCI_GPU_CODE(CUSCI_GPU_CURAND, (int)s);
}

/* a + b (1 - u): cuRAND's u on (0, 1] turned into numpy's [0, 1) and
 * scaled. For [0, 1) itself (unit), a value that rounds to 1 becomes
 * below1, the largest T below 1. */
template <typename T>
CUSCI_HD T flip(T u, double a, double b, bool unit, T below1)
{
  T v = (T)(a + b * (1.0 - (double)u));
  return unit && v >= (T)1 ? below1 : v;
}

template <typename T>
__global__ void flip_kernel(T *dst, int64_t n, double a, double b, bool unit, T below1)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = flip(dst[i], a, b, unit, below1);
}

/* dst[i] = flip(dst[i]) over n contiguous elements, on the GPU (stream)
 * or the host; 0 or the launch's cudaError_t. */
template <typename T>
int flip_all(bool host, cudaStream_t s, T *dst, int64_t n, double a, double b, T below1)
{
  bool unit = a == 0.0 && b == 1.0;
  if (host) {
    for (int64_t i = 0; i < n; i++)
      dst[i] = flip(dst[i], a, b, unit, below1);
    return 0;
  }
  flip_kernel<T><<<blocks_for(n), kThreads, 0, s>>>(dst, n, a, b, unit, below1);
  return (int)cudaGetLastError();
}

} // namespace

extern "C" int cusci__rengine_create(int kind, int device, void **gen, const char **what)
{
  curandGenerator_t h;
  bool host = device == CUSCI_DEVICE_HOST; /* cuRAND's host generator: the same engines on the CPU */
  curandStatus_t s = host ? curandCreateGeneratorHost(&h, rng_type(kind)) : curandCreateGenerator(&h, rng_type(kind));
  *what = NULL;
  if (s != CURAND_STATUS_SUCCESS) {
    *what = host ? "curandCreateGeneratorHost" : "curandCreateGenerator";
    return code(s);
  }
  *gen = h;
  return 0;
}

extern "C" int cusci__rengine_destroy(void *gen, int device)
{
  if (device == CUSCI_DEVICE_HOST)
    return code(curandDestroyGenerator((curandGenerator_t)gen));
  int cur = -1;
  cudaGetDevice(&cur);
  cudaSetDevice(device);
  curandStatus_t s = curandDestroyGenerator((curandGenerator_t)gen);
  if (cur >= 0)
    cudaSetDevice(cur);
  return code(s);
}

extern "C" int cusci__rengine_seek(void *gen, int kind, uint64_t seed, uint64_t offset, const char **what)
{
  curandGenerator_t h = (curandGenerator_t)gen;
  *what = NULL;
  if (!quasi(kind)) {
    curandStatus_t s = curandSetPseudoRandomGeneratorSeed(h, seed);
    if (s != CURAND_STATUS_SUCCESS) {
      *what = "curandSetPseudoRandomGeneratorSeed";
      return code(s);
    }
  }
  if (kind != CUSCI_BITGEN_MTGP32 && kind != CUSCI_BITGEN_MT19937) {
    curandStatus_t s = curandSetGeneratorOffset(h, offset);
    if (s != CURAND_STATUS_SUCCESS) {
      *what = "curandSetGeneratorOffset";
      return code(s);
    }
  }
  return 0;
}

extern "C" int cusci__launch_rengine(void *stream, void *gen, int device, int dist, const cusci__rparams *p, int f32,
                                     int64_t n, int64_t m, void *buf, void *dst, const char **what)
{
  curandGenerator_t h = (curandGenerator_t)gen;
  cudaStream_t s = (cudaStream_t)stream;
  bool host = device == CUSCI_DEVICE_HOST;
  curandStatus_t st;
  *what = NULL;
  if (!host) {
    st = curandSetStream(h, s);
    if (st != CURAND_STATUS_SUCCESS) {
      *what = "curandSetStream";
      return code(st);
    }
  }
  size_t len = (size_t)m;
  double mean = dist == CUSCI__RD_STANDARD_NORMAL ? 0.0 : p->a;
  double sd = dist == CUSCI__RD_STANDARD_NORMAL ? 1.0 : p->b;
  switch (dist) {
  case CUSCI__RD_RANDOM:
  case CUSCI__RD_UNIFORM:
    *what = "curandGenerateUniform";
    st = f32 ? curandGenerateUniform(h, (float *)buf, len) : curandGenerateUniformDouble(h, (double *)buf, len);
    break;
  case CUSCI__RD_LOGNORMAL:
    *what = "curandGenerateLogNormal";
    st = f32 ? curandGenerateLogNormal(h, (float *)buf, len, (float)mean, (float)sd)
             : curandGenerateLogNormalDouble(h, (double *)buf, len, mean, sd);
    break;
  case CUSCI__RD_POISSON:
    *what = "curandGeneratePoisson";
    st = curandGeneratePoisson(h, (unsigned int *)buf, len, p->a);
    break;
  default:
    *what = "curandGenerateNormal";
    st = f32 ? curandGenerateNormal(h, (float *)buf, len, (float)mean, (float)sd)
             : curandGenerateNormalDouble(h, (double *)buf, len, mean, sd);
    break;
  }
  if (st != CURAND_STATUS_SUCCESS)
    return code(st);
  *what = NULL;
  if (dist == CUSCI__RD_RANDOM || dist == CUSCI__RD_UNIFORM) {
    double lo = dist == CUSCI__RD_RANDOM ? 0.0 : p->a, span = dist == CUSCI__RD_RANDOM ? 1.0 : p->b - p->a;
    int e = f32 ? flip_all<float>(host, s, (float *)buf, m, lo, span, 0x1.fffffep-1f)
                : flip_all<double>(host, s, (double *)buf, m, lo, span, 0x1.fffffffffffffp-1);
    if (e != 0)
      return e;
  }
  if (m == n)
    return 0;
  size_t bytes = (size_t)n * (f32 ? sizeof(float) : sizeof(double));
  if (host) {
    memcpy(dst, buf, bytes);
    return 0;
  }
  cudaError_t e = cudaMemcpyAsync(dst, buf, bytes, cudaMemcpyDeviceToDevice, s);
  if (e != cudaSuccess)
    *what = "cudaMemcpyAsync";
  return (int)e;
}
