/*
 * kernels/random/launch.h: librandom's CUDA kernels as seen from C.
 *
 * Plain C, no CUDA header. Each launch function queues work on `stream`
 * (a cudaStream_t) and returns 0 or the cudaError_t of the launch.
 * Arguments are already checked.
 */
#ifndef CUSCI_KERNELS_RANDOM_LAUNCH_H
#define CUSCI_KERNELS_RANDOM_LAUNCH_H

#include <stdint.h>

#include <stddef.h>

#include "reference/random/dists.h"
#include "reference/random/rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch bytes that cusci__launch_rreal needs (0 for most distributions;
 * the normals and gamma list the elements their fast path leaves). */
size_t cusci__rreal_scratch(int dist, const cusci__rparams *p, int f32, int64_t n);
/* The GPU twins of cusci__rhost_real / cusci__rhost_int: the same values.
 * scratch: cusci__rreal_scratch bytes of device memory (NULL when 0). */
int cusci__launch_rreal(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst,
                        void *scratch);
int cusci__launch_rint(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype, int64_t n, void *dst);
/* dst[i] = a + b (1 - dst[i]) over n contiguous elements: cuRAND's
 * uniforms on (0, 1] turned into numpy's [0, 1) and scaled. */
int cusci__launch_rflip(void *stream, int f32, int64_t n, void *dst, double a, double b);

/* Scratch bytes that cusci__launch_rperm needs for n keys. */
size_t cusci__rperm_scratch(int64_t n);
/* The GPU twin of cusci__rhost_perm; w (device, or NULL) as there; scratch
 * of cusci__rperm_scratch(n) bytes. */
int cusci__launch_rperm(void *stream, uint64_t key, uint64_t ctr, int64_t n, const double *w, void *scratch,
                        size_t scratch_bytes, int64_t *idx);
/* The GPU twin of cusci__rhost_choice_cdf (cdf in device memory). */
int cusci__launch_rchoice_cdf(void *stream, uint64_t key, uint64_t ctr, const double *cdf, int64_t n, int64_t m,
                              int64_t *out);
/* Row gather: dst row i = src row idx[i], rows of row_bytes bytes. */
int cusci__launch_rgather(void *stream, const void *src, void *dst, const int64_t *idx, int64_t rows, size_t row_bytes);

/* The GPU twins of cusci__rhost_real_arr and cusci__rhost_int_arr
 * (parameter arrays in device memory, n elements each). */
int cusci__launch_rreal_arr(void *stream, int dist, const double *pa, const double *pb, uint64_t key, uint64_t ctr,
                            int f32, int64_t n, void *dst);
int cusci__launch_rint_arr(void *stream, int dist, const double *pa, const int64_t *pn, uint64_t key, uint64_t ctr,
                           int64_t n, int64_t *dst);
/* The GPU twin of cusci__rhost_rows (v in device memory). */
int cusci__launch_rrows(void *stream, int kind, const double *v, int64_t k, const cusci__rparams *p, uint64_t key,
                        uint64_t ctr, int64_t rows, void *dst);

#ifdef __cplusplus
}
#endif

#endif
