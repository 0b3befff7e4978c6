/*
 * reference/signal/notch.c: scipy.signal's second-order notch and peak
 * filters (iirnotch, iirpeak), comb filters (iircomb) and the gammatone
 * filters of the auditory model (gammatone: the FIR form sampled from its
 * impulse response, the IIR form of Slaney's "An efficient implementation
 * of the Patterson-Holdsworth auditory filter bank", 1993), in float64.
 * Frequencies here are already checked and relative to fs as each
 * comment says.
 */
#include "design.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void cusci__sig_notch_peak(double w0, double Q, bool peak, double *b, double *a)
{
  /* w0 relative to Nyquist, in [0, 1] */
  const double bw = w0 / Q * M_PI, w = w0 * M_PI;
  const double beta = tan(bw / 2.0), gain = 1.0 / (1.0 + beta);
  if (peak) {
    b[0] = (1.0 - gain) * 1.0, b[1] = (1.0 - gain) * 0.0, b[2] = (1.0 - gain) * -1.0;
  } else {
    b[0] = gain * 1.0, b[1] = gain * (-2.0 * cos(w)), b[2] = gain * 1.0;
  }
  a[0] = 1.0, a[1] = -2.0 * gain * cos(w), a[2] = 2.0 * gain - 1.0;
}

void cusci__sig_comb(double w0, double Q, double fs, int64_t N, bool peak, bool pass_zero, double *b, double *a)
{
  /* b and a have N + 1 coefficients */
  const double wr = 2 * M_PI * w0 / fs, w_delta = wr / Q;
  const double G0 = peak ? 0 : 1, G = peak ? 1 : 0;
  const double beta = tan((double)N * w_delta / 4);
  const double ax = (1 - beta) / (1 + beta), bx = (G0 + G * beta) / (1 + beta), cx = (G0 - G * beta) / (1 + beta);
  const double sgn = (peak && pass_zero) || (!peak && !pass_zero) ? -1.0 : 1.0;
  for (int64_t i = 0; i <= N; i++)
    b[i] = a[i] = 0;
  b[0] = bx, b[N] = sgn * cx;
  a[0] = 1, a[N] = sgn * ax;
}

static double hz_to_erb(double hz)
{
  return hz / 9.26449 + 24.7;
}

void cusci__sig_gammatone_fir(double freq, int order, int64_t numtaps, double fs, double *b)
{
  const double bw = 1.019 * hz_to_erb(freq);
  double scale = 2 * pow(2 * M_PI * bw, order), fact = 1;
  for (int i = 2; i <= order - 1; i++)
    fact *= i;
  scale /= fact;
  scale /= fs;
  for (int64_t i = 0; i < numtaps; i++) {
    const double t = (double)i / fs;
    b[i] = pow(t, order - 1) * exp(-2 * M_PI * bw * t) * cos(2 * M_PI * freq * t) * scale;
  }
}

void cusci__sig_gammatone_iir(double freq, double fs, double *b, double *a)
{
  const double T = 1. / fs, bw = 2 * M_PI * 1.019 * hz_to_erb(freq), fr = 2 * freq * M_PI * T, bwT = bw * T;
  const double complex g1 = -2 * cexp(CMPLX(0, 2 * fr)) * T, g2 = 2 * cexp(CMPLX(-bwT, fr)) * T;
  const double g3 = sqrt(3 + pow(2, 1.5)) * sin(fr), g4 = sqrt(3 - pow(2, 1.5)) * sin(fr);
  const double complex g5 = cexp(CMPLX(0, 2 * fr));
  double complex g = g1 + g2 * (cos(fr) - g4);
  g *= g1 + g2 * (cos(fr) + g4);
  g *= g1 + g2 * (cos(fr) - g3);
  g *= g1 + g2 * (cos(fr) + g3);
  const double complex d = -2 / exp(2 * bwT) - 2 * g5 + 2 * (1 + g5) / exp(bwT);
  const double complex d2 = d * d;
  g /= d2 * d2;
  const double gm = hypot(creal(g), cimag(g)), T4 = pow(T, 4);
  b[0] = T4 / gm;
  b[1] = -4 * T4 * cos(fr) / exp(bw * T) / gm;
  b[2] = 6 * T4 * cos(2 * fr) / exp(2 * bw * T) / gm;
  b[3] = -4 * T4 * cos(3 * fr) / exp(3 * bw * T) / gm;
  b[4] = T4 * cos(4 * fr) / exp(4 * bw * T) / gm;
  a[0] = 1;
  a[1] = -8 * cos(fr) / exp(bw * T);
  a[2] = 4 * (4 + 3 * cos(2 * fr)) / exp(2 * bw * T);
  a[3] = -8 * (6 * cos(fr) + cos(3 * fr)) / exp(3 * bw * T);
  a[4] = 2 * (18 + 16 * cos(2 * fr) + cos(4 * fr)) / exp(4 * bw * T);
  a[5] = -8 * (6 * cos(fr) + cos(3 * fr)) / exp(5 * bw * T);
  a[6] = 4 * (4 + 3 * cos(2 * fr)) / exp(6 * bw * T);
  a[7] = -8 * cos(fr) / exp(7 * bw * T);
  a[8] = exp(-8 * bw * T);
}
