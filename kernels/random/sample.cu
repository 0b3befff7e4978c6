/*
 * kernels/random/sample.cu: librandom's distributions on the GPU, one
 * thread per group of elements, with the formulas of
 * reference/random/dists.h. Compiled with -fmad=false, so that every
 * operation rounds as on the host.
 */
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>
#include <type_traits>

#include <cusci/core.h>

#include "kernels/random/common.cuh"
#include "kernels/random/launch.h"

namespace {

/* Blocks for the sampling kernels: enough to fill the device (per_sm
 * blocks of 256 threads per multiprocessor, eight unless the kernel's
 * registers allow fewer), no more, so that a thread loops over many
 * groups and computes what depends on the key alone (Philox's round keys)
 * once. */
unsigned fill_blocks(int64_t groups, int per_sm = 8)
{
  static int sms[64];
  int dev = 0, sm = 0;
  if (cudaGetDevice(&dev) == cudaSuccess && dev >= 0 && dev < 64) {
    sm = sms[dev];
    if (sm == 0 && cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess)
      sms[dev] = sm;
  }
  unsigned b = blocks_for(groups);
  unsigned cap = sm > 0 ? (unsigned)sm * (unsigned)per_sm : 1024u;
  return b < cap ? b : cap;
}

/* fill_blocks for a kernel whose registers may leave room for fewer than
 * eight blocks per multiprocessor: a grid of several waves would leave
 * the last one partly empty. */
template <typename K>
unsigned resident_blocks(K kernel, int64_t groups)
{
  static std::atomic<int> known{0}; /* per instance of the template: one kernel */
  int per_sm = known.load(std::memory_order_relaxed);
  if (per_sm == 0) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0) != cudaSuccess || per_sm < 1) {
      (void)cudaGetLastError(); /* not the launch's error */
      per_sm = 8;
    }
    known.store(per_sm, std::memory_order_relaxed);
  }
  return fill_blocks(groups, per_sm < 8 ? per_sm : 8);
}

/* Store a full group of G elements of T with the widest stores that fit
 * (groups start at multiples of G elements of a 256-byte aligned array). */
template <typename T, int G>
__device__ __forceinline__ void store_group(T *dst, const T (&v)[G])
{
  constexpr int bytes = (int)sizeof(T) * G;
  if constexpr (bytes % 16 == 0) {
    const uint4 *src = reinterpret_cast<const uint4 *>(v);
    for (int i = 0; i < bytes / 16; i++)
      reinterpret_cast<uint4 *>(dst)[i] = src[i];
  } else if constexpr (bytes == 8) {
    *reinterpret_cast<uint2 *>(dst) = *reinterpret_cast<const uint2 *>(v);
  } else if constexpr (bytes == 4) {
    *reinterpret_cast<uint32_t *>(dst) = *reinterpret_cast<const uint32_t *>(v);
  } else {
    for (int i = 0; i < G; i++)
      dst[i] = v[i];
  }
}

/* Elements per group of a real distribution: known at compile time. */
template <int DIST, int F32>
__host__ __device__ constexpr int real_group()
{
  return DIST <= CUSCI__RD_TRIANGULAR                                     ? (F32 ? 4 : 2)
         : (DIST == CUSCI__RD_STANDARD_GAMMA || DIST == CUSCI__RD_GAMMA) ? (F32 ? 2 : 1)
                                                                           : 1;
}

template <int DIST, int F32>
__global__ void real_kernel(const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  constexpr int G = real_group<DIST, F32>();
  using T = typename std::conditional<F32 != 0, float, double>::type;
  int64_t groups = (n + G - 1) / G;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    double v[4];
    cusci__rgroup_real(DIST, &p, key, ctr + (uint64_t)g, F32, v);
    T t[G];
    for (int i = 0; i < G; i++)
      t[i] = (T)v[i];
    int64_t k0 = g * G;
    T *d = (T *)dst;
    if (k0 + G <= n) {
      store_group<T, G>(d + k0, t);
    } else {
      for (int i = 0; i < G; i++)
        if (k0 + i < n)
          d[k0 + i] = t[i];
    }
  }
}

/*
 * The group normals (standard_normal, normal, lognormal) take a fast path
 * for almost every element and a slow one for a few: the ziggurat accepts
 * about 98.5% of draws with one multiplication. The slow path (a
 * logarithm or an exponential, a stream of its own) needs twice the
 * registers of the fast one, and a kernel that may call it is sized for
 * it, so it runs in a second kernel: the first makes every element by the
 * fast path and marks those it could not finish in a bitmap, one word per
 * warp, round and element of the group (G ballots, stored by lane 0); the
 * second finishes the marked ones. The bitmap has a place for every
 * element, so nothing can overflow. The value of an element is the same
 * whichever thread or kernel makes it, and the same as the host's.
 */
