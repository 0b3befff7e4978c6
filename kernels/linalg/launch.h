/*
 * kernels/linalg/launch.h: the CUDA backend of liblinalg, as seen from C.
 *
 * Plain C, no CUDA header. The operations mirror reference/linalg's: the
 * same row-major, C-contiguous batches, already checked (extents within
 * the vendor libraries' int where they need it), in device memory of the
 * stream's GPU.
 *
 * Every launcher follows the backend contract (docs/modules.md): it takes
 * a cusci__la_gpu, which carries the stream, the vendor handles bound to
 * it, the call's status words and its scratch, queues its work and
 * returns 0 or the code of what failed (a cudaError_t, or a cuBLAS,
 * cuSOLVER or cuFFT status tagged by CUSCI_GPU_CODE), naming the failing
 * call in g->what. It never sees a cusci_ctx, never allocates and never
 * waits: liblinalg/gpu.c makes the handles, gives the scratch and reads
 * the status words.
 *
 * The size query is the launcher itself: called with g->plan set, it
 * queues nothing and only counts the device and host bytes it would take
 * (the vendor libraries' workspace queries run then too); called again
 * with that scratch, it takes the same bytes in the same order.
 */
#ifndef CUSCI_KERNELS_LINALG_LAUNCH_H
#define CUSCI_KERNELS_LINALG_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/kit/launchers.h>

#include "reference/linalg/eig.h"
#include "reference/linalg/reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a small-matrix kernel posts a call's outcome for the host to read
 * without a copy: mailbox, the device words that gather it (first and
 * flag point into them), and reply, their copy in mapped host memory,
 * stamped with epoch. A NULL mailbox: the kernel posts nothing. */
typedef struct cusci__la_post {
  void *mailbox;
  void *reply;
  unsigned epoch;
} cusci__la_post;

/* The device words of the mailbox and the reply's layout in host memory
 * (kernels/linalg/common.cuh's post_outcome writes them). */
typedef struct cusci__la_mailbox {
  unsigned long long first;
  int flag;
  unsigned done;
} cusci__la_mailbox;
typedef struct cusci__la_reply {
  unsigned long long first;
  int flag;
  unsigned epoch;
} cusci__la_reply;

/* What a launcher is given. */
typedef struct cusci__la_gpu {
  void *stream; /* cudaStream_t */
  void *blas;   /* cublasHandle_t on stream, with the context's math mode */
  void *solver; /* cusolverDnHandle_t on stream */
  void *params; /* cusolverDnParams_t */
  bool tf32;    /* float32 products may use TF32 (cusci_linalg_set_math_mode) */
  /* The status words: info, one int per matrix (NULL when the kernels
   * post the outcome instead); flag, set to 1 when a checked input holds
   * an inf or NaN; first, for the kernels that keep it themselves, the
   * first failing matrix as note_failure records it (NULL otherwise); post,
   * where they post. Zeroed before the call. */
  int *info;
  int *flag;
  unsigned long long *first;
  cusci__la_post post;
  /* Scratch: plan is the size query (see above). Device bytes at dev,
   * host bytes at host, each piece 256-byte aligned. */
  bool plan;
  char *dev, *host;
  size_t dev_bytes, dev_used, host_bytes, host_used;
  const char *what; /* the call that failed */
} cusci__la_gpu;

/* ---- the context's handles and the call's words (kernels/linalg/state.cu) */
CUSCI_LAUNCHER(int cusci__launch_la_handles(void **blas, void **solver, void **params, const char **what))
CUSCI_LAUNCHER(int cusci__launch_la_handles_free(void *blas, void *solver, void *params))
/* Bind the handles to stream, with TF32 products or not. */
CUSCI_LAUNCHER(int cusci__launch_la_bind(void *blas, void *solver, void *stream, bool tf32, const char **what))
/* The reply in mapped host memory: *host, and *dev, its device address. */
CUSCI_LAUNCHER(int cusci__launch_la_reply(void **host, void **dev))
CUSCI_LAUNCHER(int cusci__launch_la_reply_free(void *host))
/* 0 when the stream's work is done, 1 while it runs, else its error. */
CUSCI_LAUNCHER(int cusci__launch_la_query(void *stream))
/* Queue bytes of zeros at p. */
CUSCI_LAUNCHER(int cusci__launch_la_zero(void *stream, void *p, size_t bytes))
/* Queue the summary of batch info words into *first (note_failure's key). */
CUSCI_LAUNCHER(int cusci__launch_la_summarize(void *stream, const int *info, int64_t batch, unsigned long long *first))

/* ---- products (kernels/linalg/products.cu) */
CUSCI_LAUNCHER(int cusci__launch_la_gemm(cusci__la_gpu *g, int dt, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t sa,
                                         const void *b, int64_t sb, void *c))

