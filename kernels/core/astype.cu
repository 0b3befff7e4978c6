/*
 * kernels/core/astype.cu: dtype conversion on the GPU, all 196 pairs, with
 * the element conversions of include/cusci/kit/convert.h, so that the GPU
 * agrees with the host bit for bit.
 */
#include <string.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include <cusci/kit/convert.h>

namespace {

using namespace cusci;

/* Contiguous walk: each thread converts several elements per pass. */
#define CUSCI_ASTYPE_KERNELS(D, DT, S, ST, SK)                                                     \
  __global__ void astype_flat_##S##_##D(DT *__restrict__ dst, const ST *__restrict__ src, int64_t n) \
  {                                                                                                \
    int64_t stride = (int64_t)gridDim.x * blockDim.x;                                              \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)           \
      dst[i] = CUSCI_CONVERT(S, SK, D, src[i]);                                                   \
  }                                                                                                \
  __global__ void astype_strided_##S##_##D(DT *dst, const ST *src, const cusci_loop l)            \
  {                                                                                                \
    int64_t stride = (int64_t)gridDim.x * blockDim.x;                                              \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < l.size; i += stride) {    \
      int64_t off[2];                                                                              \
      loop_offsets<2>(l, i, off);                                                                  \
      dst[off[0]] = CUSCI_CONVERT(S, SK, D, src[off[1]]);                                         \
    }                                                                                              \
  }                                                                                                \
  int launch_##S##_##D(cudaStream_t s, const cusci_loop *l, void *dst, const void *src)          \
  {                                                                                                \
    if (cusci_loop_contiguous(l))                                                                 \
      astype_flat_##S##_##D<<<blocks_for(l->size, 4), kThreads, 0, s>>>((DT *)dst, (const ST *)src, l->size); \
    else                                                                                           \
      astype_strided_##S##_##D<<<blocks_for(l->size), kThreads, 0, s>>>((DT *)dst, (const ST *)src, *l); \
    return launched();                                                                             \
  }

/* The pairs: for each destination, every source. */
#define PAIRS_FOR_(D, DT, DK, unused) CUSCI_TYPES_B(PAIR_SRC_, (D, DT))
#define PAIR_SRC_(S, ST, SK, DPAIR) PAIR_APPLY_(CUSCI_ASTYPE_KERNELS_P, DPAIR, S, ST, SK)
#define PAIR_APPLY_(M, DPAIR, S, ST, SK) M(DPAIR, S, ST, SK)
#define CUSCI_ASTYPE_KERNELS_P(DPAIR, S, ST, SK) CUSCI_ASTYPE_KERNELS_U(PAIR_UNPACK_ DPAIR, S, ST, SK)
#define PAIR_UNPACK_(D, DT) D, DT
#define CUSCI_ASTYPE_KERNELS_U(...) CUSCI_ASTYPE_KERNELS(__VA_ARGS__)
CUSCI_TYPES_A(PAIRS_FOR_, 0)

typedef int (*launch_fn)(cudaStream_t, const cusci_loop *, void *, const void *);
#define ENTRY_(S, ST, SK, D) launch_##S##_##D,
#define TABLE_ROW_(D, DT, DK, unused) {CUSCI_TYPES_B(ENTRY_, D)},
/* table[dst][src] */
const launch_fn table[14][14] = {CUSCI_TYPES_A(TABLE_ROW_, 0)};

} // namespace

extern "C" int cusci__launch_astype(void *stream, int dst_dtype, int src_dtype, const cusci_loop *loop, void *dst,
                                    const void *src)
{
  if (loop->size == 0)
    return 0;
  return table[dst_dtype][src_dtype]((cudaStream_t)stream, loop, dst, src);
}
