/*
 * kernels/linalg/linalg.cu: liblinalg's CUDA backend, on cuBLAS and
 * cuSOLVER's 64-bit API, with the small kernels around them.
 *
 * The arrays are row-major and the vendor libraries column-major, so a
 * row-major A is read by them as A^T. Each operation uses that instead of
 * moving data where it can:
 *  - matmul: C^T = B^T A^T, one gemm with the operands swapped;
 *  - inv: inv(A^T) = inv(A)^T, so the column-major inverse of the buffer is
 *    the row-major inverse of A;
 *  - det: det(A^T) = det(A);
 *  - solve: getrf of A^T, then getrs with the transposed operator solves
 *    A x = b; b and x are transposed (only when b has several columns);
 *  - Hermitian A (cholesky, eigh, solve with pos): A^T = conj(A). A
 *    factorization of conj(A) that reads the mirrored triangle gives the
 *    conjugate of A's factor, which, read row-major, is the factor asked for
 *    (see each function);
 *  - svd: the SVD of A^T swaps the roles of U and V (see svd).
 * Numerical failures are counted in an int per matrix (cuSOLVER's info) and
 * read back with one synchronisation at the end.
 */
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <stdlib.h>
#include <string.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"
#include "kernels/linalg/launch.h"

namespace {

/* ------------------------------------------------------------ state */

struct la_state {
  cublasHandle_t blas;
  cusolverDnHandle_t solver;
  cusolverDnParams_t params;
  /* The small-matrix kernels' mailbox (made on first use, zero between
   * calls), its reply in mapped host memory, and the last call's epoch
   * (status_words). */
  cusci_array *mailbox_arr;
  la_mailbox *mailbox;
  la_reply *reply, *reply_dev;
  unsigned epoch;
};

char state_key; /* its address keys the state on the context */

void state_destroy(void *p)
{
  la_state *s = (la_state *)p;
  cusci_array_release(s->mailbox_arr);
  if (s->reply)
    cudaFreeHost(s->reply);
  if (s->params)
    cusolverDnDestroyParams(s->params);
  if (s->solver)
    cusolverDnDestroy(s->solver);
  if (s->blas)
    cublasDestroy(s->blas);
  free(s);
}

/* The context's handles, made on first use, on the context's stream. */
cusci_status get_state(cusci_ctx *ctx, const char *fn, la_state **out)
{
  TRY(cusci_ctx_use_device(ctx, fn));
  la_state *s = (la_state *)cusci_ctx_ext_get(ctx, &state_key);
  if (!s) {
    s = (la_state *)calloc(1, sizeof *s);
    if (!s)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no memory for the linalg handles");
    cublasStatus_t be = cublasCreate(&s->blas);
    cusolverStatus_t se = be == CUBLAS_STATUS_SUCCESS ? cusolverDnCreate(&s->solver) : CUSOLVER_STATUS_SUCCESS;
    if (be == CUBLAS_STATUS_SUCCESS && se == CUSOLVER_STATUS_SUCCESS)
      se = cusolverDnCreateParams(&s->params);
    if (be != CUBLAS_STATUS_SUCCESS || se != CUSOLVER_STATUS_SUCCESS) {
      state_destroy(s);
      return be != CUBLAS_STATUS_SUCCESS ? blas_fail(ctx, fn, "cublasCreate", be)
                                         : solver_fail(ctx, fn, "cusolverDnCreate", se);
    }
    cusci_status st = cusci_ctx_ext_set(ctx, &state_key, s, state_destroy);
    if (st != CUSCI_OK) {
      state_destroy(s);
      return st;
    }
  }
  cudaStream_t stream = (cudaStream_t)cusci_ctx_stream(ctx);
  BLAS_TRY(cublasSetStream(s->blas, stream));
  /* The context's math mode (cusci_linalg_set_math_mode) on every call. */
  BLAS_TRY(cublasSetMathMode(s->blas, cusci__la_math_mode(ctx) == 1 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
  SOLVER_TRY(cusolverDnSetStream(s->solver, stream));
  *out = s;
  return CUSCI_OK;
}

/* ------------------------------------------------------------ kernels */

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

/*
 * Work on the triangles of n x n row-major matrices. ZERO_UPPER / ZERO_LOWER
 * clear the part strictly above / below the diagonal; MIRROR_LOWER /
 * MIRROR_UPPER copy the lower / upper triangle onto the other (conjugated
 * when CONJ, with the diagonal made real: a Hermitian matrix from the
 * triangle LAPACK would read). MOVE_UPPER transposes the upper triangle
 * into the lower one and clears it (conjugating when CONJ, the diagonal
 * too): one thread per pair, so it works in place.
 */
enum { ZERO_UPPER, ZERO_LOWER, MIRROR_LOWER, MIRROR_UPPER, MOVE_UPPER };
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

/* det = prod(diag(U)) * (-1)^(row swaps) from getrf's factors; one thread
 * per matrix. */
template <typename T>
__global__ void det_kernel(const T *lu, const int64_t *ipiv, T *det, int64_t n, int64_t batch)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    const T *m = lu + b * n * n;
    const int64_t *p = ipiv + b * n;
    T d = one_<T>();
    for (int64_t j = 0; j < n; j++) {
      d = mul_(d, m[j * n + j]);
      if (p[j] != j + 1)
        d = neg_(d);
    }
    det[b] = d;
  }
}

/* slogdet from getrf's factors: sign = prod(d / |d|) * (-1)^(row swaps),
 * logabsdet = sum(log |d|) over the diagonal d of U; sign 0 and -inf for a
 * zero pivot. One thread per matrix. */
template <typename T, typename R>
__global__ void slogdet_kernel(const T *lu, const int64_t *ipiv, T *sign, R *logdet, int64_t n, int64_t batch)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    const T *m = lu + b * n * n;
    const int64_t *p = ipiv + b * n;
    T sg = one_<T>();
    R la = 0;
    for (int64_t j = 0; j < n; j++) {
      T d = m[j * n + j];
      R ad = abs_(d);
      if (ad == 0) {
        sg = zero_<T>();
        la = -INFINITY;
        break;
      }
      sg = mul_(sg, scale_(d, (R)1 / ad));
      la += log(ad);
      if (p[j] != j + 1)
        sg = neg_(sg);
    }
    sign[b] = sg;
    logdet[b] = la;
  }
}

/* ------------------------------------------------------------ small matrices */

/* An exactly zero pivot (abs1_ is LAPACK's pivot size). */
template <typename T> __device__ inline bool is_zero_(T a) { return abs1_(a) == 0; }

enum { SMALL_SOLVE = CUSCI__LA_SMALL_SOLVE, SMALL_INV = CUSCI__LA_SMALL_INV, SMALL_DET = CUSCI__LA_SMALL_DET };

/*
 * Gaussian elimination with partial pivoting (LAPACK's getrf order: the
 * largest |.| in the column, first of equals), one matrix per thread, the
 * matrix in registers: N is a template constant, so every index is known
 * at compile time and row swaps are predicated moves over the unrolled rows.
 * SOLVE: a x = b for b (N x k) row-major, read from bin and written to b
 * (bin may be b; a^T x = b when trans). INV: out = inv(a). DET: det[i] =
 * det(a). info[i] = the first exactly zero pivot (1-based), as getrf's;
 * the elimination goes on past it, as LAPACK's does, so that det is 0; the
 * first failing matrix goes to *first (note_failure). Multipliers and the
 * back substitution multiply by the pivot's reciprocal (getf2 scales the
 * column by it), one division a column.
 *
 * The row swaps are also kept as a permutation, perm (the original row at
 * each place, a nibble each): with P a = L U, a solve reads b's rows
 * through perm (P b), and inv solves L U y = e_c and puts y in column
 * perm(c) of the inverse (inv(a) = inv(U) inv(L) P), so that no register
 * is indexed by a run-time value.
 *
 * Memory access is coalesced by construction: a block is one warp and
 * handles SMALL_WARP consecutive matrices, which lie in one contiguous
 * stretch of memory. The warp copies that stretch into shared memory with
 * consecutive lanes on consecutive elements (a full warp's run by
 * cp.async, every load of it in flight at once, checked for inf and NaN
 * as the lanes read it back; a partial run through registers), then each
 * lane reads its own matrix from there (rows padded to N * N + 1 elements, so that the lanes fall on
 * different banks). Results (the inverse, or x when b has at most N
 * columns) go back the same way; b is checked for inf and NaN as it loads,
 * as a is. A failed matrix's x is its b. The block loop is uniform, so
 * every lane reaches every __syncthreads.
 */
#define SMALL_WARP 32

/* The staged element e of a run of matrices of `per` elements each, to or
 * from the padded slots of S elements: a full warp's run unrolled. */
template <typename T, int PER>
__device__ inline bool stage_in(const T *__restrict__ src, T *sm, int S, int cnt, int lane, bool check)
{
  bool bad = false;
  if (cnt == SMALL_WARP) {
#pragma unroll 8
    for (int i = 0; i < PER; i++) {
      const int e = lane + SMALL_WARP * i;
      T x = src[e];
      bad |= check && !finite_(x);
      sm[(e / PER) * S + e % PER] = x;
    }
  } else {
    for (int e = lane; e < cnt * PER; e += SMALL_WARP) {
      T x = src[e];
      bad |= check && !finite_(x);
      sm[(e / PER) * S + e % PER] = x;
    }
  }
  return bad;
}

