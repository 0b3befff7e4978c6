/*
 * libsignal/design.c: IIR filter design (scipy.signal.iirfilter and the
 * families it designs, butter, cheby1, cheby2, ellip, bessel, and their
 * steps: the analog prototypes, the lp2*_zpk transforms, bilinear_zpk,
 * zpk2tf, zpk2sos) on the host in float64, the results uploaded to the
 * context's device.
 * The numerics are reference/signal/design.c's; this file checks, explains
 * and moves.
 */
#include "libsignal/internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include <cusci/signal.h>

#include "reference/signal/design.h"

static const char *btype_name(cusci_signal_btype b)
{
  static const char *const names[] = {"lowpass", "highpass", "bandpass", "bandstop"};
  return (unsigned)b < 4 ? names[b] : "unknown";
}

/* A zpk system on the host: room for cap zeros and cap poles. */
typedef struct zpk {
  double complex *z, *p;
  int64_t nz, np;
  double k;
} zpk;

static cusci_status zpk_alloc(cusci_ctx *ctx, const char *fn, int64_t cap, zpk *s)
{
  s->z = malloc(sizeof *s->z * (size_t)(cap ? cap : 1));
  s->p = malloc(sizeof *s->p * (size_t)(cap ? cap : 1));
  s->nz = s->np = 0, s->k = 1;
  if (s->z && s->p)
    return CUSCI_OK;
  free(s->z), free(s->p);
  s->z = s->p = NULL;
  return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld zeros and poles", (long long)cap);
}

static void zpk_free(zpk *s)
{
  free(s->z), free(s->p);
  s->z = s->p = NULL;
}

cusci_status cusci__sig_design_fail(cusci_ctx *ctx, const char *fn, int rc)
{
  switch (rc) {
  case CUSCI__SIG_DESIGN_DEGREE: return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the system has more zeros than poles");
  case CUSCI__SIG_DESIGN_CONJ: return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a complex zero or pole has no matching conjugate");
  case CUSCI__SIG_DESIGN_MEMORY: return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  case CUSCI__SIG_DESIGN_ELLIPTIC:
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "no elliptic filter has this passband ripple and stopband attenuation");
  case CUSCI__SIG_DESIGN_CONVERGE:
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the Bessel poles of this order did not converge or overflow a double");
  case CUSCI__SIG_DESIGN_EIGVALS: return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the eigenvalues (roots) did not converge in 30 QR iterations");
  case CUSCI__SIG_DESIGN_FINITE: return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a value is not finite");
  case CUSCI__SIG_DESIGN_SPACING:
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "freq has a value within eps * (fs/2) of a repeated value (SciPy: numbers that are too close)");
  case CUSCI__SIG_DESIGN_REMEZ:
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the Remez exchange did not converge in maxiter iterations: try a wider transition band");
  case CUSCI__SIG_DESIGN_GRID:
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                          "band edges are too close together for the dense grid: it has fewer points than the numtaps / 2 + 2 extremal "
                          "frequencies; widen the bands, reduce numtaps or raise grid_density");
  default: return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "design step failed (code %d)", rc);
  }
}

static const char *ftype_name(cusci_signal_iir_type f)
{
  static const char *const names[] = {"Butterworth", "Chebyshev I", "Chebyshev II", "elliptic", "Bessel (phase)", "Bessel (delay)", "Bessel (mag)"};
  return (unsigned)f <= CUSCI_SIGNAL_BESSEL_MAG ? names[f] : "unknown";
}

/* The analog prototype of a family into s (room for 2N of each): the
 * ripple and attenuation checked where the family reads them. */
