/*
 * kernels/signal/filter.cu: lfilter, sosfilt and direct convolution on
 * the GPU: the expressions of reference/signal/filter_body.h in the same
 * order, each product and sum rounded on its own (no contraction into a
 * fused multiply-add), so that the GPU's results are the host's bit for
 * bit.
 *
 * The filters run one thread per signal (a line of outer x len x inner),
 * its state in registers when it is short and in the state array
 * otherwise; or, for a state of up to CUSCI__SIG_IIR_MAXN values and
 * shared coefficients, in blocks (reference/signal/filter.h): a thread per
 * block and signal runs the block from a zero state, a thread per signal
 * chains the blocks' states, and a thread per block and signal runs the
 * block again from its state, writing the outputs; consecutive threads take consecutive i, so that with
 * inner > 1 a warp's loads of one sample are one transaction. x, y and the
 * state never overlap (the API layer sees to it), so that the loads of
 * later samples need not wait for the stores of earlier outputs.
 */
#include <cuda_runtime.h>

#include "config.h"

#include <cusci/kit/dispatch.cuh>

#include "kernels/signal/launch.h"
#include "reference/signal/filter.h"
#include "reference/signal/select.h"

namespace {

inline int launched()
{
  return (int)cudaGetLastError();
}

/* Rounded products and sums, real and complex (float2, double2). */
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float2 mul(float2 a, float2 b) { return make_float2(sub(mul(a.x, b.x), mul(a.y, b.y)), add(mul(a.x, b.y), mul(a.y, b.x))); }
__device__ __forceinline__ float2 add(float2 a, float2 b) { return make_float2(add(a.x, b.x), add(a.y, b.y)); }
__device__ __forceinline__ float2 sub(float2 a, float2 b) { return make_float2(sub(a.x, b.x), sub(a.y, b.y)); }
__device__ __forceinline__ double2 mul(double2 a, double2 b)
{
  return make_double2(sub(mul(a.x, b.x), mul(a.y, b.y)), add(mul(a.x, b.y), mul(a.y, b.x)));
}
__device__ __forceinline__ double2 add(double2 a, double2 b) { return make_double2(add(a.x, b.x), add(a.y, b.y)); }
__device__ __forceinline__ double2 sub(double2 a, double2 b) { return make_double2(sub(a.x, b.x), sub(a.y, b.y)); }
/* The integers' direct convolution: uint64 modulo 2^64. */
__device__ __forceinline__ uint64_t mul(uint64_t a, uint64_t b) { return a * b; }
__device__ __forceinline__ uint64_t add(uint64_t a, uint64_t b) { return a + b; }
template <typename T> __device__ __forceinline__ T zero() { return T(); }
template <> __device__ __forceinline__ float2 zero<float2>() { return make_float2(0, 0); }
template <> __device__ __forceinline__ double2 zero<double2>() { return make_double2(0, 0); }

/* The state of a line in registers up to this many values. */
constexpr int REG = 16;

/* A filter's coefficients as iir_step reads them: lfilter's b[k] and
 * a[k] (k <= K), a section's c[q][e] (e of 0, 1, 2, 4, 5); in registers
 * when REGS (then K <= REG, or 2 K <= REG), else from memory. */
template <typename T, bool SOS, bool REGS> struct iir_coefs;
template <typename T, bool SOS> struct iir_coefs<T, SOS, false> {
  const T *__restrict__ p;
  int K;
  __device__ __forceinline__ iir_coefs(int K_, const T *__restrict__ c) : p(c), K(K_) {}
  __device__ __forceinline__ T b(int k) const { return p[k]; }
  __device__ __forceinline__ T a(int k) const { return p[K + 1 + k]; }
  __device__ __forceinline__ T s(int q, int e) const { return p[6 * q + e]; }
};
template <typename T> struct iir_coefs<T, false, true> {
  T vb[REG + 1], va[REG + 1];
  __device__ __forceinline__ iir_coefs(int K, const T *__restrict__ c)
  {
#pragma unroll
    for (int k = 0; k <= REG; k++)
      vb[k] = k <= K ? c[k] : zero<T>(), va[k] = k <= K ? c[K + 1 + k] : zero<T>();
  }
  __device__ __forceinline__ T b(int k) const { return vb[k]; }
  __device__ __forceinline__ T a(int k) const { return va[k]; }
};
template <typename T> struct iir_coefs<T, true, true> {
  T v[REG / 2][5];
  __device__ __forceinline__ iir_coefs(int K, const T *__restrict__ c)
  {
#pragma unroll
    for (int q = 0; q < REG / 2; q++)
#pragma unroll
      for (int e = 0; e < 5; e++)
        v[q][e] = q < K ? c[6 * q + (e < 3 ? e : e + 1)] : zero<T>();
  }
  __device__ __forceinline__ T s(int q, int e) const { return v[q][e < 3 ? e : e - 1]; }
};
/* In registers where they fit beside the state (not complex128's). */
template <typename T> constexpr bool COEF_REGS = sizeof(T) <= 8;

/* One sample of lfilter (SOS false, K its order) or of sosfilt's cascade
 * (K sections), the state in registers. */
template <typename T, bool SOS, typename C>
__device__ __forceinline__ T iir_step(int K, const C &c, T *zr, T xn)
{
  if constexpr (!SOS) {
    const T yn = K > 0 ? add(zr[0], mul(c.b(0), xn)) : mul(c.b(0), xn);
    /* One loop with constant indices, so that zr stays in registers. */
#pragma unroll
    for (int k = 0; k < REG; k++) {
      if (k + 1 < K)
        zr[k] = sub(add(zr[k + 1 < REG ? k + 1 : k], mul(c.b(k + 1), xn)), mul(c.a(k + 1), yn));
      else if (k + 1 == K)
        zr[k] = sub(mul(c.b(k + 1), xn), mul(c.a(k + 1), yn));
    }
    return yn;
  } else {
    T v = xn;
#pragma unroll
    for (int q = 0; q < REG / 2; q++)
      if (q < K) {
        const T w = add(mul(c.s(q, 0), v), zr[2 * q]);
        zr[2 * q] = add(sub(mul(c.s(q, 1), v), mul(c.s(q, 4), w)), zr[2 * q + 1]);
        zr[2 * q + 1] = sub(mul(c.s(q, 2), v), mul(c.s(q, 5), w));
        v = w;
      }
    return v;
  }
}
/* y[t] = step(x[t]) along one line of len samples (stride inner). The
 * samples are loaded AHEAD at a time (zero past len), so that a line's
 * thread waits for memory once per AHEAD samples instead of once per
 * sample. */
constexpr int AHEAD = 8;
template <typename T, typename F>
__device__ __forceinline__ void line_map(const T *__restrict__ xl, T *__restrict__ yl, int64_t len, int64_t inner, F step)
{
  for (int64_t t0 = 0; t0 < len; t0 += AHEAD) {
    T xb[AHEAD];
#pragma unroll
    for (int j = 0; j < AHEAD; j++)
      xb[j] = t0 + j < len ? xl[(t0 + j) * inner] : zero<T>();
#pragma unroll
    for (int j = 0; j < AHEAD; j++) {
      if (t0 + j >= len)
        break;
      yl[(t0 + j) * inner] = step(xb[j]);
    }
  }
}

/* lfilter of one line; S: the state in zr (registers, K <= REG) or in z
 * itself (stride inner). */
template <typename T, bool REGS>
__global__ void lfilter_kernel(int64_t K, const T *__restrict__ coef, int64_t outer, int64_t len, int64_t inner, const T *__restrict__ x,
                               T *__restrict__ y, T *__restrict__ z)
{
  const int64_t line = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= outer * inner)
    return;
  const int64_t o = line / inner, i = line - o * inner;
  const T *b = coef, *a = coef + K + 1;
  const T *xl = x + o * len * inner + i;
  T *yl = y + o * len * inner + i, *zl = z + o * K * inner + i;
  T zr[REGS ? REG : 1];
  if (REGS) {
#pragma unroll
    for (int k = 0; k < REG; k++)
      zr[k] = k < K ? zl[k * inner] : zero<T>();
  }
  const iir_coefs<T, false, REGS && COEF_REGS<T>> cr((int)K, coef);
  line_map(xl, yl, len, inner, [&](T xn) {
    if constexpr (REGS) {
      return iir_step<T, false>((int)K, cr, zr, xn);
    } else {
      const T yn = add(zl[0], mul(b[0], xn));
      for (int64_t k = 0; k + 1 < K; k++)
        zl[k * inner] = sub(add(zl[(k + 1) * inner], mul(b[k + 1], xn)), mul(a[k + 1], yn));
      zl[(K - 1) * inner] = sub(mul(b[K], xn), mul(a[K], yn));
      return yn;
    }
  });
  if (REGS) {
#pragma unroll
    for (int k = 0; k < REG; k++)
      if (k < K)
        zl[k * inner] = zr[k];
  }
}

