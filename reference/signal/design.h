/*
 * reference/signal/design.h: filter design and windows on the host, in
 * float64, as scipy.signal defines them. Zeros, poles and gains are plain
 * arrays (double complex) with their counts; every function works in
 * place on buffers whose capacity its comment gives, and returns 0 or one
 * of the CUSCI__SIG_DESIGN_* codes for the API layer to explain.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_DESIGN_H
#define CUSCI_REFERENCE_SIGNAL_DESIGN_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

enum {
  CUSCI__SIG_DESIGN_OK = 0,
  CUSCI__SIG_DESIGN_DEGREE,   /* more zeros than poles */
  CUSCI__SIG_DESIGN_CONJ,     /* a complex value without its conjugate */
  CUSCI__SIG_DESIGN_MEMORY,   /* no host memory */
  CUSCI__SIG_DESIGN_EIGEN,    /* the eigenvector did not converge */
  CUSCI__SIG_DESIGN_ELLIPTIC, /* ripple and attenuation no elliptic filter meets */
  CUSCI__SIG_DESIGN_CONVERGE, /* the Bessel poles did not converge, or overflowed */
  CUSCI__SIG_DESIGN_EIGVALS,  /* the QR iteration did not converge */
  CUSCI__SIG_DESIGN_FINITE,   /* a value is not finite */
  CUSCI__SIG_DESIGN_SPACING,  /* firwin2: a frequency within eps nyq of a repeated one */
  CUSCI__SIG_DESIGN_REMEZ,    /* the Remez exchange did not converge in maxiter iterations */
  CUSCI__SIG_DESIGN_GRID      /* remez: fewer grid points than extremal frequencies */
};

/* zpk2sos's pairings, as SciPy's (nearest is the digital default, minimal
 * the analog one). */
typedef enum { CUSCI__SIG_PAIR_NEAREST = 0, CUSCI__SIG_PAIR_KEEP_ODD, CUSCI__SIG_PAIR_MINIMAL } cusci__sig_pairing;

/* The analog Butterworth prototype of order N: N poles, no zeros, k 1. */
void cusci__sig_buttap(int N, double complex *p);

/* The other analog prototypes of order N >= 1, their zeros and poles in
 * SciPy's order: cheb1ap (rp dB of passband ripple: N poles, no zeros),
 * cheb2ap (rs dB of stopband attenuation: N poles, N or N - 1 zeros),
 * ellipap (both: N poles, N or N - 1 zeros), besselap (N poles, no zeros,
 * normalized as norm says). */
enum { CUSCI__SIG_BESSEL_PHASE = 0, CUSCI__SIG_BESSEL_DELAY, CUSCI__SIG_BESSEL_MAG };
int cusci__sig_cheb1ap(int N, double rp, double complex *p, double *k);
int cusci__sig_cheb2ap(int N, double rs, double complex *z, int64_t *nz, double complex *p, double *k);
int cusci__sig_ellipap(int N, double rp, double rs, double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k);
int cusci__sig_besselap(int N, int norm, double complex *p, double *k);

/* NumPy's complex quotient (Smith's method), which the transforms and
 * the prototypes use so that their roots come out as SciPy's. */
double complex cusci__sig_np_div(double complex x, double complex y);
/* x y by the textbook formula, as NumPy's (no C99 Annex G recovery of
 * infinities): what the responses and prototypes multiply with. */
double complex cusci__sig_np_mul(double complex x, double complex y);

/* K(m), K(1 - m1) (scipy.special.ellipk, ellipkm1) and 10^x - 1. */
double cusci__sig_ellipk(double m);
double cusci__sig_ellipkm1(double m1);
double cusci__sig_pow10m1(double x);

/* Order selection as scipy.signal's buttord, cheb1ord, cheb2ord and
 * ellipord (kind: the cusci__sig_ord_kind), on analog (prewarped) edges:
 * type is SciPy's filter type (1 lowpass, 2 highpass, 3 bandstop,
 * 4 bandpass), passb and stopb hold 1 or 2 edges; *order is the order
 * before it is made an int (inf or NaN when no order meets the spec),
 * WN the analog natural frequencies (as many as edges). */
typedef enum { CUSCI__SIG_ORD_BUTTER = 0, CUSCI__SIG_ORD_CHEB1, CUSCI__SIG_ORD_CHEB2, CUSCI__SIG_ORD_ELLIP } cusci__sig_ord_kind;
void cusci__sig_iirord(cusci__sig_ord_kind kind, int type, const double *passb, const double *stopb, double gpass, double gstop, double *order,
                       double *WN);

/* Frequency transforms of an analog prototype, in place. lp2lp and
 * bilinear keep the counts (bilinear adds np - nz zeros at -1, so z needs
 * room for np); lp2hp makes np zeros (room np); lp2bp makes 2 nz + (np -
 * nz) zeros and 2 np poles; lp2bs 2 np zeros and 2 np poles. */