static cusci_status prototype(cusci_ctx *ctx, const char *fn, cusci_signal_iir_type ftype, int N, double rp, double rs, zpk *s)
{
  const bool need_rp = ftype == CUSCI_SIGNAL_CHEBY1 || ftype == CUSCI_SIGNAL_ELLIP;
  const bool need_rs = ftype == CUSCI_SIGNAL_CHEBY2 || ftype == CUSCI_SIGNAL_ELLIP;
  if (need_rp && (!(rp > 0) || !isfinite(rp)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rp %g: the passband ripple (dB) of a %s filter must be positive and finite", rp,
                          ftype_name(ftype));
  if (need_rs && (!(rs > 0) || !isfinite(rs)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "rs %g: the stopband attenuation (dB) of a %s filter must be positive and finite", rs,
                          ftype_name(ftype));
  s->nz = 0, s->np = N;
  if (N == 0) {
    s->np = 0;
    s->k = need_rp ? pow(10, -rp / 20) : 1;
    return CUSCI_OK;
  }
  int rc = 0;
  switch (ftype) {
  case CUSCI_SIGNAL_BUTTER: cusci__sig_buttap(N, s->p), s->k = 1; break;
  case CUSCI_SIGNAL_CHEBY1: rc = cusci__sig_cheb1ap(N, rp, s->p, &s->k); break;
  case CUSCI_SIGNAL_CHEBY2: rc = cusci__sig_cheb2ap(N, rs, s->z, &s->nz, s->p, &s->k); break;
  case CUSCI_SIGNAL_ELLIP: rc = cusci__sig_ellipap(N, rp, rs, s->z, &s->nz, s->p, &s->np, &s->k); break;
  default: rc = cusci__sig_besselap(N, (int)(ftype - CUSCI_SIGNAL_BESSEL_PHASE), s->p, &s->k); break;
  }
  return rc ? cusci__sig_design_fail(ctx, fn, rc) : CUSCI_OK;
}

/* One IIR design as SciPy's iirfilter takes it. */
typedef struct iir_design {
  int N, nwn;
  const double *Wn;
  double rp, rs;
  cusci_signal_btype btype;
  cusci_signal_iir_type ftype;
  const cusci_signal_iir_opts *opts;
} iir_design;

/* SciPy's iirfilter: the checks, the prototype, the prewarping, the band
 * transform and the bilinear transform, into s. */
static cusci_status iir_zpk(cusci_ctx *ctx, const char *fn, const iir_design *d, zpk *s)
{
  const bool analog = d->opts && d->opts->analog;
  const double fs = d->opts ? d->opts->fs : 0;
  const int N = d->N, nwn = d->nwn;
  const double *Wn = d->Wn;
  const cusci_signal_btype btype = d->btype;
  if (N < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "order N %d: the order must be at least 1", N);
  if ((unsigned)btype > CUSCI_SIGNAL_BANDSTOP)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "btype %d is not a cusci_signal_btype", (int)btype);
  if ((unsigned)d->ftype > CUSCI_SIGNAL_BESSEL_MAG)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "ftype %d is not a cusci_signal_iir_type", (int)d->ftype);
  const bool band = btype == CUSCI_SIGNAL_BANDPASS || btype == CUSCI_SIGNAL_BANDSTOP;
  if (nwn != (band ? 2 : 1))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nwn %d: a %s filter takes %d critical frequenc%s", nwn, btype_name(btype), band ? 2 : 1,
                          band ? "ies (start and stop)" : "y");
  CUSCI_TRY(cusci__sig_check_fs(ctx, fn, fs, analog));
  double w[2];
  for (int i = 0; i < nwn; i++) {
    w[i] = fs > 0 ? Wn[i] / (fs / 2) : Wn[i];
    if (!(w[i] > 0) || !isfinite(w[i]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Wn[%d] %g: critical frequencies must be greater than 0", i, Wn[i]);
    if (!analog && !(w[i] < 1)) {
      if (fs > 0)
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Wn[%d] %g: digital critical frequencies must be 0 < Wn < fs/2 (fs %g, fs/2 %g)", i, Wn[i], fs,
                              fs / 2);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Wn[%d] %g: digital critical frequencies must be 0 < Wn < 1 (relative to Nyquist)", i, Wn[i]);
    }
  }
  if (band && !(w[0] < w[1]))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "Wn %g, %g: the band's start must be below its stop", Wn[0], Wn[1]);
  CUSCI_TRY(zpk_alloc(ctx, fn, 2 * (int64_t)N, s));
  cusci_status st = prototype(ctx, fn, d->ftype, N, d->rp, d->rs, s);
  if (st != CUSCI_OK) {
    zpk_free(s);
    return st;
  }
  double warped[2];
  const double fsd = 2.0; /* the digital design's sampling frequency */
  for (int i = 0; i < nwn; i++)
    warped[i] = analog ? w[i] : 2 * fsd * tan(M_PI * w[i] / fsd);
  int rc;
  if (!band) {
    rc = btype == CUSCI_SIGNAL_LOWPASS ? cusci__sig_lp2lp_zpk(s->z, s->nz, s->p, s->np, &s->k, warped[0])
                                       : cusci__sig_lp2hp_zpk(s->z, &s->nz, s->p, s->np, &s->k, warped[0]);
  } else {
    const double bw = warped[1] - warped[0], wo = sqrt(warped[0] * warped[1]);
    rc = btype == CUSCI_SIGNAL_BANDPASS ? cusci__sig_lp2bp_zpk(s->z, &s->nz, s->p, &s->np, &s->k, wo, bw)
                                        : cusci__sig_lp2bs_zpk(s->z, &s->nz, s->p, &s->np, &s->k, wo, bw);
  }
  if (rc == 0 && !analog)
    rc = cusci__sig_bilinear_zpk(s->z, &s->nz, s->p, s->np, &s->k, fsd);
  if (rc != 0) {
    zpk_free(s);
    return cusci__sig_design_fail(ctx, fn, rc);
  }
  return CUSCI_OK;
}