/* sosfilt of one line, the sections' states in registers up to REG / 2
 * sections, else in z. */
template <typename T, bool REGS>
__global__ void sosfilt_kernel(int64_t nsec, int per_channel, const T *__restrict__ sos, int64_t outer, int64_t len, int64_t inner,
                               const T *__restrict__ x, T *__restrict__ y, T *__restrict__ z)
{
  const int64_t line = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= outer * inner)
    return;
  const int64_t o = line / inner, i = line - o * inner;
  const T *s = sos + (per_channel ? line * nsec * 6 : 0);
  const T *xl = x + o * len * inner + i;
  T *yl = y + o * len * inner + i;
  /* z[((q * outer + o) * 2 + j) * inner + i] */
  const int64_t zq = outer * 2 * inner;
  T *zl = z + o * 2 * inner + i;
  T zr[REGS ? REG : 1];
  if (REGS) {
#pragma unroll
    for (int k = 0; k < REG; k++)
      zr[k] = k < 2 * nsec ? zl[(k >> 1) * zq + (k & 1) * inner] : zero<T>();
  }
  const iir_coefs<T, true, REGS && COEF_REGS<T>> cr((int)nsec, s);
  line_map(xl, yl, len, inner, [&](T v) {
    if constexpr (REGS) {
      return iir_step<T, true>((int)nsec, cr, zr, v);
    } else {
      for (int64_t q = 0; q < nsec; q++) {
        const T *c = s + 6 * q;
        T *zs = zl + q * zq;
        const T w = add(mul(c[0], v), zs[0]);
        zs[0] = add(sub(mul(c[1], v), mul(c[4], w)), zs[inner]);
        zs[inner] = sub(mul(c[2], v), mul(c[5], w));
        v = w;
      }
      return v;
    }
  });
  if (REGS) {
#pragma unroll
    for (int k = 0; k < REG; k++)
      if (k < 2 * nsec)
        zl[(k >> 1) * zq + (k & 1) * inner] = zr[k];
  }
}


