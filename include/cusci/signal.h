/*
 * cusci/signal.h: scipy.signal for C: convolution and correlation,
 * IIR and FIR filtering along an axis of an n-d array (a batch of
 * signals is one call), and filter objects that carry their state from
 * one chunk of a signal to the next, which SciPy lacks. On the GPU and on
 * the host with the same results. Part of cusci-signal (-lcusci-signal,
 * pkg-config cusci-signal), beside cusci/fft.h.
 *
 * Conventions, as scipy.signal's:
 *  - Arrays are of the context's device. bool and integers convert to
 *    float64, float16 to float32; a result has the promoted dtype of its
 *    inputs (float32, float64, complex64 or complex128).
 *  - axis counts from the end when negative; out of range is
 *    CUSCI_ERR_AXIS.
 *  - A result is a new C-contiguous array in *out (*y, *zf, ...) when it
 *    is NULL; a given one must have the result's shape and dtype.
 *
 * Every function returns CUSCI_OK or: CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_DEVICE (an array of another device), CUSCI_ERR_DTYPE,
 * CUSCI_ERR_SHAPE (inputs whose shapes do not fit, named in the message),
 * CUSCI_ERR_VALUE (an empty input, a[0] == 0, a section whose a0 is not
 * 1, a filter whose steady state does not exist, a signal not longer than
 * the padding, non-finite coefficients), CUSCI_ERR_AXIS,
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA, CUSCI_ERR_DEVICE_FAULT.
 */
#ifndef CUSCI_SIGNAL_H
#define CUSCI_SIGNAL_H

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cusci_signal_mode { CUSCI_SIGNAL_FULL = 0, CUSCI_SIGNAL_SAME, CUSCI_SIGNAL_VALID } cusci_signal_mode;
typedef enum cusci_signal_method { CUSCI_SIGNAL_AUTO = 0, CUSCI_SIGNAL_DIRECT, CUSCI_SIGNAL_FFT } cusci_signal_method;
typedef enum cusci_signal_padtype {
  CUSCI_SIGNAL_PAD_ODD = 0,
  CUSCI_SIGNAL_PAD_EVEN,
  CUSCI_SIGNAL_PAD_CONSTANT,
  CUSCI_SIGNAL_PAD_NONE
} cusci_signal_padtype;
typedef struct cusci_signal_filtfilt_opts {
  cusci_signal_padtype padtype;
  int64_t padlen;
  bool gust;
} cusci_signal_filtfilt_opts;

/* ------------------------------------------------ convolution */

/*
 * scipy.signal.convolve and correlate: in1 and in2 of one number of
 * dimensions; FULL is every overlap (n1 + n2 - 1 along each axis), SAME
 * the size of in1, centred as SciPy centres it, VALID the overlaps where
 * one input lies inside the other (one of them must be at least as large
 * as the other along every axis, else CUSCI_ERR_SHAPE). correlate is
 * convolve with in2 reversed and conjugated; in VALID mode with in2 the
 * larger, SciPy's swap (and its conjugated, reversed result). method
 * DIRECT sums the products, FFT goes through the real or complex FFT of
 * fft.h, AUTO picks by size (integer inputs always DIRECT, as SciPy's,
 * their result of their promoted integer dtype, wrapped as NumPy's).
 */
CUSCI_API cusci_status cusci_signal_convolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                             cusci_signal_method method, cusci_array **out);
CUSCI_API cusci_status cusci_signal_correlate(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                              cusci_signal_method method, cusci_array **out);
/* scipy.signal.choose_conv_method: the method CUSCI_SIGNAL_AUTO takes for
 * these inputs (for now the size rule of convolve, not a measured cost
 * model). */
CUSCI_API cusci_status cusci_signal_choose_conv_method(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                                       cusci_signal_method *method);
/*
 * scipy.signal.fftconvolve over naxes axes (naxes 0 and axes NULL: every
 * axis); along the other axes in1 and in2 broadcast (each extent equal or
 * 1). The transforms are of a fast length (next_fast_len).
 */
CUSCI_API cusci_status cusci_signal_fftconvolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                                int naxes, const int *axes, cusci_array **out);
/* The boundaries of convolve2d and correlate2d: in1 extended by a fill
 * value, periodically, or by its mirror image (the edge repeated). */
typedef enum cusci_signal_boundary {
  CUSCI_SIGNAL_BOUNDARY_FILL = 0,
  CUSCI_SIGNAL_BOUNDARY_WRAP,
  CUSCI_SIGNAL_BOUNDARY_SYMM
} cusci_signal_boundary;
/* scipy.signal.convolve2d and correlate2d: 2-D inputs, the direct method,
 * in1 extended beyond its edges as boundary (fillvalue for FILL) in FULL
 * and SAME modes. */
CUSCI_API cusci_status cusci_signal_convolve2d(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                               cusci_signal_boundary boundary, double fillvalue, cusci_array **out);
CUSCI_API cusci_status cusci_signal_correlate2d(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode,
                                                cusci_signal_boundary boundary, double fillvalue, cusci_array **out);
/* scipy.signal.oaconvolve: the overlap-add method over naxes axes (0 and
 * NULL: all), as fftconvolve's conventions: along one axis where in2 is
 * much the shorter, in1 in blocks of a fast transform length several
 * times in2's; else (several axes, inputs of like length) fftconvolve's
 * single transform. */
CUSCI_API cusci_status cusci_signal_oaconvolve(cusci_ctx *ctx, const cusci_array *in1, const cusci_array *in2, cusci_signal_mode mode, int naxes,
                                               const int *axes, cusci_array **out);
/* scipy.signal.sepfir2d: the 2-D input convolved along its rows with hrow
 * and along its columns with hcol (both 1-D of odd length), extended
 * symmetrically beyond its edges (the edge repeated), which needs half a
 * filter shorter than the input along its axis; input's shape. */
CUSCI_API cusci_status cusci_signal_sepfir2d(cusci_ctx *ctx, const cusci_array *input, const cusci_array *hrow, const cusci_array *hcol,
                                             cusci_array **out);
/* scipy.signal.correlation_lags: the lags of a 1-D correlate of inputs of
 * lengths n1 and n2 in mode, an int64 array of ctx's device. */
CUSCI_API cusci_status cusci_signal_correlation_lags(cusci_ctx *ctx, int64_t n1, int64_t n2, cusci_signal_mode mode, cusci_array **out);

/* ------------------------------------------------ resampling */

/*
 * scipy.signal.upfirdn: x along axis upsampled by up (up - 1 zeros after
 * each sample), filtered by the FIR filter h (1-D), downsampled by down:
 * ((n - 1) up + len(h) - 1) / down + 1 samples. The dtype is that of h, x
 * and float32 promoted (integers as float64).
 */
CUSCI_API cusci_status cusci_signal_upfirdn(cusci_ctx *ctx, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int axis,
                                            cusci_array **out);
/*
 * scipy.signal.resample_poly with SciPy's defaults: up and down reduced
 * by their gcd; the FIR filter firwin(20 max(up, down) + 1, 1 /
 * max(up, down)) with a Kaiser window of beta 5, in x's dtype (integers:
 * float64), times up; zero padding (padtype constant). ceil(n up / down)
 * samples; equal rates give a copy of x.
 */
CUSCI_API cusci_status cusci_signal_resample_poly(cusci_ctx *ctx, const cusci_array *x, int64_t up, int64_t down, int axis, cusci_array **out);
typedef enum cusci_signal_ftype { CUSCI_SIGNAL_FTYPE_IIR = 0, CUSCI_SIGNAL_FTYPE_FIR } cusci_signal_ftype;
/*
 * scipy.signal.decimate: x along axis low-pass filtered and every q-th
 * sample kept. IIR: a Chebyshev type I filter of order n (0: 8), 0.05 dB
 * ripple, cutoff 0.8 / q, as sections, through sosfiltfilt (zero_phase) or
 * sosfilt. FIR: firwin(n + 1, 1 / q) with a Hamming window (n 0: 20 q),
 * through resample_poly (zero_phase) or upfirdn. float32, float64,
 * complex64 and complex128 stay; other dtypes give float64.
 */
CUSCI_API cusci_status cusci_signal_decimate(cusci_ctx *ctx, const cusci_array *x, int64_t q, int64_t n, cusci_signal_ftype ftype, bool zero_phase,
                                             int axis, cusci_array **out);
/* upfirdn's extensions of the signal beyond its ends (SciPy's mode):
 * cval; the edge repeated in the mirror image (symmetric) or not
 * (reflect); the edge; periodic; the symmetric image negated
 * (antisymmetric); twice the edge less the reflected image (antireflect);
 * the line through the first and last samples; the line of the two
 * samples at each end (smooth). The last four need the signal longer than
 * the filter's reach, ceil(len(h) / up) samples. */
typedef enum cusci_signal_ext {
  CUSCI_SIGNAL_EXT_CONSTANT = 0,
  CUSCI_SIGNAL_EXT_SYMMETRIC,
  CUSCI_SIGNAL_EXT_REFLECT,
  CUSCI_SIGNAL_EXT_EDGE,
  CUSCI_SIGNAL_EXT_WRAP,
  CUSCI_SIGNAL_EXT_ANTISYMMETRIC,
  CUSCI_SIGNAL_EXT_ANTIREFLECT,
  CUSCI_SIGNAL_EXT_LINE,
  CUSCI_SIGNAL_EXT_SMOOTH
} cusci_signal_ext;
/* scipy.signal.upfirdn with its mode and cval (for the constant). */
CUSCI_API cusci_status cusci_signal_upfirdn_ex(cusci_ctx *ctx, const cusci_array *h, const cusci_array *x, int64_t up, int64_t down, int axis,
                                               cusci_signal_ext mode, double cval, cusci_array **out);
