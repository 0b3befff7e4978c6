/*
 * kernels/core/ufunc.cu: the binary ufuncs, where and clip on the GPU, one
 * instantiation of the templates in ufunc.cuh per (op, dtype) pair of the
 * table in reference/core/ufunc_ops.h.
 */
#include "kernels/core/launch.h"
#include "kernels/core/ufunc.cuh"

namespace {

using namespace cusci;

#define FUNCTORS2_(NAME, op, o, TL) CUSCI__TL_##TL(CUSCI__FUNCTOR2, op, o)
CUSCI__UF_BINARY(FUNCTORS2_)

/* ------------------------------------------------------------ where */

/* numpy.where by itemsize: a select moves bytes, whatever the dtype. */
template <class T>
__global__ void where_kernel(T *o, const uint8_t *c, const T *x, const T *y, T xv, T yv, int mode, const cusci_loop l)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {
    int64_t off[4];
    loop_offsets<4>(l, i, off);
    o[off[0]] = c[off[1]] ? ((mode & 2) ? xv : x[off[2]]) : ((mode & 4) ? yv : y[off[3]]);
  }
}

template <class T>
__global__ void where_flat(T *__restrict__ o, const uint8_t *__restrict__ c, const T *__restrict__ x,
                           const T *__restrict__ y, T xv, T yv, int mode, int64_t n)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    o[i] = c[i] ? ((mode & 2) ? xv : x[i]) : ((mode & 4) ? yv : y[i]);
}

template <class T>
int launch_where_t(cudaStream_t s, const cusci_loop *l, void *const *p, const void *const *vals, int mode)
{
  T xv = scalar_of<T>((mode & 2) ? vals[1] : nullptr), yv = scalar_of<T>((mode & 4) ? vals[2] : nullptr);
  if (flat_loop(l, mode))
    where_flat<T><<<blocks_for(l->size), kThreads, 0, s>>>((T *)p[0], (const uint8_t *)p[1], (const T *)p[2],
                                                           (const T *)p[3], xv, yv, mode, l->size);
  else
    where_kernel<T><<<blocks_for(l->size), kThreads, 0, s>>>((T *)p[0], (const uint8_t *)p[1], (const T *)p[2],
                                                             (const T *)p[3], xv, yv, mode, *l);
  return launched();
}

/* ------------------------------------------------------------- clip */

template <class F, class T>
__global__ void clip_kernel(T *o, const T *a, const T *lo, const T *hi, T lov, T hiv, int mode, const cusci_loop l)
{
  F f;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {
    int64_t off[4];
    if (l.ndim == 1) {
      for (int k = 0; k < 4; k++)
        off[k] = i * l.stride[k][0];
    } else {
      loop_offsets<4>(l, i, off);
    }
    o[off[0]] = f(a[off[1]], (mode & 2) ? lov : lo[off[2]], (mode & 4) ? hiv : hi[off[3]]);
  }
}

#define CLIPF_(D, op, o) CLIPF__(D, CUSCI__CT_##D)
#define CLIPF__(D, T) CLIPF___(D, T)
#define CLIPF___(D, T)                                                     \
  struct fc_##D {                                                          \
    __device__ __forceinline__ T operator()(T a, T lo, T hi) const         \
    {                                                                      \
      return cusci__e_minimum_##D(hi, cusci__e_maximum_##D(lo, a));        \
    }                                                                      \
  };
CUSCI__TL_REAL(CLIPF_, 0, 0)
/* Complex: clip's own order (CUSCI__CLIP_CMAX in ufunc_ops.h). */
#define CLIPC_(D, op, o) CLIPC__(D, CUSCI__CT_##D)
#define CLIPC__(D, T) CLIPC___(D, T)
#define CLIPC___(D, T)                                                     \
  struct fc_##D {                                                          \
    __device__ __forceinline__ T operator()(T a, T lo, T hi) const         \
    {                                                                      \
      T m = CUSCI__CLIP_CMAX(a, lo);                                       \
      return CUSCI__CLIP_CMIN(m, hi);                                      \
    }                                                                      \
  };
CUSCI__TL_CPLX(CLIPC_, 0, 0)

template <class F, class T>
int launch_clip_t(cudaStream_t s, const cusci_loop *l, void *const *p, const void *const *vals, int mode)
{
  T lov = scalar_of<T>((mode & 2) ? vals[1] : nullptr), hiv = scalar_of<T>((mode & 4) ? vals[2] : nullptr);
  clip_kernel<F, T><<<blocks_for(l->size), kThreads, 0, s>>>((T *)p[0], (const T *)p[1], (const T *)p[2],
                                                             (const T *)p[3], lov, hiv, mode, *l);
  return launched();
}

} // namespace

#define CASE2_(D, op, o) \
  case CUSCI_##D:        \
    return launch2<f2_##op##_##D>((cudaStream_t)stream, loop, ptrs, vals, mode);
#define OPCASE2_(NAME, op, o, TL)   \
  case CUSCI_UFUNC_##NAME:          \
    switch (dtype) {                \
      CUSCI__TL_##TL(CASE2_, op, o) \
    default:                        \
      break;                        \
    }                               \
    break;

extern "C" int cusci__launch_ufunc2(void *stream, int op, int dtype, const cusci_loop *loop, void *const *ptrs,
                                    const void *const *vals, int mode)
{
  if (loop->size == 0)
    return 0;
  switch (op) {
    CUSCI__UF_BINARY(OPCASE2_)
  default:
    break;
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int cusci__launch_where(void *stream, int itemsize, const cusci_loop *loop, void *const *ptrs,
                                   const void *const *vals, int mode)
{
  if (loop->size == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  switch (itemsize) {
  case 1: return launch_where_t<uint8_t>(s, loop, ptrs, vals, mode);
  case 2: return launch_where_t<uint16_t>(s, loop, ptrs, vals, mode);
  case 4: return launch_where_t<uint32_t>(s, loop, ptrs, vals, mode);
  case 8: return launch_where_t<uint64_t>(s, loop, ptrs, vals, mode);
  case 16: return launch_where_t<cusci_c128>(s, loop, ptrs, vals, mode);
  }
  return (int)cudaErrorInvalidValue;
}

#define CASEC_(D, op, o) \
  case CUSCI_##D:        \
    return launch_clip_t<fc_##D, CUSCI__CT_##D>((cudaStream_t)stream, loop, ptrs, vals, mode);

extern "C" int cusci__launch_clip(void *stream, int dtype, const cusci_loop *loop, void *const *ptrs,
                                  const void *const *vals, int mode)
{
  if (loop->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__TL_ALL(CASEC_, 0, 0)
  default:
    break;
  }
  return (int)cudaErrorInvalidValue;
}