/* ------------------------------------------------ in blocks (filter.h) */

/* The state's element k of line (o, i) in the layout of filter.h. */
template <bool SOS>
__device__ __forceinline__ int64_t zat(int K, int64_t outer, int64_t inner, int64_t o, int64_t i, int k)
{
  return SOS ? (((int64_t)(k >> 1) * outer + o) * 2 + (k & 1)) * inner + i : (o * K + k) * inner + i;
}

/* a = u + M a, as anchor_step of filter_body.h. */
template <typename T>
__device__ __forceinline__ void anchor_step(int N, const T *__restrict__ M, const T *u, T *a)
{
  T t[REG];
#pragma unroll
  for (int i = 0; i < REG; i++)
    if (i < N) {
      T acc = mul(M[i * N], a[0]);
#pragma unroll
      for (int j = 1; j < REG; j++)
        if (j < N)
          acc = add(acc, mul(M[i * N + j], a[j]));
      t[i] = add(u[i], acc);
    }
#pragma unroll
  for (int i = 0; i < REG; i++)
    if (i < N)
      a[i] = t[i];
}

/* Segment j of a call: [*t0, *t1) of its len samples, the first ending
 * where the current block does. */
__device__ __forceinline__ void segment(int64_t j, int64_t r0, int64_t len, int64_t *t0, int64_t *t1)
{
  const int64_t L = CUSCI__SIG_IIR_BLOCK, first = L - r0;
  *t0 = j == 0 ? 0 : first + (j - 1) * L;
  const int64_t e = first + j * L;
  *t1 = e < len ? e : len;
}

/* A block boundary left pending by the last call (r0 = L): sa = u + M sa,
 * the true state sa, u zero. A thread per line. */
template <typename T, bool SOS>
__global__ void anchor_boundary_kernel(int K, int N, const T *__restrict__ M, int64_t outer, int64_t inner, T *z, T *sa, T *u)
{
  const int64_t lines = outer * inner, line = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines)
    return;
  const int64_t o = line / inner, i = line - o * inner;
  T a[REG], w[REG];
#pragma unroll
  for (int k = 0; k < REG; k++)
    if (k < N)
      a[k] = sa[k * lines + line], w[k] = u[k * lines + line];
  anchor_step(N, M, w, a);
#pragma unroll
  for (int k = 0; k < REG; k++)
    if (k < N) {
      sa[k * lines + line] = a[k];
      u[k * lines + line] = zero<T>();
      z[zat<SOS>(K, outer, inner, o, i, k)] = a[k];
    }
}

/* v from lane src of the 16-lane group (the complex types a part at a
 * time). */
__device__ __forceinline__ float group_get(float v, int src) { return __shfl_sync(0xffffffffu, v, src, 16); }
__device__ __forceinline__ double group_get(double v, int src) { return __shfl_sync(0xffffffffu, v, src, 16); }
__device__ __forceinline__ float2 group_get(float2 v, int src) { return make_float2(group_get(v.x, src), group_get(v.y, src)); }
__device__ __forceinline__ double2 group_get(double2 v, int src) { return make_double2(group_get(v.x, src), group_get(v.y, src)); }

/* The states where the segments start: slot 0 the true state z, slot j
 * (0 < j < nseg) s_j = U_j + M s_{j-1} over slot j's zero-start state U_j,
 * s_0 = sa (or z without it, or when fresh); sa left as the last
 * segment's block's, u as its zero-start state (when given). Sixteen
 * lanes per line, lane r holding row r of M and element r of the state,
 * each row's sum in anchor_step's order; the next slot's U_j loaded while
 * this one's is combined. */
