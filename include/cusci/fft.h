/*
 * cusci/fft.h: scipy.fft (and numpy.fft) for C, on cuFFT on a GPU and on
 * cusci's own FFT on the host. Part of cusci-signal (-lcusci-signal,
 * pkg-config cusci-signal).
 *
 * Conventions shared by every transform below, as scipy.fft's:
 *  - x is any array of the context's device: bool and integers convert
 *    to float64, float16 to float32; float32 and complex64 stay in single
 *    precision (as scipy.fft, not numpy.fft, which widens them).
 *  - n == 0 is SciPy's None: the input's length along axis (for irfft and
 *    hfft, 2 * (m - 1) of an input of length m). A shorter n crops the
 *    input, a longer one pads it with zeros. n < 0 is CUSCI_ERR_VALUE.
 *  - axis counts from the end when negative; out of range is
 *    CUSCI_ERR_AXIS.
 *  - norm: CUSCI_FFT_BACKWARD (SciPy's default) scales the inverse by 1/n,
 *    CUSCI_FFT_FORWARD the forward transform by 1/n, CUSCI_FFT_ORTHO both
 *    by 1/sqrt(n).
 *  - The n-d forms take naxes axes and their lengths s: naxes == 0 with s
 *    and axes NULL means every axis; axes NULL with s given means the last
 *    naxes axes; s NULL means the input's lengths (for irfftn and hfftn,
 *    2 * (m - 1) on the last axis). An axis given twice is CUSCI_ERR_AXIS.
 *  - The result is a new C-contiguous array in *out when *out is NULL;
 *    a given *out must have the result's shape and dtype exactly. A
 *    C-contiguous one is written in place (a call that fails part way may
 *    leave it partly written); any other gets the result copied in.
 *
 * Every function returns CUSCI_OK or: CUSCI_ERR_NULL_POINTER (ctx, x or
 * out), CUSCI_ERR_DEVICE (x on another device), CUSCI_ERR_DTYPE (a
 * complex input to rfft, ihfft, rfftn or ihfftn), CUSCI_ERR_VALUE
 * (a length < 0, a transform of length 0, a DCT/DST type outside 1..4, the
 * DCT-I of one point, irfft of n < 1), CUSCI_ERR_AXIS, CUSCI_ERR_SHAPE and
 * CUSCI_ERR_DTYPE (a given *out), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA
 * (a cuFFT or CUDA failure, named in the message), CUSCI_ERR_DEVICE_FAULT.
 */
#ifndef CUSCI_FFT_H
#define CUSCI_FFT_H

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cusci_fft_norm { CUSCI_FFT_BACKWARD = 0, CUSCI_FFT_ORTHO, CUSCI_FFT_FORWARD } cusci_fft_norm;

/* ------------------------------------------------------ one axis */

/* scipy.fft.fft and ifft: the complex transform along axis. */
CUSCI_API cusci_status cusci_fft_fft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ifft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
/* scipy.fft.rfft: real input (complex is CUSCI_ERR_DTYPE), n / 2 + 1
 * complex outputs along axis. */
CUSCI_API cusci_status cusci_fft_rfft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
/* scipy.fft.irfft: n real outputs from n / 2 + 1 complex inputs (cropped
 * or padded). The imaginary parts of X[0] and, for even n, X[n / 2] are
 * ignored, as pocketfft's are: the result is that of the Hermitian input
 * they stand for. */
CUSCI_API cusci_status cusci_fft_irfft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
/* scipy.fft.hfft: the real spectrum of a signal with Hermitian symmetry,
 * given by its first half (irfft of conj(x) with the norm's direction
 * reversed); ihfft: its inverse, from real input. */
CUSCI_API cusci_status cusci_fft_hfft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ihfft(cusci_ctx *ctx, const cusci_array *x, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);

/* ------------------------------------------------------ several axes */

CUSCI_API cusci_status cusci_fft_fftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ifftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
/* The real transform along the last of the axes, complex ones along the
 * others (rfftn); the inverse (irfftn). */