constexpr int kWarps = kThreads / 32;

/* The two kernels' shared grid and bitmap: warp w's words for round r are
 * bits[(w * rounds + r) * G + i], i < G; bit L of word i marks element i
 * of lane L's group. The first kernel writes a warp's words only for the
 * rounds in which its first group lies inside the array (warp_rounds):
 * the second must read no others, since the scratch is not initialised
 * and the rest would mark elements past the end. */
struct defer_map {
  uint32_t *bits;
  uint32_t rounds;
  int64_t groups;
};

/* The rounds of the warp whose first group is base0, in a grid of
 * `stride` groups a round. */
__device__ __forceinline__ uint32_t warp_rounds(const defer_map &dm, int64_t base0, int64_t stride)
{
  return base0 < dm.groups ? (uint32_t)((dm.groups - base0 + stride - 1) / stride) : 0u;
}

void defer_plan(int64_t groups, int G, unsigned *blocks, uint32_t *rounds, size_t *bytes)
{
  *blocks = fill_blocks(groups);
  int64_t stride = (int64_t)*blocks * kThreads;
  *rounds = (uint32_t)((groups + stride - 1) / stride);
  *bytes = (size_t)*blocks * kWarps * *rounds * G * sizeof(uint32_t);
}

/* Lane 0 stores at the warp's words of the round the G ballots of the
 * lanes' rejected elements. */
template <int G>
__device__ __forceinline__ void defer_mark(uint32_t *at, const bool (&rej)[G])
{
  uint32_t b[G];
#pragma unroll
  for (int i = 0; i < G; i++)
    b[i] = __ballot_sync(0xffffffffu, rej[i]);
  if (threadIdx.x % 32 == 0) {
    if constexpr (G == 4)
      *reinterpret_cast<uint4 *>(at) = make_uint4(b[0], b[1], b[2], b[3]);
    else if constexpr (G == 2)
      *reinterpret_cast<uint2 *>(at) = make_uint2(b[0], b[1]);
    else
      *at = b[0];
  }
}

/* The second kernel's side: slow(k) for every marked element of warp w of
 * the first kernel. Lane L reads rounds L, L + 32, ... (the next 32
 * rounds' words load while the present ones run); the lanes' marked
 * elements are packed into a queue in shared memory (a prefix sum of
 * their counts gives each lane its place) and run 32 at a time, so that
 * the slow path runs with every lane busy. What does not fit in the queue
 * waits for another pass over the same words; float32 (about 60 marked
 * elements in 32 rounds) often takes one. */
template <int G, typename F>
__device__ void defer_finish(const defer_map &dm, F slow)
{
  constexpr int QCAP = 64;
  __shared__ int64_t q_k[kWarps][QCAP];
  __shared__ __align__(16) uint32_t pre_k[kWarps][2][32 * G];
  const unsigned full = 0xffffffffu;
  int warp = (int)(threadIdx.x / 32), lane = (int)(threadIdx.x % 32);
  int64_t *q = q_k[warp];
  int64_t base0 = (int64_t)blockIdx.x * blockDim.x + warp * 32, stride = (int64_t)gridDim.x * blockDim.x;
  const uint32_t *bits = dm.bits + (size_t)(blockIdx.x * kWarps + warp) * dm.rounds * G;
  const uint32_t rounds = warp_rounds(dm, base0, stride);
  /* lane's words of round r into buffer b, asynchronously (zeros past the
   * warp's last round) */
  auto fetch = [&](uint32_t r, int b) {
    uint32_t *to = &pre_k[warp][b][lane * G];
    if (r < rounds)
      __pipeline_memcpy_async(to, bits + (size_t)r * G, G * sizeof(uint32_t));
    else
      for (int i = 0; i < G; i++)
        to[i] = 0u;
    __pipeline_commit();
  };
  fetch((uint32_t)lane, 0);
  int count = 0, cur = 0; /* the same in every lane */
  for (uint32_t r0 = 0; r0 < rounds; r0 += 32, cur ^= 1) {
    uint32_t r = r0 + (uint32_t)lane, bm[G];
    fetch(r + 32, cur ^ 1);
    __pipeline_wait_prior(1);
    for (int i = 0; i < G; i++)
      bm[i] = pre_k[warp][cur][lane * G + i];
    int64_t row = (base0 + (int64_t)r * stride) * G;
    for (;;) {
      int mine = 0;
      for (int i = 0; i < G; i++)
        mine += __popc(bm[i]);
      int end = mine;
      for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(full, end, d);
        if (lane >= d)
          end += y;
      }
      int total = __shfl_sync(full, end, 31), at = count + end - mine;
      for (int i = 0; i < G; i++) {
        while (bm[i] && at < QCAP) {
          q[at++] = row + (int64_t)(__ffs((int)bm[i]) - 1) * G + i;
          bm[i] &= bm[i] - 1;
        }
      }
      count = count + total < QCAP ? count + total : QCAP;
      __syncwarp();
      while (count >= 32) {
        count -= 32;
        slow(q[count + lane]);
      }
      __syncwarp();
      uint32_t left = 0;
      for (int i = 0; i < G; i++)
        left |= bm[i];
      if (!__any_sync(full, left != 0))
        break;
    }
  }
  __pipeline_wait_prior(0);
  if (lane < count)
    slow(q[lane]);
}

