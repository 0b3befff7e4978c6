/*
 * kernels/linalg/lu_split.cu: the device side of lu_factor, lu_solve and lu
 * around cuSOLVER's getrf and getrs: the pivots converted between SciPy's
 * 0-based int32 and cuSOLVER's 1-based int64 (with lu_solve's range
 * check), and lu's split of the factors into p, l and u, with the formulas
 * of reference/linalg/lu_ops.h, which the host backend shares.
 *
 * Every kernel is a grid-stride loop over 64-bit indices, so that any
 * count is covered by a grid of bounded size.
 */
#include "kernels/linalg/common.cuh"
#include "reference/linalg/lu_ops.h"

namespace {

constexpr int kThreads = 256;
/* The order up to which a block keeps a matrix's rows in shared memory:
 * 48 KiB of int32, what a block may take without opting in. */
constexpr int64_t kSharedRows = 48 * 1024 / sizeof(int32_t);
/* Up to this order one thread computes a matrix's rows (a warp's worth of
 * short loops beats a block per matrix). */
constexpr int64_t kThreadRows = 32;

/* ------------------------------------------------------------ pivots */

__global__ void piv_from_lapack_kernel(const int64_t *__restrict__ ipiv, int64_t count, int32_t *__restrict__ piv)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    piv[i] = cusci__lu_piv_from_lapack(ipiv[i]);
}

/* bad[0] keeps the smallest index of a pivot out of range (atomicMin on a
 * word that starts as all ones). */
__global__ void piv_to_lapack_kernel(const int32_t *__restrict__ piv, int64_t count, int64_t n, int64_t *__restrict__ ipiv,
                                     unsigned long long *bad)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const int32_t p = piv[i];
    ipiv[i] = cusci__lu_piv_to_lapack(p, i % n, n);
    if (!cusci__lu_piv_ok(p, n))
      atomicMin(bad, (unsigned long long)i);
  }
}

/* bad[1] = the pivot at bad[0], when there is one; one thread, after
 * piv_to_lapack_kernel on the same stream. */
__global__ void piv_bad_value_kernel(const int32_t *__restrict__ piv, int64_t count, unsigned long long *bad)
{
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long at = bad[0];
    if (at < (unsigned long long)count)
      bad[1] = (unsigned long long)(long long)piv[at];
  }
}

/* ------------------------------------------------------------ lu's split */

/* rows of each matrix (cusci__lu_rows), one thread a matrix: small n, or
 * n past what shared memory holds. */
__global__ void rows_by_thread_kernel(const int32_t *__restrict__ piv, int64_t batch, int64_t n, int32_t *__restrict__ rows)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride)
    cusci__lu_rows(piv + b * n, n, rows + b * n);
}

/* rows of each matrix, one block a matrix: thread 0 swaps in shared
 * memory (n int32, n <= kSharedRows), then the block writes them out
 * coalesced. The branches on threadIdx.x are the same for every
 * iteration of the loop, which every thread of the block runs alike, so
 * the barriers are reached by all. */
__global__ void rows_by_block_kernel(const int32_t *__restrict__ piv, int64_t batch, int64_t n, int32_t *__restrict__ rows)
{
  extern __shared__ int32_t s[];
  for (int64_t b = blockIdx.x; b < batch; b += gridDim.x) {
    if (threadIdx.x == 0)
      cusci__lu_rows(piv + b * n, n, s);
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
      rows[b * n + i] = s[i];
    __syncthreads(); /* s is rewritten for the next matrix */
  }
}

/* l, u and p (unless NULL) of every matrix, one thread an element, from
 * the factors f and the rows that rows_by_*_kernel wrote. */
template <typename T, typename R>
__global__ void split_kernel(const T *__restrict__ f, const int32_t *__restrict__ rows, int64_t batch, int64_t n, bool permute_l,
                             R *__restrict__ p, T *__restrict__ l, T *__restrict__ u)
{
  const int64_t nn = n * n, total = batch * nn;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t at = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; at < total; at += stride) {
    const int64_t q = at / n, j = at - q * n; /* q = b n + i */
    const int64_t b = q / n, i = q - b * n;
    const T *fb = f + b * nn;
    const int32_t *rb = rows + b * n;
    const int64_t li = cusci__lu_l_row(rb, i, permute_l);
    const int lp = cusci__lu_l_part(li, j);
    l[at] = lp == CUSCI__LU_FACTOR ? fb[li * n + j] : lp == CUSCI__LU_ONE ? one_<T>() : T{};
    u[at] = cusci__lu_u_part(i, j) == CUSCI__LU_FACTOR ? f[at] : T{};
    if (p)
      p[at] = cusci__lu_p_one(rb, i, j) ? (R)1 : (R)0;
  }
}

struct split_op {
  cudaStream_t s;
  int64_t batch, n;
  const void *f;
  const int32_t *rows;
  bool permute_l;
  void *p, *l, *u;
  template <typename T>
  int run()
  {
    typedef typename real_t<T>::type R;
    split_kernel<T, R><<<blocks_for(batch * n * n, kThreads), kThreads, 0, s>>>((const T *)f, rows, batch, n, permute_l, (R *)p,
                                                                                (T *)l, (T *)u);
    return (int)cudaGetLastError();
  }
};

} // namespace

extern "C" int cusci__launch_la_piv_from_lapack(void *stream, int64_t count, const int64_t *ipiv, int32_t *piv)
{
  if (count <= 0)
    return 0;
  piv_from_lapack_kernel<<<blocks_for(count, kThreads), kThreads, 0, (cudaStream_t)stream>>>(ipiv, count, piv);
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_la_piv_to_lapack(void *stream, int64_t count, int64_t n, const int32_t *piv, int64_t *ipiv, uint64_t *bad)
{
  cudaStream_t s = (cudaStream_t)stream;
  /* All ones: no bad pivot (bad[0]), and bad[1] defined whatever follows. */
  cudaError_t e = cudaMemsetAsync(bad, 0xff, CUSCI__LA_PIV_BAD_WORDS * sizeof *bad, s);
  if (e != cudaSuccess || count <= 0 || n <= 0)
    return (int)e;
  unsigned long long *w = (unsigned long long *)bad;
  piv_to_lapack_kernel<<<blocks_for(count, kThreads), kThreads, 0, s>>>(piv, count, n, ipiv, w);
  e = cudaGetLastError();
  if (e != cudaSuccess)
    return (int)e;
  piv_bad_value_kernel<<<1, 32, 0, s>>>(piv, count, w);
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_la_lu_split(void *stream, int dt, int64_t batch, int64_t n, const void *f, const int32_t *piv,
                                         bool permute_l, int32_t *rows, void *p, void *l, void *u)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (batch <= 0 || n <= 0)
    return 0;
  if (n <= kThreadRows || n > kSharedRows)
    rows_by_thread_kernel<<<blocks_for(batch, 128), 128, 0, s>>>(piv, batch, n, rows);
  else
    rows_by_block_kernel<<<blocks_for(batch, 1), 128, (size_t)n * sizeof(int32_t), s>>>(piv, batch, n, rows);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return (int)e;
  split_op op{ s, batch, n, f, rows, permute_l, p, l, u };
  return cusci::by_sdcz(dt, op);
}
