/*
 * kernels/linalg/small.cu: solve, inv and det of batches of small matrices
 * (9 <= n <= 32), and slogdet (n <= 32), in registers, one matrix per warp
 * or half warp; solve, inv and det of n <= 8 are the one-matrix-per-thread
 * kernel of kernels/linalg/linalg.cu.
 *
 * Lane r of a matrix's group of W lanes holds row r of the matrix in
 * registers, m[0..N-1]. Two size classes: N = 16 (W = 16, two matrices a
 * warp) for n <= 16, N = 32 (W = 32) above. Lanes past row n hold zeros
 * and never pivot; columns past n hold zeros.
 *
 * The elimination is a loop over the pivot column c, not unrolled: the
 * kernel's code stays small enough for the instruction cache. A register
 * array can only be indexed by constants, so the row rotates instead:
 * column c is always m[0], and each step writes the updated column j + 1
 * to m[j] (the update reads m[j + 1] before anything writes it). Each step
 * runs at the width of the columns still live rounded up to 8, one of N / 8
 * compile-time widths.
 *
 * Pivoting is partial pivoting in LAPACK's getrf order: at column c the
 * pivot is the largest |.| (cabs1 for complex) among the rows not yet
 * used, the first of equals in getrf's row order. Rows are not moved: each
 * lane keeps `pos`, the row's place in getrf's order, and a swap of rows c
 * and p only exchanges two lanes' pos. The pivot row is broadcast by
 * shuffles. As getf2, the multipliers are the column times the pivot's
 * reciprocal. An exactly zero pivot is recorded (the first, 1-based, as
 * getrf's info) and the elimination goes on past it, so that det is 0.
 *
 * solve, det and slogdet: LU. det multiplies the pivots; slogdet sums their
 * logs. For solve each lane stores, at each step, the entry of column c it
 * ends with (its multiplier, or its U entry) to its row of the matrix's
 * shared-memory slot, which so holds getrf's packed L\U in the lanes' row
 * order; right-hand sides then go through in chunks of KC columns, each lane
 * holding its row of the chunk, by forward and back substitution in place
 * order, each solved value broadcast by a shuffle from the lane that holds
 * it (a table of lane by place sits in the slot's padding column).
 *
 * inv: Gauss-Jordan elimination in place with the same pivots: each step
 * divides the pivot row by the pivot and takes the pivot row's multiple off
 * every other row, used ones included; column c's entries become the
 * reciprocal (the pivot row) and -row/pivot (the others). After n steps the
 * row of lane r, pivot of step s, is row s of inv(a) with its columns in
 * the order of the steps' pivot rows: column t goes to column p(t), the
 * pivot row of step t, kept in the slot's padding column. That takes N
 * register updates a step, against the LU's n - c and then 2n solves.
 *
 * Memory access is coalesced by construction: a warp handles 32 / W
 * consecutive matrices, one contiguous stretch of memory, which it copies
 * into shared memory with consecutive lanes on consecutive elements; each
 * lane then reads its row (or its column, for a^T) from there, rows padded
 * to N + 1 elements so that the lanes fall on different banks. Inverses go
 * back through the slot the same way; right-hand sides are read and solved
 * in place.
 */
#include <cuComplex.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cusci/core_ext.h>

#include "kernels/linalg/common.cuh"
#include "kernels/linalg/launch.h"

