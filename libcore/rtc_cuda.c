/*
 * libcore/rtc_cuda.c: every NVRTC and CUDA runtime call of users' own
 * kernels. Code is loaded with the runtime's library management
 * (cudaLibraryLoadData), so that libcusci-core never links the driver
 * library itself. In a build without CUDA or NVRTC the same functions
 * report CUSCI_ERR_NOT_SUPPORTED.
 */
#include "libcore/rtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcore/backend.h"

#if defined(CUSCI_HAVE_CUDA) && defined(CUSCI_HAVE_NVRTC)

#include <cuda_runtime_api.h>
#include <nvrtc.h>

static cusci_status cuda_fail(cusci_ctx *ctx, const char *fn, const char *what, cudaError_t e)
{
  cudaGetLastError();
  return cusci_ctx_gpu_status(ctx, fn, what, (int)e);
}

cusci_status cusci__rtc_nvrtc_version(int *major, int *minor)
{
  return nvrtcVersion(major, minor) == NVRTC_SUCCESS ? CUSCI_OK : CUSCI_ERR_NOT_SUPPORTED;
}

cusci_status cusci__rtc_nvrtc_compile(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                      const char *const *opts, const char *arch_opt, unsigned char **image,
                                      size_t *len)
{
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, code, "kernel.cu", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS)
    return cusci_ctx_fail(ctx, r == NVRTC_ERROR_OUT_OF_MEMORY ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_COMPILE, fn,
                          "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
  const char **all = malloc(((size_t)nopt + 1) * sizeof *all);
  if (!all) {
    nvrtcDestroyProgram(&prog);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %d options", nopt);
  }
  int n = 0;
  for (int i = 0; i < nopt; i++)
    all[n++] = opts[i];
  if (arch_opt)
    all[n++] = arch_opt;
  r = nvrtcCompileProgram(prog, n, all);
  free(all);
  if (r != NVRTC_SUCCESS) {
    size_t loglen = 0;
    char *log = NULL;
    if (nvrtcGetProgramLogSize(prog, &loglen) == NVRTC_SUCCESS && loglen > 0 && (log = malloc(loglen + 1))) {
      if (nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
        log[0] = '\0';
      log[loglen] = '\0';
    }
    cusci_status st = r == NVRTC_ERROR_OUT_OF_MEMORY ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_COMPILE;
    cusci_ctx_fail(ctx, st, fn, "NVRTC: %s\n%s", nvrtcGetErrorString(r), log ? log : "(no log)");
    free(log);
    nvrtcDestroyProgram(&prog);
    return st;
  }
  size_t size = 0;
  bool ptx = nvrtcGetCUBINSize(prog, &size) != NVRTC_SUCCESS || size == 0;
  if (ptx && nvrtcGetPTXSize(prog, &size) != NVRTC_SUCCESS)
    size = 0;
  if (size == 0) {
    nvrtcDestroyProgram(&prog);
    return cusci_ctx_fail(ctx, CUSCI_ERR_COMPILE, fn, "NVRTC produced no code");
  }
  unsigned char *img = malloc(size);
  if (!img) {
    nvrtcDestroyProgram(&prog);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes of code", size);
  }
  r = ptx ? nvrtcGetPTX(prog, (char *)img) : nvrtcGetCUBIN(prog, (char *)img);
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS) {
    free(img);
    return cusci_ctx_fail(ctx, CUSCI_ERR_COMPILE, fn, "NVRTC: %s", nvrtcGetErrorString(r));
  }
  *image = img;
  *len = size;
  return CUSCI_OK;
}

cusci_status cusci__rtc_device_arch(cusci_ctx *ctx, const char *fn, int *arch)
{
  /* Attributes, not cudaGetDeviceProperties: this runs on every call of a
   * kernel object, and the attributes are cheap. */
  int major = 0, minor = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ctx->device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ctx->device);
  if (e != cudaSuccess)
    return cuda_fail(ctx, fn, "cudaDeviceGetAttribute", e);
  *arch = major * 10 + minor;
  return CUSCI_OK;
}