static cusci_status upload_c(cusci_ctx *ctx, const double complex *v, int64_t n, cusci_array **out)
{
  return cusci__sig_upload(ctx, v, 1, &n, CUSCI_COMPLEX128, out);
}

/* *out = the zpk system's zeros and poles (complex128) and gain. */
static cusci_status give_zpk(cusci_ctx *ctx, const char *fn, const zpk *s, cusci_array **z, cusci_array **p, double *k)
{
  cusci_array *rz = NULL, *rp = NULL;
  cusci_status st = upload_c(ctx, s->z, s->nz, &rz);
  if (st == CUSCI_OK)
    st = upload_c(ctx, s->p, s->np, &rp);
  st = cusci__sig_give_two(ctx, fn, st, rz, z, rp, p);
  if (st == CUSCI_OK)
    *k = s->k;
  return st;
}

/* b and a of a zpk system, float64 when both are real. */
static cusci_status give_tf(cusci_ctx *ctx, const char *fn, const zpk *s, cusci_array **b, cusci_array **a)
{
  double complex *cb = malloc(sizeof *cb * (size_t)(s->nz + 1)), *ca = malloc(sizeof *ca * (size_t)(s->np + 1));
  cusci_status st = cb && ca ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_array *rb = NULL, *ra = NULL;
  if (st == CUSCI_OK) {
    const bool real_b = cusci__sig_poly(s->z, s->nz, s->k, cb);
    const bool real_a = cusci__sig_poly(s->p, s->np, 1, ca);
    const int64_t lb = s->nz + 1, la = s->np + 1;
    st = cusci__sig_upload(ctx, cb, 1, &lb, real_b ? CUSCI_FLOAT64 : CUSCI_COMPLEX128, &rb);
    if (st == CUSCI_OK)
      st = cusci__sig_upload(ctx, ca, 1, &la, real_a ? CUSCI_FLOAT64 : CUSCI_COMPLEX128, &ra);
  }
  free(cb), free(ca);
  return cusci__sig_give_two(ctx, fn, st, rb, b, ra, a);
}

/* The sections of a zpk system into a new host array *sos (*nsec rows). */
static cusci_status sections(cusci_ctx *ctx, const char *fn, const zpk *s, cusci__sig_pairing pairing, bool analog, double **sos, int64_t *nsec)
{
  *nsec = cusci__sig_zpk2sos_sections(s->nz, s->np, pairing);
  *sos = malloc(sizeof **sos * (size_t)(6 * *nsec));
  if (!*sos)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld sections", (long long)*nsec);
  const int rc = cusci__sig_zpk2sos(s->z, s->nz, s->p, s->np, s->k, pairing, analog, *sos);
  if (rc != 0) {
    free(*sos);
    *sos = NULL;
    return cusci__sig_design_fail(ctx, fn, rc);
  }
  return CUSCI_OK;
}

static cusci_status give_real(cusci_ctx *ctx, const char *fn, const double *v, int ndim, const int64_t *shape, cusci_array **out)
{
  cusci_array *r = NULL;
  CUSCI_TRY(cusci__sig_upload_real(ctx, v, ndim, shape, CUSCI_FLOAT64, &r));
  return cusci_give_out(ctx, fn, r, out);
}

static cusci__sig_pairing default_pairing(bool analog)
{
  return analog ? CUSCI__SIG_PAIR_MINIMAL : CUSCI__SIG_PAIR_NEAREST;
}

