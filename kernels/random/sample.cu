/*
 * kernels/random/sample.cu: librandom's distributions on the GPU, one
 * thread per group of elements, with the formulas of
 * reference/random/dists.h. Compiled with -fmad=false, so that every
 * operation rounds as on the host.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cusci/core.h>

#include "kernels/random/launch.h"

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(int64_t n)
{
  int64_t b = (n + kThreads - 1) / kThreads;
  if (b > 65535LL * 32)
    b = 65535LL * 32;
  return (unsigned)(b > 0 ? b : 1);
}

template <int DIST, int F32>
__global__ void real_kernel(const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  const int G = cusci__rgroup_size(DIST, F32, &p);
  int64_t groups = (n + G - 1) / G;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    double v[4];
    cusci__rgroup_real(DIST, &p, key, ctr + (uint64_t)g, F32, v);
    int64_t k0 = g * G;
    if (F32) {
      float *d = (float *)dst;
      if (G == 4 && k0 + 4 <= n) {
        *(float4 *)(d + k0) = make_float4((float)v[0], (float)v[1], (float)v[2], (float)v[3]);
      } else {
        for (int i = 0; i < G && k0 + i < n; i++)
          d[k0 + i] = (float)v[i];
      }
    } else {
      double *d = (double *)dst;
      if (G == 2 && k0 + 2 <= n) {
        *(double2 *)(d + k0) = make_double2(v[0], v[1]);
      } else {
        for (int i = 0; i < G && k0 + i < n; i++)
          d[k0 + i] = v[i];
      }
    }
  }
}

template <int DIST, typename T, bool IS_BOOL>
__global__ void int_kernel(const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t n, T *dst)
{
  const int G = cusci__rgroup_size(DIST, 0, &p);
  int64_t groups = (n + G - 1) / G;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    int64_t v[4];
    cusci__rgroup_int(DIST, &p, key, ctr + (uint64_t)g, v);
    int64_t k0 = g * G;
    for (int i = 0; i < G && k0 + i < n; i++)
      dst[k0 + i] = IS_BOOL ? (T)(v[i] != 0) : (T)(uint64_t)v[i];
  }
}

/* below1 is the largest T under 1: 1 - u rounds to 1 for u under half an
 * ulp of 1, and random() must stay in [0, 1). */
template <typename T>
__global__ void flip_kernel(T *dst, int64_t n, double a, double b, bool unit, T below1)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    T v = (T)(a + b * (1.0 - (double)dst[i]));
    dst[i] = unit && v >= (T)1 ? below1 : v;
  }
}

template <int KIND>
__global__ void rows_kernel(const double *v, int64_t k, const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t rows,
                            void *dst)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < rows; g += stride)
    cusci__rrow(KIND, v, k, &p, key, ctr + (uint64_t)g, (double *)dst + g * k, (int64_t *)dst + g * k);
}

template <int DIST>
void launch_real(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst)
{
  int64_t groups = (n + cusci__rgroup_size(DIST, f32, p) - 1) / cusci__rgroup_size(DIST, f32, p);
  if (f32)
    real_kernel<DIST, 1><<<blocks_for(groups), kThreads, 0, s>>>(*p, key, ctr, n, dst);
  else
    real_kernel<DIST, 0><<<blocks_for(groups), kThreads, 0, s>>>(*p, key, ctr, n, dst);
}

template <int DIST, typename T, bool IS_BOOL = false>
void launch_int_t(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  int G = cusci__rgroup_size(DIST, 0, p);
  int_kernel<DIST, T, IS_BOOL><<<blocks_for((n + G - 1) / G), kThreads, 0, s>>>(*p, key, ctr, n, (T *)dst);
}

} // namespace

#define REAL_CASE_(NAME, K) REAL_CASE_##K(NAME)
#define REAL_CASE_R(NAME) \
  case CUSCI__RD_##NAME: launch_real<CUSCI__RD_##NAME>(s, p, key, ctr, f32, n, dst); break;
#define REAL_CASE_I(NAME)

extern "C" int cusci__launch_rreal(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32,
                                   int64_t n, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  switch (dist) {
    CUSCI__RDISTS(REAL_CASE_)
  default:
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

#define INT_CASE_(NAME, K) INT_CASE_##K(NAME)
#define INT_CASE_R(NAME)
#define INT_CASE_I(NAME) \
  case CUSCI__RD_##NAME: launch_int_t<CUSCI__RD_##NAME, int64_t>(s, p, key, ctr, n, dst); break;

extern "C" int cusci__launch_rint(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype,
                                  int64_t n, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  if (dist == CUSCI__RD_INTEGERS) {
    const int D = CUSCI__RD_INTEGERS;
    switch (dtype) {
    case CUSCI_BOOL: launch_int_t<D, uint8_t, true>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT8: case CUSCI_UINT8: launch_int_t<D, uint8_t>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT16: case CUSCI_UINT16: launch_int_t<D, uint16_t>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT32: case CUSCI_UINT32: launch_int_t<D, uint32_t>(s, p, key, ctr, n, dst); break;
    default: launch_int_t<D, uint64_t>(s, p, key, ctr, n, dst); break;
    }
    return (int)cudaGetLastError();
  }
  switch (dist) {
    CUSCI__RDISTS(INT_CASE_)
  default:
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rflip(void *stream, int f32, int64_t n, void *dst, double a, double b)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  bool unit = a == 0.0 && b == 1.0;
  if (f32)
    flip_kernel<float><<<blocks_for(n), kThreads, 0, s>>>((float *)dst, n, a, b, unit, 0x1.fffffep-1f);
  else
    flip_kernel<double><<<blocks_for(n), kThreads, 0, s>>>((double *)dst, n, a, b, unit, 0x1.fffffffffffffp-1);
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rrows(void *stream, int kind, const double *v, int64_t k, const cusci__rparams *p,
                                   uint64_t key, uint64_t ctr, int64_t rows, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (rows == 0 || k == 0)
    return 0;
  switch (kind) {
  case CUSCI__RROW_MULTINOMIAL: rows_kernel<CUSCI__RROW_MULTINOMIAL><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  case CUSCI__RROW_DIRICHLET: rows_kernel<CUSCI__RROW_DIRICHLET><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  case CUSCI__RROW_MVN: rows_kernel<CUSCI__RROW_MVN><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  default: rows_kernel<CUSCI__RROW_MVHYPER><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  }
  return (int)cudaGetLastError();
}