/* A full warp's run of matrices copied to the padded slots without a
 * stop in registers (cp.async): every load of the run is in flight at
 * once. The elements must be aligned to their size; the caller checks
 * them for inf and NaN as it reads them from the slots. */
template <typename T, int PER>
__device__ inline void stage_async(const T *__restrict__ src, T *sm, int S, int lane)
{
  if constexpr (PER % SMALL_WARP == 0) {
    /* Lane l's i-th element sits at a constant offset from its first. */
    T *to = sm + lane;
    const T *from = src + lane;
#pragma unroll
    for (int i = 0; i < PER; i++)
      __pipeline_memcpy_async(to + (SMALL_WARP * i / PER) * S + SMALL_WARP * i % PER, from + SMALL_WARP * i, sizeof(T));
  } else {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      const int e = lane + SMALL_WARP * i;
      __pipeline_memcpy_async(sm + (e / PER) * S + e % PER, src + e, sizeof(T));
    }
  }
  __pipeline_commit();
}

template <typename T, int N, int MODE>
__device__ __forceinline__ void small_lu_body(const T *__restrict__ a, const T *bin, T *b, int64_t k, int64_t batch, bool trans, T *__restrict__ out,
                    int *__restrict__ info, unsigned long long *first, int *__restrict__ nonfinite)
{
  extern __shared__ unsigned char small_sm[];
  T *sm = (T *)small_sm;
  const int S = N * N + 1; /* a lane's slot in shared memory */
  const int lane = threadIdx.x;
  /* b staged too when a lane's x fits its slot. */
  const bool stage_b = MODE == SMALL_SOLVE && N * k <= S;
  for (int64_t base = (int64_t)blockIdx.x * SMALL_WARP; base < batch; base += (int64_t)gridDim.x * SMALL_WARP) {
    int cnt = batch - base < SMALL_WARP ? (int)(batch - base) : SMALL_WARP;
    bool active = lane < cnt;
    int64_t t = base + lane;
    /* Coalesced load of cnt matrices. */
    const bool direct = cnt == SMALL_WARP;
    bool bad = false;
    if (direct) {
      stage_async<T, N * N>(a + base * N * N, sm, S, lane);
      __pipeline_wait_prior(0);
    } else {
      bad = stage_in<T, N * N>(a + base * N * N, sm, S, cnt, lane, nonfinite != NULL);
    }
    __syncthreads();
    T m[N][N];
#pragma unroll
    for (int i = 0; i < N; i++)
#pragma unroll
      for (int j = 0; j < N; j++) {
        m[i][j] = active ? sm[lane * S + (trans ? j * N + i : i * N + j)] : (i == j ? one_<T>() : zero_<T>());
        bad |= direct && nonfinite && !finite_(m[i][j]);
      }
    __syncthreads();
    if (stage_b) {
      const T *bs = bin + base * N * k;
      if (k == 1) {
        bad |= stage_in<T, N>(bs, sm, S, cnt, lane, nonfinite != NULL);
      } else {
        for (int e = lane; e < cnt * N * (int)k; e += SMALL_WARP) {
          T x = bs[e];
          bad |= nonfinite && !finite_(x);
          sm[(e / (N * (int)k)) * S + e % (N * (int)k)] = x;
        }
      }
    } else if (MODE == SMALL_SOLVE && nonfinite && active) {
      /* b read in place below, and only for matrices that solve: checked
       * whole here. */
      const T *bs = bin + t * N * k;
      for (int64_t e = 0; e < N * k; e++)
        bad |= !finite_(bs[e]);
    }
    __syncthreads();
    unsigned perm = 0x76543210u; /* place i holds row (perm >> 4 i) & 15 */
    int first_zero = 0;
    bool odd = false;
#pragma unroll
    for (int c = 0; c < N; c++) {
      int p = c;
      auto best = abs1_(m[c][c]);
#pragma unroll
      for (int r = c + 1; r < N; r++)
        if (abs1_(m[r][c]) > best) {
          best = abs1_(m[r][c]);
          p = r;
        }
      if (p != c) {
        odd = !odd;
        unsigned x = ((perm >> (4 * c)) ^ (perm >> (4 * p))) & 15u;
        perm ^= (x << (4 * c)) | (x << (4 * p));
#pragma unroll
        for (int r = c + 1; r < N; r++)
          if (r == p)
#pragma unroll
            for (int j = 0; j < N; j++) {
              T y = m[c][j];
              m[c][j] = m[r][j];
              m[r][j] = y;
            }
      }
      if (is_zero_(m[c][c])) {
        if (!first_zero)
          first_zero = c + 1;
        continue;
      }
      /* The multipliers by the pivot's reciprocal, as getf2; the
       * reciprocal takes the pivot's place for the back substitution
       * (det multiplies the pivots themselves). */
      const T rd = div_(one_<T>(), m[c][c]);
#pragma unroll
      for (int r = c + 1; r < N; r++) {
        T l = mul_(m[r][c], rd);
        m[r][c] = l;
#pragma unroll
        for (int j = c + 1; j < N; j++)
          m[r][j] = sub_(m[r][j], mul_(l, m[c][j]));
      }
      if (MODE != SMALL_DET)
        m[c][c] = rd;
    }
    if (active && info)
      info[t] = first_zero;
    if (active)
      note_failure(first, t, first_zero);
    if (nonfinite && bad)
      *nonfinite = 1;
    if (MODE == SMALL_DET) {
      T d = one_<T>();
#pragma unroll
      for (int i = 0; i < N; i++)
        d = mul_(d, m[i][i]);
      if (active)
        out[t] = odd ? neg_(d) : d;
      continue;
    }
    bool solve = active && !first_zero;
    int64_t cols = MODE == SMALL_INV ? N : k;
    /* Where this lane's right-hand sides and results are: its shared slot
     * (row stride ld), or bin and b in global memory. */
    bool in_sm = MODE == SMALL_INV || stage_b;
    int64_t ld = MODE == SMALL_INV ? N : k;
    const T *xin = in_sm ? sm + lane * S : bin + t * N * k;
    T *xs = in_sm ? sm + lane * S : b + t * N * k;
    if (active && !solve && !in_sm && xin != xs)
      for (int64_t e = 0; e < N * k; e++)
        xs[e] = xin[e];
    /* Column col of x: P b's, or e_col for inv (whose forward
     * substitution starts at row col: x[r] - l 0 is x[r] for the zeros
     * above it). */
    auto column = [&](int64_t col) {
      T x[N];
#pragma unroll
      for (int i = 0; i < N; i++)
        x[i] = MODE == SMALL_INV ? (i == col ? one_<T>() : zero_<T>()) : xin[((perm >> (4 * i)) & 15u) * ld + col];
      /* L (unit lower), then U. */
#pragma unroll
      for (int c = 0; c < N; c++) {
        if (MODE == SMALL_INV && c < col)
          continue;
#pragma unroll
        for (int r = c + 1; r < N; r++)
          x[r] = sub_(x[r], mul_(m[r][c], x[c]));
      }
#pragma unroll
      for (int c = N - 1; c >= 0; c--) {
        x[c] = mul_(x[c], m[c][c]); /* the pivot's reciprocal */
#pragma unroll
        for (int r = 0; r < c; r++)
          x[r] = sub_(x[r], mul_(m[r][c], x[c]));
      }
      const int64_t to = MODE == SMALL_INV ? (int64_t)((perm >> (4 * col)) & 15u) : col;
#pragma unroll
      for (int i = 0; i < N; i++)
        xs[i * ld + to] = x[i];
    };
    if (solve) {
      if constexpr (MODE == SMALL_INV) {
#pragma unroll
        for (int col = 0; col < N; col++)
          column(col);
      } else {
        for (int64_t col = 0; col < cols; col++)
          column(col);
      }
    }
    __syncthreads();
    /* Coalesced store of the staged results (a failed matrix's slot holds
     * its b). */
    if (in_sm) {
      T *dst = MODE == SMALL_INV ? out + base * N * N : b + base * N * k;
      if (MODE == SMALL_INV && cnt == SMALL_WARP) {
#pragma unroll 16
        for (int i = 0; i < N * N; i++) {
          const int e = lane + SMALL_WARP * i;
          dst[e] = sm[(e / (N * N)) * S + e % (N * N)];
        }
      } else {
        int per = MODE == SMALL_INV ? N * N : N * (int)k;
        for (int e = lane; e < cnt * per; e += SMALL_WARP)
          dst[e] = sm[(e / per) * S + e % per];
      }
    }
    __syncthreads();
  }
}

template <typename T, int N, int MODE>
__global__ void __launch_bounds__(SMALL_WARP)
    small_lu_kernel(const T *__restrict__ a, const T *bin, T *b, int64_t k, int64_t batch, bool trans, T *__restrict__ out,
                    int *__restrict__ info, unsigned long long *first, int *__restrict__ nonfinite, const cusci__la_post post)
{
  small_lu_body<T, N, MODE>(a, bin, b, k, batch, trans, out, info, first, nonfinite);
  post_outcome(post);
}

