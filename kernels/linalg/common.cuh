/*
 * kernels/linalg/common.cuh: what liblinalg's CUDA files share: turning a
 * CUDA, cuBLAS or cuSOLVER failure into a status recorded on the context,
 * the macros that return it, and the context's cached handles.
 */
#ifndef CUSCI_KERNELS_LINALG_COMMON_CUH
#define CUSCI_KERNELS_LINALG_COMMON_CUH

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cusci/core_ext.h>

/* Defined in kernels/linalg/linalg.cu: the context's cuBLAS and cuSOLVER
 * handles and cuSOLVER's params, made on first use and bound to the
 * context's stream (one set per context for all of liblinalg). */
extern "C" cusci_status cusci__gpu_la_handles(cusci_ctx *ctx, const char *fn, void **blas, void **solver, void **params);

namespace {

inline cusci_status cuda_fail(cusci_ctx *ctx, const char *fn, const char *what, cudaError_t e)
{
  return cusci_ctx_fail(ctx, e == cudaErrorMemoryAllocation ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_CUDA, fn,
                        "%s failed: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

inline cusci_status blas_fail(cusci_ctx *ctx, const char *fn, const char *what, cublasStatus_t e)
{
  return cusci_ctx_fail(ctx, e == CUBLAS_STATUS_ALLOC_FAILED ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_CUDA, fn,
                        "%s failed: %s", what, cublasGetStatusString(e));
}

inline cusci_status solver_fail(cusci_ctx *ctx, const char *fn, const char *what, cusolverStatus_t e)
{
  return cusci_ctx_fail(ctx, e == CUSOLVER_STATUS_ALLOC_FAILED ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_CUDA, fn,
                        "%s failed: cusolverStatus %d", what, (int)e);
}

} // namespace

#define TRY(expr)              \
  do {                         \
    cusci_status st_ = (expr); \
    if (st_ != CUSCI_OK)       \
      return st_;              \
  } while (0)
#define CUDA_TRY(call)                      \
  do {                                      \
    cudaError_t e_ = (call);                \
    if (e_ != cudaSuccess)                  \
      return cuda_fail(ctx, fn, #call, e_); \
  } while (0)
#define BLAS_TRY(call)                      \
  do {                                      \
    cublasStatus_t e_ = (call);             \
    if (e_ != CUBLAS_STATUS_SUCCESS)        \
      return blas_fail(ctx, fn, #call, e_); \
  } while (0)
#define SOLVER_TRY(call)                      \
  do {                                        \
    cusolverStatus_t e_ = (call);             \
    if (e_ != CUSOLVER_STATUS_SUCCESS)        \
      return solver_fail(ctx, fn, #call, e_); \
  } while (0)
#define LAUNCH_TRY() CUDA_TRY(cudaGetLastError())

#endif /* CUSCI_KERNELS_LINALG_COMMON_CUH */
