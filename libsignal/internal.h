/*
 * libsignal/internal.h: what libsignal's files share: the plan (a list of
 * steps over a few buffers) that every transform of fft.h runs, on the
 * host or on cuFFT, and the per-context cache of plans.
 */
#ifndef CUSCI_LIBSIGNAL_INTERNAL_H
#define CUSCI_LIBSIGNAL_INTERNAL_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/fft.h>

#define SIG_MAXD CUSCI_MAX_NDIM

/* What a plan computes: the kinds of fft.h and the DCT/DST family. */
enum { SIG_DCT = 16, SIG_IDCT, SIG_DST, SIG_IDST };

/* A plan's request, normalised: the key of the cache. */
typedef struct sig_key {
  int kind; /* cusci_fft_kind or SIG_DCT.. */
  int type; /* DCT/DST type, else 0 */
  int norm;
  int ndim;
  cusci_dtype dtype;
  int naxes;
  int axes[SIG_MAXD];    /* in 0..ndim-1, distinct */
  int64_t s[SIG_MAXD];   /* the transform lengths, >= 1 */
  int64_t shape[SIG_MAXD];
  int64_t strides[SIG_MAXD];
} sig_key;

/* Buffers a step reads and writes. */
enum { SIG_IN = 0, SIG_OUT, SIG_WA, SIG_WB, SIG_TA, SIG_TB, SIG_DA, SIG_DB, SIG_NBUF };

/* An array in one of the buffers: shape, element strides, dtype. */
typedef struct sig_view {
  int buf;
  cusci_dtype dt;
  int64_t shape[SIG_MAXD];
  int64_t strides[SIG_MAXD];
} sig_view;

enum { SIG_STAGE = 0, SIG_C2C, SIG_R2C, SIG_C2R, SIG_DCTSTEP };

/* One step. STAGE: src cropped or padded with zeros to dst's extents,
 * converted to dst's dtype (conjugated when conj). The transforms: along
 * axis, of length n. */
typedef struct sig_step {
  int op;
  int sign; /* C2C: -1 forward, +1 backward */
  int axis;
  int64_t n;
  int type;  /* DCT/DST */
  bool sine;
  bool conj; /* STAGE */
  int64_t herm; /* STAGE before C2R of this length: on a GPU, the
                   imaginary parts cuFFT would read set to zero */
  double pre0, preN, post0, postN;
  sig_view src, dst;
  /* The host's plan (reference/signal/reference.h). */
  void *host;
  /* cuFFT: the plan, its work bytes; `loops` executions, pointers moved
   * by lin and lout elements each; `trans`: through copies with the axis
   * last (TA, TB), for layouts cuFFT cannot take. */
  int handle;
  bool has_handle;
  size_t work;
  int64_t loops, lin, lout;
  bool trans;
  bool trivial; /* a transform of length 1: a copy (with the dtype's change) */
} sig_step;

struct cusci_fft_plan {
  cusci_ctx *ctx;
  bool gpu;
  sig_key key;
  int64_t oshape[SIG_MAXD];
  cusci_dtype odt;
  int nsteps;
  sig_step *steps;
  double scale;  /* applied to the result at the end */
  bool conj_out; /* and conjugated */
  size_t off[SIG_NBUF], bytes[SIG_NBUF];
  size_t stage_bytes; /* the buffers WA .. DB */
  size_t work;        /* cuFFT's area, the most any step needs */
  /* In a context's cache: the neighbours in its list, most recent first. */
  struct cusci_fft_plan *prev, *next;
  bool cached;
};

/*
 * Normalise a request (libsignal/check.c): ctx and out not NULL, x on
 * ctx's device, the dtype, the axes (negative from the end, distinct) and
 * lengths (s NULL, or entries -1: the input's, for the c2r kinds 2 (m - 1)
 * on the last axis), into *key. naxes 0 with axes NULL: every axis.
 */
cusci_status cusci__sig_key(cusci_ctx *ctx, const char *fn, int kind, int type, int ndim, const int64_t *shape, const int64_t *strides,
                            cusci_dtype dtype, int naxes, const int64_t *s, const int *axes, cusci_fft_norm norm, sig_key *key);
