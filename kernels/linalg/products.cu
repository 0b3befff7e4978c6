/*
 * kernels/linalg/products.cu: matmul on cuBLAS.
 */
#include "kernels/linalg/common.cuh"

/*
 * Row-major C (m x n) = A (m x k) B (k x n) is column-major C^T = B^T A^T:
 * one strided-batched gemm with the operands swapped, no copies. float32
 * products use full float32 arithmetic unless the context allows TF32.
 * Extents are within cuBLAS's int (the API layer checks); a batch past it
 * is split.
 */
extern "C" int cusci__launch_la_gemm(cusci__la_gpu *g, int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa,
                                     const void *b, int64_t sb, void *c)
{
  if (batch == 0 || m == 0 || n == 0)
    return 0;
  size_t isz = cusci_kit_itemsize(dt);
  if (k == 0) {
    CUDA_TRY(cudaMemsetAsync(c, 0, (size_t)(batch * m * n) * isz, stream_of(g)));
    return 0;
  }
  cudaDataType t = cuda_type(dt);
  cublasComputeType_t ct = cusci_dtype_is_single(dt) ? (g->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F) : CUBLAS_COMPUTE_64F;
  const double one_d[2] = { 1.0, 0.0 }, zero_d[2] = { 0.0, 0.0 };
  const float one_f[2] = { 1.0f, 0.0f }, zero_f[2] = { 0.0f, 0.0f };
  const void *alpha = cusci_dtype_is_single(dt) ? (const void *)one_f : (const void *)one_d;
  const void *beta = cusci_dtype_is_single(dt) ? (const void *)zero_f : (const void *)zero_d;
  BLAS_TRY(cublasSetPointerMode(blas_of(g), CUBLAS_POINTER_MODE_HOST));
  for (int64_t b0 = 0; b0 < batch; b0 += INT32_MAX) {
    int64_t nb = batch - b0 < INT32_MAX ? batch - b0 : INT32_MAX;
    const char *ab = (const char *)a + (size_t)(b0 * sa) * isz, *bb = (const char *)b + (size_t)(b0 * sb) * isz;
    char *cb = (char *)c + (size_t)(b0 * m * n) * isz;
    if (nb == 1)
      BLAS_TRY(cublasGemmEx(blas_of(g), CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, alpha, bb, t, (int)n, ab, t, (int)k, beta, cb, t,
                            (int)n, ct, CUBLAS_GEMM_DEFAULT));
    else
      BLAS_TRY(cublasGemmStridedBatchedEx(blas_of(g), CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, alpha, bb, t, (int)n, sb, ab, t,
                                          (int)k, sa, beta, cb, t, (int)n, m * n, (int)nb, ct, CUBLAS_GEMM_DEFAULT));
  }
  return 0;
}
