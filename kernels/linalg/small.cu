/*
 * kernels/linalg/small.cu: solve, inv and det of batches of small matrices
 * (9 <= n <= 32), and slogdet (n <= 32), in registers, one matrix per warp
 * or half warp; solve, inv and det of n <= 8 are the one-matrix-per-thread
 * kernel of kernels/linalg/linalg.cu.
 *
 * Lane r of a matrix's group of W lanes holds row r of the matrix in
 * registers, m[0..N-1], the column index being a compile-time constant
 * everywhere (every loop over columns is unrolled to the size class N), so
 * the matrix never leaves the register file. Two size classes: N = 16
 * (W = 16, two matrices a warp) for n <= 16, N = 32 (W = 32) above. A
 * matrix smaller than its class leaves the lanes and the columns past n
 * idle: they never pivot and every step past n is skipped (a branch that
 * is uniform across the warp), so the result is that of an n x n
 * elimination.
 *
 * Gaussian elimination with partial pivoting in LAPACK's getrf order: at
 * column c the pivot is the largest |.| (cabs1 for complex) among the rows
 * not yet used, the first of equals in getrf's row order. Rows are not
 * moved: each lane keeps `pos`, the row's place in getrf's order, and a
 * swap of rows c and p only exchanges two lanes' pos. The pivot row is
 * broadcast by shuffles, and every unused row scales its multiplier and
 * updates its trailing part, as getrf's rank-1 update does. An exactly
 * zero pivot is recorded (the first, 1-based, as getrf's info) and the
 * elimination goes on past it, so that det is 0.
 *
 * After the elimination a lane whose row sits at place i holds row i of L
 * (below the diagonal) and of U, and (P b)[i] is b[lane's own row]: the
 * permutation is applied by where each lane reads its right-hand side and
 * where it writes its solution. Right-hand sides go through in chunks of
 * KC columns, each lane holding its row of the chunk: forward substitution
 * with L, then back substitution with U, the solved value of each place
 * broadcast by a shuffle from the lane that holds it.
 *
 * det multiplies the pivots; slogdet (any n up to 32) sums their logs.
 *
 * Memory access is coalesced by construction: a warp handles 32 / W
 * consecutive matrices, one contiguous stretch of memory, which it copies
 * into shared memory with consecutive lanes on consecutive elements; each
 * lane then reads its row (or its column, for a^T) from there, rows padded
 * to N + 1 elements so that the lanes fall on different banks. Right-hand
 * sides (when a matrix's fit its slot, k <= N + 1), inverses and solutions
 * go through the same slot and back to global memory the same way.
 */
#include <cuComplex.h>
#include <cuda_runtime.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"
#include "kernels/linalg/launch.h"

