/*
 * liblinalg/internal.h: what the files of liblinalg's API layer share.
 */
#ifndef CUSCI_LIBLINALG_INTERNAL_H
#define CUSCI_LIBLINALG_INTERNAL_H

#include "config.h" /* CUSCI_HAVE_CUDA, before anything that tests it */

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/kit/dtypes.h>

/* Return a failing status from the enclosing function. */
#define TRY(expr) CUSCI_TRY(expr)

#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>

/* Small questions every file asks (the dtype's are the kit's). */
static inline bool cusci__la_on_host(cusci_ctx *ctx) { return cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST; }
/* The product of x[0..n) (1 for n = 0): a batch's count. */
static inline int64_t cusci__la_prod(int n, const int64_t *x)
{
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}
/* A C-contiguous host copy (malloc'ed, the caller frees) of a, from either
 * device, in the wide dtype wdt (float64 or complex128); *count, when
 * count is not NULL, is the number of doubles in it. */
cusci_status cusci__la_host_copy(cusci_ctx *ctx, const char *fn, const cusci_array *a, cusci_dtype wdt, void **buf, size_t *count);
/* An array of dtype dt on ctx's device from host values of dtype wdt. */
cusci_status cusci__la_put(cusci_ctx *ctx, const void *buf, int nd, const int64_t *shape, cusci_dtype wdt, cusci_dtype dt, cusci_array **out);
/* Check ctx and an array argument with at least min_ndim dimensions. */
cusci_status cusci__la_check_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, int min_ndim);
/* The same, and a (..., n, n): square in its last two axes. */
cusci_status cusci__la_check_square(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a);
/* LAPACKE counts in int: an m x n matrix LAPACK sees must fit, on a host
 * context, and on any when `staged` (computed on a host copy). */
cusci_status cusci__la_check_lapack(cusci_ctx *ctx, const char *fn, int64_t m, int64_t n, bool staged);

/* The dtype linalg computes in for an input of dtype dt (the four float and
 * complex dtypes as they are, bool and integers as float64, float16
 * refused with CUSCI_ERR_DTYPE naming `name`). */
cusci_status cusci__la_work_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt, cusci_dtype *out);
/* A square input (..., n, n) as the one-matrix functions take it: checked
 * square, its working dtype, n within LAPACK's int (cusci__la_check_lapack
 * with `staged`), and its batch of matrices. */
typedef struct {
  cusci_dtype dt; /* the working dtype */
  int nd;
  const int64_t *sh;
  int64_t n, batch;
} cusci__la_square;
/* The right-hand sides b of a solve with a (named na, square, order n):
 * b has n rows (one column when 1-D, NumPy 2's rule), the batches
 * broadcast into shape (nb axes, room for two more), and *x, when given,
 * is checked against the result's shape xshape. */
typedef struct cusci__la_rhs {
  bool vec;
  int64_t n, k, batch;
  int nb;
  int64_t shape[CUSCI_MAX_NDIM + 2], xshape[CUSCI_MAX_NDIM + 2];
} cusci__la_rhs;
cusci_status cusci__la_rhs_of(cusci_ctx *ctx, const char *fn, const char *na, const cusci_array *a, const cusci_array *b, cusci_dtype dt,
                              cusci_array **x, cusci__la_rhs *r);
/* b as (batch..., n, k) over r's batch shape, broadcast (a view of a
 * C-contiguous b, or of its copy); sets r->shape's last two axes to n, k. */
cusci_status cusci__la_rhs_view(cusci_ctx *ctx, const cusci_array *b, cusci__la_rhs *r, cusci_array **vb);
/* On a GPU, CUSCI_ERR_OVERFLOW unless both extents fit the int of the
 * vendor routine `lib` (cuBLAS's, say) that takes them. */
cusci_status cusci__la_check_int(cusci_ctx *ctx, const char *fn, const char *lib, int64_t m, int64_t n);
cusci_status cusci__la_square_input(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a, bool staged, cusci__la_square *q);
/* Hand n results over in order while st is and stays CUSCI_OK: res[i] to
 * out[i] by cusci_give_out, where both are given; releases every res[i]
 * not handed over. Returns the first failure. (Outputs are checked with
 * cusci_check_out, casting CUSCI_CASTING_NO, before any work.) */
cusci_status cusci__la_give_all(cusci_ctx *ctx, const char *fn, cusci_status st, int n, cusci_array **res, cusci_array ***out);
/* Broadcast two batch shapes by NumPy's rule into out (*nout axes);
 * CUSCI_ERR_BROADCAST when they do not. */
