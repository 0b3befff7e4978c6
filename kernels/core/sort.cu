/*
 * kernels/core/sort.cu: sorting and statistics on the GPU.
 *
 * Sorting uses CUB: DeviceRadixSort for one row, DeviceSegmentedSort for
 * a batch of rows (one call for all of them), on unsigned keys whose
 * integer order is NumPy's (reference/core/sort_ops.h), so that CUB is
 * instantiated for four key widths, not twelve dtypes. Integers and bools
 * map one to one onto their keys. For positions (argsort, unique) floats
 * carry their positions along with the key in a stable sort, so that
 * -0.0, +0.0 and NaN keep their input order; for values alone (sort,
 * quantiles) they sort on the one-to-one value keys alone, which fix the
 * order of signed zeros and NaNs and halve the data moved (one float32 or
 * float64 row on CUB's own float keys, set in that order after the sort:
 * sort_values_native). Complex numbers
 * take CUB's stable merge sort with NumPy's comparison, rows told apart by
 * the position's row number. Positions agree with the host's stable merge
 * sort exactly, and values with the host's sort in either order.
 *
 * np.unique numbers the runs of equal neighbours with a prefix sum
 * (DeviceScan); histograms count in shared memory per block (NumPy's edges,
 * searched as the host does; CUB's DeviceHistogram computes bins from its
 * own arithmetic and would not match NumPy's edges bit for bit).
 */
#include <cub/cub.cuh>

#include <cusci/core.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include "reference/core/sort_ops.h"

namespace {

using namespace cusci;

inline size_t align_up(size_t n)
{
  return (n + 255) & ~(size_t)255;
}

/* Carve consecutive aligned pieces out of one scratch block. */
struct carve {
  char *base;
  size_t used;
  template <class X>
  X *take(size_t count)
  {
    X *p = base ? (X *)(base + used) : nullptr;
    used += align_up(count * sizeof(X));
    return p;
  }
};

#define KEYOP_(D, T, KT, KEY, K)                                      \
  struct keyop_##D {                                                  \
    __device__ __forceinline__ KT operator()(T x) const { return KEY(x); } \
  };
CUSCI__SORT_REAL_TYPES(KEYOP_)

template <class T, class K, class KeyOp>
__global__ void make_keys(const T *in, K *keys, uint32_t *pos, int64_t n, int64_t r)
{
  KeyOp key;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    if (keys)
      keys[i] = key(in[i]);
    if (pos)
      pos[i] = (uint32_t)(i % r);
  }
}

__global__ void row_offsets(int64_t *off, int64_t m, int64_t r)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i <= m; i += (int64_t)gridDim.x * blockDim.x)
    off[i] = i * r;
}

/* vals and idx from the sorted positions within each row. */
template <class T>
__global__ void from_positions(const T *in, const uint32_t *pos, T *vals, int64_t *idx, int64_t n, int64_t r)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t p = pos[i];
    if (idx)
      idx[i] = p;
    if (vals)
      vals[i] = in[i - i % r + p];
  }
}

/*
 * One sort of keys, with a payload (pairs) or without, of one or many
 * rows. `pairs` is explicit: in the size query the pointers are all NULL.
 */
template <class K, class P>
cudaError_t cub_sort(bool pairs, void *temp, size_t &bytes, const K *kin, K *kout, const P *pin, P *pout, int64_t n,
                     int64_t m, const int64_t *off, cudaStream_t s)
{
  if (m == 1) {
    if (pairs)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, pin, pout, n, 0, (int)sizeof(K) * 8, s);
    return cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, 0, (int)sizeof(K) * 8, s);
  }
  if (pairs)
    return cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, kin, kout, pin, pout, n, m, off, off + 1, s);
  return cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, kin, kout, n, m, off, off + 1, s);
}

/* Signed integers back from their keys (the sign bit flipped). */
template <class T, class K>
__global__ void unkey_signed(const K *keys, T *vals, int64_t n)
{
  const K sign = (K)((K)1 << (sizeof(K) * 8 - 1));
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    vals[i] = (T)(K)(keys[i] ^ sign);
}

/*
 * A real dtype, sorted on unsigned keys K (so CUB is instantiated for four
 * key widths only). MODE 0: unsigned integers and bool, their own keys;
 * 1: signed integers, the sign bit flipped (undone after a sort of values);
 * 2: floats, the key of sort_ops.h, the float's bits carried along.
 */