namespace {

#define FULL 0xffffffffu

__device__ inline float abs_(float a) { return fabsf(a); }
__device__ inline double abs_(double a) { return fabs(a); }
__device__ inline float abs_(float2 a) { return hypotf(a.x, a.y); }
__device__ inline double abs_(double2 a) { return hypot(a.x, a.y); }
__device__ inline float scale_(float a, float s) { return a * s; }
__device__ inline double scale_(double a, double s) { return a * s; }
__device__ inline float2 scale_(float2 a, float s) { return make_float2(a.x * s, a.y * s); }
__device__ inline double2 scale_(double2 a, double s) { return make_double2(a.x * s, a.y * s); }
/* A lane's value from lane src. */
__device__ inline float shfl_(float v, int src) { return __shfl_sync(FULL, v, src); }
__device__ inline double shfl_(double v, int src) { return __shfl_sync(FULL, v, src); }
__device__ inline float2 shfl_(float2 v, int src) { return make_float2(__shfl_sync(FULL, v.x, src), __shfl_sync(FULL, v.y, src)); }
__device__ inline double2 shfl_(double2 v, int src) { return make_double2(__shfl_sync(FULL, v.x, src), __shfl_sync(FULL, v.y, src)); }
template <typename T> struct real_t { typedef T type; };
template <> struct real_t<float2> { typedef float type; };
template <> struct real_t<double2> { typedef double type; };

/* Lanes per matrix: the power of two that holds N rows. */
template <int N> struct lanes_for { enum { value = N <= 16 ? 16 : 32 }; };
/* Right-hand-side columns a lane holds at once: fewer for complex128, whose
 * row of the matrix alone takes 4 N registers. */
template <typename T> struct chunk_for { enum { value = sizeof(T) >= 16 ? 4 : 8 }; };

/* Four blocks of 128 threads an SM at least for the classes whose row and
 * chunk fit in 128 registers: without that bound ptxas keeps float's
 * 16-class to 64 registers and spills. */
template <typename T, int N> struct min_blocks_for { enum { value = sizeof(T) * N <= 128 ? 4 : 1 }; };

template <typename T, int N>
__global__ void __launch_bounds__(128, (min_blocks_for<T, N>::value)) small_warp_kernel(const T *__restrict__ a, T *__restrict__ b, int n, int64_t k, int64_t batch, int mode,
                                                         bool trans, T *__restrict__ out, int *__restrict__ info, int *__restrict__ flag)
{
  typedef typename real_t<T>::type R;
  constexpr int W = lanes_for<N>::value;
  constexpr int G = 32 / W;   /* matrices per warp */
  constexpr int P = N + 1;    /* a padded row in shared memory */
  constexpr int S = N * P;    /* a matrix's slot */
  constexpr int KC = chunk_for<T>::value;
  const int NN = n * n;
  extern __shared__ unsigned char small_warp_sm[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wpb = blockDim.x >> 5;
  T *sm = (T *)small_warp_sm + (size_t)warp * G * S;
  const int g = lane / W, r = lane % W; /* this lane's matrix in the warp, and its row */
  /* Everything below is uniform across the warp except where noted, so
   * that every lane reaches every shuffle. */
  const bool stage_b = mode == CUSCI__LA_SMALL_SOLVE && n * k <= S;
  const int64_t cols = mode == CUSCI__LA_SMALL_INV ? n : k;
  const int64_t ld = mode == CUSCI__LA_SMALL_INV ? n : k;
  const int64_t step = (int64_t)gridDim.x * wpb * G;
  for (int64_t base = ((int64_t)blockIdx.x * wpb + warp) * G; base < batch; base += step) {
    const int cnt = batch - base < G ? (int)(batch - base) : G;
    const int64_t t = base + g;
    const bool active = g < cnt;     /* per group: it has a matrix */
    const bool row = active && r < n; /* per lane: it holds a row */
    /* Coalesced load of cnt matrices. */
    /* check_finite (flag not NULL) on the way: every element is read
     * once, here or where b is read. */
    bool bad = false;
    const T *src = a + base * NN;
    for (int e = lane; e < cnt * NN; e += 32) {
      int q = e / NN, i = (e - q * NN) / n, j = e - q * NN - i * n;
      T v = src[e];
      bad = bad || (flag && !finite_(v));
      sm[q * S + i * P + j] = v;
    }
    __syncwarp();
    /* A group without a matrix works on the identity; lanes past row n
     * hold zeros and never pivot, and columns past n are never read. */
    T m[N];
#pragma unroll
    for (int j = 0; j < N; j++)
      m[j] = row && j < n ? sm[g * S + (trans ? j * P + r : r * P + j)] : (active || j != r ? zero_<T>() : one_<T>());
    __syncwarp();
    if (stage_b) {
      const T *bs = b + base * n * k;
      const int per = n * (int)k;
      for (int e = lane; e < cnt * per; e += 32) {
        T v = bs[e];
        bad = bad || (flag && !finite_(v));
        sm[(e / per) * S + e % per] = v;
      }
      __syncwarp();
    }

    if (bad)
      *flag = 1;

    int pos = r;        /* the row's place in getrf's order */
    bool used = r >= n; /* it has been a pivot row, or holds none */
    int first_zero = 0; /* per group */
    bool odd = false;   /* per group: an odd number of row swaps */
    T det = one_<T>();  /* per group */
    T phase = one_<T>(); /* per group, slogdet: prod(d / |d|) */
    R logabs = 0;        /* per group, slogdet: sum(log |d|) */
#pragma unroll
    for (int c = 0; c < N; c++) {
      if (c >= n) /* uniform: the steps past n have nothing to do */
        break;
      /* The pivot: the largest |m[c]| of the unused rows, the smallest
       * place of equals (a NaN counts as infinite, so that the choice is
       * one total order and every lane agrees on it). */
      R v = abs1_(m[c]);
      if (!(v >= 0))
        v = INFINITY;
      if (used)
        v = -1;
      int key = pos * 32 + lane;
#pragma unroll
      for (int off = W / 2; off > 0; off >>= 1) {
        R ov = __shfl_xor_sync(FULL, v, off);
        int ok = __shfl_xor_sync(FULL, key, off);
        if (ov > v || (ov == v && ok < key)) {
          v = ov;
          key = ok;
        }
      }
      const int L = key & 31, p = key >> 5; /* per group */
      if (p != c)
        odd = !odd;
      if (pos == c)
        pos = p;
      if (lane == L) {
        pos = c;
        used = true;
      }
      const T d = shfl_(m[c], L);
      const bool zero = abs1_(d) == 0;
      if (zero && !first_zero)
        first_zero = c + 1;
      if (mode == CUSCI__LA_SMALL_SLOGDET) {
        R ad = abs_(d);
        if (ad != 0) {
          phase = mul_(phase, scale_(d, (R)1 / ad));
          logabs += log(ad);
        }
      } else {
        det = mul_(det, d);
      }
      const bool upd = !used && !zero;
      T l = m[c];
      if (upd) {
        l = div_(m[c], d);
        m[c] = l;
      }
#pragma unroll
      for (int j = c + 1; j < N; j++)
        if (j < n) {
          T u = shfl_(m[j], L);
          if (upd)
            m[j] = sub_(m[j], mul_(l, u));
        }
    }
    if (info && row && r == 0)
      info[t] = first_zero;
    if (mode == CUSCI__LA_SMALL_DET) {
      if (row && r == 0)
        out[t] = odd ? neg_(det) : det;
      __syncwarp();
      continue;
    }
    if (mode == CUSCI__LA_SMALL_SLOGDET) {
      /* A zero pivot: sign 0 and log|det| = -inf, as numpy's slogdet. */
      if (row && r == 0) {
        out[t] = first_zero ? zero_<T>() : odd ? neg_(phase) : phase;
        ((R *)b)[t] = first_zero ? -(R)INFINITY : logabs;
      }
      __syncwarp();
      continue;
    }

    /* Right-hand sides: the identity's columns for inv, else b's (staged
     * in the slot, or read in place). A lane reads its own row and writes
     * the solution's row at its place. */
    const bool write = row && !first_zero;
    T *xs = mode == CUSCI__LA_SMALL_INV || stage_b ? sm + g * S : b + t * n * k;
    for (int64_t q0 = 0; q0 < cols; q0 += KC) {
      T y[KC];
#pragma unroll
      for (int q = 0; q < KC; q++) {
        int64_t col = q0 + q;
        y[q] = zero_<T>();
        if (row && col < cols)
          y[q] = mode == CUSCI__LA_SMALL_INV ? (r == col ? one_<T>() : zero_<T>()) : xs[r * ld + col];
        if (row && col < cols && !stage_b && mode == CUSCI__LA_SMALL_SOLVE && flag && !finite_(y[q]))
          *flag = 1; /* b read in place */
      }
      __syncwarp(); /* every read of the chunk before any write */
      /* L y = P b. */
#pragma unroll
      for (int c = 0; c < N; c++) {
        if (c >= n)
          break;
        unsigned bal = __ballot_sync(FULL, pos == c);
        unsigned mine = W == 32 ? bal : (bal >> (g * W)) & ((1u << W) - 1);
        int lc = g * W + __ffs(mine) - 1;
#pragma unroll
        for (int q = 0; q < KC; q++)
          if (q0 + q < cols) {
            T yc = shfl_(y[q], lc);
            if (pos > c)
              y[q] = sub_(y[q], mul_(m[c], yc));
          }
      }
      /* U x = y. */
#pragma unroll
      for (int c = N - 1; c >= 0; c--) {
        if (c >= n)
          continue;
        unsigned bal = __ballot_sync(FULL, pos == c);
        unsigned mine = W == 32 ? bal : (bal >> (g * W)) & ((1u << W) - 1);
        int lc = g * W + __ffs(mine) - 1;
#pragma unroll
        for (int q = 0; q < KC; q++)
          if (q0 + q < cols) {
            if (pos == c)
              y[q] = div_(y[q], m[c]);
            T yc = shfl_(y[q], lc);
            if (pos < c)
              y[q] = sub_(y[q], mul_(m[c], yc));
          }
      }
      if (write) {
#pragma unroll
        for (int q = 0; q < KC; q++)
          if (q0 + q < cols)
            xs[pos * ld + q0 + q] = y[q];
      }
      __syncwarp();
    }
    /* Coalesced store of the staged results (a failed matrix's slot holds
     * its input, as the unstaged path leaves b). */
    if (mode == CUSCI__LA_SMALL_INV || stage_b) {
      const int per = mode == CUSCI__LA_SMALL_INV ? NN : n * (int)k;
      T *dst = mode == CUSCI__LA_SMALL_INV ? out + base * NN : b + base * n * k;
      for (int e = lane; e < cnt * per; e += 32)
        dst[e] = sm[(e / per) * S + e % per];
    }
    __syncwarp();
  }
}

template <typename T, int N>
cusci_status launch(cusci_ctx *ctx, const char *fn, int mode, bool trans, int64_t batch, int n, int64_t k, const void *a, void *b, void *out,
                    int *info, int *flag)
{
  constexpr int W = lanes_for<N>::value, G = 32 / W;
  size_t per_warp = sizeof(T) * G * N * (N + 1);
  int wpb = (int)(48 * 1024 / per_warp);
  wpb = wpb > 4 ? 4 : wpb < 1 ? 1 : wpb;
  int64_t groups = (batch + (int64_t)G * wpb - 1) / ((int64_t)G * wpb);
  unsigned blocks = (unsigned)(groups > 65535 * 8 ? 65535 * 8 : groups);
  cudaStream_t s = (cudaStream_t)cusci_ctx_stream(ctx);
  small_warp_kernel<T, N><<<blocks, 32 * wpb, per_warp * wpb, s>>>((const T *)a, (T *)b, n, k, batch, mode, trans, (T *)out, info, flag);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return cusci_ctx_fail(ctx, e == cudaErrorMemoryAllocation ? CUSCI_ERR_OUT_OF_MEMORY : CUSCI_ERR_CUDA, fn, "small_warp_kernel failed: %s (%s)",
                          cudaGetErrorString(e), cudaGetErrorName(e));
  return CUSCI_OK;
}

/* Two size classes, 16 (two matrices a warp) and 32 (one); a matrix of a
 * class's smaller n leaves the lanes and columns past n idle. */
template <typename T>
cusci_status by_size(cusci_ctx *ctx, const char *fn, int mode, bool trans, int64_t batch, int64_t n, int64_t k, const void *a, void *b,
                     void *out, int *info, int *flag)
{
  if (n < 1 || n > CUSCI__LA_SMALL_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "the small-matrix kernel takes n <= %d, not %lld", CUSCI__LA_SMALL_MAX, (long long)n);
  if (n <= 16)
    return launch<T, 16>(ctx, fn, mode, trans, batch, (int)n, k, a, b, out, info, flag);
  return launch<T, 32>(ctx, fn, mode, trans, batch, (int)n, k, a, b, out, info, flag);
}

} // namespace

extern "C" cusci_status cusci__gpu_la_small_queue(cusci_ctx *ctx, const char *fn, int dt, int mode, bool trans, int64_t batch, int64_t n, int64_t k,
                                                  const void *a, void *b, void *out, int *info, int *flag)
{
  if (batch == 0)
    return CUSCI_OK;
  switch (dt) {
  case CUSCI_FLOAT32: return by_size<float>(ctx, fn, mode, trans, batch, n, k, a, b, out, info, flag);
  case CUSCI_FLOAT64: return by_size<double>(ctx, fn, mode, trans, batch, n, k, a, b, out, info, flag);
  case CUSCI_COMPLEX64: return by_size<float2>(ctx, fn, mode, trans, batch, n, k, a, b, out, info, flag);
  default: return by_size<double2>(ctx, fn, mode, trans, batch, n, k, a, b, out, info, flag);
  }
}