cusci_status cusci__la_broadcast_batch(cusci_ctx *ctx, const char *fn, int na, const int64_t *sa, int nb, const int64_t *sb, int *nout, int64_t *out);


/* ---- working copies and shared bodies (liblinalg/check.c and the
 * family files) */
/* A new C-contiguous copy of a in dtype dt (the working copy a
 * factorization overwrites). */
cusci_status cusci__la_work_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, cusci_array **w);
/* a for a GPU path that only reads it (read_only: the small-matrix
 * kernels): a C-contiguous array of dtype dt serves as is, else a copy. */
cusci_status cusci__la_read_copy(cusci_ctx *ctx, const cusci_array *a, cusci_dtype dt, bool read_only, cusci_array **w);
/* On the host, whether a holds an inf or NaN (checked before the work). */
bool cusci__la_host_nonfinite(cusci_array *a);
/* solve's body (basic.c), for solve, solve_triangular and cho_solve. */
struct cusci_linalg_solve_opts;
cusci_status cusci__la_solve_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b,
                                  const struct cusci_linalg_solve_opts *opts, int special, int tri_trans, bool unit,
                                  cusci_array **x);
/* cholesky's body (cholesky.c), for cholesky and cho_factor. */
cusci_status cusci__la_cholesky_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool lower, cusci_array **out);
/* svd's and eigh's bodies (svd.c, eig.c), for matrix_rank and pinv too. */
cusci_status cusci__la_svd_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, bool full_matrices, bool compute_uv,
                                cusci_array **u, cusci_array **s, cusci_array **vh);
cusci_status cusci__la_eigh_impl(cusci_ctx *ctx, const char *fn, const cusci_array *a, const struct cusci_linalg_eigh_opts *opts,
                                 cusci_array **w, cusci_array **v);

/* " (batch index [i, j])" for flat index i of a batch shape of nb axes,
 * or "" for none. */
const char *cusci__la_where(int nb, const int64_t *bshape, int64_t i, char *buf, size_t len);
/* A backend call's status in SciPy's order: st, then an inf or NaN in the
 * input, then LAPACKE's own errors (numerical failures are the caller's
 * to word). */
cusci_status cusci__la_backend_status(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite);
/* Whether any of count doubles is inf or NaN. */
bool cusci__la_nonfinite_d(const double *x, size_t count);
/* CUSCI_ERR_SHAPE unless b (named nb) has a's (named na) shape. */
cusci_status cusci__la_check_same_shape(cusci_ctx *ctx, const char *fn, const char *na, const cusci_array *a, const char *nb,
                                        const cusci_array *b);
/* The host backend's wide dtype for work in dt: complex128 or float64. */
static inline cusci_dtype cusci__la_wide_of(cusci_dtype dt) { return cusci_dtype_is_complex(dt) ? CUSCI_COMPLEX128 : CUSCI_FLOAT64; }
/* malloc that counts a zero count as one element. */
static inline void *cusci__la_xmalloc(size_t n, size_t size) { return malloc((n ? n : 1) * size); }

/* ---- a call of the CUDA backend (liblinalg/gpu.c) */
#include "kernels/linalg/launch.h"

/* What a call keeps: the launcher's view (g), and what the API layer owns
 * for it. */
typedef struct cusci__la_call {
  cusci__la_gpu g;
  struct la_state *state;
  int64_t batch;
  unsigned flags;
  bool summarized, mail, posted;
  unsigned epoch;
  cusci_array *words, *dev;
} cusci__la_call;
/* CUSCI__LA_WORDS: the call has status words for batch matrices (read at
 * the end, with one wait); CUSCI__LA_SUMMARIZED: its kernels write every
 * info word and the first failure themselves (the small-matrix kernels),
 * so that it may post its outcome instead. */
enum { CUSCI__LA_WORDS = 1, CUSCI__LA_SUMMARIZED = 2 };
/* The context's handles bound to its stream, and the words. */
cusci_status cusci__la_call_begin(cusci_ctx *ctx, const char *fn, int64_t batch, unsigned flags, cusci__la_call *c);
/* A launcher's code as a status. */
cusci_status cusci__la_call_code(cusci_ctx *ctx, const char *fn, cusci__la_call *c, int code);
/* The scratch the size query counted, from the pool (and malloc). */
cusci_status cusci__la_call_scratch(cusci_ctx *ctx, const char *fn, cusci__la_call *c);
/* When st is CUSCI_OK, read the words: the first failing matrix into
 * *fail and the inf/NaN flag into *nonfinite (either may be NULL); then
 * release what the call held. Returns the first failure. */
