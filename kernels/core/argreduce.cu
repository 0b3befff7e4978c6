/*
 * kernels/core/argreduce.cu: argmax, argmin and their NaN variants on the
 * GPU, with the pairs and steps of reference/core/arg_ops.h, and the gather
 * of the chosen elements (complex min and max).
 *
 * Stage 1: block (g, m) reduces chunk g of the reduced elements of kept
 * element m into one (value, index) pair; stage 2 combines the chunks'
 * pairs of each m and writes the index. The combination is a total order
 * on (value, index), so the result is the host's, exactly, whatever the
 * order of the tree.
 */
#include <cusci/core.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include "reference/core/arg_ops.h"
#include "reference/core/reduce_ops.h"

namespace {

using namespace cusci;

#define KIND_(K, A)                                                                                     \
  struct kind_##K {                                                                                     \
    typedef cusci__apair_##K P;                                                                         \
    __device__ static P init() { return cusci__ainit_##K(); }                                           \
    __device__ static P load(int op, A x, int64_t r) { return cusci__aload_##K(op, x, r); }             \
    __device__ static P comb(int op, P p, P q) { return cusci__acomb_##K(op, p, q); }                   \
    __device__ static int64_t final(int op, P p) { return cusci__afinal_##K(op, p); }                   \
  };
KIND_(I, int64_t)
KIND_(U, uint64_t)
KIND_(F, double)
KIND_(C, cusci_c128)

__device__ __forceinline__ int64_t offset_of(const cusci_loop &l, int k, int64_t i)
{
  int64_t off = 0;
  for (int d = l.ndim - 1; d >= 0; d--) {
    int64_t n = l.shape[d];
    int64_t q = i / n;
    off += (i - q * n) * l.stride[k][d];
    i = q;
  }
  return off;
}

/* Tree combination of one pair per thread in shared memory. */
template <class KD>
__device__ typename KD::P block_comb(int op, typename KD::P p)
{
  typedef typename KD::P P;
  __shared__ P sh[kThreads];
  sh[threadIdx.x] = p;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s)
      sh[threadIdx.x] = KD::comb(op, sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  P r = sh[0];
  __syncthreads();
  return r;
}

template <class T, class KD, class L>
__global__ void arg_stage1(int op, const T *in, typename KD::P *part, const cusci_loop kept, const cusci_loop red,
                           int64_t chunk, int nchunks)
{
  typedef typename KD::P P;
  L load;
  for (int64_t m = blockIdx.y; m < kept.size; m += gridDim.y) {
    const T *base = in + offset_of(kept, 1, m);
    P p = KD::init();
    int64_t lo = (int64_t)blockIdx.x * chunk, hi = lo + chunk < red.size ? lo + chunk : red.size;
    int64_t bd = blockDim.x, r = lo + threadIdx.x;
    if (red.ndim == 1 && red.stride[0][0] == 1 && sizeof(T) <= 8) {
      /* Contiguous: 16-byte vectors from the first 16-byte boundary, two
       * in flight per thread; the head and tail one element at a time. */
      constexpr int V = sizeof(T) <= 8 ? 16 / (int)sizeof(T) : 1;
      uintptr_t addr = (uintptr_t)(base + lo);
      int64_t head = (int64_t)(((16 - (addr & 15)) & 15) / sizeof(T));
      if (head > hi - lo)
        head = hi - lo;
      if ((int64_t)threadIdx.x < head)
        p = KD::comb(op, p, KD::load(op, load(base[lo + threadIdx.x]), lo + threadIdx.x));
      int64_t v0 = lo + head, nv = (hi - v0) / V, j = threadIdx.x;
      const uint4 *vp = reinterpret_cast<const uint4 *>(base + v0);
      for (; j + bd < nv; j += 2 * bd) {
        uint4 q0 = vp[j], q1 = vp[j + bd];
        T e0[V], e1[V];
        memcpy(e0, &q0, sizeof q0);
        memcpy(e1, &q1, sizeof q1);
#pragma unroll
        for (int i = 0; i < V; i++)
          p = KD::comb(op, p, KD::load(op, load(e0[i]), v0 + j * V + i));
#pragma unroll
        for (int i = 0; i < V; i++)
          p = KD::comb(op, p, KD::load(op, load(e1[i]), v0 + (j + bd) * V + i));
      }
      for (; j < nv; j += bd) {
        uint4 q = vp[j];
        T e[V];
        memcpy(e, &q, sizeof q);
#pragma unroll
        for (int i = 0; i < V; i++)
          p = KD::comb(op, p, KD::load(op, load(e[i]), v0 + j * V + i));
      }
      for (r = v0 + nv * V + threadIdx.x; r < hi; r += bd)
        p = KD::comb(op, p, KD::load(op, load(base[r]), r));
    } else if (red.ndim == 1) {
      int64_t s = red.stride[0][0];
      /* Four loads in flight per thread, then their pairs combined. */
      for (; r + 3 * bd < hi; r += 4 * bd) {
        T x0 = base[r * s], x1 = base[(r + bd) * s], x2 = base[(r + 2 * bd) * s], x3 = base[(r + 3 * bd) * s];
        P q = KD::comb(op, KD::comb(op, KD::load(op, load(x0), r), KD::load(op, load(x1), r + bd)),
                       KD::comb(op, KD::load(op, load(x2), r + 2 * bd), KD::load(op, load(x3), r + 3 * bd)));
        p = KD::comb(op, p, q);
      }
      for (; r < hi; r += bd)
        p = KD::comb(op, p, KD::load(op, load(base[r * s]), r));
    } else {
      for (; r < hi; r += bd)
        p = KD::comb(op, p, KD::load(op, load(base[offset_of(red, 0, r)]), r));
    }
    p = block_comb<KD>(op, p);
    if (threadIdx.x == 0)
      part[m * nchunks + blockIdx.x] = p;
  }
}

template <class KD>
__global__ void arg_stage2(int op, const typename KD::P *part, int64_t *idx, int64_t m_count, int nchunks)
{
  typedef typename KD::P P;
  for (int64_t m = blockIdx.x; m < m_count; m += gridDim.x) {
    P p = KD::init();
    for (int g = threadIdx.x; g < nchunks; g += blockDim.x)
      p = KD::comb(op, p, part[m * nchunks + g]);
    p = block_comb<KD>(op, p);
    if (threadIdx.x == 0)
      idx[m] = KD::final(op, p);
  }
}

template <class T, class KD, class L>
int launch_arg(cudaStream_t s, int op, const cusci_loop *kept, const cusci_loop *red, int64_t *idx, const void *in,
               void *scratch, int nchunks)
{
  int64_t chunk = (red->size + nchunks - 1) / nchunks;
  if (chunk < 1)
    chunk = 1;
  unsigned gy = kept->size < 65535 ? (unsigned)kept->size : 65535u;
  dim3 grid((unsigned)nchunks, gy > 0 ? gy : 1);
  typename KD::P *part = (typename KD::P *)scratch;
  arg_stage1<T, KD, L><<<grid, kThreads, 0, s>>>(op, (const T *)in, part, *kept, *red, chunk, nchunks);
  arg_stage2<KD><<<gy > 0 ? gy : 1, kThreads, 0, s>>>(op, part, idx, kept->size, nchunks);
  return launched();
}

#define LOADER_(D, T, K, A) \
  struct aload_##D {        \
    __device__ __forceinline__ A operator()(T x) const { return cusci_load_##D(x); } \
  };
CUSCI__RTYPES(LOADER_)

template <class E>
__global__ void gather_kernel(E *out, const int64_t *idx, const E *in, const cusci_loop kept, const cusci_loop red)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t m = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; m < kept.size; m += stride) {
    int64_t i = idx[m];
    out[m] = in[offset_of(kept, 1, m) + offset_of(red, 0, i < 0 ? 0 : i)];
  }
}

template <class E>
int launch_gather_t(cudaStream_t s, const cusci_loop *kept, const cusci_loop *red, void *out, const int64_t *idx,
                    const void *in)
{
  gather_kernel<E><<<blocks_for(kept->size), kThreads, 0, s>>>((E *)out, idx, (const E *)in, *kept, *red);
  return launched();
}

} // namespace

#define CASE_(D, T, K, A) \
  case CUSCI_##D:         \
    return launch_arg<T, kind_##K, aload_##D>((cudaStream_t)stream, op, kept, red, idx, in, scratch, nchunks);

extern "C" int cusci__launch_argreduce(void *stream, int op, int dtype, const cusci_loop *kept,
                                       const cusci_loop *red, int64_t *idx, const void *in, void *scratch,
                                       int nchunks)
{
  if (kept->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__RTYPES(CASE_)
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int cusci__launch_gather(void *stream, int itemsize, const cusci_loop *kept, const cusci_loop *red,
                                    void *out, const int64_t *idx, const void *in)
{
  if (kept->size == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  switch (itemsize) {
  case 1: return launch_gather_t<uint8_t>(s, kept, red, out, idx, in);
  case 2: return launch_gather_t<uint16_t>(s, kept, red, out, idx, in);
  case 4: return launch_gather_t<uint32_t>(s, kept, red, out, idx, in);
  case 8: return launch_gather_t<uint64_t>(s, kept, red, out, idx, in);
  case 16: return launch_gather_t<cusci_c128>(s, kept, red, out, idx, in);
  }
  return (int)cudaErrorInvalidValue;
}
