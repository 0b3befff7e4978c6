/*
 * kernels/core/ufunc.cuh: the kernel templates of the ufuncs, instantiated
 * per (op, dtype) by ufunc.cu and ufunc_unary.cu with the element
 * functions of reference/core/ufunc_ops.h.
 *
 * Two paths per pair: a flat one for contiguous, 16-byte aligned operands,
 * where each thread loads 16 bytes of every input at once, and a general
 * one that finds each element's offsets in a collapsed strided walk
 * (broadcast operands have stride 0). A scalar input travels in the
 * kernel's parameters (bit k of `mode` set for input k).
 */
#ifndef CUSCI_KERNELS_CORE_UFUNC_CUH
#define CUSCI_KERNELS_CORE_UFUNC_CUH

#include <string.h>

#include <cusci/compute.h>

#include "kernels/core/common.cuh"
#include "reference/core/ufunc_ops.h"

namespace cusci {

template <class T, int N>
struct alignas(sizeof(T) * N) vec_t {
  T v[N];
};

/* Elements per 16-byte vector of the inputs. */
template <class T>
__host__ __device__ constexpr int vec_width()
{
  return sizeof(T) >= 16 ? 1 : (int)(16 / sizeof(T));
}

inline bool aligned_to(const void *p, size_t a)
{
  return p == nullptr || ((uintptr_t)p % a) == 0;
}

/* True when every array operand walks with stride 1 along one axis;
 * scalar inputs (mode bits) do not count. */
inline bool flat_loop(const cusci_loop *l, int mode)
{
  if (l->ndim != 1)
    return false;
  for (int k = 0; k < l->nops; k++)
    if (!(k > 0 && (mode >> (k - 1)) & 1) && l->stride[k][0] != 1)
      return false;
  return true;
}

template <class T>
inline T scalar_of(const void *v)
{
  T x;
  if (v)
    memcpy(&x, v, sizeof x);
  else
    memset(&x, 0, sizeof x);
  return x;
}

/* ------------------------------------------------------------- binary */

template <class F, class T, class O>
__global__ void bin_flat(O *__restrict__ o, const T *__restrict__ a, const T *__restrict__ b, T av, T bv, int mode,
                         int64_t n)
{
  constexpr int N = vec_width<T>();
  F f;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t nv = n / N;
  for (int64_t i = t; i < nv; i += stride) {
    vec_t<T, N> x, y;
    vec_t<O, N> r;
    if (mode & 1) {
#pragma unroll
      for (int k = 0; k < N; k++)
        x.v[k] = av;
    } else {
      x = reinterpret_cast<const vec_t<T, N> *>(a)[i];
    }
    if (mode & 2) {
#pragma unroll
      for (int k = 0; k < N; k++)
        y.v[k] = bv;
    } else {
      y = reinterpret_cast<const vec_t<T, N> *>(b)[i];
    }
#pragma unroll
    for (int k = 0; k < N; k++)
      r.v[k] = f(x.v[k], y.v[k]);
    reinterpret_cast<vec_t<O, N> *>(o)[i] = r;
  }
  for (int64_t i = nv * N + t; i < n; i += stride)
    o[i] = f((mode & 1) ? av : a[i], (mode & 2) ? bv : b[i]);
}

template <class F, class T, class O>
__global__ void bin_strided(O *o, const T *a, const T *b, T av, T bv, int mode, const cusci_loop l)
{
  F f;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {
    int64_t off[3];
    loop_offsets<3>(l, i, off);
    o[off[0]] = f((mode & 1) ? av : a[off[1]], (mode & 2) ? bv : b[off[2]]);
  }
}

template <class F>
int launch2(cudaStream_t s, const cusci_loop *l, void *const *p, const void *const *vals, int mode)
{
  typedef typename F::in_t T;
  typedef typename F::out_t O;
  constexpr int N = vec_width<T>();
  T av = scalar_of<T>((mode & 1) ? vals[0] : nullptr), bv = scalar_of<T>((mode & 2) ? vals[1] : nullptr);
  if (flat_loop(l, mode) && aligned_to(p[0], sizeof(vec_t<O, N>)) && aligned_to(p[1], sizeof(vec_t<T, N>)) &&
      aligned_to(p[2], sizeof(vec_t<T, N>)))
    bin_flat<F, T, O><<<blocks_for(l->size, N), kThreads, 0, s>>>((O *)p[0], (const T *)p[1], (const T *)p[2], av,
                                                                 bv, mode, l->size);
  else
    bin_strided<F, T, O><<<blocks_for(l->size), kThreads, 0, s>>>((O *)p[0], (const T *)p[1], (const T *)p[2], av, bv,
                                                                  mode, *l);
  return launched();
}

/* -------------------------------------------------------------- unary */

template <class F, class T, class O>
__global__ void un_flat(O *__restrict__ o, const T *__restrict__ a, int64_t n)
{
  constexpr int N = vec_width<T>();
  F f;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t nv = n / N;
  for (int64_t i = t; i < nv; i += stride) {
    vec_t<T, N> x = reinterpret_cast<const vec_t<T, N> *>(a)[i];
    vec_t<O, N> r;
#pragma unroll
    for (int k = 0; k < N; k++)
      r.v[k] = f(x.v[k]);
    reinterpret_cast<vec_t<O, N> *>(o)[i] = r;
  }
  for (int64_t i = nv * N + t; i < n; i += stride)
    o[i] = f(a[i]);
}

template <class F, class T, class O>
__global__ void un_strided(O *o, const T *a, const cusci_loop l)
{
  F f;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {
    int64_t off[2];
    loop_offsets<2>(l, i, off);
    o[off[0]] = f(a[off[1]]);
  }
}

template <class F>
int launch1(cudaStream_t s, const cusci_loop *l, void *const *p)
{
  typedef typename F::in_t T;
  typedef typename F::out_t O;
  constexpr int N = vec_width<T>();
  if (flat_loop(l, 0) && aligned_to(p[0], sizeof(vec_t<O, N>)) && aligned_to(p[1], sizeof(vec_t<T, N>)))
    un_flat<F, T, O><<<blocks_for(l->size, N), kThreads, 0, s>>>((O *)p[0], (const T *)p[1], l->size);
  else
    un_strided<F, T, O><<<blocks_for(l->size), kThreads, 0, s>>>((O *)p[0], (const T *)p[1], *l);
  return launched();
}

} // namespace cusci