/* The largest n the register kernel takes. */
#define SMALL_N 8

struct small_op {
  cusci_ctx *ctx;
  const char *fn;
  const void *a;
  const void *bin; /* SOLVE's right-hand sides; x goes to b */
  void *b;
  int64_t n, k, batch;
  int mode;
  bool trans;
  void *out;
  int *info;
  unsigned long long *first; /* the first failing matrix (note_failure), or NULL */
  int *nonfinite;            /* set when a (or b) holds an inf or NaN; NULL: no check */
  cusci__la_post post;       /* where the last block posts the outcome */
  template <typename T, int N>
  cusci_status launch()
  {
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    const size_t smem = sizeof(T) * SMALL_WARP * (N * N + 1);
    const unsigned blocks = blocks_for(batch, SMALL_WARP);
    /* Every array's elements lie at multiples of their size (cusci_array_wrap
     * refuses others), as cp.async needs. */
    static void (*const by_mode[])(const T *, const T *, T *, int64_t, int64_t, bool, T *, int *, unsigned long long *, int *,
                                   const cusci__la_post) = { small_lu_kernel<T, N, SMALL_SOLVE>, small_lu_kernel<T, N, SMALL_INV>,
                                                             small_lu_kernel<T, N, SMALL_DET> };
    by_mode[mode]<<<blocks, SMALL_WARP, smem, s>>>((const T *)a, (const T *)bin, (T *)b, k, batch, trans, (T *)out, info, first, nonfinite, post);
    LAUNCH_TRY();
    return CUSCI_OK;
  }
  template <typename T>
  cusci_status run()
  {
    if (batch == 0)
      return CUSCI_OK;
    switch (n) {
    case 1: return launch<T, 1>();
    case 2: return launch<T, 2>();
    case 3: return launch<T, 3>();
    case 4: return launch<T, 4>();
    case 5: return launch<T, 5>();
    case 6: return launch<T, 6>();
    case 7: return launch<T, 7>();
    case 8: return launch<T, 8>();
    default: return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "the register kernel takes n from 1 to 8, not %lld", (long long)n);
    }
  }
};

/* solve, inv or det of matrices of n <= CUSCI__LA_SMALL_MAX: the
 * one-matrix-per-thread kernel up to SMALL_N, the warp kernels of
 * small.cu above. */
static cusci_status small_run(int dt, small_op &op)
{
  if (op.n <= SMALL_N)
    return cusci::by_sdcz(dt, op);
  return cusci__gpu_la_small_queue(op.ctx, op.fn, dt, op.mode, op.trans, op.batch, op.n, op.k, op.a, op.bin, op.b, op.out, op.info, op.first,
                                   op.nonfinite, op.post);
}

/* ------------------------------------------------------------ helpers */

struct transpose_op {
  cusci_ctx *ctx;
  const char *fn;
  const void *src;
  void *dst;
  int64_t rows, cols, batch;
  bool conj;
  template <typename T>
  cusci_status run()
  {
    if (rows == 0 || cols == 0 || batch == 0)
      return CUSCI_OK;
    dim3 block(32, 8);
    int64_t ytiles = (rows + 31) / 32;
    if ((cols + 31) / 32 > INT32_MAX)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a matrix of %lld columns has more tiles than a grid holds", (long long)cols);
    dim3 grid((unsigned)((cols + 31) / 32), (unsigned)(ytiles < 65535 ? ytiles : 65535), (unsigned)(batch < 65535 ? batch : 65535));
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    if (conj)
      transpose_kernel<T, true><<<grid, block, 0, s>>>((const T *)src, (T *)dst, rows, cols, batch);
    else
      transpose_kernel<T, false><<<grid, block, 0, s>>>((const T *)src, (T *)dst, rows, cols, batch);
    LAUNCH_TRY();
    return CUSCI_OK;
  }
};

/* dst = op(src)^T for a batch of rows x cols row-major matrices. */
cusci_status transpose(cusci_ctx *ctx, const char *fn, int dt, const void *src, void *dst, int64_t rows, int64_t cols, int64_t batch, bool conj)
{
  transpose_op op{ ctx, fn, src, dst, rows, cols, batch, conj && cusci_dtype_is_complex(dt) };
  return cusci::by_sdcz(dt, op);
}

struct triangle_op {
  cusci_ctx *ctx;
  const char *fn;
  void *a;
  int64_t n, batch;
  int mode;
  bool conj;
  template <typename T>
  cusci_status run()
  {
    int64_t total = batch * n * n;
    if (total == 0)
      return CUSCI_OK;
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    if (conj)
      triangle_kernel<T, true><<<blocks_for(total, 256), 256, 0, s>>>((T *)a, n, batch, mode);
    else
      triangle_kernel<T, false><<<blocks_for(total, 256), 256, 0, s>>>((T *)a, n, batch, mode);
    LAUNCH_TRY();
    return CUSCI_OK;
  }
};

cusci_status triangle(cusci_ctx *ctx, const char *fn, int dt, void *a, int64_t n, int64_t batch, int mode, bool conj)
{
  triangle_op op{ ctx, fn, a, n, batch, mode, conj && cusci_dtype_is_complex(dt) };
  return cusci::by_sdcz(dt, op);
}

struct simple_op {
  cusci_ctx *ctx;
  const char *fn;
  int what; /* 0 conj, 1 eye, 2 det */
  void *a;
  int64_t n, batch;
  const int64_t *ipiv;
  void *det;
  template <typename T>
  cusci_status run()
  {
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    int64_t total = what == 0 ? n : what == 1 ? batch * n * n : batch;
    if (total == 0)
      return CUSCI_OK;
    if (what == 0)
      conj_kernel<T><<<blocks_for(total, 256), 256, 0, s>>>((T *)a, n);
    else if (what == 1)
      eye_kernel<T><<<blocks_for(total, 256), 256, 0, s>>>((T *)a, n, batch);
    else
      det_kernel<T><<<blocks_for(total, 128), 128, 0, s>>>((const T *)a, ipiv, (T *)det, n, batch);
    LAUNCH_TRY();
    return CUSCI_OK;
  }
};

cusci_status conj_inplace(cusci_ctx *ctx, const char *fn, int dt, void *a, int64_t n)
{
  if (!cusci_dtype_is_complex(dt))
    return CUSCI_OK;
  simple_op op{ ctx, fn, 0, a, n, 0, NULL, NULL };
  return cusci::by_sdcz(dt, op);
}

/* The first matrix with nonzero info into the summary word (see
 * note_failure). */
__global__ void summarize_kernel(const int *words, int64_t batch, unsigned long long *first)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < batch; i += (int64_t)gridDim.x * blockDim.x)
    note_failure(first, i, words[i]);
}

/* The context's mailbox and reply, made once (zeroed on the stream). */
cusci_status mailbox_ready(cusci_ctx *ctx, const char *fn, la_state *st)
{
  if (st->mailbox)
    return CUSCI_OK;
  if (!st->reply) {
    CUDA_TRY(cudaHostAlloc((void **)&st->reply, sizeof(la_reply), cudaHostAllocMapped));
    memset(st->reply, 0, sizeof(la_reply));
    cudaError_t e = cudaHostGetDevicePointer((void **)&st->reply_dev, st->reply, 0);
    if (e != cudaSuccess) {
      cudaFreeHost(st->reply);
      st->reply = NULL;
      return cuda_fail(ctx, fn, "cudaHostGetDevicePointer", e);
    }
  }
  void *p;
  TRY(scratch(ctx, sizeof(la_mailbox), &st->mailbox_arr, &p));
  CUDA_TRY(cudaMemsetAsync(p, 0, sizeof(la_mailbox), (cudaStream_t)cusci_ctx_stream(ctx)));
  st->mailbox = (la_mailbox *)p;
  return CUSCI_OK;
}

/*
 * The status words of a call: info[0..batch) per matrix, then the
 * non-finite flag, then (8-byte aligned) the summary word: the first
 * failing matrix and its info (note_failure). Zeroed on the stream; read
 * back with one sync. When the call's kernels write every info word and
 * the summary themselves (`summarized`: the small-matrix kernels), only
 * the flag and the summary are zeroed, and the read needs no summarizing
 * kernel.
 *
 * Unless the check is deferred, such a call needs neither words of its
 * own, nor a memset, nor a copy back (each a few microseconds): given the
 * state, the kernels gather the first failure and the flag in the
 * context's mailbox, and the last block to finish copies them to the
 * mapped reply and stamps it with the call's epoch (post_outcome); read
 * polls the stamp. No info words are written then.
 */
