/*
 * reference/signal/reference.h: cusci-signal's host backend as the API
 * layer sees it: one transform step over every line of a strided n-d
 * array, with the host FFT of fft.h.
 */
#ifndef CUSCI_REFERENCE_SIGNAL_REFERENCE_H
#define CUSCI_REFERENCE_SIGNAL_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a step does to each line. */
enum { CUSCI__SIG_LINE_C2C = 0, CUSCI__SIG_LINE_R2C, CUSCI__SIG_LINE_C2R, CUSCI__SIG_LINE_DCT };

/*
 * One step: along `axis` of ndim-d arrays whose other extents are shape[],
 * line i of src (slen elements of stride sstr[axis]) becomes line i of dst
 * (dlen elements), with the src and dst strides in elements (complex or
 * real, as the step reads and writes).
 *  - C2C: n = slen = dlen complex values, sign -1 forward, +1 backward;
 *  - R2C: n = slen reals to dlen = n / 2 + 1 complex values;
 *  - C2R: dlen = n reals from slen = n / 2 + 1 complex values;
 *  - DCT: n = slen = dlen reals, DCT (sine false) or DST of `type`, x[0]
 *    and x[n - 1] times pre0 and preN before, y[0] and y[n - 1] times
 *    post0 and postN after.
 * Every output is also multiplied by scale.
 */
typedef struct cusci__sig_lines {
  int op, sign, type;
  bool sine;
  int64_t n;
  int ndim, axis;
  const int64_t *shape, *sstr, *dstr;
  double scale, pre0, preN, post0, postN;
} cusci__sig_lines;

/* The plan a step needs, made for its precision (for the DCT/DST, the real
 * transform of its extension's length), with the scratch of its runs; NULL
 * when memory runs out. */
void *cusci__sig_lines_plan(const cusci__sig_lines *l, bool f32);
void cusci__sig_lines_free(const cusci__sig_lines *l, bool f32, void *plan);
/* Run the step over every line, in the scratch the plan was made with (so
 * that one plan runs in one thread at a time). */
void cusci__sig_lines_run(const cusci__sig_lines *l, bool f32, void *plan, const void *src, void *dst);

/*
 * The fast Hankel transform's multipliers (reference/signal/fftlog.c): the
 * n / 2 + 1 values m that fht (inverse false) or ifht applies to the real
 * transform of its (biased) input, scipy.fft's fhtcoeff with its special
 * cases: fht's u, its singular u[0] set to 0; ifht's 1 / conj(u), 0 where
 * u[0] is 0. m is a double complex array (C99 complex.h).
 */
void cusci__fht_coeff(int64_t n, double dln, double mu, double offset, double bias, bool inverse, void *m);
/* scipy.fft.fhtoffset. */
double cusci__fhtoffset(double dln, double mu, double initial, double bias);

#endif