/* resample_poly's padtype: a constant beyond the ends, the signal less its
 * mean, median, minimum or maximum along axis (put back after), or one of
 * upfirdn's extensions. */
typedef enum cusci_signal_poly_pad {
  CUSCI_SIGNAL_POLY_PAD_CONSTANT = 0,
  CUSCI_SIGNAL_POLY_PAD_MEAN,
  CUSCI_SIGNAL_POLY_PAD_MEDIAN,
  CUSCI_SIGNAL_POLY_PAD_MINIMUM,
  CUSCI_SIGNAL_POLY_PAD_MAXIMUM,
  CUSCI_SIGNAL_POLY_PAD_SYMMETRIC,
  CUSCI_SIGNAL_POLY_PAD_REFLECT,
  CUSCI_SIGNAL_POLY_PAD_EDGE,
  CUSCI_SIGNAL_POLY_PAD_WRAP,
  CUSCI_SIGNAL_POLY_PAD_ANTISYMMETRIC,
  CUSCI_SIGNAL_POLY_PAD_ANTIREFLECT,
  CUSCI_SIGNAL_POLY_PAD_LINE,
  CUSCI_SIGNAL_POLY_PAD_SMOOTH
} cusci_signal_poly_pad;
/* resample_poly with SciPy's window given as the FIR filter's taps
 * (window NULL: the default design), padtype and, for the constant one,
 * the value cval beyond the ends (0: SciPy's cval None). */
CUSCI_API cusci_status cusci_signal_resample_poly_ex(cusci_ctx *ctx, const cusci_array *x, int64_t up, int64_t down, int axis,
                                                     const cusci_array *window, cusci_signal_poly_pad padtype, double cval, cusci_array **out);
/* scipy.signal.resample: num samples along axis by the Fourier method
 * (the real transform for real x), without a window. */
CUSCI_API cusci_status cusci_signal_resample(cusci_ctx *ctx, const cusci_array *x, int64_t num, int axis, cusci_array **out);
/* scipy.signal.hilbert: the analytic signal of real x along axis through
 * an FFT of n points (0: x's length); complex. */
CUSCI_API cusci_status cusci_signal_hilbert(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_array **out);
/* scipy.signal.hilbert2: the 2-D analytic signal of real x over two axes
 * (NULL: the last two) through an FFT of N points along each (NULL:
 * x's lengths); as SciPy's, the Nyquist bin of an even N is dropped. */
CUSCI_API cusci_status cusci_signal_hilbert2(cusci_ctx *ctx, const cusci_array *x, const int64_t *N, const int *axes, cusci_array **out);
typedef enum cusci_signal_residual {
  CUSCI_SIGNAL_RESIDUAL_LOWPASS = 0,
  CUSCI_SIGNAL_RESIDUAL_ALL,
  CUSCI_SIGNAL_RESIDUAL_NONE
} cusci_signal_residual;
/*
 * scipy.signal.envelope (SciPy 1.15): the magnitude (squared: its square)
 * of the analytic signal of z's spectral band bp_in = [start, stop) (bins,
 * negative from the end; NULL or CUSCI_SLICE_NONE entries: SciPy's None,
 * the default (1, None) being the positive frequencies), at n_out points
 * (0: z's length) along axis; with residual LOWPASS or ALL, stacked on a
 * new first axis of 2 with the signal less the band (and, lowpass, less
 * the frequencies above it), as SciPy's.
 */
CUSCI_API cusci_status cusci_signal_envelope(cusci_ctx *ctx, const cusci_array *z, const int64_t *bp_in, int64_t n_out, bool squared,
                                             cusci_signal_residual residual, int axis, cusci_array **out);
/*
 * scipy.signal.medfilt: each element the median of its window, zeros
 * outside the array; kernel_size: nk sizes, one per axis or (nk 1) the
 * same on every axis, each odd; NULL is 3. x of an integer dtype, float32
 * or float64; the result of x's dtype. On a GPU a window has at most 1024
 * values.
 */
CUSCI_API cusci_status cusci_signal_medfilt(cusci_ctx *ctx, const cusci_array *x, int nk, const int64_t *kernel_size, cusci_array **out);
/* scipy.signal.medfilt2d: medfilt of a 2-D array. */
CUSCI_API cusci_status cusci_signal_medfilt2d(cusci_ctx *ctx, const cusci_array *x, int nk, const int64_t *kernel_size, cusci_array **out);
/*
 * scipy.signal.order_filter: each element the rank-th smallest (from 0)
 * of the elements of its window where domain (a's number of dimensions,
 * each extent odd) is not zero, zeros outside the array; a's dtype as
 * medfilt's.
 */
CUSCI_API cusci_status cusci_signal_order_filter(cusci_ctx *ctx, const cusci_array *a, const cusci_array *domain, int64_t rank, cusci_array **out);

/* ------------------------------------------------ trends and noise */

typedef enum cusci_signal_trend { CUSCI_SIGNAL_TREND_LINEAR = 0, CUSCI_SIGNAL_TREND_CONSTANT } cusci_signal_trend;
/*
 * scipy.signal.detrend: data less its mean (CONSTANT) or less its least-
 * squares line (LINEAR) along axis, the line fitted piecewise between the
 * nbp breakpoints bp (indices from 0 to the length). float32, float64,
 * complex64 and complex128 stay; other dtypes give float64.
 */
CUSCI_API cusci_status cusci_signal_detrend(cusci_ctx *ctx, const cusci_array *data, int axis, cusci_signal_trend type, int nbp, const int64_t *bp,
                                            cusci_array **out);
/*
 * scipy.signal.wiener: each element moved towards its window's mean (nk
 * sizes, one per axis or one for all; NULL: 3) by 1 - noise / the window's
 * variance, or the mean itself where the variance is below the noise;
 * noise NULL is the mean of the local variances.
 */
CUSCI_API cusci_status cusci_signal_wiener(cusci_ctx *ctx, const cusci_array *im, int nk, const int64_t *mysize, const double *noise, cusci_array **out);

/* ------------------------------------------------ Savitzky-Golay */

/* scipy.signal.savgol_coeffs for convolution (use "conv"), centred (pos
 * None): float64, window_length values. */
CUSCI_API cusci_status cusci_signal_savgol_coeffs(cusci_ctx *ctx, int64_t window_length, int64_t polyorder, int64_t deriv, double delta,
                                                  cusci_array **out);
typedef enum cusci_signal_savgol_mode {
  CUSCI_SIGNAL_SAVGOL_INTERP = 0,
  CUSCI_SIGNAL_SAVGOL_MIRROR,
  CUSCI_SIGNAL_SAVGOL_CONSTANT,
  CUSCI_SIGNAL_SAVGOL_NEAREST,
  CUSCI_SIGNAL_SAVGOL_WRAP
} cusci_signal_savgol_mode;
/*
 * scipy.signal.savgol_filter: x (real; float32 stays, others float64)
 * along axis convolved with savgol_coeffs, extended as mode (ndimage's
 * mirror, constant with cval, nearest, wrap); INTERP (SciPy's default)
 * fits the polynomial to the first and last windows for the outputs
 * within window_length / 2 of each end, and needs window_length <= the
 * length.
 */
CUSCI_API cusci_status cusci_signal_savgol_filter(cusci_ctx *ctx, const cusci_array *x, int64_t window_length, int64_t polyorder, int64_t deriv,
                                                  double delta, int axis, cusci_signal_savgol_mode mode, double cval, cusci_array **out);

/*
 * scipy.signal.symiirorder1: the smoothing filter c0 / ((1 - z1 z^-1)
 * (1 - z1 z)) of a 1-D input or of each row of a 2-D one, forward then
 * backward, with mirror-symmetric boundaries, the start's infinite sum cut
 * at the first power of z1 below precision (0 or less: 1e-6 in single,
 * 1e-11 in double precision, as SciPy's), which the signal must be long
 * enough to reach. |z1| < 1; real c0 and z1.
 */
CUSCI_API cusci_status cusci_signal_symiirorder1(cusci_ctx *ctx, const cusci_array *input, double c0, double z1, double precision, cusci_array **out);
/*
 * scipy.signal.symiirorder2: the smoothing filter of two second-order
 * sections, cs / (1 - a2 z^-1 - a3 z^-2) forward and its mirror backward
 * (a2 = 2 r cos(omega), a3 = -r^2, cs = 1 - a2 - a3), of a real 1-D input or
 * of each row of a 2-D one, with SciPy's mirror-symmetric starts cut at
 * precision (as symiirorder1's). r < 1.
 */
CUSCI_API cusci_status cusci_signal_symiirorder2(cusci_ctx *ctx, const cusci_array *input, double r, double omega, double precision, cusci_array **out);

/* ------------------------------------------------ IIR and FIR filters */