/* A design in each of the three outputs. */
static cusci_status design_zpk(cusci_ctx *ctx, const char *fn, const iir_design *d, cusci_array **z, cusci_array **p, double *k)
{
  CUSCI_ENTRY(ctx, fn, d->Wn, z, p, k);
  zpk s;
  CUSCI_TRY(iir_zpk(ctx, fn, d, &s));
  const cusci_status st = give_zpk(ctx, fn, &s, z, p, k);
  zpk_free(&s);
  return st;
}

static cusci_status design_ba(cusci_ctx *ctx, const char *fn, const iir_design *d, cusci_array **b, cusci_array **a)
{
  CUSCI_ENTRY(ctx, fn, d->Wn, b, a);
  zpk s;
  CUSCI_TRY(iir_zpk(ctx, fn, d, &s));
  const cusci_status st = give_tf(ctx, fn, &s, b, a);
  zpk_free(&s);
  return st;
}

static cusci_status design_sos(cusci_ctx *ctx, const char *fn, const iir_design *d, cusci_array **sos)
{
  CUSCI_ENTRY(ctx, fn, d->Wn, sos);
  zpk s;
  CUSCI_TRY(iir_zpk(ctx, fn, d, &s));
  const bool analog = d->opts && d->opts->analog;
  double *v = NULL;
  int64_t nsec = 0;
  cusci_status st = sections(ctx, fn, &s, default_pairing(analog), analog, &v, &nsec);
  zpk_free(&s);
  if (st == CUSCI_OK)
    st = give_real(ctx, fn, v, 2, (const int64_t[]){nsec, 6}, sos);
  free(v);
  return st;
}

#define DESIGN(N, nwn, Wn, rp, rs, btype, ftype, opts) (&(const iir_design){N, nwn, Wn, rp, rs, btype, ftype, opts})

cusci_status cusci_signal_iirfilter_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                        cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return design_sos(ctx, "cusci_signal_iirfilter_sos", DESIGN(N, nwn, Wn, rp, rs, btype, ftype, opts), sos);
}

cusci_status cusci_signal_iirfilter_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                       cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  return design_ba(ctx, "cusci_signal_iirfilter_ba", DESIGN(N, nwn, Wn, rp, rs, btype, ftype, opts), b, a);
}

cusci_status cusci_signal_iirfilter_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, double rp, double rs, cusci_signal_btype btype,
                                        cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  return design_zpk(ctx, "cusci_signal_iirfilter_zpk", DESIGN(N, nwn, Wn, rp, rs, btype, ftype, opts), z, p, k);
}

cusci_status cusci_signal_butter_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, const cusci_signal_iir_opts *opts,
                                     cusci_array **sos)
{
  return design_sos(ctx, "cusci_signal_butter_sos", DESIGN(N, nwn, Wn, 0, 0, btype, CUSCI_SIGNAL_BUTTER, opts), sos);
}

cusci_status cusci_signal_butter_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, const cusci_signal_iir_opts *opts,
                                    cusci_array **b, cusci_array **a)
{
  return design_ba(ctx, "cusci_signal_butter_ba", DESIGN(N, nwn, Wn, 0, 0, btype, CUSCI_SIGNAL_BUTTER, opts), b, a);
}

cusci_status cusci_signal_butter_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, const cusci_signal_iir_opts *opts,
                                     cusci_array **z, cusci_array **p, double *k)
{
  return design_zpk(ctx, "cusci_signal_butter_zpk", DESIGN(N, nwn, Wn, 0, 0, btype, CUSCI_SIGNAL_BUTTER, opts), z, p, k);
}

cusci_status cusci_signal_cheby1_sos(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                     const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return design_sos(ctx, "cusci_signal_cheby1_sos", DESIGN(N, nwn, Wn, rp, 0, btype, CUSCI_SIGNAL_CHEBY1, opts), sos);
}

cusci_status cusci_signal_cheby1_ba(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                    const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  return design_ba(ctx, "cusci_signal_cheby1_ba", DESIGN(N, nwn, Wn, rp, 0, btype, CUSCI_SIGNAL_CHEBY1, opts), b, a);
}

cusci_status cusci_signal_cheby1_zpk(cusci_ctx *ctx, int N, double rp, int nwn, const double *Wn, cusci_signal_btype btype,
                                     const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  return design_zpk(ctx, "cusci_signal_cheby1_zpk", DESIGN(N, nwn, Wn, rp, 0, btype, CUSCI_SIGNAL_CHEBY1, opts), z, p, k);
}