int cusci__sig_lp2lp_zpk(double complex *z, int64_t nz, double complex *p, int64_t np, double *k, double wo);
int cusci__sig_lp2hp_zpk(double complex *z, int64_t *nz, double complex *p, int64_t np, double *k, double wo);
int cusci__sig_lp2bp_zpk(double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k, double wo, double bw);
int cusci__sig_lp2bs_zpk(double complex *z, int64_t *nz, double complex *p, int64_t *np, double *k, double wo, double bw);
int cusci__sig_bilinear_zpk(double complex *z, int64_t *nz, double complex *p, int64_t np, double *k, double fs);

/* The polynomial (n + 1 coefficients, highest power first) whose roots
 * are r[0..n), times k; true when it is real (the roots come in conjugate
 * pairs), and then c's imaginary parts are zero. */
bool cusci__sig_poly(const double complex *r, int64_t n, double k, double complex *c);

/* The eigenvalues of the n x n row-major real matrix a (destroyed) into
 * w[0..n), as numpy.linalg.eigvals finds them, in an order of their own
 * (reference/signal/roots.c). */
int cusci__sig_eigvals(double *a, int64_t n, double complex *w);
/* numpy.roots of the n coefficients c (highest power first): *nr roots
 * into r (room n - 1), the companion's eigenvalues then a zero for each
 * trailing zero coefficient; none when c is all zeros. */
int cusci__sig_roots(const double *c, int64_t n, double complex *r, int64_t *nr);

/* Frequency responses (reference/signal/freqresp.c), at the n
 * frequencies w (radians per sample, or rad/s for the analog ones) into
 * h: freqz b(e^-iw) / a(e^-iw) (coefficients in powers of z^-1), freqz_zpk
 * k prod(e^iw - z) / prod(e^iw - p), freqs b(iw) / a(iw) (highest power
 * first), freqs_zpk, the group delay of b / a (0 where it is singular,
 * as SciPy's). findfreqs: SciPy's N logarithmically spaced frequencies
 * for the poles ep and zeros tz of an analog system. linspace as
 * NumPy's. */
void cusci__sig_linspace(double start, double stop, int64_t n, bool endpoint, double *w);
void cusci__sig_freqz(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double complex *h);
void cusci__sig_sosfreqz(const double *sos, int64_t nsec, const double *w, int64_t n, double complex *h);
void cusci__sig_freqz_zpk(const double complex *z, int64_t nz, const double complex *p, int64_t np, double k, const double *w, int64_t n,
                          double complex *h);
void cusci__sig_freqs(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double complex *h);
void cusci__sig_freqs_zpk(const double complex *z, int64_t nz, const double complex *p, int64_t np, double k, const double *w, int64_t n,
                          double complex *h);
void cusci__sig_findfreqs(const double complex *ep, int64_t nep, const double complex *tz, int64_t ntz, int64_t N, double *w);
int cusci__sig_group_delay(const double complex *b, int64_t nb, const double complex *a, int64_t na, const double *w, int64_t n, double *gd);

/* iirnotch and iirpeak (w0 relative to Nyquist; 3 coefficients each),
 * iircomb (N + 1 each, N = fs / w0), gammatone's FIR (numtaps) and IIR
 * (5 and 9) forms (reference/signal/notch.c). */
void cusci__sig_notch_peak(double w0, double Q, bool peak, double *b, double *a);
void cusci__sig_comb(double w0, double Q, double fs, int64_t N, bool peak, bool pass_zero, double *b, double *a);
void cusci__sig_gammatone_fir(double freq, int order, int64_t numtaps, double fs, double *b);
void cusci__sig_gammatone_iir(double freq, double fs, double *b, double *a);

/* Peaks (reference/signal/peaks.c): the local maxima of x (n values) with
 * their plateaus' edges, *m of them (room n / 2 + 1), as SciPy's
 * _local_maxima_1d; keep[] after the selection by distance (the highest
 * peaks first, ties in index order; SciPy's order among equal heights is
 * that of its sort); prominences with their bases (wlen below 2: the whole
 * signal); widths at rel_height of the prominence with their height and
 * interpolated edges. */
int64_t cusci__sig_local_maxima(const double *x, int64_t n, int64_t *mid, int64_t *left, int64_t *right);
int cusci__sig_peak_distance(const int64_t *peaks, const double *priority, int64_t m, double distance, bool *keep);
void cusci__sig_peak_prominences(const double *x, int64_t n, const int64_t *peaks, int64_t m, int64_t wlen, double *prom, int64_t *lb, int64_t *rb);
void cusci__sig_peak_widths(const double *x, const int64_t *peaks, int64_t m, double rel_height, const double *prom, const int64_t *lb,
                            const int64_t *rb, double *width, double *height, double *lip, double *rip);