/* The philox block of group g at stream position 0 (cusci__rstream_refill's
 * first block), from the round keys. */
__device__ __forceinline__ void group_block(const cusci__philox_rk &rk, uint64_t lo, uint32_t c[4])
{
  uint32_t ctr[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), 0u, 0u};
  cusci__philox4x32_10_rk(ctr, &rk, c);
}

/* Element k of a group normal by the host's whole path: the group's
 * first block for it, then cusci__rzig_lane (which gives the fast path's
 * value when the draw lands in its rectangle). */
template <int DIST, int F32>
__device__ void normal_slow(double a, double b, const cusci__philox_rk &rk, uint64_t key, uint64_t ctr, int64_t k, void *dst)
{
  constexpr int G = F32 ? 4 : 2;
  using T = typename std::conditional<F32 != 0, float, double>::type;
  int64_t g = k / G;
  int i = (int)(k % G);
  uint32_t c[4];
  group_block(rk, ctr + (uint64_t)g, c);
  uint64_t w = F32 ? (uint64_t)c[i] : (uint64_t)c[2 * i] | ((uint64_t)c[2 * i + 1] << 32);
  double z = cusci__rzig_lane((uint32_t)key, (uint32_t)(key >> 32), ctr + (uint64_t)g, i, w, F32);
  cusci__rparams p;
  p.a = a;
  p.b = b;
  ((T *)dst)[k] = (T)cusci__rnormal_out(DIST, &p, z);
}

/*
 * The fast path's table in shared memory, one entry for each of the 512
 * values of a draw's low 9 bits (layer and sign): the layer's bound k
 * scaled to the whole draw v, since m < k exactly when v < k 2^9 (float32,
 * m = v >> 9) or v < k 2^12 (float64, m = v >> 12), and the layer's width
 * w with the draw's sign, scaled by 2^23 (2^52). The value is then
 * (m 2^-23) (+-w 2^23), with m 2^-23 made from v's bits by one exact
 * subtraction instead of a conversion: the same real product as the
 * host's m w, rounded once, and the same sign (round to nearest is
 * symmetric), so the same bits. No conversion, no sign select, no shift
 * before the comparison: the loop is Philox's multiplications and little
 * else.
 */
__device__ __forceinline__ void zig_table32(uint2 *zt)
{
  for (int t = (int)threadIdx.x; t < 512; t += (int)blockDim.x) {
    float w = cusci__zigd_w32[t & 0xff] * 8388608.0f;
    zt[t] = make_uint2(cusci__zigd_k32[t & 0xff] << 9, __float_as_uint(t & 0x100 ? -w : w));
  }
}

__device__ __forceinline__ void zig_table64(ulonglong2 *zt)
{
  for (int t = (int)threadIdx.x; t < 512; t += (int)blockDim.x) {
    double w = cusci__zigd_w64[t & 0xff] * 4503599627370496.0;
    zt[t] = make_ulonglong2(cusci__zigd_k64[t & 0xff] << 12, (unsigned long long)__double_as_longlong(t & 0x100 ? -w : w));
  }
}

/* The table of the kernel's precision in shared memory, filled by the
 * whole block (every thread calls it, before any other barrier). */
template <int F32>
__device__ __forceinline__ const void *zig_shared()
{
  __shared__ uint2 zt32[F32 ? 512 : 1];
  __shared__ ulonglong2 zt64[F32 ? 1 : 512];
  if constexpr (F32 != 0)
    zig_table32(zt32);
  else
    zig_table64(zt64);
  __syncthreads();
  if constexpr (F32 != 0)
    return zt32;
  else
    return zt64;
}

/* One draw by the fast path: *x, and whether it landed in its layer's
 * rectangle (the value is the host's cusci__rzig32_in's then). */
__device__ __forceinline__ bool zig_fast32(uint32_t v, const uint2 *zt, float *x)
{
  uint2 e = zt[v & 0x1ff];
  *x = (__uint_as_float((v >> 9) + 0x3f800000u) - 1.0f) * __uint_as_float(e.y);
  return v < e.x;
}