template <typename T, bool SOS>
__global__ void anchor_combine_kernel(int K, int N, const T *__restrict__ M, int64_t outer, int64_t inner, int64_t nseg, const T *__restrict__ z,
                                      T *sa, bool fresh, T *u, T *w)
{
  static_assert(REG == 16, "a line's group is REG lanes");
  const int64_t lines = outer * inner, gid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, line = gid / REG;
  const int r = (int)(gid % REG);
  const bool live = line < lines && r < N;
  const int64_t o = live ? line / inner : 0, i = live ? line - o * inner : 0;
  T m[REG], a = zero<T>(), U = zero<T>();
#pragma unroll
  for (int j = 0; j < REG; j++)
    m[j] = live && j < N ? M[r * N + j] : zero<T>();
  if (live) {
    const T v = z[zat<SOS>(K, outer, inner, o, i, r)];
    w[r * lines + line] = v;
    a = sa && !fresh ? sa[r * lines + line] : v;
    if (nseg > 1)
      U = w[(N + r) * lines + line];
  }
  for (int64_t j = 1; j < nseg; j++) {
    const T Uj = U;
    if (live && j + 1 < nseg)
      U = w[((j + 1) * N + r) * lines + line];
    T acc = mul(m[0], group_get(a, 0));
#pragma unroll
    for (int c = 1; c < REG; c++)
      if (c < N)
        acc = add(acc, mul(m[c], group_get(a, c)));
    a = add(Uj, acc);
    if (live)
      w[(j * N + r) * lines + line] = a;
  }
  if (live) {
    if (sa && (nseg > 1 || fresh))
      sa[r * lines + line] = a;
    if (u)
      u[r * lines + line] = w[(nseg * N + r) * lines + line];
  }
}

/* A thread's segment: j of line (o, i), [t0, t1) along it. */
struct seg_of {
  bool live;
  int64_t j, line, o, i, t0, t1;
  __device__ __forceinline__ seg_of(int64_t id, int64_t nseg, int64_t lines, int64_t inner, int64_t r0, int64_t len)
  {
    live = id < nseg * lines;
    j = live ? id / lines : 0, line = live ? id - j * lines : 0, o = line / inner, i = line - o * inner;
    t0 = t1 = 0;
    if (live)
      segment(j, r0, len, &t0, &t1);
  }
};

/* With inner 1 a thread's segment is contiguous and its neighbours' lie
 * a line or a block away: a warp stages its 32 segments TW samples at a
 * time in shared memory, each load and store one segment's TW
 * consecutive samples, and each thread then runs its own row. */
constexpr int TW = 32, TILE_THREADS = 64;
template <typename T> struct seg_tiles {
  T v[TILE_THREADS / 32][32][TW + 1];
  int64_t at[TILE_THREADS / 32][32], end[TILE_THREADS / 32][32];
};
/* The block's tiles, when TILED. */
template <typename T, bool TILED> __device__ __forceinline__ seg_tiles<T> *tiles_of()
{
  if constexpr (TILED) {
    __shared__ seg_tiles<T> sh;
    return &sh;
  } else {
    return nullptr;
  }
}

__device__ __forceinline__ int warp_max(int v)
{
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) {
    const int o = __shfl_xor_sync(0xffffffffu, v, d);
    v = o > v ? o : v;
  }
  return v;
}

/* Samples [q TW, q TW + TW) of the warp's segments from x into the tile
 * (LOAD) or from the tile to y. */
template <typename T, bool LOAD>
__device__ __forceinline__ void tile_move(seg_tiles<T> &sh, int wp, int64_t q, const T *__restrict__ x, T *__restrict__ y)
{
  const int lane = threadIdx.x & 31;
  __syncwarp();
#pragma unroll 4
  for (int r = 0; r < 32; r++) {
    const int64_t e = sh.at[wp][r] + q * TW + lane;
    if (e < sh.end[wp][r]) {
      if (LOAD)
        sh.v[wp][r][lane] = x[e];
      else
        y[e] = sh.v[wp][r][lane];
    }
  }
  __syncwarp();
}

/* The recurrence over a thread's segment g from the state zr, writing the
 * outputs when OUT: strided through x and y, or, TILED (inner 1, all 32
 * lanes of the warp here), through the tiles. */
template <typename T, bool SOS, bool OUT, bool TILED, typename C>
__device__ __forceinline__ void seg_run(int K, const C &c, const seg_of &g, int64_t len, int64_t inner, const T *__restrict__ x, T *__restrict__ y,
                                        T *zr, seg_tiles<T> *sh)
{
  if (!TILED) {
    const T *xl = x + g.o * len * inner + g.i;
    T *yl = OUT ? y + g.o * len * inner + g.i : nullptr;
#pragma unroll 4
    for (int64_t t = g.t0; t < g.t1; t++) {
      const T v = iir_step<T, SOS>(K, c, zr, xl[t * inner]);
      if (OUT)
        yl[t * inner] = v;
    }
    return;
  }
  const int wp = threadIdx.x >> 5, lane = threadIdx.x & 31, n = (int)(g.t1 - g.t0);
  sh->at[wp][lane] = g.line * len + g.t0, sh->end[wp][lane] = g.line * len + g.t1;
  const int tiles = warp_max((n + TW - 1) / TW);
  for (int q = 0; q < tiles; q++) {
    tile_move<T, true>(*sh, wp, q, x, nullptr);
    const int m = n - q * TW < TW ? n - q * TW : TW;
    T *row = sh->v[wp][lane];
#pragma unroll 4
    for (int k = 0; k < m; k++) {
      const T v = iir_step<T, SOS>(K, c, zr, row[k]);
      if (OUT)
        row[k] = v;
    }
    if (OUT)
      tile_move<T, false>(*sh, wp, q, nullptr, y);
  }
}