template <class T, class K, class KeyOp, int MODE>
int sort_real(cudaStream_t s, int64_t m, int64_t r, const void *in_, void *vals_, int64_t *idx, void *temp,
              size_t *temp_bytes)
{
  int64_t n = m * r;
  const T *in = (const T *)in_;
  T *vals = (T *)vals_;
  carve c{(char *)temp, 0};
  bool want_pos = idx != nullptr;
  K *kin = MODE == 0 ? nullptr : c.take<K>(n);
  K *kout = c.take<K>(n);
  uint32_t *pin = want_pos ? c.take<uint32_t>(n) : nullptr, *pout = want_pos ? c.take<uint32_t>(n) : nullptr;
  int64_t *off = m > 1 ? c.take<int64_t>(m + 1) : nullptr;
  size_t cub_bytes = 0;
  const K *keys_in = MODE == 0 ? (const K *)in : kin;
  cudaError_t e;
  if (want_pos)
    e = cub_sort<K, uint32_t>(true, nullptr, cub_bytes, keys_in, kout, pin, pout, n, m, off, s);
  else if (MODE == 2)
    e = cub_sort<K, K>(true, nullptr, cub_bytes, keys_in, kout, (const K *)in, (K *)vals, n, m, off, s);
  else
    e = cub_sort<K, K>(false, nullptr, cub_bytes, keys_in, MODE == 0 ? (K *)vals : kout, (const K *)nullptr, (K *)nullptr, n,
                       m, off, s);
  if (e != cudaSuccess)
    return (int)e;
  void *ct = c.take<char>(cub_bytes);
  if (!temp) {
    *temp_bytes = c.used;
    return 0;
  }
  unsigned g = blocks_for(n);
  if (MODE != 0 || want_pos) {
    make_keys<T, K, KeyOp><<<g, kThreads, 0, s>>>(in, kin, pin, n, r);
    if ((e = cudaGetLastError()) != cudaSuccess)
      return (int)e;
  }
  if (off) {
    row_offsets<<<blocks_for(m + 1), kThreads, 0, s>>>(off, m, r);
    if ((e = cudaGetLastError()) != cudaSuccess)
      return (int)e;
  }
  if (want_pos)
    e = cub_sort<K, uint32_t>(true, ct, cub_bytes, keys_in, kout, pin, pout, n, m, off, s);
  else if (MODE == 2)
    e = cub_sort<K, K>(true, ct, cub_bytes, keys_in, kout, (const K *)in, (K *)vals, n, m, off, s);
  else
    e = cub_sort<K, K>(false, ct, cub_bytes, keys_in, MODE == 0 ? (K *)vals : kout, (const K *)nullptr, (K *)nullptr, n, m,
                       off, s);
  if (e != cudaSuccess)
    return (int)e;
  if (want_pos)
    from_positions<T><<<g, kThreads, 0, s>>>(in, pout, vals, idx, n, r);
  else if (MODE == 1)
    unkey_signed<T, K><<<g, kThreads, 0, s>>>(kout, vals, n);
  return launched();
}

/*
 * cusci_sort's value order for a float dtype: the one-to-one value keys of
 * sort_ops.h, sorted alone (no payload: half the data of a sort of pairs)
 * and mapped back to the elements. Equal keys are identical elements, so
 * CUB's unstable sorts give the host's result exactly.
 */
struct vkey_FLOAT16 {
  using T = cusci_f16;
  using K = uint16_t;
  __device__ __forceinline__ K key(T x) const { return cusci__vkey_f16(x); }
  __device__ __forceinline__ T val(K k) const { return cusci__vval_f16(k); }
};
struct vkey_FLOAT32 {
  using T = float;
  using K = uint32_t;
  __device__ __forceinline__ K key(T x) const { return cusci__vkey_f32(x); }
  __device__ __forceinline__ T val(K k) const { return cusci__vval_f32(k); }
};
struct vkey_FLOAT64 {
  using T = double;
  using K = uint64_t;
  __device__ __forceinline__ K key(T x) const { return cusci__vkey_f64(x); }
  __device__ __forceinline__ T val(K k) const { return cusci__vval_f64(k); }
};

template <class V>
__global__ void to_vkeys(const typename V::T *in, typename V::K *keys, int64_t n)
{
  V v;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    keys[i] = v.key(in[i]);
}

