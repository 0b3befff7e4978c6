/*
 * cusci/kit/dispatch.cuh: one dispatch by dtype for a module's CUDA code.
 * Part of the module kit (docs/modules.md), installed with the core; CUDA
 * C++ only.
 *
 * An operation is a struct whose member template run<T>() does the work
 * for element type T; cusci::by_sdcz(dt, op) calls the instance for dt:
 *
 *   struct scale_op {
 *     void *x; int64_t n; cudaStream_t s;
 *     template <typename T> int run() { scale_kernel<T><<<...>>>((T *)x, n); return (int)cudaGetLastError(); }
 *   };
 *   scale_op op{x, n, s};
 *   return cusci::by_sdcz(dt, op);
 *
 * Complex elements are float2 and double2 (cuComplex's types, the layout
 * of cusci_c64 and cusci_c128).
 */
#ifndef CUSCI_KIT_DISPATCH_CUH
#define CUSCI_KIT_DISPATCH_CUH

#include <cuda_runtime.h>

#include <cusci/kit/dtypes.h>

namespace cusci {

/* The device element type of a dtype of CUSCI_DTYPES_SDCZ. */
template <int DT> struct sdcz_elem;
template <> struct sdcz_elem<CUSCI_FLOAT32> { typedef float type; };
template <> struct sdcz_elem<CUSCI_FLOAT64> { typedef double type; };
template <> struct sdcz_elem<CUSCI_COMPLEX64> { typedef float2 type; };
template <> struct sdcz_elem<CUSCI_COMPLEX128> { typedef double2 type; };

/* f.template run<T>() with T the element type of dt, which the caller has
 * checked to be one of the four SDCZ dtypes (complex128 takes any other
 * value). Returns what run returns. */
template <typename F>
inline auto by_sdcz(int dt, F &f) -> decltype(f.template run<float>())
{
  switch (dt) {
  case CUSCI_FLOAT32: return f.template run<float>();
  case CUSCI_FLOAT64: return f.template run<double>();
  case CUSCI_COMPLEX64: return f.template run<float2>();
  default: return f.template run<double2>();
  }
}

} // namespace cusci

#endif /* CUSCI_KIT_DISPATCH_CUH */