struct status_words {
  int *dev = nullptr;
  cusci_array *arr = nullptr; /* dev's pool array, kept by a deferred check */
  int64_t batch = 0;
  bool summarized = false;
  la_state *mail = nullptr; /* posting through this state's mailbox */
  unsigned epoch = 0;
  cudaStream_t stream = nullptr;
  bool posted = false;
  status_words() = default;
  status_words(const status_words &) = delete;
  status_words &operator=(const status_words &) = delete;
  /* A call that failed before its kernel ran leaves the mailbox zero. */
  ~status_words()
  {
    if (mail && !posted)
      cudaMemsetAsync(mail->mailbox, 0, sizeof(la_mailbox), stream);
  }
  cusci_status init(cusci_ctx *ctx, const char *fn, scratch_set &sc, int64_t nbatch, bool by_kernel = false, la_state *st = nullptr)
  {
    batch = nbatch;
    summarized = by_kernel && batch < (INT64_C(1) << 32);
    stream = (cudaStream_t)cusci_ctx_stream(ctx);
    if (summarized && st && batch > 0 && !cusci__la_deferred(ctx)) {
      TRY(mailbox_ready(ctx, fn, st));
      mail = st;
      epoch = ++st->epoch;
      return CUSCI_OK;
    }
    void *p;
    TRY(sc.get(ctx, fn, bytes(), &p));
    dev = (int *)p;
    arr = sc.dev[sc.ndev - 1];
    /* Every word, the info words of a summarized call too: det and
     * slogdet write none of them, and a deferred check copies them all. */
    CUDA_TRY(cudaMemsetAsync(dev, 0, bytes(), (cudaStream_t)cusci_ctx_stream(ctx)));
    return CUSCI_OK;
  }
  int *flag() { return mail ? &mail->mailbox->flag : dev + batch; }
  /* The info words, NULL when nothing reads them. */
  int *info() { return mail ? nullptr : dev; }
  /* The summary word, for kernels that keep it (NULL otherwise). */
  unsigned long long *first()
  {
    return mail ? &mail->mailbox->first : summarized ? (unsigned long long *)((char *)dev + summary_at()) : NULL;
  }
  /* Where the kernel posts the outcome. */
  cusci__la_post post() const
  {
    return mail ? cusci__la_post{ mail->mailbox, mail->reply_dev, epoch } : cusci__la_post{ nullptr, nullptr, 0 };
  }
  size_t summary_at() const { return (sizeof(int) * (size_t)(batch + 1) + 7) / 8 * 8; }
  size_t bytes() const { return summary_at() + sizeof(unsigned long long); }
  /* Wait for the stream, then report the first failing matrix and the flag. */
  cusci_status read(cusci_ctx *ctx, const char *fn, cusci__la_fail *fail, bool *nonfinite)
  {
    if (mail)
      return read_reply(ctx, fn, fail, nonfinite);
    if (cusci__la_deferred(ctx)) {
      /* No sync: the words stay on the device for cusci_linalg_check. */
      if (nonfinite)
        *nonfinite = false;
      if (fail)
        *fail = cusci__la_fail{ 0, 0 };
      return cusci__la_defer(ctx, fn, arr, batch, fail != NULL);
    }
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    if (summarized || (batch > 16 && batch < (INT64_C(1) << 32))) {
      /* The first failure and the flag, found on the device, come back in
       * the words' tail instead of batch + 1 words. */
      size_t from = sizeof(int) * (size_t)batch;
      unsigned char tail[32];
      cudaError_t e = cudaSuccess;
      if (!summarized && fail) {
        summarize_kernel<<<blocks_for(batch, 256) < 1024 ? blocks_for(batch, 256) : 1024, 256, 0, s>>>(
            dev, batch, (unsigned long long *)((char *)dev + summary_at()));
        e = cudaGetLastError();
      }
      if (e == cudaSuccess)
        e = cudaMemcpyAsync(tail, (char *)dev + from, bytes() - from, cudaMemcpyDeviceToHost, s);
      if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
      if (e != cudaSuccess)
        return cuda_fail(ctx, fn, "reading the solver's info", e);
      int hflag;
      unsigned long long key;
      memcpy(&hflag, tail, sizeof hflag);
      memcpy(&key, tail + (summary_at() - from), sizeof key);
      if (nonfinite)
        *nonfinite = hflag != 0;
      if (fail) {
        *fail = cusci__la_fail{ 0, 0 };
        if (key != 0)
          *fail = cusci__la_fail{ (int64_t)(~key >> 32), (int)(uint32_t)~key };
      }
      if (fail && fail->info < 0)
        return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "cuSOLVER rejected argument %lld", (long long)-fail->info);
      return CUSCI_OK;
    }
    int *h = (int *)malloc(sizeof(int) * (size_t)(batch + 1));
    if (!h)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld info words", (long long)batch + 1);
    cudaError_t e = cudaMemcpyAsync(h, dev, sizeof(int) * (size_t)(batch + 1), cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
      free(h);
      return cuda_fail(ctx, fn, "reading the solver's info", e);
    }
    if (nonfinite)
      *nonfinite = h[batch] != 0;
    if (fail) {
      *fail = cusci__la_fail{ 0, 0 };
      for (int64_t i = 0; i < batch; i++)
        if (h[i] != 0) {
          *fail = cusci__la_fail{ i, h[i] };
          break;
        }
    }
    free(h);
    if (fail && fail->info < 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "cuSOLVER rejected argument %lld", (long long)-fail->info);
    return CUSCI_OK;
  }
  /* Poll the reply's stamp (the stream between polls: a kernel that never
   * posts is an error, not a hang), then read it. */
  cusci_status read_reply(cusci_ctx *ctx, const char *fn, cusci__la_fail *fail, bool *nonfinite)
  {
    posted = true;
    volatile la_reply *r = mail->reply;
    while (r->epoch != epoch) {
      for (int i = 0; i < 1024 && r->epoch != epoch; i++)
        ;
      if (r->epoch == epoch)
        break;
      cudaError_t e = cudaStreamQuery(stream);
      if (e == cudaErrorNotReady)
        continue;
      if (e != cudaSuccess)
        return cuda_fail(ctx, fn, "waiting for the small-matrix kernel", e);
      if (r->epoch != epoch)
        return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "the small-matrix kernel posted no outcome");
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    const unsigned long long key = r->first;
    if (nonfinite)
      *nonfinite = r->flag != 0;
    if (fail)
      *fail = key ? cusci__la_fail{ (int64_t)(~key >> 32), (int)(uint32_t)~key } : cusci__la_fail{ 0, 0 };
    return CUSCI_OK;
  }
};

/* cuSOLVER's Xgetrf for each matrix of a batch (ipiv n per matrix). */
cusci_status getrf_batch(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, int dt, int64_t batch, int64_t n, void *a, int64_t *ipiv, int *info)
{
  size_t dbytes = 0, hbytes = 0;
  cudaDataType t = cuda_type(dt);
  SOLVER_TRY(cusolverDnXgetrf_bufferSize(st->solver, st->params, n, n, t, a, n, t, &dbytes, &hbytes));
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
  TRY(sc.get_host(ctx, fn, hbytes, &hw));
  size_t isz = cusci_kit_itemsize(dt);
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrf(st->solver, st->params, n, n, t, (char *)a + (size_t)(i * n * n) * isz, n, ipiv + i * n, t,
                                dw, dbytes, hw, hbytes, info + i));
  return CUSCI_OK;
}

/* cuSOLVER's Xpotrf for each matrix of a batch. */
cusci_status potrf_batch(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, int dt, int64_t batch, int64_t n, cublasFillMode_t uplo, void *a, int *info)
{
  size_t dbytes = 0, hbytes = 0;
  cudaDataType t = cuda_type(dt);
  SOLVER_TRY(cusolverDnXpotrf_bufferSize(st->solver, st->params, uplo, n, t, a, n, t, &dbytes, &hbytes));
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
  TRY(sc.get_host(ctx, fn, hbytes, &hw));
  size_t isz = cusci_kit_itemsize(dt);
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXpotrf(st->solver, st->params, uplo, n, t, (char *)a + (size_t)(i * n * n) * isz, n, t, dw, dbytes,
                                hw, hbytes, info + i));
  return CUSCI_OK;
}

} /* namespace */

/* ------------------------------------------------------------ entry points */

/*
 * Row-major C (m x n) = A (m x k) B (k x n) is column-major C^T = B^T A^T:
 * one strided-batched gemm with the operands swapped, no copies. float32
 * products use full float32 arithmetic (no TF32).
 */
