/*
 * reference/linalg/qr.h: the host backend of qr and lstsq
 * (reference/linalg/qr.c), with the conventions of reference.h.
 */
#ifndef CUSCI_REFERENCE_LINALG_QR_H
#define CUSCI_REFERENCE_LINALG_QR_H

#include <stdbool.h>
#include <stdint.h>

#include "reference/linalg/reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a (m x n) is destroyed; r (rrows x n); q (m x qcols) when qcols > 0;
 * jpvt (n) NULL for no pivoting, else the 0-based column permutation. */
int cusci__ref_la_qr(int dt, int64_t batch, int64_t m, int64_t n, int64_t rrows, int64_t qcols, void *a, void *q, void *r, int32_t *jpvt);

/* driver 0 gelsd, 1 gelss, 2 gelsy; cond < 0: machine precision. a (m x n)
 * destroyed; b (max(m, n) x k) holds b, then x (see qr.c); s (min(m, n))
 * real, not for gelsy. fail->info > 0: no convergence. */
int cusci__ref_la_lstsq(int dt, int driver, double cond, int64_t m, int64_t n, int64_t k, void *a, void *b, void *s, int64_t *rank,
                        cusci__la_fail *fail);

#ifdef __cplusplus
}
#endif

#endif
