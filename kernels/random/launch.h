/*
 * kernels/random/launch.h: librandom's CUDA kernels and cuRAND's engines
 * as seen from C.
 *
 * Plain C, no CUDA header. Each launcher queues work on `stream` (a
 * cudaStream_t) and returns 0 or the cudaError_t of the launch; a size
 * query returns 0 and stores the scratch bytes. Arguments are already
 * checked. Declared through CUSCI_LAUNCHER, so that a build without CUDA
 * has their stand-ins and librandom calls them with no #ifdef.
 */
#ifndef CUSCI_KERNELS_RANDOM_LAUNCH_H
#define CUSCI_KERNELS_RANDOM_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include <cusci/kit/launchers.h>

#include "reference/random/dists.h"
#include "reference/random/rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch bytes that cusci__launch_rreal needs (0 for most distributions;
 * the normals and gamma list the elements their fast path leaves). */
CUSCI_LAUNCHER(int cusci__rreal_scratch(int dist, const cusci__rparams *p, int f32, int64_t n, size_t *bytes))
/* The GPU twins of cusci__rhost_real / cusci__rhost_int: the same values.
 * scratch: cusci__rreal_scratch bytes of device memory (NULL when 0). */
CUSCI_LAUNCHER(int cusci__launch_rreal(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst,
                        void *scratch))
CUSCI_LAUNCHER(int cusci__launch_rint(void *stream, int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype, int64_t n, void *dst))

/* cuRAND's engines (kernels/random/curand.cu), a vendor sequence: `gen` is
 * a curandGenerator_t of `device`, a GPU that the caller has made current
 * or CUSCI_DEVICE_HOST (cuRAND's host generator, buffers in host memory);
 * `kind` a cusci_bitgen other than Philox. They return 0,
 * CUSCI_GPU_CODE(CUSCI_GPU_CURAND, status) or a cudaError_t, and store in
 * *what the name of the call that failed (NULL for a kernel launch). */
CUSCI_LAUNCHER(int cusci__rengine_create(int kind, int device, void **gen, const char **what))
/* With gen's device current; the caller's stays current after. */
CUSCI_LAUNCHER(int cusci__rengine_destroy(void *gen, int device))
/* Seed a pseudo-random engine with seed; move every engine but MTGP32 and
 * MT19937, which cannot seek, to offset. */
CUSCI_LAUNCHER(int cusci__rengine_seek(void *gen, int kind, uint64_t seed, uint64_t offset, const char **what))
/* m values of `dist` at buf, on `stream`: RANDOM (numpy's [0, 1)) and
 * UNIFORM ([p->a, p->b)), STANDARD_NORMAL, NORMAL and LOGNORMAL (p->a,
 * p->b) as float32 (f32) or float64; POISSON (p->a) as uint32. When m > n
 * (pseudo-random normals come in pairs) buf is scratch, and its first n
 * values are then copied to dst. */
CUSCI_LAUNCHER(int cusci__launch_rengine(void *stream, void *gen, int device, int dist, const cusci__rparams *p, int f32, int64_t n,
                          int64_t m, void *buf, void *dst, const char **what))

/* Scratch bytes that cusci__launch_rperm needs for n keys. */
CUSCI_LAUNCHER(int cusci__rperm_scratch(int64_t n, size_t *bytes))
/* The GPU twin of cusci__rhost_perm; w (device, or NULL) as there; scratch
 * of cusci__rperm_scratch(n) bytes. */
CUSCI_LAUNCHER(int cusci__launch_rperm(void *stream, uint64_t key, uint64_t ctr, int64_t n, const double *w, void *scratch,
                        size_t scratch_bytes, int64_t *idx))
/* The GPU twin of cusci__rhost_choice_cdf (cdf in device memory). */
CUSCI_LAUNCHER(int cusci__launch_rchoice_cdf(void *stream, uint64_t key, uint64_t ctr, const double *cdf, int64_t n, int64_t m,
                              int64_t *out))
/* Row gather: dst row i = src row idx[i], rows of row_bytes bytes. */
CUSCI_LAUNCHER(int cusci__launch_rgather(void *stream, const void *src, void *dst, const int64_t *idx, int64_t rows, size_t row_bytes))

/* The GPU twins of cusci__rhost_real_arr and cusci__rhost_int_arr
 * (parameter arrays in device memory, n elements each). */
CUSCI_LAUNCHER(int cusci__launch_rreal_arr(void *stream, int dist, const double *pa, const double *pb, uint64_t key, uint64_t ctr,
                            int f32, int64_t n, void *dst))
CUSCI_LAUNCHER(int cusci__launch_rint_arr(void *stream, int dist, const double *pa, const int64_t *pn, uint64_t key, uint64_t ctr,
                           int64_t n, int64_t *dst))
/* The GPU twin of cusci__rhost_rows (v in device memory). */
CUSCI_LAUNCHER(int cusci__launch_rrows(void *stream, int kind, const double *v, int64_t k, const cusci__rparams *p, uint64_t key,
                        uint64_t ctr, int64_t rows, void *dst))

#ifdef __cplusplus
}
#endif

#endif