CUSCI_API cusci_status cusci_fft_rfftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_irfftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_hfftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ihfftn(cusci_ctx *ctx, const cusci_array *x, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
/* The 2-d forms: the n-d ones over two axes, s and axes each two values
 * or NULL (the input's lengths; axes -2 and -1). */
CUSCI_API cusci_status cusci_fft_fft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ifft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_rfft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_irfft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_hfft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ihfft2(cusci_ctx *ctx, const cusci_array *x, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_array **out);

/* ------------------------------------------------------ DCT and DST */

/*
 * scipy.fft.dct, idct, dst and idst of type 1 to 4 along axis (integers
 * convert to float64; complex input transforms its real and imaginary
 * parts apart, as SciPy's), with SciPy's scaling for each norm and
 * its default orthogonalize (true exactly when norm is CUSCI_FFT_ORTHO),
 * which makes the ortho transforms orthonormal matrices. The inverse of a
 * type is the transform of the inverse type (1 and 4 their own, 2 and 3
 * each other's) with the norm's direction reversed.
 */
CUSCI_API cusci_status cusci_fft_dct(cusci_ctx *ctx, const cusci_array *x, int type, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_idct(cusci_ctx *ctx, const cusci_array *x, int type, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_dst(cusci_ctx *ctx, const cusci_array *x, int type, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
CUSCI_API cusci_status cusci_fft_idst(cusci_ctx *ctx, const cusci_array *x, int type, int64_t n, int axis, cusci_fft_norm norm, cusci_array **out);
/* The same over several axes, with the n-d conventions above. */
CUSCI_API cusci_status cusci_fft_dctn(cusci_ctx *ctx, const cusci_array *x, int type, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm,
                                      cusci_array **out);
CUSCI_API cusci_status cusci_fft_idctn(cusci_ctx *ctx, const cusci_array *x, int type, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm,
                                       cusci_array **out);
CUSCI_API cusci_status cusci_fft_dstn(cusci_ctx *ctx, const cusci_array *x, int type, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm,
                                      cusci_array **out);
CUSCI_API cusci_status cusci_fft_idstn(cusci_ctx *ctx, const cusci_array *x, int type, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm,
                                       cusci_array **out);

/* ------------------------------------------------------ helpers */

/* scipy.fft.fftfreq(n, d) and rfftfreq(n, d): float64 sample frequencies
 * on ctx's device. n < 1 or d == 0 is CUSCI_ERR_VALUE. */
CUSCI_API cusci_status cusci_fft_fftfreq(cusci_ctx *ctx, int64_t n, double d, cusci_array **out);
CUSCI_API cusci_status cusci_fft_rfftfreq(cusci_ctx *ctx, int64_t n, double d, cusci_array **out);
/* scipy.fft.fftshift and ifftshift: the zero frequency moved to the middle
 * and back, along naxes axes (naxes == 0 and axes NULL: every axis). */
CUSCI_API cusci_status cusci_fft_fftshift(cusci_ctx *ctx, const cusci_array *x, int naxes, const int *axes, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ifftshift(cusci_ctx *ctx, const cusci_array *x, int naxes, const int *axes, cusci_array **out);
/* scipy.fft.next_fast_len(target, real): the least length >= target whose
 * prime factors are all 2, 3, 5, 7 and 11 (2, 3 and 5 when real), which
 * the transforms do fastest; prev_fast_len: the greatest <= target.
 * target 0 gives 0, as SciPy's; target < 0 is CUSCI_ERR_VALUE, a result
 * past INT64_MAX CUSCI_ERR_OVERFLOW, len NULL CUSCI_ERR_NULL_POINTER. */
CUSCI_API cusci_status cusci_fft_next_fast_len(int64_t target, bool real, int64_t *len);
CUSCI_API cusci_status cusci_fft_prev_fast_len(int64_t target, bool real, int64_t *len);

/* ------------------------------------------------------ Hankel */

/*
 * scipy.fft.fht(a, dln, mu, offset, bias): the fast Hankel transform of
 * order mu along the last axis of real, logarithmically spaced a (spacing
 * dln), by the FFTLog algorithm: a biased by (k r)^-bias, its real
 * transform times the Gamma-function coefficients, the inverse transform
 * reversed, with the output's logarithmic offset `offset`. ifht is its
 * inverse. The result has a's shape; float32 stays float32 unless bias is
 * not 0 (the bias factors are float64, and promote it, as in SciPy).
 * dln must be finite and not 0, mu, offset and bias finite
 * (CUSCI_ERR_VALUE); a complex a is CUSCI_ERR_DTYPE, a 0-d one
 * CUSCI_ERR_NDIM. A transform singular at the zero frequency (a pole of
 * its coefficient) drops that frequency, as SciPy does with a warning.
 */
CUSCI_API cusci_status cusci_fft_fht(cusci_ctx *ctx, const cusci_array *a, double dln, double mu, double offset, double bias, cusci_array **out);
CUSCI_API cusci_status cusci_fft_ifht(cusci_ctx *ctx, const cusci_array *A, double dln, double mu, double offset, double bias, cusci_array **out);
/* scipy.fft.fhtoffset: the offset nearest `initial` that meets FFTLog's
 * low-ringing condition. CUSCI_ERR_VALUE for dln 0 or a value not finite,
 * CUSCI_ERR_NULL_POINTER for offset NULL. */
CUSCI_API cusci_status cusci_fft_fhtoffset(double dln, double mu, double initial, double bias, double *offset);

/* ------------------------------------------------------ plans */

/* What a plan computes. */
typedef enum cusci_fft_kind {
  CUSCI_FFT_KIND_FFT = 0, /* fftn */
  CUSCI_FFT_KIND_IFFT,    /* ifftn */
  CUSCI_FFT_KIND_RFFT,    /* rfftn */
  CUSCI_FFT_KIND_IRFFT,   /* irfftn */
  CUSCI_FFT_KIND_HFFT,    /* hfftn */
  CUSCI_FFT_KIND_IHFFT    /* ihfftn */
} cusci_fft_kind;

typedef struct cusci_fft_plan cusci_fft_plan;

/*
 * A plan for one transform of arrays of one layout: `kind` over the axes
 * (the n-d conventions above; a 1-D transform is naxes 1) of arrays of
 * the given shape, element strides (NULL: C-contiguous) and dtype, with
 * `norm`, on ctx's device. Making it does the work a call would repeat:
 * the cuFFT plans (their work area left to the caller) or the host
 * transform's twiddles and chirps. Returns the statuses of the transforms
 * above, with the array's checks made on shape, strides and dtype.
 */
CUSCI_API cusci_status cusci_fft_plan_create(cusci_ctx *ctx, cusci_fft_kind kind, int ndim, const int64_t *shape, const int64_t *strides, cusci_dtype dtype,
                                             int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, cusci_fft_plan **plan);
/* The bytes of device (or host) memory one execution needs: cuFFT's work
 * area and the plan's staging copies (crop and pad, dtype, the input of a
 * complex-to-real transform, which cuFFT overwrites). */
CUSCI_API size_t cusci_fft_plan_workspace_size(const cusci_fft_plan *plan);
/* The result's shape (ndim of the plan's arrays) and dtype. */
CUSCI_API void cusci_fft_plan_result(const cusci_fft_plan *plan, int64_t *shape, cusci_dtype *dtype);
/*
 * Run the plan on x, which must have the plan's shape, strides and dtype
 * (CUSCI_ERR_SHAPE, CUSCI_ERR_DTYPE otherwise), on ctx's stream (the
 * plan's context). workspace: at least cusci_fft_plan_workspace_size bytes
 * of ctx's device memory (CUSCI_ERR_BUFFER_TOO_SMALL), or NULL for memory
 * from the pool. With a workspace and a given *out, execution allocates no
 * device memory. Returns the statuses of the transforms.
 */
CUSCI_API cusci_status cusci_fft_plan_execute(cusci_ctx *ctx, cusci_fft_plan *plan, const cusci_array *x, void *workspace, size_t workspace_bytes,
                                              cusci_array **out);
/* Free a plan (NULL is a no-op); its context must still exist. */
CUSCI_API void cusci_fft_plan_destroy(cusci_fft_plan *plan);

/* ------------------------------------------------------ the plan cache */

/*
 * The plain calls above keep their plans in a per-context cache, least
 * recently used first out, under two limits: a number of plans (default
 * 16) and the bytes of the one work area they share (default: no limit).
 * cuFFT allocates nothing of its own: every cached plan runs in the same
 * work area, grown to the largest need, so many large plans hold one area.
 * A call whose plan needs more than the byte limit runs with scratch of its
 * own and is not kept.
 */
typedef struct cusci_fft_cache_info {
  size_t plans;          /* plans held */
  size_t max_plans;      /* the limit on plans (0: the cache is off) */
  size_t work_bytes;     /* the shared work area's size */
  size_t max_work_bytes; /* its limit (SIZE_MAX: none) */
  uint64_t hits, misses; /* calls that found their plan, and those that made it */
} cusci_fft_cache_info;

/* Set the limits (max_plans 0 turns the cache off); plans past them go at
 * once. Returns CUSCI_OK or CUSCI_ERR_NULL_POINTER. */
CUSCI_API cusci_status cusci_fft_cache_set_limits(cusci_ctx *ctx, size_t max_plans, size_t max_work_bytes);
CUSCI_API cusci_status cusci_fft_cache_get_info(cusci_ctx *ctx, cusci_fft_cache_info *info);
/* Drop every cached plan and the work area. */
CUSCI_API cusci_status cusci_fft_cache_clear(cusci_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