extern "C" cusci_status cusci__gpu_la_gemm(cusci_ctx *ctx, const char *fn, int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa, const void *b, int64_t sb, void *c)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  if (batch == 0 || m == 0 || n == 0)
    return CUSCI_OK;
  size_t isz = cusci_kit_itemsize(dt);
  if (k == 0) {
    CUDA_TRY(cudaMemsetAsync(c, 0, (size_t)(batch * m * n) * isz, (cudaStream_t)cusci_ctx_stream(ctx)));
    return CUSCI_OK;
  }
  cudaDataType t = cuda_type(dt);
  cublasComputeType_t ct = cusci_dtype_is_single(dt) ? (cusci__la_math_mode(ctx) == 1 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F) : CUBLAS_COMPUTE_64F;
  const double one_d[2] = { 1.0, 0.0 }, zero_d[2] = { 0.0, 0.0 };
  const float one_f[2] = { 1.0f, 0.0f }, zero_f[2] = { 0.0f, 0.0f };
  const void *alpha = cusci_dtype_is_single(dt) ? (const void *)one_f : (const void *)one_d;
  const void *beta = cusci_dtype_is_single(dt) ? (const void *)zero_f : (const void *)zero_d;
  BLAS_TRY(cublasSetPointerMode(st->blas, CUBLAS_POINTER_MODE_HOST));
  /* cuBLAS counts extents and the batch in int; split a larger batch. */
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a matrix extent exceeds cuBLAS's int");
  for (int64_t b0 = 0; b0 < batch; b0 += INT32_MAX) {
    int64_t nb = batch - b0 < INT32_MAX ? batch - b0 : INT32_MAX;
    const char *ab = (const char *)a + (size_t)(b0 * sa) * isz, *bb = (const char *)b + (size_t)(b0 * sb) * isz;
    char *cb = (char *)c + (size_t)(b0 * m * n) * isz;
    if (nb == 1)
      BLAS_TRY(cublasGemmEx(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, alpha, bb, t, (int)n, ab, t, (int)k,
                            beta, cb, t, (int)n, ct, CUBLAS_GEMM_DEFAULT));
    else
      BLAS_TRY(cublasGemmStridedBatchedEx(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, alpha, bb, t, (int)n,
                                          sb, ab, t, (int)k, sa, beta, cb, t, (int)n, m * n, (int)nb, ct,
                                          CUBLAS_GEMM_DEFAULT));
  }
  return CUSCI_OK;
}

/* info[b] = the first exactly zero diagonal element (1-based), or 0. */
template <typename T>
__global__ void zero_diag_kernel(const T *a, int64_t n, int64_t batch, int *info)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < batch; b += stride) {
    int first = 0;
    for (int64_t j = n - 1; j >= 0; j--)
      if (is_zero_(a[b * n * n + j * n + j]))
        first = (int)j + 1;
    info[b] = first;
  }
}

/* cuBLAS trsm per element type (it has no generic-type trsm). */
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const float *a,
                    float *b)
{
  const float one = 1;
  return cublasStrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const double *a,
                    double *b)
{
  const double one = 1;
  return cublasDtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const float2 *a,
                    float2 *b)
{
  const cuComplex one = make_cuComplex(1, 0);
  return cublasCtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m, int n, const double2 *a,
                    double2 *b)
{
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0);
  return cublasZtrsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, &one, a, m, b, m);
}

struct triangular_op {
  cusci_ctx *ctx;
  const char *fn;
  la_state *st;
  cublasFillMode_t uplo;
  cublasOperation_t op;
  cublasDiagType_t diag;
  bool check_diag;
  int64_t n, k, batch;
  const void *a;
  void *bc;
  int *info;
  template <typename T>
  cusci_status run()
  {
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    if (check_diag) {
      zero_diag_kernel<T><<<blocks_for(batch, 128), 128, 0, s>>>((const T *)a, n, batch, info);
      LAUNCH_TRY();
    }
    BLAS_TRY(cublasSetPointerMode(st->blas, CUBLAS_POINTER_MODE_HOST));
    for (int64_t i = 0; i < batch; i++)
      BLAS_TRY(trsm(st->blas, uplo, op, diag, (int)n, (int)k, (const T *)a + i * n * n, (T *)bc + i * n * k));
    return CUSCI_OK;
  }
};

/*
 * solve_triangular. The buffer is A^T, triangular the other way (row-major
 * lower is column-major upper). trsm with op = T solves (A^T)^T x = b;
 * op = N solves A^T x = b; A^H x = b is A^T conj(x) = conj(b), so b and x
 * are conjugated in their transposes. A zero diagonal element is found by
 * a kernel first (trsm does not look), unless the diagonal is unit.
 */