cusci_status cusci_signal_cheby2_sos(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                     const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return design_sos(ctx, "cusci_signal_cheby2_sos", DESIGN(N, nwn, Wn, 0, rs, btype, CUSCI_SIGNAL_CHEBY2, opts), sos);
}

cusci_status cusci_signal_cheby2_ba(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                    const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  return design_ba(ctx, "cusci_signal_cheby2_ba", DESIGN(N, nwn, Wn, 0, rs, btype, CUSCI_SIGNAL_CHEBY2, opts), b, a);
}

cusci_status cusci_signal_cheby2_zpk(cusci_ctx *ctx, int N, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                     const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  return design_zpk(ctx, "cusci_signal_cheby2_zpk", DESIGN(N, nwn, Wn, 0, rs, btype, CUSCI_SIGNAL_CHEBY2, opts), z, p, k);
}

cusci_status cusci_signal_ellip_sos(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                    const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return design_sos(ctx, "cusci_signal_ellip_sos", DESIGN(N, nwn, Wn, rp, rs, btype, CUSCI_SIGNAL_ELLIP, opts), sos);
}

cusci_status cusci_signal_ellip_ba(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                   const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  return design_ba(ctx, "cusci_signal_ellip_ba", DESIGN(N, nwn, Wn, rp, rs, btype, CUSCI_SIGNAL_ELLIP, opts), b, a);
}

cusci_status cusci_signal_ellip_zpk(cusci_ctx *ctx, int N, double rp, double rs, int nwn, const double *Wn, cusci_signal_btype btype,
                                    const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  return design_zpk(ctx, "cusci_signal_ellip_zpk", DESIGN(N, nwn, Wn, rp, rs, btype, CUSCI_SIGNAL_ELLIP, opts), z, p, k);
}

/* A Bessel norm as its ftype; an unknown norm as an invalid ftype, which
 * iir_zpk refuses (the message then names the norm). */
static cusci_signal_iir_type bessel_ftype(cusci_ctx *ctx, const char *fn, cusci_signal_bessel_norm norm, cusci_status *st)
{
  *st = CUSCI_OK;
  if ((unsigned)norm > CUSCI_SIGNAL_NORM_MAG)
    *st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "norm %d is not a cusci_signal_bessel_norm (PHASE, DELAY or MAG)", (int)norm);
  return (cusci_signal_iir_type)(CUSCI_SIGNAL_BESSEL_PHASE + (int)norm);
}

cusci_status cusci_signal_bessel_sos(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                     const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  static const char fn[] = "cusci_signal_bessel_sos";
  cusci_status st;
  const cusci_signal_iir_type f = bessel_ftype(ctx, fn, norm, &st);
  return st != CUSCI_OK ? st : design_sos(ctx, fn, DESIGN(N, nwn, Wn, 0, 0, btype, f, opts), sos);
}

cusci_status cusci_signal_bessel_ba(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                    const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  static const char fn[] = "cusci_signal_bessel_ba";
  cusci_status st;
  const cusci_signal_iir_type f = bessel_ftype(ctx, fn, norm, &st);
  return st != CUSCI_OK ? st : design_ba(ctx, fn, DESIGN(N, nwn, Wn, 0, 0, btype, f, opts), b, a);
}

cusci_status cusci_signal_bessel_zpk(cusci_ctx *ctx, int N, int nwn, const double *Wn, cusci_signal_btype btype, cusci_signal_bessel_norm norm,
                                     const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_bessel_zpk";
  cusci_status st;
  const cusci_signal_iir_type f = bessel_ftype(ctx, fn, norm, &st);
  return st != CUSCI_OK ? st : design_zpk(ctx, fn, DESIGN(N, nwn, Wn, 0, 0, btype, f, opts), z, p, k);
}

/* iirdesign: the order and critical frequencies of the spec, then the
 * family's design of them, into d (Wn is the caller's room for 2). */
static cusci_status spec_design(cusci_ctx *ctx, const char *fn, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, double *Wn, iir_design *d)
{
  CUSCI_ENTRY(ctx, fn, wp, ws);
  int N = 0, btype = 0;
  CUSCI_TRY(cusci__sig_select_order(ctx, fn, (int)ftype, nwn, wp, ws, gpass, gstop, opts && opts->analog, opts ? opts->fs : 0, &N, Wn, &btype));
  *d = (iir_design){N, nwn, Wn, gpass, gstop, (cusci_signal_btype)btype, ftype, opts};
  return CUSCI_OK;
}

