/*
 * kernels/signal/spectral.cu: the passes of reference/signal/spectral.h
 * on the GPU, with its per-element arithmetic (built without contraction
 * into fused multiply-adds, as the host computes it):
 *  - frames: a block per frame; its threads read the frame's samples in
 *    order (one transaction a warp), sum its trend in a tree and write
 *    the detrended, windowed frame;
 *  - spectrum: 32 x 32 tiles of X through shared memory, read along the
 *    frequencies and written along the segments, both coalesced; the mean
 *    over the segments in two steps (partial sums of chunks of segments,
 *    then their sum, in a fixed order); the unwrapped phase a thread per
 *    segment, in order along the frequencies;
 *  - overlap-add: a thread per output sample;
 *  - Lomb-Scargle: a thread per frequency, its sums over the samples in
 *    order.
 */
#include <cuda_runtime.h>

#include "config.h"

#include "kernels/signal/launch.h"
#include "reference/signal/spectral.h"

namespace {

inline int launched()
{
  return (int)cudaGetLastError();
}

inline unsigned grid_for(int64_t n, int threads)
{
  const int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : b > 65535 * 64 ? 65535 * 64 : b);
}

constexpr int FRAME_THREADS = 256;

template <int PREC>
__global__ void __launch_bounds__(FRAME_THREADS) frames_kernel(int64_t lines, int64_t n, int ext, int64_t ext_n, int64_t nseg, int64_t m, int64_t step,
                                                             int trend, const void *__restrict__ w, const void *__restrict__ x, void *y)
{
  __shared__ double red[4][FRAME_THREADS];
  const size_t es = (PREC >= 2 ? 2 : 1) * (PREC & 1 ? sizeof(double) : sizeof(float));
  for (int64_t fr = blockIdx.x; fr < lines * nseg; fr += gridDim.x) {
    const int64_t l = fr / nseg, s = fr % nseg;
    const void *xl = (const char *)x + (size_t)(l * n) * es;
    cusci_c128 a, b;
    if (trend != CUSCI__SIG_TREND_NONE) {
      cusci_c128 s0 = { 0, 0 }, s1 = { 0, 0 };
      for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
        const cusci_c128 v = cusci__sig_extended_value(PREC, xl, ext, ext_n, n, s * step + j);
        const double c = (double)j - 0.5 * (double)(m - 1);
        s0.re += v.re, s0.im += v.im, s1.re += c * v.re, s1.im += c * v.im;
      }
      red[0][threadIdx.x] = s0.re, red[1][threadIdx.x] = s0.im, red[2][threadIdx.x] = s1.re, red[3][threadIdx.x] = s1.im;
      __syncthreads();
      for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
        if (threadIdx.x < h)
          for (int q = 0; q < 4; q++)
            red[q][threadIdx.x] += red[q][threadIdx.x + h];
        __syncthreads();
      }
      s0.re = red[0][0], s0.im = red[1][0], s1.re = red[2][0], s1.im = red[3][0];
      __syncthreads(); /* red is read before the next frame writes it */
      cusci__sig_frame_trend(trend, m, s0, s1, &a, &b);
    } else {
      a.re = a.im = b.re = b.im = 0;
    }
    const int64_t base = fr * m;
    for (int64_t j = threadIdx.x; j < m; j += blockDim.x) {
      const cusci_c128 v = cusci__sig_extended_value(PREC, xl, ext, ext_n, n, s * step + j);
      cusci__sig_st(PREC, y, base + j, cusci__sig_frame_value(v, a, b, j, m, cusci__sig_ld(PREC & 1, w, j).re));
    }
  }
}

constexpr int TILE = 32, TILE_ROWS = 8;