/* In place when keys and vals are one buffer: each thread reads and writes its own element. */
template <class V>
__global__ void from_vkeys(const typename V::K *keys, typename V::T *vals, int64_t n)
{
  V v;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    vals[i] = v.val(keys[i]);
}

/*
 * Keys alone, of one row (DeviceRadixSort) or many (DeviceSegmentedSort),
 * in a double buffer: CUB may leave the result in either buffer and says
 * which through db; the size query is the same call with temp NULL.
 */
template <class K>
cudaError_t cub_sort_keys(void *temp, size_t &bytes, cub::DoubleBuffer<K> &db, int64_t n, int64_t m,
                          const int64_t *off, cudaStream_t s)
{
  /* One row holds at most 2^32 - 1 elements: 32-bit counts select CUB's 32-bit offsets. */
  if (m == 1)
    return cub::DeviceRadixSort::SortKeys(temp, bytes, db, (uint32_t)n, 0, (int)sizeof(K) * 8, s);
  return cub::DeviceSegmentedSort::SortKeys(temp, bytes, db, n, m, off, off + 1, s);
}

template <class V>
int sort_values_float(cudaStream_t s, int64_t m, int64_t r, const void *in, void *vals, void *temp,
                      size_t *temp_bytes)
{
  using T = typename V::T;
  using K = typename V::K;
  int64_t n = m * r;
  carve c{(char *)temp, 0};
  K *alt = c.take<K>(n);
  int64_t *off = m > 1 ? c.take<int64_t>(m + 1) : nullptr;
  /* The keys are made in vals (same width), the first of the two buffers. */
  K *cur = (K *)vals;
  size_t cub_bytes = 0;
  cub::DoubleBuffer<K> query(cur, alt);
  cudaError_t e = cub_sort_keys<K>(nullptr, cub_bytes, query, n, m, off, s);
  if (e != cudaSuccess)
    return (int)e;
  void *ct = c.take<char>(cub_bytes);
  if (!temp) {
    *temp_bytes = c.used;
    return 0;
  }
  unsigned g = blocks_for(n);
  to_vkeys<V><<<g, kThreads, 0, s>>>((const T *)in, cur, n);
  if ((e = cudaGetLastError()) != cudaSuccess)
    return (int)e;
  if (off) {
    row_offsets<<<blocks_for(m + 1), kThreads, 0, s>>>(off, m, r);
    if ((e = cudaGetLastError()) != cudaSuccess)
      return (int)e;
  }
  cub::DoubleBuffer<K> db(cur, alt);
  if ((e = cub_sort_keys<K>(ct, cub_bytes, db, n, m, off, s)) != cudaSuccess)
    return (int)e;
  from_vkeys<V><<<g, kThreads, 0, s>>>(db.Current(), (T *)vals, n);
  return launched();
}

/*
 * One row of float32 or float64: CUB's own float keys, which save
 * sort_values_float's two passes (the keys in, the values out). CUB's order
 * is cusci_sort's but in two places, both set right after the sort: it
 * counts -0.0 and +0.0 equal (a radix sort being stable, they stay in input
 * order), and it puts the NaNs with the sign bit set first, by decreasing
 * payload, where cusci_sort has them last in that order. A search by three
 * warps finds the ranges; kernels of a few blocks, which return at
 * once where a range is empty, rewrite the zeros as their count of -0.0
 * then +0.0 and rotate the leading NaNs to the end through CUB's temporary
 * storage, free again by then.
 */
template <class T>
__device__ __forceinline__ bool neg_nan(T x)
{
  return x != x && signbit(x);
}

/* The first index of v[0..n) where pred is false, pred true on a prefix:
 * one warp probing 32 places a round. */
template <class T, class Pred>
__device__ int64_t warp_partition_point(const T *v, int64_t n, Pred pred)
{
  const int lane = threadIdx.x & 31;
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t span = hi - lo, step = (span + 31) / 32;
    int64_t at = lo + lane * step;
    bool t = at < hi && pred(v[at]);
    int cnt = __popc(__ballot_sync(0xffffffffu, t));
    if (step == 1)
      return lo + cnt;
    if (cnt == 0)
      return lo;
    int64_t nlo = lo + (int64_t)(cnt - 1) * step + 1, nhi = lo + (int64_t)cnt * step;
    lo = nlo;
    hi = nhi < hi ? nhi : hi;
  }
  return lo;
}

/* fix[0] = the leading NaNs, [fix[1], fix[2]) the zeros; fix[3] = 0, the
 * count of -0.0 to come. */