/* Each segment j < count of each line run over x, a thread per (segment,
 * line). The first pass (!OUT) runs from a zero state, segment 0 from the
 * state in s (s[k lines + line]) where s is given, and leaves segment j's
 * final state in slot j + 1 of w (w[((j + 1) N + k) lines + line]). The
 * second (OUT) runs segment j from slot j of s (the first pass's w, now
 * combined), writing y; the last segment leaves its state in z. */
template <typename T, bool SOS, bool OUT, bool TILED>
__global__ void anchor_seg_kernel(int K, int N, const T *__restrict__ c, int64_t outer, int64_t len, int64_t inner, int64_t r0, int64_t count,
                                  const T *__restrict__ x, const T *__restrict__ s, T *__restrict__ y, T *__restrict__ z, T *__restrict__ w)
{
  seg_tiles<T> *sh = tiles_of<T, TILED>();
  const int64_t lines = outer * inner;
  const seg_of g((int64_t)blockIdx.x * blockDim.x + threadIdx.x, count, lines, inner, r0, len);
  if (!TILED && !g.live)
    return;
  T zr[REG];
#pragma unroll
  for (int k = 0; k < REG; k++)
    zr[k] = g.live && k < N && s && (OUT || g.j == 0) ? s[(g.j * N + k) * lines + g.line] : zero<T>();
  const iir_coefs<T, SOS, COEF_REGS<T>> cr(K, c);
  seg_run<T, SOS, OUT, TILED>(K, cr, g, len, inner, x, y, zr, sh);
  if (!g.live || (OUT && g.j != count - 1))
    return;
#pragma unroll
  for (int k = 0; k < REG; k++)
    if (k < N) {
      if (OUT)
        z[zat<SOS>(K, outer, inner, g.o, g.i, k)] = zr[k];
      else
        w[((g.j + 1) * N + k) * lines + g.line] = zr[k];
    }
}

struct conv_dims {
  int ndim;
  int64_t s1[CUSCI__SIG_CONV_MAXD], s2[CUSCI__SIG_CONV_MAXD], start[CUSCI__SIG_CONV_MAXD], os[CUSCI__SIG_CONV_MAXD];
};

/* One thread per output element, the sum over in2's box in C order. */
template <typename T>
__global__ void convolve_kernel(conv_dims d, const T *__restrict__ in1, const T *__restrict__ in2, T *out, int64_t no)
{
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < no; j += step) {
    int64_t jd[CUSCI__SIG_CONV_MAXD], lo[CUSCI__SIG_CONV_MAXD], hi[CUSCI__SIG_CONV_MAXD], k[CUSCI__SIG_CONV_MAXD];
    int64_t rem = j;
    bool empty = false;
    for (int e = d.ndim - 1; e >= 0; e--) {
      jd[e] = rem % d.os[e] + d.start[e];
      rem /= d.os[e];
      lo[e] = jd[e] - (d.s1[e] - 1) > 0 ? jd[e] - (d.s1[e] - 1) : 0;
      hi[e] = jd[e] < d.s2[e] - 1 ? jd[e] : d.s2[e] - 1;
      empty |= lo[e] > hi[e];
      k[e] = lo[e];
    }
    T acc = zero<T>();
    if (d.ndim == 1) {
      for (int64_t q = lo[0]; !empty && q <= hi[0]; q++)
        acc = add(acc, mul(in2[q], in1[jd[0] - q]));
    } else {
      while (!empty) {
        int64_t o1 = 0, o2 = 0, st1 = 1, st2 = 1;
        for (int e = d.ndim - 1; e >= 0; e--) {
          o1 += (jd[e] - k[e]) * st1, o2 += k[e] * st2;
          st1 *= d.s1[e], st2 *= d.s2[e];
        }
        acc = add(acc, mul(in2[o2], in1[o1]));
        int e = d.ndim - 1;
        for (; e >= 0; e--) {
          if (++k[e] <= hi[e])
            break;
          k[e] = lo[e];
        }
        empty = e < 0;
      }
    }
    out[j] = acc;
  }
}

/* upfirdn: one thread per output element (o, i, q), the taps in the
 * host's order. */