/* The tiled ops: X (lines x nseg x nfreq) to P (lines x nfreq x nseg). */
template <int RP, int OP>
__global__ void spectrum_tiled(int64_t lines, int64_t nseg, int64_t nfreq, const void *__restrict__ f, const void *__restrict__ X, void *P)
{
  __shared__ cusci_c128 tile[TILE][TILE + 1];
  constexpr int OUTP = OP == CUSCI__SIG_SPEC_COMPLEX ? RP + 2 : RP;
  const int64_t s0 = (int64_t)blockIdx.x * TILE;
  for (int64_t l = blockIdx.z; l < lines; l += gridDim.z)
    for (int64_t f0 = (int64_t)blockIdx.y * TILE; f0 < nfreq; f0 += (int64_t)gridDim.y * TILE) {
      const int64_t k = f0 + threadIdx.x;
      for (int r = threadIdx.y; r < TILE; r += TILE_ROWS) {
        const int64_t s = s0 + r;
        if (s < nseg && k < nfreq)
          tile[r][threadIdx.x] = cusci__sig_spec_value(OP, cusci__sig_ld(RP + 2, X, (l * nseg + s) * nfreq + k), cusci__sig_ld(RP, f, k).re);
      }
      __syncthreads();
      const int64_t s = s0 + threadIdx.x;
      for (int r = threadIdx.y; r < TILE; r += TILE_ROWS) {
        const int64_t kk = f0 + r;
        if (s < nseg && kk < nfreq)
          cusci__sig_st(OUTP, P, (l * nfreq + kk) * nseg + s, tile[threadIdx.x][r]);
      }
      __syncthreads();
    }
}

template <int RP>
__global__ void spectrum_segments(int64_t total, int64_t nfreq, const void *__restrict__ f, const void *__restrict__ X, void *P)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride)
    cusci__sig_st(RP, P, e, cusci__sig_spec_value(CUSCI__SIG_SPEC_POWER, cusci__sig_ld(RP + 2, X, e), cusci__sig_ld(RP, f, e % nfreq).re));
}

/* The mean's first step: part[l, c, k] the sum of |X|^2 over the
 * segments of chunk c (MEAN_CHUNK of them), TILE_ROWS partial sums a
 * column summed in a tree. */
constexpr int64_t MEAN_CHUNK = CUSCI__SIG_MEAN_CHUNK;

template <int RP>
__global__ void mean_partial(int64_t lines, int64_t nseg, int64_t nfreq, int64_t nchunk, const void *__restrict__ X, double *part)
{
  __shared__ double acc[TILE_ROWS][TILE];
  const int64_t c = blockIdx.x;
  for (int64_t l = blockIdx.z; l < lines; l += gridDim.z)
    for (int64_t f0 = (int64_t)blockIdx.y * TILE; f0 < nfreq; f0 += (int64_t)gridDim.y * TILE) {
      const int64_t k = f0 + threadIdx.x;
      double sum = 0;
      const int64_t end = (c + 1) * MEAN_CHUNK < nseg ? (c + 1) * MEAN_CHUNK : nseg;
      if (k < nfreq)
        for (int64_t s = c * MEAN_CHUNK + threadIdx.y; s < end; s += TILE_ROWS)
          sum += cusci__sig_spec_value(CUSCI__SIG_SPEC_POWER, cusci__sig_ld(RP + 2, X, (l * nseg + s) * nfreq + k), 1).re;
      acc[threadIdx.y][threadIdx.x] = sum;
      __syncthreads();
      for (int h = TILE_ROWS / 2; h > 0; h /= 2) {
        if (threadIdx.y < h)
          acc[threadIdx.y][threadIdx.x] += acc[threadIdx.y + h][threadIdx.x];
        __syncthreads();
      }
      if (threadIdx.y == 0 && k < nfreq)
        part[(l * nchunk + c) * nfreq + k] = acc[0][threadIdx.x];
      __syncthreads();
    }
}

template <int RP>
__global__ void mean_final(int64_t lines, int64_t nseg, int64_t nfreq, int64_t nchunk, const double *__restrict__ part, const void *__restrict__ f,
                           void *P)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < lines * nfreq; e += stride) {
    const int64_t l = e / nfreq, k = e % nfreq;
    double sum = 0;
    for (int64_t c = 0; c < nchunk; c++)
      sum += part[(l * nchunk + c) * nfreq + k];
    cusci_c128 r;
    r.re = sum * cusci__sig_ld(RP, f, k).re / (double)nseg, r.im = 0;
    cusci__sig_st(RP, P, e, r);
  }
}

