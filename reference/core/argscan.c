/*
 * reference/core/argscan.c: arg-reductions, their gather, and scans on the
 * host: sequential loops with the steps of arg_ops.h and scan_ops.h.
 */
#include "reference/core/argscan.h"

#include <string.h>

#include <cusci/core.h>

#include "reference/core/arg_ops.h"
#include "reference/core/reduce_ops.h"
#include "reference/core/scan_ops.h"

/* Offset in elements of element i of a loop, for operand k. */
static int64_t offset_of(const cusci_loop *l, int k, int64_t i)
{
  int64_t off = 0;
  for (int d = l->ndim - 1; d >= 0; d--) {
    int64_t n = l->shape[d];
    off += (i % n) * l->stride[k][d];
    i /= n;
  }
  return off;
}

/* Step an odometer over loop l: idx and the offsets of nops operands. */
static void odometer(const cusci_loop *l, int nops, int64_t *idx, int64_t *off)
{
  for (int d = l->ndim - 1; d >= 0; d--) {
    for (int k = 0; k < nops; k++)
      off[k] += l->stride[k][d];
    if (++idx[d] < l->shape[d])
      return;
    for (int k = 0; k < nops; k++)
      off[k] -= l->stride[k][d] * l->shape[d];
    idx[d] = 0;
  }
}

#define HOST_ARG_(D, T, K, A)                                                                            \
  static void arg_##D(int op, const cusci_loop *kept, const cusci_loop *red, int64_t *idx, const void *in) \
  {                                                                                                      \
    const T *x = in;                                                                                     \
    for (int64_t m = 0; m < kept->size; m++) {                                                           \
      const T *base = x + offset_of(kept, 1, m);                                                         \
      cusci__apair_##K p = cusci__ainit_##K();                                                           \
      int64_t pos[32] = {0}, off = 0;                                                                    \
      for (int64_t r = 0; r < red->size; r++) {                                                          \
        p = cusci__acomb_##K(op, p, cusci__aload_##K(op, cusci_load_##D(base[off]), r));                \
        odometer(red, 1, pos, &off);                                                                     \
      }                                                                                                  \
      idx[m] = cusci__afinal_##K(op, p);                                                                 \
    }                                                                                                    \
  }
CUSCI__RTYPES(HOST_ARG_)

#define ARG_CASE_(D, T, K, A)          \
  case CUSCI_##D:                      \
    arg_##D(op, kept, red, idx, in);   \
    return;

void cusci__host_argreduce(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, int64_t *idx,
                           const void *in)
{
  switch (dtype) {
    CUSCI__RTYPES(ARG_CASE_)
  }
}

void cusci__host_gather(int itemsize, const cusci_loop *kept, const cusci_loop *red, void *out, const int64_t *idx,
                        const void *in)
{
  const char *x = in;
  char *o = out;
  for (int64_t m = 0; m < kept->size; m++) {
    int64_t e = offset_of(kept, 1, m) + offset_of(red, 0, idx[m] < 0 ? 0 : idx[m]);
    memcpy(o + m * itemsize, x + e * itemsize, (size_t)itemsize);
  }
}

#define HOST_SCAN_(D, T, K, A, R)                                                                         \
  static void scan_##D(int op, const cusci_loop *kept, const cusci_loop *red, void *out, const void *in) \
  {                                                                                                       \
    const T *x = in;                                                                                      \
    R *y = out;                                                                                           \
    for (int64_t m = 0; m < kept->size; m++) {                                                            \
      int64_t pos[32] = {0}, off[2] = {offset_of(kept, 0, m), offset_of(kept, 1, m)};                     \
      A acc = cusci__sinit_##K(op);                                                                       \
      for (int64_t r = 0; r < red->size; r++) {                                                           \
        A e = cusci__sprep_##K(op, cusci__sload_##D(x[off[1]]));                                        \
        acc = r ? cusci__sstep_##K(op, acc, e) : e; /* no identity step: 1 * (inf + 0j) is not exact */ \
        y[off[0]] = cusci__sstore_##D(acc);                                                               \
        odometer(red, 2, pos, off);                                                                       \
      }                                                                                                   \
    }                                                                                                     \
  }
CUSCI__STYPES(HOST_SCAN_)

#define SCAN_CASE_(D, T, K, A, R)        \
  case CUSCI_##D:                        \
    scan_##D(op, kept, red, out, in);    \
    return;

void cusci__host_scan(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *out, const void *in)
{
  switch (dtype) {
    CUSCI__STYPES(SCAN_CASE_)
  }
}
