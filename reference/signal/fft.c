/*
 * reference/signal/fft.c: the host FFT (fft.h), in double and in float
 * from one body (fft_body.h).
 *
 * The body computes on GNU C vectors of 32 bytes (two complex doubles or
 * four complex floats, each as its real and imaginary parts side by side),
 * lowered to whatever the target has; on x86-64 the stages are also built
 * for x86-64-v3 (AVX2 and FMA), chosen when the processor runs the
 * library.
 */
#include "reference/signal/fft.h"
#include "reference/signal/dct_map.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && !defined(__SANITIZE_ADDRESS__)
#define CUSCI__FFT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CUSCI__FFT_CLONES
#endif

/* The vectors stay inside this file: the note that passing them by value
 * depends on AVX is about an ABI no caller sees (configure adds
 * -Wno-psabi, which its accompanying note also needs). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#define CUSCI__SIG_BODY "reference/signal/fft_body.h"

/* The lane patterns of a vector: its complex values' parts swapped, the
 * real parts twice, the imaginary parts twice, and the signs of i z. */
#define R double
#define C double complex
#define NAME(x) x##_d
#define CUSCI__FFT_SWAP 1, 0, 3, 2
#define CUSCI__FFT_DUPRE 0, 0, 2, 2
#define CUSCI__FFT_DUPIM 1, 1, 3, 3
#define CUSCI__FFT_SIGN -1, 1, -1, 1
#include CUSCI__SIG_BODY
#undef R
#undef C
#undef NAME
#undef CUSCI__FFT_SWAP
#undef CUSCI__FFT_DUPRE
#undef CUSCI__FFT_DUPIM
#undef CUSCI__FFT_SIGN

#define R float
#define C float complex
#define NAME(x) x##_f
#define CUSCI__FFT_SWAP 1, 0, 3, 2, 5, 4, 7, 6
#define CUSCI__FFT_DUPRE 0, 0, 2, 2, 4, 4, 6, 6
#define CUSCI__FFT_DUPIM 1, 1, 3, 3, 5, 5, 7, 7
#define CUSCI__FFT_SIGN -1, 1, -1, 1, -1, 1, -1, 1
#include CUSCI__SIG_BODY
#undef R
#undef C
#undef NAME
#undef CUSCI__FFT_SWAP
#undef CUSCI__FFT_DUPRE
#undef CUSCI__FFT_DUPIM
#undef CUSCI__FFT_SIGN
