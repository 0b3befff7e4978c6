/*
 * kernels/signal/launch.h: cusci-signal's CUDA side as seen from C: cuFFT
 * plans and their execution, and the small kernels around them (the
 * normalisation, the DCT/DST's extension and extraction).
 *
 * Plain C, no CUDA header. A launcher queues work on `stream` (a
 * cudaStream_t) and returns 0 or a code: a cudaError_t, or a cufftResult
 * tagged CUSCI_GPU_CUFFT. Arguments are already checked. Declared through
 * CUSCI_LAUNCHER, so that a build without CUDA has stand-ins.
 */
#ifndef CUSCI_KERNELS_SIGNAL_LAUNCH_H
#define CUSCI_KERNELS_SIGNAL_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <cusci/kit/launchers.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The transforms a cuFFT plan does. */
enum { CUSCI__SIG_C2C = 0, CUSCI__SIG_R2C = 1, CUSCI__SIG_C2R = 2 };

/*
 * A cuFFT plan of `batch` transforms of length n in the advanced layout:
 * element j of transform b at in + b * idist + j * istride (and the same
 * for out), strides in elements of the input's and the output's types.
 * cuFFT allocates no work area: *work is the bytes its executions need.
 * *handle is the cufftHandle. f32: single precision.
 */
CUSCI_LAUNCHER(int cusci__sig_cufft_plan(int op, int f32, int64_t n, int64_t batch, int64_t istride, int64_t idist, int64_t ostride, int64_t odist,
                                   int *handle, size_t *work))
CUSCI_LAUNCHER(int cusci__sig_cufft_destroy(int handle))
/* Run a plan on stream with the given work area; sign -1 forward, +1
 * backward (C2C; R2C is forward and C2R backward). */
CUSCI_LAUNCHER(int cusci__sig_cufft_exec(void *stream, int handle, int op, int f32, int sign, void *work, const void *in, void *out))
/* data[i] = scale * data[i] (conjugated when conj) for n complex (or,
 * real, real) elements of the given single or double precision. */
CUSCI_LAUNCHER(int cusci__sig_scale(void *stream, int f32, int complex_, int64_t n, void *data, double scale, int conj))
/* The imaginary parts of the elements 0 and nyq (-1: none) along the
 * axis of a C-contiguous complex array (outer x len x inner) set to zero:
 * the input of a complex-to-real transform, whose result then is that of
 * the Hermitian input it stands for, as on the host. */
CUSCI_LAUNCHER(int cusci__sig_hermitian(void *stream, int f32, int64_t outer, int64_t len, int64_t inner, int64_t nyq, void *data))
/* bytes zero bytes at p. */
CUSCI_LAUNCHER(int cusci__sig_zero(void *stream, void *p, size_t bytes))
/*
 * The DCT (sine 0) or DST (sine 1) of type 1..4 of `batch` contiguous rows
 * of n reals, through the real transform of a symmetric extension of
 * length len (reference/signal/fft.h): extend writes the rows' extensions
 * (batch x len reals, u) from x, x[0] multiplied by pre0 and x[n - 1] by
 * preN; extract reads the real transform U (batch x (len / 2 + 1) complex)
 * and writes y (batch x n) times scale, y[0] also times post0 and
 * y[n - 1] times postN.
 */
CUSCI_LAUNCHER(int cusci__sig_dct_extend(void *stream, int f32, int type, int sine, int64_t batch, int64_t n, int64_t len, const void *x, void *u,
                                         double pre0, double preN))
CUSCI_LAUNCHER(int cusci__sig_dct_extract(void *stream, int f32, int type, int sine, int64_t batch, int64_t n, int64_t len, const void *U, void *y,
                                          double scale, double post0, double postN))

/*
 * The filters and direct convolution of reference/signal/filter.h on the
 * GPU, with its arguments (device pointers; prec its precision codes, and
 * CUSCI__SIG_U64 for the convolution),
 * its results bit for bit. The direct convolution takes up to
 * CUSCI__SIG_CONV_MAXD dimensions.
 */