template <class T>
__global__ void float_fix_find(const T *v, int64_t n, int64_t *fix)
{
  const int w = threadIdx.x >> 5;
  int64_t p;
  if (w == 0)
    p = warp_partition_point(v, n, [](T x) { return neg_nan(x); });
  else if (w == 1)
    p = warp_partition_point(v, n, [](T x) { return neg_nan(x) || x < 0; });
  else
    p = warp_partition_point(v, n, [](T x) { return neg_nan(x) || x <= 0; });
  if ((threadIdx.x & 31) == 0)
    fix[w] = p;
  if (threadIdx.x == 0)
    fix[3] = 0;
}

template <class T>
__global__ void float_fix_count_zeros(const T *v, int64_t *fix)
{
  const int64_t z0 = fix[1], z1 = fix[2];
  if (z1 - z0 < 2)
    return;
  unsigned long long c = 0;
  for (int64_t i = z0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < z1; i += (int64_t)gridDim.x * blockDim.x)
    c += signbit(v[i]) ? 1 : 0;
  if (c)
    atomicAdd((unsigned long long *)&fix[3], c);
}

template <class T>
__global__ void float_fix_write_zeros(T *v, const int64_t *fix)
{
  const int64_t z0 = fix[1], z1 = fix[2], neg = fix[3];
  if (z1 - z0 < 2)
    return;
  for (int64_t i = z0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < z1; i += (int64_t)gridDim.x * blockDim.x)
    v[i] = i - z0 < neg ? -(T)0 : (T)0;
}

/* to[i] = from[(i + k) mod n]. */
template <class T>
__global__ void float_fix_rotate(const T *from, T *to, int64_t n, const int64_t *fix, bool rotate)
{
  const int64_t k = fix[0];
  if (k == 0 || k == n)
    return;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t j = rotate ? (i + k < n ? i + k : i + k - n) : i;
    to[i] = from[j];
  }
}

template <class T>
int sort_values_native(cudaStream_t s, int64_t n, const void *in, void *vals, void *temp, size_t *temp_bytes)
{
  carve c{(char *)temp, 0};
  int64_t *fix = c.take<int64_t>(4);
  size_t cub_bytes = 0;
  cudaError_t e = cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, (const T *)in, (T *)vals, (uint32_t)n, 0, (int)sizeof(T) * 8, s);
  if (e != cudaSuccess)
    return (int)e;
  /* The rotation's buffer: CUB's storage, which holds a copy of the keys
   * in this form of the call (else a buffer of its own). */
  void *ct = c.take<char>(cub_bytes);
  T *buf = cub_bytes >= (size_t)n * sizeof(T) ? (T *)ct : c.take<T>(n);
  if (!temp) {
    *temp_bytes = c.used;
    return 0;
  }
  if ((e = cub::DeviceRadixSort::SortKeys(ct, cub_bytes, (const T *)in, (T *)vals, (uint32_t)n, 0, (int)sizeof(T) * 8, s)) != cudaSuccess)
    return (int)e;
  T *v = (T *)vals;
  float_fix_find<T><<<1, 96, 0, s>>>(v, n, fix);
  const unsigned fg = 512; /* a few blocks an SM */
  float_fix_count_zeros<T><<<fg, kThreads, 0, s>>>(v, fix);
  float_fix_write_zeros<T><<<fg, kThreads, 0, s>>>(v, fix);
  float_fix_rotate<T><<<fg, kThreads, 0, s>>>(v, buf, n, fix, true);
  float_fix_rotate<T><<<fg, kThreads, 0, s>>>(buf, v, n, fix, false);
  return launched();
}

/* NumPy's complex order between global positions, rows first. */
template <class C>
struct complex_order {
  const C *d;
  int64_t r;
  __device__ bool operator()(const int64_t &a, const int64_t &b) const
  {
    int64_t ra = a / r, rb = b / r;
    if (ra != rb)
      return ra < rb;
    return cusci__complex_less(d[a].re, d[a].im, d[b].re, d[b].im);
  }
};

__global__ void iota(int64_t *p, int64_t n)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    p[i] = i;
}

template <class C>
__global__ void from_global(const C *in, const int64_t *g, C *vals, int64_t *idx, int64_t n, int64_t r)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t p = g[i];
    if (idx)
      idx[i] = p % r;
    if (vals)
      vals[i] = in[p];
  }
}