/* The angles of one segment's frequencies, rounded to the element type,
 * then unwrapped in order (as the host's row). */
template <int RP>
__global__ void spectrum_phase(int64_t lines, int64_t nseg, int64_t nfreq, const void *__restrict__ X, void *P)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < lines * nseg; e += stride) {
    const int64_t l = e / nseg, s = e % nseg;
    double corr = 0, prev = 0;
    for (int64_t k = 0; k < nfreq; k++) {
      const int64_t out = (l * nfreq + k) * nseg + s;
      cusci__sig_st(RP, P, out, cusci__sig_spec_value(CUSCI__SIG_SPEC_ANGLE, cusci__sig_ld(RP + 2, X, e * nfreq + k), 1));
      const double v = cusci__sig_ld(RP, P, out).re;
      if (k > 0) {
        corr += cusci__sig_unwrap_step(v - prev);
        cusci_c128 r;
        r.re = v + corr, r.im = 0;
        cusci__sig_st(RP, P, out, r);
      }
      prev = v;
    }
  }
}

template <int PREC>
__global__ void ola_kernel(int64_t lines, int64_t nseg, int64_t m, int64_t rowlen, int64_t step, int64_t first, int64_t nout, double scale,
                           const void *__restrict__ w, const void *__restrict__ xs, void *y)
{
  const size_t es = (PREC >= 2 ? 2 : 1) * (PREC & 1 ? sizeof(double) : sizeof(float));
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < lines * nout; e += stride) {
    const int64_t l = e / nout, j = e % nout;
    const void *xl = (const char *)xs + (size_t)(l * nseg * rowlen) * es;
    cusci__sig_st(PREC, y, e, cusci__sig_ola_value(PREC, xl, w, nseg, m, rowlen, step, first + j, scale));
  }
}

template <int RP, int OP>
void tiled(cudaStream_t s, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X, void *P)
{
  const int64_t fy = (nfreq + TILE - 1) / TILE;
  const dim3 grid((unsigned)((nseg + TILE - 1) / TILE), (unsigned)(fy > 65535 ? 65535 : fy), (unsigned)(lines > 65535 ? 65535 : lines));
  spectrum_tiled<RP, OP><<<grid, dim3(TILE, TILE_ROWS), 0, s>>>(lines, nseg, nfreq, f, X, P);
}

template <int RP>
int spectrum(cudaStream_t s, int op, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X, void *P, void *work)
{
  switch (op) {
  case CUSCI__SIG_SPEC_POWER: tiled<RP, CUSCI__SIG_SPEC_POWER>(s, lines, nseg, nfreq, f, X, P); break;
  case CUSCI__SIG_SPEC_COMPLEX: tiled<RP, CUSCI__SIG_SPEC_COMPLEX>(s, lines, nseg, nfreq, f, X, P); break;
  case CUSCI__SIG_SPEC_MAGNITUDE: tiled<RP, CUSCI__SIG_SPEC_MAGNITUDE>(s, lines, nseg, nfreq, f, X, P); break;
  case CUSCI__SIG_SPEC_ANGLE: tiled<RP, CUSCI__SIG_SPEC_ANGLE>(s, lines, nseg, nfreq, f, X, P); break;
  case CUSCI__SIG_SPEC_PHASE: spectrum_phase<RP><<<grid_for(lines * nseg, 256), 256, 0, s>>>(lines, nseg, nfreq, X, P); break;
  case CUSCI__SIG_SPEC_POWER_SEGMENTS:
    spectrum_segments<RP><<<grid_for(lines * nseg * nfreq, 256), 256, 0, s>>>(lines * nseg * nfreq, nfreq, f, X, P);
    break;
  default: {
    const int64_t nchunk = (nseg + MEAN_CHUNK - 1) / MEAN_CHUNK, fy = (nfreq + TILE - 1) / TILE;
    const dim3 grid((unsigned)nchunk, (unsigned)(fy > 65535 ? 65535 : fy), (unsigned)(lines > 65535 ? 65535 : lines));
    mean_partial<RP><<<grid, dim3(TILE, TILE_ROWS), 0, s>>>(lines, nseg, nfreq, nchunk, X, (double *)work);
    mean_final<RP><<<grid_for(lines * nfreq, 256), 256, 0, s>>>(lines, nseg, nfreq, nchunk, (const double *)work, f, P);
  }
  }
  return launched();
}