/* scipy.signal's _boolrelextrema on lines of n values (outer of them,
 * inner apart): mask true where x compares (cmp 0 >, 1 <, 2 >=, 3 <=)
 * with each of its order neighbours on both sides, indices clipped to the
 * line's ends or wrapped; the count of true values. */
int64_t cusci__sig_relextrema(const double *x, int64_t outer, int64_t n, int64_t inner, int cmp, int order, bool wrap, bool *mask);

/* Second-order sections (rows b0 b1 b2 a0 a1 a2) of a zpk system, as
 * scipy.signal.zpk2sos; sos has room for cusci__sig_zpk2sos_sections
 * rows. z and p are left in an unspecified order. */
int64_t cusci__sig_zpk2sos_sections(int64_t nz, int64_t np, cusci__sig_pairing pairing);
int cusci__sig_zpk2sos(const double complex *z, int64_t nz, const double complex *p, int64_t np, double k, cusci__sig_pairing pairing,
                       bool analog, double *sos);

/* scipy.signal.windows, by kind, with their parameters in par[] (as the
 * comment of each kind says) and sym as SciPy's (false: the periodic
 * window, for spectral analysis). M >= 1 values into w. */
typedef enum {
  CUSCI__WIN_BARTHANN = 0,
  CUSCI__WIN_BARTLETT,
  CUSCI__WIN_BLACKMAN,
  CUSCI__WIN_BLACKMANHARRIS,
  CUSCI__WIN_BOHMAN,
  CUSCI__WIN_BOXCAR,
  CUSCI__WIN_CHEBWIN,          /* at */
  CUSCI__WIN_COSINE,
  CUSCI__WIN_DPSS,             /* NW (the first window, approximate norm) */
  CUSCI__WIN_EXPONENTIAL,      /* center (NaN: the middle), tau */
  CUSCI__WIN_FLATTOP,
  CUSCI__WIN_GAUSSIAN,         /* std */
  CUSCI__WIN_GENERAL_COSINE,   /* npar coefficients */
  CUSCI__WIN_GENERAL_GAUSSIAN, /* p, sig */
  CUSCI__WIN_GENERAL_HAMMING,  /* alpha */
  CUSCI__WIN_HAMMING,
  CUSCI__WIN_HANN,
  CUSCI__WIN_KAISER,           /* beta */
  CUSCI__WIN_KBD,              /* beta (symmetric, M even) */
  CUSCI__WIN_LANCZOS,
  CUSCI__WIN_NUTTALL,
  CUSCI__WIN_PARZEN,
  CUSCI__WIN_TAYLOR,           /* nbar, sll, norm (0 or 1) */
  CUSCI__WIN_TRIANG,
  CUSCI__WIN_TUKEY             /* alpha */
} cusci__sig_window_kind;
int cusci__sig_window(cusci__sig_window_kind kind, const double *par, int npar, int64_t M, bool sym, double *w);

/* qsort's ascending order of doubles (NaN as equal to everything). */
int cusci__sig_cmp_double(const void *a, const void *b);

/* The modified Bessel function I0 (Kaiser windows). */
double cusci__sig_i0(double x);

/* scipy.signal.firwin's sum of sincs over bands (nb pairs of edges
 * relative to Nyquist, edges[2 nb]) times the window win, scaled when
 * scale is true; numtaps values into h. */
void cusci__sig_firwin_bands(int64_t numtaps, const double *edges, int64_t nb, const double *win, bool scale, double *h);

/* FIR design (reference/signal/firdesign.c). firwin2: numtaps taps
 * from the nf gains at the nondecreasing frequencies freq (0 to nyq, a
 * value at most twice), sampled at nfreqs points, times the window win
 * (numtaps values). firls: odd numtaps taps from nb bands (edges relative
 * to Nyquist, desired gains at each edge, one weight per band).
 * minimum_phase: the minimum-phase filter of the linear-phase h (n taps)
 * by the homomorphic (hilbert false) or the Hilbert method with an FFT
 * of n_fft >= n points: half ? n / 2 + n % 2 : n taps into out, which
 * may be h. */
int cusci__sig_firwin2(int64_t numtaps, const double *freq, const double *gain, int64_t nf, int64_t nfreqs, bool antisymmetric, double nyq,
                       const double *win, double *h);
int cusci__sig_firls(int64_t numtaps, const double *bands, const double *desired, const double *weight, int64_t nb, double *h);
/* remez (reference/signal/remez.c): numtaps taps for nb bands (edges in
 * cycles per sample, nondecreasing, in [0, 0.5]), their gains fx and
 * positive weights wtx; jtype 1 bandpass, 2 differentiator, 3 hilbert. */
int cusci__sig_remez(int64_t numtaps, const double *edge, const double *fx, const double *wtx, int64_t nb, int jtype, int maxiter, int density,
                     double *h);
int cusci__sig_minimum_phase(const double *h, int64_t n, bool hilbert, int64_t n_fft, bool half, double *out);

#endif