template <class C>
int sort_complex(cudaStream_t s, int64_t m, int64_t r, const void *in_, void *vals, int64_t *idx, void *temp,
                 size_t *temp_bytes)
{
  int64_t n = m * r;
  carve c{(char *)temp, 0};
  int64_t *g = c.take<int64_t>(n);
  complex_order<C> cmp{(const C *)in_, r};
  size_t cub_bytes = 0;
  cudaError_t e = cub::DeviceMergeSort::StableSortKeys(nullptr, cub_bytes, g, n, cmp, s);
  if (e != cudaSuccess)
    return (int)e;
  void *ct = c.take<char>(cub_bytes);
  if (!temp) {
    *temp_bytes = c.used;
    return 0;
  }
  iota<<<blocks_for(n), kThreads, 0, s>>>(g, n);
  if ((e = cub::DeviceMergeSort::StableSortKeys(ct, cub_bytes, g, n, cmp, s)) != cudaSuccess)
    return (int)e;
  from_global<C><<<blocks_for(n), kThreads, 0, s>>>((const C *)in_, g, (C *)vals, idx, n, r);
  return launched();
}

/* ------------------------------------------------------------ searching */

template <class T, class KeyOp>
__global__ void search_real(const T *a, int64_t n, const T *v, int64_t nv, int right, int64_t *out)
{
  KeyOp key;
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < nv; k += (int64_t)gridDim.x * blockDim.x) {
    auto kv = key(v[k]);
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      auto km = key(a[mid]);
      if (right ? !(kv < km) : km < kv)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[k] = lo;
  }
}

template <class C>
__global__ void search_complex(const C *a, int64_t n, const C *v, int64_t nv, int right, int64_t *out)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < nv; k += (int64_t)gridDim.x * blockDim.x) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      bool go = right ? !cusci__complex_less(v[k].re, v[k].im, a[mid].re, a[mid].im)
                      : cusci__complex_less(a[mid].re, a[mid].im, v[k].re, v[k].im);
      if (go)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[k] = lo;
  }
}

/* --------------------------------------------------------------- unique */

template <class T, class KeyOp, bool FLOAT>
__global__ void mark_real(const T *x, int64_t n, int equal_nan, int64_t *flag)
{
  KeyOp key;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    if (i == 0) {
      flag[i] = 0;
      continue;
    }
    auto k0 = key(x[i - 1]), k1 = key(x[i]);
    using KT = decltype(k1);
    bool same = k0 == k1 && (equal_nan || !FLOAT || k1 != (KT) ~(KT)0);
    flag[i] = !same;
  }
}

template <class C>
__global__ void mark_complex(const C *x, int64_t n, int equal_nan, int64_t *flag)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    flag[i] = i == 0 ? 0 : !cusci__complex_same(x[i - 1].re, x[i - 1].im, x[i].re, x[i].im, equal_nan);
}

template <int SZ>
struct bytes_of {
  unsigned char b[SZ];
};

template <class E>
__global__ void unique_first(const E *sorted, const int64_t *perm, const int64_t *gid, int64_t n, E *uniq,
                             int64_t *index, int64_t *inverse, int64_t *counts)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t g = gid[i];
    if (i == 0 || gid[i - 1] != g) {
      uniq[g] = sorted[i];
      if (index)
        index[g] = perm[i];
      if (counts)
        counts[g] = i;
    }
    if (inverse)
      inverse[perm[i]] = g;
  }
}

__global__ void unique_counts(const int64_t *gid, int64_t n, int64_t *counts)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t g = gid[i];
    if (i == n - 1 || gid[i + 1] != g)
      counts[g] = i + 1 - counts[g];
  }
}

/* ------------------------------------------------------------ quantiles */

__device__ __forceinline__ void store_ct(int ct, void *out, int64_t k, double v)
{
  if (ct == 1)
    ((float *)out)[k] = (float)v;
  else if (ct == 2)
    ((cusci_f16 *)out)[k] = cusci_double_to_half(v);
  else
    ((double *)out)[k] = v;
}