cusci_status cusci_signal_iirdesign_sos(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                        cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  static const char fn[] = "cusci_signal_iirdesign_sos";
  double Wn[2];
  iir_design d;
  CUSCI_TRY(spec_design(ctx, fn, nwn, wp, ws, gpass, gstop, ftype, opts, Wn, &d));
  return design_sos(ctx, fn, &d, sos);
}

cusci_status cusci_signal_iirdesign_ba(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                       cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **b, cusci_array **a)
{
  static const char fn[] = "cusci_signal_iirdesign_ba";
  double Wn[2];
  iir_design d;
  CUSCI_TRY(spec_design(ctx, fn, nwn, wp, ws, gpass, gstop, ftype, opts, Wn, &d));
  return design_ba(ctx, fn, &d, b, a);
}

cusci_status cusci_signal_iirdesign_zpk(cusci_ctx *ctx, int nwn, const double *wp, const double *ws, double gpass, double gstop,
                                        cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_iirdesign_zpk";
  double Wn[2];
  iir_design d;
  CUSCI_TRY(spec_design(ctx, fn, nwn, wp, ws, gpass, gstop, ftype, opts, Wn, &d));
  return design_zpk(ctx, fn, &d, z, p, k);
}

static cusci_status sos_bank(cusci_ctx *ctx, const char *fn, int64_t nfilt, const int *N, int nwn, const double *Wn, double rp, double rs,
                             cusci_signal_btype btype, cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  CUSCI_ENTRY(ctx, fn, N, Wn, sos);
  if (nfilt < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfilt %lld: a bank has at least one filter", (long long)nfilt);
  const bool analog = opts && opts->analog;
  int64_t most = 0;
  for (int64_t i = 0; i < nfilt; i++) {
    if (N[i] < 1)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "N[%lld] %d: the order must be at least 1", (long long)i, N[i]);
    const int64_t order = (btype == CUSCI_SIGNAL_BANDPASS || btype == CUSCI_SIGNAL_BANDSTOP) ? 2 * (int64_t)N[i] : N[i];
    const int64_t ns = cusci__sig_zpk2sos_sections(order, order, default_pairing(analog));
    most = ns > most ? ns : most;
  }
  if ((uint64_t)nfilt > (uint64_t)INT64_MAX / 6 / (uint64_t)most)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "nfilt %lld: the bank is too large", (long long)nfilt);
  double *all = malloc(sizeof *all * (size_t)(nfilt * most * 6));
  if (!all)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld filters of %lld sections", (long long)nfilt, (long long)most);
  cusci_status st = CUSCI_OK;
  for (int64_t i = 0; i < nfilt && st == CUSCI_OK; i++) {
    zpk s;
    st = iir_zpk(ctx, fn, DESIGN(N[i], nwn, Wn + i * nwn, rp, rs, btype, ftype, opts), &s);
    if (st != CUSCI_OK)
      break;
    double *v = NULL;
    int64_t ns = 0;
    st = sections(ctx, fn, &s, default_pairing(analog), analog, &v, &ns);
    zpk_free(&s);
    if (st != CUSCI_OK)
      break;
    double *row = all + i * most * 6;
    memcpy(row, v, sizeof *v * (size_t)(6 * ns));
    for (int64_t q = ns; q < most; q++) {
      static const double one[6] = {1, 0, 0, 1, 0, 0};
      memcpy(row + 6 * q, one, sizeof one);
    }
    free(v);
  }
  if (st == CUSCI_OK)
    st = give_real(ctx, fn, all, 3, (const int64_t[]){nfilt, most, 6}, sos);
  free(all);
  return st;
}

cusci_status cusci_signal_iirfilter_sos_bank(cusci_ctx *ctx, int64_t nfilt, const int *N, int nwn, const double *Wn, double rp, double rs,
                                             cusci_signal_btype btype, cusci_signal_iir_type ftype, const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return sos_bank(ctx, "cusci_signal_iirfilter_sos_bank", nfilt, N, nwn, Wn, rp, rs, btype, ftype, opts, sos);
}

