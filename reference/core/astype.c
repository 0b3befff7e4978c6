/*
 * reference/core/astype.c: dtype conversion on the host, all 196 pairs,
 * from the element conversions in convert.h.
 */
#include "reference/core/reference.h"

#include <string.h>

#include <cusci/kit/convert.h>

void cusci__host_walk(const cusci_loop *loop, char *const *base, const int *itemsizes, cusci__row_fn row, const void *arg)
{
  int nd = loop->ndim, nops = loop->nops;
  int64_t idx[32] = {0};
  int64_t inner[CUSCI_LOOP_MAX_OPS];
  char *p[CUSCI_LOOP_MAX_OPS];
  if (loop->size == 0)
    return;
  for (int k = 0; k < nops; k++) {
    inner[k] = loop->stride[k][nd - 1] * itemsizes[k];
    p[k] = base[k];
  }
  int64_t rows = loop->size / loop->shape[nd - 1];
  for (int64_t r = 0; r < rows; r++) {
    row(p, inner, loop->shape[nd - 1], arg);
    /* Advance the outer index like an odometer. */
    for (int d = nd - 2; d >= 0; d--) {
      for (int k = 0; k < nops; k++)
        p[k] += loop->stride[k][d] * itemsizes[k];
      if (++idx[d] < loop->shape[d])
        break;
      for (int k = 0; k < nops; k++)
        p[k] -= loop->stride[k][d] * itemsizes[k] * loop->shape[d];
      idx[d] = 0;
    }
  }
}

/* One row function per (source, destination) pair. memcpy keeps the loads
 * and stores free of alignment and aliasing assumptions. */
#define ROW_(D, DT, DK, S, ST, SK)                                                                     \
  static void row_##S##_##D(char *const *p, const int64_t *bs, int64_t n, const void *arg)            \
  {                                                                                                    \
    char *d = p[0];                                                                                    \
    const char *s = p[1];                                                                              \
    for (int64_t i = 0; i < n; i++, d += bs[0], s += bs[1]) {                                          \
      ST x;                                                                                            \
      memcpy(&x, s, sizeof x);                                                                         \
      DT y = CUSCI_CONVERT(S, SK, D, x);                                                              \
      memcpy(d, &y, sizeof y);                                                                         \
    }                                                                                                  \
  }
#define ROW_SRC_(S, ST, SK, D) ROW_DST_(D, S, ST, SK)
#define ROW_DST_(D, S, ST, SK) ROW_EXPAND_(D, S, ST, SK)
#define ROW_EXPAND_(D, S, ST, SK) ROW_(D, DST_T_##D, DST_K_##D, S, ST, SK)

/* Destination C types by name, for the pair generator. */
#define DST_T_BOOL uint8_t
#define DST_T_INT8 int8_t
#define DST_T_INT16 int16_t
#define DST_T_INT32 int32_t
#define DST_T_INT64 int64_t
#define DST_T_UINT8 uint8_t
#define DST_T_UINT16 uint16_t
#define DST_T_UINT32 uint32_t
#define DST_T_UINT64 uint64_t
#define DST_T_FLOAT16 cusci_f16
#define DST_T_FLOAT32 float
#define DST_T_FLOAT64 double
#define DST_T_COMPLEX64 cusci_c64
#define DST_T_COMPLEX128 cusci_c128

#define ROWS_FOR_DST_(D, DT, DK, unused) CUSCI_TYPES_B(ROW_SRC_, D)
CUSCI_TYPES_A(ROWS_FOR_DST_, 0)

#define ENTRY_(S, ST, SK, D) row_##S##_##D,
#define TABLE_ROW_(D, DT, DK, unused) {CUSCI_TYPES_B(ENTRY_, D)},
/* rows[dst][src] */
static const cusci__row_fn rows[14][14] = {CUSCI_TYPES_A(TABLE_ROW_, 0)};

static const int itemsizes[14] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};

void cusci__host_astype(int dst_dtype, int src_dtype, const cusci_loop *loop, void *dst, const void *src)
{
  char *base[2] = {dst, (char *)src};
  int sizes[2] = {itemsizes[dst_dtype], itemsizes[src_dtype]};
  cusci__host_walk(loop, base, sizes, rows[dst_dtype][src_dtype], NULL);
}
