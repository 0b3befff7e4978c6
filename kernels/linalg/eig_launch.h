/*
 * kernels/linalg/eig_launch.h: the CUDA backend of liblinalg's
 * eigenproblems (kernels/linalg/eig.cu), as seen from C.
 *
 * Plain C, no CUDA header. Row-major, C-contiguous batches in device
 * memory of ctx's GPU, queued on ctx's stream; the operations that factor
 * wait for the stream once at the end to read cuSOLVER's info and the
 * inf/NaN flag, as those of kernels/linalg/launch.h.
 */
#ifndef CUSCI_KERNELS_LINALG_EIG_LAUNCH_H
#define CUSCI_KERNELS_LINALG_EIG_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core.h>

#include "reference/linalg/eig.h"

#ifdef __cplusplus
extern "C" {
#endif

/* eig by cuSOLVER Xgeev: a (n, n) of dtype dt is destroyed; w (n) and vr
 * (n, n), when not NULL, of the complex dtype of dt's precision. */
cusci_status cusci__gpu_la_eig(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *w, void *vr,
                               cusci__la_fail *fail, bool *nonfinite);
/* Scale each column of the complex (n, n) matrices v (dtype cdt) to unit
 * 2-norm with its largest component real. */
cusci_status cusci__gpu_la_eig_normalize(cusci_ctx *ctx, const char *fn, int cdt, int64_t batch, int64_t n, void *v);
/* eigh with a subset and/or b, as cusci__ref_la_eigh_ex: a and b (n, n)
 * of dtype dt destroyed, w (n) real, v (n, n) or NULL, m[i] on the host. */
cusci_status cusci__gpu_la_eigh_ex(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, bool upper,
                                   cusci__la_range r, int type, void *a, void *b, void *w, void *v, int64_t *m, cusci__la_fail *fail,
                                   bool *nonfinite);

#ifdef __cplusplus
}
#endif

#endif
