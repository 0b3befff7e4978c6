/*
 * kernels/core/scan.cu: cumsum, cumprod, nancumsum and nancumprod on the
 * GPU, with the steps of reference/core/scan_ops.h.
 *
 * One contiguous segment whose result type is its accumulator (integers
 * into int64 or uint64, float32, float64) is CUB's DeviceScan, reading the
 * input through the loads and NaN replacement of scan_ops.h. Everything
 * else - a scan along an axis of a batch, strided or reversed views,
 * float16 and complex - is a three-phase scan over kept segments, each cut
 * into chunks: (1) each block reduces its chunk, (2) one block per segment
 * turns the chunk totals into exclusive prefixes, (3) each block scans its
 * chunk again in tiles, starting from its prefix. Many segments get one
 * chunk each and skip phases 1 and 2. Integer scans are exact; float scans
 * round in a different order from the host's sequential loop, and float
 * and complex products redo the run from their first non-finite result
 * left to right (scan_redo_nonfinite).
 */
#include <type_traits>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cusci/core.h>

#include "kernels/core/common.cuh"
#include "kernels/core/launch.h"
#include "reference/core/scan_ops.h"

namespace {

using namespace cusci;

constexpr int kItems = 8; /* consecutive elements per thread in a tile */
constexpr int64_t kTile = (int64_t)kThreads * kItems;

__device__ __forceinline__ int64_t offset_of(const cusci_loop &l, int k, int64_t i)
{
  int64_t off = 0;
  for (int d = l.ndim - 1; d >= 0; d--) {
    int64_t n = l.shape[d];
    int64_t q = i / n;
    off += (i - q * n) * l.stride[k][d];
    i = q;
  }
  return off;
}

/* The kind-specific steps, by dtype: X(D, T, K, A, R). */
#define TRAITS_(D, T, K, A, R)                                                                         \
  struct st_##D {                                                                                      \
    typedef T In;                                                                                      \
    typedef A Acc;                                                                                     \
    typedef R Out;                                                                                     \
    __host__ __device__ static A init(int op) { return cusci__sinit_##K(op); }                         \
    __host__ __device__ static A prep(int op, T x) { return cusci__sprep_##K(op, cusci__sload_##D(x)); } \
    __host__ __device__ static A step(int op, A a, A b) { return cusci__sstep_##K(op, a, b); }         \
    __host__ __device__ static R store(A a) { return cusci__sstore_##D(a); }                           \
  };
CUSCI__STYPES(TRAITS_)

/*
 * The three-phase scan's accumulator: a value and whether it holds one, so
 * that no step ever combines with the identity (a complex product with
 * 1 + 0j turns an infinite part into NaN; 0.0 + -0.0 loses the sign), and
 * the first element of a scan is itself, as NumPy's.
 */
template <class S>
struct opt_acc {
  typename S::Acc v;
  int has;
};
template <class S>
struct ws {
  typedef typename S::In In;
  typedef opt_acc<S> Acc;
  typedef typename S::Out Out;
  __device__ static Acc init(int op)
  {
    Acc a;
    a.v = S::init(op);
    a.has = 0;
    return a;
  }
  __device__ static Acc prep(int op, In x)
  {
    Acc a;
    a.v = S::prep(op, x);
    a.has = 1;
    return a;
  }
  __device__ static Acc step(int op, Acc a, Acc b)
  {
    if (!a.has)
      return b;
    if (!b.has)
      return a;
    a.v = S::step(op, a.v, b.v);
    return a;
  }
  __device__ static Out store(Acc a) { return S::store(a.v); }
};

/* Element r of segment m: input and output offsets. */
__device__ __forceinline__ void elem_offsets(const cusci_loop &red, int64_t r, int64_t *oo, int64_t *io)
{
  if (red.ndim == 1) {
    *oo = r * red.stride[0][0];
    *io = r * red.stride[1][0];
  } else {
    *oo = offset_of(red, 0, r);
    *io = offset_of(red, 1, r);
  }
}

/* Inclusive scan of one value per thread (Hillis-Steele in shared memory);
 * *total receives the block's total. */
template <class S>
__device__ typename S::Acc block_scan(int op, typename S::Acc v, typename S::Acc *total)
{
  typedef typename S::Acc A;
  __shared__ A sh[kThreads];
  int t = threadIdx.x;
  sh[t] = v;
  __syncthreads();
  for (int s = 1; s < kThreads; s <<= 1) {
    A o = t >= s ? sh[t - s] : v;
    __syncthreads();
    if (t >= s) {
      v = S::step(op, o, v);
      sh[t] = v;
    }
    __syncthreads();
  }
  *total = sh[kThreads - 1];
  __syncthreads();
  return v;
}

/* Phase 1: the total of chunk g of segment m. */
template <class S>
__global__ void scan_totals(int op, const typename S::In *in, typename S::Acc *part, const cusci_loop kept,
                            const cusci_loop red, int64_t chunk, int nchunks)
{
  typedef typename S::Acc A;
  for (int64_t m = blockIdx.y; m < kept.size; m += gridDim.y) {
    const typename S::In *base = in + offset_of(kept, 1, m);
    int64_t lo = (int64_t)blockIdx.x * chunk, hi = lo + chunk < red.size ? lo + chunk : red.size;
    /* Each thread takes a consecutive run, so the tree below keeps the
     * elements in order (products of complex values do not commute in
     * rounding, and order keeps the result close to the host's). */
    int64_t per = (hi - lo + kThreads - 1) / kThreads;
    int64_t a0 = lo + threadIdx.x * per, a1 = a0 + per < hi ? a0 + per : hi;
    A acc = S::init(op);
    for (int64_t r = a0; r < a1; r++) {
      int64_t oo, io;
      elem_offsets(red, r, &oo, &io);
      acc = S::step(op, acc, S::prep(op, base[io]));
    }
    A total;
    block_scan<S>(op, acc, &total);
    if (threadIdx.x == 0)
      part[m * nchunks + blockIdx.x] = total;
  }
}

/* Phase 2: chunk totals of each segment into exclusive prefixes, in place. */
template <class S>
__global__ void scan_prefixes(int op, typename S::Acc *part, int64_t m_count, int nchunks)
{
  typedef typename S::Acc A;
  for (int64_t m = blockIdx.x; m < m_count; m += gridDim.x) {
    A carry = S::init(op);
    for (int g0 = 0; g0 < nchunks; g0 += kThreads) {
      int g = g0 + (int)threadIdx.x;
      A v = g < nchunks ? part[m * nchunks + g] : S::init(op), total;
      A inc = block_scan<S>(op, v, &total);
      /* exclusive = carry (op) inclusive of the threads before */
      __shared__ A ex[kThreads];
      ex[threadIdx.x] = inc;
      __syncthreads();
      A before = threadIdx.x ? S::step(op, carry, ex[threadIdx.x - 1]) : carry;
      __syncthreads();
      if (g < nchunks)
        part[m * nchunks + g] = before;
      carry = S::step(op, carry, total);
    }
  }
}

/* Phase 3: scan chunk g of segment m in tiles from its prefix. */
template <class S>
__global__ void scan_chunks(int op, const typename S::In *in, typename S::Out *out, const typename S::Acc *part,
                            const cusci_loop kept, const cusci_loop red, int64_t chunk, int nchunks)
{
  typedef typename S::Acc A;
  for (int64_t m = blockIdx.y; m < kept.size; m += gridDim.y) {
    const typename S::In *ib = in + offset_of(kept, 1, m);
    typename S::Out *ob = out + offset_of(kept, 0, m);
    int64_t lo = (int64_t)blockIdx.x * chunk, hi = lo + chunk < red.size ? lo + chunk : red.size;
    A carry = nchunks > 1 ? part[m * nchunks + blockIdx.x] : S::init(op);
    for (int64_t t0 = lo; t0 < hi; t0 += kTile) {
      int64_t a0 = t0 + (int64_t)threadIdx.x * kItems;
      A v[kItems];
      A acc = S::init(op);
#pragma unroll
      for (int k = 0; k < kItems; k++) {
        int64_t r = a0 + k;
        if (r < hi) {
          int64_t oo, io;
          elem_offsets(red, r, &oo, &io);
          acc = S::step(op, acc, S::prep(op, ib[io]));
        }
        v[k] = acc;
      }
      A total;
      A inc = block_scan<S>(op, acc, &total);
      __shared__ A ex[kThreads];
      ex[threadIdx.x] = inc;
      __syncthreads();
      A before = threadIdx.x ? S::step(op, carry, ex[threadIdx.x - 1]) : carry;
      __syncthreads();
#pragma unroll
      for (int k = 0; k < kItems; k++) {
        int64_t r = a0 + k;
        if (r < hi) {
          int64_t oo, io;
          elem_offsets(red, r, &oo, &io);
          ob[oo] = S::store(S::step(op, before, v[k]));
        }
      }
      carry = S::step(op, carry, total);
    }
  }
}

/*
 * Products through infinities. A parallel scan groups the products
 * differently from NumPy's left-to-right loop, and where a value is
 * infinite (or a partial product overflows) the grouping decides which
 * parts come out infinite and which NaN: (p * x13) * x14 is inf + inf j
 * where p * (x13 * x14) is inf + NaN j. Up to the first result that is not
 * finite, the grouping changes only rounding; from there on this pass
 * redoes the segment left to right, from the result before it, as the host
 * and NumPy do. Finite scans pay one read of the output.
 */
__device__ __forceinline__ bool all_finite(float v) { return isfinite(v); }
__device__ __forceinline__ bool all_finite(double v) { return isfinite(v); }
__device__ __forceinline__ bool all_finite(cusci_c64 v) { return isfinite(v.re) && isfinite(v.im); }
__device__ __forceinline__ bool all_finite(cusci_c128 v) { return isfinite(v.re) && isfinite(v.im); }

template <class S>
__global__ void scan_redo_nonfinite(int op, const typename S::In *in, typename S::Acc *out, const cusci_loop kept,
                                    const cusci_loop red)
{
  typedef typename S::Acc A;
  __shared__ unsigned long long first;
  for (int64_t m = blockIdx.x; m < kept.size; m += gridDim.x) {
    const typename S::In *ib = in + offset_of(kept, 1, m);
    A *ob = out + offset_of(kept, 0, m);
    if (threadIdx.x == 0)
      first = (unsigned long long)red.size;
    __syncthreads();
    for (int64_t r = threadIdx.x; r < red.size; r += blockDim.x) {
      if ((unsigned long long)r >= first)
        break;
      int64_t oo, io;
      elem_offsets(red, r, &oo, &io);
      if (!all_finite(ob[oo])) {
        atomicMin(&first, (unsigned long long)r);
        break;
      }
    }
    __syncthreads();
    if (threadIdx.x == 0 && first < (unsigned long long)red.size) {
      int64_t k = (int64_t)first, oo, io;
      A acc = S::init(op);
      if (k > 0) {
        elem_offsets(red, k - 1, &oo, &io);
        acc = ob[oo];
      }
      for (int64_t r = k; r < red.size; r++) {
        elem_offsets(red, r, &oo, &io);
        A x = S::prep(op, ib[io]);
        acc = r > 0 ? S::step(op, acc, x) : x;
        ob[oo] = acc;
      }
    }
    __syncthreads();
  }
}

/* Float and complex products whose output is the running value itself
 * (float16 rounds its output, so the running value cannot be read back). */
template <class S>
constexpr bool redo_applies()
{
  return std::is_same<typename S::Acc, typename S::Out>::value &&
         (std::is_same<typename S::Acc, float>::value || std::is_same<typename S::Acc, double>::value ||
          std::is_same<typename S::Acc, cusci_c64>::value || std::is_same<typename S::Acc, cusci_c128>::value);
}

template <class S>
typename std::enable_if<redo_applies<S>(), void>::type redo_nonfinite(cudaStream_t s, int op, const void *in,
                                                                       void *out, const cusci_loop *kept,
                                                                       const cusci_loop *red)
{
  if (!cusci__sop_is_prod(op))
    return;
  unsigned g = kept->size < 65535 ? (unsigned)kept->size : 65535u;
  scan_redo_nonfinite<S><<<g, kThreads, 0, s>>>(op, (const typename S::In *)in, (typename S::Acc *)out, *kept,
                                                 *red);
}
template <class S>
typename std::enable_if<!redo_applies<S>(), void>::type redo_nonfinite(cudaStream_t, int, const void *, void *,
                                                                        const cusci_loop *, const cusci_loop *)
{
}

/* Chunks per segment: about 2048 blocks in all, chunks of at least one
 * tile per thread block's worth of 16 tiles. */
int chunks_for(const cusci_loop *kept, const cusci_loop *red)
{
  int64_t want = kept->size >= 2048 ? 1 : 2048 / kept->size;
  int64_t most = (red->size + 16 * kTile - 1) / (16 * kTile);
  int64_t c = want < most ? want : most;
  return (int)(c > 0 ? c : 1);
}

template <class S>
struct prep_fn {
  int op;
  __host__ __device__ typename S::Acc operator()(typename S::In x) const { return S::prep(op, x); }
};
template <class S>
struct step_fn {
  int op;
  __host__ __device__ typename S::Acc operator()(typename S::Acc a, typename S::Acc b) const { return S::step(op, a, b); }
};

/* One contiguous segment whose output type is its accumulator: CUB. */
template <class S>
bool use_cub(const cusci_loop *kept, const cusci_loop *red)
{
  return std::is_same<typename S::Acc, typename S::Out>::value && kept->size == 1 && red->ndim == 1 &&
         red->stride[0][0] == 1 && red->stride[1][0] == 1 && red->size > 1;
}

template <class S>
cudaError_t cub_scan(int op, void *temp, size_t *bytes, const void *in, void *out, int64_t n, cudaStream_t s)
{
  thrust::transform_iterator<prep_fn<S>, const typename S::In *, typename S::Acc> it((const typename S::In *)in,
                                                                                     prep_fn<S>{op});
  return cub::DeviceScan::InclusiveScan(temp, *bytes, it, (typename S::Out *)out, step_fn<S>{op}, n, s);
}

template <class S>
int scratch_t(int op, const cusci_loop *kept, const cusci_loop *red, size_t *bytes)
{
  if (use_cub<S>(kept, red)) {
    *bytes = 0;
    return (int)cub_scan<S>(op, nullptr, bytes, nullptr, nullptr, red->size, 0);
  }
  int nchunks = chunks_for(kept, red);
  *bytes = nchunks > 1 ? (size_t)kept->size * nchunks * sizeof(typename ws<S>::Acc) : 0;
  return 0;
}

template <class S>
int launch_t(cudaStream_t s, int op, const cusci_loop *kept, const cusci_loop *red, void *out, const void *in,
             void *scratch, size_t bytes)
{
  if (use_cub<S>(kept, red)) {
    size_t b = bytes;
    cudaError_t e = cub_scan<S>(op, scratch, &b, in, out, red->size, s);
    if (e != cudaSuccess)
      return (int)e;
    redo_nonfinite<S>(s, op, in, out, kept, red);
    return launched();
  }
  int nchunks = chunks_for(kept, red);
  int64_t chunk = (red->size + nchunks - 1) / nchunks;
  unsigned gy = kept->size < 65535 ? (unsigned)kept->size : 65535u;
  dim3 grid((unsigned)nchunks, gy);
  typedef ws<S> W;
  typename W::Acc *part = (typename W::Acc *)scratch;
  const typename S::In *x = (const typename S::In *)in;
  if (nchunks > 1) {
    scan_totals<W><<<grid, kThreads, 0, s>>>(op, x, part, *kept, *red, chunk, nchunks);
    scan_prefixes<W><<<gy, kThreads, 0, s>>>(op, part, kept->size, nchunks);
  }
  scan_chunks<W><<<grid, kThreads, 0, s>>>(op, x, (typename S::Out *)out, part, *kept, *red, chunk, nchunks);
  redo_nonfinite<S>(s, op, in, out, kept, red);
  return launched();
}

} // namespace

#define SCRATCH_CASE_(D, T, K, A, R) \
  case CUSCI_##D:                    \
    return scratch_t<st_##D>(op, kept, red, bytes);

extern "C" int cusci__launch_scan_scratch(int op, int dtype, const cusci_loop *kept, const cusci_loop *red,
                                          size_t *bytes)
{
  *bytes = 0;
  if (kept->size == 0 || red->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__STYPES(SCRATCH_CASE_)
  }
  return (int)cudaErrorInvalidValue;
}

#define LAUNCH_CASE_(D, T, K, A, R) \
  case CUSCI_##D:                   \
    return launch_t<st_##D>((cudaStream_t)stream, op, kept, red, out, in, scratch, bytes);

extern "C" int cusci__launch_scan(void *stream, int op, int dtype, const cusci_loop *kept, const cusci_loop *red,
                                  void *out, const void *in, void *scratch, size_t bytes)
{
  if (kept->size == 0 || red->size == 0)
    return 0;
  switch (dtype) {
    CUSCI__STYPES(LAUNCH_CASE_)
  }
  return (int)cudaErrorInvalidValue;
}