__device__ __forceinline__ bool zig_fast64(uint64_t v, const ulonglong2 *zt, double *x)
{
  ulonglong2 e = zt[v & 0x1ff];
  *x = (__longlong_as_double((long long)((v >> 12) + 0x3ff0000000000000ull)) - 1.0) * __longlong_as_double((long long)e.y);
  return v < e.x;
}

/* Group g's G elements by the fast path, and the warp's ballots of those
 * that missed their rectangles stored at bits. WHOLE: every group of the
 * warp is inside the array (no bounds to check). Every lane of the warp
 * calls it, with the same WHOLE. */
template <int DIST, int F32, bool WHOLE>
__device__ __forceinline__ void normal_group(const cusci__rparams &p, const cusci__philox_rk &rk, uint64_t ctr, int64_t g,
                                             int64_t n, const void *zt, void *dst, uint32_t *bits)
{
  constexpr int G = F32 ? 4 : 2;
  using T = typename std::conditional<F32 != 0, float, double>::type;
  int64_t k0 = g * G;
  bool rej[G];
  for (int i = 0; i < G; i++)
    rej[i] = false;
  if (WHOLE || k0 < n) {
    uint32_t c[4];
    group_block(rk, ctr + (uint64_t)g, c);
    T t[G];
#pragma unroll
    for (int i = 0; i < G; i++) {
      T x;
      bool ok;
      if constexpr (F32 != 0)
        ok = zig_fast32(c[i], (const uint2 *)zt, &x);
      else
        ok = zig_fast64((uint64_t)c[2 * i] | ((uint64_t)c[2 * i + 1] << 32), (const ulonglong2 *)zt, &x);
      rej[i] = !ok && (WHOLE || k0 + i < n);
      t[i] = DIST == CUSCI__RD_STANDARD_NORMAL ? x : (T)cusci__rnormal_out(DIST, &p, (double)x);
    }
    T *d = (T *)dst;
    if (WHOLE || k0 + G <= n) {
      store_group<T, G>(d + k0, t);
    } else {
      for (int i = 0; i < G; i++)
        if (k0 + i < n)
          d[k0 + i] = t[i];
    }
  }
  defer_mark<G>(bits, rej);
}

template <int DIST, int F32>
__global__ void __launch_bounds__(kThreads) normal_kernel(const cusci__rparams p, const cusci__philox_rk rk, uint64_t ctr, int64_t n,
                                                          void *dst, const defer_map dm)
{
  constexpr int G = F32 ? 4 : 2;
  const void *zt = zig_shared<F32>();
  int lane = (int)(threadIdx.x % 32);
  int64_t groups = (n + G - 1) / G, whole = n / G, stride = (int64_t)gridDim.x * blockDim.x;
  uint32_t *bits = dm.bits + (size_t)(blockIdx.x * kWarps + threadIdx.x / 32) * dm.rounds * G;
  for (int64_t base = (int64_t)blockIdx.x * blockDim.x + (threadIdx.x / 32) * 32; base < groups; base += stride, bits += G) {
    if (base + 32 <= whole)
      normal_group<DIST, F32, true>(p, rk, ctr, base + lane, n, zt, dst, bits);
    else
      normal_group<DIST, F32, false>(p, rk, ctr, base + lane, n, zt, dst, bits);
  }
}

template <int DIST, int F32>
__global__ void __launch_bounds__(kThreads) normal_deferred(double a, double b, const cusci__philox_rk rk, uint64_t key, uint64_t ctr,
                                                            void *dst, const defer_map dm)
{
  defer_finish<F32 ? 4 : 2>(dm, [&](int64_t k) { normal_slow<DIST, F32>(a, b, rk, key, ctr, k, dst); });
}

template <int DIST, int F32>
void launch_normal(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst, void *scratch)
{
  constexpr int G = F32 ? 4 : 2;
  unsigned blocks;
  defer_map dm{(uint32_t *)scratch, 0, (n + G - 1) / G};
  size_t bytes;
  defer_plan(dm.groups, G, &blocks, &dm.rounds, &bytes);
  cusci__philox_rk rk = cusci__philox_round_keys(key);
  normal_kernel<DIST, F32><<<blocks, kThreads, 0, s>>>(*p, rk, ctr, n, dst, dm);
  normal_deferred<DIST, F32><<<blocks, kThreads, 0, s>>>(p->a, p->b, rk, key, ctr, dst, dm);
}

/*
 * gamma and standard_gamma with shape >= 1. A lane makes a group (two
 * float32 elements or one float64) by Marsaglia and Tsang's common path:
 * the normal by the ziggurat's fast path with the normals' table in
 * shared memory, then the second squeeze. An element that leaves it (the
 * normal outside its rectangle, or the squeeze failing: about one in
 * twenty-five for shape 2) is queued in shared memory per warp and runs
 * the whole sampler later, with 31 others. The common path takes Philox's
 * round keys and d and c from the launch; cusci__rgammaf_fast and
 * cusci__rgamma_fast take exactly the sampler's steps, so the values are
 * the host's. The sampler is inlined: within the 80 registers that three
 * blocks per multiprocessor allow, a call would make the loop keep its
 * state in local memory across it.
 */