namespace {

#define FULL 0xffffffffu

/* A lane's value from lane src. */
__device__ inline float shfl_(float v, int src) { return __shfl_sync(FULL, v, src); }
__device__ inline double shfl_(double v, int src) { return __shfl_sync(FULL, v, src); }
__device__ inline float2 shfl_(float2 v, int src) { return make_float2(__shfl_sync(FULL, v.x, src), __shfl_sync(FULL, v.y, src)); }
__device__ inline double2 shfl_(double2 v, int src) { return make_double2(__shfl_sync(FULL, v.x, src), __shfl_sync(FULL, v.y, src)); }

/* Lanes per matrix: the power of two that holds N rows. */
template <int N> struct lanes_for { enum { value = N <= 16 ? 16 : 32 }; };
/* Right-hand-side columns a lane holds at once: fewer for complex128, whose
 * row of the matrix alone takes 4 N registers. */
template <typename T> struct chunk_for { enum { value = sizeof(T) >= 16 ? 4 : 8 }; };
/* Blocks of 128 threads an SM at least, by the registers a row takes (a
 * quarter of a thread's 255 for float's 16-class up to all of them for
 * complex128's 32-class): without a bound ptxas hoists a step's shuffles
 * ahead of its updates and keeps every broadcast row live, at the cost of
 * occupancy; complex needs more room for its products than real. */
template <typename T, int N> struct min_blocks_for {
  enum {
    bytes = (int)sizeof(T) * N,
    cplx = sizeof(T) == 2 * sizeof(typename real_t<T>::type),
    value = bytes <= 64 ? 8 : bytes <= 128 ? (cplx ? 4 : 5) : bytes <= 256 ? (cplx ? 3 : 4) : 2
  };
};

/* What a lane knows of the elimination so far. pos, used and mine are the
 * lane's; the rest is its group's (every lane of a group agrees). */
template <typename T> struct elim {
  typedef typename real_t<T>::type R;
  int pos;        /* the row's place in getrf's order */
  bool used;      /* it has been a pivot row, or holds none */
  int first_zero; /* the first exactly zero pivot, 1-based, or 0 */
  bool odd;       /* an odd number of row swaps */
  T det;          /* the product of the pivots */
  T phase;        /* slogdet: prod(d / |d|) */
  R logabs;       /* slogdet: sum(log |d|) */
  T mine;         /* solve: the reciprocal of the lane's own pivot */
};

/* The pivot of column c (m0 = this lane's entry): the largest |m0| of the
 * unused rows, the smallest place of equals (a NaN counts as infinite, so
 * that the choice is one total order and every lane agrees on it). Moves
 * the pivot row to place c in the bookkeeping, returns its lane and the
 * pivot, and records a zero pivot. */
template <typename T, int W>
__device__ inline int pivot(T m0, int c, int lane, elim<T> &e, T &d)
{
  typedef typename real_t<T>::type R;
  R v = abs1_(m0);
  if (!(v >= 0))
    v = INFINITY;
  if (e.used)
    v = -1;
  int key = e.pos * 32 + lane;
#pragma unroll
  for (int off = W / 2; off > 0; off >>= 1) {
    R ov = __shfl_xor_sync(FULL, v, off);
    int ok = __shfl_xor_sync(FULL, key, off);
    if (ov > v || (ov == v && ok < key)) {
      v = ov;
      key = ok;
    }
  }
  const int L = key & 31, p = key >> 5;
  if (p != c)
    e.odd = !e.odd;
  if (e.pos == c)
    e.pos = p;
  if (lane == L) {
    e.pos = c;
    e.used = true;
  }
  d = shfl_(m0, L);
  if (abs1_(d) == 0 && !e.first_zero)
    e.first_zero = c + 1;
  return L;
}

/* One LU step at width Wd >= n - c: pivot, then the rank-1 update of the
 * unused rows, rotated (m[j - 1] = updated m[j]). MODE SOLVE stores the
 * lane's entry of column c at row[c]. */
template <typename T, int N, int W, int Wd, int MODE>
__device__ inline void lu_step(T (&m)[N], int c, int lane, elim<T> &e, T *row)
{
  typedef typename real_t<T>::type R;
  T d;
  const int L = pivot<T, W>(m[0], c, lane, e, d);
  const bool zero = abs1_(d) == 0;
  if (MODE == CUSCI__LA_SMALL_SLOGDET) {
    R ad = abs_(d);
    if (ad != 0) {
      e.phase = mul_(e.phase, scale_(d, (R)1 / ad));
      e.logabs += log(ad);
    }
  } else {
    e.det = mul_(e.det, d);
  }
  const T rd = zero ? one_<T>() : div_(one_<T>(), d);
  const bool upd = !e.used && !zero;
  /* l = 0 leaves a row as it is (the used rows, and every row when the
   * column is zero below the pivot). */
  const T l = upd ? mul_(m[0], rd) : zero_<T>();
  if (MODE == CUSCI__LA_SMALL_SOLVE) {
    row[c] = upd ? l : m[0];
    if (lane == L)
      e.mine = rd;
  }
#pragma unroll
  for (int j = 1; j < Wd; j++) {
    T u = shfl_(m[j], L);
    m[j - 1] = sub_(m[j], mul_(l, u));
  }
}

/* The LU of the group's matrix, its steps at the narrowest width that
 * holds the live columns. */
template <typename T, int N, int MODE>
__device__ inline void lu(T (&m)[N], int n, int lane, elim<T> &e, T *row)
{
  constexpr int W = lanes_for<N>::value;
  for (int c = 0; c < n; c++) {
    const int w = n - c;
    if constexpr (N > 24) {
      if (w > 24) {
        lu_step<T, N, W, 32, MODE>(m, c, lane, e, row);
        continue;
      }
      if (w > 16) {
        lu_step<T, N, W, 24, MODE>(m, c, lane, e, row);
        continue;
      }
    }
    if (w > 8)
      lu_step<T, N, W, 16, MODE>(m, c, lane, e, row);
    else
      lu_step<T, N, W, 8, MODE>(m, c, lane, e, row);
  }
}

/* One Gauss-Jordan step at width Wd: pivot, then the pivot row divided by
 * the pivot and its multiple taken off every other row, used ones
 * included, on the registers and on the right-hand sides y[0..ky-1]. INV
 * keeps column c (rotated to m[Wd - 1]): the reciprocal on the pivot row,
 * -row/pivot on the others; a solve drops it. The pivot row of step c goes
 * to label(c) (INV), the lane's own step to step. */
template <typename T, int N, int Wd, bool INV, int KY, typename Label>
__device__ inline void gj_step(T (&m)[N], T (&y)[KY], int ky, int c, int lane, int r, elim<T> &e, Label label, int &step)
{
  typedef typename real_t<T>::type R;
  constexpr int W = lanes_for<N>::value;
  T d;
  const int L = pivot<T, W>(m[0], c, lane, e, d);
  const bool zero = abs1_(d) == 0, piv = lane == L;
  const T rd = zero ? one_<T>() : div_(one_<T>(), d);
  /* The pivot row: m * rd (keep 0, coef -rd); the others: m - f rd u;
   * nothing moves past a zero pivot. */
  const T coef = zero ? zero_<T>() : piv ? neg_(rd) : mul_(m[0], rd);
  const R keep = piv && !zero ? 0 : 1;
  const T f = m[0];
#pragma unroll
  for (int j = 1; j < Wd; j++) {
    T u = shfl_(m[j], L);
    m[j - 1] = sub_(scale_(m[j], keep), mul_(coef, u));
  }
#pragma unroll
  for (int q = 0; q < KY; q++)
    if (q < ky) {
      T u = shfl_(y[q], L);
      y[q] = sub_(scale_(y[q], keep), mul_(coef, u));
    }
  if constexpr (INV)
    m[Wd - 1] = zero ? f : neg_(coef);
  if (piv) {
    if constexpr (INV)
      label(c) = r;
    step = c;
  }
}

/* Gauss-Jordan inversion over Wn >= n rotating registers. */
template <typename T, int N, int Wn, typename Label>
__device__ inline void gj_inv(T (&m)[N], int n, int lane, int r, elim<T> &e, Label label, int &step)
{
  T none[1];
  for (int c = 0; c < n; c++)
    gj_step<T, N, Wn, true, 1>(m, none, 0, c, lane, r, e, label, step);
}

/* Gauss-Jordan solve of the ky <= KY right-hand sides y, at the narrowest
 * width that holds the live columns: afterwards the lane, pivot of step
 * s, holds row s of the solution. */
template <typename T, int N, int KY>
__device__ inline void gj_solve(T (&m)[N], T (&y)[KY], int ky, int n, int lane, int r, elim<T> &e, int &step)
{
  const int none = 0; /* no labels */
  for (int c = 0; c < n; c++) {
    const int w = n - c;
    if constexpr (N > 24) {
      if (w > 24) {
        gj_step<T, N, 32, false, KY>(m, y, ky, c, lane, r, e, none, step);
        continue;
      }
      if (w > 16) {
        gj_step<T, N, 24, false, KY>(m, y, ky, c, lane, r, e, none, step);
        continue;
      }
    }
    if (w > 8)
      gj_step<T, N, 16, false, KY>(m, y, ky, c, lane, r, e, none, step);
    else
      gj_step<T, N, 8, false, KY>(m, y, ky, c, lane, r, e, none, step);
  }
}

/* Gauss-Jordan solve of the ky <= KY right-hand sides of a lane's row,
 * read from xin (n x ky): afterwards the lane, pivot of step s, writes row
 * s of the solution to xo (a failed matrix's rows: its b). */
template <typename T, int N, int KY>
__device__ inline void gj_rhs(T (&m)[N], const T *xin, T *xo, int ky, int n, int lane, int r, bool row, elim<T> &e, int *flag)
{
  T y[KY];
#pragma unroll
  for (int q = 0; q < KY; q++) {
    y[q] = zero_<T>();
    if (row && q < ky) {
      y[q] = xin[r * ky + q];
      if (flag && !finite_(y[q]))
        *flag = 1;
    }
  }
  __syncwarp(); /* every read of b before any write */
  int step = 0;
  gj_solve<T, N, KY>(m, y, ky, n, lane, r, e, step);
  if (row) {
#pragma unroll
    for (int q = 0; q < KY; q++)
      if (q < ky) {
        if (e.first_zero)
          xo[r * ky + q] = xin[r * ky + q];
        else
          xo[step * ky + q] = y[q];
      }
  }
}

/* slot_index for n = N, the class's own size: the divisions by constants. */
template <int N> __device__ inline int slot_exact(int e)
{
  constexpr int P = N + 1, S = N * P;
  return e / (N * N) * S + e / N % N * P + e % N;
}

/* The staged element e of a run of matrices of n x n (nn = n * n) and its
 * place in the padded slots: q * S + i * P + j. A float product gives the
 * quotients exactly here (e < 2048, the fraction at least 0.5 / nn from an
 * integer), at a fraction of an integer division's cost. */
__device__ inline int slot_index(int e, int n, int nn, float rn, float rnn, int S, int P)
{
  int q = (int)(((float)e + 0.5f) * rnn);
  int rem = e - q * nn;
  int i = (int)(((float)rem + 0.5f) * rn);
  return q * S + i * P + (rem - i * n);
}

template <typename T, int N, int MODE>
__global__ void __launch_bounds__(128, (min_blocks_for<T, N>::value))
    small_warp_kernel(const T *__restrict__ a, const T *bin, T *b, int n, int64_t k, int64_t batch, bool trans, T *__restrict__ out,
                      int *__restrict__ info, unsigned long long *first, int *__restrict__ flag, const cusci__la_post post)
{
  typedef typename real_t<T>::type R;
  constexpr int W = lanes_for<N>::value;
  constexpr int G = 32 / W;   /* matrices per warp */
  constexpr int P = N + 1;    /* a padded row in shared memory */
  constexpr int S = N * P;    /* a matrix's slot */
  constexpr int KC = chunk_for<T>::value;
  const int NN = n * n;
  const float rn = 1.0f / (float)n, rnn = 1.0f / (float)NN;
  extern __shared__ unsigned char small_warp_sm[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wpb = blockDim.x >> 5;
  T *sm = (T *)small_warp_sm + (size_t)warp * G * S;
  const int g = lane / W, r = lane % W; /* this lane's matrix in the warp, and its row */
  T *slot = sm + g * S;
  /* The padding column of the slot: a table of N ints, entry c at
   * pad(c). */
  auto pad = [slot](int c) -> int & { return *(int *)(slot + c * P + N); };
  /* Everything below is uniform across the warp except where noted, so
   * that every lane reaches every shuffle. */
  const int64_t step_ = (int64_t)gridDim.x * wpb * G;
  for (int64_t base = ((int64_t)blockIdx.x * wpb + warp) * G; base < batch; base += step_) {
    const int cnt = batch - base < G ? (int)(batch - base) : G;
    const int64_t t = base + g;
    const bool active = g < cnt;     /* per group: it has a matrix */
    const bool row = active && r < n; /* per lane: it holds a row */
    /* Coalesced load of cnt matrices; check_finite (flag not NULL) on the
     * way: every element of a is read once, here. */
    bool bad = false;
    const T *src = a + base * NN;
    if (n == N) {
#pragma unroll 8
      for (int e = lane; e < cnt * N * N; e += 32) {
        T v = src[e];
        bad = bad || (flag && !finite_(v));
        sm[slot_exact<N>(e)] = v;
      }
    } else {
      for (int e = lane; e < cnt * NN; e += 32) {
        T v = src[e];
        bad = bad || (flag && !finite_(v));
        sm[slot_index(e, n, NN, rn, rnn, S, P)] = v;
      }
    }
    __syncwarp();
    /* A group without a matrix works on the identity; lanes past row n
     * hold zeros and never pivot. */
    T m[N];
#pragma unroll
    for (int j = 0; j < N; j++)
      m[j] = row && j < n ? slot[trans ? j * P + r : r * P + j] : (active || j != r ? zero_<T>() : one_<T>());
    __syncwarp();
    if (bad)
      *flag = 1;

    elim<T> e;
    e.pos = r;
    e.used = r >= n;
    e.first_zero = 0;
    e.odd = false;
    e.det = one_<T>();
    e.phase = one_<T>();
    e.logabs = 0;
    e.mine = one_<T>();

    if constexpr (MODE == CUSCI__LA_SMALL_INV) {
      int step = 0;
      if constexpr (N > 24) {
        if (n > 24)
          gj_inv<T, N, 32>(m, n, lane, r, e, pad, step);
        else
          gj_inv<T, N, 24>(m, n, lane, r, e, pad, step);
      } else {
        gj_inv<T, N, 16>(m, n, lane, r, e, pad, step);
      }
      if (row && r == 0)
        report(info, first, t, e.first_zero);
      __syncwarp();
      /* Row `step` of the inverse; register j holds column (n + j) mod Wn,
       * Wn the width the loop ran at. A failed matrix leaves its slot (its
       * input) alone. */
      const int Wn = N > 24 ? (n > 24 ? 32 : 24) : 16;
      if (row && !e.first_zero) {
        int col = n % Wn;
#pragma unroll
        for (int j = 0; j < N; j++) {
          if (j < Wn && col < n)
            slot[step * P + pad(col)] = m[j];
          col = col + 1 == Wn ? 0 : col + 1;
        }
      }
      __syncwarp();
      /* Coalesced store of the slots. */
      T *dst = out + base * NN;
      if (n == N) {
#pragma unroll 8
        for (int q = lane; q < cnt * N * N; q += 32)
          dst[q] = sm[slot_exact<N>(q)];
      } else {
        for (int q = lane; q < cnt * NN; q += 32)
          dst[q] = sm[slot_index(q, n, NN, rn, rnn, S, P)];
      }
      __syncwarp();
      continue;
    } else if (MODE == CUSCI__LA_SMALL_SOLVE && k <= KC) {
      /* Few right-hand sides: Gauss-Jordan on them as well, and no
       * substitution. One column by a kernel of its own width. */
      const T *xin = bin + t * n * k;
      T *xo = b + t * n * k;
      if (k == 1)
        gj_rhs<T, N, 1>(m, xin, xo, 1, n, lane, r, row, e, flag);
      else
        gj_rhs<T, N, KC>(m, xin, xo, (int)k, n, lane, r, row, e, flag);
      if (row && r == 0)
        report(info, first, t, e.first_zero);
      __syncwarp();
    } else {
      T *own = slot + r * P; /* the lane's row of the slot */
      lu<T, N, MODE>(m, n, lane, e, own);
      if (row && r == 0)
        report(info, first, t, e.first_zero);
      if constexpr (MODE == CUSCI__LA_SMALL_DET) {
        if (row && r == 0)
          out[t] = e.odd ? neg_(e.det) : e.det;
      } else if constexpr (MODE == CUSCI__LA_SMALL_SLOGDET) {
        /* A zero pivot: sign 0 and log|det| = -inf, as numpy's slogdet. */
        if (row && r == 0) {
          out[t] = e.first_zero ? zero_<T>() : e.odd ? neg_(e.phase) : e.phase;
          ((R *)b)[t] = e.first_zero ? -(R)INFINITY : e.logabs;
        }
      } else {
        /* solve: the lane of each place, in the padding column. */
        if (row)
          pad(e.pos) = r + g * W;
        __syncwarp();
        /* A lane reads its own row of b (P b at its place) and writes the
         * solution's row at its place (a failed matrix's: its b). */
        const T *xin = bin + t * n * k;
        T *xo = b + t * n * k;
        for (int64_t q0 = 0; q0 < k; q0 += KC) {
          T y[KC];
#pragma unroll
          for (int q = 0; q < KC; q++) {
            y[q] = zero_<T>();
            if (row && q0 + q < k) {
              y[q] = xin[r * k + q0 + q];
              if (flag && !finite_(y[q]))
                *flag = 1;
            }
          }
          __syncwarp(); /* every read of the chunk before any write */
          /* L y = P b. */
          for (int c = 0; c < n; c++) {
            const int lc = pad(c);
            const T lrc = own[c];
#pragma unroll
            for (int q = 0; q < KC; q++)
              if (q0 + q < k) {
                T yc = shfl_(y[q], lc);
                if (e.pos > c)
                  y[q] = sub_(y[q], mul_(lrc, yc));
              }
          }
          /* U x = y. */
          for (int c = n - 1; c >= 0; c--) {
            const int lc = pad(c);
            const T urc = own[c];
#pragma unroll
            for (int q = 0; q < KC; q++)
              if (q0 + q < k) {
                if (e.pos == c)
                  y[q] = mul_(y[q], e.mine);
                T yc = shfl_(y[q], lc);
                if (e.pos < c)
                  y[q] = sub_(y[q], mul_(urc, yc));
              }
          }
          if (row) {
#pragma unroll
            for (int q = 0; q < KC; q++)
              if (q0 + q < k) {
                if (e.first_zero)
                  xo[r * k + q0 + q] = xin[r * k + q0 + q];
                else
                  xo[e.pos * k + q0 + q] = y[q];
              }
          }
          __syncwarp();
        }
      }
      __syncwarp();
    }
  }
  post_outcome(post);
}

template <typename T, int N, int MODE>
int launch(cusci__la_gpu *g, bool trans, int64_t batch, int n, int64_t k, const void *a, const void *bin, void *b, void *out, int *info,
           unsigned long long *first, int *flag, const cusci__la_post &post)
{
  constexpr int W = lanes_for<N>::value, G = 32 / W;
  size_t per_warp = sizeof(T) * G * N * (N + 1);
  int wpb = (int)(48 * 1024 / per_warp);
  wpb = wpb > 4 ? 4 : wpb < 1 ? 1 : wpb;
  int64_t groups = (batch + (int64_t)G * wpb - 1) / ((int64_t)G * wpb);
  unsigned blocks = (unsigned)(groups > 65535 * 8 ? 65535 * 8 : groups);
  LAUNCH(small_warp_kernel<T, N, MODE><<<blocks, 32 * wpb, per_warp * wpb, stream_of(g)>>>((const T *)a, (const T *)bin, (T *)b, n, k, batch,
                                                                                          trans, (T *)out, info, first, flag, post));
  return 0;
}

template <typename T, int N>
int by_mode(cusci__la_gpu *g, int mode, bool trans, int64_t batch, int n, int64_t k, const void *a, const void *bin, void *b, void *out, int *info,
            unsigned long long *first, int *flag, const cusci__la_post &post)
{
  switch (mode) {
  case CUSCI__LA_SMALL_SOLVE: return launch<T, N, CUSCI__LA_SMALL_SOLVE>(g, trans, batch, n, k, a, bin, b, out, info, first, flag, post);
  case CUSCI__LA_SMALL_INV: return launch<T, N, CUSCI__LA_SMALL_INV>(g, trans, batch, n, k, a, bin, b, out, info, first, flag, post);
  case CUSCI__LA_SMALL_DET: return launch<T, N, CUSCI__LA_SMALL_DET>(g, trans, batch, n, k, a, bin, b, out, info, first, flag, post);
  default: return launch<T, N, CUSCI__LA_SMALL_SLOGDET>(g, trans, batch, n, k, a, bin, b, out, info, first, flag, post);
  }
}

/* Two size classes, 16 (two matrices a warp) and 32 (one); a matrix of a
 * class's smaller n leaves the lanes and columns past n idle. */
struct warp_op {
  cusci__la_gpu *g;
  int mode;
  bool trans;
  int64_t batch, n, k;
  const void *a, *bin;
  void *b, *out;
  int *info;
  unsigned long long *first;
  int *flag;
  cusci__la_post post;
  template <typename T>
  int run()
  {
    if (n <= 16)
      return by_mode<T, 16>(g, mode, trans, batch, (int)n, k, a, bin, b, out, info, first, flag, post);
    return by_mode<T, 32>(g, mode, trans, batch, (int)n, k, a, bin, b, out, info, first, flag, post);
  }
};

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

/* The register kernel for n <= SMALL_N, by n. */
struct register_op {
  cusci__la_gpu *g;
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
  int launch()
  {
    const size_t smem = sizeof(T) * SMALL_WARP * (N * N + 1);
    const unsigned blocks = blocks_for(batch, SMALL_WARP);
    /* Every array's elements lie at multiples of their size (cusci_array_wrap
     * refuses others), as cp.async needs. */
    static void (*const by_mode[])(const T *, const T *, T *, int64_t, int64_t, bool, T *, int *, unsigned long long *, int *,
                                   const cusci__la_post) = { small_lu_kernel<T, N, SMALL_SOLVE>, small_lu_kernel<T, N, SMALL_INV>,
                                                             small_lu_kernel<T, N, SMALL_DET> };
    LAUNCH(by_mode[mode]<<<blocks, SMALL_WARP, smem, stream_of(g)>>>((const T *)a, (const T *)bin, (T *)b, k, batch, trans, (T *)out, info, first,
                                                                      nonfinite, post));
    return 0;
  }
  template <typename T>
  int run()
  {
    switch (n) {
    case 1: return launch<T, 1>();
    case 2: return launch<T, 2>();
    case 3: return launch<T, 3>();
    case 4: return launch<T, 4>();
    case 5: return launch<T, 5>();
    case 6: return launch<T, 6>();
    case 7: return launch<T, 7>();
    default: return launch<T, 8>();
    }
  }
};

} // namespace

namespace cusci_la {

/* SLOGDET, and n from 9 to 32: the warp kernels; the rest the register
 * kernel. */
int small_run(cusci__la_gpu *g, int dt, int mode, bool trans, int64_t batch, int64_t n, int64_t k, const void *a, const void *bin, void *b,
              void *out, int *info, unsigned long long *first, int *flag, cusci__la_post post)
{
  if (batch == 0)
    return 0;
  if (n < 1 || n > CUSCI__LA_SMALL_MAX)
    return fail_(g, "the small-matrix kernels, for an n they do not take", (int)cudaErrorInvalidValue);
  if (mode == CUSCI__LA_SMALL_SLOGDET || n > SMALL_N) {
    warp_op op{ g, mode, trans, batch, n, k, a, bin, b, out, info, first, flag, post };
    return cusci::by_sdcz(dt, op);
  }
  register_op op{ g, a, bin, b, n, k, batch, mode, trans, out, info, first, flag, post };
  return cusci::by_sdcz(dt, op);
}

} // namespace cusci_la