/* One thread per result; the same steps as reference/core/sort.c. */
template <class T, class KeyOp, class Load, bool FLOAT>
__global__ void quantile_rows(int method, int ct, int dct, int64_t m, int64_t r, const T *sorted, int64_t nq,
                              const double *q, void *out)
{
  KeyOp key;
  Load load;
  int discrete = cusci__q_discrete(method);
  for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < nq * m; t += (int64_t)gridDim.x * blockDim.x) {
    int64_t k = t / m, j = t - k * m;
    const T *row = sorted + j * r;
    using KT = decltype(key(row[0]));
    bool nan_row = FLOAT && key(row[r - 1]) == (KT) ~(KT)0;
    int64_t lo, hi;
    double g;
    if (method == CUSCI__Q_MEDIAN) {
      lo = (r - 1) / 2;
      hi = r / 2;
      g = 0;
    } else {
      cusci__q_position(method, r, q[k], &lo, &hi, &g);
    }
    if (nan_row)
      lo = hi = r - 1;
    if (discrete) {
      ((T *)out)[t] = row[lo];
      continue;
    }
    double a = (double)load(row[lo]), b = (double)load(row[hi]), diff;
    if (nan_row) {
      store_ct(ct, out, t, a);
      continue;
    }
    if (method == CUSCI__Q_MEDIAN) {
      store_ct(ct, out, t, cusci__q_median(ct, a, b, (int)(r % 2)));
      continue;
    }
    if (FLOAT)
      diff = cusci__q_round(dct, CUSCI_DADD(b, -a));
    else
      diff = (double)(T)((uint64_t)row[hi] - (uint64_t)row[lo]);
    store_ct(ct, out, t, cusci__q_lerp(ct, a, b, diff, g));
  }
}

#define LOADOP_(D, T, KT, KEY, K)                                                         \
  struct loadop_##D {                                                                     \
    __device__ __forceinline__ auto operator()(T x) const { return cusci_load_##D(x); }  \
  };
CUSCI__SORT_REAL_TYPES(LOADOP_)

/* ------------------------------------------------------------ histogram */

constexpr int kSharedBins = 2048;

template <class T, class Load>
__global__ void histogram(const T *a, int64_t n, int64_t nb, const double *edges, const double *w, int64_t *counts,
                          double *wsum)
{
  extern __shared__ double sh[];
  Load load;
  bool local = nb <= kSharedBins;
  const double *e = edges;
  unsigned long long *sc = nullptr;
  double *sw = nullptr;
  if (local) {
    double *se = sh;
    for (int64_t i = threadIdx.x; i <= nb; i += blockDim.x)
      se[i] = edges[i];
    e = se;
    if (w) {
      sw = sh + nb + 1;
      for (int64_t i = threadIdx.x; i < nb; i += blockDim.x)
        sw[i] = 0;
    } else {
      sc = (unsigned long long *)(sh + nb + 1);
      for (int64_t i = threadIdx.x; i < nb; i += blockDim.x)
        sc[i] = 0;
    }
    __syncthreads();
  }
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t b = cusci__hist_bin(e, nb, (double)load(a[i]));
    if (b < 0)
      continue;
    if (local) {
      if (w)
        atomicAdd(&sw[b], w[i]);
      else
        atomicAdd(&sc[b], 1ull);
    } else if (w) {
      atomicAdd(&wsum[b], w[i]);
    } else {
      atomicAdd((unsigned long long *)&counts[b], 1ull);
    }
  }
  if (local) {
    __syncthreads();
    for (int64_t i = threadIdx.x; i < nb; i += blockDim.x) {
      if (w) {
        if (sw[i] != 0)
          atomicAdd(&wsum[i], sw[i]);
      } else if (sc[i]) {
        atomicAdd((unsigned long long *)&counts[i], sc[i]);
      }
    }
  }
}

__global__ void bincount(const int64_t *x, int64_t n, const double *w, int64_t *counts, double *wsum)
{
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    if (w)
      atomicAdd(&wsum[x[i]], w[i]);
    else
      atomicAdd((unsigned long long *)&counts[x[i]], 1ull);
  }
}

} // namespace

/* ------------------------------------------------------- launch functions */