/*
 * scipy.signal.lfilter: y along axis of x through the filter of numerator
 * b and denominator a (1-D, a[0] != 0; both divided by a[0]), in the
 * transposed direct form II. zi is the initial state, NULL for zeros,
 * else of x's shape with axis of length K = max(len(a), len(b)) - 1
 * (extents of 1 broadcast); zf, when not NULL, gets the final state in
 * that shape (SciPy gives it only with a zi).
 */
CUSCI_API cusci_status cusci_signal_lfilter(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *x, int axis,
                                            const cusci_array *zi, cusci_array **y, cusci_array **zf);
/*
 * scipy.signal.sosfilt: second-order sections, sos of shape
 * (n_sections, 6) rows [b0 b1 b2 1 a1 a2], or (channels, n_sections, 6):
 * a filter per signal, x's extents other than axis flattened to channels
 * signals (which SciPy cannot do). zi: (n_sections, x's shape with axis
 * of length 2), as SciPy's.
 */
CUSCI_API cusci_status cusci_signal_sosfilt(cusci_ctx *ctx, const cusci_array *sos, const cusci_array *x, int axis, const cusci_array *zi,
                                            cusci_array **y, cusci_array **zf);
/*
 * scipy.signal.filtfilt and sosfiltfilt: forward and backward, zero phase,
 * the signal extended at both ends by padlen samples (0: SciPy's default,
 * 3 * max(len(a), len(b)), or for sections 3 * (2 n_sections + 1, less
 * the sections of order one)) of padtype, each pass started in the steady
 * state of its first sample. opts NULL: odd padding of the default
 * length. gust (filtfilt only, as SciPy's method="gust"): Gustafsson's
 * initial states instead of padding, over the whole impulse response.
 */
CUSCI_API cusci_status cusci_signal_filtfilt(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *x, int axis,
                                             const cusci_signal_filtfilt_opts *opts, cusci_array **y);
CUSCI_API cusci_status cusci_signal_sosfiltfilt(cusci_ctx *ctx, const cusci_array *sos, const cusci_array *x, int axis,
                                                const cusci_signal_filtfilt_opts *opts, cusci_array **y);
/* scipy.signal.lfilter_zi: the state (length K) of lfilter's steady state
 * for a unit step; CUSCI_ERR_VALUE where sum(a) == 0 (no steady state). */
CUSCI_API cusci_status cusci_signal_lfilter_zi(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **zi);
/* scipy.signal.sosfilt_zi: (n_sections, 2), each section's steady state
 * scaled by the gain of the sections before it. */
CUSCI_API cusci_status cusci_signal_sosfilt_zi(cusci_ctx *ctx, const cusci_array *sos, cusci_array **zi);

/* scipy.signal.lfiltic: lfilter's initial state (length max(len(a),
 * len(b)) - 1) that past outputs y (most recent first) and inputs x (NULL:
 * zeros) imply; shorter y and x are padded with zeros. */
CUSCI_API cusci_status cusci_signal_lfiltic(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_array *y, const cusci_array *x,
                                            cusci_array **zi);
/* scipy.signal.deconvolve: signal = convolve(divisor, quot) + rem, both
 * 1-D and not empty; a divisor longer than the signal gives an empty quot
 * and rem = signal. */
CUSCI_API cusci_status cusci_signal_deconvolve(cusci_ctx *ctx, const cusci_array *signal, const cusci_array *divisor, cusci_array **quot,
                                               cusci_array **rem);

/* ------------------------------------------------ streaming filters */

/*
 * A filter that keeps its state between calls: made for coefficients, a
 * chunk's shape (the extent along axis is any; the others fixed) and a
 * dtype; each cusci_signal_filter_process of a chunk gives that chunk's
 * output, and the outputs end to end are bit for bit those of one call
 * over the whole signal. The state lives on ctx's device.
 */
typedef struct cusci_signal_filter cusci_signal_filter;
/* lfilter's coefficients; zi as lfilter's (for a chunk's shape), or NULL
 * for zero state. */
CUSCI_API cusci_status cusci_signal_filter_create_lfilter(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, int ndim,
                                                          const int64_t *shape, int axis, cusci_dtype dtype, const cusci_array *zi,
                                                          cusci_signal_filter **f);
/* sosfilt's sections (either shape), zi as sosfilt's or NULL. */
CUSCI_API cusci_status cusci_signal_filter_create_sosfilt(cusci_ctx *ctx, const cusci_array *sos, int ndim, const int64_t *shape, int axis,
                                                          cusci_dtype dtype, const cusci_array *zi, cusci_signal_filter **f);
/* The output of the next chunk x (the filter's shape, any length along
 * its axis, a dtype that converts to the filter's). */
CUSCI_API cusci_status cusci_signal_filter_process(cusci_ctx *ctx, cusci_signal_filter *f, const cusci_array *x, cusci_array **y);
/* A copy of the state, in the layout of lfilter's or sosfilt's zf for a
 * chunk of the filter's shape. */
CUSCI_API cusci_status cusci_signal_filter_state(cusci_ctx *ctx, const cusci_signal_filter *f, cusci_array **zf);
/* Back to the state zi (NULL: zero). */
CUSCI_API cusci_status cusci_signal_filter_reset(cusci_ctx *ctx, cusci_signal_filter *f, const cusci_array *zi);
CUSCI_API void cusci_signal_filter_destroy(cusci_signal_filter *f);

/* ------------------------------------------------ streaming resamplers */

/*
 * upfirdn and resample_poly over a signal that comes in chunks (which
 * SciPy lacks): made for the filter and rates, a chunk's shape (any extent
 * along axis) and a dtype; each process gives the outputs that the chunk
 * completes, finish the rest (the filter's tail), and the outputs end to
 * end are the one-shot call's, bit for bit, for finite inputs. The state
 * (the last inputs of each signal) lives on ctx's device. After finish,
 * reset before a new signal. resample_poly's stream of equal rates gives
 * x converted to its compute dtype (the one-shot call keeps x's).
 */
typedef struct cusci_signal_resampler cusci_signal_resampler;
CUSCI_API cusci_status cusci_signal_resampler_create_upfirdn(cusci_ctx *ctx, const cusci_array *h, int64_t up, int64_t down, int ndim,
                                                             const int64_t *shape, int axis, cusci_dtype dtype, cusci_signal_resampler **r);
CUSCI_API cusci_status cusci_signal_resampler_create_poly(cusci_ctx *ctx, int64_t up, int64_t down, int ndim, const int64_t *shape, int axis,
                                                          cusci_dtype dtype, cusci_signal_resampler **r);
CUSCI_API cusci_status cusci_signal_resampler_process(cusci_ctx *ctx, cusci_signal_resampler *r, const cusci_array *x, cusci_array **y);
CUSCI_API cusci_status cusci_signal_resampler_finish(cusci_ctx *ctx, cusci_signal_resampler *r, cusci_array **y);
CUSCI_API cusci_status cusci_signal_resampler_reset(cusci_ctx *ctx, cusci_signal_resampler *r);
CUSCI_API void cusci_signal_resampler_destroy(cusci_signal_resampler *r);

/* ------------------------------------------------ filter design
 *
 * Design runs on the host in float64 and returns float64 arrays (zeros
 * and poles complex128) on the context's device, ready for sosfilt and
 * lfilter. Frequencies are relative to Nyquist (= 1) when opts->fs is 0,
 * as SciPy's fs=None, else in the units of fs; analog filters take
 * angular frequencies (rad/s) and no fs. Besides the common statuses:
 * CUSCI_ERR_VALUE for an order below 1, nwn not 1 for lowpass/highpass or
 * 2 for bandpass/bandstop, a digital Wn outside (0, 1) (or (0, fs/2)), a
 * band whose edges do not increase, more zeros than poles, a complex value
 * without its conjugate; each message names the function and the value.
 * (SciPy accepts order 0, the identity filter; cusci refuses it.)
 */
typedef enum cusci_signal_btype { CUSCI_SIGNAL_LOWPASS = 0, CUSCI_SIGNAL_HIGHPASS, CUSCI_SIGNAL_BANDPASS, CUSCI_SIGNAL_BANDSTOP } cusci_signal_btype;
typedef struct cusci_signal_iir_opts {
  bool analog;
  double fs; /* 0: Wn relative to Nyquist = 1, as SciPy's fs=None */
} cusci_signal_iir_opts;
/* zpk2sos's pairing: DEFAULT is SciPy's None (nearest for digital
 * filters, minimal for analog ones). */
typedef enum cusci_signal_pairing {
  CUSCI_SIGNAL_PAIRING_DEFAULT = 0,
  CUSCI_SIGNAL_PAIRING_NEAREST,
  CUSCI_SIGNAL_PAIRING_KEEP_ODD,
  CUSCI_SIGNAL_PAIRING_MINIMAL
} cusci_signal_pairing;

/*
 * scipy.signal.butter in its three outputs: sos (n_sections, 6), b and a
 * (N + 1 coefficients, 2N + 1 for band filters), or the zeros and poles
 * (complex128) and the gain. nwn is 1 (lowpass, highpass) or 2 (bandpass,
 * bandstop: Wn[0] < Wn[1]).
 */
CUSCI_API cusci_status cusci_signal_butter_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_butter_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype,
                                              const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_butter_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k);
/*
 * A bank of Butterworth filters in one call, which SciPy cannot do: filter
 * i has order N[i] and edges Wn[i * nwn .. i * nwn + nwn). The result
 * (nfilt, n_sections, 6) holds each filter's sections, the shorter ones
 * followed by identity sections [1 0 0 1 0 0]: the per-signal form of
 * sosfilt's sos. Filter i equals butter_sos of its own order and edges.
 */