template <typename T>
__global__ void upfirdn_kernel(int64_t nh, const T *__restrict__ h, int64_t outer, int64_t n, int64_t inner, const T *__restrict__ x, int64_t up,
                               int64_t down, int64_t i0, int64_t j0, int64_t ntot, int64_t nout, T *y)
{
  const int64_t total = outer * nout * inner, step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    const int64_t q = e % inner, r = e / inner, i = r % nout, o = r / nout;
    const T *xl = x + o * n * inner + q;
    const int64_t t = (i0 + i) * down, lo = t - (ntot - 1) * up;
    int64_t k = t % up, kmax = t - (j0 > 0 ? j0 : 0) * up;
    if (k < lo)
      k += (lo - k + up - 1) / up * up;
    kmax = kmax < nh - 1 ? kmax : nh - 1;
    T acc = zero<T>();
    for (; k <= kmax; k += up)
      acc = add(acc, mul(h[k], xl[((t - k) / up - j0) * inner]));
    y[e] = acc;
  }
}

struct med_dims {
  int ndim;
  int64_t shape[CUSCI__SIG_CONV_MAXD], ks[CUSCI__SIG_CONV_MAXD];
};

/* order_filter: one thread per element, its window in local memory (CAP
 * values at most), the mask's elements only (mask NULL: all). */
template <typename T, int CAP>
__global__ void order_kernel(med_dims d, int64_t w, const uint8_t *__restrict__ mask, int64_t rank, int64_t total, const T *__restrict__ x, T *y)
{
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  T win[CAP];
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    int64_t at[CUSCI__SIG_CONV_MAXD], r[CUSCI__SIG_CONV_MAXD], st[CUSCI__SIG_CONV_MAXD], rem = e, s = 1;
    for (int a = d.ndim - 1; a >= 0; a--) {
      at[a] = rem % d.shape[a], rem /= d.shape[a];
      r[a] = 0, st[a] = s, s *= d.shape[a];
    }
    int64_t cnt = 0;
    for (int64_t m = 0; m < w; m++) {
      if (!mask || mask[m]) {
        int64_t off = 0;
        bool inside = true;
        for (int a = 0; a < d.ndim; a++) {
          const int64_t p = at[a] + r[a] - d.ks[a] / 2;
          inside &= p >= 0 && p < d.shape[a];
          off += p * st[a];
        }
        win[cnt++] = inside ? x[off] : (T)0;
      }
      for (int a = d.ndim - 1; a >= 0; a--) {
        if (++r[a] < d.ks[a])
          break;
        r[a] = 0;
      }
    }
    T v;
    CUSCI__SIG_SELECT(T, win, cnt, rank, v);
    y[e] = v;
  }
}

/* x padded as np.pad's constant, wrap or symmetric: one thread per
 * element of the padded array. */
template <typename T>
__global__ void pad_kernel(med_dims d, med_dims before, int64_t total, int mode, T fill, const T *__restrict__ x, T *y)
{
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    int64_t rem = e, off = 0, s = 1;
    bool inside = true;
    for (int a = d.ndim - 1; a >= 0; a--) {
      /* d.ks holds the padded extents, before.shape the offsets. */
      const int64_t i = cusci__sig_pad_index(mode, rem % d.ks[a], before.shape[a], d.shape[a]);
      rem /= d.ks[a];
      inside &= i >= 0;
      off += (i >= 0 ? i : 0) * s;
      s *= d.shape[a];
    }
    y[e] = inside ? x[off] : fill;
  }
}

unsigned blocks_for(int64_t n, int threads)
{
  int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : b);
}

struct lfilter_op {
  cudaStream_t s;
  int64_t K;
  const void *coef;
  int64_t outer, len, inner;
  const void *x;
  void *y, *z;
  template <typename T> int run()
  {
    const int64_t lines = outer * inner;
    if (K <= REG)
      lfilter_kernel<T, true><<<blocks_for(lines, 128), 128, 0, s>>>(K, (const T *)coef, outer, len, inner, (const T *)x, (T *)y, (T *)z);
    else
      lfilter_kernel<T, false><<<blocks_for(lines, 128), 128, 0, s>>>(K, (const T *)coef, outer, len, inner, (const T *)x, (T *)y, (T *)z);
    return launched();
  }
};

struct sosfilt_op {
  cudaStream_t s;
  int64_t nsec;
  int per_channel;
  const void *sos;
  int64_t outer, len, inner;
  const void *x;
  void *y, *z;
  template <typename T> int run()
  {
    const int64_t lines = outer * inner;
    if (2 * nsec <= REG)
      sosfilt_kernel<T, true><<<blocks_for(lines, 128), 128, 0, s>>>(nsec, per_channel, (const T *)sos, outer, len, inner, (const T *)x, (T *)y,
                                                                    (T *)z);
    else
      sosfilt_kernel<T, false><<<blocks_for(lines, 128), 128, 0, s>>>(nsec, per_channel, (const T *)sos, outer, len, inner, (const T *)x, (T *)y,
                                                                     (T *)z);
    return launched();
  }
};


