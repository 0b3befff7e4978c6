/*
 * kernels/core/launch.h: the core's CUDA kernels as seen from C.
 *
 * Plain C, no CUDA header: libcore calls these C-linkage launch functions,
 * which queue work on `stream` (a cudaStream_t) and return 0 or the
 * cudaError_t of the launch. Arguments are already checked.
 */
#ifndef CUSCI_KERNELS_CORE_LAUNCH_H
#define CUSCI_KERNELS_CORE_LAUNCH_H

#include <stdint.h>

#include <cusci/kit/launchers.h>

#include <cusci/kit/loop.h>
#include "reference/core/fill.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each launch function is declared through CUSCI_LAUNCHER (core_ext.h),
 * which gives a build without CUDA its stand-in. */

/* dst[i] = convert(src[i]) over the loop's elements (dtypes as ints). */
CUSCI_LAUNCHER(int cusci__launch_astype(void *stream, int dst_dtype, int src_dtype, const cusci_loop *loop, void *dst, const void *src))
/* Every element of dst (operand 0 of loop) set to the itemsize bytes at value. */
CUSCI_LAUNCHER(int cusci__launch_fill(void *stream, const cusci_loop *loop, void *dst, const void *value, int itemsize))
/* n contiguous elements of numpy.arange / numpy.linspace (see fill.h). */
CUSCI_LAUNCHER(int cusci__launch_arange(void *stream, int dtype, int64_t n, const cusci__arange_args *args, void *dst))
CUSCI_LAUNCHER(int cusci__launch_linspace(void *stream, int dtype, const cusci__linspace_args *args, void *dst))
/*
 * The ufuncs (op: a cusci_ufunc with an element function), where and clip.
 * Operand 0 of loop is the output, then the inputs, in ptrs; input k is a
 * scalar when bit k of mode is set, read from vals[k] (host memory, one
 * element of the loop dtype). where takes the itemsize of x and y.
 */
CUSCI_LAUNCHER(int cusci__launch_ufunc2(void *stream, int op, int dtype, const cusci_loop *loop, void *const *ptrs, const void *const *vals, int mode))
CUSCI_LAUNCHER(int cusci__launch_ufunc1(void *stream, int op, int dtype, const cusci_loop *loop, void *const *ptrs))
CUSCI_LAUNCHER(int cusci__launch_where(void *stream, int itemsize, const cusci_loop *loop, void *const *ptrs, const void *const *vals, int mode))
CUSCI_LAUNCHER(int cusci__launch_clip(void *stream, int dtype, const cusci_loop *loop, void *const *ptrs, const void *const *vals, int mode))
/*
 * A reduction (op: enum cusci__rop) of the input `in` of dtype `dtype` into
 * acc[m], m over the kept loop (operand 1: the input), reducing over `red`
 * (operand 0: the input), in the accumulator type of dtype. With nchunks >
 * 1, scratch holds kept->size * nchunks accumulators.
 */
CUSCI_LAUNCHER(int cusci__launch_reduce(void *stream, int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *acc, const void *in, void *scratch, int nchunks))

/*
 * Sorting and statistics (kernels/core/sort.cu). Every array operand is
 * contiguous; the sorted axis is last (m rows of r elements). Functions
 * that take temp and temp_bytes work as CUB's: with temp NULL they only
 * store the scratch size (device bytes) in *temp_bytes.
 */
/* Stable sort of each row in NumPy's order: vals and/or idx (NULL: not wanted). */
CUSCI_LAUNCHER(int cusci__launch_sort_rows(void *stream, int dtype, int64_t m, int64_t r, const void *in, void *vals, int64_t *idx, void *temp, size_t *temp_bytes))
/* The values of each row in cusci_sort's order (cusci__host_sort_values): floats by their one-to-one keys alone. */
CUSCI_LAUNCHER(int cusci__launch_sort_values(void *stream, int dtype, int64_t m, int64_t r, const void *in, void *vals, void *temp, size_t *temp_bytes))
/* numpy.searchsorted of nv elements v in the n sorted elements a (one dtype). */
CUSCI_LAUNCHER(int cusci__launch_searchsorted(void *stream, int dtype, int64_t n, const void *a, int64_t nv, const void *v, int right, int64_t *out))
/* gid[i]: the number of the run of equal elements that sorted element i is in. */
CUSCI_LAUNCHER(int cusci__launch_unique_mark(void *stream, int dtype, int64_t n, const void *sorted, int equal_nan, int64_t *gid, void *temp, size_t *temp_bytes))
/* np.unique's outputs from the sorted elements, their input positions and gid (each output may be NULL). */
CUSCI_LAUNCHER(int cusci__launch_unique_scatter(void *stream, int dtype, int64_t n, const void *sorted, const int64_t *perm, const int64_t *gid, void *uniq, int64_t *index, int64_t *inverse, int64_t *counts))
/* out[k * m + j] = quantile q[k] (device) of sorted row j (reference/core/sort.h). */
CUSCI_LAUNCHER(int cusci__launch_quantile_rows(void *stream, int dtype, int method, int ct, int64_t m, int64_t r, const void *sorted, int64_t nq, const double *q, void *out))
/* Histogram over nb bins with edges (device, nb + 1 doubles): counts, or wsum with weights w. */
CUSCI_LAUNCHER(int cusci__launch_histogram(void *stream, int dtype, int64_t n, const void *a, int64_t nb, const double *edges, int wdtype, const void *w, int64_t *counts, double *wsum))
/* numpy.bincount of n values below len: counts, or wsum with weights w. */
CUSCI_LAUNCHER(int cusci__launch_bincount(void *stream, int dtype, int64_t n, const void *x, int wdtype, const void *w, int64_t len, int64_t *counts, double *wsum))

/* ---- arg-reductions and scans (kernels/core/argreduce.cu, scan.cu) ---- */
/*
 * idx[m] = arg-reduction op (enum cusci__aop) over red (operand 0: the
 * input) of the input at kept element m (kept operand 1: the input);
 * scratch holds kept->size * nchunks pairs of 32 bytes.
 */
CUSCI_LAUNCHER(int cusci__launch_argreduce(void *stream, int op, int dtype, const cusci_loop *kept, const cusci_loop *red, int64_t *idx, const void *in, void *scratch, int nchunks))
/* out[m] = the input at kept element m (operand 1) and reduced index
 * idx[m] (red operand 0; index 0 where idx[m] < 0). */
CUSCI_LAUNCHER(int cusci__launch_gather(void *stream, int itemsize, const cusci_loop *kept, const cusci_loop *red, void *out, const int64_t *idx, const void *in))
/*
 * Scan op (enum cusci__sop) along red of the input of dtype `dtype` into
 * out of the scan's result dtype; operand 0 of both loops is out, operand
 * 1 the input. cusci__launch_scan_scratch gives the scratch bytes the
 * launch needs for these loops (0: none).
 */
CUSCI_LAUNCHER(int cusci__launch_scan_scratch(int op, int dtype, const cusci_loop *kept, const cusci_loop *red, size_t *bytes))
CUSCI_LAUNCHER(int cusci__launch_scan(void *stream, int op, int dtype, const cusci_loop *kept, const cusci_loop *red, void *out, const void *in, void *scratch, size_t bytes))

#ifdef __cplusplus
}
#endif

#endif
