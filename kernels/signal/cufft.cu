/*
 * kernels/signal/cufft.cu: cuFFT plans in the advanced layout, their
 * execution in a work area the caller gives, and the small kernels of
 * cusci-signal: the normalisation and the DCT/DST's extension and
 * extraction (the indices of reference/signal/dct_map.h).
 */
#include <cuda_runtime.h>
#include <cufft.h>

#include "config.h"

#include <cusci/kit/dtypes.h>

#include "kernels/signal/launch.h"
#include "reference/signal/dct_map.h"

namespace {

inline int fft_code(cufftResult r)
{
  return CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, (int)r);
}

inline int launched()
{
  return (int)cudaGetLastError();
}

inline unsigned blocks_for(int64_t n, int threads)
{
  int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : b > 65535 * 32 ? 65535 * 32 : b);
}

cufftType type_of(int op, int f32)
{
  if (op == CUSCI__SIG_C2C)
    return f32 ? CUFFT_C2C : CUFFT_Z2Z;
  if (op == CUSCI__SIG_R2C)
    return f32 ? CUFFT_R2C : CUFFT_D2Z;
  return f32 ? CUFFT_C2R : CUFFT_Z2D;
}

template <typename R>
__global__ void scale_kernel(R *x, int64_t n, R s, int conj)
{
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    x[i] = (conj && (i & 1) ? -s : s) * x[i];
}

template <typename R>
__global__ void hermitian_kernel(int64_t outer, int64_t len, int64_t inner, int64_t nyq, R *x)
{
  const int64_t total = outer * inner * 2, step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t which = e & 1, li = e >> 1, o = li / inner, i = li - o * inner, j = which ? nyq : 0;
    if (j >= 0)
      x[2 * ((o * len + j) * inner + i) + 1] = 0;
  }
}

/* One thread per input element: x[row, j] to u[row, at] and its mirror
 * (u zeroed first). */
template <typename R>
__global__ void extend_kernel(int type, int sine, int64_t rows, int64_t n, int64_t len, const R *x, R *u, R pre0, R preN)
{
  const int64_t total = rows * n, step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t r = e / n, j = e - r * n;
    R v = x[e] * (R)cusci__dct_in_weight(type, sine, j, n);
    if (j == 0)
      v *= pre0;
    if (j == n - 1)
      v *= preN;
    const int64_t at = cusci__dct_in(type, sine, j);
    R *ur = u + r * len;
    ur[at] = v;
    if (at && at != len - at)
      ur[len - at] = (R)cusci__dct_mirror(sine) * v;
  }
}

/* One thread per output: y[row, k] from the real transform U. */
template <typename R>
__global__ void extract_kernel(int type, int sine, int64_t rows, int64_t n, int64_t len, const R *U, R *y, R scale, R post0, R postN)
{
  const int64_t total = rows * n, step = (int64_t)gridDim.x * blockDim.x, h = len / 2 + 1;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t r = e / n, k = e - r * n;
    const R *c = U + 2 * (r * h + cusci__dct_out(type, sine, k));
    R v = sine ? -c[1] : c[0];
    if (k == 0)
      v *= post0;
    if (k == n - 1)
      v *= postN;
    y[e] = scale * v;
  }
}

} // namespace

extern "C" int cusci__sig_cufft_plan(int op, int f32, int64_t n, int64_t batch, int64_t istride, int64_t idist, int64_t ostride, int64_t odist,
                               int *handle, size_t *work)
{
  cufftHandle h;
  cufftResult r = cufftCreate(&h);
  if (r != CUFFT_SUCCESS)
    return fft_code(r);
  r = cufftSetAutoAllocation(h, 0);
  long long len = (long long)n;
  /* The advanced layout: the embeds only have to be non-NULL for a rank-1
   * plan; the strides and distances place the elements. */
  long long inembed = (long long)(op == CUSCI__SIG_C2R ? n / 2 + 1 : n), onembed = (long long)(op == CUSCI__SIG_R2C ? n / 2 + 1 : n);
  size_t ws = 0;
  if (r == CUFFT_SUCCESS)
    r = cufftMakePlanMany64(h, 1, &len, &inembed, (long long)istride, (long long)idist, &onembed, (long long)ostride, (long long)odist,
                            type_of(op, f32), (long long)batch, &ws);
  if (r != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return fft_code(r);
  }
  *handle = (int)h;
  *work = ws;
  return 0;
}