/* A queued element: its index, and for float32 its two words of the
 * group's block (so that the sampler need not make the block again). */
struct __align__(16) gamma_entry {
  int64_t k;
  uint32_t w[2];
};

template <int DIST, int F32>
__device__ __forceinline__ void gamma_full(double a, double b, uint64_t key, uint64_t ctr, gamma_entry e, void *dst)
{
  using T = typename std::conditional<F32 != 0, float, double>::type;
  cusci__rsampler r;
  double x;
  if constexpr (F32 != 0) {
    cusci__rgammaf_stream(&r, key, ctr + (uint64_t)(e.k / 2), (int)(e.k % 2), e.w[0], e.w[1]);
    x = cusci__rgammaf(&r, a);
  } else {
    cusci__rstream_init(&r.s, key, ctr + (uint64_t)e.k);
    x = cusci__rgamma(&r, a);
  }
  ((T *)dst)[e.k] = (T)(DIST == CUSCI__RD_GAMMA ? b * x : x);
}

/* The common path's constants: d and c of the kernel's precision, and
 * the scale (1 for standard_gamma). */
struct gamma_consts {
  double d, c, scale;
  float df, cf;
};

/* Group g's G elements by the common path, stored where they hold;
 * e[i] is element i's queue entry and ok[i] whether it holds (or lies
 * past the end). WHOLE: every group of the warp is inside the array. */
template <int F32, bool WHOLE>
__device__ __forceinline__ void gamma_group(const gamma_consts &k, const cusci__philox_rk &rk, uint64_t ctr, int64_t g, int64_t n,
                                            const void *zt, void *dst, bool (&ok)[F32 ? 2 : 1], gamma_entry (&e)[F32 ? 2 : 1])
{
  constexpr int G = F32 ? 2 : 1;
  using T = typename std::conditional<F32 != 0, float, double>::type;
  uint32_t c[4];
  group_block(rk, ctr + (uint64_t)g, c);
  T t[G];
  bool all = true;
#pragma unroll
  for (int i = 0; i < G; i++) {
    e[i].k = g * G + i;
    e[i].w[0] = c[2 * i];
    e[i].w[1] = c[2 * i + 1];
    if constexpr (F32 != 0) {
      float x, v;
      bool in = zig_fast32(c[2 * i], (const uint2 *)zt, &x);
      ok[i] = cusci__rgammaf_fast(x, cusci__u32_to_float(c[2 * i + 1]), k.df, k.cf, &v) & in;
      t[i] = k.scale == 1.0 ? v : (float)(k.scale * (double)v);
    } else {
      double x, v;
      bool in = zig_fast64((uint64_t)c[0] | ((uint64_t)c[1] << 32), (const ulonglong2 *)zt, &x);
      ok[i] = cusci__rgamma_fast(x, cusci__u64_to_double((uint64_t)c[2] | ((uint64_t)c[3] << 32)), k.d, k.c, &v) & in;
      t[i] = k.scale * v;
    }
    ok[i] = ok[i] || (!WHOLE && g * G + i >= n); /* nothing to do past the end */
    all = all && ok[i];
  }
  T *out = (T *)dst + g * G;
  if (all && (WHOLE || g * G + G <= n)) {
    store_group<T, G>(out, t);
  } else {
    for (int i = 0; i < G; i++)
      if (ok[i] && (WHOLE || g * G + i < n))
        out[i] = t[i];
  }
}

