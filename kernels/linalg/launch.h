/*
 * kernels/linalg/launch.h: the CUDA backend of liblinalg, as seen from C.
 *
 * Plain C, no CUDA header. The operations mirror reference/linalg's: the
 * same row-major, C-contiguous batches, already checked, in device memory
 * of ctx's GPU, queued on ctx's stream with ctx's cuBLAS and cuSOLVER
 * handles (made on first use and kept on the context). A CUDA, cuBLAS or
 * cuSOLVER failure is recorded on ctx under `fn` and returned as a status.
 * The operations that factor wait for the stream once at the end, to read
 * the solvers' info and, when check_finite, a flag that says whether an
 * input held inf or NaN (*nonfinite); *fail names the first matrix that
 * failed, as the host backend does.
 */
#ifndef CUSCI_KERNELS_LINALG_LAUNCH_H
#define CUSCI_KERNELS_LINALG_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core.h>

#include "reference/linalg/reference.h"

#ifdef __cplusplus
extern "C" {
#endif

cusci_status cusci__gpu_la_gemm(cusci_ctx *ctx, const char *fn, int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa, const void *b, int64_t sb, void *c);
/* solve reads the right-hand sides from bin and leaves x in b (bin may be b). */
cusci_status cusci__gpu_la_solve(cusci_ctx *ctx, const char *fn, int dt, int assume, bool lower, int trans, bool unit, bool check_finite, int64_t batch, int64_t n, int64_t k, void *a, const void *bin, void *b, cusci__la_fail *fail, bool *nonfinite);
cusci_status cusci__gpu_la_inv(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *out, cusci__la_fail *fail, bool *nonfinite);
cusci_status cusci__gpu_la_det(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *det, bool *nonfinite);
cusci_status cusci__gpu_la_slogdet(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *sign, void *logdet, bool *nonfinite);
cusci_status cusci__gpu_la_lu_factor(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, void *a, int64_t *ipiv, bool *nonfinite);
cusci_status cusci__gpu_la_lu_solve(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, int64_t k, int trans, const void *lu, const int64_t *ipiv, void *b, bool *nonfinite);
cusci_status cusci__gpu_la_cholesky(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, bool lower, void *a, cusci__la_fail *fail, bool *nonfinite);
cusci_status cusci__gpu_la_svd(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, bool full, bool uv, void *a, void *u, void *s, void *vh, cusci__la_fail *fail, bool *nonfinite);
cusci_status cusci__gpu_la_eigh(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, void *a, void *w, void *v, cusci__la_fail *fail, bool *nonfinite);

/* Context options (liblinalg/options.c): the math mode (1: TF32), whether
 * checks are deferred, and the record of a deferred call's status words. */
int cusci__la_math_mode(cusci_ctx *ctx);
bool cusci__la_deferred(cusci_ctx *ctx);
cusci_status cusci__la_defer(cusci_ctx *ctx, const char *fn, cusci_array *words, int64_t batch, bool has_info);

/* ---- structured solvers (kernels/linalg/solvers.cu) */
/* Queue banded LU (kind CUSCI__LA_GEN, band l below and u above) or banded
 * Cholesky (CUSCI__LA_POS, one triangle of width l or u, `lower` saying
 * which), one matrix per thread, of the matrices in a: mode 0 dense
 * (n, n), 1 dense read transposed, 2 band storage (l + u + 1, n) as
 * SciPy's. b (n, k) becomes x; info[t] the first failing index (1-based). */
cusci_status cusci__gpu_la_band_queue(cusci_ctx *ctx, const char *fn, int dt, int kind, int mode, int64_t batch, int64_t n, int64_t k, int64_t l,
                                      int64_t u, bool lower, const void *a, void *b, int *info);
/* solve_banded / solveh_banded from band storage (mode 2), with the checks. */
cusci_status cusci__gpu_la_band(cusci_ctx *ctx, const char *fn, int dt, int kind, bool check_finite, int64_t batch, int64_t n, int64_t k,
                                int64_t l, int64_t u, bool lower, const void *ab, void *b, cusci__la_fail *fail, bool *nonfinite);
/* solve_toeplitz: Levinson-Durbin, one thread block for all k columns. */
cusci_status cusci__gpu_la_levinson(cusci_ctx *ctx, const char *fn, int dt, bool check_finite, int64_t n, int64_t k, const void *c, const void *r,
                                    void *b, cusci__la_fail *fail, bool *nonfinite);
/* In place cuFFT (C2C, unnormalised) of x (n, k) complex along axis 0. */
cusci_status cusci__gpu_la_fft(cusci_ctx *ctx, const char *fn, int dt, int64_t n, int64_t k, bool inverse, void *x);

/* ---- small matrices (kernels/linalg/small.cu) */
/* What the small-matrix kernels compute (the same codes as
 * kernels/linalg/linalg.cu's register kernel for n <= 8). */
enum { CUSCI__LA_SMALL_SOLVE, CUSCI__LA_SMALL_INV, CUSCI__LA_SMALL_DET, CUSCI__LA_SMALL_SLOGDET };
/* The largest n solve, inv, det and slogdet take through the small-matrix
 * kernels. */
#define CUSCI__LA_SMALL_MAX 32
/* Whether solve takes matrices of kind `assume` (a CUSCI__LA_* code) and
 * order n through the small-matrix kernels; and whether those read a as
 * it is (general and banded a: they check it as they load it; a symmetric
 * one's triangle is mirrored in a copy, checked whole). */
static inline bool cusci__la_small_solve(int assume, int64_t n)
{
  return n <= CUSCI__LA_SMALL_MAX &&
         (assume == CUSCI__LA_GEN || assume == CUSCI__LA_BANDED || assume == CUSCI__LA_SYM || assume == CUSCI__LA_HER);
}
static inline bool cusci__la_small_reads_a(int assume)
{
  return assume == CUSCI__LA_GEN || assume == CUSCI__LA_BANDED;
}
/* Where a small-matrix kernel posts a call's outcome for the host to read
 * without a copy (status_words in kernels/linalg/linalg.cu): mailbox, the
 * device words that gather it (first and flag point into them), and
 * reply, their copy in mapped host memory, stamped with epoch. A NULL
 * mailbox: the kernel posts nothing. */
typedef struct cusci__la_post {
  void *mailbox;
  void *reply;
  unsigned epoch;
} cusci__la_post;
/* Queue Gaussian elimination with partial pivoting (getrf's order) of the
 * batch of n x n matrices a (read as a^T when trans), 1 <= n <= 32 (solve,
 * inv and det take it for n >= 9), one matrix per warp or half warp in
 * registers: SOLVE reads b (n, k) from bin and writes x to b (bin may be
 * b; a failed matrix's x is its b), INV writes inv(a) to out, DET writes
 * det(a) to out, SLOGDET writes the sign to out and log|det| (the real
 * type) to b. info[i] (when not NULL) = the first exactly zero pivot of
 * matrix i, 1-based, or 0; *first (when not NULL) keeps the first failing
 * matrix as note_failure does (kernels/linalg/common.cuh). *flag (when
 * flag is not NULL) is set to 1 if a, or b for SOLVE, holds an inf or
 * NaN, checked as they load. The last block to finish posts *first and
 * *flag as post says. */
cusci_status cusci__gpu_la_small_queue(cusci_ctx *ctx, const char *fn, int dt, int mode, bool trans, int64_t batch, int64_t n, int64_t k,
                                       const void *a, const void *bin, void *b, void *out, int *info, unsigned long long *first, int *flag,
                                       cusci__la_post post);

#ifdef __cplusplus
}
#endif

#endif
