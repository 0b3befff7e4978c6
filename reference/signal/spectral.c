/*
 * reference/signal/spectral.c: the host backend's passes of
 * reference/signal/spectral.h, one line, frame or row at a time.
 */
#include "config.h"

#include "reference/signal/spectral.h"

#include <stddef.h>

void cusci__sig_frames(int prec, int64_t lines, int64_t n, int ext, int64_t ext_n, int64_t nseg, int64_t m, int64_t step, int trend, const void *w,
                       const void *x, void *y)
{
  const size_t es = (size_t)(prec >= 2 ? 2 : 1) * (prec & 1 ? sizeof(double) : sizeof(float));
  const int rp = cusci__sig_real_prec(prec);
  for (int64_t l = 0; l < lines; l++) {
    const void *xl = (const char *)x + (size_t)(l * n) * es;
    for (int64_t s = 0; s < nseg; s++) {
      cusci_c128 s0 = { 0, 0 }, s1 = { 0, 0 }, a, b;
      if (trend != CUSCI__SIG_TREND_NONE)
        for (int64_t j = 0; j < m; j++) {
          const cusci_c128 v = cusci__sig_extended_value(prec, xl, ext, ext_n, n, s * step + j);
          const double c = (double)j - 0.5 * (double)(m - 1);
          s0.re += v.re, s0.im += v.im, s1.re += c * v.re, s1.im += c * v.im;
        }
      cusci__sig_frame_trend(trend, m, s0, s1, &a, &b);
      const int64_t base = (l * nseg + s) * m;
      for (int64_t j = 0; j < m; j++) {
        const cusci_c128 v = cusci__sig_extended_value(prec, xl, ext, ext_n, n, s * step + j);
        cusci__sig_st(prec, y, base + j, cusci__sig_frame_value(v, a, b, j, m, cusci__sig_ld(rp, w, j).re));
      }
    }
  }
}

/* numpy.unwrap of a row of angles (already in r, stride apart). */
static void unwrap_row(int rp, void *r, int64_t count, int64_t stride)
{
  double corr = 0, prev = count ? cusci__sig_ld(rp, r, 0).re : 0;
  for (int64_t k = 1; k < count; k++) {
    const double v = cusci__sig_ld(rp, r, k * stride).re;
    corr += cusci__sig_unwrap_step(v - prev);
    prev = v;
    cusci__sig_st(rp, r, k * stride, (cusci_c128){ v + corr, 0 });
  }
}

void cusci__sig_spectrum(int prec, int op, int64_t lines, int64_t nseg, int64_t nfreq, const void *f, const void *X, void *P)
{
  const int rp = cusci__sig_real_prec(prec), cp = rp + 2, op_prec = op == CUSCI__SIG_SPEC_COMPLEX ? cp : rp;
  for (int64_t l = 0; l < lines; l++) {
    if (op == CUSCI__SIG_SPEC_POWER_MEAN) {
      for (int64_t k = 0; k < nfreq; k++) {
        double sum = 0;
        for (int64_t s = 0; s < nseg; s++)
          sum += cusci__sig_spec_value(op, cusci__sig_ld(cp, X, (l * nseg + s) * nfreq + k), 1).re;
        cusci__sig_st(rp, P, l * nfreq + k, (cusci_c128){ sum * cusci__sig_ld(rp, f, k).re / (double)nseg, 0 });
      }
      continue;
    }
    for (int64_t s = 0; s < nseg; s++)
      for (int64_t k = 0; k < nfreq; k++) {
        const int64_t in = (l * nseg + s) * nfreq + k;
        const int64_t out = op == CUSCI__SIG_SPEC_POWER_SEGMENTS ? in : (l * nfreq + k) * nseg + s;
        cusci__sig_st(op_prec, P, out, cusci__sig_spec_value(op, cusci__sig_ld(cp, X, in), cusci__sig_ld(rp, f, k).re));
      }
    if (op == CUSCI__SIG_SPEC_PHASE)
      for (int64_t s = 0; s < nseg; s++)
        unwrap_row(rp, (char *)P + (size_t)(l * nfreq * nseg + s) * (rp ? sizeof(double) : sizeof(float)), nfreq, nseg);
  }
}

void cusci__sig_overlap_add(int prec, int64_t lines, int64_t nseg, int64_t m, int64_t rowlen, int64_t step, int64_t first, int64_t nout,
                            double scale, const void *w, const void *xs, void *y)
{
  const size_t es = (size_t)(prec >= 2 ? 2 : 1) * (prec & 1 ? sizeof(double) : sizeof(float));
  for (int64_t l = 0; l < lines; l++) {
    const void *xl = (const char *)xs + (size_t)(l * nseg * rowlen) * es;
    for (int64_t j = 0; j < nout; j++)
      cusci__sig_st(prec, y, l * nout + j, cusci__sig_ola_value(prec, xl, w, nseg, m, rowlen, step, first + j, scale));
  }
}

void cusci__sig_lombscargle_all(int64_t n, const double *x, const double *y, const double *w, int64_t nf, const double *freqs, int floating, int norm,
                                void *p)
{
  for (int64_t k = 0; k < nf; k++)
    cusci__sig_st(norm == CUSCI__SIG_LS_AMPLITUDE ? 3 : 1, p, k, cusci__sig_lombscargle(n, x, y, w, freqs[k], floating, norm));
}