static cusci_status triangular(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, status_words &sw, int dt, bool lower, int trans,
                               bool unit, int64_t batch, int64_t n, int64_t k, void *a, void *b, cusci__la_fail *fail, bool *nonfinite)
{
  if (n > INT32_MAX || k > INT32_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a matrix extent exceeds cuBLAS's int");
  bool cj = trans == 2 && cusci_dtype_is_complex(dt);
  void *bc;
  TRY(sc.get(ctx, fn, (size_t)(batch * n * k) * cusci_kit_itemsize(dt), &bc));
  TRY(transpose(ctx, fn, dt, b, bc, n, k, batch, cj));
  triangular_op op{ ctx, fn, st, lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, trans == 0 ? CUBLAS_OP_T : CUBLAS_OP_N,
                    unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, !unit, n, k, batch, a, bc, sw.dev };
  TRY(cusci::by_sdcz(dt, op));
  TRY(transpose(ctx, fn, dt, bc, b, k, n, batch, cj));
  return sw.read(ctx, fn, fail, nonfinite);
}

/*
 * solve. General: the buffer is A^T; getrf factors it and getrs with
 * op = T solves (A^T)^T x = b (op = N for `trans`). Symmetric and
 * Hermitian matrices are first completed from the triangle SciPy reads.
 * Positive definite: the buffer is conj(A) (A Hermitian), so potrf and
 * potrs on conj(b) give conj(x); the transposes of b and x conjugate too.
 * A factor from cholesky, read column-major, is what potrf leaves in that
 * buffer (see cholesky), so cho_solve is the same path without potrf.
 * The triangle: row-major lower is column-major upper.
 */
extern "C" cusci_status cusci__gpu_la_solve(cusci_ctx *ctx, const char *fn, int dt, int assume, bool lower, int trans, bool unit, bool check_finite, int64_t batch, int64_t n, int64_t k, void *a, const void *bin, void *b, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  bool pos = assume == CUSCI__LA_POS || assume == CUSCI__LA_FACTORED;
  /* Small general, banded (dense in memory), symmetric and Hermitian
   * matrices: one per thread (n <= 8) or per warp (small.cu), in
   * registers, which write every info word and the first failure
   * themselves. */
  const bool small = cusci__la_small_solve(assume, n);
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch, small, st));
  /* The small kernels check a and b as they load them (general a only: a
   * symmetric one is checked whole before its triangle is mirrored). */
  const bool fused = small && cusci__la_small_reads_a(assume);
  if (check_finite && !fused) {
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
    TRY(check_finite_async(ctx, fn, dt, batch * n * k, bin, sw.flag()));
  }
  if (small) {
    /* x goes from bin to b. */
    if (assume == CUSCI__LA_SYM || assume == CUSCI__LA_HER)
      TRY(triangle(ctx, fn, dt, a, n, batch, lower ? MIRROR_LOWER : MIRROR_UPPER, assume == CUSCI__LA_HER));
    int *flag = fused && check_finite ? sw.flag() : NULL;
    small_op op{ ctx, fn, a, bin, b, n, k, batch, SMALL_SOLVE, trans != 0, NULL, sw.info(), sw.first(), flag, sw.post() };
    TRY(small_run(dt, op));
    return sw.read(ctx, fn, fail, nonfinite);
  }
  /* The other paths solve in place. */
  size_t isz = cusci_kit_itemsize(dt);
  if (bin != b && batch * n * k > 0)
    CUDA_TRY(cudaMemcpyAsync(b, bin, (size_t)(batch * n * k) * isz, cudaMemcpyDeviceToDevice, (cudaStream_t)cusci_ctx_stream(ctx)));
  cudaDataType t = cuda_type(dt);
  if (assume == CUSCI__LA_TRIANGULAR)
    return triangular(ctx, fn, st, sc, sw, dt, lower, trans, unit, batch, n, k, a, b, fail, nonfinite);
  /* solve's structured kinds: diagonal and tridiagonal by the banded LU
   * kernel (kernels/linalg/solvers.cu); banded a is dense in memory
   * already, so it takes the general path. */
  if (assume == CUSCI__LA_DIAGONAL || assume == CUSCI__LA_TRIDIAGONAL) {
    int64_t w = assume == CUSCI__LA_DIAGONAL ? 0 : 1;
    TRY(cusci__gpu_la_band_queue(ctx, fn, dt, CUSCI__LA_GEN, trans ? 1 : 0, batch, n, k, w, w, false, a, b, sw.dev));
    return sw.read(ctx, fn, fail, nonfinite);
  }
  if (assume == CUSCI__LA_BANDED)
    assume = CUSCI__LA_GEN;
  /* b in column-major order: a transpose unless it is one column. */
  void *bc = b;
  if (k > 1 || (pos && cusci_dtype_is_complex(dt))) {
    TRY(sc.get(ctx, fn, (size_t)(batch * n * k) * isz, &bc));
    TRY(transpose(ctx, fn, dt, b, bc, n, k, batch, pos));
  }
  void *rinfo; /* getrs/potrs report only argument errors: kept apart */
  TRY(sc.get(ctx, fn, sizeof(int), &rinfo));
  if (pos) {
    cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    if (assume == CUSCI__LA_POS) /* FACTORED: a is the factor already */
      TRY(potrf_batch(ctx, fn, st, sc, dt, batch, n, uplo, a, sw.dev));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXpotrs(st->solver, st->params, uplo, n, k, t, (char *)a + (size_t)(i * n * n) * isz, n, t,
                                  (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  } else {
    if (assume == CUSCI__LA_SYM || assume == CUSCI__LA_HER)
      TRY(triangle(ctx, fn, dt, a, n, batch, lower ? MIRROR_LOWER : MIRROR_UPPER, assume == CUSCI__LA_HER));
    void *ipiv;
    TRY(sc.get(ctx, fn, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
    TRY(getrf_batch(ctx, fn, st, sc, dt, batch, n, a, (int64_t *)ipiv, sw.dev));
    for (int64_t i = 0; i < batch; i++)
      SOLVER_TRY(cusolverDnXgetrs(st->solver, st->params, trans ? CUBLAS_OP_N : CUBLAS_OP_T, n, k, t,
                                  (char *)a + (size_t)(i * n * n) * isz, n, (int64_t *)ipiv + i * n, t,
                                  (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  }
  if (bc != b)
    TRY(transpose(ctx, fn, dt, bc, b, k, n, batch, pos));
  return sw.read(ctx, fn, fail, nonfinite);
}

/*
 * inv: the buffer is A^T and inv(A^T) = inv(A)^T, so solving the buffer's
 * system against the identity (getrs, op = N) leaves, column-major,
 * inv(A)^T: row-major, inv(A).
 */
extern "C" cusci_status cusci__gpu_la_inv(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *out, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  /* The small kernels (n <= 32) check a as they load it, and write every
   * info word and the first failure themselves. */
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  TRY(sw.init(ctx, fn, sc, batch, small, st));
  if (check_finite && !small)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  if (small) {
    int *flag = check_finite ? sw.flag() : NULL;
    small_op op{ ctx, fn, a, NULL, NULL, n, 0, batch, SMALL_INV, false, out, sw.info(), sw.first(), flag, sw.post() };
    TRY(small_run(dt, op));
    return sw.read(ctx, fn, fail, nonfinite);
  }
  size_t isz = cusci_kit_itemsize(dt);
  cudaDataType t = cuda_type(dt);
  void *ipiv, *rinfo;
  TRY(sc.get(ctx, fn, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  TRY(sc.get(ctx, fn, sizeof(int), &rinfo));
  TRY(getrf_batch(ctx, fn, st, sc, dt, batch, n, a, (int64_t *)ipiv, sw.dev));
  simple_op eye{ ctx, fn, 1, out, n, batch, NULL, NULL };
  TRY(cusci::by_sdcz(dt, eye));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrs(st->solver, st->params, CUBLAS_OP_N, n, n, t, (char *)a + (size_t)(i * n * n) * isz, n,
                                (int64_t *)ipiv + i * n, t, (char *)out + (size_t)(i * n * n) * isz, n, (int *)rinfo));
  return sw.read(ctx, fn, fail, nonfinite);
}

/* det(A) = det(A^T): getrf of the buffer, then the diagonal's product. */
extern "C" cusci_status cusci__gpu_la_det(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *det, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  /* The small kernels (n <= 32) check a as they load it; det reads no
   * info words. */
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  TRY(sw.init(ctx, fn, sc, batch, small, st));
  if (check_finite && !small)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  if (small) {
    int *flag = check_finite ? sw.flag() : NULL;
    small_op op{ ctx, fn, a, NULL, NULL, n, 0, batch, SMALL_DET, false, det, NULL, NULL, flag, sw.post() };
    TRY(small_run(dt, op));
    return sw.read(ctx, fn, NULL, nonfinite);
  }
  void *ipiv;
  TRY(sc.get(ctx, fn, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  TRY(getrf_batch(ctx, fn, st, sc, dt, batch, n, a, (int64_t *)ipiv, sw.dev));
  simple_op d{ ctx, fn, 2, a, n, batch, (const int64_t *)ipiv, det };
  TRY(cusci::by_sdcz(dt, d));
  /* A zero pivot is no failure here: the determinant is 0. */
  return sw.read(ctx, fn, NULL, nonfinite);
}

/* slogdet: getrf of the buffer (det(A^T) = det(A)), then the diagonal's
 * signs and log magnitudes. */
struct slogdet_op {
  cusci_ctx *ctx;
  const char *fn;
  const void *lu;
  const int64_t *ipiv;
  void *sign, *logdet;
  int64_t n, batch;
  template <typename T>
  cusci_status run()
  {
    if (batch == 0)
      return CUSCI_OK;
    cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
    typedef typename real_t<T>::type R;
    slogdet_kernel<T, R><<<blocks_for(batch, 128), 128, 0, s>>>((const T *)lu, ipiv, (T *)sign, (R *)logdet, n, batch);
    LAUNCH_TRY();
    return CUSCI_OK;
  }
};

extern "C" cusci_status cusci__gpu_la_slogdet(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *sign, void *logdet, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  const bool small = n <= CUSCI__LA_SMALL_MAX;
  TRY(sw.init(ctx, fn, sc, batch, small, st));
  if (small) {
    /* The register kernel of small.cu, for every n it takes; it checks a
     * as it loads it. */
    TRY(cusci__gpu_la_small_queue(ctx, fn, dt, CUSCI__LA_SMALL_SLOGDET, false, batch, n, 0, a, NULL, logdet, sign, NULL, NULL,
                                  check_finite ? sw.flag() : NULL, sw.post()));
    return sw.read(ctx, fn, NULL, nonfinite);
  }
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  void *ipiv;
  TRY(sc.get(ctx, fn, sizeof(int64_t) * (size_t)(batch * n), &ipiv));
  TRY(getrf_batch(ctx, fn, st, sc, dt, batch, n, a, (int64_t *)ipiv, sw.dev));
  slogdet_op op{ ctx, fn, a, (const int64_t *)ipiv, sign, logdet, n, batch };
  TRY(cusci::by_sdcz(dt, op));
  /* A zero pivot is no failure: sign 0, logabsdet -inf. */
  return sw.read(ctx, fn, NULL, nonfinite);
}

/*
 * lu_factor: the factors of A itself (SciPy's), not of the A^T that the
 * row-major buffer is to cuSOLVER: A is transposed into column-major order,
 * factored by getrf, and transposed back. ipiv: n per matrix, 1-based.
 */
extern "C" cusci_status cusci__gpu_la_lu_factor(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, int64_t *ipiv, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  void *buf;
  TRY(sc.get(ctx, fn, (size_t)(batch * n * n) * cusci_kit_itemsize(dt), &buf));
  TRY(transpose(ctx, fn, dt, a, buf, n, n, batch, false));
  TRY(getrf_batch(ctx, fn, st, sc, dt, batch, n, buf, ipiv, sw.dev));
  TRY(transpose(ctx, fn, dt, buf, a, n, n, batch, false));
  /* A zero pivot is no failure here (SciPy only warns). */
  return sw.read(ctx, fn, NULL, nonfinite);
}

/*
 * lu_solve: op(A) x = b from lu_factor's factors of A (row-major), which
 * are transposed into column-major order for getrs; b and x are transposed
 * as in solve. trans: 0 A, 1 A^T, 2 A^H.
 */
extern "C" cusci_status cusci__gpu_la_lu_solve(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, int64_t k, int trans, const void *lu, const int64_t *ipiv, void *b, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite) {
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, lu, sw.flag()));
    TRY(check_finite_async(ctx, fn, dt, batch * n * k, b, sw.flag()));
  }
  size_t isz = cusci_kit_itemsize(dt);
  cudaDataType t = cuda_type(dt);
  void *lc, *bc, *rinfo;
  TRY(sc.get(ctx, fn, (size_t)(batch * n * n) * isz, &lc));
  TRY(sc.get(ctx, fn, (size_t)(batch * n * k) * isz, &bc));
  TRY(sc.get(ctx, fn, sizeof(int), &rinfo));
  TRY(transpose(ctx, fn, dt, lu, lc, n, n, batch, false));
  TRY(transpose(ctx, fn, dt, b, bc, n, k, batch, false));
  cublasOperation_t op = trans == 1 ? CUBLAS_OP_T : trans == 2 ? CUBLAS_OP_C : CUBLAS_OP_N;
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgetrs(st->solver, st->params, op, n, k, t, (char *)lc + (size_t)(i * n * n) * isz, n, ipiv + i * n, t,
                                (char *)bc + (size_t)(i * n * k) * isz, n, (int *)rinfo));
  TRY(transpose(ctx, fn, dt, bc, b, k, n, batch, false));
  return sw.read(ctx, fn, NULL, nonfinite);
}

/*
 * cholesky. The buffer B is conj(A) (A Hermitian). potrf(LOWER) gives
 * B = L' L'^H, so A = conj(L') L'^T. For upper, U = L'^T, which is the
 * buffer read row-major, and the other triangle is zeroed. For lower,
 * L = conj(L'), the buffer's row-major upper triangle transposed and
 * conjugated into the lower one. cuSOLVER's potrf(UPPER) would give L
 * without the move, but is 2.6 times slower (4.70 ms against 1.77 ms for
 * float64 n = 4096 on an H200).
 */
extern "C" cusci_status cusci__gpu_la_cholesky(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, bool lower, void *a, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  TRY(potrf_batch(ctx, fn, st, sc, dt, batch, n, CUBLAS_FILL_MODE_LOWER, a, sw.dev));
  TRY(triangle(ctx, fn, dt, a, n, batch, lower ? MOVE_UPPER : ZERO_LOWER, lower));
  return sw.read(ctx, fn, fail, nonfinite);
}

/*
 * eigh. The buffer B is conj(A); its eigenvalues are A's and its
 * eigenvectors z the conjugates of A's. syevd leaves them as the columns of
 * the column-major buffer, so v = conj(buffer)^T read row-major. SciPy's
 * lower triangle is the buffer's upper one.
 */
extern "C" cusci_status cusci__gpu_la_eigh(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, void *a, void *w, void *v, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * n * n, a, sw.flag()));
  cudaDataType t = cuda_type(dt), rt = real_type(dt);
  cusolverEigMode_t jobz = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  size_t dbytes = 0, hbytes = 0, isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8;
  SOLVER_TRY(cusolverDnXsyevd_bufferSize(st->solver, st->params, jobz, uplo, n, t, a, n, rt, w, t, &dbytes, &hbytes));
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
  TRY(sc.get_host(ctx, fn, hbytes, &hw));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXsyevd(st->solver, st->params, jobz, uplo, n, t, (char *)a + (size_t)(i * n * n) * isz, n, rt,
                                (char *)w + (size_t)(i * n) * rsz, t, dw, dbytes, hw, hbytes, sw.dev + i));
  if (v)
    TRY(transpose(ctx, fn, dt, a, v, n, n, batch, true));
  return sw.read(ctx, fn, fail, nonfinite);
}

/*
 * svd by gesvd (QR iteration): with full_matrices, economic (econ; jobs
 * 'S') or values only (uv false; 'N'). gesvd returns V^H rather than V.
 * The column-major problem has rows >= cols, as in cusci__gpu_la_svd;
 * U' is rows x ucols and VT' vrows x cols (ucols = vrows = K when econ,
 * else rows and cols).
 * n >= m: the buffer is A^T = U' S V'^H, so vh = U'^T is U' read row-major
 * and u = conj(V') is V'^H (gesvd's VT) read row-major: no copies.
 * m > n: the buffer is A = U' S V'^H; u = U' and vh = VT, each transposed.
 */
static cusci_status svd_gesvd(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, status_words &sw, int dt, int64_t batch, int64_t m,
                              int64_t n, bool econ, bool uv, void *buf, void *u, void *s, void *vh, cusci__la_fail *fail, bool *nonfinite)
{
  bool wide = n >= m;
  int64_t rows = wide ? n : m, cols = wide ? m : n, K = cols;
  int64_t ucols = econ ? K : rows, vrows = econ ? K : cols;
  signed char job = !uv ? 'N' : econ ? 'S' : 'A';
  size_t isz = cusci_kit_itemsize(dt), rsz = cusci_dtype_is_single(dt) ? 4 : 8;
  cudaDataType t = cuda_type(dt), rt = real_type(dt);
  void *Uc = uv && wide ? vh : NULL, *VTc = uv && wide ? u : NULL;
  if (uv && !wide) {
    TRY(sc.get(ctx, fn, (size_t)(batch * rows * ucols) * isz, &Uc));
    TRY(sc.get(ctx, fn, (size_t)(batch * vrows * cols) * isz, &VTc));
  }
  size_t dbytes = 0, hbytes = 0;
  SOLVER_TRY(cusolverDnXgesvd_bufferSize(st->solver, st->params, job, job, rows, cols, t, buf, rows, rt, s, t, Uc, rows, t, VTc, vrows, t,
                                         &dbytes, &hbytes));
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dbytes, &dw));
  TRY(sc.get_host(ctx, fn, hbytes, &hw));
  for (int64_t i = 0; i < batch; i++)
    SOLVER_TRY(cusolverDnXgesvd(st->solver, st->params, job, job, rows, cols, t, (char *)buf + (size_t)(i * m * n) * isz, rows, rt,
                                (char *)s + (size_t)(i * K) * rsz, t, uv ? (char *)Uc + (size_t)(i * rows * ucols) * isz : NULL, rows, t,
                                uv ? (char *)VTc + (size_t)(i * vrows * cols) * isz : NULL, vrows, t, dw, dbytes, hw, hbytes, sw.dev + i));
  if (uv && !wide) {
    TRY(transpose(ctx, fn, dt, Uc, u, ucols, rows, batch, false));
    TRY(transpose(ctx, fn, dt, VTc, vh, cols, vrows, batch, false));
  }
  return sw.read(ctx, fn, fail, nonfinite);
}

