/*
 * reference/signal/fft.c: the host FFT (fft.h), in double and in float
 * from one body (fft_body.h).
 */
#include "reference/signal/fft.h"
#include "reference/signal/dct_map.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define R double
#define C double complex
#define NAME(x) x##_d
#include "reference/signal/fft_body.h"
#undef R
#undef C
#undef NAME

#define R float
#define C float complex
#define NAME(x) x##_f
#include "reference/signal/fft_body.h"
#undef R
#undef C
#undef NAME