extern "C" int cusci__launch_sort_rows(void *stream, int dtype, int64_t m, int64_t r, const void *in, void *vals,
                                       int64_t *idx, void *temp, size_t *temp_bytes)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (m * r == 0 || r > (int64_t)UINT32_MAX) {
    if (!temp)
      *temp_bytes = 0;
    return r > (int64_t)UINT32_MAX ? (int)cudaErrorInvalidValue : 0;
  }
  switch (dtype) {
  case CUSCI_BOOL: return sort_real<uint8_t, uint8_t, keyop_UINT8, 0>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_INT8: return sort_real<int8_t, uint8_t, keyop_INT8, 1>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_INT16: return sort_real<int16_t, uint16_t, keyop_INT16, 1>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_INT32: return sort_real<int32_t, uint32_t, keyop_INT32, 1>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_INT64: return sort_real<int64_t, uint64_t, keyop_INT64, 1>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_UINT8: return sort_real<uint8_t, uint8_t, keyop_UINT8, 0>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_UINT16: return sort_real<uint16_t, uint16_t, keyop_UINT16, 0>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_UINT32: return sort_real<uint32_t, uint32_t, keyop_UINT32, 0>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_UINT64: return sort_real<uint64_t, uint64_t, keyop_UINT64, 0>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_FLOAT16:
    return sort_real<cusci_f16, uint16_t, keyop_FLOAT16, 2>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_FLOAT32: return sort_real<float, uint32_t, keyop_FLOAT32, 2>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_FLOAT64: return sort_real<double, uint64_t, keyop_FLOAT64, 2>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_COMPLEX64: return sort_complex<cusci_c64>(s, m, r, in, vals, idx, temp, temp_bytes);
  case CUSCI_COMPLEX128: return sort_complex<cusci_c128>(s, m, r, in, vals, idx, temp, temp_bytes);
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int cusci__launch_sort_values(void *stream, int dtype, int64_t m, int64_t r, const void *in, void *vals,
                                         void *temp, size_t *temp_bytes)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (m * r == 0 || r > (int64_t)UINT32_MAX) {
    if (!temp)
      *temp_bytes = 0;
    return r > (int64_t)UINT32_MAX ? (int)cudaErrorInvalidValue : 0;
  }
  switch (dtype) {
  case CUSCI_FLOAT16: return sort_values_float<vkey_FLOAT16>(s, m, r, in, vals, temp, temp_bytes);
  case CUSCI_FLOAT32:
    if (m == 1)
      return sort_values_native<float>(s, r, in, vals, temp, temp_bytes);
    return sort_values_float<vkey_FLOAT32>(s, m, r, in, vals, temp, temp_bytes);
  case CUSCI_FLOAT64:
    if (m == 1)
      return sort_values_native<double>(s, r, in, vals, temp, temp_bytes);
    return sort_values_float<vkey_FLOAT64>(s, m, r, in, vals, temp, temp_bytes);
  }
  /* Integers, bools and complex numbers: their one sort of values. */
  return cusci__launch_sort_rows(stream, dtype, m, r, in, vals, nullptr, temp, temp_bytes);
}

#define SEARCH_CASE_(D, T, KT, KEY, K) \
  case CUSCI_##D:                      \
    search_real<T, keyop_##D><<<g, kThreads, 0, s>>>((const T *)a, n, (const T *)v, nv, right, out); \
    return launched();
#define SEARCH_CASE_C_(D, T, R) \
  case CUSCI_##D:               \
    search_complex<T><<<g, kThreads, 0, s>>>((const T *)a, n, (const T *)v, nv, right, out); \
    return launched();

extern "C" int cusci__launch_searchsorted(void *stream, int dtype, int64_t n, const void *a, int64_t nv, const void *v,
                                          int right, int64_t *out)
{
  cudaStream_t s = (cudaStream_t)stream;
  unsigned g = blocks_for(nv);
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(SEARCH_CASE_)
    CUSCI__SORT_COMPLEX_TYPES(SEARCH_CASE_C_)
  }
  return (int)cudaErrorInvalidValue;
}

#define MARK_CASE_(D, T, KT, KEY, K) \
  case CUSCI_##D:                    \
    mark_real<T, keyop_##D, #K[0] == 'F'><<<g, kThreads, 0, s>>>((const T *)sorted, n, equal_nan, gid); \
    break;
#define MARK_CASE_C_(D, T, R) \
  case CUSCI_##D:             \
    mark_complex<T><<<g, kThreads, 0, s>>>((const T *)sorted, n, equal_nan, gid); \
    break;

extern "C" int cusci__launch_unique_mark(void *stream, int dtype, int64_t n, const void *sorted, int equal_nan,
                                         int64_t *gid, void *temp, size_t *temp_bytes)
{
  cudaStream_t s = (cudaStream_t)stream;
  size_t bytes = 0;
  cudaError_t e = cub::DeviceScan::InclusiveSum(nullptr, bytes, gid, gid, n, s);
  if (e != cudaSuccess)
    return (int)e;
  if (!temp) {
    *temp_bytes = bytes;
    return 0;
  }
  unsigned g = blocks_for(n);
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(MARK_CASE_)
    CUSCI__SORT_COMPLEX_TYPES(MARK_CASE_C_)
  default:
    return (int)cudaErrorInvalidValue;
  }
  if ((e = cudaGetLastError()) != cudaSuccess)
    return (int)e;
  return (int)cub::DeviceScan::InclusiveSum(temp, bytes, gid, gid, n, s);
}