cusci_status cusci_signal_butter_sos_bank(cusci_ctx *ctx, int64_t nfilt, const int *N, int nwn, const double *Wn, cusci_signal_btype btype,
                                          const cusci_signal_iir_opts *opts, cusci_array **sos)
{
  return sos_bank(ctx, "cusci_signal_butter_sos_bank", nfilt, N, nwn, Wn, 0, 0, btype, CUSCI_SIGNAL_BUTTER, opts, sos);
}

/* An analog prototype on its own: N >= 0. */
static cusci_status give_prototype(cusci_ctx *ctx, const char *fn, cusci_signal_iir_type ftype, int N, double rp, double rs, cusci_array **z,
                                   cusci_array **p, double *k)
{
  CUSCI_ENTRY(ctx, fn, z, p, k);
  if (N < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "order N %d: the order must not be negative", N);
  zpk s;
  CUSCI_TRY(zpk_alloc(ctx, fn, 2 * (int64_t)N, &s));
  cusci_status st = prototype(ctx, fn, ftype, N, rp, rs, &s);
  if (st == CUSCI_OK)
    st = give_zpk(ctx, fn, &s, z, p, k);
  zpk_free(&s);
  return st;
}

cusci_status cusci_signal_buttap(cusci_ctx *ctx, int N, cusci_array **z, cusci_array **p, double *k)
{
  return give_prototype(ctx, "cusci_signal_buttap", CUSCI_SIGNAL_BUTTER, N, 0, 0, z, p, k);
}

cusci_status cusci_signal_cheb1ap(cusci_ctx *ctx, int N, double rp, cusci_array **z, cusci_array **p, double *k)
{
  return give_prototype(ctx, "cusci_signal_cheb1ap", CUSCI_SIGNAL_CHEBY1, N, rp, 0, z, p, k);
}

cusci_status cusci_signal_cheb2ap(cusci_ctx *ctx, int N, double rs, cusci_array **z, cusci_array **p, double *k)
{
  return give_prototype(ctx, "cusci_signal_cheb2ap", CUSCI_SIGNAL_CHEBY2, N, 0, rs, z, p, k);
}

cusci_status cusci_signal_ellipap(cusci_ctx *ctx, int N, double rp, double rs, cusci_array **z, cusci_array **p, double *k)
{
  return give_prototype(ctx, "cusci_signal_ellipap", CUSCI_SIGNAL_ELLIP, N, rp, rs, z, p, k);
}

cusci_status cusci_signal_besselap(cusci_ctx *ctx, int N, cusci_signal_bessel_norm norm, cusci_array **z, cusci_array **p, double *k)
{
  static const char fn[] = "cusci_signal_besselap";
  cusci_status st;
  const cusci_signal_iir_type f = bessel_ftype(ctx, fn, norm, &st);
  return st != CUSCI_OK ? st : give_prototype(ctx, fn, f, N, 0, 0, z, p, k);
}

/* z and p (1-d, any dtype) on the host, with room for cap of each. */
static cusci_status read_zpk(cusci_ctx *ctx, const char *fn, const cusci_array *z, const cusci_array *p, double k, int64_t grow, zpk *s)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "z", z));
  CUSCI_TRY(cusci_check_array(ctx, fn, "p", p));
  if (cusci_array_ndim(z) > 1 || cusci_array_ndim(p) > 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "z (%d-d) and p (%d-d) must be 1-d", cusci_array_ndim(z), cusci_array_ndim(p));
  if (!isfinite(k))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the gain k %g is not finite", k);
  const int64_t nz = cusci_array_size(z), np = cusci_array_size(p);
  double complex *hz = NULL, *hp = NULL;
  CUSCI_TRY(cusci__sig_host_values(ctx, fn, "z", z, &hz));
  cusci_status st = cusci__sig_host_values(ctx, fn, "p", p, &hp);
  const int64_t cap = grow * ((nz > np ? nz : np) + 1);
  if (st == CUSCI_OK)
    st = zpk_alloc(ctx, fn, cap, s);
  if (st == CUSCI_OK) {
    memcpy(s->z, hz, sizeof *hz * (size_t)nz);
    memcpy(s->p, hp, sizeof *hp * (size_t)np);
    s->nz = nz, s->np = np, s->k = k;
  }
  free(hz), free(hp);
  return st;
}

typedef enum { LP2LP, LP2HP, LP2BP, LP2BS, BILINEAR } zpk_op;