__global__ void lombscargle_kernel(int64_t n, const double *__restrict__ x, const double *__restrict__ y, const double *__restrict__ w, int64_t nf,
                                   const double *__restrict__ freqs, int floating, int norm, void *p)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nf; k += stride)
    cusci__sig_st(norm == CUSCI__SIG_LS_AMPLITUDE ? 3 : 1, p, k, cusci__sig_lombscargle(n, x, y, w, freqs[k], floating, norm));
}

} // namespace

extern "C" int cusci__sig_lombscargle_gpu(void *stream, int64_t n, const double *x, const double *y, const double *w, int64_t nf, const double *freqs,
                                          int floating, int norm, void *p)
{
  if (nf == 0)
    return 0;
  /* a thread per frequency, in blocks of 128 so that short lists still spread */
  lombscargle_kernel<<<grid_for(nf, 128), 128, 0, (cudaStream_t)stream>>>(n, x, y, w, nf, freqs, floating, norm, p);
  return launched();
}

extern "C" int cusci__sig_frames_gpu(void *stream, int prec, int64_t lines, int64_t n, int ext, int64_t ext_n, int64_t nseg, int64_t m, int64_t step,
                                     int trend, const void *w, const void *x, void *y)
{
  if (lines * nseg * m == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const int64_t frames = lines * nseg;
  const unsigned g = (unsigned)(frames > 65535 * 64 ? 65535 * 64 : frames);
  /* a power of two of threads, from a warp to FRAME_THREADS, near m */
  unsigned t = 32;
  while (t < FRAME_THREADS && t < (unsigned)(m < FRAME_THREADS ? m : FRAME_THREADS))
    t *= 2;
  switch (prec) {
  case 0: frames_kernel<0><<<g, t, 0, s>>>(lines, n, ext, ext_n, nseg, m, step, trend, w, x, y); break;
  case 1: frames_kernel<1><<<g, t, 0, s>>>(lines, n, ext, ext_n, nseg, m, step, trend, w, x, y); break;
  case 2: frames_kernel<2><<<g, t, 0, s>>>(lines, n, ext, ext_n, nseg, m, step, trend, w, x, y); break;
  default: frames_kernel<3><<<g, t, 0, s>>>(lines, n, ext, ext_n, nseg, m, step, trend, w, x, y); break;
  }
  return launched();
}

extern "C" int cusci__sig_spectrum_gpu(void *stream, int prec, int op, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X, void *P,
                                       void *work)
{
  if (lines * nfreq == 0)
    return 0;
  if (nseg == 0)
    return (int)cudaErrorInvalidValue;
  cudaStream_t s = (cudaStream_t)stream;
  return prec & 1 ? spectrum<1>(s, op, lines, nseg, nfreq, f, X, P, work) : spectrum<0>(s, op, lines, nseg, nfreq, f, X, P, work);
}

extern "C" int cusci__sig_overlap_add_gpu(void *stream, int prec, int64_t lines, int64_t nseg, int64_t m, int64_t rowlen, int64_t step, int64_t first,
                                          int64_t nout, double scale, const void *w, const void *xs, void *y)
{
  if (lines * nout == 0)
    return 0;
  cudaStream_t s = (cudaStream_t)stream;
  const unsigned g = grid_for(lines * nout, 256);
  switch (prec) {
  case 0: ola_kernel<0><<<g, 256, 0, s>>>(lines, nseg, m, rowlen, step, first, nout, scale, w, xs, y); break;
  case 1: ola_kernel<1><<<g, 256, 0, s>>>(lines, nseg, m, rowlen, step, first, nout, scale, w, xs, y); break;
  case 2: ola_kernel<2><<<g, 256, 0, s>>>(lines, nseg, m, rowlen, step, first, nout, scale, w, xs, y); break;
  default: ola_kernel<3><<<g, 256, 0, s>>>(lines, nseg, m, rowlen, step, first, nout, scale, w, xs, y); break;
  }
  return launched();
}