extern "C" int cusci__launch_unique_scatter(void *stream, int dtype, int64_t n, const void *sorted,
                                            const int64_t *perm, const int64_t *gid, void *uniq, int64_t *index,
                                            int64_t *inverse, int64_t *counts)
{
  cudaStream_t s = (cudaStream_t)stream;
  unsigned g = blocks_for(n);
  switch (cusci_dtype_itemsize((cusci_dtype)dtype)) {
#define SZ_(N)                                                                                             \
  case N:                                                                                                  \
    unique_first<bytes_of<N>><<<g, kThreads, 0, s>>>((const bytes_of<N> *)sorted, perm, gid, n,           \
                                                     (bytes_of<N> *)uniq, index, inverse, counts);        \
    break;
    SZ_(1) SZ_(2) SZ_(4) SZ_(8) SZ_(16)
#undef SZ_
  default:
    return (int)cudaErrorInvalidValue;
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess || !counts)
    return (int)e;
  unique_counts<<<g, kThreads, 0, s>>>(gid, n, counts);
  return launched();
}

#define QUANT_CASE_(D, T, KT, KEY, K)                                                                         \
  case CUSCI_##D:                                                                                             \
    quantile_rows<T, keyop_##D, loadop_##D, #K[0] == 'F'><<<g, kThreads, 0, s>>>(method, ct, dct, m, r,       \
                                                                                  (const T *)sorted, nq, q, out); \
    return launched();

extern "C" int cusci__launch_quantile_rows(void *stream, int dtype, int method, int ct, int64_t m, int64_t r,
                                           const void *sorted, int64_t nq, const double *q, void *out)
{
  cudaStream_t s = (cudaStream_t)stream;
  unsigned g = blocks_for(nq * m);
  int dct = dtype == CUSCI_FLOAT16 ? 2 : dtype == CUSCI_FLOAT32 ? 1 : 0;
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(QUANT_CASE_)
  }
  return (int)cudaErrorInvalidValue;
}

#define HIST_CASE_(D, T, KT, KEY, K)                                                                         \
  case CUSCI_##D:                                                                                            \
    histogram<T, loadop_##D><<<g, kThreads, shmem, s>>>((const T *)a, n, nb, edges, (const double *)w, counts, \
                                                        wsum);                                              \
    return launched();

extern "C" int cusci__launch_histogram(void *stream, int dtype, int64_t n, const void *a, int64_t nb,
                                       const double *edges, int wdtype, const void *w, int64_t *counts, double *wsum)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (wdtype != CUSCI_FLOAT64)
    return (int)cudaErrorInvalidValue;
  cudaError_t e = w ? cudaMemsetAsync(wsum, 0, (size_t)nb * sizeof(double), s)
                    : cudaMemsetAsync(counts, 0, (size_t)nb * sizeof(int64_t), s);
  if (e != cudaSuccess || n == 0)
    return (int)e;
  size_t shmem = nb <= kSharedBins ? (size_t)(2 * nb + 1) * sizeof(double) : 0;
  /* Enough blocks to fill the GPU, few enough that merging their bins is cheap. */
  unsigned g = blocks_for(n, 16);
  if (g > 1024)
    g = 1024;
  switch (dtype) {
    CUSCI__SORT_REAL_TYPES(HIST_CASE_)
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int cusci__launch_bincount(void *stream, int dtype, int64_t n, const void *x, int wdtype, const void *w,
                                      int64_t len, int64_t *counts, double *wsum)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (dtype != CUSCI_INT64 || wdtype != CUSCI_FLOAT64)
    return (int)cudaErrorInvalidValue;
  cudaError_t e = w ? cudaMemsetAsync(wsum, 0, (size_t)len * sizeof(double), s)
                    : cudaMemsetAsync(counts, 0, (size_t)len * sizeof(int64_t), s);
  if (e != cudaSuccess || n == 0)
    return (int)e;
  bincount<<<blocks_for(n), kThreads, 0, s>>>((const int64_t *)x, n, (const double *)w, counts, wsum);
  return launched();
}
