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

#define CUSCI__SIG_BODY "reference/signal/fft_body.h"
#include "reference/signal/precisions.h"