cusci_status cusci__la_call_end(cusci_ctx *ctx, const char *fn, cusci__la_call *c, cusci_status st, cusci__la_fail *fail, bool *nonfinite);
/*
 * One call of a launcher, `launcher(&c.g, args...)`, into st: begin, the
 * launcher as its size query, the scratch, the launcher again, end. The
 * launcher is reached only for GPU contexts (a build without CUDA has its
 * stand-in, CUSCI_LAUNCHER). `flags` as for cusci__la_call_begin.
 */
#define CUSCI__LA_GPU(st, ctx, fn, batch, flags, fail, nonfinite, launcher, ...)                              \
  do {                                                                                                        \
    cusci__la_call c_;                                                                                        \
    st = cusci__la_call_begin((ctx), (fn), (batch), (flags), &c_);                                            \
    if (st == CUSCI_OK) {                                                                                     \
      c_.g.plan = true;                                                                                       \
      st = cusci__la_call_code((ctx), (fn), &c_, launcher(&c_.g, __VA_ARGS__));                               \
    }                                                                                                         \
    if (st == CUSCI_OK)                                                                                       \
      st = cusci__la_call_scratch((ctx), (fn), &c_);                                                          \
    if (st == CUSCI_OK)                                                                                       \
      st = cusci__la_call_code((ctx), (fn), &c_, launcher(&c_.g, __VA_ARGS__));                               \
    st = cusci__la_call_end((ctx), (fn), &c_, st, (fail), (nonfinite));                                      \
  } while (0)

/* ---- numerical failures, deferred checks (liblinalg/options.c) */
#include <stdbool.h>
#include "reference/linalg/reference.h"

/* What a failure is called (SciPy's words) in CUSCI_ERR_LINALG messages. */
enum {
  CUSCI__LA_FAIL_SINGULAR,
  CUSCI__LA_FAIL_NOT_PD,
  CUSCI__LA_FAIL_SVD,
  CUSCI__LA_FAIL_EIG,
  CUSCI__LA_FAIL_TRIANGULAR,
  CUSCI__LA_FAIL_TOEPLITZ
};
/* CUSCI_ERR_LINALG for failure f of kind `kind`, with the batch index
 * formatted over the batch shape (nb axes; none when nb is 0). */
cusci_status cusci__la_fail_linalg(cusci_ctx *ctx, const char *fn, int kind, cusci__la_fail f, int nb, const int64_t *bshape);
/* The status of a backend call: st, then a non-finite input, then LAPACKE's
 * own error (lapack_info < 0), then the failure f. Tags the call's deferred
 * records (if any) with `kind`. */
cusci_status cusci__la_outcome(cusci_ctx *ctx, const char *fn, cusci_status st, int lapack_info, bool nonfinite, cusci__la_fail f, int kind,
                               int nb, const int64_t *bshape);
/* The context's cusci_linalg_math_mode; whether its checks are deferred
 * (a GPU context in CUSCI_LINALG_CHECK_DEFERRED). */
int cusci__la_math_mode(cusci_ctx *ctx);
bool cusci__la_deferred(cusci_ctx *ctx);
/* Keep a call's status words (batch info words then the inf/NaN flag, ints
 * in device memory) for cusci_linalg_check; has_info false: only the flag. */
cusci_status cusci__la_defer(cusci_ctx *ctx, const char *fn, cusci_array *words, int64_t batch, bool has_info);
/* Name the failure kind of the records made since the last tag. */
void cusci__la_defer_tag(cusci_ctx *ctx, int kind);
/* Drop the records made since the last tag: a call that reports a
 * failure of its own (lu_solve's bad pivot) leaves none of its work for
 * cusci_linalg_check to report again. */
void cusci__la_defer_drop(cusci_ctx *ctx);

/* eigh with a subset or b (liblinalg/eig.c), for cusci_linalg_eigh. */
struct cusci_linalg_eigh_opts;
cusci_status cusci__la_eigh_ex(cusci_ctx *ctx, const char *fn, const cusci_array *a, const struct cusci_linalg_eigh_opts *o, cusci_array **w,
                               cusci_array **v);

#endif
