/*
 * reference/signal/firdesign.c: FIR design by frequency sampling
 * (scipy.signal.firwin2), by least squares (firls) and the conversion of a
 * linear-phase filter to minimum phase (minimum_phase), on the host in
 * float64. The transforms are reference/signal/fft.c's.
 *
 * firls solves its normal equations by Cholesky's factorization and,
 * when the matrix is not positive definite or its condition (Hager's
 * estimate of the 1-norm of the inverse, W. W. Hager, "Condition
 * estimates", SIAM J. Sci. Stat. Comput. 5, 1984) passes 1/eps, takes the
 * minimum-norm least-squares solution from the matrix's eigenvalues
 * (cyclic Jacobi rotations), the smaller ones than eps times the largest
 * left out, as SciPy falls back to lstsq.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "reference/signal/design.h"
#include "reference/signal/fft.h"

/* numpy.interp of x on the nondecreasing xp (n points, fp the values). */
static double interp(double x, const double *xp, const double *fp, int64_t n)
{
  if (x <= xp[0])
    return fp[0];
  if (x >= xp[n - 1])
    return fp[n - 1];
  int64_t lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (xp[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  if (xp[lo] == x)
    return fp[lo];
  const double slope = (fp[lo + 1] - fp[lo]) / (xp[lo + 1] - xp[lo]);
  double r = slope * (x - xp[lo]) + fp[lo];
  if (isnan(r)) {
    r = slope * (x - xp[lo + 1]) + fp[lo + 1];
    if (isnan(r) && fp[lo] == fp[lo + 1])
      r = fp[lo];
  }
  return r;
}

/* One complex FFT plan of length n with its work area, for the several
 * transforms of minimum_phase. */
typedef struct fft_n {
  cusci__fft_d *plan;
  void *work;
} fft_n;

static bool fft_open(fft_n *f, int64_t n)
{
  f->plan = cusci__fft_plan_d(n, false);
  f->work = f->plan ? malloc(cusci__fft_work_d(f->plan) + sizeof(double complex)) : NULL;
  return f->work != NULL;
}

static void fft_close(fft_n *f)
{
  free(f->work);
  cusci__fft_free_d(f->plan);
}

int cusci__sig_firwin2(int64_t numtaps, const double *freq, const double *gain, int64_t nf, int64_t nfreqs, bool antisymmetric, double nyq,
                       const double *win, double *h)
{
  const int64_t nfft = 2 * (nfreqs - 1);
  double *fr = malloc(sizeof *fr * (size_t)nf);
  double complex *X = malloc(sizeof *X * (size_t)nfreqs);
  double *x = malloc(sizeof *x * (size_t)nfreqs);
  double *out = malloc(sizeof *out * (size_t)nfft);
  cusci__rfft_d *p = cusci__rfft_plan_d(nfft);
  void *work = p ? malloc(cusci__rfft_work_d(p) + sizeof(double complex)) : NULL;
  int rc = CUSCI__SIG_DESIGN_MEMORY;
  if (!fr || !X || !x || !out || !work)
    goto done;
  /* Repeated frequencies (a jump in the gain) are moved apart by eps
   * nyq each way, so that the interpolation sees the jump. */
  memcpy(fr, freq, sizeof *fr * (size_t)nf);
  const double eps = DBL_EPSILON * nyq;
  for (int64_t k = 0; k + 1 < nf; k++)
    if (fr[k] == fr[k + 1]) {
      fr[k] -= eps;
      fr[k + 1] += eps;
    }
  rc = CUSCI__SIG_DESIGN_SPACING;
  for (int64_t k = 0; k + 1 < nf; k++)
    if (!(fr[k + 1] - fr[k] > 0))
      goto done;
  const int ftype = antisymmetric ? (numtaps % 2 ? 3 : 4) : (numtaps % 2 ? 1 : 2);
  cusci__sig_linspace(0.0, nyq, nfreqs, true, x);
  for (int64_t k = 0; k < nfreqs; k++) {
    const double fx = interp(x[k], fr, gain, nf);
    const double th = -(double)(numtaps - 1) / 2.0 * M_PI * x[k] / nyq;
    double complex s = CMPLX(cos(th), sin(th));
    if (ftype > 2)
      s = CMPLX(-cimag(s), creal(s));
    X[k] = CMPLX(fx * creal(s), fx * cimag(s));
  }
  cusci__rfft_backward_d(p, X, out, work);
  for (int64_t k = 0; k < numtaps; k++)
    h[k] = out[k] / (double)nfft * win[k];
  if (ftype == 3)
    h[numtaps / 2] = 0.0;
  rc = CUSCI__SIG_DESIGN_OK;
done:
  free(work);
  cusci__rfft_free_d(p);
  free(out);
  free(x);
  free(X);
  free(fr);
  return rc;
}

/* ------------------------------------------------ firls */

static double sinc(double x)
{
  if (x == 0)
    return 1.0;
  const double y = M_PI * x;
  return sin(y) / y;
}

/* The Cholesky factor L (lower, in place in a, n x n row-major); false
 * when a is not positive definite. */
static bool cholesky(double *a, int64_t n)
{
  for (int64_t j = 0; j < n; j++) {
    double d = a[j * n + j];
    for (int64_t k = 0; k < j; k++)
      d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0))
      return false;
    d = sqrt(d);
    a[j * n + j] = d;
    for (int64_t i = j + 1; i < n; i++) {
      double s = a[i * n + j];
      for (int64_t k = 0; k < j; k++)
        s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return true;
}

/* x = (L L^T)^-1 x in place. */
static void cho_solve(const double *L, int64_t n, double *x)
{
  for (int64_t i = 0; i < n; i++) {
    double s = x[i];
    for (int64_t k = 0; k < i; k++)
      s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (int64_t i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int64_t k = i + 1; k < n; k++)
      s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}

/* Hager's estimate of ||A^-1||_1 for the symmetric A = L L^T (v: room n). */
static double inverse_norm1(const double *L, int64_t n, double *v)
{
  for (int64_t i = 0; i < n; i++)
    v[i] = 1.0 / (double)n;
  double est = 0;
  int64_t last = -1;
  for (int it = 0; it < 5; it++) {
    cho_solve(L, n, v);
    double nrm = 0;
    for (int64_t i = 0; i < n; i++)
      nrm += fabs(v[i]);
    if (it > 0 && nrm <= est)
      break;
    est = nrm;
    for (int64_t i = 0; i < n; i++)
      v[i] = v[i] >= 0 ? 1.0 : -1.0;
    cho_solve(L, n, v); /* A symmetric: A^-T = A^-1 */
    int64_t j = 0;
    for (int64_t i = 1; i < n; i++)
      if (fabs(v[i]) > fabs(v[j]))
        j = i;
    if (j == last)
      break;
    last = j;
    memset(v, 0, sizeof *v * (size_t)n);
    v[j] = 1.0;
  }
  return est;
}

/* The minimum-norm least-squares solution of the symmetric a x = b (n x
 * n, a destroyed), by cyclic Jacobi rotations; eigenvalues below eps
 * times the largest in magnitude are dropped. */
static int sym_lstsq(double *a, int64_t n, const double *b, double *x)
{
  double *V = calloc((size_t)(n * n), sizeof *V);
  if (!V)
    return CUSCI__SIG_DESIGN_MEMORY;
  for (int64_t i = 0; i < n; i++)
    V[i * n + i] = 1.0;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0, diag = 0;
    for (int64_t i = 0; i < n; i++) {
      diag += a[i * n + i] * a[i * n + i];
      for (int64_t j = i + 1; j < n; j++)
        off += a[i * n + j] * a[i * n + j];
    }
    if (off <= DBL_EPSILON * DBL_EPSILON * diag * 1e-4)
      break;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        const double apq = a[p * n + q];
        if (apq == 0)
          continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
        const double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; k++) {
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int64_t k = 0; k < n; k++) {
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (int64_t k = 0; k < n; k++) {
          const double vkp = V[k * n + p], vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  double big = 0;
  for (int64_t i = 0; i < n; i++)
    big = fmax(big, fabs(a[i * n + i]));
  memset(x, 0, sizeof *x * (size_t)n);
  for (int64_t j = 0; j < n; j++) {
    const double lam = a[j * n + j];
    if (!(fabs(lam) > DBL_EPSILON * big))
      continue;
    double c = 0;
    for (int64_t k = 0; k < n; k++)
      c += V[k * n + j] * b[k];
    c /= lam;
    for (int64_t k = 0; k < n; k++)
      x[k] += c * V[k * n + j];
  }
  free(V);
  return CUSCI__SIG_DESIGN_OK;
}

int cusci__sig_firls(int64_t numtaps, const double *bands, const double *desired, const double *weight, int64_t nb, double *h)
{
  const int64_t M = (numtaps - 1) / 2, n = M + 1;
  double *q = malloc(sizeof *q * (size_t)numtaps);
  double *Q = malloc(sizeof *Q * (size_t)(n * n));
  double *Q2 = malloc(sizeof *Q2 * (size_t)(n * n));
  double *b = malloc(sizeof *b * (size_t)n);
  double *a = malloc(sizeof *a * (size_t)n);
  double *v = malloc(sizeof *v * (size_t)n);
  int rc = CUSCI__SIG_DESIGN_MEMORY;
  if (!q || !Q || !Q2 || !b || !a || !v)
    goto done;
  for (int64_t k = 0; k < numtaps; k++) {
    double s = 0;
    for (int64_t j = 0; j < nb; j++) {
      const double f0 = bands[2 * j], f1 = bands[2 * j + 1];
      s += (sinc(f1 * (double)k) * f1 - sinc(f0 * (double)k) * f0) * weight[j];
    }
    q[k] = s;
  }
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      Q[i * n + j] = q[i > j ? i - j : j - i] + q[i + j];
  for (int64_t k = 0; k < n; k++) {
    double s = 0;
    for (int64_t j = 0; j < nb; j++) {
      const double f[2] = {bands[2 * j], bands[2 * j + 1]};
      const double m = (desired[2 * j + 1] - desired[2 * j]) / (f[1] - f[0]);
      const double c = desired[2 * j] - f[0] * m;
      double t[2];
      for (int e = 0; e < 2; e++) {
        t[e] = f[e] * (m * f[e] + c) * sinc(f[e] * (double)k);
        if (k == 0)
          t[e] -= m * f[e] * f[e] / 2.0;
        else
          t[e] += m * cos((double)k * M_PI * f[e]) / ((M_PI * (double)k) * (M_PI * (double)k));
      }
      s += (t[1] - t[0]) * weight[j];
    }
    b[k] = s;
  }
  memcpy(Q2, Q, sizeof *Q * (size_t)(n * n));
  double anorm = 0;
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < n; i++)
      s += fabs(Q[i * n + j]);
    anorm = fmax(anorm, s);
  }
  bool direct = cholesky(Q2, n);
  if (direct) {
    const double rcond = 1.0 / (anorm * inverse_norm1(Q2, n, v));
    direct = rcond >= DBL_EPSILON;
  }
  if (direct) {
    memcpy(a, b, sizeof *a * (size_t)n);
    cho_solve(Q2, n, a);
  } else if ((rc = sym_lstsq(Q, n, b, a)) != CUSCI__SIG_DESIGN_OK) {
    goto done;
  }
  for (int64_t k = 1; k < n; k++) {
    h[M - k] = a[k];
    h[M + k] = a[k];
  }
  h[M] = 2 * a[0];
  rc = CUSCI__SIG_DESIGN_OK;
done:
  free(v);
  free(a);
  free(b);
  free(Q2);
  free(Q);
  free(q);
  return rc;
}

/* ------------------------------------------------ minimum_phase */

/* SciPy's discrete Hilbert transform of a magnitude (_dhtm): the minimum
 * phase sequence of mag, its real part into out (n values). c: room n. */
static void dhtm(const fft_n *f, const double *mag, int64_t n, double complex *c, double *out)
{
  for (int64_t k = 0; k < n; k++)
    c[k] = log(mag[k]);
  cusci__fft_run_d(f->plan, c, +1, f->work);
  const int64_t mid = n / 2;
  for (int64_t k = 0; k < n; k++) {
    const double sig = k == 0 || k == mid ? 0.0 : k < mid ? 1.0 : -1.0;
    c[k] = sig * c[k] / (double)n;
  }
  cusci__fft_run_d(f->plan, c, -1, f->work);
  for (int64_t k = 0; k < n; k++)
    c[k] = mag[k] * cexp(c[k]);
  cusci__fft_run_d(f->plan, c, +1, f->work);
  for (int64_t k = 0; k < n; k++)
    out[k] = creal(c[k]) / (double)n;
}

int cusci__sig_minimum_phase(const double *h, int64_t n, bool hilbert, int64_t n_fft, bool half, double *out)
{
  double complex *c = malloc(sizeof *c * (size_t)n_fft);
  double *r = malloc(sizeof *r * (size_t)n_fft);
  double *full = malloc(sizeof *full * (size_t)n_fft);
  fft_n f;
  const bool planned = fft_open(&f, n_fft);
  int rc = CUSCI__SIG_DESIGN_MEMORY;
  if (!c || !r || !full || !planned)
    goto done;
  for (int64_t k = 0; k < n_fft; k++)
    c[k] = k < n ? h[k] : 0.0;
  cusci__fft_run_d(f.plan, c, -1, f.work);
  const int64_t n_half = n / 2;
  if (hilbert) {
    double hi = -INFINITY, lo = INFINITY;
    for (int64_t k = 0; k < n_fft; k++) {
      const double w = (double)k * (2 * M_PI / (double)n_fft * (double)n_half);
      r[k] = creal(c[k] * CMPLX(cos(w), sin(w)));
      hi = fmax(hi, r[k]);
      lo = fmin(lo, r[k]);
    }
    const double dp = hi - 1, ds = 0 - lo;
    const double sq = sqrt(1 + dp + ds) + sqrt(1 - dp + ds);
    const double S = 4. / (sq * sq);
    for (int64_t k = 0; k < n_fft; k++)
      r[k] = sqrt((r[k] + ds) * S) + 1e-10;
    dhtm(&f, r, n_fft, c, full);
  } else {
    double small = INFINITY;
    for (int64_t k = 0; k < n_fft; k++) {
      r[k] = cabs(c[k]);
      if (r[k] > 0)
        small = fmin(small, r[k]);
    }
    for (int64_t k = 0; k < n_fft; k++) {
      double v = log(r[k] + 1e-7 * small);
      if (half)
        v *= 0.5;
      c[k] = v;
    }
    cusci__fft_run_d(f.plan, c, +1, f.work);
    const int64_t stop = n_fft / 2;
    for (int64_t k = 0; k < n_fft; k++) {
      const double w = k == 0 ? 1.0 : k < stop ? 2.0 : k == stop ? (double)(1 + n_fft % 2) : 0.0;
      c[k] = creal(c[k]) / (double)n_fft * w;
    }
    cusci__fft_run_d(f.plan, c, -1, f.work);
    for (int64_t k = 0; k < n_fft; k++)
      c[k] = cexp(c[k]);
    cusci__fft_run_d(f.plan, c, +1, f.work);
    for (int64_t k = 0; k < n_fft; k++)
      full[k] = creal(c[k]) / (double)n_fft;
  }
  const int64_t n_out = half ? n_half + n % 2 : n;
  memcpy(out, full, sizeof *out * (size_t)n_out);
  rc = CUSCI__SIG_DESIGN_OK;
done:
  fft_close(&f);
  free(full);
  free(r);
  free(c);
  return rc;
}
