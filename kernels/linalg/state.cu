/*
 * kernels/linalg/state.cu: the CUDA side of what liblinalg/gpu.c keeps
 * per context and per call: the cuBLAS and cuSOLVER handles, the mapped
 * reply the small-matrix kernels post to, and the status words' helpers.
 */
#include "kernels/linalg/common.cuh"

extern "C" int cusci__launch_la_handles(void **blas, void **solver, void **params, const char **what)
{
  cublasHandle_t b = NULL;
  cusolverDnHandle_t s = NULL;
  cusolverDnParams_t p = NULL;
  cublasStatus_t be = cublasCreate(&b);
  if (be != CUBLAS_STATUS_SUCCESS) {
    *what = "cublasCreate";
    return CUSCI_GPU_CODE(CUSCI_GPU_CUBLAS, (int)be);
  }
  cusolverStatus_t se = cusolverDnCreate(&s);
  if (se == CUSOLVER_STATUS_SUCCESS) {
    se = cusolverDnCreateParams(&p);
    if (se != CUSOLVER_STATUS_SUCCESS)
      *what = "cusolverDnCreateParams";
  } else {
    *what = "cusolverDnCreate";
  }
  if (se != CUSOLVER_STATUS_SUCCESS) {
    if (s)
      cusolverDnDestroy(s);
    cublasDestroy(b);
    return CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, (int)se);
  }
  *blas = b;
  *solver = s;
  *params = p;
  return 0;
}

extern "C" int cusci__launch_la_handles_free(void *blas, void *solver, void *params)
{
  if (params)
    cusolverDnDestroyParams((cusolverDnParams_t)params);
  if (solver)
    cusolverDnDestroy((cusolverDnHandle_t)solver);
  if (blas)
    cublasDestroy((cublasHandle_t)blas);
  return 0;
}

extern "C" int cusci__launch_la_bind(void *blas, void *solver, void *stream, bool tf32, const char **what)
{
  cublasHandle_t b = (cublasHandle_t)blas;
  cublasStatus_t be = cublasSetStream(b, (cudaStream_t)stream);
  *what = "cublasSetStream";
  if (be == CUBLAS_STATUS_SUCCESS) {
    /* The context's math mode (cusci_linalg_set_math_mode) on every call. */
    be = cublasSetMathMode(b, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
    *what = "cublasSetMathMode";
  }
  if (be != CUBLAS_STATUS_SUCCESS)
    return CUSCI_GPU_CODE(CUSCI_GPU_CUBLAS, (int)be);
  cusolverStatus_t se = cusolverDnSetStream((cusolverDnHandle_t)solver, (cudaStream_t)stream);
  *what = "cusolverDnSetStream";
  return CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, (int)se);
  return 0;
}

extern "C" int cusci__launch_la_reply(void **host, void **dev)
{
  void *h = NULL;
  cudaError_t e = cudaHostAlloc(&h, sizeof(cusci__la_reply), cudaHostAllocMapped);
  if (e != cudaSuccess)
    return (int)e;
  memset(h, 0, sizeof(cusci__la_reply));
  e = cudaHostGetDevicePointer(dev, h, 0);
  if (e != cudaSuccess) {
    cudaFreeHost(h);
    return (int)e;
  }
  *host = h;
  return 0;
}

extern "C" int cusci__launch_la_reply_free(void *host)
{
  return host ? (int)cudaFreeHost(host) : 0;
}

extern "C" int cusci__launch_la_query(void *stream)
{
  cudaError_t e = cudaStreamQuery((cudaStream_t)stream);
  return e == cudaErrorNotReady ? 1 : (int)e;
}

extern "C" int cusci__launch_la_zero(void *stream, void *p, size_t bytes)
{
  return bytes ? (int)cudaMemsetAsync(p, 0, bytes, (cudaStream_t)stream) : 0;
}

namespace {

/* The first matrix with nonzero info into the summary word (see
 * note_failure). */
__global__ void summarize_kernel(const int *words, int64_t batch, unsigned long long *first)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < batch; i += (int64_t)gridDim.x * blockDim.x)
    note_failure(first, i, words[i]);
}

} // namespace

extern "C" int cusci__launch_la_summarize(void *stream, const int *info, int64_t batch, unsigned long long *first)
{
  if (batch == 0)
    return 0;
  unsigned blocks = blocks_for(batch, 256);
  summarize_kernel<<<blocks < 1024 ? blocks : 1024, 256, 0, (cudaStream_t)stream>>>(info, batch, first);
  return (int)cudaGetLastError();
}
