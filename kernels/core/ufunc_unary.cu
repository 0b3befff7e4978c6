/*
 * kernels/core/ufunc_unary.cu: the unary ufuncs on the GPU, one
 * instantiation of the templates in ufunc.cuh per (op, dtype) pair of the
 * tables in reference/core/ufunc_ops.h.
 */
#include "kernels/core/launch.h"
#include "kernels/core/ufunc.cuh"

namespace {

using namespace cusci;

#define FUNCTORS1_(NAME, op, o, TL) CUSCI__TL_##TL(CUSCI__FUNCTOR1, op, o)
CUSCI__UF_UNARY(FUNCTORS1_)
#define FUNCTORS1M_(NAME, op, ff, df, TL) CUSCI__TL_##TL(CUSCI__FUNCTOR1, op, SAME)
CUSCI__UF_MATH(FUNCTORS1M_)

} // namespace

#define CASE1_(D, op, o) \
  case CUSCI_##D:        \
    return launch1<f1_##op##_##D>((cudaStream_t)stream, loop, ptrs);
#define OPCASE1_(NAME, op, o, TL)   \
  case CUSCI_UFUNC_##NAME:          \
    switch (dtype) {                \
      CUSCI__TL_##TL(CASE1_, op, o) \
    default:                        \
      break;                        \
    }                               \
    break;
#define OPCASE1M_(NAME, op, ff, df, TL) OPCASE1_(NAME, op, SAME, TL)

extern "C" int cusci__launch_ufunc1(void *stream, int op, int dtype, const cusci_loop *loop, void *const *ptrs)
{
  if (loop->size == 0)
    return 0;
  switch (op) {
    CUSCI__UF_UNARY(OPCASE1_)
    CUSCI__UF_MATH(OPCASE1M_)
  default:
    break;
  }
  return (int)cudaErrorInvalidValue;
}
