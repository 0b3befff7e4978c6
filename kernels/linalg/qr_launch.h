/*
 * kernels/linalg/qr_launch.h: the CUDA backend of qr (kernels/linalg/qr.cu),
 * as seen from C. Plain C, no CUDA header; the conventions of
 * kernels/linalg/launch.h (row-major batches in ctx's device memory, queued
 * on ctx's stream).
 */
#ifndef CUSCI_KERNELS_LINALG_QR_LAUNCH_H
#define CUSCI_KERNELS_LINALG_QR_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A = Q R for a batch of row-major m x n matrices a (destroyed): r (rrows x
 * n, zero below the diagonal) and, when qcols > 0, q (m x qcols). cuSOLVER
 * Xgeqrf, then orgqr / ungqr. With check_finite, waits for the stream once
 * to read whether a held inf or NaN (*nonfinite); otherwise does not wait.
 */
cusci_status cusci__gpu_la_qr(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, int64_t rrows,
                              int64_t qcols, void *a, void *q, void *r, bool *nonfinite);

#ifdef __cplusplus
}
#endif

#endif