/* ---- the single-precision SVD through float64 (svd_gram) */

__device__ inline double wide_(float v) { return (double)v; }
__device__ inline double2 wide_(float2 v) { return make_double2(v.x, v.y); }
__device__ inline float narrow_(double v) { return (float)v; }
__device__ inline float2 narrow_(double2 v) { return make_float2((float)v.x, (float)v.y); }

/* dst = src widened to double precision, n elements. */
template <typename S, typename D>
__global__ void widen_kernel(const S *__restrict__ src, D *__restrict__ dst, int64_t n)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = wide_(src[i]);
}

/* dst (rows x cols, column-major) = src with its columns in reverse order. */
template <typename T>
__global__ void reverse_cols_kernel(const T *__restrict__ src, T *__restrict__ dst, int64_t rows, int64_t cols)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows * cols; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t c = i / rows, r = i - c * rows;
    dst[i] = src[(cols - 1 - c) * rows + r];
  }
}

/* ph[j] = R[j][j] / |R[j][j]| (1 for a zero), R in the upper triangle of
 * the column-major y (ld rows). */
template <typename T>
__global__ void phase_kernel(const T *__restrict__ y, T *__restrict__ ph, int64_t rows, int64_t k)
{
  typedef typename real_t<T>::type R;
  for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < k; j += (int64_t)gridDim.x * blockDim.x) {
    T d = y[j * rows + j];
    R a = abs_(d);
    ph[j] = a > 0 ? scale_(d, (R)1 / a) : one_<T>();
  }
}

/* The single-precision results: u (rows x k, column-major) = q times the
 * phases (q NULL: none), v = vrev narrowed (vrev NULL: none), and s[j] =
 * sqrt(lam[k - 1 - j]), the eigenvalues of the Gram matrix in descending
 * order, negative rounding clipped to 0. */
template <typename T, typename TS>
__global__ void gram_out_kernel(const T *__restrict__ q, const T *__restrict__ ph, const T *__restrict__ vrev, const double *__restrict__ lam,
                                TS *__restrict__ u, TS *__restrict__ v, float *__restrict__ s, int64_t rows, int64_t k)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows * k; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t j = i / rows;
    if (q)
      u[i] = narrow_(mul_(q[i], ph[j]));
    if (vrev && i < k * k)
      v[i] = narrow_(vrev[i]);
    if (i < k) {
      double l = lam[k - 1 - i];
      s[i] = (float)sqrt(l > 0 ? l : 0.0);
    }
  }
}

/* The double-precision Gram matrix of svd_gram: syrk for float64, herk
 * for complex128 (its Q comes from orgqr / ungqr, common.cuh). */
inline cublasStatus_t gram(cublasHandle_t h, int n, int k, const double *one, const double *c, const double *zero, double *g)
{
  return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, k, one, c, k, zero, g, n);
}
inline cublasStatus_t gram(cublasHandle_t h, int n, int k, const double *one, const double2 *c, const double *zero, double2 *g)
{
  return cublasZherk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, n, k, one, c, k, zero, g, n);
}

/*
 * svd of float32 and complex64 matrices, economic or values only, in
 * float64: C (rows x cols, column-major, rows >= cols) is widened, its
 * Gram matrix G = C^H C formed (syrk / herk), and G = W L W^H by syevd;
 * s = sqrt(L), V = W with its columns in descending order, and U is the Q
 * of the Householder QR of C V (largest first, so that the columns of
 * tiny singular values are orthogonalised against the others, not the
 * other way round), each column times the phase of its R diagonal so that
 * U^H C V has a nonnegative diagonal. Results go to Uc (rows x cols) and
 * Vc (cols x cols), column-major in single precision, and s.
 *
 * Squaring the condition number costs nothing here: G is formed from
 * exact products of single-precision numbers in double, so an eigenvalue
 * is off by about eps64 |C|^2, and a singular value by
 * eps64 |C|^2 / (2 s), below a backward-stable single-precision SVD's
 * eps32 |C| for every s above 1e-9 |C|, and under 1e-8 |C| (a tenth of
 * eps32 |C|) for s near 0. The singular vectors err within clusters of
 * nearly equal singular values, as any SVD's do. It is several times
 * faster than gesvdp, which runs in single precision. S: float or float2;
 * D: double or double2.
 */