CUSCI_API cusci_status cusci_signal_butter_sos_bank(cusci_ctx *ctx, int64_t nfilt, const int *N, int nwn, const double *Wn,
                                                    cusci_signal_btype btype, const cusci_signal_iir_opts *opts, cusci_array **sos);
/* scipy.signal.buttap: the analog prototype's N poles (no zeros, k 1). */
CUSCI_API cusci_status cusci_signal_buttap(cusci_ctx *ctx, int N, cusci_array **z, cusci_array **p, double *k);
/*
 * The other IIR families, each in the same three outputs as butter's and
 * with the same checks: scipy.signal.cheby1 (rp dB of passband ripple),
 * cheby2 (rs dB of stopband attenuation), ellip (both), bessel (norm:
 * PHASE, SciPy's default, matches the phase of the Butterworth filter
 * with the same Wn; DELAY gives a group delay of 1/Wn; MAG a gain of
 * -3 dB at Wn), and iirfilter, which designs any of them by ftype (rp and
 * rs read only by the families that use them). rp and rs must be
 * positive and finite (CUSCI_ERR_VALUE, as SciPy's); ellip refuses a
 * ripple and attenuation no elliptic filter meets. The Bessel orders stop
 * where the gain overflows a double (about 150) for DELAY and MAG.
 */
typedef enum cusci_signal_iir_type {
  CUSCI_SIGNAL_BUTTER = 0,
  CUSCI_SIGNAL_CHEBY1,
  CUSCI_SIGNAL_CHEBY2,
  CUSCI_SIGNAL_ELLIP,
  CUSCI_SIGNAL_BESSEL_PHASE, /* SciPy's 'bessel' and 'bessel_phase' */
  CUSCI_SIGNAL_BESSEL_DELAY,
  CUSCI_SIGNAL_BESSEL_MAG
} cusci_signal_iir_type;
typedef enum cusci_signal_bessel_norm { CUSCI_SIGNAL_NORM_PHASE = 0, CUSCI_SIGNAL_NORM_DELAY, CUSCI_SIGNAL_NORM_MAG } cusci_signal_bessel_norm;

CUSCI_API cusci_status cusci_signal_iirfilter_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                                  cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_iirfilter_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                                 cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_iirfilter_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                                  cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p,
                                                  double *k);