static cusci_status transform(cusci_ctx *ctx, const char *fn, zpk_op op, const cusci_array *z, const cusci_array *p, double k, double a, double b,
                              cusci_array **zo, cusci_array **po, double *ko)
{
  CUSCI_ENTRY(ctx, fn, z, p, zo, po, ko);
  if (!(a > 0) || !isfinite(a))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%s %g must be positive and finite", op == BILINEAR ? "fs" : "wo", a);
  if ((op == LP2BP || op == LP2BS) && (!(b > 0) || !isfinite(b)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "bw %g must be positive and finite", b);
  zpk s;
  CUSCI_TRY(read_zpk(ctx, fn, z, p, k, 2, &s));
  int rc = 0;
  switch (op) {
  case LP2LP: rc = cusci__sig_lp2lp_zpk(s.z, s.nz, s.p, s.np, &s.k, a); break;
  case LP2HP: rc = cusci__sig_lp2hp_zpk(s.z, &s.nz, s.p, s.np, &s.k, a); break;
  case LP2BP: rc = cusci__sig_lp2bp_zpk(s.z, &s.nz, s.p, &s.np, &s.k, a, b); break;
  case LP2BS: rc = cusci__sig_lp2bs_zpk(s.z, &s.nz, s.p, &s.np, &s.k, a, b); break;
  case BILINEAR: rc = cusci__sig_bilinear_zpk(s.z, &s.nz, s.p, s.np, &s.k, a); break;
  }
  const cusci_status st = rc ? cusci__sig_design_fail(ctx, fn, rc) : give_zpk(ctx, fn, &s, zo, po, ko);
  zpk_free(&s);
  return st;
}

cusci_status cusci_signal_lp2lp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, cusci_array **zo,
                                    cusci_array **po, double *ko)
{
  return transform(ctx, "cusci_signal_lp2lp_zpk", LP2LP, z, p, k, wo, 1, zo, po, ko);
}

cusci_status cusci_signal_lp2hp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, cusci_array **zo,
                                    cusci_array **po, double *ko)
{
  return transform(ctx, "cusci_signal_lp2hp_zpk", LP2HP, z, p, k, wo, 1, zo, po, ko);
}

cusci_status cusci_signal_lp2bp_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, double bw, cusci_array **zo,
                                    cusci_array **po, double *ko)
{
  return transform(ctx, "cusci_signal_lp2bp_zpk", LP2BP, z, p, k, wo, bw, zo, po, ko);
}

cusci_status cusci_signal_lp2bs_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double wo, double bw, cusci_array **zo,
                                    cusci_array **po, double *ko)
{
  return transform(ctx, "cusci_signal_lp2bs_zpk", LP2BS, z, p, k, wo, bw, zo, po, ko);
}

cusci_status cusci_signal_bilinear_zpk(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, double fs, cusci_array **zo,
                                       cusci_array **po, double *ko)
{
  return transform(ctx, "cusci_signal_bilinear_zpk", BILINEAR, z, p, k, fs, 1, zo, po, ko);
}

cusci_status cusci_signal_zpk2tf(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_array **b, cusci_array **a)
{
  static const char fn[] = "cusci_signal_zpk2tf";
  CUSCI_ENTRY(ctx, fn, z, p, b, a);
  zpk s;
  CUSCI_TRY(read_zpk(ctx, fn, z, p, k, 1, &s));
  const cusci_status st = give_tf(ctx, fn, &s, b, a);
  zpk_free(&s);
  return st;
}

cusci_status cusci_signal_zpk2sos(cusci_ctx *ctx, const cusci_array *z, const cusci_array *p, double k, cusci_signal_pairing pairing, bool analog,
                                  cusci_array **sos)
{
  static const char fn[] = "cusci_signal_zpk2sos";
  CUSCI_ENTRY(ctx, fn, z, p, sos);
  int pi;
  CUSCI_TRY(cusci__sig_pairing_of(ctx, fn, (int)pairing, analog, &pi));
  const cusci__sig_pairing pr = (cusci__sig_pairing)pi;
  zpk s;
  CUSCI_TRY(read_zpk(ctx, fn, z, p, k, 1, &s));
  double *v = NULL;
  int64_t nsec = 0;
  cusci_status st = sections(ctx, fn, &s, pr, analog, &v, &nsec);
  zpk_free(&s);
  if (st == CUSCI_OK)
    st = give_real(ctx, fn, v, 2, (const int64_t[]){nsec, 6}, sos);
  free(v);
  return st;
}
