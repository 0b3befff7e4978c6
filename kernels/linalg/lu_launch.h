/*
 * kernels/linalg/lu_launch.h: the kernels of lu_factor, lu_solve and lu
 * (kernels/linalg/lu.cu) as seen from C.
 *
 * Plain C, no CUDA header. Each launcher queues work on `stream` (a
 * cudaStream_t) and returns 0 or the cudaError_t of what failed; it never
 * waits. Arguments are already checked; arrays are C-contiguous device
 * memory. Declared through CUSCI_LAUNCHER, so that a build without CUDA
 * has their stand-ins and liblinalg calls them with no #ifdef.
 */
#ifndef CUSCI_KERNELS_LINALG_LU_LAUNCH_H
#define CUSCI_KERNELS_LINALG_LU_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core_ext.h>

#ifdef __cplusplus
extern "C" {
#endif

/* piv[i] = ipiv[i] - 1 for i < count: cuSOLVER's 1-based int64 pivots as
 * SciPy's 0-based int32 ones (lu_factor). */
CUSCI_LAUNCHER(int cusci__launch_la_piv_from_lapack(void *stream, int64_t count, const int64_t *ipiv, int32_t *piv))

/* The words of scratch that cusci__launch_la_piv_to_lapack reports in. */
#define CUSCI__LA_PIV_BAD_WORDS 2
/*
 * ipiv[i] = piv[i] + 1 for i < count, SciPy's 0-based int32 pivots of n x n
 * matrices as cuSOLVER's 1-based int64 ones (lu_solve), with a range check:
 * a pivot outside 0..n-1 becomes its own row (i % n) + 1, a swap of the row
 * with itself, so that getrs never reads past a matrix. bad: two words of
 * device scratch (CUSCI__LA_PIV_BAD_WORDS), which the launcher initialises:
 * bad[0] becomes the smallest i whose pivot is out of range (UINT64_MAX
 * when none is), and, when there is one, bad[1] that pivot as an int64.
 */
CUSCI_LAUNCHER(int cusci__launch_la_piv_to_lapack(void *stream, int64_t count, int64_t n, const int32_t *piv, int64_t *ipiv,
                                                  uint64_t *bad))

/*
 * The GPU twin of cusci__ref_la_lu_split (reference/linalg/reference.h):
 * from the factors f (batch, n, n) of dtype dt and the 0-based pivots piv
 * (batch, n), rows (batch, n) becomes SciPy's p_indices, p (batch, n, n)
 * of dt's real dtype the permutation matrix (unless NULL), l the unit
 * lower triangle (its rows permuted, p l, when permute_l) and u the upper
 * triangle, every element written. rows is the p_indices output or
 * scratch of batch * n int32; f, piv, rows, p, l and u do not overlap.
 */
CUSCI_LAUNCHER(int cusci__launch_la_lu_split(void *stream, int dt, int64_t batch, int64_t n, const void *f, const int32_t *piv,
                                             bool permute_l, int32_t *rows, void *p, void *l, void *u))

#ifdef __cplusplus
}
#endif

#endif