/* Make the plan of a normalised request (libsignal/plan.c). */
cusci_status cusci__sig_plan(cusci_ctx *ctx, const char *fn, const sig_key *key, cusci_fft_plan **plan);
void cusci__sig_plan_free(cusci_fft_plan *p);
/* Run p on x into *out (checked by the caller: x matches p's key), with
 * staging buffers at `stage` (p->stage_bytes, or NULL: from the pool) and
 * cuFFT's work area at `work`. */
cusci_status cusci__sig_run(cusci_ctx *ctx, const char *fn, cusci_fft_plan *p, const cusci_array *x, void *stage, void *work, cusci_array **out);
/* A plain call: the request, the plan from ctx's cache (made and kept on a
 * miss), the run (libsignal/cache.c). */
cusci_status cusci__sig_call(cusci_ctx *ctx, const char *fn, int kind, int type, const cusci_array *x, int naxes, const int64_t *s,
                             const int *axes, cusci_fft_norm norm, cusci_array **out);

/* Release every array of the list (NULLs too). */
static inline void sig_release(cusci_array *const *a, size_t n)
{
  for (size_t i = 0; i < n; i++)
    cusci_array_release(a[i]);
}
#define SIG_RELEASE(...) sig_release((cusci_array *const[]){ __VA_ARGS__ }, sizeof((cusci_array *const[]){ __VA_ARGS__ }) / sizeof(cusci_array *))
/* The compute dtype of n inputs: SciPy's promotion into float32, float64,
 * complex64 or complex128, bool and integers as float64, float16 as
 * float32 (libsignal/check.c). */
cusci_dtype cusci__sig_dtype(int n, const cusci_dtype *dts);
/* The precision code of reference/signal/filter.h for one of those four
 * dtypes (uint64: the integers' convolution). */
int cusci__sig_prec(cusci_dtype dt);
int64_t cusci__sig_gcd(int64_t a, int64_t b);
/* v's n values in dt (the real parts for a real dt), into out. */
void cusci__sig_pack(const double _Complex *v, int64_t n, cusci_dtype dt, void *out);
/* n complex128 values (host) as a new array of dt (one of the four) on
 * ctx's device, converted on the host: one copy, no kernel. */
cusci_status cusci__sig_upload(cusci_ctx *ctx, const double _Complex *v, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out);
/* The same for real values. */
cusci_status cusci__sig_upload_real(cusci_ctx *ctx, const double *v, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out);
/* When st is CUSCI_OK, the n float64 values v (a 1-d result designed on
 * the host) on ctx's device in *out (the out convention); st otherwise. */
cusci_status cusci__sig_give_real(cusci_ctx *ctx, const char *fn, cusci_status st, const double *v, int64_t n, cusci_array **out);
/* axis of an array of nd dimensions (name, for the message), from the end
 * when negative, into *out: CUSCI_ERR_SHAPE for a 0-d array,
 * CUSCI_ERR_AXIS out of range (libsignal/check.c). */
cusci_status cusci__sig_axis(cusci_ctx *ctx, const char *fn, const char *name, int nd, int axis, int *out);
/* x as a C-contiguous array of dt (x itself, retained, when it is one). */
cusci_status cusci__sig_contiguous(cusci_ctx *ctx, const cusci_array *x, cusci_dtype dt, cusci_array **out);
/* a[start:stop:step] along axis, everything along the other axes (a view;
 * CUSCI_SLICE_NONE as Python's None). */
cusci_status cusci__sig_along(cusci_ctx *ctx, cusci_array *a, int axis, int64_t start, int64_t stop, int64_t step, cusci_array **out);
/* out[..., j, ...] = sum_t in[..., t, ...] C[j n + t] along axis, for the
 * rows j < rows of the host matrix C (rows x n, complex128 values): a new
 * array with rows along axis, of dt (libsignal/filter.c). */
cusci_status cusci__sig_apply_matrix(cusci_ctx *ctx, const double _Complex *C, int64_t rows, int64_t n, cusci_array *in, int axis, cusci_dtype dt,
                                     cusci_array **out);
