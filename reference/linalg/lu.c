/*
 * reference/linalg/lu.c: the host backend of scipy.linalg.lu's split of
 * lu_factor's factors into p, l and u, in the factors' own dtype, with the
 * formulas of reference/linalg/lu_ops.h (which the kernels share).
 */
#include <stddef.h>
#include <stdint.h>

#include <cusci/core.h>
#include <cusci/kit/dtypes.h>

#include "reference/linalg/lu_ops.h"
#include "reference/linalg/reference.h"

/* One instance per dtype: T the element, R its real type. */
#define LU_SPLIT_DEFINE_(NAME, T, R, L, unused)                                                                          \
  static int lu_split_##L(int64_t batch, int64_t n, const T *f, const int32_t *piv, bool permute_l, int32_t *rows, R *p, \
                          T *l, T *u)                                                                                    \
  {                                                                                                                      \
    const T one = 1, zero = 0;                                                                                           \
    for (int64_t b = 0; b < batch; b++) {                                                                                \
      const T *fb = f + b * n * n;                                                                                       \
      int32_t *rb = rows + b * n;                                                                                        \
      cusci__lu_rows(piv + b * n, n, rb);                                                                                \
      for (int64_t i = 0; i < n; i++) {                                                                                  \
        int64_t li = cusci__lu_l_row(rb, i, permute_l);                                                                  \
        for (int64_t j = 0; j < n; j++) {                                                                                \
          int64_t at = b * n * n + i * n + j;                                                                            \
          int lp = cusci__lu_l_part(li, j);                                                                              \
          l[at] = lp == CUSCI__LU_FACTOR ? fb[li * n + j] : lp == CUSCI__LU_ONE ? one : zero;                            \
          u[at] = cusci__lu_u_part(i, j) == CUSCI__LU_FACTOR ? fb[i * n + j] : zero;                                     \
          if (p)                                                                                                         \
            p[at] = cusci__lu_p_one(rb, i, j) ? (R)1 : (R)0;                                                             \
        }                                                                                                                \
      }                                                                                                                  \
    }                                                                                                                    \
    return 0;                                                                                                            \
  }
CUSCI_DTYPES_SDCZ(LU_SPLIT_DEFINE_, 0)
#undef LU_SPLIT_DEFINE_

int cusci__ref_la_lu_split(int dt, int64_t batch, int64_t n, const void *f, const int32_t *piv, bool permute_l, int32_t *rows, void *p,
                           void *l, void *u)
{
  CUSCI_DISPATCH_SDCZ(dt, -1, lu_split, batch, n, f, piv, permute_l, rows, p, l, u)
}
