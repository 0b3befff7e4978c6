/*
 * kernels/linalg/util.cu: what several of liblinalg's launchers do (see
 * common.cuh): transposes, triangles, conjugates, identities, and the
 * batched getrf and potrf of cuSOLVER.
 */
#include "kernels/linalg/common.cuh"

using namespace cusci_la;

namespace {

/* dst[b] = op(src[b])^T for rows x cols row-major matrices, op the
 * conjugate when CONJ; 32 x 32 tiles through shared memory. */
template <typename T, bool CONJ>
__global__ void transpose_kernel(const T *__restrict__ src, T *__restrict__ dst, int64_t rows, int64_t cols, int64_t batch)
{
  __shared__ T tile[32][33];
  /* Grid-stride over the row tiles too: gridDim.y is at most 65535, and
   * a tall matrix has more tiles than that. */
  int64_t c0 = (int64_t)blockIdx.x * 32;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z)
    for (int64_t r0 = (int64_t)blockIdx.y * 32; r0 < rows; r0 += (int64_t)gridDim.y * 32) {
      const T *s = src + b * rows * cols;
      T *d = dst + b * rows * cols;
      for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        int64_t r = r0 + k, c = c0 + threadIdx.x;
        if (r < rows && c < cols)
          tile[k][threadIdx.x] = s[r * cols + c];
      }
      __syncthreads();
      for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        int64_t c = c0 + k, r = r0 + threadIdx.x;
        if (r < rows && c < cols) {
          T v = tile[threadIdx.x][k];
          d[c * rows + r] = CONJ ? conj_(v) : v;
        }
      }
      __syncthreads();
    }
}

/* The triangles' modes of cusci_la::triangle (common.cuh), one thread per
 * pair for MOVE_UPPER, so that it works in place. */
template <typename T, bool CONJ>
__global__ void triangle_kernel(T *a, int64_t n, int64_t batch, int mode)
{
  int64_t total = batch * n * n, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t b = t / (n * n), i = (t / n) % n, j = t % n;
    T *m = a + b * n * n;
    switch (mode) {
    case ZERO_UPPER:
      if (j > i)
        m[t - b * n * n] = zero_<T>();
      break;
    case ZERO_LOWER:
      if (j < i)
        m[t - b * n * n] = zero_<T>();
      break;
    case MIRROR_LOWER:
      if (j > i)
        m[i * n + j] = CONJ ? conj_(m[j * n + i]) : m[j * n + i];
      else if (CONJ && i == j)
        m[i * n + i] = real_part(m[i * n + i]);
      break;
    case MOVE_UPPER:
      if (j < i) {
        T v = m[j * n + i];
        m[i * n + j] = CONJ ? conj_(v) : v;
        m[j * n + i] = zero_<T>();
      } else if (CONJ && i == j) {
        m[i * n + i] = conj_(m[i * n + i]);
      }
      break;
    default:
      if (j < i)
        m[i * n + j] = CONJ ? conj_(m[j * n + i]) : m[j * n + i];
      else if (CONJ && i == j)
        m[i * n + i] = real_part(m[i * n + i]);
    }
  }
}

/* In place complex conjugate of n elements. */
template <typename T>
__global__ void conj_kernel(T *a, int64_t n)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = conj_(a[i]);
}

/* batch identities of n x n. */
template <typename T>
__global__ void eye_kernel(T *a, int64_t n, int64_t batch)
{
  int64_t total = batch * n * n, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += stride) {
    int64_t i = (t / n) % n, j = t % n;
    a[t] = i == j ? one_<T>() : zero_<T>();
  }
}

struct transpose_op {
  cusci__la_gpu *g;
  const void *src;
  void *dst;
  int64_t rows, cols, batch;
  bool conj;
  template <typename T>
  int run()
  {
    if (rows == 0 || cols == 0 || batch == 0)
      return 0;
    dim3 block(32, 8);
    int64_t ytiles = (rows + 31) / 32;
    if ((cols + 31) / 32 > INT32_MAX)
      return fail_(g, "a transpose of more column tiles than a grid holds", (int)cudaErrorInvalidConfiguration);
    dim3 grid((unsigned)((cols + 31) / 32), (unsigned)(ytiles < 65535 ? ytiles : 65535), (unsigned)(batch < 65535 ? batch : 65535));
    if (conj)
      LAUNCH(transpose_kernel<T, true><<<grid, block, 0, stream_of(g)>>>((const T *)src, (T *)dst, rows, cols, batch));
    else
      LAUNCH(transpose_kernel<T, false><<<grid, block, 0, stream_of(g)>>>((const T *)src, (T *)dst, rows, cols, batch));
    return 0;
  }
};