CUSCI_API cusci_status cusci_signal_cheby1_sos(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_cheby1_ba(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                              const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_cheby1_zpk(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_cheby2_sos(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_cheby2_ba(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                              const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_cheby2_zpk(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                               const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_ellip_sos(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                              const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_ellip_ba(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                             const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_ellip_zpk(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                              const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_bessel_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                               const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_bessel_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                              const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_bessel_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                               const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k);
/* A bank of any family, as butter_sos_bank (which is this with BUTTER). */
CUSCI_API cusci_status cusci_signal_iirfilter_sos_bank(cusci_ctx *ctx, int64_t nfilt, const int *N, int nwn, const double *Wn, double rp, double rs,
                                                       cusci_signal_btype btype, cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts,
                                                       cusci_array **sos);
/*
 * Order selection, scipy.signal's buttord, cheb1ord, cheb2ord and
 * ellipord: the lowest order *N of the family that loses at most gpass dB
 * in the passband and attenuates at least gstop dB in the stopband
 * (0 < gpass < gstop), and the critical frequencies Wn (nwn of them, in
 * the units of wp and ws) that the family's design takes for it. nwn 1: a
 * lowpass when wp < ws, else a highpass; nwn 2: a bandpass when ws[0] <
 * wp[0] < wp[1] < ws[1], a bandstop when wp[0] < ws[0] < ws[1] < wp[1]
 * (a bandstop's passband edges are moved to need the lowest order, as
 * SciPy does). opts as the designs' (analog: rad/s; fs: Hz).
 */
CUSCI_API cusci_status cusci_signal_buttord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                            const cusci_signal_iir_opts *opts, int *N, double *Wn);
CUSCI_API cusci_status cusci_signal_cheb1ord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                             const cusci_signal_iir_opts *opts, int *N, double *Wn);
CUSCI_API cusci_status cusci_signal_cheb2ord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                             const cusci_signal_iir_opts *opts, int *N, double *Wn);
CUSCI_API cusci_status cusci_signal_ellipord(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                             const cusci_signal_iir_opts *opts, int *N, double *Wn);
/*
 * scipy.signal.iirdesign: the order selection of ftype (Butterworth,
 * Chebyshev I or II, elliptic; Bessel has none), then iirfilter of that
 * order with rp = gpass, rs = gstop and the band type that wp and ws
 * imply, in each of the three forms.
 */
CUSCI_API cusci_status cusci_signal_iirdesign_sos(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                                  cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos);
CUSCI_API cusci_status cusci_signal_iirdesign_ba(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                                 cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_iirdesign_zpk(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                                  cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p,
                                                  double *k);
/*
 * The analog lowpass prototypes (cutoff 1 rad/s) of scipy.signal, in
 * SciPy's order of zeros and poles: cheb1ap (N poles), cheb2ap (N poles,
 * N or N - 1 zeros on the imaginary axis), ellipap (N poles, N or N - 1
 * zeros), besselap (N poles). N 0 gives no zeros or poles and SciPy's gain.
 */
CUSCI_API cusci_status cusci_signal_cheb1ap(cusci_ctx *ctx, int N, double rp, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_cheb2ap(cusci_ctx *ctx, int N, double rs, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_ellipap(cusci_ctx *ctx, int N, double rp, double rs, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_besselap(cusci_ctx *ctx, int N, cusci_signal_bessel_norm norm, cusci_array **z, cusci_array **p, double *k);
/*
 * The zpk transforms of scipy.signal, on 1-d z and p of any dtype (as
 * complex128): lp2lp_zpk, lp2hp_zpk (wo), lp2bp_zpk, lp2bs_zpk (wo, bw),
 * bilinear_zpk (fs). The results are new complex128 arrays.
 */
CUSCI_API cusci_status cusci_signal_lp2lp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, cusci_array **zo,
                                              cusci_array **po, double *ko);
CUSCI_API cusci_status cusci_signal_lp2hp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, cusci_array **zo,
                                              cusci_array **po, double *ko);
CUSCI_API cusci_status cusci_signal_lp2bp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, double bw,
                                              cusci_array **zo, cusci_array **po, double *ko);
CUSCI_API cusci_status cusci_signal_lp2bs_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, double bw,
                                              cusci_array **zo, cusci_array **po, double *ko);
CUSCI_API cusci_status cusci_signal_bilinear_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double fs, cusci_array **zo,
                                                 cusci_array **po, double *ko);
/*
 * scipy.signal.zpk2tf: b = k poly(z), a = poly(p), float64 when the roots
 * come in conjugate pairs (as NumPy's poly decides), else complex128.
 */
CUSCI_API cusci_status cusci_signal_zpk2tf(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_array **b, cusci_array **a);
/*
 * scipy.signal.zpk2sos: (n_sections, 6) float64, SciPy's pairing of poles
 * with zeros and order of sections (the poles nearest the unit circle, or
 * for analog systems the imaginary axis, last). Analog systems take the
 * minimal pairing only.
 */
CUSCI_API cusci_status cusci_signal_zpk2sos(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_signal_pairing pairing,
                                            bool analog, cusci_array **sos);

/*
 * Conversions between the forms of a linear system, as scipy.signal's, on
 * real systems (a complex b, a, A, B, C or D is CUSCI_ERR_DTYPE), on the
 * host in float64, the results on the context's device:
 *  - tf2zpk: b and a (1-d) normalized as SciPy's normalize (a's leading
 *    zeros trimmed, both divided by a[0], b's leading coefficients within
 *    1e-14 of zero trimmed), k = b[0], z and p the roots of b / k and a
 *    (numpy.roots: float64 when all are real, else complex128). The roots
 *    are the eigenvalues of the companion matrices, found as LAPACK's
 *    dgeev finds them; they equal NumPy's to rounding, in an order that
 *    may differ. An all-zero a is CUSCI_ERR_VALUE.
 *  - tf2sos: zpk2sos(tf2zpk(b, a)), the pairing as zpk2sos's.
 *  - sos2tf: the products of the sections' numerators and denominators
 *    (float64, each product without leading zeros, as numpy.polymul).
 *  - sos2zpk: 2 n_sections zeros and poles (complex128; a section with
 *    fewer than two gives zeros at 0 in their place), k the gains'
 *    product.
 *  - tf2ss: the controller canonical form; b 1-d, or 2-d with one
 *    numerator a row (outputs). A (K-1 x K-1), B (K-1 x 1), C (q x K-1), D
 *    (q x 1) for a of K coefficients after normalizing; more numerator
 *    than denominator coefficients is CUSCI_ERR_VALUE (improper).
 *  - ss2tf: for input `input`, num (q x n+1) and den (n+1), den the
 *    characteristic polynomial of A. Any of A, B, C, D may be NULL (SciPy's
 *    None) where the others give the dimensions; 0-d and 1-d arrays are
 *    taken as numpy.atleast_2d takes them. A system without states gives
 *    num (q x 1) = D's column and den [1] (SciPy: a 1-d num and a 0-d den).
 *  - zpk2ss: tf2ss(zpk2tf(z, p, k)); zeros or poles without their
 *    conjugates are CUSCI_ERR_VALUE.
 *  - ss2zpk: tf2zpk(ss2tf(...)), for a system of one output.
 */
CUSCI_API cusci_status cusci_signal_tf2zpk(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_tf2sos(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_signal_pairing pairing, bool analog,
                                           cusci_array **sos);
CUSCI_API cusci_status cusci_signal_sos2tf(cusci_ctx *ctx, const cusci_array *sos, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_sos2zpk(cusci_ctx *ctx, const cusci_array *sos, cusci_array **z, cusci_array **p, double *k);
CUSCI_API cusci_status cusci_signal_tf2ss(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, cusci_array **A, cusci_array **B,
                                          cusci_array **C, cusci_array **D);
CUSCI_API cusci_status cusci_signal_ss2tf(cusci_ctx *ctx, const cusci_array *A, const cusci_array *B, const cusci_array *C, const cusci_array *D,
                                          int64_t input, cusci_array **num, cusci_array **den);
CUSCI_API cusci_status cusci_signal_zpk2ss(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_array **A, cusci_array **B,
                                           cusci_array **C, cusci_array **D);
CUSCI_API cusci_status cusci_signal_ss2zpk(cusci_ctx *ctx, const cusci_array *A, const cusci_array *B, const cusci_array *C, const cusci_array *D,
                                           int64_t input, cusci_array **z, cusci_array **p, double *k);

/* ------------------------------------------------ spectral analysis */

/* The segments' detrending (as cusci_signal_detrend's), CONSTANT the default. */
typedef enum cusci_signal_segment_trend {
  CUSCI_SIGNAL_DETREND_CONSTANT = 0,
  CUSCI_SIGNAL_DETREND_LINEAR,
  CUSCI_SIGNAL_DETREND_NONE
} cusci_signal_segment_trend;
typedef enum cusci_signal_scaling { CUSCI_SIGNAL_SCALING_DENSITY = 0, CUSCI_SIGNAL_SCALING_SPECTRUM } cusci_signal_scaling;
typedef enum cusci_signal_average { CUSCI_SIGNAL_AVERAGE_MEAN = 0, CUSCI_SIGNAL_AVERAGE_MEDIAN } cusci_signal_average;
/* noverlap's value for segments that do not overlap (0 is the default). */
#define CUSCI_SIGNAL_NO_OVERLAP (-1)
typedef struct cusci_signal_spectral_opts {
  const char *window;         /* NULL: "hann" (periodogram: "boxcar"); get_window's names, periodic */
  const cusci_array *win;     /* or the window's values (1-d, its length nperseg) */
  int64_t noverlap;           /* 0: nperseg / 2; CUSCI_SIGNAL_NO_OVERLAP: none */
  int64_t nfft;               /* 0: nperseg; more pads each segment with zeros */
  cusci_signal_segment_trend detrend;
  bool return_twosided;       /* SciPy's return_onesided=False (complex input is always two-sided) */
  cusci_signal_scaling scaling;
  cusci_signal_average average;
} cusci_signal_spectral_opts;
/*
 * Spectral estimates as scipy.signal's, along axis of x (any shape; real
 * or complex), on x's device: Welch's method over segments of nperseg
 * samples (0: 256, or the whole line when it is shorter), each detrended,
 * windowed and transformed (nfft points), the power scaled as a density
 * (V^2/Hz, fs in Hz, positive) or a spectrum (V^2) and averaged over the
 * segments; one-sided for real input (all but DC and Nyquist doubled).
 * f: the frequencies (float64, as numpy.fft.rfftfreq or fftfreq); pxx:
 * x's shape with the frequencies along axis, float32 for float32 and
 * complex64 input, else float64.
 *  - welch: the power spectral density.
 *  - csd: the cross spectral density conj(X) Y of x and y (the same
 *    shape; complex result).
 *  - periodogram: one segment, the whole line (boxcar window by default);
 *    an nfft below the length crops each line to nfft samples.
 *  - coherence: |Pxy|^2 / (Pxx Pyy), in [0, 1].
 * A nonpositive fs, an nperseg larger than the signal (SciPy warns and
 * shortens it), noverlap >= nperseg, nfft < nperseg, a window array of
 * another length than nperseg, or an unknown window name is
 * CUSCI_ERR_VALUE with its message.
 */
CUSCI_API cusci_status cusci_signal_welch(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis,
                                          const cusci_signal_spectral_opts *opts, cusci_array **f, cusci_array **pxx);
CUSCI_API cusci_status cusci_signal_csd(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, double fs, int64_t nperseg, int axis,
                                        const cusci_signal_spectral_opts *opts, cusci_array **f, cusci_array **pxy);
CUSCI_API cusci_status cusci_signal_periodogram(cusci_ctx *ctx, const cusci_array *x, double fs, int axis, const cusci_signal_spectral_opts *opts,
                                                cusci_array **f, cusci_array **pxx);
CUSCI_API cusci_status cusci_signal_coherence(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, double fs, int64_t nperseg, int axis,
                                              const cusci_signal_spectral_opts *opts, cusci_array **f, cusci_array **cxy);

/* What a spectrogram shows of each segment's transform. */
typedef enum cusci_signal_spectrogram_mode {
  CUSCI_SIGNAL_SPECTROGRAM_PSD = 0,
  CUSCI_SIGNAL_SPECTROGRAM_COMPLEX,
  CUSCI_SIGNAL_SPECTROGRAM_MAGNITUDE,
  CUSCI_SIGNAL_SPECTROGRAM_ANGLE,
  CUSCI_SIGNAL_SPECTROGRAM_PHASE
} cusci_signal_spectrogram_mode;
/*
 * scipy.signal.spectrogram: the segments of welch (the same opts; SciPy's
 * defaults here: a Tukey window of alpha 0.25, noverlap nperseg / 8),
 * each kept: sxx has x's other extents, the frequencies at axis and the
 * segments last. PSD: the power, scaled and one-sided as welch's (real);
 * COMPLEX: the transforms times the square root of the scale, never
 * doubled (complex64 for single precision, else complex128); MAGNITUDE
 * their absolute value; ANGLE their angle; PHASE that angle unwrapped
 * along the frequencies (numpy.unwrap). t: the segments' middles
 * (float64, seconds). average must be left at its zero.
 */
CUSCI_API cusci_status cusci_signal_spectrogram(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis,
                                                const cusci_signal_spectral_opts *opts, cusci_signal_spectrogram_mode mode, cusci_array **f,
                                                cusci_array **t, cusci_array **sxx);

/* stft's extension of each line by nperseg / 2 at both ends: SciPy's
 * zero_ext, even_ext, odd_ext, const_ext and boundary=None. */
typedef enum cusci_signal_stft_boundary {
  CUSCI_SIGNAL_STFT_BOUNDARY_ZEROS = 0,
  CUSCI_SIGNAL_STFT_BOUNDARY_EVEN,
  CUSCI_SIGNAL_STFT_BOUNDARY_ODD,
  CUSCI_SIGNAL_STFT_BOUNDARY_CONSTANT,
  CUSCI_SIGNAL_STFT_BOUNDARY_NONE
} cusci_signal_stft_boundary;
typedef struct cusci_signal_stft_opts {
  const char *window;         /* NULL: "hann" (periodic); get_window's names */
  const cusci_array *win;     /* or the window's values (1-d, its length nperseg) */
  int64_t noverlap;           /* 0: nperseg / 2; CUSCI_SIGNAL_NO_OVERLAP: none */
  int64_t nfft;               /* 0: nperseg */
  bool detrend;               /* false (SciPy's default): none; true: each segment less its mean */
  bool linear_trend;          /* with detrend: less its least-squares line instead */
  bool return_twosided;       /* SciPy's return_onesided=False (complex input is always two-sided) */
  cusci_signal_stft_boundary boundary;
  bool unpadded;              /* SciPy's padded=False: no zeros after the last whole segment */
  bool psd_scaling;           /* SciPy's scaling='psd'; else 'spectrum' */
} cusci_signal_stft_opts;
/*
 * scipy.signal.stft: the line extended at its ends (boundary) and padded
 * with zeros to a whole number of segments, then the segments' transforms
 * times the square root of the scale (spectrum: 1 / sum(w)^2; psd: 1 /
 * (fs sum(w^2))). zxx: x's other extents, the frequencies at axis, the
 * segments last (complex64 for single precision, else complex128); f and
 * t as spectrogram's (t from the first sample). nperseg 0: 256, or the
 * line when shorter; a larger one is CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_signal_stft(cusci_ctx *ctx, const cusci_array *x, double fs, int64_t nperseg, int axis, const cusci_signal_stft_opts *opts,
                                         cusci_array **f, cusci_array **t, cusci_array **zxx);
typedef struct cusci_signal_istft_opts {
  const char *window;         /* NULL: "hann" (periodic) */
  const cusci_array *win;     /* or the window's values */
  int64_t nperseg;            /* 0: 2 (nfreq - 1) one-sided, nfreq two-sided */
  int64_t noverlap;           /* 0: nperseg / 2; CUSCI_SIGNAL_NO_OVERLAP: none */
  int64_t nfft;               /* 0: as SciPy's (nperseg for an odd one-sided nperseg of nfreq's) */
  bool input_twosided;        /* SciPy's input_onesided=False: a complex result */
  bool no_boundary;           /* SciPy's boundary=False: keep the extension's samples */
  bool psd_scaling;           /* SciPy's scaling='psd' */
} cusci_signal_istft_opts;
/*
 * scipy.signal.istft: the inverse transforms of zxx (frequencies along
 * freq_axis, segments along time_axis; SciPy's defaults -2 and -1)
 * windowed and overlap-added, divided by the overlapping windows' sum of
 * squares where that is above 1e-10 (where it is not, the NOLA condition
 * fails: SciPy warns; check_NOLA tells beforehand), less nperseg / 2
 * samples at each end (the boundary). x: zxx's other extents with the
 * samples moved as SciPy moves them (to time_axis, one less after the
 * frequency axis, unless time_axis was last); real for one-sided input
 * (float32 from complex64, else float64). t: the samples' times (SciPy's
 * arange(x.shape[0]) / fs counts the first axis of a multichannel x).
 */
CUSCI_API cusci_status cusci_signal_istft(cusci_ctx *ctx, const cusci_array *zxx, double fs, int freq_axis, int time_axis,
                                          const cusci_signal_istft_opts *opts, cusci_array **t, cusci_array **x);
/* SciPy's lombscargle normalize: False, True and 'amplitude'. */
typedef enum cusci_signal_lombscargle_norm {
  CUSCI_SIGNAL_LOMBSCARGLE_POWER = 0,
  CUSCI_SIGNAL_LOMBSCARGLE_NORMALIZE,
  CUSCI_SIGNAL_LOMBSCARGLE_AMPLITUDE
} cusci_signal_lombscargle_norm;
typedef struct cusci_signal_lombscargle_opts {
  cusci_signal_lombscargle_norm normalize;
  const cusci_array *weights; /* NULL: ones; else nonnegative, a positive sum, x's length */
  bool floating_mean;         /* fit an offset too (SciPy's floating_mean) */
} cusci_signal_lombscargle_opts;
/*
 * scipy.signal.lombscargle: the generalized (weighted, optionally with a
 * floating mean) Lomb-Scargle periodogram of the samples y at the times x
 * (1-d, real, one length) at the angular frequencies freqs (1-d): float64
 * power (N/4 times SciPy's, as its default), normalized to [0, 1], or the
 * complex128 amplitudes, freqs' length, where the data are (a thread per
 * frequency on the GPU).
 */
CUSCI_API cusci_status cusci_signal_lombscargle(cusci_ctx *ctx, const cusci_array *x, const cusci_array *y, const cusci_array *freqs,
                                                const cusci_signal_lombscargle_opts *opts, cusci_array **pgram);
/*
 * scipy.signal.vectorstrength: for each period (positive; 0-d or 1-d) the
 * mean of exp(2 pi i e / period) over the events e (1-d, real): its
 * absolute value (strength, in [0, 1]) and angle (phase), float64 of
 * period's shape, where the events are.
 */
CUSCI_API cusci_status cusci_signal_vectorstrength(cusci_ctx *ctx, const cusci_array *events, const cusci_array *period, cusci_array **strength,
                                                   cusci_array **phase);

/* ------------------------------------------------ peaks */

/* A condition on a peak's property: its zero is no condition. */
typedef struct cusci_signal_interval {
  bool has_min, has_max;
  double min, max;
} cusci_signal_interval;
/* find_peaks' properties, as SciPy's dict: the arrays of the conditions
 * given (plateau_size: plateau_sizes and the edges; height: peak_heights;
 * threshold: the thresholds; prominence or width: prominences and bases;
 * width: widths, width_heights and the interpolated positions), the
 * others NULL; the caller releases them. Indices are int64, the rest
 * float64. */
typedef struct cusci_signal_peak_properties {
  cusci_array *plateau_sizes, *left_edges, *right_edges, *peak_heights, *left_thresholds, *right_thresholds, *prominences, *left_bases,
    *right_bases, *widths, *width_heights, *left_ips, *right_ips;
} cusci_signal_peak_properties;
typedef struct cusci_signal_find_peaks_opts {
  cusci_signal_interval height, threshold, prominence, width, plateau_size;
  double distance;                          /* 0: none; else at least 1 (samples) */
  double wlen;                              /* 0: the whole signal; else above 1 (rounded up) */
  double rel_height;                        /* 0: 0.5 */
  cusci_signal_peak_properties *properties; /* non-NULL: filled */
} cusci_signal_find_peaks_opts;
/*
 * scipy.signal.find_peaks: the indices (int64, increasing) of x's local
 * maxima (the middle of a plateau; not the ends of x), kept by the
 * conditions of opts in SciPy's order (plateau size, height, threshold,
 * distance: the highest peaks first, ties in index order; prominence,
 * width). x is 1-d and real; the peaks are found on the host (the walk to
 * each base is sequential), the indices returned on the context's device.
 * opts NULL: every local maximum.
 */
CUSCI_API cusci_status cusci_signal_find_peaks(cusci_ctx *ctx, const cusci_array *x, const cusci_signal_find_peaks_opts *opts, cusci_array **peaks);
/* scipy.signal.peak_prominences and peak_widths of the given peaks
 * (integer indices into x; wlen 0 is the whole signal, rel_height at least
 * 0; the prominences computed with wlen). */
CUSCI_API cusci_status cusci_signal_peak_prominences(cusci_ctx *ctx, const cusci_array *x, const cusci_array *peaks, double wlen,
                                                     cusci_array **prominences, cusci_array **left_bases, cusci_array **right_bases);
CUSCI_API cusci_status cusci_signal_peak_widths(cusci_ctx *ctx, const cusci_array *x, const cusci_array *peaks, double rel_height, double wlen,
                                                cusci_array **widths, cusci_array **width_heights, cusci_array **left_ips,
                                                cusci_array **right_ips);

/* ------------------------------------------------ notch, peak, comb and gammatone filters */

/*
 * scipy.signal.iirnotch and iirpeak: second-order b and a (float64, 3
 * each) removing or passing w0 (in fs's units; fs 0 is SciPy's 2) with
 * quality factor Q (positive). w0 outside [0, fs/2] is CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_signal_iirnotch(cusci_ctx *ctx, double w0, double Q, double fs, cusci_array **b, cusci_array **a);
CUSCI_API cusci_status cusci_signal_iirpeak(cusci_ctx *ctx, double w0, double Q, double fs, cusci_array **b, cusci_array **a);
typedef enum cusci_signal_comb_type { CUSCI_SIGNAL_COMB_NOTCH = 0, CUSCI_SIGNAL_COMB_PEAK } cusci_signal_comb_type;
/*
 * scipy.signal.iircomb: a comb of notches (or peaks) at the multiples of
 * w0, b and a of N + 1 coefficients (N = fs / w0, which must be a whole
 * number; fs 0 is 2). pass_zero as SciPy's: notches (or peaks) at w0's
 * odd multiples, the passband at 0.
 */
CUSCI_API cusci_status cusci_signal_iircomb(cusci_ctx *ctx, double w0, double Q, cusci_signal_comb_type ftype, double fs, bool pass_zero,
                                            cusci_array **b, cusci_array **a);
typedef enum cusci_signal_gammatone_type { CUSCI_SIGNAL_GAMMATONE_FIR = 0, CUSCI_SIGNAL_GAMMATONE_IIR } cusci_signal_gammatone_type;
typedef struct cusci_signal_gammatone_opts {
  int order;       /* FIR: 0 is 4, else 1 to 24 */
  int64_t numtaps; /* FIR: 0 is max(int(fs 0.015), 15) */
  double fs;       /* 0: 2 */
} cusci_signal_gammatone_opts;
/*
 * scipy.signal.gammatone: the gammatone filter centred on freq (in fs's
 * units, inside (0, fs/2)): the FIR form (numtaps taps, a = [1]) or the
 * IIR form of order 4 (5 and 9 coefficients; order and numtaps set for it
 * are CUSCI_ERR_VALUE where SciPy warns).
 */
CUSCI_API cusci_status cusci_signal_gammatone(cusci_ctx *ctx, double freq, cusci_signal_gammatone_type ftype,
                                              const cusci_signal_gammatone_opts *opts, cusci_array **b, cusci_array **a);

/* ------------------------------------------------ frequency responses */

/* The frequencies of a response. */
typedef struct cusci_signal_freqz_opts {
  int64_t worN;         /* 0: 512 frequencies (freqs, freqs_zpk: 200); else this many */
  const double *w;      /* non-NULL: these nw frequencies instead (in fs's units; freqs, freqs_zpk: rad/s) */
  int64_t nw;
  bool whole;           /* from 0 up to fs rather than fs/2 (digital responses) */
  double fs;            /* 0: 2 pi, frequencies in radians per sample (digital responses) */
  bool include_nyquist; /* freqz: the worN frequencies end at fs/2 (whole false) */
} cusci_signal_freqz_opts;
/*
 * Frequency responses as scipy.signal's, evaluated on the host in
 * complex128 (the coefficients of any dtype, real or complex, 0-d or
 * 1-d), returned as w (float64, in fs's units) and h (complex128) on the
 * context's device. opts NULL is SciPy's defaults.
 *  - freqz: b / a in powers of z^-1 at e^{i w}, a NULL meaning 1. The
 *    worN frequencies are equally spaced over [0, fs/2) (whole: [0, fs)).
 *  - sosfreqz, and freqz_sos (SciPy's newer name): the product of the
 *    sections' responses; sos (n_sections, 6), every a0 1.
 *  - freqz_zpk: k prod(e^{iw} - z) / prod(e^{iw} - p).
 *  - freqs, freqs_zpk: an analog b / a (highest power first) or zpk at
 *    s = i w, w in rad/s; the default worN frequencies are SciPy's
 *    findfreqs', logarithmically spaced around the poles and zeros (real
 *    coefficients; complex ones need opts.w).
 *  - group_delay: -d phase / d w of b / a, in samples (float64 gd), 0
 *    where the response is singular (SciPy warns there).
 * A negative worN, a non-finite or nonpositive fs, fs or whole for an
 * analog response, and include_nyquist other than freqz's are
 * CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_signal_freqz(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts,
                                          cusci_array **w, cusci_array **h);
CUSCI_API cusci_status cusci_signal_sosfreqz(cusci_ctx *ctx, const cusci_array *sos, const cusci_signal_freqz_opts *opts, cusci_array **w,
                                             cusci_array **h);
CUSCI_API cusci_status cusci_signal_freqz_sos(cusci_ctx *ctx, const cusci_array *sos, const cusci_signal_freqz_opts *opts, cusci_array **w,
                                              cusci_array **h);
CUSCI_API cusci_status cusci_signal_freqz_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k,
                                              const cusci_signal_freqz_opts *opts, cusci_array **w, cusci_array **h);
CUSCI_API cusci_status cusci_signal_freqs(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts,
                                          cusci_array **w, cusci_array **h);
CUSCI_API cusci_status cusci_signal_freqs_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k,
                                              const cusci_signal_freqz_opts *opts, cusci_array **w, cusci_array **h);
CUSCI_API cusci_status cusci_signal_group_delay(cusci_ctx *ctx, const cusci_array *b, const cusci_array *a, const cusci_signal_freqz_opts *opts,
                                                cusci_array **w, cusci_array **gd);

/* ------------------------------------------------ FIR design */

/* firwin's pass_zero: DEFAULT is SciPy's True. */
typedef enum cusci_signal_pass_zero {
  CUSCI_SIGNAL_PASS_ZERO_DEFAULT = 0,
  CUSCI_SIGNAL_PASS_ZERO_FALSE,
  CUSCI_SIGNAL_PASS_ZERO_LOWPASS,
  CUSCI_SIGNAL_PASS_ZERO_HIGHPASS,
  CUSCI_SIGNAL_PASS_ZERO_BANDPASS,
  CUSCI_SIGNAL_PASS_ZERO_BANDSTOP
} cusci_signal_pass_zero;
typedef struct cusci_signal_firwin_opts {
  double width;       /* 0: None; else a Kaiser window for this transition width */
  const char *window; /* NULL: "hamming"; as get_window's */
  cusci_signal_pass_zero pass_zero;
  bool noscale;       /* SciPy's scale=False */
  double fs;          /* 0: cutoffs relative to Nyquist = 1 */
} cusci_signal_firwin_opts;
/*
 * scipy.signal.firwin: numtaps float64 taps of a windowed-sinc filter
 * with the ncutoff band edges cutoff[] (strictly increasing, inside (0,
 * fs/2)). An even numtaps with a passband at Nyquist is CUSCI_ERR_VALUE,
 * as in SciPy.
 */
CUSCI_API cusci_status cusci_signal_firwin(cusci_ctx *ctx, int64_t numtaps, int ncutoff, const double *cutoff, const cusci_signal_firwin_opts *opts,
                                           cusci_array **h);
/* scipy.signal.kaiser_beta, kaiser_atten and kaiserord (ripple in dB at
 * least 8, width relative to Nyquist). */
CUSCI_API double cusci_signal_kaiser_beta(double a);
CUSCI_API double cusci_signal_kaiser_atten(int64_t numtaps, double width);
CUSCI_API cusci_status cusci_signal_kaiserord(cusci_ctx *ctx, double ripple, double width, int64_t *numtaps, double *beta);

typedef struct cusci_signal_firwin2_opts {
  int64_t nfreqs;      /* 0: SciPy's 1 + 2^ceil(log2(numtaps)); else more than numtaps */
  const char *window;  /* NULL: "hamming"; "boxcar" is SciPy's window=None */
  bool antisymmetric;  /* type III (odd numtaps) or IV (even) */
  double fs;           /* 0: frequencies relative to Nyquist = 1 */
} cusci_signal_firwin2_opts;
/*
 * scipy.signal.firwin2: numtaps float64 taps by frequency sampling of the
 * piecewise-linear gain through (freq[i], gain[i]), i < nfreq: freq
 * nondecreasing from 0 to fs/2, each value at most twice (a step in the
 * gain), 0 and fs/2 once. A type II filter (even numtaps) must have gain
 * 0 at fs/2, type III at 0 and fs/2, type IV at 0 (CUSCI_ERR_VALUE).
 */
CUSCI_API cusci_status cusci_signal_firwin2(cusci_ctx *ctx, int64_t numtaps, int64_t nfreq, const double *freq, const double *gain,
                                            const cusci_signal_firwin2_opts *opts, cusci_array **h);
/*
 * scipy.signal.firls: numtaps (odd) float64 taps minimizing the weighted
 * integral of the squared error against the gain that goes linearly from
 * desired[2i] to desired[2i + 1] over band i (edges bands[2i] <
 * bands[2i + 1], in [0, fs/2], bands in order, not overlapping), i <
 * nbands. weight: nbands nonnegative values, NULL for ones. fs 0:
 * relative to Nyquist = 1. A singular system gets the minimum-norm
 * least-squares solution, as SciPy's lstsq fallback.
 */
CUSCI_API cusci_status cusci_signal_firls(cusci_ctx *ctx, int64_t numtaps, int64_t nbands, const double *bands, const double *desired,
                                          const double *weight, double fs, cusci_array **h);

/* remez's filter types. */
typedef enum cusci_signal_remez_type {
  CUSCI_SIGNAL_REMEZ_BANDPASS = 0,
  CUSCI_SIGNAL_REMEZ_DIFFERENTIATOR,
  CUSCI_SIGNAL_REMEZ_HILBERT
} cusci_signal_remez_type;
typedef struct cusci_signal_remez_opts {
  const double *weight;         /* NULL: ones; else nbands positive values */
  cusci_signal_remez_type type; /* zero: bandpass */
  int maxiter;                  /* 0: 25 */
  int grid_density;             /* 0: 16 */
  double fs;                    /* 0: SciPy's 1 (bands in cycles per sample, up to 0.5) */
} cusci_signal_remez_opts;
/*
 * scipy.signal.remez: the numtaps (>= 2) float64 taps of the equiripple
 * (minimax) linear-phase filter by the Parks-McClellan algorithm (the
 * Remez exchange on SciPy's dense grid): desired[i] is the gain over band
 * i (edges bands[2i], bands[2i + 1], nondecreasing from 0, at most fs/2),
 * i < nbands; a differentiator's gain is desired[i] times the frequency.
 * The bandpass type gives a symmetric filter, the other two an
 * antisymmetric one. Bands too narrow for the grid, or no convergence in
 * maxiter exchanges, are CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_signal_remez(cusci_ctx *ctx, int64_t numtaps, int64_t nbands, const double *bands, const double *desired,
                                          const cusci_signal_remez_opts *opts, cusci_array **h);

typedef enum cusci_signal_minimum_phase_method {
  CUSCI_SIGNAL_MINIMUM_PHASE_HOMOMORPHIC = 0,
  CUSCI_SIGNAL_MINIMUM_PHASE_HILBERT
} cusci_signal_minimum_phase_method;
typedef struct cusci_signal_minimum_phase_opts {
  cusci_signal_minimum_phase_method method; /* zero: homomorphic */
  int64_t n_fft;                            /* 0: 2^ceil(log2(2 (len(h) - 1) / 0.01)); else at least len(h) */
  bool whole;                               /* SciPy's half=False (homomorphic only): len(h) taps */
} cusci_signal_minimum_phase_opts;
/*
 * scipy.signal.minimum_phase: the minimum-phase filter of the real
 * linear-phase FIR filter h (1-D, at least 3 taps, on ctx's device):
 * len(h) / 2 + len(h) % 2 float64 taps whose magnitude response
 * approximates the square root of h's (whole: len(h) taps and h's
 * magnitude). A complex h is CUSCI_ERR_DTYPE.
 */
CUSCI_API cusci_status cusci_signal_minimum_phase(cusci_ctx *ctx, const cusci_array *h, const cusci_signal_minimum_phase_opts *opts,
                                                  cusci_array **out);

/* ------------------------------------------------ windows */

/*
 * scipy.signal.get_window: nx float64 values of the window named by
 * `window`, its parameters after commas as SciPy's tuple: "hann",
 * "kaiser,8.6", "tukey,0.25", "gaussian,2.5", "dpss,3",
 * "general_cosine,0.5,0.5", "exponential,,3" (center None, tau 3). Every
 * scipy.signal.windows window and SciPy's aliases: barthann, bartlett,
 * blackman, blackmanharris, bohman, boxcar, chebwin (at), cosine, dpss
 * (NW; the first window, approximate norm), exponential ([center], [tau]),
 * flattop, gaussian (std), general_cosine (a...), general_gaussian (p,
 * sig), general_hamming (alpha), hamming, hann, kaiser (beta),
 * kaiser_bessel_derived (beta; symmetric, nx even), lanczos, nuttall,
 * parzen, taylor ([nbar], [sll], [norm]), triang, tukey ([alpha]); a
 * suffix "_periodic" or "_symmetric" overrides fftbins. A number alone is
 * a Kaiser window of that beta. fftbins true: the periodic window (for
 * spectra), false: the symmetric one (for filter design). An unknown name,
 * missing or extra parameters, or nx below 1 is CUSCI_ERR_VALUE naming
 * them.
 */
CUSCI_API cusci_status cusci_signal_get_window(cusci_ctx *ctx, const char *window, int64_t nx, bool fftbins, cusci_array **w);

/* argrelextrema's comparators and its neighbours beyond the ends (numpy.take's mode). */
typedef enum cusci_signal_comparator {
  CUSCI_SIGNAL_GREATER = 0,
  CUSCI_SIGNAL_LESS,
  CUSCI_SIGNAL_GREATER_EQUAL,
  CUSCI_SIGNAL_LESS_EQUAL
} cusci_signal_comparator;
typedef enum cusci_signal_take_mode { CUSCI_SIGNAL_TAKE_CLIP = 0, CUSCI_SIGNAL_TAKE_WRAP } cusci_signal_take_mode;
/*
 * scipy.signal.argrelextrema, argrelmax (greater) and argrelmin (less):
 * the indices where x (real, any shape) compares with each of its order
 * (>= 1) neighbours on both sides along axis (SciPy's default is 0), as
 * numpy.nonzero's tuple: out has room for ndim(x) arrays, each NULL, and
 * gets one int64 array per dimension. x is read on the host, as by
 * find_peaks; the indices are on x's device.
 */
CUSCI_API cusci_status cusci_signal_argrelextrema(cusci_ctx *ctx, const cusci_array *x, cusci_signal_comparator comparator, int axis, int order,
                                                  cusci_signal_take_mode mode, cusci_array **out);
CUSCI_API cusci_status cusci_signal_argrelmax(cusci_ctx *ctx, const cusci_array *x, int axis, int order, cusci_signal_take_mode mode,
                                              cusci_array **out);
CUSCI_API cusci_status cusci_signal_argrelmin(cusci_ctx *ctx, const cusci_array *x, int axis, int order, cusci_signal_take_mode mode,
                                              cusci_array **out);

/* ------------------------------------------------ sequences and STFT checks */

/* SciPy's default tolerance of check_COLA and check_NOLA. */
#define CUSCI_SIGNAL_COLA_TOL 1e-10
/*
 * scipy.signal.check_COLA and check_NOLA: whether the window (by name,
 * get_window's periodic window, or its nperseg values win: one of the
 * two) has constant overlap-add (the sums of its values over the
 * segments' positions within tol of their median), or nonzero
 * overlap-add of its squares (their least sum above tol), for segments of
 * nperseg with noverlap in [0, nperseg). The answer in *out.
 */
CUSCI_API cusci_status cusci_signal_check_COLA(cusci_ctx *ctx, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap,
                                               double tol, bool *out);
CUSCI_API cusci_status cusci_signal_check_NOLA(cusci_ctx *ctx, const char *window, const cusci_array *win, int64_t nperseg, int64_t noverlap,
                                               double tol, bool *out);
/*
 * scipy.signal.unit_impulse: zeros of shape (ndim extents) and dtype with
 * a 1 at idx (ndim indices, negative from the end), at the origin for
 * idx NULL, or at shape / 2 for mid (SciPy's idx='mid').
 */
CUSCI_API cusci_status cusci_signal_unit_impulse(cusci_ctx *ctx, int ndim, const int64_t *shape, const int64_t *idx, bool mid, cusci_dtype dtype,
                                                 cusci_array **out);
/* max_len_seq's length for SciPy's None: 2^nbits - 1. */
#define CUSCI_SIGNAL_MLS_FULL (-1)
/*
 * scipy.signal.max_len_seq: length values (int8, 0 or 1) of the maximum
 * length sequence of the nbits-bit shift register from state (nbits
 * values, not all 0; NULL: ones) with the feedback taps (ntaps values in
 * [0, nbits]; NULL: SciPy's primitive taps for nbits 2 to 32). The
 * register's final state, for a later call to go on from, into state_out
 * (nbits values) unless NULL.
 */
CUSCI_API cusci_status cusci_signal_max_len_seq(cusci_ctx *ctx, int nbits, const int8_t *state, int64_t length, int ntaps, const int *taps,
                                                cusci_array **seq, int8_t *state_out);
/*
 * scipy.signal.czt_points: the m complex128 points a w^-k, k < m, of the
 * chirp z-transform; w and a are {real, imaginary} pairs, w NULL for the
 * FFT's points exp(2 pi i k / m), a NULL for 1.
 */
CUSCI_API cusci_status cusci_signal_czt_points(cusci_ctx *ctx, int64_t m, const double *w, const double *a, cusci_array **out);
/*
 * scipy.signal.czt: X_k = sum_n x_n a^-n w^(n k), k < m (0: x's length),
 * along axis of x (any shape and dtype, where it is), by Bluestein's
 * algorithm on the module's FFT; complex128. w and a as czt_points'. A
 * zero or non-finite w or a is CUSCI_ERR_VALUE.
 * scipy.signal.zoom_fft: the DFT's m points (0: x's length) from f1 to f2
 * (fn: nfn = 2 values f1, f2, or 1 value f2 from 0), f2 included with
 * endpoint, for the sampling frequency fs (0: SciPy's 2).
 */
CUSCI_API cusci_status cusci_signal_czt(cusci_ctx *ctx, const cusci_array *x, int64_t m, const double *w, const double *a, int axis, cusci_array **out);
CUSCI_API cusci_status cusci_signal_zoom_fft(cusci_ctx *ctx, const cusci_array *x, int nfn, const double *fn, int64_t m, double fs, bool endpoint,
                                             int axis, cusci_array **out);

/* The waveforms of a time array t (real, any shape, where it is): float64
 * results of t's shape (complex128 for a complex chirp), SciPy 1.17's
 * dtype for every real t, computed by SciPy's formulas in its order. */
typedef enum cusci_signal_chirp_method {
  CUSCI_SIGNAL_CHIRP_LINEAR = 0,
  CUSCI_SIGNAL_CHIRP_QUADRATIC,
  CUSCI_SIGNAL_CHIRP_LOGARITHMIC,
  CUSCI_SIGNAL_CHIRP_HYPERBOLIC
} cusci_signal_chirp_method;
typedef struct cusci_signal_chirp_opts {
  cusci_signal_chirp_method method;
  double phi;             /* the phase offset, degrees */
  bool vertex_at_t1;      /* quadratic: the parabola's vertex at t1 (SciPy's vertex_zero=False) */
  bool complex_out;       /* exp(1j phase) instead of cos(phase) (SciPy's complex=True) */
} cusci_signal_chirp_opts;
/* scipy.signal.chirp: a sweep from f0 at t = 0 to f1 at t1. A logarithmic
 * sweep needs f0 f1 > 0, a hyperbolic one f0, f1 nonzero, and a sweep
 * between two frequencies t1 nonzero (CUSCI_ERR_VALUE). */
CUSCI_API cusci_status cusci_signal_chirp(cusci_ctx *ctx, const cusci_array *t, double f0, double t1, double f1, const cusci_signal_chirp_opts *opts,
                                          cusci_array **y);
/* scipy.signal.sweep_poly: cos(2 pi int_0^t poly + phi), the frequency
 * the polynomial poly (ncoef coefficients, highest power first, up to
 * 18); phi in degrees. */
CUSCI_API cusci_status cusci_signal_sweep_poly(cusci_ctx *ctx, const cusci_array *t, int ncoef, const double *poly, double phi, cusci_array **y);
/* scipy.signal.gausspulse: the Gaussian-modulated sinusoid of centre
 * frequency fc (>= 0; SciPy's default 1000), fractional bandwidth bw (> 0;
 * 0.5) at the level bwr dB (< 0; -6): its real part yi, and (unless NULL)
 * its quadrature yq and envelope yenv (SciPy's retquad, retenv). */
CUSCI_API cusci_status cusci_signal_gausspulse(cusci_ctx *ctx, const cusci_array *t, double fc, double bw, double bwr, cusci_array **yi,
                                               cusci_array **yq, cusci_array **yenv);
/* gausspulse('cutoff', ...): the time after which the envelope is below
 * tpr dB (< 0; SciPy's -60). */
CUSCI_API cusci_status cusci_signal_gausspulse_cutoff(cusci_ctx *ctx, double fc, double bw, double bwr, double tpr, double *cutoff);
/* scipy.signal.sawtooth (width: the rising part of the period 2 pi,
 * SciPy's default 1) and square (duty: the part at +1, SciPy's 0.5); a
 * width or duty outside [0, 1] gives NaN everywhere, as SciPy's. */
CUSCI_API cusci_status cusci_signal_sawtooth(cusci_ctx *ctx, const cusci_array *t, double width, cusci_array **y);
CUSCI_API cusci_status cusci_signal_square(cusci_ctx *ctx, const cusci_array *t, double duty, cusci_array **y);

#ifdef __cplusplus
}
#endif

#endif
