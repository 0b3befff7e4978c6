/*
 * reference/core/arg_ops.h: one step of an arg-reduction (argmax, argmin
 * and their NaN variants), for the host and the kernels (compiled as C11
 * and as CUDA, like reduce_ops.h).
 *
 * A partial result is a pair: the best value seen and its flat index in
 * the reduced elements (-1: none yet), plus a flag that a non-NaN element
 * was seen. The combination of two pairs is a total order on (value,
 * index) - NaN beats every number for argmax and argmin (NumPy returns the
 * first NaN), equal values go to the smaller index (NumPy's first
 * occurrence) - so it is associative and commutative, and a tree of
 * partials (the GPU) gives the same index as the host's sequential loop,
 * exactly. Complex values order lexicographically: real part, then
 * imaginary part; a complex value is NaN when either part is.
 *
 * The operations:
 *  - ARGMAX, ARGMIN: numpy.argmax and numpy.argmin.
 *  - NANARGMAX, NANARGMIN: numpy.nanargmax and numpy.nanargmin, which
 *    replace NaN with -inf (+inf for nanargmin; complex: that real part and
 *    a zero imaginary part) and take argmax; the flag stays clear on an
 *    all-NaN slice, which NumPy rejects.
 *  - SKIPMAX, SKIPMIN: the index numpy.nanmax and numpy.nanmin take their
 *    value from (fmax and fmin reductions): NaN elements are skipped, and an
 *    all-NaN slice gives -1 (nanmax and nanmin then return its first
 *    element, a NaN, as NumPy does).
 */
#ifndef CUSCI_REFERENCE_ARG_OPS_H
#define CUSCI_REFERENCE_ARG_OPS_H

#include <math.h>
#include <stdint.h>

#include <cusci/kit/convert.h>

enum cusci__aop {
  CUSCI__A_ARGMAX,
  CUSCI__A_ARGMIN,
  CUSCI__A_NANARGMAX,
  CUSCI__A_NANARGMIN,
  CUSCI__A_SKIPMAX,
  CUSCI__A_SKIPMIN,
  CUSCI__A_NOPS
};

CUSCI_HD int cusci__aop_is_max(int op)
{
  return op == CUSCI__A_ARGMAX || op == CUSCI__A_NANARGMAX || op == CUSCI__A_SKIPMAX;
}

/* Per value kind: a > b, isnan, zero, and NaN's replacement. */
CUSCI_HD int cusci__agt_I(int64_t a, int64_t b) { return a > b; }
CUSCI_HD int cusci__agt_U(uint64_t a, uint64_t b) { return a > b; }
CUSCI_HD int cusci__agt_F(double a, double b) { return a > b; }
CUSCI_HD int cusci__agt_C(cusci_c128 a, cusci_c128 b) { return a.re > b.re || (a.re == b.re && a.im > b.im); }
CUSCI_HD int cusci__anan_I(int64_t a) { (void)a; return 0; }
CUSCI_HD int cusci__anan_U(uint64_t a) { (void)a; return 0; }
CUSCI_HD int cusci__anan_F(double a) { return a != a; }
CUSCI_HD int cusci__anan_C(cusci_c128 a) { return a.re != a.re || a.im != a.im; }
CUSCI_HD int64_t cusci__azero_I(void) { return 0; }
CUSCI_HD uint64_t cusci__azero_U(void) { return 0; }
CUSCI_HD double cusci__azero_F(void) { return 0.0; }
CUSCI_HD cusci_c128 cusci__azero_C(void)
{
  cusci_c128 z;
  z.re = z.im = 0.0;
  return z;
}
CUSCI_HD int64_t cusci__arepl_I(int op) { (void)op; return 0; }
CUSCI_HD uint64_t cusci__arepl_U(int op) { (void)op; return 0; }
CUSCI_HD double cusci__arepl_F(int op) { return cusci__aop_is_max(op) ? -INFINITY : INFINITY; }
CUSCI_HD cusci_c128 cusci__arepl_C(int op)
{
  cusci_c128 z;
  z.re = cusci__aop_is_max(op) ? -INFINITY : INFINITY;
  z.im = 0.0;
  return z;
}

/* The pair type of value kind K and its steps. */
#define CUSCI__APAIR(K, A)                                                                                 \
  typedef struct cusci__apair_##K {                                                                        \
    A v;                                                                                                   \
    int64_t i;     /* flat index in the reduced elements; -1: none */                                      \
    int64_t valid; /* a non-NaN element was seen */                                                        \
  } cusci__apair_##K;                                                                                      \
  CUSCI_HD cusci__apair_##K cusci__ainit_##K(void)                                                         \
  {                                                                                                        \
    cusci__apair_##K p;                                                                                    \
    p.v = cusci__azero_##K();                                                                              \
    p.i = -1;                                                                                              \
    p.valid = 0;                                                                                           \
    return p;                                                                                              \
  }                                                                                                        \
  CUSCI_HD cusci__apair_##K cusci__aload_##K(int op, A x, int64_t r)                                       \
  {                                                                                                        \
    cusci__apair_##K p;                                                                                    \
    p.v = x;                                                                                               \
    p.i = r;                                                                                               \
    p.valid = 1;                                                                                           \
    if (cusci__anan_##K(x)) {                                                                              \
      if (op == CUSCI__A_SKIPMAX || op == CUSCI__A_SKIPMIN) {                                              \
        p.i = -1;                                                                                          \
        p.valid = 0;                                                                                       \
      } else if (op == CUSCI__A_NANARGMAX || op == CUSCI__A_NANARGMIN) {                                   \
        p.v = cusci__arepl_##K(op);                                                                        \
        p.valid = 0;                                                                                       \
      }                                                                                                    \
    }                                                                                                      \
    return p;                                                                                              \
  }                                                                                                        \
  CUSCI_HD cusci__apair_##K cusci__acomb_##K(int op, cusci__apair_##K p, cusci__apair_##K q)               \
  {                                                                                                        \
    if (p.i < 0)                                                                                           \
      return q;                                                                                            \
    if (q.i < 0)                                                                                           \
      return p;                                                                                            \
    int pn = cusci__anan_##K(p.v), qn = cusci__anan_##K(q.v), take_p;                                      \
    if (pn || qn)                                                                                          \
      take_p = (pn && qn) ? p.i < q.i : pn;                                                                \
    else if (cusci__aop_is_max(op) ? cusci__agt_##K(p.v, q.v) : cusci__agt_##K(q.v, p.v))                  \
      take_p = 1;                                                                                          \
    else if (cusci__aop_is_max(op) ? cusci__agt_##K(q.v, p.v) : cusci__agt_##K(p.v, q.v))                  \
      take_p = 0;                                                                                          \
    else                                                                                                   \
      take_p = p.i < q.i;                                                                                  \
    cusci__apair_##K r = take_p ? p : q;                                                                   \
    r.valid = p.valid | q.valid;                                                                           \
    return r;                                                                                              \
  }                                                                                                        \
  /* The index delivered: -1 marks an all-NaN slice of the NaN variants. */                               \
  CUSCI_HD int64_t cusci__afinal_##K(int op, cusci__apair_##K p)                                           \
  {                                                                                                        \
    if ((op == CUSCI__A_NANARGMAX || op == CUSCI__A_NANARGMIN) && !p.valid)                                \
      return -1;                                                                                           \
    return p.i;                                                                                            \
  }

CUSCI__APAIR(I, int64_t)
CUSCI__APAIR(U, uint64_t)
CUSCI__APAIR(F, double)
CUSCI__APAIR(C, cusci_c128)

#endif