struct triangle_op {
  cusci__la_gpu *g;
  void *a;
  int64_t n, batch;
  int mode;
  bool conj;
  template <typename T>
  int run()
  {
    int64_t total = batch * n * n;
    if (total == 0)
      return 0;
    if (conj)
      LAUNCH(triangle_kernel<T, true><<<blocks_for(total, 256), 256, 0, stream_of(g)>>>((T *)a, n, batch, mode));
    else
      LAUNCH(triangle_kernel<T, false><<<blocks_for(total, 256), 256, 0, stream_of(g)>>>((T *)a, n, batch, mode));
    return 0;
  }
};

/* conj (what 0) or eye (what 1). */
struct simple_op {
  cusci__la_gpu *g;
  int what;
  void *a;
  int64_t n, batch;
  template <typename T>
  int run()
  {
    int64_t total = what == 0 ? n : batch * n * n;
    if (total == 0)
      return 0;
    if (what == 0)
      LAUNCH(conj_kernel<T><<<blocks_for(total, 256), 256, 0, stream_of(g)>>>((T *)a, n));
    else
      LAUNCH(eye_kernel<T><<<blocks_for(total, 256), 256, 0, stream_of(g)>>>((T *)a, n, batch));
    return 0;
  }
};

} // namespace

namespace cusci_la {

int transpose(cusci__la_gpu *g, int dt, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch, bool conj)
{
  transpose_op op{ g, src, dst, rows, cols, batch, conj && cusci_dtype_is_complex(dt) };
  return cusci::by_sdcz(dt, op);
}

int triangle(cusci__la_gpu *g, int dt, void *a, int64_t n, int64_t batch, int mode, bool conj)
{
  triangle_op op{ g, a, n, batch, mode, conj && cusci_dtype_is_complex(dt) };
  return cusci::by_sdcz(dt, op);
}

int conj_inplace(cusci__la_gpu *g, int dt, void *a, int64_t n)
{
  if (!cusci_dtype_is_complex(dt))
    return 0;
  simple_op op{ g, 0, a, n, 0 };
  return cusci::by_sdcz(dt, op);
}

int eye(cusci__la_gpu *g, int dt, void *a, int64_t n, int64_t batch)
{
  simple_op op{ g, 1, a, n, batch };
  return cusci::by_sdcz(dt, op);
}

int getrf_batch(cusci__la_gpu *g, int dt, int64_t batch, int64_t n, void *a, int64_t *ipiv, int *info)
{
  size_t dbytes = 0, hbytes = 0;
  cudaDataType t = cuda_type(dt);
  SOLVER_QUERY(cusolverDnXgetrf_bufferSize(solver_of(g), params_of(g), n, n, t, a, n, t, &dbytes, &hbytes));
  void *dw, *hw;
  RUN(take_zeroed(g, dbytes, &dw));
  RUN(take_host(g, hbytes, &hw));
  size_t isz = cusci_kit_itemsize(dt);
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrf(solver_of(g), params_of(g), n, n, t, (char *)a + (size_t)(i * n * n) * isz, n, ipiv + i * n, t, dw, dbytes,
                                hw, hbytes, info + i));
  return 0;
}

int potrf_batch(cusci__la_gpu *g, int dt, int64_t batch, int64_t n, cublasFillMode_t uplo, void *a, int *info)
{
  size_t dbytes = 0, hbytes = 0;
  cudaDataType t = cuda_type(dt);
  SOLVER_QUERY(cusolverDnXpotrf_bufferSize(solver_of(g), params_of(g), uplo, n, t, a, n, t, &dbytes, &hbytes));
  void *dw, *hw;
  RUN(take_zeroed(g, dbytes, &dw));
  RUN(take_host(g, hbytes, &hw));
  size_t isz = cusci_kit_itemsize(dt);
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXpotrf(solver_of(g), params_of(g), uplo, n, t, (char *)a + (size_t)(i * n * n) * isz, n, t, dw, dbytes, hw, hbytes,
                                info + i));
  return 0;
}

} // namespace cusci_la