template <int DIST, int F32>
__global__ void __launch_bounds__(kThreads, 3) gamma_kernel(const cusci__rparams p, const cusci__philox_rk rk, const gamma_consts k,
                                                         uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  /* 31 waiting, a round's G ballots, and a slot per lane that the lanes
   * with nothing to queue write instead (no branch) */
  constexpr int G = F32 ? 2 : 1, QCAP = 32 + 32 * G;
  __shared__ gamma_entry q_k[kWarps][QCAP + 32];
  const void *zt = zig_shared<F32>();
  const unsigned full = 0xffffffffu;
  int warp = (int)(threadIdx.x / 32), lane = (int)(threadIdx.x % 32);
  unsigned below; /* the lanes below this one */
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  gamma_entry *q = q_k[warp];
  int count = 0; /* the same in every lane of the warp */
  /* bounds from n itself, not kept across the calls of the slow path */
  for (int64_t base = (int64_t)blockIdx.x * blockDim.x + warp * 32; base * G < n; base += (int64_t)gridDim.x * blockDim.x) {
    int64_t g = base + lane;
    bool ok[G];
    gamma_entry e[G];
    if ((base + 32) * G <= n) {
      gamma_group<F32, true>(k, rk, ctr, g, n, zt, dst, ok, e);
    } else if (g * G < n) {
      gamma_group<F32, false>(k, rk, ctr, g, n, zt, dst, ok, e);
    } else {
      for (int i = 0; i < G; i++)
        ok[i] = true;
    }
#pragma unroll
    for (int i = 0; i < G; i++) {
      unsigned m = __ballot_sync(full, !ok[i]);
      q[ok[i] ? QCAP + lane : count + __popc(m & below)] = e[i];
      count += __popc(m);
    }
    __syncwarp();
    while (count >= 32) {
      count -= 32;
      gamma_full<DIST, F32>(p.a, p.b, key, ctr, q[count + lane], dst);
    }
    __syncwarp();
  }
  if (lane < count)
    gamma_full<DIST, F32>(p.a, p.b, key, ctr, q[lane], dst);
}

template <int DIST, int F32>
void launch_gamma(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  constexpr int G = F32 ? 2 : 1;
  gamma_consts k;
  cusci__rgamma_dc(F32, p->a, &k.d, &k.c);
  k.df = (float)k.d;
  k.cf = (float)k.c;
  k.scale = DIST == CUSCI__RD_GAMMA ? p->b : 1.0;
  cusci__philox_rk rk = cusci__philox_round_keys(key);
  gamma_kernel<DIST, F32><<<resident_blocks(gamma_kernel<DIST, F32>, (n + G - 1) / G), kThreads, 0, s>>>(*p, rk, k, key, ctr, n, dst);
}

template <int DIST, typename T, int G, bool IS_BOOL>
__global__ void int_kernel(const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t n, T *dst)
{
  int64_t groups = (n + G - 1) / G;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    int64_t v[G];
    cusci__rgroup_int(DIST, &p, key, ctr + (uint64_t)g, G, v);
    T t[G];
    for (int i = 0; i < G; i++)
      t[i] = IS_BOOL ? (T)(v[i] != 0) : (T)(uint64_t)v[i];
    int64_t k0 = g * G;
    if (k0 + G <= n) {
      store_group<T, G>(dst + k0, t);
    } else {
      for (int i = 0; i < G; i++)
        if (k0 + i < n)
          dst[k0 + i] = t[i];
    }
  }
}

/*
 * The rejection samplers whose tries need nothing but the stream and the
 * call's constants: binomial by BTPE and poisson by PTRS. Each thread
 * walks its own elements k, k + stride, ... one try at a time, starting
 * the next element as soon as a try is accepted. A warp that ran each
 * element to the end before the next would wait at every element for its
 * slowest lane (for binomial(100, 0.4), about four tries where the mean
 * is one and a half); a lane's total over its elements varies far less
 * than one element's count, so the lanes stay busy. The tries are the
 * host's, so the values are the same.
 */
template <int DIST>
__device__ __forceinline__ int walk_try(cusci__rsampler *r, const cusci__rparams &p, int64_t *out)
{
  if constexpr (DIST == CUSCI__RD_BINOMIAL) {
    int64_t x;
    if (!cusci__rbinom_btpe_try(r, &p.binom, p.binom_tab, &x))
      return 0;
    *out = p.binom.flip ? p.binom.n - x : x;
    return 1;
  } else {
    return cusci__rptrs_try(r, &p.ptrs, out);
  }
}

template <int DIST>
__global__ void __launch_bounds__(kThreads) walk_kernel(const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t n, int64_t *dst)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x, k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n)
    return;
  cusci__rsampler r;
  cusci__rstream_init(&r.s, key, ctr + (uint64_t)k);
  for (;;) {
    if (walk_try<DIST>(&r, p, &dst[k])) {
      k += stride;
      if (k >= n)
        return;
      cusci__rstream_init(&r.s, key, ctr + (uint64_t)k);
    }
  }
}

template <int DIST>
void launch_walk(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  walk_kernel<DIST><<<resident_blocks(walk_kernel<DIST>, n), kThreads, 0, s>>>(*p, key, ctr, n, (int64_t *)dst);
}

template <int DIST, int F32>
__global__ void real_arr_kernel(const double *pa, const double *pb, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  constexpr int G = real_group<DIST, F32>();
  using T = typename std::conditional<F32 != 0, float, double>::type;
  int64_t groups = (n + G - 1) / G;
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
    double v[4];
    cusci__rgroup_real_arr(DIST, pa, pb, key, ctr + (uint64_t)g, F32, g * G, n, v);
    T *d = (T *)dst;
    for (int i = 0; i < G; i++)
      if (g * G + i < n)
        d[g * G + i] = (T)v[i];
  }
}