template <typename S, typename D>
static cusci_status svd_gram_t(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, status_words &sw, int dt, int64_t batch,
                               int64_t rows, int64_t cols, const void *buf, bool uv, void *Uc, void *Vc, void *s)
{
  const int dt64 = dt == CUSCI_COMPLEX64 ? CUSCI_COMPLEX128 : CUSCI_FLOAT64;
  const size_t wsz = sizeof(D);
  const cudaDataType t = cuda_type(dt64);
  const int64_t K = cols;
  if (rows > INT32_MAX || cols > INT32_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a matrix extent exceeds cuBLAS's int");
  cudaStream_t stream = (cudaStream_t)cusci_ctx_stream(ctx);
  const cusolverEigMode_t jobz = uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  /* One device buffer for c64, y, g, vrev, lam, tau, ph and qinfo, and one
   * workspace the solvers share (they run one after another). */
  size_t off[9], at = 0;
  const size_t sizes[8] = { (size_t)(rows * cols) * wsz, uv ? (size_t)(rows * cols) * wsz : 0, (size_t)(cols * cols) * wsz,
                            uv ? (size_t)(cols * cols) * wsz : 0, (size_t)K * 8, uv ? (size_t)K * wsz : 0, uv ? (size_t)K * wsz : 0,
                            sizeof(int) };
  for (int i = 0; i < 8; i++) {
    off[i] = at;
    at += (sizes[i] + 255) / 256 * 256;
  }
  off[8] = at;
  char *base;
  TRY(sc.get(ctx, fn, off[8], (void **)&base));
  D *c64 = (D *)(base + off[0]), *y = (D *)(base + off[1]), *g = (D *)(base + off[2]), *vrev = (D *)(base + off[3]),
    *tau = (D *)(base + off[5]), *ph = (D *)(base + off[6]);
  double *lam = (double *)(base + off[4]);
  int *qinfo = (int *)(base + off[7]);
  size_t dsyevd = 0, hsyevd = 0, dgeqrf = 0, hgeqrf = 0;
  int lorgqr = 0;
  SOLVER_TRY(cusolverDnXsyevd_bufferSize(st->solver, st->params, jobz, lower, cols, t, g, cols, CUDA_R_64F, lam, t, &dsyevd, &hsyevd));
  if (uv) {
    SOLVER_TRY(cusolverDnXgeqrf_bufferSize(st->solver, st->params, rows, cols, t, y, rows, t, tau, t, &dgeqrf, &hgeqrf));
    SOLVER_TRY(orgqr_size(st->solver, dt64, (int)rows, (int)cols, (int)cols, y, (int)rows, tau, &lorgqr));
  }
  size_t dwork = dsyevd > dgeqrf ? dsyevd : dgeqrf;
  if ((size_t)lorgqr * wsz > dwork)
    dwork = (size_t)lorgqr * wsz;
  const size_t hwork = hsyevd > hgeqrf ? hsyevd : hgeqrf;
  void *dw, *hw;
  TRY(sc.get_zeroed(ctx, fn, dwork, &dw));
  TRY(sc.get_host(ctx, fn, hwork, &hw));
  const double one[2] = { 1.0, 0.0 }, zero[2] = { 0.0, 0.0 };
  BLAS_TRY(cublasSetPointerMode(st->blas, CUBLAS_POINTER_MODE_HOST));
  const unsigned gb = blocks_for(rows * cols, 256), kb = blocks_for(K, 256);
  for (int64_t i = 0; i < batch; i++) {
    const S *ci = (const S *)buf + i * rows * cols;
    float *si = (float *)s + i * K;
    widen_kernel<S, D><<<gb, 256, 0, stream>>>(ci, c64, rows * cols);
    LAUNCH_TRY();
    BLAS_TRY(gram(st->blas, (int)cols, (int)rows, one, c64, zero, g));
    SOLVER_TRY(cusolverDnXsyevd(st->solver, st->params, jobz, lower, cols, t, g, cols, CUDA_R_64F, lam, t, dw, dsyevd, hw, hsyevd,
                                sw.dev + i));
    if (!uv) {
      gram_out_kernel<D, S><<<kb, 256, 0, stream>>>(NULL, NULL, NULL, lam, NULL, NULL, si, 1, K);
      LAUNCH_TRY();
      continue;
    }
    reverse_cols_kernel<D><<<blocks_for(cols * cols, 256), 256, 0, stream>>>(g, vrev, cols, cols);
    LAUNCH_TRY();
    BLAS_TRY(cublasGemmEx(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)rows, (int)cols, (int)cols, one, c64, t, (int)rows, vrev, t, (int)cols,
                          zero, y, t, (int)rows, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    SOLVER_TRY(cusolverDnXgeqrf(st->solver, st->params, rows, cols, t, y, rows, t, tau, t, dw, dgeqrf, hw, hgeqrf, qinfo));
    phase_kernel<D><<<kb, 256, 0, stream>>>(y, ph, rows, K);
    LAUNCH_TRY();
    SOLVER_TRY(orgqr(st->solver, dt64, (int)rows, (int)cols, (int)cols, y, (int)rows, tau, dw, lorgqr, qinfo));
    gram_out_kernel<D, S><<<gb, 256, 0, stream>>>(y, ph, vrev, lam, (S *)Uc + i * rows * K, (S *)Vc + i * cols * K, si, rows, K);
    LAUNCH_TRY();
  }
  return CUSCI_OK;
}

static cusci_status svd_gram(cusci_ctx *ctx, const char *fn, la_state *st, scratch_set &sc, status_words &sw, int dt, int64_t batch,
                             int64_t rows, int64_t cols, const void *buf, bool uv, void *Uc, void *Vc, void *s)
{
  if (dt == CUSCI_COMPLEX64)
    return svd_gram_t<float2, double2>(ctx, fn, st, sc, sw, dt, batch, rows, cols, buf, uv, Uc, Vc, s);
  return svd_gram_t<float, double>(ctx, fn, st, sc, sw, dt, batch, rows, cols, buf, uv, Uc, Vc, s);
}

/*
 * svd of row-major A (m x n). The solvers want a column-major matrix with
 * at least as many rows as columns, C: for n >= m the buffer is A^T (n x
 * m), A^T = U' S V'^H gives A = conj(V') S U'^T, so vh = U'^T is U'
 * (written straight into vh) read row-major and u = conj(V') is the
 * conjugate transpose of V' read row-major; for m > n A is transposed into
 * column-major order first, A = U' S V'^H, u is U' transposed and vh =
 * V'^H is V' read row-major, conjugated. Single precision, economic or
 * values only: svd_gram; the rest: svd_gesvd.
 */
extern "C" cusci_status cusci__gpu_la_svd(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, bool full, bool uv, void *a, void *u, void *s, void *vh, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *st;
  TRY(get_state(ctx, fn, &st));
  scratch_set sc{};
  status_words sw;
  TRY(sw.init(ctx, fn, sc, batch));
  if (check_finite)
    TRY(check_finite_async(ctx, fn, dt, batch * m * n, a, sw.flag()));
  int64_t K = m < n ? m : n;
  bool wide = n >= m;
  int64_t rows = wide ? n : m, cols = wide ? m : n; /* of the column-major problem */
  size_t isz = cusci_kit_itemsize(dt);
  void *buf = a;
  if (!wide) {
    TRY(sc.get(ctx, fn, (size_t)(batch * m * n) * isz, &buf));
    TRY(transpose(ctx, fn, dt, a, buf, m, n, batch, false));
  }
  /* full_matrices, and double precision, by gesvd: gesvdp, tried first,
   * left singular values near zero off by about 1e-11 |A| in float64 (a
   * half-rank 40 x 24 matrix rebuilt to 3e-11 against gesvd's 4e-14). */
  if ((uv && full) || !cusci_dtype_is_single(dt))
    return svd_gesvd(ctx, fn, st, sc, sw, dt, batch, m, n, !(uv && full), uv, buf, u, s, vh, fail, nonfinite);
  /* Single precision through float64 (svd_gram): column-major factors Uc
   * (rows x K), Vc (cols x K); none for the values alone. */
  void *Uc = NULL, *Vc = NULL;
  if (uv && wide)
    Uc = vh; /* vh (K x n) row-major is Uc (n x K) column-major */
  else if (uv)
    TRY(sc.get(ctx, fn, (size_t)(batch * rows * K) * isz, &Uc));
  if (uv && !wide)
    Vc = vh; /* vh (K x n) row-major is Vc (n x K) column-major, conjugated */
  else if (uv)
    TRY(sc.get(ctx, fn, (size_t)(batch * cols * K) * isz, &Vc));
  TRY(svd_gram(ctx, fn, st, sc, sw, dt, batch, rows, cols, buf, uv, Uc, Vc, s));
  if (uv) {
    if (wide) {
      /* u (m x K) = conj(Vc)^T with Vc read row-major as (K x m). */
      TRY(transpose(ctx, fn, dt, Vc, u, K, cols, batch, true));
    } else {
      /* u (m x K) = Uc^T read row-major as (K x m). */
      TRY(transpose(ctx, fn, dt, Uc, u, K, rows, batch, false));
      TRY(conj_inplace(ctx, fn, dt, vh, batch * n * K));
    }
  }
  return sw.read(ctx, fn, fail, nonfinite);
}

/* The context's cuBLAS and cuSOLVER handles and cuSOLVER's params, bound to
 * the context's stream, for liblinalg's other CUDA files. */
extern "C" cusci_status cusci__gpu_la_handles(cusci_ctx *ctx, const char *fn, void **blas, void **solver, void **params)
{
  la_state *s;
  TRY(get_state(ctx, fn, &s));
  *blas = (void *)s->blas;
  *solver = (void *)s->solver;
  *params = (void *)s->params;
  return CUSCI_OK;
}
