/*
 * reference/core/ufunc.c: the ufuncs, where and clip on the host: one row
 * function per (op, dtype) pair of the tables in ufunc_ops.h, applying the
 * element functions that the GPU kernels apply too.
 */
#include "reference/core/ufunc.h"

#include <string.h>

#include <cusci/compute.h>

#include "reference/core/ufunc_ops.h"

/* memcpy keeps the loads and stores free of alignment assumptions; with a
 * constant size it compiles to a plain load or store. */
#define ROW2(D, op, o) ROW2_(D, op, CUSCI__CT_##D, CUSCI__OT_##o(D))
#define ROW2_(D, op, T, OT) ROW2__(D, op, T, OT)
#define ROW2__(D, op, T, OT)                                                              \
  static void row2_##op##_##D(char *const *p, const int64_t *bs, int64_t n, const void *arg) \
  {                                                                                       \
    (void)arg;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                     \
      T a, b;                                                                             \
      memcpy(&a, p[1] + i * bs[1], sizeof a);                                             \
      memcpy(&b, p[2] + i * bs[2], sizeof b);                                             \
      OT r = cusci__e_##op##_##D(a, b);                                                   \
      memcpy(p[0] + i * bs[0], &r, sizeof r);                                             \
    }                                                                                     \
  }
#define ROWS2_(NAME, op, o, TL) CUSCI__TL_##TL(ROW2, op, o)
CUSCI__UF_BINARY(ROWS2_)

#define ROW1(D, op, o) ROW1_(D, op, CUSCI__CT_##D, CUSCI__OT_##o(D))
#define ROW1_(D, op, T, OT) ROW1__(D, op, T, OT)
#define ROW1__(D, op, T, OT)                                                              \
  static void row1_##op##_##D(char *const *p, const int64_t *bs, int64_t n, const void *arg) \
  {                                                                                       \
    (void)arg;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                     \
      T x;                                                                                \
      memcpy(&x, p[1] + i * bs[1], sizeof x);                                             \
      OT r = cusci__e_##op##_##D(x);                                                      \
      memcpy(p[0] + i * bs[0], &r, sizeof r);                                             \
    }                                                                                     \
  }
#define ROWS1_(NAME, op, o, TL) CUSCI__TL_##TL(ROW1, op, o)
CUSCI__UF_UNARY(ROWS1_)
#define ROWS1M_(NAME, op, ff, df, TL) CUSCI__TL_##TL(ROW1, op, SAME)
CUSCI__UF_MATH(ROWS1M_)

#define CASE2_(D, op, o) \
  case CUSCI_##D:        \
    return row2_##op##_##D;
#define CASE1_(D, op, o) \
  case CUSCI_##D:        \
    return row1_##op##_##D;
#define OPCASE2_(NAME, op, o, TL)   \
  case CUSCI_UFUNC_##NAME:          \
    switch (dtype) {                \
      CUSCI__TL_##TL(CASE2_, op, o) \
    default:                        \
      return NULL;                  \
    }
#define OPCASE1_(NAME, op, o, TL)   \
  case CUSCI_UFUNC_##NAME:          \
    switch (dtype) {                \
      CUSCI__TL_##TL(CASE1_, op, o) \
    default:                        \
      return NULL;                  \
    }
#define OPCASE1M_(NAME, op, ff, df, TL) OPCASE1_(NAME, op, SAME, TL)

cusci__row_fn cusci__ufunc2_row(int op, int dtype)
{
  switch (op) {
    CUSCI__UF_BINARY(OPCASE2_)
  default:
    return NULL;
  }
}

cusci__row_fn cusci__ufunc1_row(int op, int dtype)
{
  switch (op) {
    CUSCI__UF_UNARY(OPCASE1_)
    CUSCI__UF_MATH(OPCASE1M_)
  default:
    return NULL;
  }
}

void cusci__where_row(char *const *p, const int64_t *bs, int64_t n, const void *arg)
{
  size_t sz = (size_t)*(const int *)arg;
  for (int64_t i = 0; i < n; i++) {
    const char *src = p[1][i * bs[1]] ? p[2] + i * bs[2] : p[3] + i * bs[3];
    memcpy(p[0] + i * bs[0], src, sz);
  }
}

/* clip(a, lo, hi) = minimum(maximum(a, lo), hi), as NumPy's clip loop; the
 * operands go second, because on a tie of -0.0 and +0.0 NumPy's clip keeps
 * a where maximum and minimum return their second operand. */
#define ROWC(D, op, o) ROWC_(D, CUSCI__CT_##D)
#define ROWC_(D, T) ROWC__(D, T)
#define ROWC__(D, T)                                                                      \
  static void rowc_##D(char *const *p, const int64_t *bs, int64_t n, const void *arg)     \
  {                                                                                       \
    (void)arg;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                     \
      T a, lo, hi;                                                                        \
      memcpy(&a, p[1] + i * bs[1], sizeof a);                                             \
      memcpy(&lo, p[2] + i * bs[2], sizeof lo);                                           \
      memcpy(&hi, p[3] + i * bs[3], sizeof hi);                                           \
      T r = cusci__e_minimum_##D(hi, cusci__e_maximum_##D(lo, a));                        \
      memcpy(p[0] + i * bs[0], &r, sizeof r);                                             \
    }                                                                                     \
  }
CUSCI__TL_REAL(ROWC, 0, 0)
/* Complex: clip's own order (CUSCI__CLIP_CMAX in ufunc_ops.h). */
#define ROWCC(D, op, o) ROWCC_(D, CUSCI__CT_##D)
#define ROWCC_(D, T) ROWCC__(D, T)
#define ROWCC__(D, T)                                                                     \
  static void rowc_##D(char *const *p, const int64_t *bs, int64_t n, const void *arg)     \
  {                                                                                       \
    (void)arg;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                     \
      T a, lo, hi;                                                                        \
      memcpy(&a, p[1] + i * bs[1], sizeof a);                                             \
      memcpy(&lo, p[2] + i * bs[2], sizeof lo);                                           \
      memcpy(&hi, p[3] + i * bs[3], sizeof hi);                                           \
      T m = CUSCI__CLIP_CMAX(a, lo);                                                      \
      T r = CUSCI__CLIP_CMIN(m, hi);                                                      \
      memcpy(p[0] + i * bs[0], &r, sizeof r);                                             \
    }                                                                                     \
  }
CUSCI__TL_CPLX(ROWCC, 0, 0)
#define CASEC_(D, op, o) \
  case CUSCI_##D:        \
    return rowc_##D;

cusci__row_fn cusci__clip_row(int dtype)
{
  switch (dtype) {
    CUSCI__TL_ALL(CASEC_, 0, 0)
  default:
    return NULL;
  }
}