template <int DIST>
__global__ void int_arr_kernel(const double *pa, const int64_t *pn, uint64_t key, uint64_t ctr, int64_t n, int64_t *dst)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
    dst[k] = cusci__rint_arr(DIST, pa, pn, key, ctr + (uint64_t)k, k);
}

template <int KIND>
__global__ void rows_kernel(const double *v, int64_t k, const cusci__rparams p, uint64_t key, uint64_t ctr, int64_t rows,
                            void *dst)
{
  int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < rows; g += stride)
    cusci__rrow(KIND, v, k, &p, key, ctr + (uint64_t)g, (double *)dst + g * k, (int64_t *)dst + g * k);
}

/* The normals take the deferring pair of kernels, with a scratch bitmap. */
bool defers(int dist)
{
  return dist == CUSCI__RD_STANDARD_NORMAL || dist == CUSCI__RD_NORMAL || dist == CUSCI__RD_LOGNORMAL;
}

template <int DIST>
void launch_real(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst,
                 void *scratch)
{
  if constexpr (DIST == CUSCI__RD_STANDARD_NORMAL || DIST == CUSCI__RD_NORMAL || DIST == CUSCI__RD_LOGNORMAL) {
    if (f32)
      launch_normal<DIST, 1>(s, p, key, ctr, n, dst, scratch);
    else
      launch_normal<DIST, 0>(s, p, key, ctr, n, dst, scratch);
    return;
  }
  if constexpr (DIST == CUSCI__RD_STANDARD_GAMMA || DIST == CUSCI__RD_GAMMA) {
    if (p->a >= 1.0) {
      if (f32)
        launch_gamma<DIST, 1>(s, p, key, ctr, n, dst);
      else
        launch_gamma<DIST, 0>(s, p, key, ctr, n, dst);
      return;
    }
  }
  if (f32) {
    constexpr int G = real_group<DIST, 1>();
    real_kernel<DIST, 1><<<fill_blocks((n + G - 1) / G), kThreads, 0, s>>>(*p, key, ctr, n, dst);
  } else {
    constexpr int G = real_group<DIST, 0>();
    real_kernel<DIST, 0><<<fill_blocks((n + G - 1) / G), kThreads, 0, s>>>(*p, key, ctr, n, dst);
  }
}

template <int DIST, typename T, int G, bool IS_BOOL = false>
void launch_int_g(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  int_kernel<DIST, T, G, IS_BOOL><<<fill_blocks((n + G - 1) / G), kThreads, 0, s>>>(*p, key, ctr, n, (T *)dst);
}

/* integers: G is 4 below 2^32 apart, else 2. */
template <typename T, bool IS_BOOL = false>
void launch_integers(cudaStream_t s, const cusci__rparams *p, uint64_t key, uint64_t ctr, int64_t n, void *dst)
{
  if (cusci__rgroup_size(CUSCI__RD_INTEGERS, 0, p) == 4)
    launch_int_g<CUSCI__RD_INTEGERS, T, 4, IS_BOOL>(s, p, key, ctr, n, dst);
  else
    launch_int_g<CUSCI__RD_INTEGERS, T, 2, IS_BOOL>(s, p, key, ctr, n, dst);
}

} // namespace

#define REAL_CASE_(NAME, K) REAL_CASE_##K(NAME)
#define REAL_CASE_R(NAME) \
  case CUSCI__RD_##NAME: launch_real<CUSCI__RD_##NAME>(s, p, key, ctr, f32, n, dst, scratch); break;
#define REAL_CASE_I(NAME)

extern "C" int cusci__rreal_scratch(int dist, const cusci__rparams *p, int f32, int64_t n, size_t *bytes)
{
  (void)p;
  *bytes = 0;
  if (n == 0 || !defers(dist))
    return 0;
  int G = f32 ? 4 : 2;
  unsigned blocks;
  uint32_t rounds;
  defer_plan((n + G - 1) / G, G, &blocks, &rounds, bytes);
  return 0;
}

