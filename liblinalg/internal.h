/*
 * liblinalg/internal.h: what the files of liblinalg's API layer share.
 */
#ifndef CUSCI_LIBLINALG_INTERNAL_H
#define CUSCI_LIBLINALG_INTERNAL_H

#include <cusci/core.h>

/* The dtype linalg computes in for an input of dtype dt (the four float and
 * complex dtypes as they are, bool and integers as float64, float16
 * refused with CUSCI_ERR_DTYPE naming `name`). */
cusci_status cusci__la_work_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt, cusci_dtype *out);
/* Check a caller's output pointer (not NULL) and, when *out is given, its
 * shape, dtype and device against the result's. */
cusci_status cusci__la_check_out(cusci_ctx *ctx, const char *fn, cusci_array **out, int ndim, const int64_t *shape, cusci_dtype dt);
/* Hand a finished result to the caller: as *out when *out is NULL, else
 * copied into *out. Takes the reference to res. */
cusci_status cusci__la_give(cusci_ctx *ctx, cusci_array *res, cusci_array **out);
/* Broadcast two batch shapes by NumPy's rule into out (*nout axes);
 * CUSCI_ERR_BROADCAST when they do not. */
cusci_status cusci__la_broadcast_batch(cusci_ctx *ctx, const char *fn, int na, const int64_t *sa, int nb, const int64_t *sb, int *nout, int64_t *out);

/* eigh with a subset or b (liblinalg/eig.c), for cusci_linalg_eigh. */
struct cusci_linalg_eigh_opts;
cusci_status cusci__la_eigh_ex(cusci_ctx *ctx, const char *fn, const cusci_array *a, const struct cusci_linalg_eigh_opts *o, cusci_array **w,
                               cusci_array **v);

#endif