cusci_status cusci__rtc_load(cusci_ctx *ctx, const char *fn, const void *image, void **lib)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaLibrary_t l;
  cudaError_t e = cudaLibraryLoadData(&l, image, NULL, NULL, 0, NULL, NULL, 0);
  if (e != cudaSuccess)
    return cuda_fail(ctx, fn, "cudaLibraryLoadData", e);
  *lib = l;
  return CUSCI_OK;
}

void cusci__rtc_unload(void *lib)
{
  if (lib && cudaLibraryUnload((cudaLibrary_t)lib) != cudaSuccess)
    cudaGetLastError();
}

cusci_status cusci__rtc_get_kernel(cusci_ctx *ctx, const char *fn, void *lib, const char *name, void **kernel)
{
  cudaKernel_t k;
  cudaError_t e = cudaLibraryGetKernel(&k, (cudaLibrary_t)lib, name);
  if (e == cudaErrorSymbolNotFound || e == cudaErrorInvalidDeviceFunction) {
    cudaGetLastError();
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "the module has no kernel \"%s\" (is it declared extern \"C\" __global__?)", name);
  }
  if (e != cudaSuccess)
    return cuda_fail(ctx, fn, "cudaLibraryGetKernel", e);
  *kernel = k;
  return CUSCI_OK;
}

cusci_status cusci__rtc_launch(cusci_ctx *ctx, const char *fn, void *kernel, const unsigned grid[3],
                               const unsigned block[3], size_t shared_mem, void **args)
{
  CUSCI_TRY(cusci__gpu_use(ctx, fn));
  cudaError_t e;
  if (shared_mem > 48 * 1024) {
    /* Beyond the default, a kernel must ask for its dynamic shared memory. */
    e = cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_mem);
    if (e != cudaSuccess) {
      cudaGetLastError();
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                            "shared_mem is %zu bytes, more than this GPU gives the kernel: %s", shared_mem,
                            cudaGetErrorString(e));
    }
  }
  dim3 g = {grid[0], grid[1], grid[2]}, b = {block[0], block[1], block[2]};
  e = cudaLaunchKernel((const void *)kernel, g, b, args, shared_mem, (cudaStream_t)ctx->stream);
  if (e != cudaSuccess)
    return cuda_fail(ctx, fn, "cudaLaunchKernel", e);
  return CUSCI_OK;
}

int cusci__rtc_sm_count(cusci_ctx *ctx)
{
  int n = 0;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, ctx->device) != cudaSuccess) {
    cudaGetLastError();
    n = 0;
  }
  return n > 0 ? n : 1;
}

#else /* no CUDA or no NVRTC */

#ifndef CUSCI_HAVE_CUDA
#define NO_RTC "this build of cusci has no CUDA backend, so it cannot compile kernels"
#else
#define NO_RTC "this build of cusci was configured without NVRTC, so it cannot compile kernels"
#endif

cusci_status cusci__rtc_nvrtc_version(int *major, int *minor)
{
  return CUSCI_ERR_NOT_SUPPORTED;
}

cusci_status cusci__rtc_nvrtc_compile(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                      const char *const *opts, const char *arch_opt, unsigned char **image,
                                      size_t *len)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s", NO_RTC);
}

cusci_status cusci__rtc_device_arch(cusci_ctx *ctx, const char *fn, int *arch)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s", NO_RTC);
}

cusci_status cusci__rtc_load(cusci_ctx *ctx, const char *fn, const void *image, void **lib)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s", NO_RTC);
}

void cusci__rtc_unload(void *lib) {}

cusci_status cusci__rtc_get_kernel(cusci_ctx *ctx, const char *fn, void *lib, const char *name, void **kernel)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s", NO_RTC);
}

cusci_status cusci__rtc_launch(cusci_ctx *ctx, const char *fn, void *kernel, const unsigned grid[3],
                               const unsigned block[3], size_t shared_mem, void **args)
{
  return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s", NO_RTC);
}

int cusci__rtc_sm_count(cusci_ctx *ctx)
{
  return 1;
}

#endif