extern "C" int cusci__sig_cufft_destroy(int handle)
{
  return fft_code(cufftDestroy((cufftHandle)handle));
}

extern "C" int cusci__sig_cufft_exec(void *stream, int handle, int op, int f32, int sign, void *work, const void *in, void *out)
{
  const cufftHandle h = (cufftHandle)handle;
  cufftResult r = cufftSetStream(h, (cudaStream_t)stream);
  if (r == CUFFT_SUCCESS && work)
    r = cufftSetWorkArea(h, work);
  if (r != CUFFT_SUCCESS)
    return fft_code(r);
  void *src = const_cast<void *>(in);
  const int dir = sign < 0 ? CUFFT_FORWARD : CUFFT_INVERSE;
  if (op == CUSCI__SIG_C2C)
    r = f32 ? cufftExecC2C(h, (cufftComplex *)src, (cufftComplex *)out, dir)
            : cufftExecZ2Z(h, (cufftDoubleComplex *)src, (cufftDoubleComplex *)out, dir);
  else if (op == CUSCI__SIG_R2C)
    r = f32 ? cufftExecR2C(h, (cufftReal *)src, (cufftComplex *)out) : cufftExecD2Z(h, (cufftDoubleReal *)src, (cufftDoubleComplex *)out);
  else
    r = f32 ? cufftExecC2R(h, (cufftComplex *)src, (cufftReal *)out) : cufftExecZ2D(h, (cufftDoubleComplex *)src, (cufftDoubleReal *)out);
  return fft_code(r);
}

extern "C" int cusci__sig_scale(void *stream, int f32, int complex_, int64_t n, void *data, double scale, int conj)
{
  const int64_t m = complex_ ? 2 * n : n;
  if (m == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  if (f32)
    scale_kernel<float><<<blocks_for(m, 256), 256, 0, s>>>((float *)data, m, (float)scale, conj);
  else
    scale_kernel<double><<<blocks_for(m, 256), 256, 0, s>>>((double *)data, m, scale, conj);
  return launched();
}

extern "C" int cusci__sig_hermitian(void *stream, int f32, int64_t outer, int64_t len, int64_t inner, int64_t nyq, void *data)
{
  if (outer * inner == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const int64_t n = 2 * outer * inner;
  if (f32)
    hermitian_kernel<float><<<blocks_for(n, 256), 256, 0, s>>>(outer, len, inner, nyq, (float *)data);
  else
    hermitian_kernel<double><<<blocks_for(n, 256), 256, 0, s>>>(outer, len, inner, nyq, (double *)data);
  return launched();
}

extern "C" int cusci__sig_zero(void *stream, void *p, size_t bytes)
{
  return bytes ? (int)cudaMemsetAsync(p, 0, bytes, (cudaStream_t)stream) : 0;
}

extern "C" int cusci__sig_dct_extend(void *stream, int f32, int type, int sine, int64_t batch, int64_t n, int64_t len, const void *x, void *u,
                                     double pre0, double preN)
{
  cudaStream_t s = (cudaStream_t)stream;
  const size_t rsz = f32 ? sizeof(float) : sizeof(double);
  cudaError_t e = cudaMemsetAsync(u, 0, (size_t)(batch * len) * rsz, s);
  if (e != cudaSuccess || batch * n == 0)
    return (int)e;
  if (f32)
    extend_kernel<float><<<blocks_for(batch * n, 256), 256, 0, s>>>(type, sine, batch, n, len, (const float *)x, (float *)u, (float)pre0,
                                                                    (float)preN);
  else
    extend_kernel<double><<<blocks_for(batch * n, 256), 256, 0, s>>>(type, sine, batch, n, len, (const double *)x, (double *)u, pre0, preN);
  return launched();
}

extern "C" int cusci__sig_dct_extract(void *stream, int f32, int type, int sine, int64_t batch, int64_t n, int64_t len, const void *U, void *y,
                                      double scale, double post0, double postN)
{
  if (batch * n == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  if (f32)
    extract_kernel<float><<<blocks_for(batch * n, 256), 256, 0, s>>>(type, sine, batch, n, len, (const float *)U, (float *)y, (float)scale,
                                                                     (float)post0, (float)postN);
  else
    extract_kernel<double><<<blocks_for(batch * n, 256), 256, 0, s>>>(type, sine, batch, n, len, (const double *)U, (double *)y, scale, post0,
                                                                      postN);
  return launched();
}
