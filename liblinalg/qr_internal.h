/*
 * liblinalg/qr_internal.h: what liblinalg/qr.c shares with the other files
 * of the API layer.
 */
#ifndef CUSCI_LIBLINALG_QR_INTERNAL_H
#define CUSCI_LIBLINALG_QR_INTERNAL_H

#include <cusci/core.h>

/*
 * The economic SVD a = u diag(s) vh of a (..., M, N) in the working dtype
 * (*u, *s, *vh NULL on entry), with the small singular values as accurate
 * as the large ones (to eps * s[0]), for rank decisions. On the host:
 * gesdd. On a GPU, gesvdp shifts singular values near zero by a
 * perturbation, so the SVD is taken instead of the square triangular factor
 * of a QR factorization (of a, or of a^H when M < N) by gesvd
 * (cusci_linalg_svd with full_matrices of a square matrix), and the factors
 * are multiplied back.
 */
cusci_status cusci__la_svd_accurate(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_array **u, cusci_array **s, cusci_array **vh);

#endif
