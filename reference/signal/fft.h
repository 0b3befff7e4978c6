/*
 * reference/signal/fft.h: the host FFT of cusci-signal: complex transforms
 * of every length n >= 1, float in float and double in double, in
 * O(n log n).
 *
 * The algorithms (reference/signal/fft_body.h):
 *  - mixed-radix Cooley-Tukey (J. W. Cooley and J. W. Tukey, "An
 *    algorithm for the machine calculation of complex Fourier series",
 *    Math. Comp. 19, 1965) in Stockham's self-sorting form, decimation in
 *    frequency (W. T. Cochran et al., "What is the fast Fourier
 *    transform?", Proc. IEEE 55, 1967, where it is given as Stockham's;
 *    C. Van Loan, "Computational Frameworks for the Fast Fourier
 *    Transform", SIAM 1992, the autosort frameworks): one pass
 *    over the data per factor, between x and the work area, with no
 *    bit-reversal; radices 8, 4, 2, 3 and 5 with butterflies of their own,
 *    every other prime factor up to CUSCI__FFT_DIRECT_MAX by a direct DFT
 *    of that factor. Each pass takes side-by-side values into short
 *    vectors (fft.c); its twiddles are tabled per pass in the order it
 *    reads them. Forward only, the backward transform being
 *    swap(forward(swap(x))) with swap exchanging real and imaginary
 *    parts, folded into the first pass's loads and the last's stores;
 *  - for a length with a larger prime factor, Bluestein's chirp
 *    z-transform (L. I. Bluestein, "A linear filtering approach to the
 *    computation of the discrete Fourier transform", IEEE Trans. Audio
 *    Electroacoust. 18, 1970): a cyclic convolution of length M, the
 *    smallest length >= 2n - 1 of factors 2, 3 and 5, by the mixed-radix
 *    transform.
 * Every twiddle factor and chirp is computed on its own from its exact
 * index (in long double, the index of a chirp reduced mod 2n as an
 * integer), so that their error does not grow with n.
 *
 * x[k] = sum_j x[j] exp(sign 2 pi i j k / n), sign -1 forward and +1
 * backward, unnormalised.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_FFT_H
#define CUSCI_REFERENCE_SIGNAL_FFT_H

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest prime factor the mixed-radix transform takes directly. */
#define CUSCI__FFT_DIRECT_MAX 31
/* The largest length a plan takes (Bluestein's chirp index, k^2 mod 2n, is
 * computed in 64 bits). */
#define CUSCI__FFT_MAX_N (INT64_C(1) << 32)

typedef struct cusci__fft_d cusci__fft_d;
typedef struct cusci__fft_f cusci__fft_f;

/* A plan for length n (1 <= n <= CUSCI__FFT_MAX_N); bluestein forces
 * Bluestein's algorithm (tests compare it with the mixed-radix one). NULL
 * when n is out of range or memory runs out. */
cusci__fft_d *cusci__fft_plan_d(int64_t n, bool bluestein);
cusci__fft_f *cusci__fft_plan_f(int64_t n, bool bluestein);
void cusci__fft_free_d(cusci__fft_d *p);
void cusci__fft_free_f(cusci__fft_f *p);
/* The bytes of work memory a transform with the plan needs. */
size_t cusci__fft_work_d(const cusci__fft_d *p);
size_t cusci__fft_work_f(const cusci__fft_f *p);
/* Transform x (n elements) in place with work (cusci__fft_work_* bytes,
 * aligned for the element type). */
void cusci__fft_run_d(const cusci__fft_d *p, double complex *x, int sign, void *work);
void cusci__fft_run_f(const cusci__fft_f *p, float complex *x, int sign, void *work);

/*
 * Transforms of real data of length n: forward gives X_0 .. X_{n/2} (the
 * rest is their conjugate mirror), backward takes them and gives the real
 * x (unnormalised, so that backward(forward(x)) = n x); the imaginary
 * parts of X_0 and, for even n, X_{n/2} are ignored, as pocketfft does.
 * Even n goes through the complex transform of length n/2 (the even and
 * the odd samples as its real and imaginary parts, split afterwards by
 * the symmetries of the real transform), odd n through the complex one of
 * length n. work: cusci__rfft_work_* bytes.
 */
typedef struct cusci__rfft_d cusci__rfft_d;
typedef struct cusci__rfft_f cusci__rfft_f;
cusci__rfft_d *cusci__rfft_plan_d(int64_t n);
cusci__rfft_f *cusci__rfft_plan_f(int64_t n);
void cusci__rfft_free_d(cusci__rfft_d *p);
void cusci__rfft_free_f(cusci__rfft_f *p);
size_t cusci__rfft_work_d(const cusci__rfft_d *p);
size_t cusci__rfft_work_f(const cusci__rfft_f *p);
void cusci__rfft_forward_d(const cusci__rfft_d *p, const double *x, double complex *X, void *work);
void cusci__rfft_forward_f(const cusci__rfft_f *p, const float *x, float complex *X, void *work);
void cusci__rfft_backward_d(const cusci__rfft_d *p, const double complex *X, double *x, void *work);
void cusci__rfft_backward_f(const cusci__rfft_f *p, const float complex *X, float *x, void *work);

/*
 * The DCT (sine false) or DST (sine true) of type 1 to 4 of x (n reals)
 * into y (n reals), unnormalised as scipy.fft's norm="backward": with
 * c(t) = cos(pi t) or s(t) = sin(pi t),
 *   DCT-I   y_k = x_0 + (-1)^k x_{n-1} + 2 sum_{j=1}^{n-2} x_j c(jk / (n-1))
 *   DCT-II  y_k = 2 sum_j x_j c(k (2j+1) / 2n)
 *   DCT-III y_k = x_0 + 2 sum_{j>=1} x_j c(j (2k+1) / 2n)
 *   DCT-IV  y_k = 2 sum_j x_j c((2j+1)(2k+1) / 4n)
 *   DST-I   y_k = 2 sum_j x_j s((j+1)(k+1) / (n+1))
 *   DST-II  y_k = 2 sum_j x_j s((k+1)(2j+1) / 2n)
 *   DST-III y_k = (-1)^k x_{n-1} + 2 sum_{j<=n-2} x_j s((j+1)(2k+1) / 2n)
 *   DST-IV  y_k = 2 sum_j x_j s((2j+1)(2k+1) / 4n)
 * each as the real transform of an even (DCT) or odd (DST) extension of
 * x of length 2(n-1), 2(n+1), 4n or 8n (reference/signal/dct_map.h),
 * which is exact and O(n log n) but some two to four times the work of a
 * transform of its own.
 * Returns 0, -1 when memory runs out, -2 for a type outside 1..4, n < 1,
 * or the DCT-I of n = 1 (undefined, as in SciPy).
 */
int cusci__dct_d(int type, bool sine, int64_t n, const double *x, double *y);
int cusci__dct_f(int type, bool sine, int64_t n, const float *x, float *y);
/* The same with a real-transform plan of the extension's length
 * cusci__dct_len made once: u (len reals) and U (len / 2 + 1 complex
 * values) scratch, work the plan's (cusci__rfft_work). */
void cusci__dct_run_d(const cusci__rfft_d *p, int type, bool sine, int64_t n, const double *x, double *y, double *u, double complex *U,
                      void *work);
void cusci__dct_run_f(const cusci__rfft_f *p, int type, bool sine, int64_t n, const float *x, float *y, float *u, float complex *U, void *work);

#endif