#define CUSCI__SIG_CONV_MAXD 8
CUSCI_LAUNCHER(int cusci__sig_lfilter_gpu(void *stream, int prec, int64_t K, const void *coef, int64_t outer, int64_t len, int64_t inner,
                                          const void *x, void *y, void *z))
CUSCI_LAUNCHER(int cusci__sig_sosfilt_gpu(void *stream, int prec, int64_t nsec, int per_channel, const void *sos, int64_t outer, int64_t len,
                                          int64_t inner, const void *x, void *y, void *z))
/*
 * lfilter (sos 0) or sosfilt (sos 1, not per channel) in blocks, as
 * cusci__sig_iir with an anchor (reference/signal/filter.h): M = A^L, r0,
 * sa and u (NULL for a call's start; with carry, kept for the next call)
 * as there (fresh: a stream's first call); work: (cusci__sig_anchor_segments(r0 or 0, len) + 1) N lines
 * elements. N = K or 2 K, at most CUSCI__SIG_IIR_MAXN.
 */
CUSCI_LAUNCHER(int cusci__sig_iir_anchored_gpu(void *stream, int prec, int sos, int64_t K, const void *coef, const void *M, int64_t outer,
                                               int64_t len, int64_t inner, int64_t r0, const void *x, void *y, void *z, void *sa, void *u,
                                               int carry, int fresh, void *work))
CUSCI_LAUNCHER(int cusci__sig_convolve_gpu(void *stream, int prec, int ndim, const int64_t *shape1, const void *in1, const int64_t *shape2,
                                           const void *in2, const int64_t *start, const int64_t *oshape, void *out))
/* upfirdn and order_filter of reference/signal/filter.h on the GPU (mask
 * a device pointer or NULL; kept its non-zeros, or the window's size):
 * a window takes up to CUSCI__SIG_MEDFILT_MAXW values. */
#define CUSCI__SIG_MEDFILT_MAXW 1024
CUSCI_LAUNCHER(int cusci__sig_upfirdn_gpu(void *stream, int prec, int64_t nh, const void *h, int64_t outer, int64_t n, int64_t inner,
                                          const void *x, int64_t up, int64_t down, int64_t i0, int64_t j0, int64_t ntot, int64_t nout, void *y))
CUSCI_LAUNCHER(int cusci__sig_order_gpu(void *stream, int dt, int ndim, const int64_t *shape, const int64_t *ks, const uint8_t *mask, int64_t kept,
                                        int64_t rank, const void *x, void *y))
/* cusci__sig_pad of reference/signal/filter.h on the GPU (up to
 * CUSCI__SIG_CONV_MAXD dimensions). */
CUSCI_LAUNCHER(int cusci__sig_pad_gpu(void *stream, int prec, int ndim, const int64_t *shape, const int64_t *before, const int64_t *oshape, int mode,
                                      double fill_re, double fill_im, const void *x, void *y))
/* The passes of reference/signal/spectral.h on the GPU (device
 * pointers): the frames, the spectrum (work: cusci__sig_mean_work doubles
 * for the mean, else unused) and the overlap-add. */
CUSCI_LAUNCHER(int cusci__sig_frames_gpu(void *stream, int prec, int64_t lines, int64_t n, int ext, int64_t ext_n, int64_t nseg, int64_t m,
                                         int64_t step, int trend, const void *w, const void *x, void *y))
CUSCI_LAUNCHER(int cusci__sig_spectrum_gpu(void *stream, int prec, int op, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X,
                                           void *P, void *work))
CUSCI_LAUNCHER(int cusci__sig_overlap_add_gpu(void *stream, int prec, int64_t lines, int64_t nseg, int64_t m, int64_t rowlen, int64_t step,
                                              int64_t first, int64_t nout, double scale, const void *w, const void *xs, void *y))
CUSCI_LAUNCHER(int cusci__sig_lombscargle_gpu(void *stream, int64_t n, const double *x, const double *y, const double *w, int64_t nf,
                                              const double *freqs, int floating, int norm, void *p))

#ifdef __cplusplus
}
#endif

#endif