/* One pass of anchor_seg_kernel over count segments of each line. */
template <typename T, bool SOS, bool OUT>
void anchor_segs(cudaStream_t st, int K, int N, const T *c, int64_t outer, int64_t len, int64_t inner, int64_t r0, int64_t count, const T *x,
                 const T *s, T *y, T *z, T *w)
{
  const bool tiled = inner == 1;
  const int tb = tiled ? TILE_THREADS : 128;
  const unsigned g = blocks_for(count * outer * inner, tb);
  if (tiled)
    anchor_seg_kernel<T, SOS, OUT, true><<<g, tb, 0, st>>>(K, N, c, outer, len, inner, r0, count, x, s, y, z, w);
  else
    anchor_seg_kernel<T, SOS, OUT, false><<<g, tb, 0, st>>>(K, N, c, outer, len, inner, r0, count, x, s, y, z, w);
}

struct anchored_op {
  cudaStream_t s;
  bool sos;
  int64_t K;
  const void *coef, *M;
  int64_t outer, len, inner, r0;
  const void *x;
  void *y, *z, *sa, *u, *w;
  bool carry, fresh;
  template <typename T, bool SOS> int go()
  {
    const int64_t lines = outer * inner;
    const int N = (int)(SOS ? 2 * K : K), k = (int)K;
    const T *c = (const T *)coef, *m = (const T *)M;
    const unsigned bl = (unsigned)blocks_for(lines, 128);
    int64_t r = r0;
    if (r == CUSCI__SIG_IIR_BLOCK) {
      anchor_boundary_kernel<T, SOS><<<bl, 128, 0, s>>>(k, N, m, outer, inner, (T *)z, (T *)sa, (T *)u);
      r = 0;
    }
    const int64_t nseg = cusci__sig_anchor_segments(r, len), nrun = carry ? nseg : nseg - 1;
    if (nrun > 0)
      anchor_segs<T, SOS, false>(s, k, N, c, outer, len, inner, r, nrun, (const T *)x, fresh ? nullptr : (const T *)u, nullptr, nullptr, (T *)w);
    anchor_combine_kernel<T, SOS><<<blocks_for(lines * REG, 128), 128, 0, s>>>(k, N, m, outer, inner, nseg, (const T *)z, (T *)sa, fresh, carry ? (T *)u : nullptr, (T *)w);
    anchor_segs<T, SOS, true>(s, k, N, c, outer, len, inner, r, nseg, (const T *)x, (const T *)w, (T *)y, (T *)z, nullptr);
    return launched();
  }
  template <typename T> int run() { return sos ? go<T, true>() : go<T, false>(); }
};

struct convolve_op {
  cudaStream_t s;
  conv_dims d;
  const void *in1, *in2;
  void *out;
  int64_t no;
  template <typename T> int run()
  {
    int64_t b = blocks_for(no, 256);
    convolve_kernel<T><<<(unsigned)(b > 65535 * 64 ? 65535 * 64 : b), 256, 0, s>>>(d, (const T *)in1, (const T *)in2, (T *)out, no);
    return launched();
  }
};

struct upfirdn_op {
  cudaStream_t s;
  int64_t nh;
  const void *h;
  int64_t outer, n, inner;
  const void *x;
  int64_t up, down, i0, j0, ntot, nout;
  void *y;
  template <typename T> int run()
  {
    const int64_t b = blocks_for(outer * nout * inner, 256);
    upfirdn_kernel<T><<<(unsigned)(b > 65535 * 64 ? 65535 * 64 : b), 256, 0, s>>>(nh, (const T *)h, outer, n, inner, (const T *)x, up, down, i0, j0,
                                                                                 ntot, nout, (T *)y);
    return launched();
  }
};

template <typename T>
int order_run(cudaStream_t s, const med_dims &d, int64_t w, int64_t kept, const uint8_t *mask, int64_t rank, int64_t total, const void *x, void *y)
{
  const int64_t b = blocks_for(total, 128);
  const unsigned g = (unsigned)(b > 65535 * 64 ? 65535 * 64 : b);
  if (kept <= 32)
    order_kernel<T, 32><<<g, 128, 0, s>>>(d, w, mask, rank, total, (const T *)x, (T *)y);
  else if (kept <= 128)
    order_kernel<T, 128><<<g, 128, 0, s>>>(d, w, mask, rank, total, (const T *)x, (T *)y);
  else
    order_kernel<T, CUSCI__SIG_MEDFILT_MAXW><<<g, 128, 0, s>>>(d, w, mask, rank, total, (const T *)x, (T *)y);
  return launched();
}

/* The SDCZ dtype of a precision code of filter.h. */
int dtype_of(int prec)
{
  return prec == 0 ? CUSCI_FLOAT32 : prec == 1 ? CUSCI_FLOAT64 : prec == 2 ? CUSCI_COMPLEX64 : CUSCI_COMPLEX128;
}

} // namespace

extern "C" int cusci__sig_lfilter_gpu(void *stream, int prec, int64_t K, const void *coef, int64_t outer, int64_t len, int64_t inner,
                                      const void *x, void *y, void *z)
{
  if (outer * inner == 0 || len == 0)
    return 0;
  lfilter_op op{ (cudaStream_t)stream, K, coef, outer, len, inner, x, y, z };
  return cusci::by_sdcz(dtype_of(prec), op);
}