/* Two results into *oa and *ob (the out convention) when st is CUSCI_OK;
 * a and b are released where not given. Returns the first failure. */
cusci_status cusci__sig_give_two(cusci_ctx *ctx, const char *fn, cusci_status st, cusci_array *a, cusci_array **oa, cusci_array *b,
                                 cusci_array **ob);
/* A CUSCI__SIG_DESIGN_* code of reference/signal/design.h as a status
 * and message (libsignal/design.c). */
cusci_status cusci__sig_design_fail(cusci_ctx *ctx, const char *fn, int rc);
/* get_window's nx values of the window named by `window` (its syntax, its
 * checks and messages) in a new malloc'ed host array (libsignal/windows.c). */
cusci_status cusci__sig_window_host(cusci_ctx *ctx, const char *fn, const char *window, int64_t nx, bool fftbins, double **v);
/* zpk2sos's pairing (DEFAULT: nearest, or minimal for analog systems)
 * as a cusci__sig_pairing of reference/signal/design.h; CUSCI_ERR_VALUE
 * for a value outside the enum or an analog one other than minimal
 * (libsignal/convert.c). The enum is signal.h's, so passed as int. */
cusci_status cusci__sig_pairing_of(cusci_ctx *ctx, const char *fn, int pairing, bool analog, int *out);
/* The values of a coefficient array (any dtype, on ctx's device) on the
 * host as complex128, all finite: a new malloc'ed array of its size, C
 * order (libsignal/filter.c). */
cusci_status cusci__sig_host_values(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, double _Complex **v);
/* The same, real parts only, for a real array: a new malloc'ed array of doubles. */
cusci_status cusci__sig_host_reals(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, double **v);
/* The FIR filters of SciPy's firwin(taps, fc) (low-pass, fc relative to
 * Nyquist, scaled to a DC gain of 1) with the window of resample_poly
 * (Kaiser, beta 5) or decimate (Hamming), into h (libsignal/resample.c). */
enum { CUSCI__SIG_WIN_KAISER5 = 0, CUSCI__SIG_WIN_HAMMING };
void cusci__sig_firwin(int64_t taps, double fc, int window, double *h);
/* resample_poly's taps for reduced rates up and down (not yet times up):
 * the given window (nwin taps) or SciPy's design, after the zeros that
 * centre the outputs; *nh the count, *remove the outputs before the first
 * kept one. NULL when memory runs out. */
double *cusci__sig_poly_taps(int64_t up, int64_t down, const double *win, int64_t nwin, int64_t *nh, int64_t *remove);
/* resample_poly with SciPy's filter (win NULL) or the FIR filter win of
 * nwin taps (SciPy's window argument as an array of dtype wdt), x
 * extended by the constant cval beyond its ends, or (ext, a
 * cusci_signal_ext other than the constant) as that upfirdn mode. */
cusci_status cusci__sig_resample_poly(cusci_ctx *ctx, const char *fn, const cusci_array *x, int64_t up, int64_t down, int axis, const double *win,
                                      int64_t nwin, cusci_dtype wdt, double cval, int ext, cusci_array **out);
/* x as dt extended along each axis by before[i] and after[i] elements as
 * mode (reference/signal/filter.h's CUSCI__SIG_PAD_*; fill for FILL), a
 * new contiguous array (libsignal/convolve.c); up to 8 dimensions. */
cusci_status cusci__sig_pad_array(cusci_ctx *ctx, const char *fn, const cusci_array *x, cusci_dtype dt, const int64_t *before, const int64_t *after,
                                  int mode, double fill, cusci_array **out);

/* A design's sampling frequency: 0 (frequencies relative to Nyquist) or
 * positive and finite, and none for an analog design. */
cusci_status cusci__sig_check_fs(cusci_ctx *ctx, const char *fn, double fs, bool analog);

/* The order selection of the IIR family ftype (not Bessel), checked and
 * explained as fn: *N, Wn (nwn) and the band type of the spec. */
cusci_status cusci__sig_select_order(cusci_ctx *ctx, const char *fn, int ftype, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                      bool analog, double fs, int *N, double *Wn, int *btype);

#endif