/* A functor per (op, dtype) calling the shared element function. */
#define CUSCI__FUNCTOR2(D, op, o) CUSCI__FUNCTOR2_(D, op, CUSCI__CT_##D, CUSCI__OT_##o(D))
#define CUSCI__FUNCTOR2_(D, op, T, OT) CUSCI__FUNCTOR2__(D, op, T, OT)
#define CUSCI__FUNCTOR2__(D, op, T, OT)                         \
  struct f2_##op##_##D {                                        \
    typedef T in_t;                                             \
    typedef OT out_t;                                           \
    __device__ __forceinline__ OT operator()(T a, T b) const    \
    {                                                           \
      return cusci__e_##op##_##D(a, b);                         \
    }                                                           \
  };
#define CUSCI__FUNCTOR1(D, op, o) CUSCI__FUNCTOR1_(D, op, CUSCI__CT_##D, CUSCI__OT_##o(D))
#define CUSCI__FUNCTOR1_(D, op, T, OT) CUSCI__FUNCTOR1__(D, op, T, OT)
#define CUSCI__FUNCTOR1__(D, op, T, OT)                         \
  struct f1_##op##_##D {                                        \
    typedef T in_t;                                             \
    typedef OT out_t;                                           \
    __device__ __forceinline__ OT operator()(T x) const         \
    {                                                           \
      return cusci__e_##op##_##D(x);                            \
    }                                                           \
  };

#endif