extern "C" int cusci__sig_sosfilt_gpu(void *stream, int prec, int64_t nsec, int per_channel, const void *sos, int64_t outer, int64_t len,
                                      int64_t inner, const void *x, void *y, void *z)
{
  if (outer * inner == 0 || len == 0)
    return 0;
  sosfilt_op op{ (cudaStream_t)stream, nsec, per_channel, sos, outer, len, inner, x, y, z };
  return cusci::by_sdcz(dtype_of(prec), op);
}


extern "C" int cusci__sig_iir_anchored_gpu(void *stream, int prec, int sos, int64_t K, const void *coef, const void *M, int64_t outer, int64_t len,
                                           int64_t inner, int64_t r0, const void *x, void *y, void *z, void *sa, void *u, int carry, int fresh,
                                           void *work)
{
  if (outer * inner == 0 || len == 0)
    return 0;
  anchored_op op{ (cudaStream_t)stream, sos != 0, K, coef, M, outer, len, inner, r0, x, y, z, sa, u, work, carry != 0, fresh != 0 };
  return cusci::by_sdcz(dtype_of(prec), op);
}

extern "C" int cusci__sig_convolve_gpu(void *stream, int prec, int ndim, const int64_t *shape1, const void *in1, const int64_t *shape2,
                                       const void *in2, const int64_t *start, const int64_t *oshape, void *out)
{
  conv_dims d;
  d.ndim = ndim;
  int64_t no = 1;
  for (int e = 0; e < ndim; e++) {
    d.s1[e] = shape1[e], d.s2[e] = shape2[e], d.start[e] = start[e], d.os[e] = oshape[e];
    no *= oshape[e];
  }
  if (no == 0)
    return 0;
  convolve_op op{ (cudaStream_t)stream, d, in1, in2, out, no };
  if (prec == CUSCI__SIG_U64)
    return op.run<uint64_t>();
  return cusci::by_sdcz(dtype_of(prec), op);
}

extern "C" int cusci__sig_upfirdn_gpu(void *stream, int prec, int64_t nh, const void *h, int64_t outer, int64_t n, int64_t inner, const void *x,
                                      int64_t up, int64_t down, int64_t i0, int64_t j0, int64_t ntot, int64_t nout, void *y)
{
  if (outer * nout * inner == 0)
    return 0;
  upfirdn_op op{ (cudaStream_t)stream, nh, h, outer, n, inner, x, up, down, i0, j0, ntot, nout, y };
  return cusci::by_sdcz(dtype_of(prec), op);
}

extern "C" int cusci__sig_order_gpu(void *stream, int dt, int ndim, const int64_t *shape, const int64_t *ks, const uint8_t *mask, int64_t kept,
                                    int64_t rank, const void *x, void *y)
{
  med_dims d;
  d.ndim = ndim;
  int64_t total = 1, w = 1;
  for (int a = 0; a < ndim; a++)
    d.shape[a] = shape[a], d.ks[a] = ks[a], total *= shape[a], w *= ks[a];
  if (total == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  switch (dt) {
#define CUSCI__SIG_MED_CASE_(NAME, T, ...) \
  case CUSCI_##NAME:                      \
    return order_run<T>(s, d, w, kept, mask, rank, total, x, y);
    CUSCI_DTYPES_INTEGER(CUSCI__SIG_MED_CASE_, 0)
    CUSCI_DTYPES_REAL(CUSCI__SIG_MED_CASE_, 0)
#undef CUSCI__SIG_MED_CASE_
  default:
    return (int)cudaErrorInvalidValue;
  }
}

extern "C" int cusci__sig_pad_gpu(void *stream, int prec, int ndim, const int64_t *shape, const int64_t *before, const int64_t *oshape, int mode,
                                  double fill_re, double fill_im, const void *x, void *y)
{
  med_dims d, b;
  d.ndim = b.ndim = ndim;
  int64_t total = 1;
  for (int a = 0; a < ndim; a++)
    d.shape[a] = shape[a], d.ks[a] = oshape[a], b.shape[a] = before[a], b.ks[a] = 0, total *= oshape[a];
  if (total == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const int64_t bl = blocks_for(total, 256);
  const unsigned g = (unsigned)(bl > 65535 * 64 ? 65535 * 64 : bl);
  switch (prec) {
  case 0: pad_kernel<float><<<g, 256, 0, s>>>(d, b, total, mode, (float)fill_re, (const float *)x, (float *)y); break;
  case 1: pad_kernel<double><<<g, 256, 0, s>>>(d, b, total, mode, fill_re, (const double *)x, (double *)y); break;
  case 2: pad_kernel<float2><<<g, 256, 0, s>>>(d, b, total, mode, make_float2((float)fill_re, (float)fill_im), (const float2 *)x, (float2 *)y); break;
  default: pad_kernel<double2><<<g, 256, 0, s>>>(d, b, total, mode, make_double2(fill_re, fill_im), (const double2 *)x, (double2 *)y); break;
  }
  return launched();
}