/* ---- LU: solve, inv, det, slogdet, lu_factor, lu_solve (kernels/linalg/lu.cu) */
/* solve reads the right-hand sides from bin and leaves x in b (bin may be
 * b); a is destroyed. */
CUSCI_LAUNCHER(int cusci__launch_la_solve(cusci__la_gpu *g, int dt, int assume, bool lower, int trans, bool unit, bool check_finite, int64_t batch,
                                          int64_t n, int64_t k, void *a, const void *bin, void *b))
CUSCI_LAUNCHER(int cusci__launch_la_inv(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *out))
CUSCI_LAUNCHER(int cusci__launch_la_det(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *det))
CUSCI_LAUNCHER(int cusci__launch_la_slogdet(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *sign,
                                            void *logdet))
/* ipiv: n per matrix, 1-based (cuSOLVER's). */
CUSCI_LAUNCHER(int cusci__launch_la_lu_factor(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, int64_t *ipiv))
CUSCI_LAUNCHER(int cusci__launch_la_lu_solve(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, int64_t k, int trans,
                                             const void *lu, const int64_t *ipiv, void *b))

/* ---- lu_factor's and lu_solve's pivots, lu's split (kernels/linalg/lu_split.cu):
 * plain stream launchers, which queue on `stream` and return 0 or the
 * cudaError_t of what failed. */
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

/* ---- cholesky, eigh, svd (kernels/linalg/cholesky.cu, eigh.cu, svd.cu) */
CUSCI_LAUNCHER(int cusci__launch_la_cholesky(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool lower, void *a))
CUSCI_LAUNCHER(int cusci__launch_la_eigh(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, void *a, void *w,
                                         void *v))
/* eigh with a subset (Xsyevdx) or with b (sygvdx / hegvdx); m[i], the
 * count found, is written on the host as each matrix is done. */
CUSCI_LAUNCHER(int cusci__launch_la_eigh_ex(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, bool upper, cusci__la_range r,
                                            int type, void *a, void *b, void *w, void *v, int64_t *m))
CUSCI_LAUNCHER(int cusci__launch_la_svd(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, bool full, bool uv,
                                        void *a, void *u, void *s, void *vh))

/* ---- eig, qr (kernels/linalg/eig.cu, qr.cu) */
CUSCI_LAUNCHER(int cusci__launch_la_eig(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t n, void *a, void *w, void *vr))
/* Each eigenvector (column) of v, complex (cdt), scaled to unit norm. */
CUSCI_LAUNCHER(int cusci__launch_la_eig_normalize(cusci__la_gpu *g, int cdt, int64_t batch, int64_t n, void *v))
CUSCI_LAUNCHER(int cusci__launch_la_qr(cusci__la_gpu *g, int dt, bool check_finite, int64_t batch, int64_t m, int64_t n, int64_t rrows,
                                       int64_t qcols, void *a, void *q, void *r))

/* ---- structured solvers (kernels/linalg/solvers.cu) */
/* solve_banded / solveh_banded from band storage (l + u + 1, n) as SciPy's:
 * banded LU (kind CUSCI__LA_GEN, band l below and u above) or banded
 * Cholesky (CUSCI__LA_POS, one triangle of width l or u, `lower` saying
 * which), one matrix per thread. b (n, k) becomes x. */
CUSCI_LAUNCHER(int cusci__launch_la_band(cusci__la_gpu *g, int dt, int kind, bool check_finite, int64_t batch, int64_t n, int64_t k, int64_t l,
                                         int64_t u, bool lower, const void *ab, void *b))
/* solve_toeplitz: Levinson-Durbin, one thread block for all k columns. */
CUSCI_LAUNCHER(int cusci__launch_la_levinson(cusci__la_gpu *g, int dt, bool check_finite, int64_t n, int64_t k, const void *c, const void *r,
                                             void *b))
/* In-place cuFFT (C2C, unnormalised) of x (n, k) complex along axis 0:
 * a plan (its work area's bytes in *work_bytes), its execution on stream
 * with that work area, and its end once the execution is done. */
CUSCI_LAUNCHER(int cusci__launch_la_fft_plan(int dt, int64_t n, int64_t k, void **plan, size_t *work_bytes))
CUSCI_LAUNCHER(int cusci__launch_la_fft(void *plan, void *stream, void *work, int dt, bool inverse, void *x))
CUSCI_LAUNCHER(int cusci__launch_la_fft_free(void *plan))

/* ---- small matrices (kernels/linalg/small.cu) */
/* What the small-matrix kernels compute. */
enum { CUSCI__LA_SMALL_SOLVE, CUSCI__LA_SMALL_INV, CUSCI__LA_SMALL_DET, CUSCI__LA_SMALL_SLOGDET };
/* The largest n solve, inv, det and slogdet take through the small-matrix
 * kernels, which write every info word and the first failure themselves
 * (the call's words are then `summarized`, liblinalg/gpu.c). */
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

#ifdef __cplusplus
}
#endif

#endif