extern "C" int cusci__launch_rreal(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32,
                                   int64_t n, void *dst, void *scratch)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  switch (dist) {
    CUSCI__RDISTS(REAL_CASE_)
  default:
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

#define INT_CASE_(NAME, K) INT_CASE_##K(NAME)
#define INT_CASE_R(NAME)
#define INT_CASE_I(NAME) \
  case CUSCI__RD_##NAME: launch_int_g<CUSCI__RD_##NAME, int64_t, 1>(s, p, key, ctr, n, dst); break;

extern "C" int cusci__launch_rint(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype,
                                  int64_t n, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  if (dist == CUSCI__RD_INTEGERS) {
    switch (dtype) {
    case CUSCI_BOOL: launch_integers<uint8_t, true>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT8: case CUSCI_UINT8: launch_integers<uint8_t>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT16: case CUSCI_UINT16: launch_integers<uint16_t>(s, p, key, ctr, n, dst); break;
    case CUSCI_INT32: case CUSCI_UINT32: launch_integers<uint32_t>(s, p, key, ctr, n, dst); break;
    default: launch_integers<uint64_t>(s, p, key, ctr, n, dst); break;
    }
    return (int)cudaGetLastError();
  }
  if (dist == CUSCI__RD_BINOMIAL && p->binom.kind == 2) {
    launch_walk<CUSCI__RD_BINOMIAL>(s, p, key, ctr, n, dst);
    return (int)cudaGetLastError();
  }
  if (dist == CUSCI__RD_POISSON) {
    if (cusci__rgroup_size(dist, 0, p) == 2)
      launch_int_g<CUSCI__RD_POISSON, int64_t, 2>(s, p, key, ctr, n, dst);
    else
      launch_walk<CUSCI__RD_POISSON>(s, p, key, ctr, n, dst);
    return (int)cudaGetLastError();
  }
  switch (dist) {
    CUSCI__RDISTS(INT_CASE_)
  default:
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rrows(void *stream, int kind, const double *v, int64_t k, const cusci__rparams *p,
                                   uint64_t key, uint64_t ctr, int64_t rows, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (rows == 0 || k == 0)
    return 0;
  switch (kind) {
  case CUSCI__RROW_MULTINOMIAL: rows_kernel<CUSCI__RROW_MULTINOMIAL><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  case CUSCI__RROW_DIRICHLET: rows_kernel<CUSCI__RROW_DIRICHLET><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  case CUSCI__RROW_MVN: rows_kernel<CUSCI__RROW_MVN><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  default: rows_kernel<CUSCI__RROW_MVHYPER><<<blocks_for(rows), kThreads, 0, s>>>(v, k, *p, key, ctr, rows, dst); break;
  }
  return (int)cudaGetLastError();
}

template <int DIST>
void launch_real_arr(cudaStream_t s, const double *pa, const double *pb, uint64_t key, uint64_t ctr, int f32, int64_t n,
                     void *dst)
{
  if (f32) {
    constexpr int G = real_group<DIST, 1>();
    real_arr_kernel<DIST, 1><<<blocks_for((n + G - 1) / G), kThreads, 0, s>>>(pa, pb, key, ctr, n, dst);
  } else {
    constexpr int G = real_group<DIST, 0>();
    real_arr_kernel<DIST, 0><<<blocks_for((n + G - 1) / G), kThreads, 0, s>>>(pa, pb, key, ctr, n, dst);
  }
}

extern "C" int cusci__launch_rreal_arr(void *stream, int dist, const double *pa, const double *pb, uint64_t key,
                                       uint64_t ctr, int f32, int64_t n, void *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  switch (dist) {
  case CUSCI__RD_UNIFORM: launch_real_arr<CUSCI__RD_UNIFORM>(s, pa, pb, key, ctr, f32, n, dst); break;
  case CUSCI__RD_NORMAL: launch_real_arr<CUSCI__RD_NORMAL>(s, pa, pb, key, ctr, f32, n, dst); break;
  case CUSCI__RD_LOGNORMAL: launch_real_arr<CUSCI__RD_LOGNORMAL>(s, pa, pb, key, ctr, f32, n, dst); break;
  case CUSCI__RD_EXPONENTIAL: launch_real_arr<CUSCI__RD_EXPONENTIAL>(s, pa, pb, key, ctr, f32, n, dst); break;
  case CUSCI__RD_GAMMA: launch_real_arr<CUSCI__RD_GAMMA>(s, pa, pb, key, ctr, f32, n, dst); break;
  case CUSCI__RD_BETA: launch_real_arr<CUSCI__RD_BETA>(s, pa, pb, key, ctr, f32, n, dst); break;
  default: return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

extern "C" int cusci__launch_rint_arr(void *stream, int dist, const double *pa, const int64_t *pn, uint64_t key,
                                      uint64_t ctr, int64_t n, int64_t *dst)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (n == 0)
    return 0;
  if (dist == CUSCI__RD_POISSON)
    int_arr_kernel<CUSCI__RD_POISSON><<<blocks_for(n), kThreads, 0, s>>>(pa, pn, key, ctr, n, dst);
  else if (dist == CUSCI__RD_BINOMIAL)
    int_arr_kernel<CUSCI__RD_BINOMIAL><<<blocks_for(n), kThreads, 0, s>>>(pa, pn, key, ctr, n, dst);
  else
    return (int)cudaErrorInvalidValue;
  return (int)cudaGetLastError();
}
