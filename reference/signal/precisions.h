/*
 * reference/signal/precisions.h: a body written once for both precisions,
 * included twice: with R double, C double complex and NAME(x) x_d, then
 * with float, float complex and x_f. The includer defines
 * CUSCI__SIG_BODY as the body's path and includes <complex.h> first.
 */
#define R double
#define C double complex
#define NAME(x) x##_d
#include CUSCI__SIG_BODY
#undef R
#undef C
#undef NAME

#define R float
#define C float complex
#define NAME(x) x##_f
#include CUSCI__SIG_BODY
#undef R
#undef C
#undef NAME
